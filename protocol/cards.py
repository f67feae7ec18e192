"""Cards on a screen: ``Q♥`` in red and ``K♠`` in black, or plain ``QH`` in ASCII mode.

Every board draws cards through here so that the colour and ASCII rules live in
one place. The functions return *formatted text* as prompt_toolkit reads it (a list of
``(style, text)`` pairs) whose styles are class names (``class:card.red``), so
a terminal without colour, or the ``--ascii`` switch, changes only the style
sheet and the glyphs, never the layout: a card is always two cells wide.

>>> card_text("QH"), card_text("QH", ascii_only=True), card_text("JK")
('Q♥', 'QH', 'JK')
>>> card_fragments("TD")
[('class:card.red', 'T♦')]
>>> sort_cards(["2C", "AS", "QH", "JK", "TH"])
['2C', 'TH', 'QH', 'AS', 'JK']
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

#: Formatted text as prompt_toolkit takes it: (style, text) pairs. Plain tuples here, so
#: the server's text mode can share the words without a terminal library.
StyleAndTextTuples = list[tuple[str, str]]

RANKS = "23456789TJQKA"
SUIT_ORDER = "CDHS"
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
RANK_NAMES = {
    "2": "twos",
    "3": "threes",
    "4": "fours",
    "5": "fives",
    "6": "sixes",
    "7": "sevens",
    "8": "eights",
    "9": "nines",
    "T": "tens",
    "J": "jacks",
    "Q": "queens",
    "K": "kings",
    "A": "aces",
}
#: A rank read aloud, one card of it ("a 10", "an ace"), where the notation's letter
#: (``T``, ``A``) is for typing, not for reading.
RANK_WORDS = {"T": "10", "J": "jack", "Q": "queen", "K": "king", "A": "ace"}
JOKER = "JK"


def card_style(card: str) -> str:
    """The style class of a card: hearts and diamonds red, clubs and spades black."""
    if card == JOKER:
        return "class:card.joker"
    return "class:card.red" if card[-1:] in ("H", "D") else "class:card.black"


def card_text(card: str, ascii_only: bool = False) -> str:
    """Two cells: ``Q♥`` (``QH`` when ``ascii_only``); a joker is ``JK`` either way."""
    if card == JOKER or ascii_only or len(card) != 2:
        return card
    return card[0] + SUIT_SYMBOLS.get(card[1], card[1])


def card_reading(card: str) -> str:
    """A card as text mode and the browser write it for reading: ``10♥`` for the ten (the
    notation's ``T`` is for typing; a board keeps ``card_text``'s two cells).

    >>> card_reading("TH"), card_reading("QS"), card_reading("JK")
    ('10♥', 'Q♠', 'JK')
    """
    text = card_text(card)
    return "10" + text[1:] if len(card) == 2 and card[0] == "T" and card != JOKER else text


#: a ten as ``card_text`` draws it, alone (not the end of a word): ``T♥``
_TEN = re.compile(r"(?<![\w♣♦♥♠])T(?=[♣♦♥♠](?![\w♣♦♥♠]))")


def tens_for_reading(line: str) -> str:
    """``line`` with every ten drawn as ``card_text`` draws it (``T♥``) written as a person
    reads it (``10♥``); notation (``play TH``) and words are left as they are.

    >>> tens_for_reading("top T♥ · your hand T♣ 9♦ · you may: play TC, draw")
    'top 10♥ · your hand 10♣ 9♦ · you may: play TC, draw'
    """
    return _TEN.sub("10", line)


def suit_text(suit: str, ascii_only: bool = False) -> str:
    """A suit as a person reads it: ``♥ hearts`` (or ``H hearts``)."""
    glyph = suit if ascii_only else SUIT_SYMBOLS.get(suit, suit)
    return f"{glyph} {SUIT_NAMES.get(suit, suit)}"


def suit_style(suit: str) -> str:
    return "class:card.red" if suit in ("H", "D") else "class:card.black"


def card_fragments(card: str, ascii_only: bool = False, extra: str = "") -> StyleAndTextTuples:
    """One card as formatted text; ``extra`` adds style classes (``class:best``)."""
    style = card_style(card) + (" " + extra if extra else "")
    return [(style, card_text(card, ascii_only))]


@lru_cache(maxsize=512)  # a deck's cards, each drawn in every sentence that names it
def cached_fragment(card: str, ascii_only: bool, reading: bool = False) -> tuple[str, str]:
    """A card's ``(style, text)``, worked out once per card (the sentences' hot path);
    ``reading``: a ten as ``10♥``, as a sentence writes it."""
    text = card_reading(card) if reading and not ascii_only else card_text(card, ascii_only)
    return card_style(card), text


def cards_fragments(
    cards: Iterable[str],
    ascii_only: bool = False,
    sep: str = " ",
    highlight: Iterable[str] = (),
    highlight_style: str = "class:best",
    reading: bool = False,
) -> StyleAndTextTuples:
    """Cards separated by ``sep``; those in ``highlight`` also get ``highlight_style``.
    ``reading``: tens as ``10♥`` (a sentence), not a board's two cells (``T♥``).

    ``highlight`` is a multiset: two equal cards highlight only as many as it lists.
    """
    pending = list(highlight)
    out: StyleAndTextTuples = []
    if not pending:  # the usual case (every sentence of a log): no highlight to look for
        for card in cards:
            if out:
                out.append(("", sep))
            out.append(cached_fragment(card, ascii_only, reading))
        return out
    for i, card in enumerate(cards):
        if i:
            out.append(("", sep))
        extra = ""
        if card in pending:
            pending.remove(card)
            extra = highlight_style
        out.extend(card_fragments(card, ascii_only, extra))
    return out


def card_key(card: str) -> tuple[int, int]:
    """Sort by suit, then rank (ace high); jokers last."""
    if card == JOKER or len(card) != 2:
        return (len(SUIT_ORDER), 0)
    return (SUIT_ORDER.find(card[1]), RANKS.find(card[0]))


def rank_key(card: str) -> tuple[int, int]:
    """Sort by rank (ace high), then suit; jokers last."""
    if card == JOKER or len(card) != 2:
        return (len(RANKS), 0)
    return (RANKS.find(card[0]), SUIT_ORDER.find(card[1]))


def sort_cards(cards: Sequence[str], by_rank: bool = False) -> list[str]:
    """A hand in the order a person holds it: by suit then rank, or by rank."""
    return sorted(cards, key=rank_key if by_rank else card_key)


def fragments_width(fragments: StyleAndTextTuples) -> int:
    """Cells taken by some formatted text (cards are one cell per character)."""
    return sum(len(text) for _style, text, *_ in fragments)
