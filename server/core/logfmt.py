"""Structured logs: one event a line, ``key=value`` fields, through stdlib logging.

Why this shape: an operator greps and ``awk``s a server's log long before any
log pipeline exists, and every log shipper (journald, Loki, Vector) parses
logfmt. So each record is one line, never more: the event name first, then
its fields, values quoted only when they must be, newlines escaped. Plain
``logger.info("text %s", x)`` calls from anywhere still come out as one line
(``msg="..."``), so nobody has to adopt ``log_event`` for the output to stay
parseable.

>>> import io, logging
>>> stream = io.StringIO()
>>> log = logging.getLogger("doctest.logfmt")
>>> handler = logging.StreamHandler(stream)
>>> handler.setFormatter(KeyValueFormatter(timestamps=False))
>>> log.addHandler(handler); log.setLevel(logging.INFO); log.propagate = False
>>> log_event(log, "table.created", table=7, ruleset="abbott", creator="ann lee")
>>> log.warning("odd thing\\nsecond line")
>>> print(stream.getvalue(), end="")
level=info logger=doctest.logfmt event=table.created table=7 ruleset=abbott creator="ann lee"
level=warning logger=doctest.logfmt event=log msg="odd thing\\nsecond line"

A person hosting a game night reads the console, not a log pipeline: on a terminal
``switchboard serve`` writes ``HumanFormatter`` lines (the time, then the sentence, and
the level only when it is not ``info``); ``JsonFormatter`` writes one JSON object a line
for shippers that want it. ``FORMATS`` names the three for ``--log-format``.
"""

from __future__ import annotations

import json
import logging
import sys
import time
from collections.abc import Callable, Mapping
from typing import Any, TextIO

#: The attribute of a LogRecord that carries the structured fields.
FIELDS_ATTR = "sb_fields"
#: The attribute that carries the event name.
EVENT_ATTR = "sb_event"

_LEVELS = {"debug": logging.DEBUG, "info": logging.INFO, "warning": logging.WARNING}


def log_event(logger: logging.Logger, event: str, level: int = logging.INFO, **fields: Any) -> None:
    """Log one event with its fields, e.g. ``log_event(log, "conn.open", peer=addr)``.

    The fields ride on the record (not in the message) so a formatter can write
    them as ``key=value`` and a test can read them back from ``caplog``.
    """
    if logger.isEnabledFor(level):
        logger.log(level, event, extra={EVENT_ATTR: event, FIELDS_ATTR: fields}, stacklevel=2)


def format_value(value: Any) -> str:
    """One field value as logfmt: bare when it is safe, otherwise double-quoted.

    >>> format_value(3), format_value("a b"), format_value('say "hi"'), format_value(None)
    ('3', '"a b"', '"say \\\\"hi\\\\""', 'null')
    >>> format_value(0.25), format_value(True), format_value("")
    ('0.25', 'true', '""')
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:.6g}"
    if isinstance(value, int):
        return str(value)
    text = str(value)
    if text and all(c.isprintable() and c not in ' "=\\' for c in text):
        return text
    escaped = (
        text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r")
    )
    escaped = "".join(c if c.isprintable() else f"\\x{ord(c):02x}" for c in escaped)
    return f'"{escaped}"'


def _key(name: str) -> str:
    """A field name, kept to characters that cannot break the line's grammar."""
    cleaned = "".join(c if c.isalnum() or c in "_.-" else "_" for c in str(name))
    return cleaned or "_"


def format_fields(fields: Mapping[str, Any]) -> str:
    """``key=value`` pairs separated by spaces, in the order given."""
    return " ".join(f"{_key(k)}={format_value(v)}" for k, v in fields.items())


class KeyValueFormatter(logging.Formatter):
    """Formats every record as one logfmt line.

    ``timestamps=False`` leaves out ``ts=`` (journald adds its own, and
    doctests need stable output).
    """

    def __init__(self, timestamps: bool = True) -> None:
        super().__init__()
        self.timestamps = timestamps

    def fields(self, record: logging.LogRecord) -> dict[str, Any]:
        """The record's fields in the line's order: ``ts`` (if kept), ``level``,
        ``logger``, ``event`` and the event's own fields (or ``msg`` for a plain log
        line), then ``exc``; an event's field never takes the place of those."""
        out: dict[str, Any] = {}
        if self.timestamps:
            t = time.gmtime(record.created)
            out["ts"] = time.strftime("%Y-%m-%dT%H:%M:%S", t) + f".{int(record.msecs):03d}Z"
        out["level"] = record.levelname.lower()
        out["logger"] = record.name
        event = getattr(record, EVENT_ATTR, None)
        if event is not None:
            out["event"] = event
            for key, value in (getattr(record, FIELDS_ATTR, None) or {}).items():
                out.setdefault(_key(key), value)
        else:
            out["event"] = "log"
            out["msg"] = record.getMessage()
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return out

    def format(self, record: logging.LogRecord) -> str:
        return format_fields(self.fields(record)).replace("\n", "\\n")


