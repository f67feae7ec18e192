"""The text codec: one command a line in, one message a line out. No I/O.

A connection whose first byte is a letter speaks text (``protocol.sniff``):
a person at ``nc`` or a shell script types commands (``protocol.commands``)
and reads lines whose first word is stable, so ``read word rest`` is enough
to dispatch on them. The server writes them in one of two formats, chosen
per connection by the command ``format text|json``:

- ``text`` (the default): the word, the table if the line is about one, then
  sentences a person reads (``protocol.readable``)::

    turn 1 · your turn · top K♣ · your hand 7♣ A♦ · you may: play 7C, play AD, draw

- ``json``: every field, for programs (``format_lines`` / ``parse_line``)::

    welcome 1 switchboard Switchboard 0.1
    ok #4 table=t1 created
    error unknown_command unknown command 'jion'; did you mean 'join'?
    seated t1 2 9f2c...e1
    view t1 0 2 waiting {"view":{},"legal":[],"players":["ann",null],...}
    event t1 7 play {"seat":2,"cards":["QH"]} text: ann plays Q♥
    turn t1 7 2 2 clock=60 {"to_act":2,...} words: {"choices":[...]} legal: play QH | draw
    turn t1 7 - 2 clock=60 {"to_act":2,...} legal:
    talk t1 ann: good luck

The server side uses ``ServerTextCodec`` (commands in, server lines out; it
sends the implicit ``hello``, remembers the current table, and answers
``format`` and a guest's ``name NAME``). Programs that read a server's JSON
lines use ``ClientTextCodec`` (server lines in, command lines out).
``format_line`` / ``parse_line`` convert one server message.

>>> codec = ServerTextCodec()
>>> codec.receive_data(b"name ann s3cret\\n")
>>> codec.next_message(), codec.next_message(), codec.next_message()
(Hello(versions=(1,), protocol='switchboard', client='text', id=None), \
ClaimName(name='ann', secret='s3cret', id=None), None)
>>> codec.encode(Turn(table="t1", seq=7, seat=2, to_act=2, legal=("play QH", "draw")))
b'turn t1 \\xc2\\xb7 your turn \\xc2\\xb7 you may: play QH, draw\\n'
>>> codec.receive_data(b"format json\\n")
>>> codec.encode(codec.set_format(codec.next_message()))
b'ok server lines are JSON, for programs now\\n'
>>> codec.encode(Turn(table="t1", seq=7, seat=2, to_act=2, legal=("play QH", "draw")))
b'turn t1 7 2 2 legal: play QH | draw\\n'
>>> parse_line("turn t1 7 2 2 legal: play QH | draw")
Turn(table='t1', seq=7, seat=2, to_act=2, legal=('play QH', 'draw'), clock=None, view=None, \
must=None, choices=(), waiting=None, pending_text=None, clock_warning=None, id=None)
>>> format_line(Turn(table="t1", seq=8, seat=None, to_act=0, view={"to_act": 0}))
'turn t1 8 - 0 {"to_act":0} legal:'
>>> parse_line('turn t1 8 - 0 {"to_act":0} legal:').view
{'to_act': 0}

Line grammar of the JSON format's server lines: ``WORD [#ID] POSITIONAL... [KEY=VALUE...]
[TAIL]``, single spaces between items; ``-`` is ``None`` (or an empty
list); the tail is free text, JSON, or ``legal: A | B`` (in a ``turn``, after
the receiver's view as a JSON object when the server sends it, and ``words:`` and a JSON
object of the turn's words, ``must``, ``choices``, ``waiting``, ``pending_text`` and
``clock_warning``, those it has). An event's line ends
with ``text:`` and its sentence when the server sends one. ``help_text`` with
several lines goes out as one ``help`` line each.
"""

from __future__ import annotations

