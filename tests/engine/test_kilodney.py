"""Kilodney's Switch: the source's simulated hand, its three endings, and every ruling.

The simulated hand of Kilodney's rules is replayed play by play from the very
deal the source lists (each player's four rows are spades, clubs, diamonds,
hearts, whatever the garbled suit names say; Nancy also holds both jokers).
"""

from __future__ import annotations

from typing import Any

import pytest

import engine
from engine.cards import Card, make_deck
from engine.events import Event
from engine.kilodney import Kilodney, deck_for_hands, default_extra_jokers, score_play

NAMES = ["John", "Nancy", "Jane", "Bob", "Andy", "Claire"]
JOHN, NANCY, JANE, BOB, ANDY, CLAIRE = range(6)
# Rows: spades, clubs, diamonds, hearts (and Nancy's two jokers), as the source lists them.
HANDS = {
    "John": "5S 7S  TC  8D 9D AD  4H 9H JH",
    "Nancy": "4S  5D KD  3H 6H 8H QH  JK JK",
    "Jane": "3S 9S TS AS  5C  2D 7D QD  AH",
    "Bob": "6S QS  2C 4C 8C  3D 4D  2H 5H",
    "Andy": "KS  3C 9C JC QC AC  TD  7H KH",
    "Claire": "2S 8S JS  6C 7C KC  6D JD  TH",
}

# The source's narration: (who, card played, points it scores) or (who, "out", by, count).
SIMULATED_HAND: list[tuple[Any, ...]] = [
    ("John", "AD", 1),  # scores 1 for leading the ace
    ("Nancy", "5D", 0),
    ("Jane", "7D", 0),
    ("Bob", "3D", 0),
    ("Andy", "3C", 0),  # wants to get into his long suit
    ("Claire", "6C", 0),
    ("John", "TC", 0),
    ("Nancy", "JK", 0),  # stops the sequence
    ("Jane", "AS", 1),  # a new sequence: the ace lead scores
    ("Bob", "QS", 0),
    ("Andy", "KS", 1),  # one-over
    ("Claire", "JS", 0),
    ("John", "JH", 0),
    ("Nancy", "QH", 1),  # one-over
    ("Jane", "AH", 1),  # the ace in suit
    ("Bob", "5H", 0),
    ("Andy", "KH", 0),
    ("Claire", "KC", 0),
    ("John", "out", "Claire", 6),
    ("Nancy", "3H", 0),
    ("Jane", "3S", 0),
    ("Bob", "6S", 0),
    ("Andy", "out", "Bob", 6),  # stranding his ace of clubs
    ("Claire", "JD", 0),  # a knock-out is a stop: she may lead anything
    ("Nancy", "KD", 0),
    ("Jane", "2D", -1),  # the deuce in suit
    ("Bob", "2C", 0),  # a deuce switching costs nothing
    ("Claire", "2S", 0),
    ("Nancy", "4S", 0),
    ("Jane", "9S", 0),
    ("Bob", "out", "Jane", 4),
    ("Claire", "8S", 0),  # not a one-under: the sequence stopped
    ("Nancy", "8H", 0),
    ("Jane", "out", "Nancy", 3),
    ("Claire", "7C", 0),
    ("Nancy", "JK", 0),  # saved again
    ("Claire", "6D", 0),
    ("Nancy", "6H", 0),  # her last card: she leaves the hand
    ("Claire", "TH", 0),  # the last player's single reply ends the hand
]
FINAL = [1, 4, 5, 6, 1, 6]


def simulated_deal() -> list[str]:
    return deck_for_hands([HANDS[name].split() for name in NAMES], dealer=CLAIRE)


def new_simulated_game(**options: Any) -> Kilodney:
    game = engine.new_game(
        "kilodney", seats=6, seed=0, options=options, dealer=CLAIRE, deck=simulated_deal()
    )
    assert isinstance(game, Kilodney)
    return game


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def play_source_until(game: Kilodney, stop: int) -> None:
    """Play the narration's cards before row ``stop`` (knock-outs happen by themselves)."""
    for row in SIMULATED_HAND[:stop]:
        if row[1] != "out":
            game.apply(NAMES.index(row[0]), f"play {row[1]}")


