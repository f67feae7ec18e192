"""Poker ranking of any number of cards: the best five-card hand among them.

Why our own: abbott ranks whole collections (a player may hold a dozen cards),
and its "winner is decided" check ranks a collection plus every card left on
the grid, up to 36 cards at once. The evaluators on PyPI (phevaluator, treys,
...) rank exactly five to seven cards, and enumerating the C(n, 5) subsets of a
larger set is hopeless (C(36, 5) = 376,992). They serve as test oracles instead.

How: the cards become one 64-bit mask, sixteen bits per suit and one bit per
rank. Four 13-bit suit masks then give, with a handful of bitwise operations,
the ranks held at least once, twice, three and four times, and small tables
indexed by a 13-bit mask give the best straight, the top five ranks and each
suit's best flush. So the cost after building the mask does not depend on the
number of cards: building it is the only linear step. For up to seven cards
with no flush, the value depends on the rank counts alone, and ``best_hand``
remembers it per rank-count vector (76,155 of them at most): one sum over the
cards yields the mask, the rank counts and the suit counts at once.

Fewer than five cards rank by the groups they hold (docs/rules.md): a pair of two
cards is a pair, and a missing kicker ranks below any card.

>>> best_hand("AS KS QS JS TS 2C".split())
Hand('straight flush', ['AS', 'KS', 'QS', 'JS', 'TS'])
>>> best_hand(["5D", "4C", "3H", "2S", "AS"]).category
'straight'
>>> best_hand(["AH", "AD"]) > best_hand(["KH", "KD", "QC", "JS", "9H"])
True
>>> best_hand(["AH", "AD"]) < best_hand(["AC", "AS", "2D"])
True
>>> best_hand([]).category
'high card'
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final, cast

from engine.cards import RANKS, SUITS, Card

CATEGORIES: Final = (
    "high card",
    "pair",
    "two pair",
    "three of a kind",
    "straight",
    "flush",
    "full house",
    "four of a kind",
    "straight flush",
)
HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)

# A value is ``category << 20`` plus five 4-bit rank slots, most significant
# first; a rank is stored as 1..13 (two..ace) so that 0 is the missing kicker.
_CAT_SHIFT: Final = 20
_SUIT_SHIFT: Final = {s: 16 * i for i, s in enumerate(SUITS)}
_RANK_BIT: Final = {r: 1 << i for i, r in enumerate(RANKS)}
_LOW13: Final = 0x1FFF

#: Each card's bit in the 64-bit mask, by its two-character text and by ``(rank, suit)``.
CARD_BIT: Final[dict[str, int]] = {
    r + s: 1 << (i + _SUIT_SHIFT[s]) for s in SUITS for i, r in enumerate(RANKS)
}
_BIT_NAME: Final = {b: t for t, b in CARD_BIT.items()}


def _tables() -> tuple[list[int], list[int], list[int], list[int]]:
    """Tables over every 13-bit rank mask (8,192 entries each)."""
    size = 1 << 13
    high = [-1] * size  # index of the highest rank held
    top5 = [0] * size  # the top five ranks, packed as five slots
    straight = [0] * size  # 1 + index of the top card of the best straight, or 0
    flush = [0] * size  # the whole value of the best flush/straight flush in one suit, or 0
    runs = [(0b11111 << lo, lo + 5) for lo in range(8, -1, -1)]  # A-high .. 6-high
    wheel = (1 << 12) | 0b1111  # A 2 3 4 5: five-high, top index 3
    for m in range(1, size):
        high[m] = m.bit_length() - 1
        packed, left, n = 0, m, 0
        while left and n < 5:
            b = left.bit_length() - 1
            packed |= (b + 1) << (4 * (4 - n))
            left ^= 1 << b
            n += 1
        top5[m] = packed
        for run, top in runs:
            if m & run == run:
                straight[m] = top
                break
        else:
            if m & wheel == wheel:
                straight[m] = 4
        if m.bit_count() >= 5:
            if straight[m]:
                flush[m] = (STRAIGHT_FLUSH << _CAT_SHIFT) | (straight[m] << 16)
            else:
                flush[m] = (FLUSH << _CAT_SHIFT) | packed
    return high, top5, straight, flush


_HIGH, _TOP5, _STRAIGHT, _FLUSH = _tables()


def value_of_mask(
    m: int,
    _high: list[int] = _HIGH,
    _top5: list[int] = _TOP5,
    _straight: list[int] = _STRAIGHT,
    _flush: list[int] = _FLUSH,
) -> int:
    """The value of the best hand in mask ``m`` (see ``card_mask``); higher is better.

    This is the whole ranking; ``best_hand`` wraps it. Exposed for callers that
    keep masks (abbott ranks a collection plus the grid with one ``|``). The
    tables are bound as defaults and the categories written as literals
    (``0x700000`` is four of a kind) because this is the hot path.

    >>> value_of_mask(card_mask(["AH", "AD"])) > value_of_mask(card_mask(["KH", "KD", "QC"]))
    True
    """
    s0 = m & 0x1FFF
    s1 = (m >> 16) & 0x1FFF
    s2 = (m >> 32) & 0x1FFF
    s3 = m >> 48
    f = _flush[s0] or _flush[s1] or _flush[s2] or _flush[s3]
    if f:
        # Ten or more cards may hold two flushes: take the better one.
        f = max(f, _flush[s1], _flush[s2], _flush[s3])
        if f >= 0x800000:  # straight flush
            return f
    a01 = s0 | s1
    a23 = s2 | s3
    p01 = s0 & s1
    p23 = s2 & s3
    two = p01 | p23 | (a01 & a23)
    if not two:
        if f:
            return f
        any_ = a01 | a23
        s = _straight[any_]
        return 0x400000 | (s << 16) if s else _top5[any_]
    three = (p01 & a23) | (p23 & a01)
    any_ = a01 | a23
    if three:
        four = p01 & p23
        if four:
            q = _high[four]
            return 0x700000 | ((q + 1) << 16) | ((_top5[any_ ^ (1 << q)] >> 16) << 12)
        t = _high[three]
        rest = two ^ (1 << t)
        if rest:
            return 0x600000 | ((t + 1) << 16) | ((_high[rest] + 1) << 12)
        if f:
            return f
        s = _straight[any_]
        if s:
            return 0x400000 | (s << 16)
        return 0x300000 | ((t + 1) << 16) | ((_top5[any_ ^ (1 << t)] >> 12) << 8)
    if f:
        return f
    s = _straight[any_]
    if s:
        return 0x400000 | (s << 16)
    p = _high[two]
    rest = two ^ (1 << p)
    if rest:
        p2 = _high[rest]
        kick = _top5[any_ ^ (1 << p) ^ (1 << p2)] >> 16
        return 0x200000 | ((p + 1) << 16) | ((p2 + 1) << 12) | (kick << 8)
    return 0x100000 | ((p + 1) << 16) | ((_top5[any_ ^ (1 << p)] >> 8) << 4)


def card_mask(cards: Iterable[Card | str]) -> int:
    """The 64-bit mask of ``cards`` (``Card`` objects or two-character strings).

    Raises ``ValueError`` for a joker, a duplicate card or something not a card.
    """
    if not isinstance(cards, list | tuple):
        cards = list(cards)
    if not cards:
        return 0
    rb, ss = _RANK_BIT, _SUIT_SHIFT
    try:
        if isinstance(cards[0], Card):
            m = sum([rb[c.rank] << ss[c.suit] for c in cast("list[Card]", cards)])
        else:
            m = sum(map(CARD_BIT.__getitem__, cast("list[str]", cards)))
    except (AttributeError, KeyError, TypeError):
        m = sum(map(_card_bit, cards))
    if m.bit_count() != len(cards):
        raise ValueError(f"duplicate card in {[str(c) for c in cards]}")
    return m


def _card_bit(card: Card | str) -> int:
    """One card's bit, whatever its spelling; ``ValueError`` for a joker or a non-card."""
    c = card if isinstance(card, Card) else Card.parse(str(card))
    try:
        return _RANK_BIT[c.rank] << _SUIT_SHIFT[c.suit]
    except KeyError:
        raise ValueError(f"poker ranks the 52 standard cards, not {str(card)!r}") from None