import json
import re
import secrets
import textwrap
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from protocol.cards import tens_for_reading
from protocol.commands import CommandError, format_command, parse_command
from protocol.errors import LocalProtocolError
from protocol.framing import Splitter
from protocol.limits import DEFAULT_LIMITS, Limits
from protocol.messages import (
    Analysis,
    AnalysisProgress,
    Chips,
    ClaimName,
    Connections,
    Error,
    Goodbye,
    Hello,
    HelpText,
    Hinted,
    History,
    InvalidMessage,
    Join,
    Message,
    Named,
    Notice,
    Ok,
    People,
    Ping,
    Pong,
    Presence,
    Profile,
    Rated,
    Received,
    Record,
    Replay,
    Resume,
    Reviewing,
    Rulesets,
    Seated,
    Shouted,
    Snapshot,
    Spectate,
    Stats,
    TableEvent,
    Tables,
    Talk,
    Top,
    Tournament,
    Tournaments,
    Turn,
    UnknownMessage,
    Watcher,
    Welcome,
    YourTable,
)
from protocol.msgpack_codec import depth_ok
from protocol.readable import Readable
from protocol.text_rules import TextRules, rules_reply

#: The formats of a text connection's server lines: sentences for people, JSON for programs.
FORMATS = ("text", "json")

# ---------------------------------------------------------------- token kinds
# Each kind: (to token, from token). ``from`` may raise ValueError.


def _num_from(tok: str) -> Any:
    if tok == "-":
        return None
    return float(tok) if any(c in tok for c in ".eEn") else int(tok)


def _opt(
    to: Callable[[Any], str], frm: Callable[[str], Any]
) -> tuple[Callable[[Any], str], Callable[[str], Any]]:
    return (lambda v: "-" if v is None else to(v)), (lambda t: None if t == "-" else frm(t))


_KINDS: dict[str, tuple[Callable[[Any], str], Callable[[str], Any]]] = {
    "word": (str, str),
    "int": (str, int),
    "optword": _opt(str, str),
    "optint": _opt(str, int),
    "num": (lambda v: "-" if v is None else repr(v), _num_from),
    "versions": (
        lambda v: ",".join(map(str, v)) if v else "-",
        lambda t: () if t == "-" else tuple(int(x) for x in t.split(",")),
    ),
    "full": (lambda v: "full" if v else "public", lambda t: {"full": True, "public": False}[t]),
    "bool": (lambda v: "true" if v else "false", lambda t: {"true": True, "false": False}[t]),
}


@dataclass(frozen=True, slots=True)
class LineSpec:
    """How one server message is written as a line."""

    word: str
    cls: type[Message]
    positional: tuple[tuple[str, str], ...] = ()
    keyed: tuple[tuple[str, str], ...] = ()
    #: "", "text:FIELD", "json:FIELD", "said:FIELD" (JSON, then `` text: `` and the
    #: message's ``text``, if any), "rest", "event", "legal", "talk", "lines"
    tail: str = ""


