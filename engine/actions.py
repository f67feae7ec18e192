"""Actions: small value objects with a notation that parses and prints round-trip.

Every family, the terminal client, the text protocol and the bots share this
notation, so one parser serves them all. Like python-chess's ``Move``, an
action's ``str`` is its notation and its ``repr`` is a valid constructor call.

>>> a = Action.parse("play 7h 7D last")
>>> a
Play(cards=(Card.parse('7H'), Card.parse('7D')), last=True)
>>> str(a)
'play 7H 7D last'
>>> Action.parse(str(a)) == a
True
>>> str(Action.parse("SUIT ♥")), str(Action.parse("move C4"))
('suit hearts', 'move c4')
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from engine.cards import SUIT_NAMES, Card, parse_cards, parse_suit
from engine.errors import InvalidActionError

_SQUARE = re.compile(r"^[a-f][1-6]$")
_PARSERS: dict[str, Callable[[str, list[str]], Action]] = {}


@dataclass(frozen=True, slots=True)
class Action:
    """Base of every action. ``Action.parse(text)`` picks the subclass by verb."""

    verb: ClassVar[str] = ""
    usage: ClassVar[str] = ""

    @staticmethod
    def parse(text: str) -> Action:
        """Parse notation such as ``move c4`` or ``play 7H 7D``.

        Raises ``InvalidActionError`` quoting the input and saying what was expected.
        """
        words = text.split()
        if not words:
            raise InvalidActionError(text, "empty action; expected " + expected_verbs())
        verb = words[0].lower()
        parser = _PARSERS.get(verb)
        if parser is None:
            raise InvalidActionError(
                text, f"unknown action {words[0]!r}; expected {expected_verbs()}"
            )
        return parser(text, words[1:])

    def __str__(self) -> str:
        return self.verb


def expected_verbs() -> str:
    """The usage line of every verb, for error messages and help."""
    return ", ".join(cls.usage for cls in _VERBS)


def _no_args(cls: type[Action]) -> Callable[[str, list[str]], Action]:
    def parse(text: str, args: list[str]) -> Action:
        if args:
            raise InvalidActionError(text, f"{cls.verb!r} takes nothing after it")
        return cls()

    return parse


@dataclass(frozen=True, slots=True)
class Move(Action):
    """Abbott: move your piece (or, under the 16-point power, your partner's) to a square."""

    square: str
    verb: ClassVar[str] = "move"
    usage: ClassVar[str] = "move SQUARE (e.g. move c4)"

    def __str__(self) -> str:
        return f"move {self.square}"


def _parse_move(text: str, args: list[str]) -> Action:
    if len(args) != 1 or not _SQUARE.match(args[0].lower()):
        raise InvalidActionError(text, "expected 'move SQUARE', a square a1..f6 such as c4")
    return Move(args[0].lower())


@dataclass(frozen=True, slots=True)
class Ally(Action):
    """Abbott: name a partner, by compass name (``west``) or seat number."""

    partner: str
    verb: ClassVar[str] = "ally"
    usage: ClassVar[str] = "ally SEAT (e.g. ally west)"

    def __str__(self) -> str:
        return f"ally {self.partner}"


def _parse_ally(text: str, args: list[str]) -> Action:
    if len(args) != 1:
        raise InvalidActionError(text, "expected 'ally SEAT', e.g. 'ally west' or 'ally 2'")
    return Ally(args[0].lower())


@dataclass(frozen=True, slots=True)
class Play(Action):
    """Shedding and kilodney: play one card, or several in order (a set or a run).

    ``last`` carries the last-card announcement made with the play."""

    cards: tuple[Card, ...]
    last: bool = False
    verb: ClassVar[str] = "play"
    usage: ClassVar[str] = "play CARD [CARD ...] [last] (e.g. play QH)"

    def __str__(self) -> str:
        return " ".join(["play", *map(str, self.cards), *(["last"] if self.last else [])])


def _parse_play(text: str, args: list[str]) -> Action:
    last = bool(args) and args[-1].lower() == "last"
    if last:
        args = args[:-1]
    if not args:
        raise InvalidActionError(text, "expected 'play CARD [CARD ...]', e.g. 'play QH'")
    return Play(tuple(parse_cards(args)), last)


@dataclass(frozen=True, slots=True)
class Draw(Action):
    """Draw from the stock, or take a pending pick-up."""

    verb: ClassVar[str] = "draw"
    usage: ClassVar[str] = "draw"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Decline an optional play (for example keep a card just drawn)."""

    verb: ClassVar[str] = "pass"
    usage: ClassVar[str] = "pass"


@dataclass(frozen=True, slots=True)
class Nominate(Action):
    """Shedding: name the suit to follow after a wild card. ``suit`` is ``C D H S``."""

    suit: str
    verb: ClassVar[str] = "suit"
    usage: ClassVar[str] = "suit SUIT (e.g. suit hearts)"

    def __str__(self) -> str:
        return f"suit {SUIT_NAMES[self.suit]}"


def _parse_suit(text: str, args: list[str]) -> Action:
    if len(args) != 1:
        raise InvalidActionError(text, "expected 'suit SUIT', e.g. 'suit hearts'")
    return Nominate(parse_suit(args[0]))


@dataclass(frozen=True, slots=True)
class Last(Action):
    """Shedding: announce that you hold one card (also typed ``cards`` or ``knock``:
    where the table plays the cards call, that you mean to go out next go)."""

    verb: ClassVar[str] = "last"
    usage: ClassVar[str] = "last"


@dataclass(frozen=True, slots=True)
class Concede(Action):
    """Give up the hand (abbott: both members of a side must concede)."""

    verb: ClassVar[str] = "concede"
    usage: ClassVar[str] = "concede"


@dataclass(frozen=True, slots=True)
class Vote(Action):
    """Vote on a motion; ``vote end`` asks to end the hand now."""

    motion: str
    verb: ClassVar[str] = "vote"
    usage: ClassVar[str] = "vote end"

    def __str__(self) -> str:
        return f"vote {self.motion}"


MOTIONS = ("end",)


def _parse_vote(text: str, args: list[str]) -> Action:
    if len(args) != 1 or args[0].lower() not in MOTIONS:
        raise InvalidActionError(text, "expected 'vote end'")
    return Vote(args[0].lower())


_VERBS: tuple[type[Action], ...] = (Move, Ally, Play, Draw, Pass, Nominate, Last, Concede, Vote)
_PARSERS.update(
    {
        "move": _parse_move,
        "ally": _parse_ally,
        "play": _parse_play,
        "draw": _no_args(Draw),
        "pass": _no_args(Pass),
        "suit": _parse_suit,
        "last": _no_args(Last),
        "cards": _no_args(Last),  # Black Jack's call before going out with several cards
        "knock": _no_args(Last),  # the same call, knocking on the table
        "concede": _no_args(Concede),
        "vote": _parse_vote,
    }
)
VERBS: tuple[str, ...] = tuple(cls.verb for cls in _VERBS)
#: Other spellings a verb is typed as (``cards`` and ``knock`` are ``last``).
VERB_ALIASES: tuple[str, ...] = tuple(w for w in _PARSERS if w not in VERBS)


def as_action(action: str | Action) -> Action:
    """Accept either notation or an ``Action``."""
    return Action.parse(action) if isinstance(action, str) else action
