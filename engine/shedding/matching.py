"""Which cards go on the pile, and which cards go together in one play.

The matching rule (suit, rank, wild cards, a nominated suit) is read from the
power table's ``follows`` rows here only; the ways cards go down together (sets,
runs, Black Jack's chains and suit runs, pick-up cards laid together, j28's
go-on jack) are ``step`` and ``then``. Legality and the listing of legal plays
both ask these functions, so they cannot disagree.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from engine.cards import SUIT_NAMES
from engine.shedding.codes import JK, RANK, SUIT, SUIT_LETTER, TEXT
from engine.shedding.state import HandState
from engine.shedding.table import KEEP, TableRules

_SUIT_WORD = ("a club", "a diamond", "a heart", "a spade")
#: ``opening``'s row when any card may open a play.
ANY_CARD = (True,) * 53


def opening(rules: TableRules, state: HandState) -> tuple[bool, ...]:
    """Which cards may be laid on the pile now as the first card of a play, by card:
    the power table's ``follows`` row for the suit asked (the nominated one, else
    the top's) and the top's rank, where a wild card always goes; any card on an
    empty pile or on a joker with no suit named."""
    pile = state.pile
    if not pile:
        return ANY_CARD
    top = pile[-1]
    suit = state.nominated
    if suit is None:
        if top == JK:
            return ANY_CARD
        suit = SUIT[top]
    return rules.pt.follows[suit * 14 + RANK[top] + 1]


def mismatch(state: HandState, c: int) -> str:
    """Why ``c`` may not open a play on the pile, in words."""
    if state.nominated is not None:
        s = state.nominated
        return f"{TEXT[c]} is not {_SUIT_WORD[s]}: {SUIT_NAMES[SUIT_LETTER[s]]} were named"
    return f"{TEXT[c]} does not match the {TEXT[state.pile[-1]]} on the pile"


def same_set(rules: TableRules, a: int, b: int) -> bool:
    """Whether ``b`` may be laid with ``a`` as one set: the same rank, at a table that
    plays sets, or two cards that go down together and do the same thing."""
    if RANK[a] != RANK[b]:
        return False
    if rules.combos in ("sets", "mixed"):
        return True
    pt = rules.pt
    return pt.together[a] and pt.together[b] and pt.sig[a] == pt.sig[b]


def step(rules: TableRules, prev: int, nxt: int, direction: int) -> int | None:
    """Whether ``nxt`` may follow ``prev`` in one play: the run direction, or None
    (the power table's ``steps`` knows how each card may follow each other)."""
    s = rules.pt.steps[prev][nxt]
    if s is None:
        return None
    if s == KEEP:
        return direction
    return s if direction == 0 or direction == s else None


def then(rules: TableRules, prev: int, nxt: int, direction: int) -> int | None:
    """Whether ``nxt`` may come after ``prev`` in one play: the run's direction after
    it, or None. After a go-on card any card but a joker may (it names the suit its
    player goes on in); otherwise ``step`` says."""
    if rules.pt.go_on[prev] and nxt != JK:
        return 0
    return step(rules, prev, nxt, direction)


def together_ok(rules: TableRules, cards: tuple[int, ...]) -> bool:
    """Several cards answering a pending effect must be one set."""
    first = cards[0]
    return len(cards) == 1 or all(same_set(rules, first, c) for c in cards)


def alike(rules: TableRules, cards: Sequence[int]) -> bool:
    """Whether the cards are of one rank and do the same thing."""
    sig = rules.pt.sig
    first = cards[0]
    return all(RANK[c] == RANK[first] and sig[c] == sig[first] for c in cards)


def suit_run(rules: TableRules, first: int, cards: Sequence[int]) -> bool:
    """Whether ``cards`` go down after ``first`` as its suit run (Black Jack's red jack
    takes every card of its suit with it, in any order)."""
    return rules.pt.suit_run[first] and all(SUIT[c] == SUIT[first] for c in cards)


def sequence_reason(rules: TableRules, cards: tuple[int, ...]) -> str | None:
    """Why the cards after the first do not make one play, or None."""
    if len(cards) == 1 or suit_run(rules, cards[0], cards[1:]):
        return None
    direction = 0
    for prev, nxt in pairwise(cards):
        d = then(rules, prev, nxt, direction)
        if d is None:
            return f"{TEXT[nxt]} cannot follow {TEXT[prev]} in one play"
        direction = d
    return None


def one_go(rules: TableRules, cards: list[int]) -> bool:
    """Whether several cards could be laid as one play in some order (not counting
    the card they would go on); hands above seven are not searched."""
    if not 2 <= len(cards) <= 7:
        return False
    if any(suit_run(rules, c, cards) for c in set(cards)):
        return True
    counts = {c: cards.count(c) for c in cards}

    def extend(prev: int, direction: int, left: int) -> bool:
        if left == 0:
            return True
        for nxt, k in counts.items():
            if k == 0:
                continue
            d = then(rules, prev, nxt, direction)
            if d is None:
                continue
            counts[nxt] -= 1
            found = extend(nxt, d, left - 1)
            counts[nxt] += 1
            if found:
                return True
        return False

    for first in list(counts):
        counts[first] -= 1
        found = extend(first, 0, len(cards) - 1)
        counts[first] += 1
        if found:
            return True
    return False