SPECS: tuple[LineSpec, ...] = (
    LineSpec("welcome", Welcome, (("version", "int"), ("protocol", "word")), (), "text:server"),
    LineSpec("named", Named, (("name", "word"),)),
    LineSpec("ok", Ok, (), (("table", "optword"),), "text:text"),
    LineSpec(
        "error",
        Error,
        (("code", "word"),),
        (("table", "optword"), ("supported", "versions")),
        "text:text",
    ),
    LineSpec("goodbye", Goodbye, (("code", "word"),), (), "text:text"),
    LineSpec("ping", Ping),
    LineSpec("pong", Pong),
    LineSpec("seated", Seated, (("table", "word"), ("seat", "int"), ("token", "word"))),
    LineSpec("rulesets", Rulesets, (), (), "json:rulesets"),
    LineSpec(
        "tables",
        Tables,
        (),
        (("start", "int"), ("next", "optint"), ("total", "int")),
        "json:tables",
    ),
    LineSpec(
        "view",
        Snapshot,
        (("table", "word"), ("seq", "int"), ("seat", "optint"), ("state", "word")),
        (),
        "rest",
    ),
    LineSpec("event", TableEvent, (("table", "word"), ("seq", "int")), (), "event"),
    LineSpec(
        "turn",
        Turn,
        (("table", "word"), ("seq", "int"), ("seat", "optint"), ("to_act", "optint")),
        (("clock", "num"),),
        "legal",
    ),
    LineSpec("talk", Talk, (("table", "word"),), (), "talk"),
    LineSpec(
        "presence",
        Presence,
        (("table", "word"), ("seat", "int"), ("name", "word"), ("what", "word")),
        (),
        "text:text",
    ),
    LineSpec("notice", Notice, (), (("table", "optword"), ("shutdown_in", "optint")), "text:text"),
    LineSpec(
        "watcher",
        Watcher,
        (("table", "word"), ("what", "word"), ("name", "optword"), ("watching", "int")),
        (),
        "text:text",
    ),
    LineSpec("people", People, (), (("total", "int"), ("guests", "int")), "said:people"),
    LineSpec("shouted", Shouted, (), (), "talk"),
    LineSpec(
        "record",
        Record,
        (("table", "word"), ("full", "full")),
        (("start", "int"), ("next", "optint"), ("total", "int"), ("game", "int")),
        "json:record",
    ),
    LineSpec("chips", Chips, (("name", "word"), ("balance", "int")), (), "json:entries"),
    LineSpec("profile", Profile, (("name", "word"),), (), "rest"),
    LineSpec("history", History, (("name", "word"),), (), "rest"),
    LineSpec("top", Top, (("family", "word"),), (), "rest"),
    LineSpec("help", HelpText, (), (("topic", "optword"),), "lines"),
    LineSpec("connections", Connections, (), (), "json:connections"),
    LineSpec("stats", Stats, (), (), "json:stats"),
    LineSpec("tournaments", Tournaments, (), (), "json:tournaments"),
    LineSpec("tournament", Tournament, (("tournament", "int"),), (), "rest"),
    LineSpec(
        "your_table",
        YourTable,
        (("tournament", "int"), ("round", "int"), ("table", "word"), ("seat", "int")),
        (("final", "bool"),),
    ),
    LineSpec(
        "analysis_progress",
        AnalysisProgress,
        (("table", "word"), ("game", "int"), ("done", "int"), ("total", "int")),
    ),
    LineSpec("analysis", Analysis, (("table", "word"), ("game", "int")), (), "json:analysis"),
    LineSpec(
        "reviewing",
        Reviewing,
        (("table", "word"), ("game", "int"), ("leader", "word"), ("step", "int"), ("total", "int")),
        (),
        "text:said",
    ),
    LineSpec("hinted", Hinted, (("table", "word"),), (), "rest"),
    LineSpec("rated", Rated, (("table", "word"), ("game", "int")), (), "rest"),
    LineSpec("replay", Replay, (("table", "word"), ("game", "int")), (), "rest"),
)
BY_WORD: dict[str, LineSpec] = {s.word: s for s in SPECS}
BY_CLASS: dict[type[Message], LineSpec] = {s.cls: s for s in SPECS}

_WORD = re.compile(r"[^\s=\x00-\x1f\x7f-\x9f\u2028\u2029]{1,128}")
_MISTAKABLE = re.compile(r"^(#|[^ ]*=)")
_ID = re.compile(r"#(\d{1,10})")


def _json(value: Any) -> str:
    try:
        text = json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError, RecursionError) as exc:
        raise LocalProtocolError(f"cannot write {value!r:.60} as JSON: {exc}") from None
    # JSON leaves these raw in strings; escape them so no reader sees a line break.
    return text.translate(_LINE_BREAKS)


_DECODER = json.JSONDecoder()
_LINE_BREAKS = {0x85: "\\u0085", 0x2028: "\\u2028", 0x2029: "\\u2029"}