def _plain(value: Any) -> str:
    """A field as words: a mapping as ``name value`` pairs, a list joined by commas."""
    if isinstance(value, Mapping):
        return ", ".join(f"{k} {v}" for k, v in value.items()) or "nobody"
    if isinstance(value, list | tuple | set | frozenset):
        return ", ".join(str(v) for v in value)
    return str(value)


def _plural(n: str, one: str, many: str) -> str:
    """``1 table``, ``3 tables``: ``n`` is a field already made plain."""
    return f"{n} {one if n == '1' else many}"


#: The sentence a host reads on the console for each event ``log_event`` is called with
#: in server/ (``tests/server/test_log_sentences.py`` scans the source to keep it whole).
#: Each takes the event's fields, already made plain (``_plain``).
SENTENCES: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "table.prize_paid": lambda f: f"table {f['table']}: prize paid to {f['shares']}",
    "table.prize_returned": lambda f: (
        f"table {f['table']}: the prize of {f['chips']} chips went back to the game master"
    ),
    "table.back": lambda f: f"table {f['table']}: seat {f['seat']} is back",
    "table.timeout": lambda f: (
        f"table {f['table']}: {f['name']} (seat {f['seat']}) ran out of time"
        + ("; the seat now plays by itself" if f.get("away") == "True" else "")
    ),
    "table.master": lambda f: f"table {f['table']}: {f['by']} used the game master's {f['verb']}",
    "table.unattended_abandoned": lambda f: (
        f"table {f['table']} abandoned: nobody has played it for a while"
    ),
    "table.finished_closed": lambda f: (
        f"table {f['table']} closed: its game is over and nobody is seated"
    ),
    "table.empty_closed": lambda f: f"table {f['table']} closed: nobody was at it",
    "table.crowded_closed": lambda f: (
        f"{_plural(f['tables'], 'empty table', 'empty tables')} closed: the server is nearly full"
    ),
    "table.room_made": lambda f: (
        f"table {f['table']} closed for a newcomer's first table: the server is full and"
        f" {f['creator']} held the most"
    ),
    "table.store_ok": lambda f: f"table {f['table']}: the store takes its writes again",
    "table.store_failed": lambda f: (
        f"table {f['table']} frozen until the store takes writes again: {f['error']}"
    ),
    "bot.workers_killed": lambda f: f"the bots' worker processes were killed: {f['error']}",
    "bot.thought_failed": lambda f: (
        f"{_plural(f['count'], 'bot move', 'bot moves')} failed to think ({f['mode']}):"
        f" {f['error']}; {f['then']}"
    ),
    "names.expired": lambda f: (
        f"{_plural(f['count'], 'unplayed name', 'unplayed names')} expired"
        f" (the first: {f['first']})"
    ),
    "chips.orphans_returned": lambda f: (
        f"{f['chips']} chips of tables that are gone went back to the game master"
    ),
    "admin.no_secret_file": lambda f: (
        f"no operator secret file at {f['path']}: operator commands are off"
    ),
    "admin.auth": lambda f: f"{f['who']} signed in as an operator",
    "admin.auth_failed": lambda f: (
        f"{f['who']} gave a wrong operator secret ({f['address_failures']} from that"
        f" address, {f['all_failures']} in all)"
    ),
    "admin.command": lambda f: f"operator {f['who']}: {f['command']}",
    "admin.close_tables": lambda f: f"an operator closed {_plural(f['closed'], 'table', 'tables')}",
    "admin.ban": lambda f: (
        f"an operator banned {f['name']} ({_plural(f['kicked'], 'connection', 'connections')}"
        " dropped)"
    ),
    "admin.kick": lambda f: (
        f"{f['name']} was kicked ({_plural(f['connections'], 'connection', 'connections')})"
    ),
    "admin.shutdown": lambda f: f"an operator asked to shut down: {f['reason']}",
    "conn.flood_dropped": lambda f: (
        f"connection {f['conn']} from {f['peer']} ({f['name']}) dropped: too many requests"
    ),
}


def sentence(event: str, fields: Mapping[str, Any]) -> str:
    """The line a person reads for ``event``: its sentence from ``SENTENCES``, or (an
    event without one, or missing a field its sentence names) its name and fields.

    >>> sentence("table.finished_closed", {"table": 1})
    'table 1 closed: its game is over and nobody is seated'
    >>> sentence("table.new_thing", {"table": 1})
    'table.new_thing table=1'
    """
    make = SENTENCES.get(event)
    if make is not None:
        try:
            return make({k: _plain(v) for k, v in fields.items()})
        except (KeyError, TypeError, ValueError):
            pass
    return " ".join([event, format_fields(fields)]) if fields else event


