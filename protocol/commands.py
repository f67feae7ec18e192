"""The command language: one line a person types, one message it stands for.

The terminal client's command line and the text protocol share this parser,
so ``join t1`` means the same at a prompt and over ``nc``. ``parse_command``
returns a message (``protocol.messages``); commands that act at a table use
``table``, the caller's current table, unless the line names one with
``at TABLE``. ``format_command`` is the inverse: the line that parses back
to a given client message.

>>> parse_command("join t1 2")
Join(table='t1', seat=2, id=None)
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
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.actions import VERB_ALIASES, VERBS, expected_verbs
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
    ClaimName,
    CloseTable,
    CreateTable,
    EndGame,
    GetChips,
    GetHistory,
    GetProfile,
    GetRecord,
    GetTop,
    HandOver,
    Hello,
    Help,
    Join,
    Leave,
    ListRulesets,
    ListTables,
    Message,
    PauseGame,
    Ping,
    Pong,
    Quit,
    Resume,
    ResumeGame,
    Say,
    SeatBot,
    SetOptions,
    SetPrize,
    Spectate,
    StartGame,
    Unseat,
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
    plain = isinstance(value, str) and value and not any(c.isspace() for c in value)
    if plain and value.lower() not in _BOOLS and parse_value(value) == value:
        return value
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
    seat = _int(args[1], "SEAT", usage) if len(args) == 2 else None
    return Join(table=args[0], seat=seat)


def _watch(args: list[str], rest: str, table: str | None) -> Message:
    usage = "watch TABLE [SEQ]"
    if not 1 <= len(args) <= 2:
        raise _usage(usage)
    last_seq = _int(args[1], "SEQ", usage) if len(args) == 2 else None
    return Spectate(table=args[0], last_seq=last_seq)


def _resume(args: list[str], rest: str, table: str | None) -> Message:
    usage = "resume TABLE TOKEN SEQ (take back a seat), or resume (the game, master only)"
    if not args:
        return ResumeGame(table=_need_table(table, "resume"))
    if len(args) != 3:
        raise _usage(usage)
    return Resume(table=args[0], token=args[1], last_seq=_int(args[2], "SEQ", usage))


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
        seat=_int(args[0], "SEAT", usage),
        strategy=args[1] if len(args) == 2 else None,
    )


def _unseat(args: list[str], rest: str, table: str | None) -> Message:
    if len(args) != 1:
        raise _usage("unseat SEAT")
    return Unseat(table=_need_table(table, "unseat SEAT"), seat=_int(args[0], "SEAT", "unseat"))


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


COMMANDS: tuple[Command, ...] = (
    Command("help", "help [COMMAND]", "list the commands, or explain one", "general", _help),
    Command(
        "hello",
        "hello [VERSION ...]",
        "start a text session (optional: the first command does it)",
        "general",
        _hello,
    ),
    Command("name", "name NAME [SECRET]", "claim a name; keep the secret (text mode: with"
            " no SECRET, a guest name whose secret the server makes and shows once)", "general",
            _name),
    Command("format", "format text|json", "text mode: server lines as sentences (text), or"
            " with every field as JSON, for programs (json)", "general", _format),
    Command("ping", "ping", "check the connection (answer: pong)", "general",
            _no_args(Ping, "ping")),
    Command("pong", "pong", "answer a ping", "general", _no_args(Pong, "pong")),
    Command("quit", "quit", "leave the server", "general", _no_args(Quit, "quit"), ("exit", "bye")),
    Command("rulesets", "rulesets", "list the games you can create", "lobby",
            _no_args(ListRulesets, "rulesets"), ("games",)),
    Command("tables", "tables", "list the tables", "lobby", _no_args(ListTables, "tables")),
    Command("create", "create RULESET SEATS [option=value ...]",
            "open a table (you are its game master)", "lobby", _create),
    Command("join", "join [TABLE [SEAT]]",
            "take a seat (any free one if no SEAT; no TABLE: the current one)", "lobby", _join,
            ("sit",)),
    Command("watch", "watch TABLE [SEQ]", "watch a table (SEQ: the last event seen)", "lobby",
            _watch,
            ("spectate",)),
    Command("resume", "resume TABLE TOKEN SEQ", "take back your seat after a reconnect"
            " (with no arguments: resume a paused game)", "lobby", _resume),
    Command("leave", "leave", "leave the current table", "table",
            _table_only(lambda t: Leave(table=t), "leave")),
    Command("say", "say TEXT", "talk at the table (everyone there reads it)", "table", _say,
            ("talk",)),
    Command("act", "act ACTION", "take an action (or type it bare: play QH, move c4, draw)",
            "table", _act),
    Command(
        "record",
        "record [TABLE [START]]",
        "get a page of a table's game record, from entry START",
        "table",
        _record,
    ),
    Command("chips", "chips [NAME]", "a chip balance and its recent entries", "lobby", _chips),
    Command("finger", "finger [NAME]", "a player's profile: ratings, games won, chips", "lobby",
            _finger, ("profile",)),
    Command("history", "history [NAME] [START]", "a player's finished games, newest first",
            "lobby", _history),
    Command("top", "top FAMILY [N]", "the best rated players of a family (or a ruleset's)",
            "lobby", _top),
    Command("start", "start", "deal (game master; empty seats get bots)", "master",
            _table_only(lambda t: StartGame(table=t), "start")),
    Command("pause", "pause", "pause the game and its clock (game master)", "master",
            _table_only(lambda t: PauseGame(table=t), "pause")),
    Command("bot", "bot SEAT [STRATEGY]", "seat a server bot (game master)", "master", _bot),
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
)  # fmt: skip

_BY_NAME: dict[str, Command] = {}
for _cmd in COMMANDS:
    for _word in (_cmd.name, *_cmd.aliases):
        _BY_NAME[_word] = _cmd


def command_words() -> list[str]:
    """Every word a line may start with (for completion): commands, aliases, verbs."""
    return sorted({*_BY_NAME, *VERBS, "at"})


def _split_first(line: str) -> tuple[str, str]:
    parts = line.split(None, 1)
    return (parts[0], parts[1] if len(parts) > 1 else "") if parts else ("", "")


def parse_command(line: str, table: str | None = None) -> Message:
    """The message ``line`` stands for; ``table`` is the current table.

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
    if not first:
        raise CommandError("empty command; type 'help' for the commands")
    word = first.lower()
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