class Hand:
    """The best five-card poker hand among some cards: ordered, hashable.

    Two hands compare by poker value only (``==`` means a tie, whatever the
    suits); ``cards`` are the (up to) five cards that make it.
    """

    __slots__ = ("_mask", "value")

    def __init__(self, value: int, mask: int) -> None:
        self.value = value
        self._mask = mask

    @property
    def category(self) -> str:
        """``"straight flush"`` ... ``"high card"``."""
        return CATEGORIES[self.value >> _CAT_SHIFT]

    @property
    def ranks(self) -> list[str]:
        """The five rank slots that decide ties, ``""`` for a missing kicker."""
        return [
            RANKS[slot - 1] if slot else ""
            for slot in ((self.value >> (4 * (4 - i))) & 0xF for i in range(5))
        ]

    @property
    def cards(self) -> list[str]:
        """The cards making the hand, best group first (``"AS"``, ...)."""
        return _five(self.value, self._mask)

    def __lt__(self, other: Hand) -> bool:
        return self.value < other.value

    def __le__(self, other: Hand) -> bool:
        return self.value <= other.value

    def __gt__(self, other: Hand) -> bool:
        return self.value > other.value

    def __ge__(self, other: Hand) -> bool:
        return self.value >= other.value

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Hand):
            return self.value == other.value
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.value)

    def __repr__(self) -> str:
        return f"Hand({self.category!r}, {self.cards!r})"