class HumanFormatter(logging.Formatter):
    """Formats every record as a short line a person reads: ``HH:MM:SS`` (local time),
    then the message; a structured event as its sentence (``SENTENCES``); ``warning:`` or
    ``error:`` before the text when the level is not ``info``. Still one line a record.

    >>> record = logging.LogRecord("x", logging.WARNING, "", 0, "disk %s", ("full",), None)
    >>> HumanFormatter(timestamps=False).format(record)
    'warning: disk full'
    """

    def __init__(self, timestamps: bool = True) -> None:
        super().__init__()
        self.timestamps = timestamps

    def format(self, record: logging.LogRecord) -> str:
        event = getattr(record, EVENT_ATTR, None)
        if event is not None:
            text = sentence(event, getattr(record, FIELDS_ATTR, None) or {})
        else:
            text = record.getMessage()
        if record.levelno != logging.INFO:
            text = f"{record.levelname.lower()}: {text}"
        if record.exc_info:
            text += " " + self.formatException(record.exc_info)
        if self.timestamps:
            text = time.strftime("%H:%M:%S ", time.localtime(record.created)) + text
        return text.replace("\r", "\\r").replace("\n", "\\n")


class JsonFormatter(KeyValueFormatter):
    """Formats every record as one JSON object a line, with the keys of the logfmt line.

    >>> record = logging.LogRecord("x", logging.INFO, "", 0, "up on %d", (7373,), None)
    >>> JsonFormatter(timestamps=False).format(record)
    '{"level": "info", "logger": "x", "event": "log", "msg": "up on 7373"}'
    """

    def format(self, record: logging.LogRecord) -> str:
        return json.dumps(self.fields(record), default=str, ensure_ascii=False)


#: ``--log-format`` choices: sentences for a person, logfmt and JSON for machines.
FORMATS: dict[str, type[logging.Formatter]] = {
    "human": HumanFormatter,
    "logfmt": KeyValueFormatter,
    "json": JsonFormatter,
}


def default_format(stream: TextIO) -> str:
    """``human`` when ``stream`` is a terminal (a person is watching), else ``logfmt``
    (journald, a container's log, a file: something will parse it)."""
    isatty = getattr(stream, "isatty", None)
    try:
        return "human" if isatty is not None and isatty() else "logfmt"
    except (OSError, ValueError):  # a closed or odd stream
        return "logfmt"


def configure(
    level: str = "info",
    stream: TextIO | None = None,
    timestamps: bool = True,
    fmt: str = "logfmt",
) -> None:
    """Send every ``server`` (and root) log record to ``stream`` (stderr by default)
    in the format ``fmt`` names (``FORMATS``).

    Called once by ``switchboard serve``; idempotent, so tests may call it too.
    """
    if fmt not in FORMATS:
        raise ValueError(f"log format {fmt!r} is not one of {', '.join(FORMATS)}")
    root = logging.getLogger()
    for handler in list(root.handlers):
        if getattr(handler, "_switchboard", False):
            root.removeHandler(handler)
    handler = logging.StreamHandler(stream or sys.stderr)
    # Every formatter here takes ``timestamps`` (``logging.Formatter`` does not), and the
    # mark on the handler is how a later call finds it to replace.
    handler.setFormatter(FORMATS[fmt](timestamps=timestamps))  # type: ignore[call-arg]
    handler._switchboard = True  # type: ignore[attr-defined]
    root.addHandler(handler)
    root.setLevel(_LEVELS.get(level.lower(), logging.INFO))


class IntervalLog:
    """Counts events and logs at most one line per ``interval`` seconds about them.

    >>> lines = []
    >>> counter = IntervalLog(10.0, lines.append)
    >>> [counter.event(t) for t in (0.0, 1.0, 2.0, 11.0)]
    [True, False, False, True]
    >>> lines
    [1, 3]
    """

    __slots__ = ("_emit", "_next", "interval", "pending")

    def __init__(self, interval: float, emit: Callable[[int], None]) -> None:
        self.interval = interval
        self._emit = emit  #: called with the number of events since the last line
        self._next = float("-inf")
        self.pending = 0

    def event(self, now: float) -> bool:
        """Count one event; emit a line (and return True) if the interval has passed."""
        self.pending += 1
        if now < self._next:
            return False
        self._emit(self.pending)
        self.pending = 0
        self._next = now + self.interval
        return True