def _line_tail(first: str, rest: str) -> str:
    return f"{first} {rest}".strip()


def _unknown(word: str) -> str:
    match = difflib.get_close_matches(word.lower(), command_words(), n=1, cutoff=0.6)
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
    Say: lambda m: f"say {m.text}",
    Act: lambda m: m.action,
    StartGame: lambda m: "start",
    PauseGame: lambda m: "pause",
    ResumeGame: lambda m: "resume",
    SeatBot: lambda m: _join_words("bot", str(m.seat), m.strategy or ""),
    Unseat: lambda m: f"unseat {m.seat}",
    SetOptions: lambda m: " ".join(["set", *format_options(m.options)]),
    SetPrize: lambda m: f"prize {m.chips}",
    HandOver: lambda m: f"master {m.name}",
    EndGame: lambda m: "end",
    CloseTable: lambda m: _join_words("close", m.reason),
}

_LOBBY_FORMS: dict[type[Message], Callable[[Any], str]] = {
    Hello: lambda m: " ".join(["hello", *map(str, m.versions)]),
    ClaimName: lambda m: f"name {m.name} {m.secret}",
    Ping: lambda m: "ping",
    Pong: lambda m: "pong",
    Quit: lambda m: "quit",
    ListRulesets: lambda m: "rulesets",
    ListTables: lambda m: "tables",
    CreateTable: lambda m: " ".join(
        ["create", m.ruleset, str(m.seats), *format_options(m.options)]
    ),
    Join: lambda m: _join_words("join", m.table, "" if m.seat is None else str(m.seat)),
    Spectate: lambda m: _join_words(
        "watch", m.table, "" if m.last_seq is None else str(m.last_seq)
    ),
    Resume: lambda m: f"resume {m.table} {m.token} {m.last_seq}",
    GetChips: lambda m: _join_words("chips", m.name or ""),
    GetProfile: lambda m: _join_words("finger", m.name or ""),
    GetHistory: _format_history,
    GetTop: lambda m: _join_words("top", m.family, "" if m.count is None else str(m.count)),
    GetRecord: lambda m: f"record {m.table}" + (f" {m.start}" if m.start else ""),
    Help: lambda m: _join_words("help", m.topic or ""),
}


def format_command(message: Message, table: str | None = None) -> str:
    """The command line that parses back to ``message`` given current ``table``.

    (``hello`` lines carry no client name: text mode's hello is ``client="text"``.)
    """
    form = _TABLE_FORMS.get(type(message))
    if form is not None:
        text = form(message)
        if message.table != table:
            text = f"at {message.table} {text}"
    elif type(message) in _LOBBY_FORMS:
        text = _LOBBY_FORMS[type(message)](message)
    elif type(message).__name__.startswith("Admin"):
        text = _fmt_admin(message)
    else:
        raise LocalProtocolError(f"{type(message).__name__} is not a client command")
    return text if message.id is None else f"#{message.id} {text}"


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


def help_lines(topic: str | None = None) -> list[str]:
    """The help text, one line per element: every command, or one command.

    >>> help_lines("jion")
    ["unknown command 'jion'; did you mean 'join'?"]
    """
    if topic:
        word = topic.lower()
        if word in VERBS or word == "actions":
            return ["actions (type them bare at your table): " + expected_verbs()]
        command = _BY_NAME.get(word)
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
    lines.append("Actions (at your table): " + expected_verbs())
    lines.append("Any table command may start with 'at TABLE' to use another table.")
    return lines
