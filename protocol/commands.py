"""The command language: one line a person types, one message it stands for.

The terminal client's command line and the text protocol share this parser,
so ``join t1`` means the same at a prompt and over ``nc``. ``parse_command``
returns a message (``protocol.messages``); commands that act at a table use
``table``, the caller's current table, unless the line names one with
``at TABLE``. ``format_command`` is the inverse: the line that parses back
to a given client message.

>>> parse_command("join t1 2")
Join(table='t1', seat=1, id=None)
>>> parse_command("play qh", table="t1")
Act(table='t1', action='play QH', id=None)
>>> parse_command("#7 at t2 say good game")
Say(table='t2', text='good game', id=7)
>>> parse_command("create shedding-switch 4 target=100 jokers=true")
CreateTable(ruleset='shedding-switch', seats=4, options={'target': 100, 'jokers': True}, id=None)
>>> parse_command("jion t1")
Traceback (most recent call last):
...
protocol.commands.CommandError: unknown command 'jion'; did you mean 'join'?
>>> format_command(Act(table="t1", action="draw", id=3), table="t1")
'#3 draw'

The grammar of a line: ``[#ID] [at TABLE] COMMAND [ARGUMENT ...]``. A bare
action (``move c4``, ``play 7H 7D``, ``draw``, ``suit hearts`` ...) is
``act ACTION``. Option values (``key=value``) read as true/false (also
yes/no/on/off), then as JSON (``3``, ``1.5``, ``"3"``, ``[1,2]``, ``null``),
otherwise as a plain string.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.actions import VERB_ALIASES, VERBS, expected_verbs
from engine.cards import parse_cards
from protocol.describe import seat_number, seat_words
from protocol.errors import LocalProtocolError, ProtocolError
from protocol.messages import (
    VERSIONS,
    Act,
    AdminAuth,
    AdminBan,
    AdminCloseTable,
    AdminCloseTables,
    AdminConnections,
    AdminKick,
    AdminNotice,
    AdminShutdown,
    AdminStats,
    AdminTables,
    Analyse,
    ClaimName,
    CloseTable,
    CreateTable,
    CreateTournament,
    EndGame,
    EndTournament,
    EnterTournament,
    Follow,
    GetChips,
    GetHistory,
    GetProfile,
    GetRecord,
    GetReplay,
    GetTop,
    GetTournament,
    HandOver,
    HearShouts,
    Hello,
    Help,
    Hint,
    Join,
    Leave,
    ListRulesets,
    ListTables,
    ListTournaments,
    Look,
    Message,
    PauseGame,
    PauseTournament,
    Ping,
    PlayAgain,
    Pong,
    Quit,
    Resume,
    ResumeGame,
    ResumeTournament,
    Review,
    Say,
    SeatBot,
    SetOptions,
    SetPrize,
    Shout,
    SitOut,
    Spectate,
    StartGame,
    StartTournament,
    Unseat,
    Who,
    Withdraw,
)
from protocol.msgpack_codec import depth_ok


class CommandError(ProtocolError, ValueError):
    """A command line does not parse; the message says what was expected.

    ``code`` is ``bad_command`` (or ``bad_action`` for action notation), the
    code a text-mode server answers with."""

    def __init__(self, message: str, code: str = "bad_command") -> None:
        super().__init__(message, code)


Builder = Callable[[list[str], str, "str | None"], Message]


@dataclass(frozen=True, slots=True)
class Command:
    """One command: its name, usage line, one line of help and how to build it."""

    name: str
    usage: str
    summary: str
    group: str
    build: Builder
    aliases: tuple[str, ...] = ()


#: What ``_int`` accepts: ASCII digits and nothing else (``re.ASCII``: no other scripts).
_DIGITS = re.compile(r"[0-9]+", re.ASCII)


def _usage(usage: str) -> CommandError:
    return CommandError(f"usage: {usage}")


def _int(text: str, what: str, usage: str) -> int:
    """A count typed in ASCII digits only. Python's ``int`` would also take ``1_000``,
    ``+7``, spaces and the digits of every script (Arabic-Indic, full-width ...); a
    client written in another language would not, so the text mode does not either."""
    if not _DIGITS.fullmatch(text):
        raise CommandError(f"{what} must be a whole number, not {text!r}; usage: {usage}")
    return int(text)


def _seat(text: str, usage: str) -> int:
    """A seat as a person types it, counted from 1 (``seat_number``), as the wire's
    0-based ``seat``: ``join 4 1`` takes the first seat, the wire's seat 0."""
    number = _int(text, "SEAT", usage)
    if number < 1:
        raise CommandError(f"seats are counted from 1, not {text!r}; usage: {usage}")
    return number - 1


def _need_table(table: str | None, usage: str) -> str:
    if table is None:
        raise CommandError(
            f"no current table: join or watch one first, or name it with 'at TABLE {usage}'"
        )
    return table


#: How deep a JSON option value may nest (the message adds two levels: 16 in all).
MAX_OPTION_DEPTH = 14
_FIELD_PREFIX = re.compile(r"^\w+\.\w+: ")
_BOOLS = {"true": True, "yes": True, "on": True, "false": False, "no": False, "off": False}


def parse_value(text: str) -> Any:
    """An option value: a bool word, else JSON, else the plain string.

    >>> [parse_value(v) for v in ["3", "yes", "abc", '"3"', "1.5", "[1,2]"]]
    [3, True, 'abc', '3', 1.5, [1, 2]]
    """
    low = text.lower()
    if low in _BOOLS:
        return _BOOLS[low]
    try:
        value = json.loads(text)
    except ValueError:
        return text
    except RecursionError:
        raise CommandError(f"option value {text[:20]!r}... nests too deep") from None
    if not depth_ok(value, MAX_OPTION_DEPTH):
        raise CommandError(f"option value {text[:20]!r}... nests deeper than {MAX_OPTION_DEPTH}")
    return value