def best_hand(cards: Iterable[Card | str]) -> Hand:
    """The best five-card hand among any number (0..52) of distinct cards.

    Order of the input does not matter; adding a card never lowers the hand.

    >>> best_hand(["2C", "2D", "KS", "KH", "KD", "7C", "7H"])
    Hand('full house', ['KD', 'KH', 'KS', '7C', '7H'])
    """
    if type(cards) is not list and type(cards) is not tuple:
        cards = list(cards)
    n = len(cards)
    # One sum gives the mask, the rank counts and the suit counts (see _CODE).
    try:
        if n and type(cards[0]) is str:
            t = sum(map(_GET_CODE, cards))
        else:
            t = 0
            by_suit = _CODE_BY_SUIT
            for c in cards:  # Cards: a str among them raises, and is read the slow way below
                t += by_suit[c.suit][c.rank]  # type: ignore[union-attr]
    except (AttributeError, KeyError, TypeError):
        m = card_mask(cards)  # mixed spellings, or raises saying what is wrong
        return Hand(value_of_mask(m), m)
    m = t & _MASK64
    if m.bit_count() != n:
        card_mask(cards)  # raises on the duplicate
    if n <= 7 and not ((t >> 104) + 0x3333) & 0x8888:
        # No flush possible: the value depends on the rank counts alone, and there
        # are only 76,155 rank-count vectors of up to seven cards, so remember them.
        key = (t >> 64) & _RANK_COUNTS
        v = _MEMO.get(key)
        if v is None:
            v = _MEMO[key] = value_of_mask(m)
        return Hand(v, m)
    return Hand(value_of_mask(m), m)


# Each card's code for best_hand's one sum: its mask bit (bits 0..63), one in its
# rank's 3-bit count (bits 64..102) and one in its suit's 4-bit count (104..119).
_CODE: Final = {
    r + s: CARD_BIT[r + s] | (1 << (64 + 3 * i)) | (1 << (104 + 4 * j))
    for j, s in enumerate(SUITS)
    for i, r in enumerate(RANKS)
}
_CODE_BY_SUIT: Final = {s: {r: _CODE[r + s] for r in RANKS} for s in SUITS}
_GET_CODE: Final = _CODE.__getitem__
_MASK64: Final = (1 << 64) - 1
_RANK_COUNTS: Final = (1 << 39) - 1
_MEMO: dict[int, int] = {}


def _bits_of_rank(m: int, r: int) -> list[int]:
    """The cards (as bits) of rank index ``r`` in ``m``, in suit order."""
    return [1 << (r + 16 * s) for s in range(4) if m >> (r + 16 * s) & 1]


def _five(value: int, m: int) -> list[str]:
    """Which cards of ``m`` make the hand ``value``: for showing, not for ranking."""
    cat = value >> _CAT_SHIFT
    slots = [(value >> (4 * (4 - i))) & 0xF for i in range(5)]
    bits: list[int] = []
    if cat in (FLUSH, STRAIGHT_FLUSH):
        for s in range(4):
            if _FLUSH[(m >> (16 * s)) & _LOW13] == value:
                break
        if cat == FLUSH:
            ranks = [x - 1 for x in slots]
        else:
            top = slots[0] - 1
            ranks = [top - i if top - i >= 0 else 12 for i in range(5)]
        bits = [1 << (r + 16 * s) for r in ranks]
    elif cat == STRAIGHT:
        top = slots[0] - 1
        ranks = [top - i if top - i >= 0 else 12 for i in range(5)]
        bits = [_bits_of_rank(m, r)[0] for r in ranks]
    else:
        group = {QUADS: (4, 1), FULL_HOUSE: (3, 2), TRIPS: (3, 1, 1), TWO_PAIR: (2, 2, 1)}
        sizes = group.get(cat, (2, 1, 1, 1) if cat == PAIR else (1, 1, 1, 1, 1))
        for slot, size in zip(slots, sizes, strict=False):
            if slot:
                bits.extend(_bits_of_rank(m, slot - 1)[:size])
    return [_BIT_NAME[b] for b in bits]