def _plain(value: Any) -> Any:
    """Tuples as lists, for JSON."""
    return list(value) if type(value) is tuple else value


def _defaults(msg: Any) -> dict[str, Any]:
    """The values of ``msg``'s fields its line leaves out. A ``tables`` page's ``total``
    is its own count unless written: a page of the whole lobby is written as it was
    before pages (``tables [JSON]``), which a script reading that still reads."""
    defaults = {n: d for n, _r, d in msg._wire}
    if type(msg) is Tables:
        defaults["total"] = len(msg.tables)
    return defaults


def format_lines(message: Message) -> list[str]:
    """The text line(s) of a server message (several only for multi-line help)."""
    spec = BY_CLASS.get(type(message))
    if spec is None:
        raise LocalProtocolError(f"{type(message).__name__} is not a server message")
    # The spec table names the message's fields, so they are read by name: any
    # message class the table lists has the fields its line reads.
    msg: Any = message
    head = [spec.word]
    if msg.id is not None:
        head.append(f"#{msg.id}")
    for name, kind in spec.positional:
        head.append(_KINDS[kind][0](getattr(msg, name)))
    defaults = _defaults(msg)
    keyed = [(n, k, getattr(msg, n)) for n, k in spec.keyed]
    tail = spec.tail
    texts: list[str] = []
    if tail.startswith("text:"):
        said = getattr(msg, tail[5:])
        texts = [] if said is None else [said]  # an optional text left out: nothing after
    elif tail == "lines":
        texts = list(msg.lines) or [""]
    mistakable = any(_MISTAKABLE.match(t) for t in texts)
    for name, kind, value in keyed:
        if mistakable or value != defaults[name]:
            head.append(f"{name}={_KINDS[kind][0](value)}")
    prefix = " ".join(head)
    if texts:
        return [f"{prefix} {t}" if t else prefix for t in texts]
    if tail[:5] in ("json:", "said:"):
        return [f"{prefix} {_json(_plain(getattr(msg, tail[5:])))}{_said_after(msg, tail)}"]
    if tail == "rest":
        used = {n for n, _k in spec.positional} | {"id"}
        rest = {n: _plain(getattr(msg, n)) for n, _r, _d in msg._wire if n not in used}
        return [f"{prefix} {_json(rest)}"]
    if tail == "event":
        event = msg.event
        kind = event["kind"]
        said = "" if msg.text is None else f" text: {msg.text}"
        if _WORD.fullmatch(kind) and kind[0] not in "{#":
            rest = {k: v for k, v in event.items() if k != "kind"}
            return [f"{prefix} {kind} {_json(rest)}{said}"]
        return [f"{prefix} {_json(event)}{said}"]
    if tail == "legal":
        view = [] if msg.view is None else [_json(msg.view)]
        words = _turn_words(msg)
        return [" ".join([prefix, *view, *words, "legal:", " | ".join(msg.legal)]).rstrip()]
    if tail == "talk":
        return [f"{prefix} {msg.name}: {msg.text}"]
    return [prefix]


def _said_after(msg: Any, tail: str) -> str:
    """What a ``said:`` tail writes after its JSON: `` text: WORDS``, or nothing."""
    return "" if tail[:5] != "said:" or msg.text is None else f" text: {msg.text}"


def _said(after: str, what: str) -> dict[str, str]:
    """The ``text`` written after a JSON value (`` text: WORDS``), or none."""
    if not after:
        return {}
    if not after.startswith(" text: "):
        raise ValueError(f"expected ' text: ' after {what}")
    return {"text": after[len(" text: ") :]}


