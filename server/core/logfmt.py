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

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {}
        if self.timestamps:
            t = time.gmtime(record.created)
            out["ts"] = time.strftime("%Y-%m-%dT%H:%M:%S", t) + f".{int(record.msecs):03d}Z"
        out["level"] = record.levelname.lower()
        out["logger"] = record.name
        event = getattr(record, EVENT_ATTR, None)
        if event is not None:
            out["event"] = event
            out.update(getattr(record, FIELDS_ATTR, None) or {})
        else:
            out["event"] = "log"
            out["msg"] = record.getMessage()
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        line = format_fields(out)
        return line.replace("\n", "\\n")


class HumanFormatter(logging.Formatter):
    """Formats every record as a short line a person reads: ``HH:MM:SS`` (local time),
    then the message; a structured event as its name and fields; ``warning:`` or
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
            fields = getattr(record, FIELDS_ATTR, None) or {}
            text = " ".join([event, format_fields(fields)]) if fields else event
        else:
            text = record.getMessage()
        if record.levelno != logging.INFO:
            text = f"{record.levelname.lower()}: {text}"
        if record.exc_info:
            text += " " + self.formatException(record.exc_info)
        if self.timestamps:
            text = time.strftime("%H:%M:%S ", time.localtime(record.created)) + text
        return text.replace("\r", "\\r").replace("\n", "\\n")


class JsonFormatter(logging.Formatter):
    """Formats every record as one JSON object a line, with the keys of the logfmt line.

    >>> record = logging.LogRecord("x", logging.INFO, "", 0, "up on %d", (7373,), None)
    >>> JsonFormatter(timestamps=False).format(record)
    '{"level": "info", "logger": "x", "event": "log", "msg": "up on 7373"}'
    """

    def __init__(self, timestamps: bool = True) -> None:
        super().__init__()
        self.timestamps = timestamps

    def format(self, record: logging.LogRecord) -> str:
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
        return json.dumps(out, default=str, ensure_ascii=False)


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
