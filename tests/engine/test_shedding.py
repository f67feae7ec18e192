"""Worked scenarios for every power card of every shedding preset, from hands we deal.

``deal`` builds the deck the contract describes (one card at a time clockwise
from the dealer's left, then the start card, then the stock), so each test reads
like a hand at the table: who holds what, what is turned up, what is drawn.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

import engine
from engine.actions import Action
from engine.cards import make_deck, parse_cards
from engine.game import Game
from engine.shedding.codes import JK


def deal(
    preset: str,
    hands: list[str],
    start: str,
    stock: str = "",
    options: dict[str, Any] | None = None,
) -> Game:
    """Seat 0 acts first (seat n-1 deals); each seat holds its string of cards."""
    seats = len(hands)
    parsed = [parse_cards(h) for h in hands]
    size = len(parsed[0])
    assert all(len(h) == size for h in parsed)
    dealer = seats - 1
    order = [parsed[(dealer + k) % seats][r] for r in range(size) for k in range(1, seats + 1)]
    head = [*order, *parse_cards(start), *parse_cards(stock)]
    rest = Counter(make_deck())
    rest.subtract(Counter(head))
    assert all(v >= 0 for v in rest.values()), "a card is dealt twice"
    deck = head + [c for c in make_deck() if rest[c] > 0]
    opts = {"hand_size": size, **(options or {})}
    game = engine.new_game(preset, seats=seats, seed=0, options=opts, dealer=dealer, deck=deck)
    for s in range(seats):
        assert sorted(hand(game, s)) == sorted(str(c) for c in parsed[s])
    return game


def hand(game: Game, seat: int) -> list[str]:
    return list(game.view(seat)["hand"])


def explain(game: Game, seat: int, action: str) -> str:
    """Why ``action`` is not legal (where a preset would take it as a blunder)."""
    return game.explain(seat, Action.parse(action))


def blunder(game: Game, seat: int, action: str, reason: str, penalty: int = 2) -> None:
    """The wrong play is taken as a blunder: the cards stay in hand, the penalty is
    drawn, the pile is as it was and the turn does not pass."""
    assert reason in explain(game, seat, action)
    held, top, to_act = hand(game, seat), game.view(None)["top"], game.to_act
    events = game.apply(seat, action)
    assert [e.kind for e in events][-2:] == ["blunder", "draw"]
    after = hand(game, seat)
    assert len(after) == len(held) + penalty and not Counter(held) - Counter(after)
    assert game.view(None)["top"] == top and game.to_act == to_act
    assert game.record()["actions"][-1] == [seat, action]


def refused(game: Game, seat: int, action: str, reason: str) -> None:
    """The action is refused with ``reason`` and changes nothing."""
    before = [game.view(s) for s in [*range(game.seats), None]]
    with pytest.raises(engine.IllegalActionError) as err:
        game.apply(seat, action)
    assert reason in err.value.reason
    assert [game.view(s) for s in [*range(game.seats), None]] == before


# ------------------------------------------------------------------ dealing
def test_the_deal_follows_the_contract_order() -> None:
    game = deal("switch", ["3C 4C", "3D 4D", "3H 4H"], "5S", "6S 7S")
    assert hand(game, 0) == ["3C", "4C"] and hand(game, 2) == ["3H", "4H"]
    v = game.view(None)
    assert v["top"] == "5S" and v["hand"] is None and v["to_act"] == 0
    game.apply(0, "draw")
    assert hand(game, 0) == ["3C", "4C", "6S"]


def test_the_first_deal_is_an_opening_event_each_seat_sees_its_own_way() -> None:
    game = deal("switch", ["3C 4C", "3D 4D", "3H 4H"], "5S", "6S 7S")
    (opening,) = game.opening_events
    assert opening.present(1) == {
        "kind": "deal",
        "dealer": 2,
        "hand_number": 1,
        "hand_sizes": [2, 2, 2],
        "top": "5S",
        "hand": ["3D", "4D"],
    }
    assert "hand" not in opening.present(None)
    assert opening.present(0)["hand"] == ["3C", "4C"]


def test_a_power_start_card_is_covered_by_the_next() -> None:
    game = deal("switch", ["3C", "3D"], "2H", "8C 5S 9D")
    v = game.view(0)
    assert v["top"] == "5S" and v["pile_size"] == 3 and v["pending"] is None


def test_options_are_validated_by_name() -> None:
    with pytest.raises(engine.OptionError, match="'draw'"):
        engine.new_game("switch", seats=2, options={"draw": 3})
    with pytest.raises(engine.OptionError, match="'combos'"):
        engine.new_game("switch", seats=2, options={"combos": "lots"})
    with pytest.raises(engine.OptionError, match="'pickup'"):
        engine.new_game("switch", seats=2, options={"pickup": "2:x"})
    with pytest.raises(engine.OptionError, match="unknown option"):
        engine.new_game("switch", seats=2, options={"jokerz": 1})
    with pytest.raises(engine.OptionError, match="2 to 4 seats"):
        engine.new_game("gamebot", seats=5)
    with pytest.raises(engine.OptionError, match="'hand_size'"):
        engine.new_game("switch", seats=6, options={"hand_size": 9, "decks": 1})
    assert engine.new_game("switch", seats=6).deck_size == 104
    game = engine.new_game("blackjack", seats=5, seed=3)
    assert [len(h) for h in game.hands] == [5] * 5


# ------------------------------------------------------------------ switch
def test_switch_twos_stack_to_six() -> None:
    game = deal(
        "switch",
        ["2H 5C 9D", "2S 6C TD", "2C 7S KD", "3D 4S 5S"],
        "4H",
        "6D 6H 6S 7C 7D 7H 9C",
    )
    game.apply(0, "play 2H")
    game.apply(1, "play 2S")
    game.apply(2, "play 2C")
    assert game.view(3)["pending"]["count"] == 6
    assert "does not answer the pick-up of 6" in explain(game, 3, "play 3D")
    assert [str(a) for a in game.legal_actions(3)] == ["draw"]
    (ev,) = game.apply(3, "draw")
    assert ev.present(3)["cards"] == ["6D", "6H", "6S", "7C", "7D", "7H"]
    assert "cards" not in ev.present(0) and ev.present(None)["count"] == 6
    assert len(hand(game, 3)) == 9 and game.to_act == 0 and game.view(0)["pending"] is None


def test_switch_no_two_twos_at_once_and_eight_skips() -> None:
    game = deal("switch", ["2H 2D 8H", "3C 4C 5C", "3H 4H 5H"], "9H", "KS KD")
    assert "cannot follow" in explain(game, 0, "play 2H 2D")
    game.apply(0, "play 8H")
    assert game.to_act == 2  # seat 1 missed the turn


def test_switch_ace_anytime_picks_up_four_and_jack_nominates() -> None:
    game = deal("switch", ["AS 3C JD", "5C 6C 7C", "5D 6D 7D"], "9H", "KS KD KH KC TS")
    game.apply(0, "play AS")
    assert game.view(1)["pending"] == {"kind": "pickup", "count": 4, "cards": ["AS"]}
    game.apply(1, "draw")
    assert len(hand(game, 1)) == 7
    game.apply(2, "draw")  # 5D 6D 7D do not go on the ace of spades
    game.apply(0, "play JD")
    assert game.to_act == 0 and game.view(0)["awaiting"] == "nominate a suit"
    refused(game, 1, "draw", "not your turn")
    game.apply(0, "suit clubs")
    v = game.view(1)
    assert v["nominated"] == "C" and v["top"] == "JD" and game.to_act == 1
    assert explain(game, 1, "play KS") == "KS is not a club: clubs were named"


def test_switch_missed_last_card_draws_two_when_the_next_player_acts() -> None:
    game = deal("switch", ["3C 4C", "5C 6D", "7C 8D"], "9C", "KS KD KH QS")
    game.apply(0, "play 3C")  # one card left, no announcement
    assert game.view(0)["announced"] == []
    events = game.apply(1, "play 5C")
    draw = next(e for e in events if e.kind == "draw")
    assert draw.present(0)["seat"] == 0 and draw.present(0)["count"] == 2
    assert len(hand(game, 0)) == 3


def test_switch_last_card_announced_with_the_play_or_alone() -> None:
    game = deal("switch", ["3C 4C", "5C 6D", "7C 8D"], "9C", "KS KD KH QS")
    game.apply(0, "play 3C last")
    game.apply(1, "play 5C")
    assert hand(game, 0) == ["4C"] and game.view(2)["announced"] == [0]
    game = deal("switch", ["3C 4C", "5C 6D", "7C 8D"], "9C", "KS KD KH QS")
    game.apply(0, "play 3C")
    game.apply(0, "last")  # before the next player acts: in time
    game.apply(1, "play 5C")
    assert hand(game, 0) == ["4C"]
    refused(game, 2, "last", "one card")


def test_switch_first_out_wins_and_scores_the_other_hands() -> None:
    game = deal("switch", ["3C 4C", "5C JD", "AC 8D"], "9C", "KS KD KH QS")
    game.apply(0, "play 3C last")
    game.apply(1, "play 5C last")
    game.apply(2, "play AC last")  # pick up 4
    game.apply(0, "draw")
    game.apply(1, "play JD")  # ends on a jack: fine in switch
    assert game.over and game.to_act is None
    # seat 0: 4C + four drawn (KS KD KH QS = 40) = 44; seat 2: 8D, a power card = 10
    assert game.scores == [0, 54, 0]
    assert game.view(0)["finished"][0] == 1


# ---------------------------------------------------------------- blackjack
def test_blackjack_illegal_play_takes_back_the_cards_and_draws_two() -> None:
    game = deal("blackjack", ["7H 9C", "5C 6D", "7C 8D"], "4S", "KS KD")
    assert game.explain(0, Action.parse("play 7H")) == "7H does not match the 4S on the pile"
    events = game.apply(0, "play 7H")  # 7H on 4S: a blunder
    assert [e.kind for e in events] == ["blunder", "draw"]
    assert sorted(hand(game, 0)) == ["7H", "9C", "KD", "KS"]
    assert game.view(0)["top"] == "4S" and game.to_act == 0
    assert game.record()["actions"] == [[0, "play 7H"]]
    assert engine.replay(game.record()).view(0) == game.view(0)
    refused(game, 0, "play QH", "you do not hold QH")  # not held: refused, no penalty


def test_blackjack_queen_must_be_covered() -> None:
    game = deal("blackjack", ["QH 5H 9C", "5C 6D 3S", "7C 8D 4S"], "4H", "KS KD")
    game.apply(0, "play QH")
    assert game.to_act == 0 and game.view(0)["pending"]["kind"] == "cover"
    assert game.explain(0, Action.parse("play 9C")) == "9C does not match the QH on the pile"
    game.apply(0, "play 5H")
    assert game.to_act == 1
    game = deal("blackjack", ["QH 9C 9D", "5C 6D 3S", "7C 8D 4S"], "4H", "KS KD")
    game.apply(0, "play QH")
    game.apply(0, "draw")  # cannot cover: draws, and the turn passes
    assert game.to_act == 1 and len(hand(game, 0)) == 3


def test_blackjack_seven_plays_the_rest_of_its_suit() -> None:
    game = deal("blackjack", ["7H 3H 9H 9C", "5C 6D 3S 4D", "7C 8D 4S 5S"], "5H", "KS KD")
    assert game.explain(0, Action.parse("play 7H 9C")) == "9C cannot follow 7H in one play"
    game.apply(0, "play 7H 9H 3H last")
    assert hand(game, 0) == ["9C"] and game.view(1)["top"] == "3H" and game.to_act == 1
    legal = {str(a) for a in game.legal_actions(1)}
    assert "play 3S" in legal and "play 5C" not in legal


def test_blackjack_king_reverses_and_with_two_players_plays_again() -> None:
    game = deal("blackjack", ["KH 5H", "5C 6D", "7C 8D", "9S 3D"], "4H", "KS KD")
    game.apply(0, "play KH")
    assert game.view(0)["direction"] == -1 and game.to_act == 3
    game = deal("blackjack", ["KH 5H", "5C 6D"], "4H", "KS KD")
    game.apply(0, "play KH last")
    assert game.to_act == 0
    game.apply(0, "play 5H")
    assert game.over and game.scores[0] == 11


def test_blackjack_eights_chain_and_black_jack_answers() -> None:
    game = deal("blackjack", ["8H 3C", "8S 6D", "7C 9D", "9S 3D"], "4H", "KS KD")
    game.apply(0, "play 8H")
    assert game.to_act == 1 and game.view(1)["pending"]["kind"] == "skip"
    game.apply(1, "play 8S")  # passed on
    assert game.to_act == 2
    refused(game, 2, "draw", "pass")
    game.apply(2, "pass")
    assert game.to_act == 3
    # a black jack picks up 5; a red jack cancels it; an ace answers any pick-up
    game = deal("blackjack", ["JS 3C", "JD 6D", "7C 9D"], "4S", "KS KD QC QD QH")
    game.apply(0, "play JS")
    game.apply(1, "play JD")
    assert game.view(2)["pending"] is None and len(hand(game, 1)) == 1 and game.to_act == 2
    game = deal("blackjack", ["2S 3C", "AD 6D", "7C 9D"], "4S", "KS KD QC QD QH")
    game.apply(0, "play 2S")
    game.apply(1, "play AD")
    game.apply(1, "suit clubs")
    assert game.view(2)["pending"] is None and game.view(2)["nominated"] == "C"


# ----------------------------------------------------------------- gamebot
GB_STOCK = "KS KD QC QD QH TS TD TC 9H 9S 9C 6S 6C"


def test_gamebot_black_jack_answered_by_a_red_jack() -> None:
    game = deal("gamebot", ["JS 3C", "JH 6D", "7C 9D"], "5S", GB_STOCK)
    game.apply(0, "play JS")
    assert game.view(1)["pending"]["count"] == 5
    game.apply(1, "play JH")
    assert game.view(1)["pending"] is None and hand(game, 1) == ["6D"] and game.to_act == 2


def test_gamebot_two_black_jacks_and_one_red_jack_still_picks_up_five() -> None:
    game = deal("gamebot", ["JS 3C", "JC 6D", "JH 9D"], "5S", GB_STOCK)
    game.apply(0, "play JS")
    game.apply(1, "play JC")
    assert game.view(2)["pending"]["count"] == 10
    game.apply(2, "play JH")
    assert len(hand(game, 2)) == 6 and game.to_act == 0 and game.view(0)["pending"] is None


def test_gamebot_two_red_jacks_pick_up_nothing() -> None:
    game = deal("gamebot", ["JS 3C 4C", "JC 6D 7D", "JH JD 9D"], "5S", GB_STOCK)
    game.apply(0, "play JS")
    game.apply(1, "play JC")
    game.apply(2, "play JH JD last")
    assert hand(game, 2) == ["9D"] and game.to_act == 0 and game.view(0)["pending"] is None


def test_gamebot_both_black_jacks_at_once_make_ten() -> None:
    game = deal("gamebot", ["JS JC 4C", "3C 6D 7D", "5H 8D 9D"], "5S", GB_STOCK)
    game.apply(0, "play JS JC last")
    assert game.view(1)["pending"]["count"] == 10
    game.apply(1, "draw")
    assert len(hand(game, 1)) == 13 and game.to_act == 2


def test_gamebot_black_queen_swaps_hands_with_the_left() -> None:
    game = deal("gamebot", ["QS 3S 4C", "5S 6D 7D", "5H 8D 9D"], "4S", GB_STOCK)
    before1 = hand(game, 1)
    events = game.apply(0, "play QS")
    swap = next(e for e in events if e.kind == "swap")
    assert swap.present(0)["hand"] == before1 and hand(game, 0) == before1
    assert sorted(swap.present(1)["hand"]) == ["3S", "4C"]
    assert "hand" not in swap.present(2) and "hand" not in swap.present(None)


def test_gamebot_eights_chain_and_king_reverses() -> None:
    game = deal("gamebot", ["8H 3C", "8S 6D", "7C 9D"], "4H", GB_STOCK)
    game.apply(0, "play 8H")
    game.apply(1, "play 8S")
    game.apply(2, "pass")
    assert game.to_act == 0
    game = deal("gamebot", ["KH 5H", "5C 6D"], "4H", GB_STOCK)
    game.apply(0, "play KH")
    assert game.to_act == 0


def test_gamebot_ace_anytime_nominates() -> None:
    game = deal("gamebot", ["AC 3C", "5C 6D", "7C 9D"], "4H", GB_STOCK)
    game.apply(0, "play AC")
    game.apply(0, "suit spades")
    assert game.view(1)["nominated"] == "S"


# ------------------------------------------------------------------ irish
def test_irish_king_of_hearts_seven_and_two_of_hearts_stacks() -> None:
    game = deal("irish", ["KH 3C", "2H 6D", "2S 9D", "4C 5C"], "4H", GB_STOCK)
    game.apply(0, "play KH")
    assert game.view(1)["pending"]["count"] == 7
    game.apply(1, "play 2H")
    game.apply(2, "play 2S")
    assert game.view(3)["pending"]["count"] == 11


def test_irish_sevens_skip_jacks_reverse_together_ace_on_its_suit() -> None:
    game = deal("irish", ["7H 3C", "7S 6D", "8C 9D", "4C 5C"], "4H", GB_STOCK)
    game.apply(0, "play 7H")
    game.apply(1, "play 7S")
    game.apply(2, "pass")
    assert game.to_act == 3
    game = deal("irish", ["JH JD 3H", "7S 6D 4S", "8C 9D 5S", "4C 5C 3D"], "4H", GB_STOCK)
    game.apply(0, "play JH JD last")  # two reverses: the direction is back where it was
    assert game.view(0)["direction"] == 1 and game.to_act == 1
    game = deal("irish", ["AS 3C", "7S 6D", "8C 9D"], "4H", GB_STOCK)
    refused(game, 0, "play AS", "does not match")
    game = deal("irish", ["AH 3C", "7S 6D", "8C 9D"], "4H", GB_STOCK)
    game.apply(0, "play AH")
    game.apply(0, "suit spades")
    game.apply(1, "play 7S")
    assert game.view(2)["top"] == "7S"


def test_irish_optional_joker_is_wild() -> None:
    game = engine.new_game("irish", seats=3, seed=5, options={"jokers": 2})
    assert game.deck_size == 54 and game.pt.wild[JK] and game.pt.nominate[JK]


# -------------------------------------------------------------------- j28
def test_j28_set_and_runs_on_the_ten_of_hearts() -> None:
    game = deal(
        "j28", ["9H 9S 8S 7S 7C 4D KD", "3C 4C 5C 6C 3D 4H 5H", "6D 5D 3S 4S 5S 6S 6H"], "TH"
    )
    game.apply(0, "play 9H 9S 8S 7S 7C")
    assert hand(game, 0) == ["4D", "KD"] and game.view(1)["top"] == "7C"
    refused(game, 1, "play 3C 5C", "cannot follow")
    refused(game, 1, "play 6C 4C", "cannot follow")
    game.apply(1, "play 6C 5C 4C 3C 3D")
    assert game.view(2)["top"] == "3D"


def test_j28_eights_miss_one_turn_per_eight() -> None:
    hands = ["8H 8D 7C 3H", "3C 4C 5C KC", "6D 5D 3S 4S", "4H 6H 7D 2C"]
    game = deal("j28", hands, "TH", GB_STOCK)
    game.apply(0, "play 8H 8D")
    assert game.view(1)["pending"] == {"kind": "miss", "count": 2, "rank": "8", "cards": []}
    assert [str(a) for a in game.legal_actions(1)] == ["pass"]
    game.apply(1, "pass")
    assert game.to_act == 2 and game.view(0)["misses"][1] == 1
    game.apply(2, "play 6D")
    game.apply(3, "play 7D")
    game.apply(0, "play 7C last")
    assert game.to_act == 2 and game.view(0)["misses"][1] == 0  # seat 1 missed a second turn


def test_j28_ace_of_hearts_picks_up_five_and_ace_of_spades_cancels() -> None:
    game = deal("j28", ["AH 3C", "AS 6D", "8C 9D"], "4H", GB_STOCK)
    game.apply(0, "play AH")
    assert game.view(1)["pending"]["count"] == 5
    game.apply(1, "play AS")
    assert game.view(2)["pending"] is None and hand(game, 1) == ["6D"]


def test_j28_may_not_end_on_a_jack_two_or_eight() -> None:
    game = deal("j28", ["8H 3C", "5C 6D", "7C 9D"], "4H", GB_STOCK)
    game.apply(0, "play 8H last")
    game.apply(1, "pass")
    game.apply(2, "draw")
    game.apply(2, "pass") if game.to_act == 2 else None
    game = deal("j28", ["JH", "5C"], "4H", GB_STOCK, {"last_card": False})
    refused(game, 0, "play JH", "you may not go out on JH")
    assert [str(a) for a in game.legal_actions(0)] == ["draw"]


def test_j28_may_play_the_card_it_draws() -> None:
    game = deal("j28", ["3C 5D", "5C 6D"], "4H", "9H KS")
    game.apply(0, "draw")
    assert game.view(0)["awaiting"] == "play the card you drew, or pass"
    refused(game, 0, "play 5D", "only play the card you drew")
    game.apply(0, "play 9H")
    assert game.to_act == 1


# ---------------------------------------------------------------- taketwo
def test_taketwo_unable_takes_two_and_may_not_end_on_a_power_card() -> None:
    game = deal("taketwo", ["3C 5C", "9D 6D", "4C 5S"], "4H", "KS KD QC QD QH TS")
    game.apply(0, "draw")
    assert len(hand(game, 0)) == 4 and game.to_act == 1
    game = deal("taketwo", ["8H", "9D"], "4H", "KS KD QC QD QH TS", {"last_card": False})
    events = game.apply(0, "play 8H")  # may not end on an eight: take 2, cards kept
    assert [e.kind for e in events] == ["blunder", "draw"] and len(hand(game, 0)) == 3
    assert game.to_act == 0


def test_taketwo_plays_on_until_one_is_left() -> None:
    game = deal("taketwo", ["4C", "4D", "9S"], "4H", "KS KD QC QD QH TS", {"last_card": False})
    game.apply(0, "play 4C")
    assert not game.over and game.view(1)["finished"] == [0] and game.to_act == 1
    game.apply(1, "play 4D")
    assert game.over and game.view(None)["finished"] == [0, 1, 2]
    assert game.scores == [9 + 4, 0, 0]


def test_taketwo_jack_reverses_or_skips_by_option() -> None:
    hands = ["JH 3H", "5C 6D", "7C 8D", "TH 3D"]
    game = deal("taketwo", hands, "4H", GB_STOCK)
    game.apply(0, "play JH")
    assert game.to_act == 3
    game = deal("taketwo", hands, "4H", GB_STOCK, {"reverse": "", "skip": "8 J"})
    game.apply(0, "play JH")
    assert game.to_act == 2


# ------------------------------------------------------------------ match
def test_a_match_to_a_target_deals_again_with_the_deal_passing_left() -> None:
    game = engine.new_game("gamebot", seats=3, seed=11, options={"target": 200})
    dealers = {game.view(0)["dealer"]}
    hands = 1
    import random

    rng = random.Random(0)
    while not game.over:
        seat = game.to_act
        legal = game.legal_actions(seat)
        game.apply(seat, legal[rng.randrange(len(legal))])
        v = game.view(0)
        if v["hand_number"] != hands:
            hands = v["hand_number"]
            dealers.add(v["dealer"])
    assert max(game.scores) >= 200 and game.scores.count(max(game.scores)) == 1
    assert len(game.hand_scores) == hands >= 2 and len(dealers) >= 2
    assert [sum(col) for col in zip(*game.hand_scores, strict=True)] == game.scores


# ------------------------------------------------------------ perft counts
def test_perft_switch_singles_and_draw() -> None:
    game = deal("switch", ["3H 3D 5H JC 9S", "5C 6D 7D 8C TC"], "4H", "KC KD")
    assert [str(a) for a in game.legal_actions(0)] == ["play JC", "play 3H", "play 5H", "draw"]


def test_perft_j28_sets_and_runs_counted_by_hand() -> None:
    game = deal("j28", ["5H 6H 6S 7S", "5C 6D 7D 8C"], "4H", "KC KD")
    assert sorted(str(a) for a in game.legal_actions(0)) == sorted(
        [
            "play 5H",
            "play 6H",
            "play 5H 6H",
            "play 5H 6H 6S last",
            "play 5H 6H 6S 7S",
            "play 6H 5H",
            "play 6H 6S",
            "play 6H 6S 7S last",
        ]
    )
    assert game.legal_actions(1) == []


def test_perft_blackjack_seven_with_its_suit() -> None:
    game = deal("blackjack", ["7H 3H 9H 9C", "5C 6D 7D 8C"], "5H", "KC KD")
    assert sorted(str(a) for a in game.legal_actions(0)) == sorted(
        ["play 7H", "play 3H", "play 9H", "play 7H 9H 3H last", "play 7H 3H 9H last"]
    )
    assert game.is_legal(0, Action.parse("play 7H 9H"))  # any of its suit, in any order


# ------------------------------------------------------------ stock and ends
def test_the_empty_stock_is_the_pile_less_its_top_and_short_draws_take_what_exists() -> None:
    # seat 0 holds 5H 6C 7C, seat 1 3D 5D 6D; 4H is turned up; the stock is KH alone
    deck = ["5H", "3D", "6C", "5D", "7C", "6D", "4H", "KH"]
    game = engine.new_game("switch", seats=2, seed=0, options={"hand_size": 3}, dealer=1, deck=deck)
    game.apply(0, "draw")
    assert game.view(0)["stock"] == 0 and "KH" in hand(game, 0)
    (ev,) = game.apply(1, "draw")  # nothing to draw: he takes what exists
    assert ev.present(1)["count"] == 0 and game.to_act == 0
    refused(game, 0, "draw", "the stock is empty: you must play")
    game.apply(0, "play 5H")
    game = engine.new_game("switch", seats=2, seed=0, options={"hand_size": 3}, dealer=1, deck=deck)
    game.apply(0, "draw")
    game.apply(1, "draw")
    game.apply(0, "play KH")
    (ev,) = game.apply(1, "draw")  # the pile less its top (4H) becomes the stock
    assert ev.present(1)["cards"] == ["4H"]
    assert game.view(1)["pile_size"] == 1 and game.view(1)["top"] == "KH"


def test_a_hand_nobody_can_play_or_draw_ends_blocked() -> None:
    deck = ["3C", "3D", "5C", "5D", "9H"]  # two cards each, the start card, no stock
    game = engine.new_game("switch", seats=2, seed=0, options={"hand_size": 2}, dealer=1, deck=deck)
    assert "does not match the 9H" in explain(game, 0, "play 3C")
    game.apply(0, "draw")
    events = game.apply(1, "draw")
    end = next(e for e in events if e.kind == "hand_end")
    assert end.present(None)["blocked"] and game.over
    assert game.scores == [8, 0]  # equal cards and points: the first from the dealer's left
