"""Cards, packs and the two-character card notation shared by every family.

A card is ``QH``, ``TD``, ``2C``; a joker is ``JK``. Parsing also accepts
``10``, lower case and the suit symbols, so a person can type what they see.

>>> Card.parse("10♥")
Card.parse('TH')
>>> str(Card.parse("qs")), Card.parse("QS").pretty()
('QS', 'Q♠')
>>> len(make_deck(packs=1, jokers=2))
54
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from engine.errors import InvalidActionError

RANKS: Final = "23456789TJQKA"
SUITS: Final = "CDHS"
SUIT_NAMES: Final = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
SUIT_SYMBOLS: Final = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
_SYMBOL_TO_SUIT: Final = {v: k for k, v in SUIT_SYMBOLS.items()}
JOKER_TEXT: Final = "JK"
JOKER_RANK: Final = "*"
JOKER_SUIT: Final = "*"


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One card. ``rank`` is one of ``RANKS`` and ``suit`` one of ``SUITS``;
    a joker has ``rank == suit == "*"``. Two packs hold equal cards: identity
    is the face, which is all any rule looks at."""

    rank: str
    suit: str

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read ``QH``, ``10h``, ``q♥`` or ``JK``; raise ``InvalidActionError``."""
        t = text.strip()
        u = t.upper()
        if u in (JOKER_TEXT, "JOKER"):
            return JOKER
        if len(t) >= 2:
            rank, suit = u[:-1], t[-1]
            suit = _SYMBOL_TO_SUIT.get(suit, suit.upper())
            if rank == "10":
                rank = "T"
            if len(rank) == 1 and rank in RANKS and suit in SUITS:
                return cls(rank, suit)
        raise InvalidActionError(text, "not a card (rank 2-9 T J Q K A, suit C D H S; or JK)")

    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER_RANK

    @property
    def value(self) -> int:
        """Rank as a number, 2..14 with the ace high; a joker is 0."""
        return 0 if self.is_joker else RANKS.index(self.rank) + 2

    @property
    def is_red(self) -> bool:
        return self.suit in "DH"

    @property
    def is_black(self) -> bool:
        return self.suit in "CS"

    def __str__(self) -> str:
        return JOKER_TEXT if self.is_joker else self.rank + self.suit

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def pretty(self, ascii_only: bool = False) -> str:
        """``Q♥`` for screens (``QH`` when ``ascii_only``); ``10`` stays ``T``."""
        if self.is_joker or ascii_only:
            return str(self)
        return self.rank + SUIT_SYMBOLS[self.suit]


JOKER: Final = Card(JOKER_RANK, JOKER_SUIT)
FULL_PACK: Final[tuple[Card, ...]] = tuple(Card(r, s) for s in SUITS for r in RANKS)


def make_deck(packs: int = 1, jokers: int = 0) -> list[Card]:
    """``packs`` standard 52-card packs plus ``jokers`` jokers, in a fixed order."""
    return [c for _ in range(packs) for c in FULL_PACK] + [JOKER] * jokers


def parse_cards(texts: str | Iterable[str]) -> list[Card]:
    """Parse a space- or comma-separated string, or an iterable, of cards."""
    if isinstance(texts, str):
        texts = texts.replace(",", " ").split()
    return [Card.parse(t) for t in texts]


def format_cards(cards: Iterable[Card]) -> list[str]:
    """Cards as wire strings: the primitive form used in views and events."""
    return [str(c) for c in cards]


def shuffled(cards: Sequence[Card], rng: random.Random) -> list[Card]:
    """A shuffled copy, drawn from the game's own generator so it replays."""
    out = list(cards)
    rng.shuffle(out)
    return out


def parse_suit(text: str) -> str:
    """``hearts``, ``h``, ``H`` or ``♥`` to ``"H"``; raise ``InvalidActionError``."""
    t = text.strip()
    if t in _SYMBOL_TO_SUIT:
        return _SYMBOL_TO_SUIT[t]
    low = t.lower()
    for code, name in SUIT_NAMES.items():
        if low in (code.lower(), name, name[:-1]):
            return code
    raise InvalidActionError(text, "not a suit (clubs, diamonds, hearts, spades)")