def _turn_words(msg: Any) -> list[str]:
    """A turn's words (``must``, ``choices``, ``waiting``, ``pending_text`` and
    ``clock_warning``, those it has) as ``words: {JSON}``, or nothing."""
    words: dict[str, Any] = {}
    if msg.must is not None:
        words["must"] = msg.must
    if msg.choices:
        words["choices"] = msg.choices
    for name in _TURN_LINES:
        said = getattr(msg, name)
        if said is not None:
            words[name] = said
    return ["words:", _json(words)] if words else []


#: A turn's lines in words besides ``must`` and ``choices`` (``protocol.table_lines``)
_TURN_LINES = ("waiting", "pending_text", "clock_warning")


def format_line(message: Message) -> str:
    """The text line of a server message (multi-line help joined by newlines)."""
    return "\n".join(format_lines(message))


class _Cursor:
    """Reads single-space-separated tokens from the left of a line."""

    def __init__(self, line: str) -> None:
        self.line = line
        self.pos = 0

    def peek(self) -> str:
        end = self.line.find(" ", self.pos)
        return self.line[self.pos :] if end < 0 else self.line[self.pos : end]

    def take(self) -> str:
        if self.pos >= len(self.line):
            raise ValueError("the line ends too soon")
        end = self.line.find(" ", self.pos)
        if end < 0:
            token, self.pos = self.line[self.pos :], len(self.line)
        else:
            token, self.pos = self.line[self.pos : end], end + 1
        return token

    def rest(self) -> str:
        return self.line[self.pos :]


def parse_line(line: str, max_depth: int = DEFAULT_LIMITS.max_depth) -> Received:
    """The server message a text line stands for. Never raises: an unknown
    first word gives ``UnknownMessage``, a malformed line ``InvalidMessage``
    (JSON nested deeper than ``max_depth`` included)."""
    cur = _Cursor(line)
    word = cur.take() if line else ""
    spec = BY_WORD.get(word)
    if spec is None:
        return UnknownMessage(word[:100])
    fields: dict[str, Any] = {}
    try:
        match = _ID.fullmatch(cur.peek())
        if match:
            fields["id"] = int(match.group(1))
            cur.take()
        for name, kind in spec.positional:
            fields[name] = _KINDS[kind][1](cur.take())
        pending = dict(spec.keyed)
        while pending:
            key, sep, value = cur.peek().partition("=")
            if not sep or key not in pending:
                break
            cur.take()
            fields[key] = _KINDS[pending.pop(key)][1](value)
        _parse_tail(spec, cur, fields)
        if not depth_ok(fields, max_depth):  # fields: the message map, depth 1
            return InvalidMessage(word, "too_deep", f"JSON nested deeper than {max_depth}")
        if spec.cls is Tables and "total" not in fields:  # written only when it differs
            fields["total"] = len(fields["tables"])
        return spec.cls(**fields)
    except RecursionError:
        return InvalidMessage(word, "too_deep", "JSON nested too deep", fields.get("id"))
    except (ValueError, KeyError, TypeError, IndexError, AttributeError) as exc:
        return InvalidMessage(word, "bad_message", f"bad {word!r} line: {exc}", fields.get("id"))
    except LocalProtocolError as exc:
        return InvalidMessage(word, exc.code, str(exc), fields.get("id"))


