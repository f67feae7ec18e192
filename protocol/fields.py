"""Field kinds of the message model: each a checker that returns the value or raises.

A message class annotates each field with one of these ``Annotated`` aliases;
``protocol.messages`` reads the checker from the annotation once, when the
class is made, so validating a message is one call per field. A checker may
normalise (a list becomes a tuple, an action's notation its canonical form)
and raises ``LocalProtocolError`` naming the field's problem; the decoder
turns that into an ``InvalidMessage`` when the value came from the peer.

>>> check_word("t1")
't1'
>>> check_word("two words")
Traceback (most recent call last):
...
protocol.errors.LocalProtocolError: 'two words' is not a word (see protocol.fields)
>>> check_action("play qh")
'play QH'
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable
from typing import Annotated, Any

from engine.actions import Action
from engine.errors import InvalidActionError
from engine.shedding.vocabulary import with_kinds
from protocol.errors import LocalProtocolError
from protocol.payloads import (
    GameEvent,
    Leader,
    LedgerLine,
    Person,
    PlayedGame,
    Rating,
    RulesetInfo,
    SnapshotView,
    TableSummary,
    Tally,
    View,
)

Checker = Callable[[Any], Any]

MAX_WORD = 128
MAX_TEXT = 4000
MAX_ID = (1 << 31) - 1
MAX_SEQ = (1 << 63) - 1
MAX_SEAT = 63
MAX_COUNT = (1 << 53) - 1

#: Characters that never appear in a text field: C0 and C1 controls, DEL and
#: the Unicode line and paragraph separators (so a text field is always one line).
CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_WORD = re.compile(r"[^\s=\x00-\x1f\x7f-\x9f\u2028\u2029]{1,128}")


class TableState(enum.StrEnum):
    """A table's state, as snapshots and the lobby say it: one vocabulary for the server
    and the client. The members are strings, so they go on the wire, and compare with
    what comes off it, as the words themselves.

    >>> TableState.PLAYING == "playing", "paused" in RUNNING, TableState.OVER in RUNNING
    (True, True, False)
    """

    WAITING = "waiting"  #: no game has started, or the last one was cleared
    PLAYING = "playing"  #: a game is under way
    PAUSED = "paused"  #: the game master paused the game
    OVER = "over"  #: the game ended (finished or abandoned); a new one may start
    CLOSED = "closed"  #: the table is gone


#: The states in which a game is under way.
RUNNING = frozenset({TableState.PLAYING, TableState.PAUSED})
#: The states as plain words (``check_state`` compares them).
TABLE_STATES = tuple(state.value for state in TableState)


def _int(value: Any, low: int, high: int, what: str) -> int:
    if type(value) is not int or not low <= value <= high:
        raise LocalProtocolError(f"{value!r} is not {what} ({low}..{high})")
    return value


KNOWN_WORDS: set[str] = set()


def check_word(value: Any) -> str:
    """A word: names, table ids, tokens, codes, ruleset names; one text-mode token.

    1 to 128 printable characters, no whitespace, no ``=``, not starting with
    ``#`` and not ``-`` alone (text mode uses those for keys, ids and None).
    Words recur (table ids, names, types), so valid ones are remembered, up to
    a bound, to make the common case one set lookup."""
    if type(value) is str and value in KNOWN_WORDS:
        return value
    if type(value) is not str or not _WORD.fullmatch(value) or value[0] == "#" or value == "-":
        raise LocalProtocolError(f"{_short(value)} is not a word (see protocol.fields)")
    if len(KNOWN_WORDS) >= 4096:
        KNOWN_WORDS.clear()
    KNOWN_WORDS.add(value)
    return value


def check_text(value: Any) -> str:
    """Free text on one line: talk, error messages, notices."""
    if type(value) is str and len(value) <= MAX_TEXT and value.isprintable():
        return value  # the common case, one C pass (isprintable is the stricter test)
    if type(value) is not str or len(value) > MAX_TEXT or CONTROL.search(value):
        raise LocalProtocolError(
            f"{_short(value)} is not text (a string of at most {MAX_TEXT} characters"
            " without control characters)"
        )
    return value


def check_id(value: Any) -> int | None:
    """A request id: chosen by the requester, echoed by the reply."""
    return None if value is None else _int(value, 0, MAX_ID, "a request id")


def check_seq(value: Any) -> int:
    if type(value) is int and 0 <= value <= MAX_SEQ:
        return value
    return _int(value, 0, MAX_SEQ, "a sequence number")


def check_seat(value: Any) -> int:
    return _int(value, 0, MAX_SEAT, "a seat number")


def check_count(value: Any) -> int:
    return _int(value, 0, MAX_COUNT, "a count")


def check_signed(value: Any) -> int:
    return _int(value, -MAX_COUNT, MAX_COUNT, "a whole number")


def check_version(value: Any) -> int:
    return _int(value, 1, 0xFFFF, "a protocol version")


def check_bool(value: Any) -> bool:
    if type(value) is not bool:
        raise LocalProtocolError(f"{value!r} is not true or false")
    return value


def check_number(value: Any) -> float | int:
    if type(value) not in (int, float) or not 0 <= value <= 1e9:
        raise LocalProtocolError(f"{value!r} is not a number of seconds (0..1e9)")
    seconds: float | int = value
    return seconds


def check_state(value: Any) -> str:
    if value not in TABLE_STATES:
        raise LocalProtocolError(f"{value!r} is not a table state ({', '.join(TABLE_STATES)})")
    state: str = value
    return state


_STR_ONLY = {str}


def check_payload(value: Any) -> dict[str, Any]:
    """A map of primitives with string keys (a view, an event, options).

    Only the top level is checked here, for speed; the msgpack decoder has
    already bounded the depth and sizes of anything that came off the wire,
    and encoding refuses anything that is not a primitive."""
    if type(value) is not dict or (value and set(map(type, value)) != _STR_ONLY):
        raise LocalProtocolError(f"{_short(value)} is not a map with string keys")
    payload: dict[str, Any] = value
    return payload


def check_event(value: Any) -> GameEvent:
    """A presented engine event: a payload with a string ``kind``."""
    event = check_payload(value)
    if type(event.get("kind")) is not str:
        raise LocalProtocolError(f"{_short(value)} has no string 'kind'")
    presented: GameEvent = value  # as its family declares it (``protocol.payloads``)
    return presented


def check_view(value: Any) -> SnapshotView:
    """A game's view (empty before a game starts): a payload, and a shedding view's
    kinds (plain words on the wire) made the engine's members again (``with_kinds``), as
    ``SheddingView`` declares them."""
    view = check_payload(value)
    if view.get("family") == "shedding":
        try:
            return with_kinds(view)
        except (TypeError, KeyError) as exc:  # its pending power is no map with a kind
            raise LocalProtocolError(f"{_short(value)} is not a shedding view: {exc!r}") from None
    shown: SnapshotView = value  # as its family declares it (``protocol.payloads``)
    return shown


def check_action(value: Any) -> str:
    """An action in the engine's notation, normalised (``play qh`` -> ``play QH``)."""
    if type(value) is not str or len(value) > MAX_TEXT:
        raise LocalProtocolError(f"{_short(value)} is not an action", "bad_action")
    try:
        return str(Action.parse(value))
    except InvalidActionError as exc:
        raise LocalProtocolError(str(exc), "bad_action") from None


