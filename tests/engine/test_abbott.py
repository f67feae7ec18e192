"""Abbott's Switch: the scoring example of the 1963 rules played through, and worked
positions for every rule (blocking, blanks, missed turns, the dealer's exception,
each way a hand ends, ties, the 16-point power, the game's tie rule).

Hands are fixed with ``deck=``: a deck of several whole packs fixes one hand per
pack (the grid is laid a1, b1, ... f1, a2, ... from each pack's front).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pytest

import engine
from engine.abbott import square_name
from engine.abbott.game import Abbott
from engine.cards import FULL_PACK
from engine.errors import IllegalActionError, OptionError

SMITH, JONES, ROBINSON, BROWN = range(4)  # South, West, North, East, clockwise
FILLER = [str(c) for c in FULL_PACK]


def pack(placed: Mapping[str, str], size: int = 6) -> list[str]:
    """A 52-card pack whose grid has ``placed`` cards on their squares; the other
    squares get the remaining cards in a fixed order."""
    used = set(placed.values())
    rest = iter([c for c in FILLER if c not in used])
    grid = [placed.get(square_name(i, size)) or next(rest) for i in range(size * size)]
    return grid + list(rest)


def play(game: engine.Game, script: Iterable[tuple[int, str]]) -> list[dict[str, Any]]:
    """Apply each (seat, action); return every event as a spectator sees it."""
    out = []
    for seat, action in script:
        out += [e.present(None) for e in game.apply(seat, action)]
    return out


def vote_all(game: engine.Game) -> list[dict[str, Any]]:
    return play(game, [(s, "vote end") for s in range(game.seats)])


def hand_end(events: Sequence[Mapping[str, Any]]) -> Mapping[str, Any]:
    (end,) = [e for e in events if e["kind"] == "hand_end"]
    return end


# --------------------------------------------------------------------------
# The scoring example of Abbott's rules (1963), played through hand by hand.
# In each hand every piece steps one square inward along its own row (South
# a1->b1, West a6->b6, North f6->e6, East f1->e1) and takes that card; the
# winner's square holds an ace, the others lower cards of different ranks.
FIRST_STEP = {SMITH: "b1", JONES: "b6", ROBINSON: "e6", BROWN: "e1"}


def one_round_pack(winner: int, low: Sequence[str], ace: str) -> list[str]:
    losers = [s for s in range(4) if s != winner]
    placed = {FIRST_STEP[winner]: ace}
    placed.update({FIRST_STEP[s]: card for s, card in zip(losers, low, strict=True)})
    return pack(placed)


EXAMPLE_HANDS = [
    # (chooser, partner, winner, expected hand scores Smith, Jones, Robinson, Brown)
    (SMITH, JONES, JONES, [3, 7, 0, 0]),
    (JONES, BROWN, ROBINSON, [4, 0, 6, 0]),
    (SMITH, BROWN, SMITH, [0, 0, 0, 0]),
    (ROBINSON, SMITH, JONES, [0, 6, 0, 4]),
    (ROBINSON, SMITH, SMITH, [7, 0, 3, 0]),
    (BROWN, SMITH, ROBINSON, [0, 4, 6, 0]),
    (JONES, BROWN, BROWN, [0, 3, 0, 7]),
]
EXAMPLE_TOTALS = [
    [3, 7, 0, 0],
    [7, 7, 6, 0],
    [7, 7, 6, 0],
    [7, 13, 6, 4],
    [14, 13, 9, 4],
    [14, 17, 15, 4],
    [14, 20, 15, 11],
]
NAMES = ["south", "west", "north", "east"]


def example_deck() -> list[str]:
    deck: list[str] = []
    for k, (_, _, winner, _) in enumerate(EXAMPLE_HANDS[:-1]):
        deck += one_round_pack(winner, ["7D", "5S", "3H"], ["AH", "AS", "AD", "AC"][k % 4])
    # Hand 7: two rounds. Brown takes a low card in round one and, moved by Jones
    # under the 16-point power, the ace at e2 in round two. Robinson's second
    # card (e5) is a king: no pair, no ace.
    deck += pack({"b1": "6C", "b6": "4D", "e6": "3S", "e1": "2H", "e5": "KC", "e2": "AH"})
    return deck


def test_abbott_scoring_example_is_reproduced() -> None:
    """Smith 14, Jones 20, Robinson 15, Brown 11: Jones wins (Abbott, "an example of
    the scoring in one game"). Every score comes from the engine's ranking."""
    game = engine.new_game("abbott", seats=4, seed=1963, dealer=BROWN, deck=example_deck())
    for k, (chooser, partner, winner, points) in enumerate(EXAMPLE_HANDS[:-1]):
        dealer = (BROWN + k) % 4
        assert game.view(None)["dealer"] == dealer
        events: list[dict[str, Any]] = []
        for i in range(4):
            seat = (dealer + 1 + i) % 4
            if seat == chooser:
                events += play(game, [(seat, f"ally {NAMES[partner]}")])
            events += play(game, [(seat, f"move {FIRST_STEP[seat]}")])
        assert game.view(None)["alliance"] == {"chooser": chooser, "partner": partner}
        if k == 1:
            # Hand 2 ends by concession: Jones and Brown (the chooser's side) give
            # up, and Robinson's cards beat Smith's, so Robinson scores 6, Smith 4.
            events += play(game, [(JONES, "concede")])
            assert not any(e["kind"] == "hand_end" for e in events)
            events += play(game, [(BROWN, "concede")])
            assert hand_end(events)["reason"] == "concede"
        else:
            events += vote_all(game)
            assert hand_end(events)["reason"] == "vote"
        end = hand_end(events)
        assert end["winner"] == winner
        assert end["points"] == points
        assert game.scores == EXAMPLE_TOTALS[k]
        assert not game.over

    # Hand 7: Jones (17) chooses Brown (4), so Jones makes Brown's moves.
    assert game.scores == [14, 17, 15, 4]
    view = game.view(None)
    assert view["dealer"] == JONES and view["turn_of"] == ROBINSON
    play(game, [(ROBINSON, "move e6"), (BROWN, "move e1"), (SMITH, "move b1")])
    play(game, [(JONES, "ally 3")])
    view = game.view(None)
    assert view["alliance"] == {"chooser": JONES, "partner": BROWN}
    assert view["power"] == JONES
    play(game, [(JONES, "move b6"), (ROBINSON, "move e5")])
    view = game.view(None)
    assert view["turn_of"] == BROWN and view["to_act"] == JONES
    assert game.legal_actions(BROWN) == [
        engine.Action.parse("vote end"),
        engine.Action.parse("concede"),
    ]
    # Perft under the power, by hand: Brown's piece on e1 reaches f1, d1, c1 (South
    # is on b1) and e2, e3, e4 (Robinson is on e5); plus Jones's own vote and concession.
    assert legal(game, JONES) == [
        "move f1",
        "move d1",
        "move c1",
        "move e2",
        "move e3",
        "move e4",
        "vote end",
        "concede",
    ]
    with pytest.raises(IllegalActionError, match="16-point power"):
        game.apply(BROWN, "move e2")
    events = play(game, [(JONES, "move e2")])
    assert events[0] == {"kind": "move", "seat": BROWN, "by": JONES, "from": "e1", "to": "e2"}
    assert events[1] == {"kind": "take", "seat": BROWN, "card": "AH", "square": "e2"}
    assert game.view(None)["collections"][BROWN] == ["2H", "AH"]
    events = vote_all(game)
    end = hand_end(events)
    assert end["winner"] == BROWN and end["points"] == [0, 3, 0, 7]
    assert game.scores == [14, 20, 15, 11]
    assert game.over and game.to_act is None
    assert events[-1] == {
        "kind": "game_end",
        "seat": JONES,
        "winner": JONES,
        "scores": [14, 20, 15, 11],
    }
    assert game.view(None)["hand_scores"] == [p for *_, p in EXAMPLE_HANDS]
    # The whole game replays from its record.
    again = engine.replay(game.record())
    assert again.view(None) == game.view(None)


# --------------------------------------------------------------------------
# Worked positions.


def new4(dealer: int, placed: Mapping[str, str] | None = None, **options: Any) -> Abbott:
    game = engine.new_game(
        "abbott", seats=4, seed=0, options=options, dealer=dealer, deck=pack(placed or {})
    )
    assert isinstance(game, Abbott)
    return game


def new2(dealer: int, placed: Mapping[str, str] | None = None, **options: Any) -> Abbott:
    game = engine.new_game(
        "abbott", seats=2, seed=0, options=options, dealer=dealer, deck=pack(placed or {}, 5)
    )
    assert isinstance(game, Abbott)
    return game


def legal(game: engine.Game, seat: int) -> list[str]:
    return [str(a) for a in game.legal_actions(seat)]


def reason(game: engine.Game, seat: int, action: str) -> str:
    before = game.view(None)
    with pytest.raises(IllegalActionError) as info:
        game.apply(seat, action)
    assert game.view(None) == before
    return info.value.reason


def test_perft_opening_positions() -> None:
    """Counted by hand: South on a1 with East on f1 and West on a6 reaches b1..e1
    and a2..a5 (8 moves); three partners to name; and his vote."""
    game = new4(dealer=BROWN)
    assert legal(game, SMITH) == [
        "move b1",
        "move c1",
        "move d1",
        "move e1",
        "move a2",
        "move a3",
        "move a4",
        "move a5",
        "ally west",
        "ally north",
        "ally east",
        "vote end",
    ]
    assert [len(game.legal_actions(s)) for s in range(4)] == [12, 1, 1, 1]
    # From round 4 only: no ally yet.
    assert [len(new4(dealer=BROWN, alliance_from_round=4).legal_actions(s)) for s in range(4)] == [
        9,
        1,
        1,
        1,
    ]
    # Two players on 5x5: North is on e5, off South's lines: b1..e1, a2..a5; vote, concede.
    two = new2(dealer=1)
    assert len(two.legal_actions(0)) == 10 and legal(two, 1) == ["vote end", "concede"]


def test_blocking_along_a_row_and_a_column() -> None:
    game = new4(dealer=SMITH)  # West moves first, South (the dealer) last
    play(game, [(JONES, "move a3"), (ROBINSON, "move f5"), (BROWN, "move c1")])
    # South on a1: East's piece on c1 closes the row after b1, West's on a3 the column after a2.
    assert legal(game, SMITH) == [
        "move b1",
        "move a2",
        "ally west",
        "ally north",
        "ally east",
        "vote end",
    ]
    assert reason(game, SMITH, "move d1") == "d1 is blocked by East's piece at c1"
    assert reason(game, SMITH, "move a5") == "a5 is blocked by West's piece at a3"
    assert reason(game, SMITH, "move c1") == "c1 is occupied by East's piece"
    assert reason(game, SMITH, "move a1") == "you must move at least one square"
    assert "not in line" in reason(game, SMITH, "move b2")
    assert reason(game, JONES, "move a4") == "it is not your turn: South is to move"
    assert reason(game, SMITH, "ally south") == "you cannot ally with yourself"
    assert "no seat called 'up'" in reason(game, SMITH, "ally up")


def test_alliance_round_and_once_per_hand() -> None:
    game = new4(dealer=BROWN, alliance_from_round=2)
    assert reason(game, SMITH, "ally west") == "alliances are allowed from round 2"
    assert reason(game, JONES, "ally west") == (
        "you may name a partner only on your own turn, before you move"
    )
    play(game, [(SMITH, "move b1"), (JONES, "move b6"), (ROBINSON, "move e6"), (BROWN, "move e1")])
    play(game, [(SMITH, "ally 2")])
    assert game.record()["actions"][-1] == [SMITH, "ally north"]
    assert (
        reason(game, SMITH, "ally east")
        == "an alliance already stands this hand (South chose North)"
    )
    assert game.view(None)["power"] is None
    assert reason(new2(dealer=1), 0, "ally north") == "there are no alliances in the 2-player game"


def test_landing_on_a_blank_takes_nothing() -> None:
    game = new2(dealer=1, placed={"b1": "9H"})
    events = play(game, [(0, "move b1"), (1, "move d5"), (0, "move c1"), (1, "move e5")])
    assert [e["kind"] for e in events].count("take") == 4
    events = play(game, [(0, "move b1")])  # b1 was taken: a blank, crossed and landed on
    assert [e["kind"] for e in events] == ["move"]
    view = game.view(None)
    assert view["collections"][0] == ["9H", pack({"b1": "9H"}, 5)[2]]
    assert view["grid"][0][1] is None and view["pieces"][0] == "b1" and view["stall"] == 1


def test_a_blocked_player_misses_his_turn() -> None:
    """South walks back into his corner; West and East close b1 and a2 behind him."""
    game = new4(dealer=BROWN)
    play(game, [(SMITH, "move b1"), (JONES, "move b6"), (ROBINSON, "move f5"), (BROWN, "move f2")])
    play(game, [(SMITH, "move a1")])  # he may come back for his start card later
    assert game.view(None)["collections"][SMITH][-1] == pack({})[0]
    play(game, [(JONES, "move b1"), (ROBINSON, "move f4")])
    events = play(game, [(BROWN, "move a2")])
    assert events[-1] == {"kind": "miss", "seat": SMITH, "square": "a1"}
    view = game.view(None)
    assert view["turn_of"] == JONES and game.to_act == JONES
    assert legal(game, SMITH) == ["vote end"]
    assert view["round"] == 3


def test_the_blocked_dealer_takes_his_own_card_on_his_first_turn() -> None:
    game = new4(dealer=SMITH, placed={"a1": "QS"})
    events = play(game, [(JONES, "move a2"), (ROBINSON, "move f5"), (BROWN, "move b1")])
    assert events[-1] == {
        "kind": "take",
        "seat": SMITH,
        "card": "QS",
        "square": "a1",
        "blocked": True,
    }
    view = game.view(None)
    assert view["collections"][SMITH] == ["QS"] and view["grid"][0][0] is None
    assert view["turn_of"] == JONES and view["stall"] == 0


def test_only_the_dealer_has_the_first_turn_exception() -> None:
    """Blocked again later, the dealer simply misses his turn."""
    game = new4(dealer=SMITH)  # West, North, East, then South deals and moves last
    play(game, [(JONES, "move b6"), (ROBINSON, "move f5"), (BROWN, "move f2"), (SMITH, "move b1")])
    play(game, [(JONES, "move b2"), (ROBINSON, "move f4"), (BROWN, "move f1"), (SMITH, "move a1")])
    events = play(game, [(JONES, "move a2"), (ROBINSON, "move f3"), (BROWN, "move b1")])
    assert events[-1] == {"kind": "miss", "seat": SMITH, "square": "a1"}
    assert game.to_act == JONES


def test_hand_ends_when_the_grid_is_empty() -> None:
    """Two players take every card; the last take ends the hand (decided off)."""
    game = new2(dealer=1, end_when_decided=False, stall_limit=1000)
    events: list[dict[str, Any]] = []
    while game.view(None)["hand_number"] == 1:
        seat = game.to_act
        assert seat is not None
        moves = [str(a)[5:] for a in game.legal_actions(seat) if str(a).startswith("move")]
        grid = game.view(None)["grid"]
        cards = {f"{'abcde'[f]}{r + 1}" for r in range(5) for f in range(5) if grid[r][f]}
        taking = [m for m in moves if m in cards]
        # No card in reach: step into line with one.
        toward = [m for m in moves if any(m[0] == c[0] or m[1] == c[1] for c in cards)]
        events += play(game, [(seat, "move " + (taking or toward or moves)[0])])
        assert len(events) < 500
    end = hand_end(events)
    assert end["reason"] == "grid empty"
    assert len(game.view(None)["hand_scores"]) == 1
    assert sorted(c for cs in end["collections"] for c in cs) == sorted(pack({}, 5)[:25])


def test_hand_ends_when_the_winner_is_decided() -> None:
    """South's royal flush cannot be beaten or tied: no other straight flush can
    be made from the grid (no five spades, no run of five in another suit)."""
    low = [f"{r}{s}" for s in "CDH" for r in "234678"] + ["9C", "9D"]
    placed = {"b1": "AS", "c1": "KS", "d1": "QS", "e1": "JS", "e2": "TS"}
    others = [square_name(i, 5) for i in range(25) if square_name(i, 5) not in placed]
    placed.update(zip(others, low, strict=True))
    game = new2(dealer=1, placed=placed)
    script = [(0, "move b1"), (1, "move d5"), (0, "move c1"), (1, "move c5")]
    script += [(0, "move d1"), (1, "move b5"), (0, "move e1"), (1, "move a5")]
    events = play(game, script)
    assert not any(e["kind"] == "hand_end" for e in events)
    events = play(game, [(0, "move e2")])
    end = hand_end(events)
    assert end["reason"] == "decided" and end["winner"] == 0 and end["points"] == [10, 0]
    assert end["best"][0] == {"category": "straight flush", "cards": ["AS", "KS", "QS", "JS", "TS"]}
    # Without the rule the hand goes on.
    game = new2(dealer=1, placed=placed, end_when_decided=False)
    events = play(game, [*script, (0, "move e2")])
    assert not any(e["kind"] == "hand_end" for e in events)


def test_hand_ends_after_stall_limit_turns_without_a_card() -> None:
    game = new2(dealer=1, stall_limit=2)
    assert game.view(None)["stall_limit"] == 2
    play(game, [(0, "move b1"), (1, "move d5"), (0, "move c1"), (1, "move d4")])
    events = play(game, [(0, "move b1")])  # blank: stall 1
    assert not any(e["kind"] == "hand_end" for e in events)
    events = play(game, [(1, "move d5")])  # blank: stall 2
    assert hand_end(events)["reason"] == "stall"
    assert new4(dealer=0).view(None)["stall_limit"] == 12  # default: 3 x players


def test_hand_ends_by_unanimous_vote_and_a_take_clears_the_votes() -> None:
    game = new4(dealer=BROWN, placed={"b1": "AS"})
    play(game, [(JONES, "vote end"), (ROBINSON, "vote end")])  # out of turn
    assert game.view(None)["votes"] == [JONES, ROBINSON]
    assert reason(game, JONES, "vote end") == "you have already voted to end this hand"
    play(game, [(SMITH, "move b1")])  # a card taken: the position changed
    assert game.view(None)["votes"] == []
    events = vote_all(game)
    end = hand_end(events)
    assert end["reason"] == "vote" and end["winner"] == SMITH and end["points"] == [10, 0, 0, 0]


def test_concession_needs_an_alliance_and_both_members() -> None:
    game = new4(dealer=BROWN, placed={"b1": "AS", "b6": "KS", "e6": "QS", "e1": "JS"})
    assert reason(game, JONES, "concede") == "you can concede only once an alliance stands"
    play(game, [(SMITH, "ally north"), (SMITH, "move b1"), (JONES, "move b6")])
    play(game, [(ROBINSON, "move e6"), (BROWN, "move e1")])
    events = play(game, [(JONES, "concede")])
    assert not any(e["kind"] == "hand_end" for e in events)
    assert reason(game, JONES, "concede") == "you have already conceded this hand"
    # The opponents (West, East) concede: South and North's cards decide between
    # them, and South (the chooser) holds the ace: the chooser wins, nobody scores.
    end = hand_end(play(game, [(BROWN, "concede")]))
    assert end["reason"] == "concede" and end["winner"] == SMITH and end["points"] == [0, 0, 0, 0]


def test_concession_scores_the_other_side_as_winners() -> None:
    game = new4(dealer=BROWN, placed={"b1": "AS", "b6": "KS", "e6": "QS", "e1": "JS"})
    play(game, [(SMITH, "ally north"), (SMITH, "move b1"), (JONES, "move b6")])
    play(game, [(ROBINSON, "move e6"), (BROWN, "move e1")])
    # South holds the best cards, but his side concedes: West (KS) beats East (JS).
    end = hand_end(play(game, [(ROBINSON, "concede"), (SMITH, "concede")]))
    assert end["winner"] == JONES and end["points"] == [0, 6, 0, 4]


def test_two_player_concession_gives_the_opponent_the_hand() -> None:
    game = new2(dealer=1, placed={"b1": "AS"})
    play(game, [(0, "move b1")])
    end = hand_end(play(game, [(0, "concede")]))
    assert end["winner"] == 1 and end["points"] == [0, 10]
    assert game.scores == [0, 10] and game.view(None)["hand_number"] == 2


def test_a_tie_for_best_hand_scores_nothing() -> None:
    game = new4(dealer=BROWN, placed={"b1": "AS", "b6": "AH", "e6": "QS", "e1": "JS"})
    play(game, [(SMITH, "move b1"), (JONES, "move b6"), (ROBINSON, "move e6"), (BROWN, "move e1")])
    end = hand_end(vote_all(game))
    assert end["winner"] is None and end["points"] == [0, 0, 0, 0]
    assert game.view(None)["hand_number"] == 2 and game.view(None)["dealer"] == SMITH


def _opponents_hand(dealer: int, chooser: int, partner: int, winner: int) -> tuple[list[str], list]:
    """A one-round hand: ``chooser`` names ``partner``; ``winner`` takes the ace."""
    script = []
    for i in range(4):
        seat = (dealer + 1 + i) % 4
        if seat == chooser:
            script.append((seat, f"ally {NAMES[partner]}"))
        script.append((seat, f"move {FIRST_STEP[seat]}"))
    script += [(s, "vote end") for s in range(4)]
    return one_round_pack(winner, ["7D", "5S", "3H"], "AH"), script


def test_a_tie_at_twenty_plays_on_until_one_player_leads_alone() -> None:
    # North and East take turns winning as opponents (6 and 4): 10-10, 16-14, 20-20.
    deck, scripts = [], []
    for k, winner in enumerate([ROBINSON, BROWN, ROBINSON, BROWN]):
        d, s = _opponents_hand((SMITH + k) % 4, SMITH, JONES, winner)
        deck += d
        scripts.append(s)
    # Hand 5: no alliance, North wins 10.
    deck += one_round_pack(ROBINSON, ["7D", "5S", "3H"], "AH")
    scripts.append(
        [((SMITH + 4 + 1 + i) % 4, f"move {FIRST_STEP[(SMITH + 4 + 1 + i) % 4]}") for i in range(4)]
    )
    scripts[-1] += [(s, "vote end") for s in range(4)]
    game = engine.new_game("abbott", seats=4, seed=3, dealer=SMITH, deck=deck)
    totals, play_on = [], []
    for script in scripts:
        events = play(game, script)
        totals.append(game.scores)
        play_on.append(hand_end(events)["play_on"])
    assert totals == [[0, 0, 6, 4], [0, 0, 10, 10], [0, 0, 16, 14], [0, 0, 20, 20], [0, 0, 30, 20]]
    assert play_on == [False, False, False, True, False]
    assert game.over and game.view(None)["winner"] == ROBINSON
    assert events[-1]["kind"] == "game_end"


def test_power_goes_to_the_partner_with_sixteen_and_starts_at_once() -> None:
    """West (0) chooses South (16): South makes West's move on this very turn."""
    # Hand 1: no alliance, South wins 10. Hand 2: North chooses East, South wins 6.
    d1 = one_round_pack(SMITH, ["7D", "5S", "3H"], "AH")
    d2, s2 = _opponents_hand(SMITH, ROBINSON, BROWN, SMITH)
    deck = d1 + d2 + pack({})
    game = engine.new_game("abbott", seats=4, seed=3, dealer=BROWN, deck=deck)
    play(game, [(s, f"move {FIRST_STEP[s]}") for s in range(4)])
    vote_all(game)
    play(game, s2)
    assert game.scores == [16, 4, 0, 0]
    # Hand 3: West deals; North, East and South move, then West names South.
    assert game.view(None)["dealer"] == JONES
    play(game, [(ROBINSON, "move e6"), (BROWN, "move e1"), (SMITH, "move b1")])
    play(game, [(JONES, "ally south")])
    view = game.view(None)
    assert view["power"] == SMITH and view["turn_of"] == JONES and view["to_act"] == SMITH
    assert (
        reason(game, JONES, "move b6")
        == "South holds the 16-point power and moves your piece this hand"
    )
    events = play(game, [(SMITH, "move b6")])
    assert events[0]["seat"] == JONES and events[0]["by"] == SMITH


def test_both_partners_at_sixteen_means_no_power() -> None:
    game = Abbott.from_view({**new4(dealer=BROWN).view(None), "scores": [16, 17, 0, 0]})
    play(game, [(SMITH, "ally west")])
    assert game.view(None)["power"] is None


def test_cut_for_the_first_dealer_is_seeded_and_ties_cut_again() -> None:
    ties_seen = 0
    for seed in range(200):
        game = engine.new_game("abbott", seats=4, seed=seed)
        again = engine.new_game("abbott", seats=4, seed=seed)
        cut = game.opening_events[0].present(None)
        assert cut == again.opening_events[0].present(None)
        contenders = set(range(4))
        for draws in cut["draws"]:
            assert {s for s, _ in draws} == contenders
            values = {s: engine.Card.parse(c).value for s, c in draws}
            low = min(values.values())
            contenders = {s for s, v in values.items() if v == low}
        assert contenders == {cut["dealer"]} == {game.view(None)["dealer"]}
        ties_seen += len(cut["draws"]) > 1
        assert game.to_act == (cut["dealer"] + 1) % 4
    assert ties_seen > 0


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"seats": 3}, "2 or 4 players"),
        ({"seats": 4, "deck": ["AS"] * 36}, "distinct"),
        ({"seats": 4, "deck": FILLER[:30]}, "36 cards"),
        ({"seats": 4, "deck": FILLER + FILLER[:10]}, "whole packs"),
        ({"seats": 4, "options": {"alliance_from_round": 0}}, "alliance_from_round"),
    ],
)
def test_bad_tables_are_refused(kwargs: dict[str, Any], match: str) -> None:
    with pytest.raises(OptionError, match=match):
        engine.new_game("abbott", seed=0, **kwargs)


def test_view_is_public_and_complete() -> None:
    game = new4(dealer=BROWN, placed={"b1": "AS"})
    play(game, [(SMITH, "move b1")])
    views = [game.view(s) for s in [0, 1, 2, 3, None]]
    family = [{k: v for k, v in v.items() if k != "viewer"} for v in views]
    assert all(v == family[0] for v in family)
    v = views[0]
    assert v["size"] == 6 and len(v["grid"]) == 6 and v["grid"][0][0] == pack({"b1": "AS"})[0]
    assert v["best"][SMITH] == {"category": "high card", "cards": ["AS"]}
    assert v["seat_names"] == ["South", "West", "North", "East"]
    assert v["pieces"] == ["b1", "a6", "f6", "f1"] and v["turn_of"] == JONES
    assert Abbott.hidden_information is False
    two = new2(dealer=0).view(1)
    assert two["seat_names"] == ["South", "North"] and two["pieces"] == ["a1", "e5"]
    assert two["target"] == 40 and two["size"] == 5