# Where the variations leave the source: after Jane's knock-out, Claire (7C 6D TH) to
# lead, Nancy holding JK 6H, everyone else out.
AFTER_JANE_OUT = SIMULATED_HAND.index(("Jane", "out", "Nancy", 3)) + 1


def test_the_simulated_deal_is_the_whole_deck_nine_each() -> None:
    cards = simulated_deal()
    assert sorted(cards) == sorted(str(c) for c in make_deck(jokers=2))
    game = new_simulated_game()
    assert game.view(None)["hand_sizes"] == [9] * 6
    assert game.to_act == JOHN and game.dealer == CLAIRE
    assert game.view(NANCY)["hand"] == ["5D", "KD", "3H", "6H", "8H", "QH", "4S", "JK", "JK"]


def test_the_simulated_hand_play_by_play() -> None:
    game = new_simulated_game()
    events: list[Event] = []
    for row in SIMULATED_HAND:
        who = NAMES.index(row[0])
        if row[1] == "out":
            # A knock-out is automatic: it came with the play before it.
            knock = events.pop(0)
            assert knock.kind == "knockout"
            assert knock.public["seat"] == who
            assert knock.public["by"] == NAMES.index(row[2])
            assert knock.public["count"] == knock.public["points"] == row[3]
            continue
        assert not [e for e in events if e.kind != "hand_end" and e.kind != "deal"], events
        assert game.to_act == who, f"{row}: seat {game.to_act} is to act"
        events = game.apply(who, f"play {row[1]}")
        play = events.pop(0)
        assert play.kind == "play" and play.public["seat"] == who
        assert play.public["points"] == row[2], row
    assert kinds(events) == ["hand_end", "deal"]
    end, deal = events
    assert end.public["hand_points"] == FINAL and end.public["scores"] == FINAL
    assert end.public["knocked_out"] == [JOHN, ANDY, BOB, JANE]
    assert end.public["stranded"] == []
    assert game.scores == FINAL and not game.over
    # The deal passes left: John deals the second hand and Nancy leads it.
    assert deal.public["dealer"] == JOHN and deal.public["hand_number"] == 2
    assert game.to_act == NANCY and game.view(None)["hand_sizes"] == [9] * 6


def test_the_simulated_hand_names_what_each_play_scores() -> None:
    game = new_simulated_game()
    reasons = {}
    for row in SIMULATED_HAND:
        if row[1] != "out":
            (play, *_) = game.apply(NAMES.index(row[0]), f"play {row[1]}")
            reasons[row[1]] = (play.public["how"], play.public["reasons"])
    assert reasons["AD"] == ("lead", ["ace lead"])
    assert reasons["3C"] == ("switch", [])
    assert reasons["JK"] == ("joker", [])
    assert reasons["KS"] == ("suit", ["one-over"])
    assert reasons["AH"] == ("suit", ["ace in suit"])
    assert reasons["2D"] == ("suit", ["deuce in suit"])
    assert reasons["2C"] == ("switch", [])
    assert reasons["8S"] == ("lead", [])


def test_knocked_out_cards_are_never_shown_again() -> None:
    game = new_simulated_game()
    john_left = ["5S", "7S", "8D", "9D", "4H", "9H"]
    play_source_until(game, SIMULATED_HAND.index(("John", "out", "Claire", 6)))
    assert game.knocked_out == [JOHN] and game.to_act == NANCY
    for seat in [*range(6), None]:
        view = game.view(seat)
        assert view["hand_sizes"][JOHN] == 6
        assert view["in_hand"][JOHN] is False and view["knocked_out"] == [JOHN]
        assert view["top"] == "KC" and view["running"] is False and view["leader"] == CLAIRE
        shown = set(view["hand"] or [])
        assert not shown & set(john_left)
    assert game.view(JOHN)["hand"] == []


