"""The log under the board: a table's events in words, its talk, and the client's notes.

At a table the log is the table's own (``TableState.log``); in the lobby it is the
client's lines, the server's notices and the room's shouts, merged in the order
they came. Talk gets a pane of its own beside the events on a wide terminal.

Drawing is cached twice, because one redraw asks for the lines several times: a
described line is kept until the names it was described with change, and its
wrapping until the pane's width does. ``lines_described`` counts the lines
actually described (the tests check the cache with it).
"""

from __future__ import annotations

import heapq
import re
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from prompt_toolkit.application.current import get_app
from prompt_toolkit.data_structures import Point
from prompt_toolkit.formatted_text import StyleAndTextTuples

from client.net.state import MAX_LOG, LogLine
from client.terminal.screen import Screen
from client.terminal.wrap import wrap_fragments
from protocol.cards import SUIT_SYMBOLS, card_style
from protocol.describe import describe_event, isolated, seat_words


def _talk(entry: LogLine, names: list[str | None], ascii_only: bool) -> StyleAndTextTuples:
    return [
        ("class:talk.name", f"{isolated(str(entry.data.get('name')))}: "),
        ("", str(entry.data.get("text", ""))),
    ]


def _person_line(entry: LogLine, text: str) -> StyleAndTextTuples:
    """A line about a person, in the server's words: his name marked as the log marks a
    seat's, where the line starts with it, the rest dim."""
    name = entry.data.get("name")
    who = isolated(str(name)) if name else ""
    if who and text.startswith(who):
        return [("class:log.seat", who), ("class:dim", text[len(who) :])]
    return [("class:dim", text)]


def _presence(entry: LogLine, names: list[str | None], ascii_only: bool) -> StyleAndTextTuples:
    if entry.data.get("what") == "sat":  # the client's own line: seen in a snapshot
        who = isolated(str(entry.data.get("name")))
        return [
            ("class:log.seat", who),
            ("class:dim", f" sits down ({seat_words(entry.data.get('seat'))})"),
        ]
    return _person_line(entry, str(entry.data.get("text", "")))


def _watcher(entry: LogLine, names: list[str | None], ascii_only: bool) -> StyleAndTextTuples:
    return _person_line(entry, str(entry.data.get("text", "")))


def _shout(entry: LogLine, names: list[str | None], ascii_only: bool) -> StyleAndTextTuples:
    return [
        ("class:talk.name", f"{isolated(str(entry.data.get('name')))} shouts: "),
        ("", str(entry.data.get("text", ""))),
    ]


#: A card as a sentence writes it (``Q♥``, ``T♣``, ``JK``), a whole word
_CARD = re.compile(r"(?<!\S)(?:(?:10|[2-9TJQKA])[♣♦♥♠]|JK)(?=$|[\s,;:.)])")
_LETTERS = str.maketrans({glyph: suit for suit, glyph in SUIT_SYMBOLS.items()})
#: What else of a sentence an ASCII terminal writes otherwise: the dot between its parts
_ASCII = str.maketrans({"·": "-"})


def said(text: str, names: Sequence[str | None], ascii_only: bool) -> StyleAndTextTuples:
    """A sentence the server composed, laid out: its cards coloured (in letters in ASCII
    mode: ``QH``), the seats' names as the log marks them. The words are the server's.

    >>> said("bob plays Q♥ 10♠", ["ann", "bob"], True)
    [('class:log.seat', 'bob'), ('', ' plays '), ('class:card.red', 'QH'), ('', ' '), \
('class:card.black', 'TS')]
    """
    marks = [re.escape(n) for n in sorted({n for n in names if n}, key=len, reverse=True)]
    pattern = _CARD.pattern + (f"|(?<!\\S)(?:{'|'.join(marks)})(?=$|[\\s,;:.)])" if marks else "")
    if ascii_only:
        text = text.translate(_ASCII)
    out: StyleAndTextTuples = []
    at = 0
    for found in re.finditer(pattern, text):
        if found.start() > at:
            out.append(("", text[at : found.start()]))
        word = found.group()
        if _CARD.fullmatch(word):
            out.append((card_style(_code(word)), card_text_of(word, ascii_only)))
        else:
            out.append(("class:log.seat", word))
        at = found.end()
    if at < len(text):
        out.append(("", text[at:]))
    return out


def _code(word: str) -> str:
    """A card as a sentence writes it (``10♥``, ``Q♠``) in notation (``TH``, ``QS``)."""
    letters = word.translate(_LETTERS)
    return "T" + letters[2:] if letters.startswith("10") else letters


def card_text_of(word: str, ascii_only: bool) -> str:
    """A card as the sentence wrote it, or in letters in ASCII mode (``TH``, as the ASCII
    boards write it)."""
    return _code(word) if ascii_only else word


def _event(entry: LogLine, names: list[str | None], ascii_only: bool) -> StyleAndTextTuples:
    if entry.text is not None:  # the server's words, naming who played then
        return said(entry.text, names, ascii_only)
    out: StyleAndTextTuples = []
    out.extend(describe_event(entry.data, names, ascii_only))  # an older server's event
    return out


