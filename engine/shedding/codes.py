"""Cards as small integers inside the shedding engine, and cached action objects.

Hashing a ``Card`` dataclass costs a tuple hash on every dict or set lookup,
and a bot lists and checks hundreds of plays per turn, so the engine keeps
hands, stock and pile as ints (``suit * 13 + rank``, the joker 52: the order of
``make_deck``) and turns them into ``Card``s and strings only at its edges.
Play objects are cached too, so listing legal actions builds few new objects.

>>> code(Card.parse("QH")), TEXT[code(Card.parse("QH"))], TEXT[JK]
(36, 'QH', 'JK')
>>> make_play((36, 10), False) is make_play((36, 10), False)
True
>>> codes_of(Play((Card.parse("2C"),)))
(0,)
"""

from __future__ import annotations

from engine.actions import Action, Draw, Last, Nominate, Pass, Play
from engine.cards import FULL_PACK, JOKER, RANKS, SUITS, Card

JK = 52
CARD: tuple[Card, ...] = (*FULL_PACK, JOKER)
TEXT: tuple[str, ...] = tuple(str(c) for c in CARD)
RANK: tuple[int, ...] = (*(i % 13 for i in range(52)), -1)
SUIT: tuple[int, ...] = (*(i // 13 for i in range(52)), -1)
SUIT_LETTER = SUITS
_RANK_IX = {r: i for i, r in enumerate(RANKS)}
_SUIT_IX = {s: i for i, s in enumerate(SUITS)}

DRAW = Draw()
PASS = Pass()
LAST = Last()
NOMINATE = tuple(Nominate(s) for s in SUITS)

_PLAYS: dict[tuple[tuple[int, ...], bool], Play] = {}
_CODES: dict[int, tuple[int, ...]] = {}
#: The notation of every action object that lives forever (the singletons above and
#: the cached plays), by ``id``: such an id is never reused, so the lookup is exact.
NOTATION: dict[int, str] = {id(a): str(a) for a in (DRAW, PASS, LAST, *NOMINATE)}
_CACHE_LIMIT = 200_000


def code(card: Card) -> int:
    """The int for a card."""
    if card.rank == "*":
        return JK
    return _SUIT_IX[card.suit] * 13 + _RANK_IX[card.rank]


def suit_index(letter: str) -> int:
    return _SUIT_IX[letter]


def make_play(codes: tuple[int, ...], last: bool) -> Play:
    """The (cached) ``Play`` of these cards."""
    key = (codes, last)
    play = _PLAYS.get(key)
    if play is None:
        play = Play(tuple(CARD[c] for c in codes), last)
        if len(_PLAYS) < _CACHE_LIMIT:  # cached plays live forever, so their ids stay unique
            _PLAYS[key] = play
            _CODES[id(play)] = codes
            NOTATION[id(play)] = str(play)
    return play


def notation(action: Action) -> str:
    """``str(action)``, looked up for the objects this module made (the log wants
    the notation of every action, and building a play's string costs a join)."""
    text = NOTATION.get(id(action))
    return str(action) if text is None else text


def codes_of(play: Play) -> tuple[int, ...]:
    """The ints of a play's cards (cheap for a play this module made)."""
    codes = _CODES.get(id(play))
    if codes is None:  # an id in _CODES is a cached play's, which lives forever
        codes = tuple(code(c) for c in play.cards)
    return codes


#: ``SINGLE[last][c]``: the play of card ``c`` alone, without and with the announcement.
SINGLE: tuple[tuple[Play, ...], tuple[Play, ...]] = (
    tuple(make_play((c,), False) for c in range(53)),
    tuple(make_play((c,), True) for c in range(53)),
)
