"""engine.poker.best_hand: the full 5-card census, two oracles, and the properties
abbott relies on (any number of cards, order-free, never lowered by a card)."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st
from phevaluator import evaluate_cards
from support import soak
from treys import Card as TreysCard
from treys import Evaluator

from engine import poker
from engine.cards import FULL_PACK, Card
from engine.poker import CATEGORIES, Hand, best_hand, card_mask, value_of_mask

PACK = [str(c) for c in FULL_PACK]


def hand(text: str) -> list[str]:
    """``"AS KS"`` -> ``["AS", "KS"]``: worked examples read like a card table."""
    return text.split()


def test_every_five_card_hand_census() -> None:
    """All 2,598,960 hands through best_hand itself: 7,462 distinct values and the
    textbook count of each category (about 4 s here)."""
    values: Counter[int] = Counter()
    for combo in itertools.combinations(PACK, 5):
        values[best_hand(list(combo)).value] += 1
    assert sum(values.values()) == 2_598_960
    assert len(values) == 7_462
    by_category: Counter[str] = Counter()
    distinct: Counter[str] = Counter()
    for value, count in values.items():
        category = Hand(value, 0).category
        by_category[category] += count
        distinct[category] += 1
    expected = [40, 624, 3_744, 5_108, 10_200, 54_912, 123_552, 1_098_240, 1_302_540]
    assert [by_category[c] for c in reversed(CATEGORIES)] == expected
    # The distinct values per category are the textbook 10 / 156 / 156 / 1277 / 10 /
    # 858 / 858 / 2860 / 1277: ties are exactly the hands poker calls equal.
    assert [distinct[c] for c in reversed(CATEGORIES)] == [
        10,
        156,
        156,
        1_277,
        10,
        858,
        858,
        2_860,
        1_277,
    ]


def _oracle_pairs(n: int, count: int, seed: int) -> list[tuple[list[str], list[str]]]:
    rng = random.Random(seed)
    return [(rng.sample(PACK, n), rng.sample(PACK, n)) for _ in range(count)]


@pytest.mark.parametrize("n", [5, 6, 7])
def test_order_agrees_with_phevaluator(n: int) -> None:
    for a, b in _oracle_pairs(n, soak(4_000, 100_000), seed=n):
        ours = (best_hand(a) > best_hand(b)) - (best_hand(a) < best_hand(b))
        # phevaluator: smaller is stronger.
        theirs = (evaluate_cards(*a) < evaluate_cards(*b)) - (
            evaluate_cards(*a) > evaluate_cards(*b)
        )
        assert ours == theirs, (a, b)


@pytest.mark.parametrize("n", [5, 7])
def test_order_agrees_with_treys(n: int) -> None:
    ev = Evaluator()

    def treys(cards: list[str]) -> int:
        tc = [TreysCard.new(c[0] + c[1].lower()) for c in cards]
        return ev.evaluate(tc[:2], tc[2:])

    for a, b in _oracle_pairs(n, soak(1_000, 20_000), seed=10 + n):
        ours = (best_hand(a) > best_hand(b)) - (best_hand(a) < best_hand(b))
        theirs = (treys(a) < treys(b)) - (treys(a) > treys(b))
        assert ours == theirs, (a, b)


hands = st.lists(st.sampled_from(PACK), unique=True, max_size=52)


@given(hands, st.randoms(use_true_random=False))
def test_input_order_and_type_do_not_matter(cards: list[str], rng: random.Random) -> None:
    shuffled = list(cards)
    rng.shuffle(shuffled)
    as_cards = [Card.parse(c) for c in shuffled]
    assert best_hand(cards) == best_hand(shuffled) == best_hand(as_cards)
    assert best_hand(tuple(cards)) == best_hand(iter(as_cards))
    assert hash(best_hand(cards)) == hash(best_hand(shuffled))


@given(hands, st.sampled_from(PACK))
def test_adding_a_card_never_lowers_the_hand(cards: list[str], extra: str) -> None:
    if extra in cards:
        return
    assert best_hand([*cards, extra]) >= best_hand(cards)


@given(hands)
def test_shown_cards_make_the_hand(cards: list[str]) -> None:
    """The five cards a view shows rank exactly as the whole collection."""
    hand = best_hand(cards)
    assert len(hand.cards) == min(5, len(cards))
    assert set(hand.cards) <= set(cards)
    assert best_hand(hand.cards) == hand


@pytest.mark.parametrize(
    ("smaller", "larger"),
    [
        ([], ["2C"]),  # no card at all ranks below any card
        (["KH"], ["AD"]),
        (["AH", "KD", "QC", "JS"], ["2H", "2D"]),  # a pair of two cards is a pair
        (["AH", "AD"], ["AC", "AS", "2D"]),  # a missing kicker ranks below any card
        (["AH", "AD", "KC", "KS"], ["2H", "2D", "2C"]),  # two pair < three of a kind
        (["9H", "9D", "9C", "9S"], ["9H", "9D", "9C", "9S", "2C"][::-1]),
        (["AS", "AH", "AD", "KS", "KH", "QD", "QC"], ["2S", "2H", "2D", "2C"]),
        (["5D", "4C", "3H", "2S", "AS"], ["6D", "5C", "4H", "3S", "2S"]),  # the wheel is lowest
        (["AS", "KS", "QS", "JS", "9S"], ["2D", "2H", "2C", "3S", "3D"]),
        (["KC", "QC", "JC", "TC", "9C"], ["AH", "KH", "QH", "JH", "TH"]),
    ],
)
def test_worked_orderings(smaller: list[str], larger: list[str]) -> None:
    assert best_hand(smaller) < best_hand(larger)


@pytest.mark.parametrize(
    ("cards", "category", "shown"),
    [
        ([], "high card", []),
        (["7H"], "high card", ["7H"]),
        (["7H", "7C"], "pair", ["7C", "7H"]),
        (["7H", "7C", "7D", "7S"], "four of a kind", ["7C", "7D", "7H", "7S"]),
        (hand("AS KS QS JS TS 9S 2C 2D 2H 2S"), "straight flush", hand("AS KS QS JS TS")),
        (hand("AD 2C 3H 4S 5C 9D"), "straight", hand("5C 4S 3H 2C AD")),
        (hand("AH 2H 3H 4H 5H 6C"), "straight flush", hand("5H 4H 3H 2H AH")),
        (hand("2H 5H 7H 9H JH 2S 5S 7S 9S KS"), "flush", hand("KS 9S 7S 5S 2S")),
        (hand("KC KD 7C 7D 2C 2D 9S"), "two pair", hand("KC KD 7C 7D 9S")),
        (hand("QC QD QH 2C 2D 2H"), "full house", hand("QC QD QH 2C 2D")),
    ],
)
def test_categories_and_shown_cards(cards: list[str], category: str, shown: list[str]) -> None:
    hand = best_hand(cards)
    assert hand.category == category
    assert hand.cards == shown


def test_thirty_six_cards_need_no_enumeration() -> None:
    """A whole abbott grid ranks in the same constant time as seven cards."""
    rng = random.Random(7)
    for _ in range(200):
        cards = rng.sample(PACK, 36)
        hand = best_hand(cards)
        # Some 5-card subset reaches that value, and none beats it (spot check).
        assert best_hand(hand.cards) == hand
        for _ in range(20):
            assert best_hand(rng.sample(cards, 5)) <= hand


@pytest.mark.parametrize("bad", [["JK"], ["AH", "AH"], ["ZZ"], [Card("*", "*")]])
def test_refuses_what_is_not_distinct_standard_cards(bad: list[object]) -> None:
    with pytest.raises(ValueError):
        best_hand(bad)  # type: ignore[arg-type]


def test_mask_path_is_the_same_ranking() -> None:
    cards = ["AH", "KH", "QH", "JH", "TH", "2C"]
    assert value_of_mask(card_mask(cards)) == best_hand(cards).value


@given(st.lists(st.sampled_from(PACK), unique=True, max_size=7), st.booleans())
def test_the_rank_count_memo_never_changes_a_value(cards: list[str], cold: bool) -> None:
    """Up to seven flush-free cards are remembered by rank counts: the remembered
    value is the one the mask path computes, cold or warm."""
    if cold:
        poker._MEMO.clear()
    assert best_hand(cards).value == value_of_mask(card_mask(cards))
    assert best_hand(cards).value == value_of_mask(card_mask(cards))