def _parse_tail(spec: LineSpec, cur: _Cursor, fields: dict[str, Any]) -> None:  # noqa: C901 (one case a tail kind)
    tail = spec.tail
    rest = cur.rest()
    if tail.startswith("text:"):
        optional = any(n == tail[5:] and d is None for n, _r, d in spec.cls._wire)
        if rest or not optional:  # an optional text: none when nothing follows
            fields[tail[5:]] = rest
    elif tail == "lines":
        fields["lines"] = (rest,)
    elif tail.startswith("json:"):
        fields[tail[5:]] = json.loads(rest)
    elif tail.startswith("said:"):
        fields[tail[5:]], end = _DECODER.raw_decode(rest)
        fields.update(_said(rest[end:], "the list"))
    elif tail == "rest":
        data = json.loads(rest)
        if type(data) is not dict:
            raise ValueError("expected a JSON object")
        fields.update(data)
    elif tail == "event":
        kind = None if rest.startswith("{") else cur.take()
        data, end = _DECODER.raw_decode(cur.rest())
        if type(data) is not dict:
            raise ValueError("expected a JSON object")
        fields["event"] = data if kind is None else {"kind": kind, **data}
        fields.update(_said(cur.rest()[end:], "the event"))
    elif tail == "legal":
        if rest.startswith("{"):  # the view, a JSON object, before ``legal:``
            fields["view"] = _object_then_space(cur)
        if cur.peek() == "words:":  # the turn in words, a JSON object, before ``legal:``
            cur.take()
            fields.update(_object_then_space(cur))
        if cur.take() != "legal:":
            raise ValueError("expected 'legal:'")
        text = cur.rest()
        fields["legal"] = tuple(text.split(" | ")) if text else ()
    elif tail == "talk":
        name = cur.take()
        if not name.endswith(":"):
            raise ValueError("expected 'NAME:'")
        fields["name"] = name[:-1]
        fields["text"] = cur.rest()
    elif rest:
        raise ValueError(f"unexpected {rest[:40]!r} at the end")


def _object_then_space(cur: _Cursor) -> dict[str, Any]:
    """The JSON object at the cursor, which a space follows; the cursor moves past both."""
    rest = cur.rest()
    data, end = _DECODER.raw_decode(rest)
    if type(data) is not dict or rest[end : end + 1] != " ":
        raise ValueError("expected a JSON object, then a space")
    cur.pos += end + 1
    return data


# --------------------------------------------------------------- line reader
class LineReader(Splitter):
    """Bytes in, lines out, with the line length limit; dead after a failure."""

    fail_code = "too_large"

    def receive_data(self, data: bytes) -> None:
        """Add bytes; ``b""`` ends the stream (an unterminated last line still counts)."""
        self._check()
        if not data:
            if self._buffer:
                self._pieces().append(bytes(self._buffer))
                self._buffer.clear()
            self._eof = True
            return
        if self._eof:
            raise LocalProtocolError("data received after the end of the stream")
        buf = self._buffer
        buf += data
        limit = self.limits.max_line
        start = 0
        while (end := buf.find(b"\n", start)) >= 0:
            if end + 1 - start > limit:
                raise self._fail(f"a line is longer than {limit} bytes")
            self._pieces().append(bytes(buf[start:end]))
            start = end + 1
        if start:
            del buf[:start]
        if len(buf) >= limit:
            raise self._fail(f"a line is longer than {limit} bytes")

    def next_line(self) -> str | bytes | bytearray | None:
        """The next line without its line ending: a ``str``, or the raw ``bytes``
        if it is not UTF-8; ``None`` until more data arrives."""
        self._check()
        if not self._chunks:
            return None
        raw = self._take()
        if raw.endswith(b"\r"):
            raw = raw[:-1]
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            return raw


@dataclass(frozen=True, slots=True)
class TextFormat:
    """``format text|json``: a text connection's own command, answered by the connection
    with ``ServerTextCodec.set_format`` (no other codec has formats, so it is no message)."""

    format: str
    id: int | None = None


#: The widest a sentence line is written: a terminal breaks a longer one wherever the
#: column ends, in the middle of a word.
LINE_COLUMNS = 80


def fit(line: str, columns: int = LINE_COLUMNS) -> list[str]:
    """A sentence line as lines of at most ``columns`` characters, broken at spaces, each
    after the first indented by two spaces (a word longer than a line stays whole).

    >>> for part in fit("turn 1 · your turn · top K♣ · your hand 7♣ 10♣ J♣ A♦ 5♥ A♥ Q♠"
    ...                 " · you may: play 7C, play TC, play JC, draw"):
    ...     print(part)
    turn 1 · your turn · top K♣ · your hand 7♣ 10♣ J♣ A♦ 5♥ A♥ Q♠ · you may: play
      7C, play TC, play JC, draw
    """
    if len(line) <= columns:
        return [line]
    return textwrap.wrap(
        line,
        columns,
        subsequent_indent="  ",
        break_long_words=False,
        break_on_hyphens=False,
    )