def _styled(style: str) -> Callable[[LogLine, list[str | None], bool], StyleAndTextTuples]:
    def describe(entry: LogLine, names: list[str | None], ascii_only: bool) -> StyleAndTextTuples:
        return [(style, str(entry.data.get("text", "")))]

    return describe


#: How each kind of log line reads (any other kind: its text, dimmed)
DESCRIBERS = {
    "event": _event,
    "talk": _talk,
    "presence": _presence,
    "watcher": _watcher,
    "shout": _shout,
    "error": _styled("class:error"),
    "notice": _styled("class:log.event"),
}


def describe(entry: LogLine, names: list[str | None], ascii_only: bool) -> StyleAndTextTuples:
    """One log line as the log shows it, naming seats by ``names``."""
    return DESCRIBERS.get(entry.kind, _styled("class:dim"))(entry, names, ascii_only)


class LogPane:
    """The log's lines for the screen on display, described and wrapped once per change."""

    def __init__(self, app: Screen) -> None:
        self.app = app
        #: the lobby's own lines: replies said there, which its log keeps
        self.lobby_log: deque[LogLine] = deque(maxlen=200)
        self.lines_described = 0  # log lines actually described (the rest: the cache)
        self._line_cache: dict[int, tuple[LogLine, tuple[Any, ...], StyleAndTextTuples]] = {}
        self._rows: dict[str, int] = {}  # rows each part of the log took, last drawn
        #: each described log line's rows for the pane's width, as last wrapped
        self._wrap_cache: dict[int, tuple[StyleAndTextTuples, int, list[Any]]] = {}

    def note(self, kind: str, text: str) -> None:
        """A line of the client's own in the lobby's log (a reply said there)."""
        self.lobby_log.append(LogLine(kind, {"text": text}))

    def events(self, width: int) -> StyleAndTextTuples:
        """The events pane (everything, while talk has no pane of its own)."""
        return self._joined(self._events_part(), width)

    def talk(self, width: int) -> StyleAndTextTuples:
        """The talk pane, beside the events on a wide terminal."""
        lines = self._joined("talk", width)
        return lines or [("class:dim", "(talk: type ' then your words)")]

    def events_cursor(self) -> Point:
        """The events pane shows its last row."""
        return Point(0, max(0, self._rows.get(self._events_part(), 0) - 1))

    def talk_cursor(self) -> Point:
        return Point(0, max(0, self._rows.get("talk", 0) - 1))

    def _events_part(self) -> str:
        return "events" if self.app.talk_apart() else "all"

    def _joined(self, part: str, width: int) -> StyleAndTextTuples:
        """The log's lines for a pane ``width`` wide, each wrapped at words (a long line
        continues indented under itself); the pane's cursor goes to the last row."""
        out: StyleAndTextTuples = []
        rows = 0
        wrapped = self._wrap_cache
        if len(wrapped) > 4 * MAX_LOG:
            wrapped.clear()
        for line in self.lines(part):
            # a described line is kept (``_line_cache``) until it changes: so is its wrap
            cached = wrapped.get(id(line))
            if cached is None or cached[0] is not line or cached[1] != width:
                cached = (line, width, wrap_fragments(line, width))
                wrapped[id(line)] = cached
            for row in cached[2]:
                if rows:
                    out.append(("", "\n"))
                out.extend(row)
                rows += 1
        self._rows[part] = rows
        return out

    def _newest_first(self) -> Iterable[LogLine]:
        t = self.app.table
        if t is not None:
            return reversed(t.log)
        state = self.app.state  # the client's own lines, notices and shouts, as they came
        return heapq.merge(
            reversed(self.lobby_log),
            reversed(state.notice_lines),
            reversed(state.shouts),
            key=lambda line: line.at,
            reverse=True,
        )

    def lines(self, part: str = "all") -> list[StyleAndTextTuples]:
        """The log's lines: ``all``, ``events`` (everything but talk) or ``talk``."""
        t = self.app.table
        names = t.names if t is not None else []
        # Only the lines that can show: the pane is never taller than the screen.
        room = get_app().output.get_size().rows
        picked = []
        for entry in self._newest_first():
            if part != "all" and (part == "talk") != (entry.kind == "talk"):
                continue
            picked.append(entry)
            if len(picked) >= room:
                break
        now = tuple(names)
        cache = self._line_cache
        if len(cache) > 4 * MAX_LOG:  # lines long scrolled away, or of tables left
            cache.clear()
        lines: list[StyleAndTextTuples] = []
        for entry in reversed(picked):
            then = now if entry.names is None else entry.names  # who sat there at the time
            key = (then, self.app.ascii_only)
            cached = cache.get(id(entry))
            if cached is None or cached[0] is not entry or cached[1] != key:
                cached = (entry, key, describe(entry, list(then), self.app.ascii_only))
                cache[id(entry)] = cached
                self.lines_described += 1
            lines.append(cached[2])
        return lines