def test_variation_nancy_knocked_out_leaves_claire_stranded() -> None:
    """'If Nancy is knocked out, leaving Claire as the last player, the game [hand] is
    over. Claire's remaining cards are stranded. (The last player never begins a new
    sequence.)' Nancy plays her joker although 6H would follow (a joker may be played
    at any time), and cannot follow the 7C Claire leads next."""
    game = new_simulated_game()
    play_source_until(game, AFTER_JANE_OUT)
    assert game.to_act == CLAIRE and game.view(CLAIRE)["hand"] == ["7C", "6D", "TH"]
    assert game.view(NANCY)["hand"] == ["6H", "JK"]
    game.apply(CLAIRE, "play TH")
    assert {str(a) for a in game.legal_actions(NANCY)} == {"play 6H", "play JK"}
    game.apply(NANCY, "play JK")
    events = game.apply(CLAIRE, "play 7C")
    assert kinds(events) == ["play", "knockout", "hand_end", "deal"]
    knock, end = events[1], events[2]
    assert (knock.public["seat"], knock.public["by"], knock.public["count"]) == (NANCY, CLAIRE, 1)
    assert end.public["stranded"] == [{"seat": CLAIRE, "count": 1}]
    assert "6D" not in str([e.present(s) for e in events[:3] for s in [*range(6), None]])
    assert game.scores == [1, 4, 5, 6, 1, 7]
    assert game.hand_number == 2 and game.to_act == NANCY


def test_variation_nancy_ends_on_a_joker_and_claire_is_stranded() -> None:
    """'If Nancy plays a Joker as her last card, the game [hand] is over. Claire's
    remaining one or two cards are stranded.' The last player does not play after a stop."""
    game = new_simulated_game()
    play_source_until(game, AFTER_JANE_OUT)
    game.apply(CLAIRE, "play 6D")
    game.apply(NANCY, "play 6H")
    game.apply(CLAIRE, "play TH")
    events = game.apply(NANCY, "play JK")
    assert kinds(events) == ["play", "hand_end", "deal"]
    assert events[0].public["left"] is True and events[0].public["stop"] is True
    assert events[1].public["stranded"] == [{"seat": CLAIRE, "count": 1}]
    assert "7C" not in str([e.present(s) for e in events[:2] for s in [*range(6), None]])
    assert game.scores == FINAL and game.hand_number == 2


def test_variation_claire_with_two_cards_must_reply_once_and_strand_the_rest() -> None:
    """'If Claire has two cards when Nancy plays her last card (other than a Joker),
    she must play one if it is legal, and the others are stranded.'

    A fair deal cannot reach this: play never leaves the clockwise rotation and the
    deal gives nobody more cards than the players before him, so the last player
    holds one card when the one before him goes out. The source poses it anyway (a
    misdeal nobody objected to), so the position is made by moving John's face-down
    9D into Claire's hand after John's knock-out.
    """
    game = new_simulated_game()
    play_source_until(game, AFTER_JANE_OUT)
    game.hands[JOHN].remove(Card.parse("9D"))
    game.hands[CLAIRE].append(Card.parse("9D"))
    game.apply(CLAIRE, "play 7C")
    game.apply(NANCY, "play JK")
    game.apply(CLAIRE, "play 6D")
    game.apply(NANCY, "play 6H")  # her last card: Claire alone holds TH 9D
    assert game.view(None)["in_hand"] == [False] * 5 + [True]
    assert [str(a) for a in game.legal_actions(CLAIRE)] == ["play TH"]
    with pytest.raises(engine.IllegalActionError, match="9D follows neither"):
        game.apply(CLAIRE, "play 9D")
    events = game.apply(CLAIRE, "play TH")
    assert kinds(events) == ["play", "hand_end", "deal"]
    assert events[1].public["stranded"] == [{"seat": CLAIRE, "count": 1}]
    assert game.scores == FINAL


def test_a_last_player_who_cannot_reply_is_knocked_out() -> None:
    """Our ruling: the last player's one reply is a reply like any other, so if he
    cannot make it he is knocked out and the player who went out scores his cards."""
    game = new_simulated_game()
    play_source_until(game, AFTER_JANE_OUT)
    game.apply(CLAIRE, "play 6D")
    game.apply(NANCY, "play JK")
    game.apply(CLAIRE, "play TH")
    events = game.apply(NANCY, "play 6H")  # Claire holds only 7C
    assert kinds(events) == ["play", "knockout", "hand_end", "deal"]
    assert events[1].public["seat"] == CLAIRE and events[1].public["by"] == NANCY
    assert events[2].public["stranded"] == []
    assert game.scores == [1, 5, 5, 6, 1, 6]