#: the messages whose sentences carry what people typed, written as they typed it
_SPOKEN = (Talk, Shouted)

_FORMAT_LINE = re.compile(r"(?:#(\d{1,10}) +)?format(?: +(\S+))?", re.IGNORECASE)
_RULES_LINE = re.compile(r"(?:#(\d{1,10}) +)?rules(?: +(\S+))?", re.IGNORECASE)
_GUEST_LINE = re.compile(r"(?:#(\d{1,10}) +)?name +(\S+)", re.IGNORECASE)


class ServerTextCodec:
    """The server's side of a text connection: command lines in, server lines out.

    Server lines are sentences for a person (``protocol.readable``) until the
    peer types ``format json``; then they are the lines of ``format_lines``
    (JSON for programs), until ``format text``. ``name NAME`` without a
    secret claims NAME as a guest: the codec makes the secret, and the
    ``named`` sentence shows it once.

    The first message out of ``next_message`` is always a ``Hello``: the
    line's own if it is ``hello ...``, otherwise an implied one offering every
    version this code speaks. ``table`` is the current table, which bare table
    commands use: the table of the last ``join``, ``watch`` or ``resume`` line,
    or of the last ``seated``, ``view`` or ``your_table`` line sent, whichever came last. The
    server's connection also sets ``table`` when a ``create`` of this session
    succeeds: only it knows which reply answers the create.
    """

    name = "text"  #: the codec's name, as ``protocol.sniff`` says it

    def __init__(self, limits: Limits = DEFAULT_LIMITS) -> None:
        self.reader = LineReader(limits)
        self.table: str | None = None
        self._greeted = False
        self._pending: deque[Received | TextFormat | TextRules] = deque()
        self.format = "text"
        self.readable = Readable()
        self._switches: dict[int, tuple[Message, str]] = {}  #: id(reply) -> its format
        #: each table's legal actions for us, as its last turn or snapshot listed them:
        #: a bare card typed resolves to the action shown (``commands.as_listed``)
        self.legal: dict[str, tuple[str, ...]] = {}

    @property
    def failed(self) -> bool:
        return self.reader.failed

    @property
    def buffered(self) -> int:
        """Bytes held of lines not yet taken (after ``next_message``: of a partial line)."""
        return self.reader.buffered

    def receive_data(self, data: bytes) -> None:
        """Add bytes from the peer (``b""``: end of stream); may raise
        ``RemoteProtocolError`` (a line over the limit: fatal)."""
        self.reader.receive_data(data)

    def next_message(self) -> Received | TextFormat | TextRules | None:
        """The next message (or a ``TextFormat`` or ``TextRules``, the connection's own),
        or ``None`` until more data arrives."""
        if self._pending:
            return self._pending.popleft()
        while True:
            line = self.reader.next_line()
            if line is None:
                return None
            if isinstance(line, bytes | bytearray):
                message: Received | TextFormat | TextRules = InvalidMessage(
                    "", "bad_command", "the line is not UTF-8"
                )
            else:
                line = line.replace("\t", " ")
                if not line.strip():
                    continue
                message = self._parse(line)
            if not self._greeted:
                self._greeted = True
                if not isinstance(message, Hello):
                    self.readable.naming = isinstance(message, ClaimName)
                    self._pending.append(message)
                    return Hello(client="text")
            return message

    def _parse(self, line: str) -> Received | TextFormat | TextRules:
        stripped = line.strip()
        if match := _RULES_LINE.fullmatch(stripped):
            return TextRules(match.group(2), int(match.group(1)) if match.group(1) else None)
        if match := _FORMAT_LINE.fullmatch(stripped):
            request_id = int(match.group(1)) if match.group(1) else None
            request = TextFormat((match.group(2) or "").lower(), request_id)
            if not self._greeted and request.format in FORMATS:
                self.format = request.format  # the first line: the welcome is in it too
            return request
        if match := _GUEST_LINE.fullmatch(stripped):  # no secret: a guest's name
            secret = secrets.token_urlsafe(9)
            self.readable.guest = (match.group(2), secret)
            line = f"{stripped} {secret}"
        try:
            message = parse_command(line, table=self.table, legal=self.legal)
        except CommandError as exc:
            match = _ID.match(line.lstrip())
            request_id = int(match.group(1)) if match else None
            word = line.split(None, 1)[0][:100] if line.split() else ""
            return InvalidMessage(word, exc.code, str(exc), request_id)
        if isinstance(message, (Join, Spectate, Resume)):
            # At once, not when the reply goes out: a script may send
            # "join 4" and "start" together, and replies are encoded later.
            self.table = message.table
        return message

    def set_format(self, request: TextFormat) -> Message:
        """Switch to the format ``request`` names; the reply to send."""
        if request.format not in FORMATS:
            text = "usage: format text (sentences for people) or format json (for programs)"
            return Error(code="bad_command", text=text, id=request.id)
        what = "sentences" if request.format == "text" else "JSON, for programs"
        reply = Ok(text=f"server lines are {what} now", id=request.id)
        # The switch happens when the reply is written, not now: lines queued before it
        # (replies to earlier commands, events) keep the format they were asked in.
        self._switches[id(reply)] = (reply, request.format)
        return reply

    def rules(self, request: TextRules) -> Message:
        """The reply to ``rules [GAME]``: the game's rules (none named: the game of the
        current table, as its last view said it)."""
        game = request.game
        shown = None if self.table is None else self.readable.shown.get(self.table)
        if game is None and shown is not None:
            family = shown.view.get("family") if isinstance(shown.view, dict) else None
            game = str(family) if family else shown.ruleset
        return rules_reply(game, request.id)

    def encode(self, message: Message) -> bytes:
        """The line(s) for a server message, as bytes."""
        if isinstance(message, (Seated, Snapshot, YourTable)):
            self.table = message.table
        if isinstance(message, (Turn, Snapshot)):
            self.legal[message.table] = tuple(message.legal)
        switch = self._switches.pop(id(message), None)
        if switch is not None and switch[0] is message:
            self.format = switch[1]
        if self.format == "text":
            lines = self.readable.lines(message)
            if lines is not None:
                if not isinstance(message, _SPOKEN):  # 10♥, as the browser writes it
                    lines = [tens_for_reading(line) for line in lines]
                lines = [part for line in lines for part in fit(line)]
        else:
            lines = None
            self.readable.remember(message)
        if lines is None:
            lines = format_lines(message)
        return "".join(line + "\n" for line in lines).encode("utf-8")


class ClientTextCodec:
    """A program's side of a text connection: server lines in, command lines out."""

    name = "text"

    def __init__(self, limits: Limits = DEFAULT_LIMITS) -> None:
        self.reader = LineReader(limits)

    @property
    def failed(self) -> bool:
        return self.reader.failed

    def receive_data(self, data: bytes) -> None:
        self.reader.receive_data(data)

    def next_message(self) -> Received | None:
        while True:
            line = self.reader.next_line()
            if line is None:
                return None
            if isinstance(line, bytes | bytearray):
                return InvalidMessage("", "bad_message", "the line is not UTF-8")
            if line:
                return parse_line(line, self.reader.limits.max_depth)

    def encode(self, message: Message) -> bytes:
        """The command line for a client message (table commands say ``at TABLE``)."""
        return (format_command(message) + "\n").encode("utf-8")