def format_value(value: Any) -> str:
    """The token ``parse_value`` reads back as ``value`` (JSON without spaces if need be)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    # A control character (an escape, say) is written as JSON's \\u escape: raw, a line
    # holding it would read as a terminal key typed at nc.
    plain = isinstance(value, str) and value != "" and value.isprintable()
    if (
        plain
        and not any(c.isspace() for c in value)
        and value.lower() not in _BOOLS
        and parse_value(value) == value
    ):
        return str(value)
    try:
        text = json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise LocalProtocolError(f"option value {value!r} cannot be text: {exc}") from None
    # Compact JSON has whitespace only inside strings, where an escape is equivalent.
    return "".join(c if not c.isspace() else f"\\u{ord(c):04x}" for c in text)


def parse_options(words: list[str], usage: str) -> dict[str, Any]:
    """``key=value`` words to a map."""
    out: dict[str, Any] = {}
    for word in words:
        key, sep, value = word.partition("=")
        if not sep or not key or not value:
            raise CommandError(f"expected option=value, not {word!r}; usage: {usage}")
        out[key] = parse_value(value)
    return out


def format_options(options: dict[str, Any]) -> list[str]:
    words = []
    for key, value in options.items():
        if not key or "=" in key or any(c.isspace() for c in key):
            raise LocalProtocolError(f"option name {key!r} cannot be written as text")
        words.append(f"{key}={format_value(value)}")
    return words


# ------------------------------------------------------------- the builders
def _no_args(make: Callable[[], Message], usage: str) -> Builder:
    def build(args: list[str], rest: str, table: str | None) -> Message:
        if args:
            raise _usage(usage)
        return make()

    return build


def _table_only(make: Callable[[str], Message], usage: str) -> Builder:
    def build(args: list[str], rest: str, table: str | None) -> Message:
        if args:
            raise _usage(usage)
        return make(_need_table(table, usage))

    return build


def _hello(args: list[str], rest: str, table: str | None) -> Message:
    if args and not any(_DIGITS.fullmatch(a) for a in args):
        return Hello(client="text")  # a person greeting the server ("hello there"): hello
    versions = tuple(_int(a, "a version", "hello [VERSION ...]") for a in args) or VERSIONS
    return Hello(versions=versions, client="text")


def _name(args: list[str], rest: str, table: str | None) -> Message:
    if len(args) == 1:  # a person's first try: say what the secret is for
        raise CommandError(
            f"usage: name NAME SECRET (a name is yours with a secret word you choose and"
            f" keep, e.g. name {args[0]} my-secret-word)",
            "bad_command",
        )
    if len(args) != 2:
        raise _usage("name NAME SECRET")
    return ClaimName(name=args[0], secret=args[1])


def _format(args: list[str], rest: str, table: str | None) -> Message:
    raise CommandError("format is text mode's (nc): this client draws its own screens")


def _create(args: list[str], rest: str, table: str | None) -> Message:
    usage = "create RULESET SEATS [option=value ...]"
    if len(args) == 1:  # a person's first try: how many seats
        raise CommandError(f"usage: {usage}: how many seats? e.g. create {args[0]} 2")
    if len(args) < 2:
        raise _usage(usage)
    return CreateTable(
        ruleset=args[0],
        seats=_int(args[1], "SEATS", usage),
        options=parse_options(args[2:], usage),
    )


def _join(args: list[str], rest: str, table: str | None) -> Message:
    usage = "join [TABLE [SEAT]]"
    if not args:  # the current table (the one just created, say), any free seat
        if table is None:
            raise CommandError(f"join which table? no current table; usage: {usage}")
        return Join(table=table)
    if len(args) > 2:
        raise _usage(usage)
    seat = _seat(args[1], usage) if len(args) == 2 else None
    return Join(table=args[0], seat=seat)


def _back(args: list[str], rest: str, table: str | None) -> Message:
    """``back [TABLE]``: a ``join`` of the table where the name holds a seat, which takes
    that seat again (the current table: the one the server said the name sits at)."""
    usage = "back [TABLE]"
    if len(args) > 1:
        raise _usage(usage)
    if args:
        return Join(table=args[0])
    if table is None:
        raise CommandError("back to which table? your name holds no seat here; usage: back TABLE")
    return Join(table=table)


def _watch(args: list[str], rest: str, table: str | None) -> Message:
    usage = "watch TABLE [SEQ]"
    if not 1 <= len(args) <= 2:
        raise _usage(usage)
    last_seq = _int(args[1], "SEQ", usage) if len(args) == 2 else None
    return Spectate(table=args[0], last_seq=last_seq)


def _look(args: list[str], rest: str, table: str | None) -> Message:
    usage = "look [TABLE]"
    if len(args) > 1:
        raise _usage(usage)
    if args:
        return Look(table=args[0])
    if table is None:
        raise CommandError(
            "look at which table? you are at none: tables lists them, watch N shows one"
        )
    return Look(table=table)


def _shout(args: list[str], rest: str, table: str | None) -> Message:
    if not rest.strip():
        raise CommandError("shout what? usage: shout TEXT (everyone online reads it)")
    return Shout(text=rest.strip())


def _shouts(args: list[str], rest: str, table: str | None) -> Message:
    usage = "shouts on|off"
    if len(args) != 1 or args[0].lower() not in ("on", "off"):
        raise _usage(usage)
    return HearShouts(on=args[0].lower() == "on")


def _resume(args: list[str], rest: str, table: str | None) -> Message:
    """``resume TABLE TOKEN [seq=N]``: the seat's token takes it back, with the events
    after the N-th (none: all of them). The last event seen is named ``seq=N`` so that
    nothing after the token reads like a seat; a bare N is still read as it, for the
    clients written before."""
    usage = "resume TABLE TOKEN [seq=N] (take back a seat), or resume (the game, master only)"
    if not args:
        return ResumeGame(table=_need_table(table, "resume"))
    if len(args) not in (2, 3):
        raise _usage(usage)
    seq = "0" if len(args) == 2 else args[2]
    if seq.lower().startswith("seq="):
        seq = seq[len("seq=") :]
    return Resume(table=args[0], token=args[1], last_seq=_int(seq, "SEQ", usage))


def _say(args: list[str], rest: str, table: str | None) -> Message:
    if not rest.strip():
        raise CommandError("say what? usage: say TEXT")
    return Say(table=_need_table(table, "say TEXT"), text=rest.strip())


def _act(args: list[str], rest: str, table: str | None) -> Message:
    if not rest.strip():
        raise CommandError("usage: act ACTION; actions: " + expected_verbs(), "bad_action")
    return Act(table=_need_table(table, "act ACTION"), action=rest.strip())


def _bot(args: list[str], rest: str, table: str | None) -> Message:
    usage = "bot SEAT [STRATEGY]"
    if not 1 <= len(args) <= 2:
        raise _usage(usage)
    return SeatBot(
        table=_need_table(table, usage),
        seat=_seat(args[0], usage),
        strategy=args[1] if len(args) == 2 else None,
    )


def _unseat(args: list[str], rest: str, table: str | None) -> Message:
    if len(args) != 1:
        raise _usage("unseat SEAT")
    return Unseat(table=_need_table(table, "unseat SEAT"), seat=_seat(args[0], "unseat SEAT"))


def _start(args: list[str], rest: str, table: str | None) -> Message:
    usage = "start [free|bot]"
    if len(args) > 1:
        raise _usage(usage)
    # the server says which words it knows (error bad_options)
    return StartGame(table=_need_table(table, usage), absent=args[0] if args else None)


def _set(args: list[str], rest: str, table: str | None) -> Message:
    usage = "set option=value [option=value ...]"
    if not args:
        raise _usage(usage)
    return SetOptions(table=_need_table(table, usage), options=parse_options(args, usage))


def _prize(args: list[str], rest: str, table: str | None) -> Message:
    if len(args) != 1:
        raise _usage("prize CHIPS")
    return SetPrize(table=_need_table(table, "prize CHIPS"), chips=_int(args[0], "CHIPS", "prize"))


def _master(args: list[str], rest: str, table: str | None) -> Message:
    if len(args) != 1:
        raise _usage("master NAME")
    return HandOver(table=_need_table(table, "master NAME"), name=args[0])


def _chips(args: list[str], rest: str, table: str | None) -> Message:
    if len(args) > 1:
        raise _usage("chips [NAME]")
    return GetChips(name=args[0] if args else None)


def _tables(args: list[str], rest: str, table: str | None) -> Message:
    """``tables [START [COUNT]]``: a page of the lobby from its START-th table."""
    usage = "tables [START [COUNT]]"
    if len(args) > 2:
        raise _usage(usage)
    start = _int(args[0], "START", usage) if args else 0
    count = _int(args[1], "COUNT", usage) if len(args) == 2 else None
    return ListTables(start=start, count=count)


def _format_tables(m: ListTables) -> str:
    """The ``tables`` line of ``m``."""
    if m.count is not None:
        return _join_words("tables", str(m.start), str(m.count))
    return _join_words("tables", str(m.start) if m.start else "")


def _finger(args: list[str], rest: str, table: str | None) -> Message:
    if len(args) > 1:
        raise _usage("finger [NAME]")
    return GetProfile(name=args[0] if args else None)


def _history(args: list[str], rest: str, table: str | None) -> Message:
    """``history [NAME] [START]``: a lone number is START (your own history's page)."""
    usage = "history [NAME] [START]"
    if len(args) > 2:
        raise _usage(usage)
    if len(args) == 1 and _DIGITS.fullmatch(args[0]):
        return GetHistory(start=_int(args[0], "START", usage))
    start = _int(args[1], "START", usage) if len(args) == 2 else 0
    return GetHistory(name=args[0] if args else None, start=start)


def _format_history(m: GetHistory) -> str:
    """The ``history`` line of ``m`` (a name that is a number keeps its START, even 0)."""
    if m.name is None:
        return _join_words("history", str(m.start) if m.start else "")
    start = str(m.start) if m.start or _DIGITS.fullmatch(m.name) else ""
    return _join_words("history", m.name, start)


def _top(args: list[str], rest: str, table: str | None) -> Message:
    usage = "top FAMILY [N]"
    if not 1 <= len(args) <= 2:
        raise _usage(usage)
    return GetTop(family=args[0], count=_int(args[1], "N", usage) if len(args) == 2 else None)


def _close(args: list[str], rest: str, table: str | None) -> Message:
    return CloseTable(table=_need_table(table, "close [REASON]"), reason=rest.strip())


def _record(args: list[str], rest: str, table: str | None) -> Message:
    usage = "record [TABLE [START]]"
    if len(args) > 2:
        raise _usage(usage)
    start = _int(args[1], "START", usage) if len(args) == 2 else 0
    return GetRecord(table=args[0] if args else _need_table(table, "record"), start=start)


def _analyse(args: list[str], rest: str, table: str | None) -> Message:
    usage = "analyse [TABLE [GAME]]"
    if len(args) > 2:
        raise _usage(usage)
    game = _int(args[1], "GAME", usage) if len(args) == 2 else None
    return Analyse(table=args[0] if args else _need_table(table, "analyse"), game=game)


def _steps(args: list[str], rest: str, table: str | None) -> Message:
    usage = "steps TABLE GAME [START]"
    if not 2 <= len(args) <= 3:
        raise _usage(usage)
    game = _int(args[1], "GAME", usage)
    start = _int(args[2], "START", usage) if len(args) == 3 else 0
    return GetReplay(table=args[0], game=game, start=start)


def _review(args: list[str], rest: str, table: str | None) -> Message:
    usage = "review STEP"
    if len(args) != 1:
        raise _usage(usage)
    return Review(table=_need_table(table, usage), step=_int(args[0], "STEP", usage))


def _follow(args: list[str], rest: str, table: str | None) -> Message:
    if len(args) > 1:
        raise _usage("follow [NAME]")
    return Follow(table=_need_table(table, "follow [NAME]"), name=args[0] if args else None)


def _help(args: list[str], rest: str, table: str | None) -> Message:
    if len(args) > 1:
        raise _usage("help [COMMAND]")
    return Help(topic=args[0] if args else None)


def _rest_after(rest: str, count: int) -> str:
    """``rest`` without its first ``count`` words: the free text of a command."""
    parts = rest.strip().split(None, count)
    return parts[count].strip() if len(parts) > count else ""


_ADMIN_USAGE = (
    "admin auth SECRET | connections | tables | close TABLE [REASON]"
    " | closeall empty|any NAME|- [REASON] | kick NAME [REASON]"
    " | ban NAME [REASON] | notice TEXT | shutdown SECONDS [REASON] | stats"
)


def _admin(args: list[str], rest: str, table: str | None) -> Message:
    if not args:
        raise _usage(_ADMIN_USAGE)
    sub, more = args[0].lower(), args[1:]
    if sub == "auth" and len(more) == 1:
        return AdminAuth(secret=more[0])
    if sub == "connections" and not more:
        return AdminConnections()
    if sub == "tables" and not more:
        return AdminTables()
    if sub == "stats" and not more:
        return AdminStats()
    if sub == "close" and more:
        return AdminCloseTable(table=more[0], reason=_rest_after(rest, 2))
    if sub == "closeall" and len(more) >= 2 and more[0].lower() in ("empty", "any"):
        creator = None if more[1] == "-" else more[1]
        empty = more[0].lower() == "empty"
        return AdminCloseTables(empty=empty, creator=creator, reason=_rest_after(rest, 3))
    if sub == "kick" and more:
        return AdminKick(name=more[0], reason=_rest_after(rest, 2))
    if sub == "ban" and more:
        return AdminBan(name=more[0], reason=_rest_after(rest, 2))
    if sub == "notice" and more:
        return AdminNotice(text=_rest_after(rest, 1))
    if sub == "shutdown" and more:
        seconds = _int(more[0], "SECONDS", "admin shutdown SECONDS [REASON]")
        return AdminShutdown(seconds=seconds, reason=_rest_after(rest, 2))
    subs = ["auth", "connections", "tables", "close", "closeall", "kick", "ban", "notice",
            "shutdown", "stats"]  # fmt: skip
    hint = difflib.get_close_matches(sub, subs, n=1)
    did = f"; did you mean 'admin {hint[0]}'?" if hint and hint[0] != sub else ""
    raise CommandError(f"usage: {_ADMIN_USAGE}{did}")


# ------------------------------------------------------------- tournaments
_HOST_USAGE = (
    "host RULESET [format=swiss|arena] [rounds=N] [minutes=N] [seats=N] [wait=N]"
    " [strength=true] [apart=NAME+NAME,...] [final=N] [bots=N] [option=value ...]"
)


#: the settings ``host`` takes for the tournament itself (the rest are the tables' options)
HOST_SETTINGS = frozenset(
    {"rounds", "minutes", "seats", "wait", "format", "strength", "apart", "final", "bots"}
)


def _host(args: list[str], rest: str, table: str | None) -> Message:
    if not args:
        raise _usage(_HOST_USAGE)
    options = parse_options(args[1:], _HOST_USAGE)
    # the tournament's own settings; any other name=value is an option of every table
    table_options = {k: v for k, v in options.items() if k not in HOST_SETTINGS}
    options = {k: v for k, v in options.items() if k in HOST_SETTINGS}
    counts: dict[str, Any] = {"options": table_options} if table_options else {}
    if "format" in options:
        counts["format"] = str(options.pop("format"))
    if "strength" in options:
        strength = options.pop("strength")
        if not isinstance(strength, bool):
            raise CommandError(f"strength is true or false; usage: {_HOST_USAGE}")
        counts["by_strength"] = strength
    if "apart" in options:
        pairs = [p.split("+") for p in str(options.pop("apart")).split(",")]
        if any(len(p) != 2 or not all(p) for p in pairs):
            raise CommandError(f"apart is NAME+NAME pairs, by commas; usage: {_HOST_USAGE}")
        counts["apart"] = tuple(" ".join(p) for p in pairs)
    for key, value in options.items():
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise CommandError(f"{key} must be a whole number; usage: {_HOST_USAGE}")
        counts[key] = value
    return CreateTournament(ruleset=args[0], **counts)


#: what the host types after ``tournament N`` to run it, and the request each one makes
_HOST_VERBS: dict[
    str, type[StartTournament | EndTournament | PauseTournament | ResumeTournament]
] = {
    "start": StartTournament,
    "end": EndTournament,
    "pause": PauseTournament,
    "resume": ResumeTournament,
}


def _tournament(args: list[str], rest: str, table: str | None) -> Message:
    usage = "tournament [N] [start|pause|resume|end|record]"
    if args and args[-1].lower() == "record" and len(args) <= 2:
        number = _int(args[0], "N", usage) if len(args) == 2 else None
        return GetTournament(tournament=number, record=True)
    if len(args) == 2 and args[1].lower() in _HOST_VERBS:
        return _HOST_VERBS[args[1].lower()](tournament=_int(args[0], "N", usage))
    if len(args) > 1:
        raise _usage(usage)
    return GetTournament(tournament=_int(args[0], "N", usage) if args else None)


def _enter(args: list[str], rest: str, table: str | None) -> Message:
    if len(args) != 1:
        raise _usage("enter N")
    return EnterTournament(tournament=_int(args[0], "N", "enter N"))


def _withdraw(args: list[str], rest: str, table: str | None) -> Message:
    if len(args) > 1:
        raise _usage("withdraw [N]")
    return Withdraw(tournament=_int(args[0], "N", "withdraw [N]") if args else None)


def _drop(args: list[str], rest: str, table: str | None) -> Message:
    usage = "drop NAME [N]"
    if not 1 <= len(args) <= 2:
        raise _usage(usage)
    number = _int(args[1], "N", usage) if len(args) == 2 else None
    return Withdraw(tournament=number, name=args[0])


def _sitout(args: list[str], rest: str, table: str | None) -> Message:
    if len(args) > 1:
        raise _usage("sitout [N]")
    return SitOut(tournament=_int(args[0], "N", "sitout [N]") if args else None)


def _standings(args: list[str], rest: str, table: str | None) -> Message:
    if len(args) > 1:
        raise _usage("standings [N]")
    return GetTournament(tournament=_int(args[0], "N", "standings [N]") if args else None)


TOURNAMENT_COMMANDS: tuple[Command, ...] = (
    Command("tournaments", "tournaments", "list the tournaments", "lobby",
            _no_args(ListTournaments, "tournaments")),
    Command("tournament", "tournament [N] [start|pause|resume|end|record]", "a tournament's"
            " standings and round (no N: yours); its host starts it, pauses it (games finish"
            " their hand, then wait; the round's clock stops; no round starts) and resumes"
            " it, or ends it early; record: its whole record (the terminal client saves it as"
            " a file)", "lobby", _tournament),
    Command("host", _HOST_USAGE, "host a tournament: Swiss rounds (rounds 0: about log2 of"
            " the players plus one), or an arena of minutes", "lobby", _host),
    Command("enter", "enter N", "enter tournament N (or say you are back after a pause)",
            "lobby", _enter),
    Command("withdraw", "withdraw [N]", "leave your tournament for good; your points stay",
            "lobby", _withdraw),
    Command("drop", "drop NAME [N]", "the host drops a player from his tournament (N: which"
            " one; his points stay)", "lobby", _drop),
    Command("sitout", "sitout [N]", "sit out your tournament's next rounds until you enter"
            " it again", "lobby", _sitout),
    Command("standings", "standings [N]", "your tournament's standings (or tournament N's)",
            "lobby", _standings),
)  # fmt: skip


COMMANDS: tuple[Command, ...] = (
    Command("help", "help [COMMAND]", "list the commands, or explain one", "general", _help),
    Command(
        "hello",
        "hello [VERSION ...]",
        "start a text session (optional: the first command does it)",
        "general",
        _hello,
    ),
    Command("name", "name NAME [SECRET]", "claim a name; keep the secret (the terminal client"
            " keeps it for you; text mode: with no SECRET, a guest name whose secret the server"
            " makes and shows once)", "general", _name),
    Command("format", "format text|json", "text mode: server lines as sentences (text), or"
            " with every field as JSON, for programs (json)", "general", _format),
    Command("ping", "ping", "check the connection (answer: pong)", "general",
            _no_args(Ping, "ping")),
    Command("pong", "pong", "answer a ping", "general", _no_args(Pong, "pong")),
    Command("quit", "quit", "leave the server", "general", _no_args(Quit, "quit"), ("exit", "bye")),
    Command("rulesets", "rulesets", "list the games you can create", "lobby",
            _no_args(ListRulesets, "rulesets"), ("games",)),
    Command("tables", "tables [START [COUNT]]", "list a page of the tables, waiting ones first",
            "lobby", _tables),
    Command("create", "create RULESET SEATS [option=value ...]",
            "open a table (you are its game master)", "lobby", _create),
    Command("join", "join [TABLE [SEAT]]",
            "take a seat (seats count from 1; any free one if no SEAT; no TABLE: the current"
            " one)", "lobby", _join,
            ("sit",)),
    Command("watch", "watch TABLE [SEQ]", "watch a table (SEQ: the last event seen)", "lobby",
            _watch,
            ("spectate", "observe")),
    Command("who", "who", "who is online: where each sits or watches, playing or idle",
            "lobby", _no_args(Who, "who"), ("users", "online")),
    Command("shout", "shout TEXT", "talk to everyone online, not one table (shouts off: hear"
            " none)", "lobby", _shout),
    Command("shouts", "shouts on|off", "hear everyone's shouts (on, the default) or not",
            "lobby", _shouts),
    Command("resume", "resume [TABLE TOKEN [seq=N]]", "take back your seat after a reconnect"
            " (seq=N: the last event seen, none: all of them; with no arguments: resume a"
            " paused game)", "lobby", _resume),
    Command("back", "back [TABLE]", "sit again in the seat your name holds (after a lost"
            " connection or a server restart)", "lobby", _back),
    Command("leave", "leave", "leave the current table (in a running game a bot takes your"
            " seat)", "table",
            _table_only(lambda t: Leave(table=t), "leave")),
    Command("look", "look [TABLE]", "show the table again: the position, your hand, what"
            " you may do", "table", _look, ("hand", "board", "position", "l")),
    Command("say", "say TEXT", "talk at the table, everyone there reads it ('TEXT"
            " says it too)", "table", _say, ("talk",)),
    Command("act", "act ACTION", "take an action (or type it bare: play QH, move c4, draw)",
            "table", _act),
    Command(
        "record",
        "record [TABLE [START]]",
        "get a page of a table's game record, from entry START (the terminal client fetches"
        " every page and saves the record as a file)",
        "table",
        _record,
    ),
    Command("analyse", "analyse [TABLE [GAME]]", "the server's analysis of a finished game"
            " (the table's last by default): marks, better moves, each player's accuracy",
            "table", _analyse, ("analyze",)),
    Command("steps", "steps TABLE GAME [START]", "a finished game's replay worked out by the"
            " server: each step's board, hands and words, a page from step START", "table",
            _steps),
    Command("review", "review STEP", "lead the table's review of its finished game: you are"
            " at STEP (0: the deal); who follows you is sent each step", "table", _review),
    Command("follow", "follow [NAME]", "follow NAME's review of the finished game (no NAME:"
            " step away)", "table", _follow),
    Command("hint", "hint", "the search's advice for your move (in a game against bots only)",
            "table", _table_only(lambda t: Hint(table=t), "hint")),
    Command("chips", "chips [NAME]", "a chip balance and its recent entries", "lobby", _chips),
    Command("finger", "finger [NAME]", "a player's profile: ratings, games won, chips, last"
            " games", "lobby",
            _finger, ("profile",)),
    Command("history", "history [NAME] [START]", "a player's finished games, newest first",
            "lobby", _history),
    Command("top", "top FAMILY [N]", "the best rated players of a family (or a ruleset's);"
            " a game two or more people play is rated, its bots by strategy", "lobby", _top),
    Command("again", "again", "play the next game at a finished table (it starts once every"
            " seated player has asked)", "table",
            _table_only(lambda t: PlayAgain(table=t), "again"), ("rematch",)),
    Command("start", "start [free|bot]", "deal (game master; empty seats get bots)", "master",
            _start),
    Command("pause", "pause", "pause the game and its clock (game master)", "master",
            _table_only(lambda t: PauseGame(table=t), "pause")),
    Command("bot", "bot SEAT [STRATEGY]", "seat a server bot: random, heuristic or search"
            " (game master)", "master", _bot),
    Command("unseat", "unseat SEAT", "empty a seat (game master)", "master", _unseat),
    Command("set", "set option=value ...", "change table options (game master)", "master", _set),
    Command("prize", "prize CHIPS", "put up a prize from your chips (game master)", "master",
            _prize),
    Command("master", "master NAME", "hand the game master role on", "master", _master,
            ("handover",)),
    Command("end", "end", "end the game now (game master)", "master",
            _table_only(lambda t: EndGame(table=t), "end")),
    Command("close", "close [REASON]", "close the table for good, telling everyone why"
            " (game master)", "master", _close),
    Command("admin", "admin SUBCOMMAND ...", "operator commands (help admin lists them)", "admin",
            _admin),
    *TOURNAMENT_COMMANDS,
)  # fmt: skip


def _screen_only(name: str) -> Builder:
    def build(args: list[str], rest: str, table: str | None) -> Message:
        raise CommandError(f"{name} is a command of the terminal client (switchboard play)")

    return build


def _screen(name: str, usage: str, summary: str, group: str, *aliases: str) -> Command:
    return Command(name, usage, summary, group, _screen_only(name), aliases)


#: The terminal client's own commands: they change what its screen shows or run on the
#: player's machine, so no message stands for them and text mode does not take them.
#: Their help is written here, beside the wire commands', so that every command's help
#: is written once and the client reads all of it from this module.
SCREEN_COMMANDS: tuple[Command, ...] = (
    _screen("lobby", "lobby", "the lobby and its commands (you stay at your tables; table"
            " TABLE returns)", "table"),
    _screen("table", "table TABLE", "show a table you are at", "table"),
    _screen("filter", "filter [WORDS]", "show only the tables matching every word (no words:"
            " all)", "lobby"),
    _screen("ascii", "ascii", "switch between card symbols (Q♥) and plain ASCII (QH)",
            "general"),
    _screen("rules", "rules [GAME]", "the rules of the table's game and its options",
            "general"),
    _screen("bell", "bell [on|off]", "ring the terminal's bell when it becomes your turn (kept"
            " for next time)", "general"),
    _screen("hint", "hint", "the search's advice for your move (against bots only)", "table"),
    _screen("analyze", "analyze [TABLE]", "mark the mistakes in the finished game (in its"
            " log)", "table", "analyse"),
)  # fmt: skip

#: What each action verb means in each family, for ``help VERB`` (text mode and the
#: terminal client's help page): the line starts with the verb and its usage.
ACTION_HELP: dict[str, tuple[str, ...]] = {
    "abbott": (
        "move SQUARE   move your piece, e.g. move c4 (squares are labelled on the grid)",
        "ally SEAT     name a partner before moving, e.g. ally west",
        "concede       give up the hand (both of a side must concede)",
        "vote end      ask to end the hand now",
    ),
    "shedding": (
        "play CARD [CARD ...] [last]   e.g. play QH, play 7H 7D, play 5C last",
        "draw          draw from the stock, or take a pending pick-up",
        "pass          keep the card you drew",
        "suit SUIT     name the suit after a wild card, e.g. suit hearts",
        "last          announce your last card",
    ),
    "kilodney": (
        "play CARD     follow the suit or the face of the top card, or lead after a stop;"
        " a joker may be played at any time (it stops the sequence)",
    ),
}


def action_help(verb: str) -> list[str]:
    """Each family's line for the action ``verb``, the family first, spaces squeezed.

    >>> action_help("suit")
    ['shedding: suit SUIT name the suit after a wild card, e.g. suit hearts']
    """
    return [
        f"{family}: {' '.join(line.split())}"
        for family, lines in ACTION_HELP.items()
        for line in lines
        if line.split()[0] == verb.lower()
    ]


_BY_NAME: dict[str, Command] = {}
for _cmd in COMMANDS:
    for _word in (_cmd.name, *_cmd.aliases):
        _BY_NAME[_word] = _cmd
_SCREEN_BY_NAME = {word: c for c in SCREEN_COMMANDS for word in (c.name, *c.aliases)}


def command_named(word: str, *, screen: bool = False) -> Command | None:
    """The command ``word`` names (or is an alias of); with ``screen``, the terminal
    client's own commands too, before the wire's (its ``table`` shows a table).

    >>> command_named("sit").name, command_named("ascii"), command_named("ascii", screen=True).usage
    ('join', None, 'ascii')
    """
    word = word.lower()
    found = _SCREEN_BY_NAME.get(word) if screen else None
    return found or _BY_NAME.get(word)


def command_words() -> list[str]:
    """Every word a line may start with (for completion): commands, aliases, verbs."""
    return sorted({*_BY_NAME, *VERBS, "at"})


def _split_first(line: str) -> tuple[str, str]:
    parts = line.split(None, 1)
    return (parts[0], parts[1] if len(parts) > 1 else "") if parts else ("", "")


def parse_command(  # noqa: C901 (one case a way a person types a command)
    line: str, table: str | None = None, legal: Mapping[str, Sequence[str]] | None = None
) -> Message:
    """The message ``line`` stands for; ``table`` is the current table; ``legal`` the
    actions each table last listed as legal for us, which a short form resolves to
    (``as_listed``: a bare ``3d`` is ``play 3D last`` when that is what the list shows).

    Raises ``CommandError`` saying what was expected (with a suggestion for a
    misspelt command) or ``LocalProtocolError`` for a bad value."""
    request_id = None
    first, rest = _split_first(line)
    if first.startswith("#"):
        try:
            request_id = int(first[1:])
        except ValueError:
            raise CommandError(f"a request tag is #NUMBER, not {first!r}") from None
        first, rest = _split_first(rest)
    if first.lower() == "at":
        at_table, rest = _split_first(rest)
        if not at_table:
            raise CommandError("usage: at TABLE COMMAND ...")
        table = at_table
        first, rest = _split_first(rest)
    if "\x1b" in line:  # an arrow, Home or End pressed at nc arrives as characters
        raise CommandError(
            "that line holds a terminal key (an arrow, Home, End ...), which nc sends as"
            " characters: type the command again without it"
        )
    if first.startswith("'"):  # FICS's habit: a leading quote talks at the table
        first, rest = "say", f"{first[1:]} {rest}"
    if not first:
        raise CommandError("empty command; type 'help' for the commands")
    word = first.lower()
    if word in SHORT_VERBS:  # p 8h, m c4
        if not rest.strip():
            verb = SHORT_VERBS[word]
            raise CommandError(f"{word} is short for {verb}: {word} {_SHORT_EXAMPLE[verb]}")
        first = word = SHORT_VERBS[word]
        short = bare_action(rest) if word == "play" else None
        if short is not None and short.startswith("play "):
            first, rest = _split_first(as_listed(short, (legal or {}).get(table or "", ())))
    elif word not in _BY_NAME and (bare := bare_action(_line_tail(first, rest))) is not None:
        # a card typed alone plays it (as the legal list spells it); a square moves there
        first, rest = _split_first(as_listed(bare, (legal or {}).get(table or "", ())))
        word = first
    if word in VERBS or word in VERB_ALIASES:
        try:
            message = _act([], _line_tail(first, rest), table)
        except LocalProtocolError as exc:
            raise CommandError(_FIELD_PREFIX.sub("", str(exc)), exc.code) from None
    else:
        command = _BY_NAME.get(word)
        if command is None:
            raise CommandError(_unknown(first))
        try:
            message = command.build(rest.split(), rest, table)
        except LocalProtocolError as exc:
            # A bad value (a name with '=', a seat of 99): say it without the field path.
            raise CommandError(_FIELD_PREFIX.sub("", str(exc)), exc.code) from None
    if request_id is not None:
        message = with_id(message, request_id)
    return message


#: One-letter forms of the verbs typed most, used only with something after them
#: (``p 8h`` plays; ``p`` alone stays unknown, as ``pass`` and ``pause`` begin with it too).
SHORT_VERBS: dict[str, str] = {"p": "play", "m": "move"}
_SHORT_EXAMPLE = {
    "play": "CARD ... (e.g. p 8h), or type the card alone",
    "move": "SQUARE (e.g. m c4)",
}
_SQUARE = re.compile(r"[a-f][1-6]", re.IGNORECASE)


def bare_action(line: str) -> str | None:
    """The action a line of bare cards or a bare square stands for, or None.

    A person at a table types the card he means: ``8h`` is ``play 8H``, ``7h 7d
    last`` is ``play 7H 7D last``, ``c4`` (abbott's squares) is ``move c4``. The
    server then says whether it is legal, and why not.

    >>> bare_action("8h"), bare_action("7h 7d last"), bare_action("C4"), bare_action("who")
    ('play 8H', 'play 7H 7D last', 'move c4', None)
    """
    words = line.split()
    if not words:
        return None
    if len(words) == 1 and _SQUARE.fullmatch(words[0]):
        return f"move {words[0].lower()}"
    cards = words[:-1] if len(words) > 1 and words[-1].lower() == "last" else words
    try:
        parsed = parse_cards(cards)
    except ValueError:
        return None
    tail = " last" if len(cards) < len(words) else ""
    return "play " + " ".join(map(str, parsed)) + tail


def as_listed(action: str, legal: Sequence[str]) -> str:
    """``action`` (a short form spelt out) as the legal list spells it: when the list
    does not hold it but holds exactly one action that is it with more words after it,
    that one. A person who types the card he means plays it the way it is offered: the
    play that empties his hand to one card comes with its call.

    >>> as_listed("play 3D", ["play 3D last", "draw"])
    'play 3D last'
    >>> as_listed("play 3D", ["play 3D", "play 3D last"]), as_listed("play 3D", [])
    ('play 3D', 'play 3D')
    >>> as_listed("play 8H", ["play 8H hearts", "play 8H spades"])  # which one: say it
    'play 8H'
    >>> as_listed("play 3D", ["play 3D 3C last"])  # other cards: not this play
    'play 3D'
    """
    if action in legal:
        return action
    longer = [
        listed
        for listed in legal
        if listed.startswith(action + " ") and not _is_card(listed[len(action) + 1 :].split()[0])
    ]  # the same cards, then a call: not more cards
    return longer[0] if len(longer) == 1 else action


def _is_card(word: str) -> bool:
    try:
        parse_cards([word])
    except ValueError:
        return False
    return True


def _line_tail(first: str, rest: str) -> str:
    return f"{first} {rest}".strip()


#: What a word from other game servers (FICS, IRC) means here: an unknown command
#: suggests these before a spelling's nearest neighbour.
HABITS: dict[str, str] = {
    "tell": "say", "whisper": "say", "msg": "say", "kibitz": "say",
    "list": "tables", "ls": "tables", "players": "who",
    "seek": "create", "match": "create", "new": "create", "deal": "start",
    "moves": "look", "refresh": "look", "status": "look", "show": "look",
    "resign": "concede", "unobserve": "leave", "part": "leave", "commands": "help",
}  # fmt: skip


def _unknown(word: str) -> str:
    low = word.lower()
    if low in HABITS:
        said = HABITS[low]
        public = " (all talk is public)" if said == "say" else ""
        return f"unknown command {word!r}; here it is {said!r}{public}"
    match = difflib.get_close_matches(low, command_words(), n=1, cutoff=0.6)
    hint = f"; did you mean {match[0]!r}?" if match else "; type 'help' for the commands"
    return f"unknown command {word!r}{hint}"


def with_id(message: Message, request_id: int | None) -> Message:
    """The same message with another request id (messages are frozen)."""
    fields = {name: getattr(message, name) for name, _r, _d in message._wire}
    fields["id"] = request_id
    return type(message)(**fields)


# ---------------------------------------------------------------- formatting
def _fmt_admin(message: Message) -> str:
    if isinstance(message, AdminAuth):
        return f"admin auth {message.secret}"
    simple = {AdminConnections: "connections", AdminTables: "tables", AdminStats: "stats"}
    if type(message) in simple:
        return "admin " + simple[type(message)]
    if isinstance(message, AdminCloseTable):
        return _join_words("admin close", message.table, message.reason)
    if isinstance(message, AdminCloseTables):
        which = "empty" if message.empty else "any"
        return _join_words("admin closeall", which, message.creator or "-", message.reason)
    if isinstance(message, AdminKick):
        return _join_words("admin kick", message.name, message.reason)
    if isinstance(message, AdminBan):
        return _join_words("admin ban", message.name, message.reason)
    if isinstance(message, AdminNotice):
        return _join_words("admin notice", message.text)
    if isinstance(message, AdminShutdown):
        return _join_words("admin shutdown", str(message.seconds), message.reason)
    raise LocalProtocolError(f"{message!r} has no command form")


def _join_words(*parts: str) -> str:
    return " ".join(p for p in parts if p)


_TABLE_FORMS: dict[type[Message], Callable[[Any], str]] = {
    Leave: lambda m: "leave",
    Look: lambda m: "look",
    Say: lambda m: f"say {m.text}",
    Act: lambda m: m.action,
    StartGame: lambda m: _join_words("start", m.absent or ""),
    PlayAgain: lambda m: "again",
    PauseGame: lambda m: "pause",
    ResumeGame: lambda m: "resume",
    SeatBot: lambda m: _join_words("bot", str(seat_number(m.seat)), m.strategy or ""),
    Unseat: lambda m: f"unseat {seat_number(m.seat)}",
    SetOptions: lambda m: " ".join(["set", *format_options(m.options)]),
    SetPrize: lambda m: f"prize {m.chips}",
    HandOver: lambda m: f"master {m.name}",
    EndGame: lambda m: "end",
    CloseTable: lambda m: _join_words("close", m.reason),
    Review: lambda m: f"review {m.step}",
    Follow: lambda m: _join_words("follow", m.name or ""),
    Hint: lambda m: "hint",
}

_LOBBY_FORMS: dict[type[Message], Callable[[Any], str]] = {
    Hello: lambda m: " ".join(["hello", *map(str, m.versions)]),
    ClaimName: lambda m: f"name {m.name} {m.secret}",
    Ping: lambda m: "ping",
    Pong: lambda m: "pong",
    Quit: lambda m: "quit",
    ListRulesets: lambda m: "rulesets",
    ListTables: _format_tables,
    Who: lambda m: "who",
    Shout: lambda m: f"shout {m.text}",
    HearShouts: lambda m: "shouts on" if m.on else "shouts off",
    CreateTable: lambda m: " ".join(
        ["create", m.ruleset, str(m.seats), *format_options(m.options)]
    ),
    Join: lambda m: _join_words(
        "join", m.table, "" if m.seat is None else str(seat_number(m.seat))
    ),
    Spectate: lambda m: _join_words(
        "watch", m.table, "" if m.last_seq is None else str(m.last_seq)
    ),
    Resume: lambda m: f"resume {m.table} {m.token}" + (f" seq={m.last_seq}" if m.last_seq else ""),
    GetChips: lambda m: _join_words("chips", m.name or ""),
    GetProfile: lambda m: _join_words("finger", m.name or ""),
    GetHistory: _format_history,
    GetTop: lambda m: _join_words("top", m.family, "" if m.count is None else str(m.count)),
    GetRecord: lambda m: f"record {m.table}" + (f" {m.start}" if m.start else ""),
    Analyse: lambda m: f"analyse {m.table}" + ("" if m.game is None else f" {m.game}"),
    GetReplay: lambda m: f"steps {m.table} {m.game}" + (f" {m.start}" if m.start else ""),
    Help: lambda m: _join_words("help", m.topic or ""),
    ListTournaments: lambda m: "tournaments",
    GetTournament: lambda m: _join_words(
        "tournament", _opt(m.tournament), "record" if m.record else ""
    ),
    CreateTournament: lambda m: _join_words(
        "host", m.ruleset, f"format={m.format}", f"rounds={m.rounds}", f"minutes={m.minutes}",
        "" if m.seats is None else f"seats={m.seats}", f"wait={m.wait}",
        "strength=true" if m.by_strength else "",
        "apart=" + ",".join(p.replace(" ", "+") for p in m.apart) if m.apart else "",
        f"final={m.final}" if m.final else "",
        "" if m.bots == 1 else f"bots={m.bots}",
        *format_options(m.options),
    ),
    EnterTournament: lambda m: f"enter {m.tournament}",
    Withdraw: lambda m: (
        _join_words("drop", m.name, _opt(m.tournament))
        if m.name is not None
        else _join_words("withdraw", _opt(m.tournament))
    ),
    StartTournament: lambda m: f"tournament {m.tournament} start",
    EndTournament: lambda m: f"tournament {m.tournament} end",
    PauseTournament: lambda m: f"tournament {m.tournament} pause",
    ResumeTournament: lambda m: f"tournament {m.tournament} resume",
    SitOut: lambda m: _join_words("sitout", _opt(m.tournament)),
}  # fmt: skip


def _opt(number: int | None) -> str:
    return "" if number is None else str(number)


def format_command(message: Message, table: str | None = None) -> str:
    """The command line that parses back to ``message`` given current ``table``.

    (``hello`` lines carry no client name: text mode's hello is ``client="text"``.)
    """
    form = _TABLE_FORMS.get(type(message))
    if form is not None:
        text = form(message)
        at = getattr(message, "table", None)  # (every table form's message has one)
        if at != table:
            text = f"at {at} {text}"
    elif type(message) in _LOBBY_FORMS:
        text = _LOBBY_FORMS[type(message)](message)
    elif type(message).__name__.startswith("Admin"):
        text = _fmt_admin(message)
    else:
        raise LocalProtocolError(f"{type(message).__name__} is not a client command")
    rid = getattr(message, "id", None)
    return text if rid is None else f"#{rid} {text}"


# -------------------------------------------------------------------- help
_GROUPS = (
    ("general", "General"),
    ("lobby", "Lobby"),
    ("table", "At a table"),
    ("master", "Game master"),
    ("admin", "Operators"),
)


def typed_word(message: Message) -> str:
    """The command a person types for ``message`` (``create`` for ``create_table``), so an
    error names what he typed, not the wire's name for it.

    >>> typed_word(CreateTable(ruleset="switch", seats=2))
    'create'
    """
    try:
        words = format_command(message, table="-").split()
    except (KeyError, ValueError, TypeError, AttributeError, LocalProtocolError):
        return message.type
    if words[:1] and words[0].startswith("#"):  # a request tag
        words = words[1:]
    if words[:1] == ["at"] and len(words) > 2:
        words = words[2:]
    return words[0] if words else message.type


@dataclass(frozen=True, slots=True)
class Situation:
    """Where a person stands, so that ``help`` says what he can do now: whether he has a
    name, his current table (``None``: the lobby), his seat there (``None``: watching),
    the table's state, whether he is its game master, and his legal actions."""

    named: bool = False
    table: str | None = None
    seat: int | None = None
    state: str | None = None
    master: bool = False
    legal: tuple[str, ...] = ()


#: Text mode's ``rules`` (answered by the connection: ``protocol.text_rules``), as help
#: lists it.
RULES_HELP = (
    "rules [GAME] - a game's rules: abbott, shedding, kilodney or a ruleset such as switch"
    " (no GAME: your table's)"
)

#: How many legal actions ``help`` lists before it says how many more there are.
HELP_LEGAL = 12


def situation_lines(now: Situation) -> list[str]:
    """What ``now`` allows, a line a thing, the command first: help for a person who has
    read no docs. ``help all`` lists every command.

    >>> situation_lines(Situation(named=True))[1:3]
    ['  tables - the tables; join N sits you at one, watch N watches it', \
'  create RULESET SEATS - open a table and sit at it (rulesets lists the games)']
    """
    out = ["what you can do now (help all: every command; help COMMAND: one):"]
    if not now.named:
        out.append("  name YOURNAME - choose a name; you need one to play, talk or shout")
    if now.table is None:
        out += [
            "  tables - the tables; join N sits you at one, watch N watches it",
            "  create RULESET SEATS - open a table and sit at it (rulesets lists the games)",
            "  who - who is online and where; finger NAME - a player's ratings and games",
            "  top FAMILY - the best rated (a game two or more people play is rated, its"
            " bots by strategy)",
            "  shout TEXT - talk to everyone online (shouts off: hear none)",
        ]
        return out
    t = now.table
    if now.seat is None:
        out.append(f"  you are watching table {t}: join {t} sits you in a free seat")
    else:
        out.append(f"  you sit in {seat_words(now.seat)} at table {t}")
    running = now.state in ("playing", "paused")
    if now.legal:
        shown = ", ".join(now.legal[:HELP_LEGAL])
        more = len(now.legal) - HELP_LEGAL
        out.append(f"  your turn: {shown}" + (f" (and {more} more)" if more > 0 else ""))
        out.append("  type a card to play it (8h), p CARDS to play several, or the action (draw)")
    elif now.seat is not None and now.state == "playing":
        out.append("  not your turn: the table's lines say when it is")
    elif now.state == "paused":
        out.append("  the game is paused" + ("; resume plays on" if now.master else ""))
    if now.master and not running:
        out.append("  start - deal (bots take the empty seats); bot SEAT - seat a bot there")
    elif not now.master and now.seat is not None and not running:
        out.append("  the game master deals with start; wait, or talk meanwhile")
    out += [
        "  look - the table again: the position, your hand, what you may do",
        "  say TEXT (or 'TEXT) - talk at the table; who - who is online",
        "  leave - " + ("stop watching" if now.seat is None else "give up your seat"),
    ]
    if now.master:
        out.append("  game master: pause, end, set, prize, master NAME, close (help master)")
    return out


def help_lines(topic: str | None = None, now: Situation | None = None) -> list[str]:
    """The help text, one line per element: every command, or one command; with ``now``
    and no topic, what can be done now (``situation_lines``).

    >>> help_lines("jion")
    ["unknown command 'jion'; did you mean 'join'?"]
    """
    if topic and topic.lower() == "all":
        topic = None
    elif not topic and now is not None:
        return situation_lines(now)
    if topic and topic.lower() == "master":
        return [f"{c.usage}: {c.summary}" for c in COMMANDS if c.group == "master"]
    if topic:
        word = topic.lower()
        if word in VERBS or word == "actions":
            lines = ["actions (type them bare at your table): " + expected_verbs()]
            return lines + ["  " + line for line in action_help(word)]
        command = _BY_NAME.get(word)
        if command is None and word == "rules":
            return [RULES_HELP.replace(" - ", ": ", 1)]
        if command is None:
            return [_unknown(topic)]
        lines = [f"{command.usage}: {command.summary}"]
        if command.name == "admin":
            lines += ["  admin " + u.strip() for u in _ADMIN_USAGE[6:].split("|")]
        if command.aliases:
            lines.append("also: " + ", ".join(command.aliases))
        return lines
    lines = ["commands (help COMMAND for one; '#N' before a command tags its reply):"]
    for group, title in _GROUPS:
        lines.append(f"{title}:")
        lines += [f"  {c.usage} - {c.summary}" for c in COMMANDS if c.group == group]
    lines.append(f"  {RULES_HELP} (text mode; the terminal client: F2)")
    lines.append("Actions (at your table): " + expected_verbs())
    lines.append("Any table command may start with 'at TABLE' to use another table.")
    return lines