def test_the_game_ends_the_moment_the_target_is_reached_mid_hand() -> None:
    game = new_simulated_game(target=6)
    play_source_until(game, SIMULATED_HAND.index(("John", "out", "Claire", 6)) - 1)
    events = game.apply(CLAIRE, "play KC")
    assert kinds(events) == ["play", "knockout", "game_end"]
    end = events[2].public
    assert end["winner"] == CLAIRE and end["scores"] == [1, 1, 2, 0, 1, 6]
    assert game.over and game.to_act is None and game.winner == CLAIRE
    assert game.view(NANCY)["over"] and game.legal_actions(NANCY) == []
    with pytest.raises(engine.IllegalActionError, match="game is over"):
        game.apply(NANCY, "play 3H")


def test_a_joker_may_be_played_any_time_even_as_a_lead() -> None:
    game = new_simulated_game()
    game.apply(JOHN, "play AD")
    legal = [str(a) for a in game.legal_actions(NANCY)]
    assert legal == ["play 5D", "play KD", "play JK"]  # one action for two jokers
    events = game.apply(NANCY, "play JK")  # she could follow, and stops it anyway
    assert events[0].public["stop"] and game.view(None)["running"] is False
    assert len(game.legal_actions(JANE)) == 9  # a new sequence: anything goes
    # Leading a joker: the sequence stops at once and the next player leads.
    game = new_simulated_game()
    play_source_until(game, SIMULATED_HAND.index(("Nancy", "3H", 0)))
    (lead,) = game.apply(NANCY, "play JK")
    assert (lead.public["how"], lead.public["points"], game.to_act) == ("joker", 0, JANE)
    (after,) = game.apply(JANE, "play 2D")
    assert after.public["how"] == "lead" and after.public["reasons"] == ["deuce lead"]


@pytest.mark.parametrize(
    ("seat", "action", "reason"),
    [
        (NANCY, "play 3H", "3H follows neither the suit nor the face of AD"),
        (NANCY, "play 9H", "you do not hold 9H"),
        (NANCY, "play 5D KD", "play one card at a time"),
        (NANCY, "play 5D last", "no last-card announcement"),
        (NANCY, "draw", "the only action is 'play CARD'"),
        (JANE, "play 7D", "it is not your turn; seat 2 is to play (counted from 1)"),
    ],
)
def test_illegal_plays_are_refused_with_a_precise_reason(
    seat: int, action: str, reason: str
) -> None:
    game = new_simulated_game()
    game.apply(JOHN, "play AD")
    before = [game.view(s) for s in [*range(6), None]], game.record()
    with pytest.raises(engine.IllegalActionError) as err:
        game.apply(seat, action)
    assert reason in err.value.reason
    assert ([game.view(s) for s in [*range(6), None]], game.record()) == before


def test_players_out_of_the_hand_are_told_so() -> None:
    game = new_simulated_game()
    play_source_until(game, SIMULATED_HAND.index(("John", "out", "Claire", 6)))
    with pytest.raises(engine.IllegalActionError, match="out of this hand"):
        game.apply(JOHN, "play 5S")
    play_source_until_end = SIMULATED_HAND.index(("Nancy", "6H", 0))
    game2 = new_simulated_game()
    play_source_until(game2, play_source_until_end + 1)
    assert game2.view(None)["in_hand"][NANCY] is False  # played her last card
    with pytest.raises(engine.IllegalActionError, match="played all your cards"):
        game2.apply(NANCY, "play 6H")