def optional(check: Checker) -> Checker:
    """``None`` or what ``check`` allows."""

    def optional_check(value: Any) -> Any:
        return None if value is None else check(value)

    return optional_check


def tuple_of(check: Checker, low: int = 0, high: int = 10_000) -> Checker:
    """A sequence (list or tuple; stored as a tuple) of items ``check`` allows."""

    def tuple_check(value: Any) -> tuple[Any, ...]:
        if type(value) not in (list, tuple) or not low <= len(value) <= high:
            raise LocalProtocolError(f"{_short(value)} is not a list of {low}..{high} items")
        return tuple([check(v) for v in value])

    return tuple_check


def check_legal(value: Any) -> tuple[str, ...]:
    """Legal actions as notation strings: each printable, without ``|`` and
    without spaces at its ends. Not re-parsed (the engine made them)."""
    if type(value) not in (list, tuple) or len(value) > 10_000:
        raise LocalProtocolError(f"{_short(value)} is not a list of actions")
    if value:
        # One join and a few C scans check the whole list. isprintable refuses every
        # control and line separator (the ASCII space is the only whitespace left);
        # the "|" between items is counted, so an item holding one shows; an empty
        # item leaves "||" or a "|" at an end.
        try:
            bars = "|".join(value)
        except TypeError:
            raise _not_notation(value) from None
        if not bars.isprintable():
            raise _not_notation(value)
        if bars.count("|") != len(value) - 1:
            raise LocalProtocolError(f"{_short(value)}: an action's notation has no '|'")
        if not bars or "||" in bars or bars[0] == "|" or bars[-1] == "|":
            raise _not_notation(value)
        if bars[0] == " " or bars[-1] == " " or " |" in bars or "| " in bars:
            raise LocalProtocolError(f"{_short(value)}: a notation has no space at either end")
    return tuple(value)