@pytest.mark.parametrize(
    ("card", "previous", "points"),
    [
        ("AH", "KH", 2),  # ace in suit and one-over
        ("2D", "3D", -2),  # deuce in suit and one-under
        ("2C", "2D", 0),  # switching on a deuce costs nothing
        ("AC", "AD", 0),
        ("KH", "AH", -1),  # one under the ace
        ("2H", "AH", -1),  # the ace is high only: a deuce is not one over it
        ("AH", "2H", 1),  # nor is the ace one under the deuce
        ("9C", "8C", 1),
        ("7C", "8C", -1),
        ("5C", "9C", 0),
        ("JK", "9C", 0),
        ("AS", None, 1),
        ("2S", None, -1),
        ("8S", None, 0),
        ("JK", None, 0),
    ],
)
def test_scoring_table(card: str, previous: str | None, points: int) -> None:
    prev = None if previous is None else Card.parse(previous)
    assert score_play(Card.parse(card), prev)[0] == points


@pytest.mark.parametrize(("seats", "sizes"), [(4, {14}), (5, {11}), (6, {9}), (7, {8}), (9, {6})])
def test_default_jokers_make_the_deal_even(seats: int, sizes: set[int]) -> None:
    game = engine.new_game("kilodney", seats=seats, seed=1)
    assert set(game.view(None)["hand_sizes"]) == sizes
    assert game.options["extra_jokers"] is None
    assert sum(game.view(None)["hand_sizes"]) == 54 + default_extra_jokers(seats)


def test_extra_jokers_option_and_short_hands() -> None:
    game = engine.new_game("kilodney", seats=4, seed=1, options={"extra_jokers": 0}, dealer=3)
    # Dealt from the dealer's left, dealer last: the first two seats get the extra cards.
    assert game.view(None)["hand_sizes"] == [14, 14, 13, 13]
    game = engine.new_game("kilodney", seats=8, seed=1, options={"extra_jokers": 1})
    assert sum(game.view(None)["hand_sizes"]) == 55 and game.view(None)["jokers"] == 3
    for bad in (3, -1, "2", True):
        with pytest.raises(engine.OptionError, match="extra_jokers"):
            engine.new_game("kilodney", seats=6, options={"extra_jokers": bad})
    with pytest.raises(engine.OptionError, match="4 to 9 seats"):
        engine.new_game("kilodney", seats=3)
    with pytest.raises(engine.OptionError, match="deck"):
        engine.new_game("kilodney", seats=6, dealer=5, deck=simulated_deal()[:-1])


def test_the_first_dealer_is_drawn_and_the_deal_passes_left() -> None:
    dealers = {engine.new_game("kilodney", seats=5, seed=s).view(None)["dealer"] for s in range(40)}
    assert dealers == set(range(5))
    game = new_simulated_game()
    for _ in range(3):
        dealer, hand = game.dealer, game.hand_number
        while game.hand_number == hand:
            game.apply(game.to_act, game.legal_actions(game.to_act)[0])
        assert game.dealer == (dealer + 1) % 6 and game.to_act == (dealer + 2) % 6


def test_view_has_the_agreed_keys() -> None:
    game = new_simulated_game()
    (deal,) = game.opening_events
    assert deal.present(NANCY)["cards"] == game.view(NANCY)["hand"]
    assert deal.present(JOHN)["cards"] == game.view(JOHN)["hand"] != game.view(NANCY)["hand"]
    assert "cards" not in deal.present(None)
    game.apply(JOHN, "play AD")
    view = game.view(JANE)
    expected = {
        "hand": ["5C", "2D", "7D", "QD", "AH", "3S", "9S", "TS", "AS"],
        "hand_sizes": [8, 9, 9, 9, 9, 9],
        "top": "AD",
        "running": True,
        "in_hand": [True] * 6,
        "knocked_out": [],
        "stranded": [],
        "dealer": CLAIRE,
        "hand_number": 1,
        "hand_points": [1, 0, 0, 0, 0, 0],
        "target": 50,
        "jokers": 2,
        "leader": JOHN,
        "winner": None,
        "scores": [1, 0, 0, 0, 0, 0],
        "to_act": NANCY,
        "viewer": JANE,
        "family": "kilodney",
    }
    assert {k: view[k] for k in expected} == expected
    assert game.view(None)["hand"] is None