def check_choices(value: Any) -> tuple[tuple[str, tuple[tuple[str, str], ...]], ...]:
    """Legal actions grouped for display: ``[[heading, [[action, label], ...]], ...]``,
    each heading and label one line of text, each action notation as ``legal`` has it."""
    if type(value) not in (list, tuple) or len(value) > 100:
        raise LocalProtocolError(f"{_short(value)} is not a list of groups of choices")
    out = []
    for group in value:
        if type(group) not in (list, tuple) or len(group) != 2:
            raise LocalProtocolError(f"{_short(group)} is not a [heading, choices] pair")
        heading, items = group
        if type(items) not in (list, tuple):
            raise LocalProtocolError(f"{_short(items)} is not a list of [action, label] pairs")
        pairs = []
        for item in items:
            if type(item) not in (list, tuple) or len(item) != 2:
                raise LocalProtocolError(f"{_short(item)} is not an [action, label] pair")
            check_legal([item[0]])
            pairs.append((item[0], check_text(item[1])))
        out.append((check_text(heading), tuple(pairs)))
    return tuple(out)


def _not_notation(value: Any) -> LocalProtocolError:
    return LocalProtocolError(f"{_short(value)} is not a list of actions' notation")


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


_opt_word = optional(check_word)
_opt_seq = optional(check_seq)
_opt_seat = optional(check_seat)
_opt_count = optional(check_count)
_opt_number = optional(check_number)
_opt_payload = optional(check_payload)
_opt_text = optional(check_text)
_opt_view = optional(check_view)
_payloads = tuple_of(check_payload)

# The aliases message classes annotate their fields with.
Word = Annotated[str, check_word]
OptWord = Annotated["str | None", _opt_word]
Text = Annotated[str, check_text]
OptText = Annotated["str | None", _opt_text]
Id = Annotated["int | None", check_id]
Seq = Annotated[int, check_seq]
OptSeq = Annotated["int | None", _opt_seq]
Seat = Annotated[int, check_seat]
OptSeat = Annotated["int | None", _opt_seat]
Count = Annotated[int, check_count]
Signed = Annotated[int, check_signed]
OptCount = Annotated["int | None", _opt_count]
Bool = Annotated[bool, check_bool]
Clock = Annotated["float | None", _opt_number]
State = Annotated[str, check_state]
Payload = Annotated[dict[str, Any], check_payload]
OptPayload = Annotated["dict[str, Any] | None", _opt_payload]
EventPayload = Annotated[GameEvent, check_event]
Payloads = Annotated[tuple[dict[str, Any], ...], _payloads]
# The maps a message carries, each as ``protocol.payloads`` declares it (the top level
# checked, as ``Payload``'s).
ViewPayload = Annotated[SnapshotView, check_view]
OptView = Annotated[View | None, _opt_view]
RulesetList = Annotated[tuple[RulesetInfo, ...], _payloads]
TableList = Annotated[tuple[TableSummary, ...], _payloads]
PersonList = Annotated[tuple[Person, ...], _payloads]
RatingList = Annotated[tuple[Rating, ...], _payloads]
TallyList = Annotated[tuple[Tally, ...], _payloads]
GameList = Annotated[tuple[PlayedGame, ...], _payloads]
LeaderList = Annotated[tuple[Leader, ...], _payloads]
LedgerList = Annotated[tuple[LedgerLine, ...], _payloads]
Versions = Annotated[tuple[int, ...], tuple_of(check_version, 0, 32)]
Notation = Annotated[str, check_action]
Legal = Annotated[tuple[str, ...], check_legal]
#: ``[heading, [[action, label], ...]]`` per group (``protocol.legal.choices``)
Choices = Annotated[tuple[tuple[str, tuple[tuple[str, str], ...]], ...], check_choices]
Lines = Annotated[tuple[str, ...], tuple_of(check_text, 0, 1000)]
Players = Annotated["tuple[str | None, ...]", tuple_of(_opt_word, 0, MAX_SEAT + 1)]
Seats = Annotated[tuple[int, ...], tuple_of(check_seat, 0, MAX_SEAT + 1)]
