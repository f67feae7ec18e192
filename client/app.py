"""The terminal client's screens: the lobby and the table, with help, completion and history.

One prompt_toolkit ``Application`` draws everything from a ``ClientState``; it
never talks to the network itself. A line typed at the command line goes to
``submit`` (the session, which runs on trio in guest mode: see
``client.guest``), except the few commands that only change the screen
(``help``, ``quit``, ``lobby``, ``table``, ``ascii``, ``filter``). When the
session folds a message into the state it calls ``ClientApp.changed()``, which
asks prompt_toolkit to redraw: a redraw is cheap (only the changed cells go to
the terminal), so the screen is always a pure function of the state.

The layout, top to bottom: a title bar; the board (one drawing per family,
``client.boards``) beside the players and scores; the table's log (events in
words and talk); a line for the last reply; the command line; a bar of keys.
The lobby swaps the board for the list of tables. Everything fits 80x24 and
follows the terminal's size as it changes.

``render_text(app, columns, rows)`` draws the layout into a plain string, the
way a person would read the screen; the tests assert on it.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import textwrap
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from prompt_toolkit.application import Application
from prompt_toolkit.application.current import get_app, set_app
from prompt_toolkit.data_structures import Point
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.history import History, InMemoryHistory
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import (
    ConditionalContainer,
    Dimension,
    Float,
    FloatContainer,
    HSplit,
    Layout,
    VSplit,
    Window,
)
from prompt_toolkit.layout.controls import FormattedTextControl
from prompt_toolkit.layout.menus import CompletionsMenu
from prompt_toolkit.layout.mouse_handlers import MouseHandlers
from prompt_toolkit.layout.screen import Screen, WritePosition
from prompt_toolkit.output import Output
from prompt_toolkit.styles import Style
from prompt_toolkit.widgets import TextArea

from client.boards import BoardContext, render_board
from client.boards.legal import legal_text
from client.commands import COMMANDS, MASTER_COMMANDS, TABLE_COMMANDS, command, help_line
from client.completion import CommandCompleter
from client.page import Page, wrap_page
from client.players import with_rating
from client.rules import rules_lines
from client.state import CLOCK_WARNING, MAX_LOG, ClientState, LogLine, TableState
from client.wrap import wrap_fragments
from protocol import fields
from protocol.commands import ACTION_HELP, action_help
from protocol.describe import describe_event, seat_name
from protocol.words import plural

HELP_TITLE = "Help"
RULES_TITLE = "Rules"
PAGE_CLOSES = "Escape closes this page"
#: How a seat's player is named, the one rule of the lobby, the table and its log.
BOT_NAMES = (
    "A server bot is named bot N, N its seat (the first seat is 0), in the lobby as at"
    " the table; in abbott a seat is also its compass point, the letter on its piece"
)
PANEL_WIDTH = 24
TALK_APART = 100  #: columns from which talk has its own pane
LOBBY_FIXED = 6 + 11 + 6 + 8  #: the lobby's columns but players: table, game, seats, state

STYLE = Style.from_dict(
    {
        "title": "reverse bold",
        "bar": "reverse",
        "bar.key": "reverse bold",
        "card.red": "bg:ansiwhite fg:ansired bold",
        "card.black": "bg:ansiwhite fg:ansiblack bold",
        "card.joker": "bg:ansiwhite fg:ansimagenta bold",
        "best": "underline",
        "playable": "underline",
        "top": "",
        "square.target": "bg:ansibrightblack",
        "blank": "fg:ansibrightblack",
        "piece.s0": "bg:ansiblue fg:ansiwhite bold",
        "piece.s1": "bg:ansiyellow fg:ansiblack bold",
        "piece.s2": "bg:ansigreen fg:ansiblack bold",
        "piece.s3": "bg:ansimagenta fg:ansiwhite bold",
        "label": "fg:ansibrightblack",
        "dim": "fg:ansibrightblack",
        "turn": "fg:ansiyellow bold",
        "seat.turn": "fg:ansiyellow bold",
        "seat.me": "bold",
        "warn": "fg:ansired bold",
        "score": "fg:ansicyan",
        "count": "",
        "category": "fg:ansigreen",
        "ally": "fg:ansigreen bold",
        "log.seat": "bold",
        "log.event": "fg:ansicyan bold",
        "talk.name": "fg:ansigreen bold",
        "error": "fg:ansired bold",
        "ok": "fg:ansigreen",
        "heading": "bold underline",
        "picker.selected": "reverse",
        "clock.low": "fg:ansired bold",
    }
)


def command_help(word: str) -> str:
    """One line of help for a command or an action verb (``help join``)."""
    if command(word) is not None:
        return help_line(word)
    actions = action_help(word)
    if actions:
        return "; ".join(actions)
    return f"no command {word!r}; F1 lists them all"


def clock_text(seconds: float | None) -> str:
    """``0:42`` for a countdown; empty when there is no clock."""
    if seconds is None:
        return ""
    s = int(seconds + 0.999)
    return f"{s // 60}:{s % 60:02d}"


def overlay(
    text: Callable[[], StyleAndTextTuples],
    title: str | Callable[[], str],
    shown: Callable[[], bool],
    ascii_only: Callable[[], bool] = lambda: False,
    *,
    full_width: bool = False,
) -> Float:
    """A framed text window floating over the screen while ``shown()`` is true (the pages
    and the new-table picker are each one). A page spans the screen's width: its text is
    wrapped to that width, and no line of the screen beneath shows beside it."""
    edge = 0 if full_width else None
    return Float(
        content=ConditionalContainer(
            framed(Window(FormattedTextControl(text), wrap_lines=True), title, ascii_only),
            filter=Condition(shown),
        ),
        left=edge,
        right=edge,
    )


#: Frame pieces: (Unicode, ASCII) for the top-left, top-right, bottom-left and
#: bottom-right corners and the horizontal and vertical lines.
_BORDER = {"tl": ("┌", "+"), "tr": ("┐", "+"), "bl": ("└", "+"), "br": ("┘", "+")}
_BORDER |= {"h": ("─", "-"), "v": ("│", "|")}


def framed(body: Window, title: str | Callable[[], str], ascii_only: Callable[[], bool]) -> HSplit:
    """``body`` in a titled border drawn in box-drawing characters, or in ASCII
    while ``ascii_only()`` (toggled at run time by the ``ascii`` command).

    Why not prompt_toolkit's ``Frame``: its border characters are fixed, and a
    terminal without the box-drawing glyphs (the reason for ASCII mode) shows
    them as junk."""

    def piece(name: str) -> Callable[[], str]:
        fancy, plain = _BORDER[name]
        return lambda: plain if ascii_only() else fancy

    def corner(name: str) -> Window:
        return Window(width=1, height=1, char=piece(name), style="class:frame.border")

    line = piece("h")
    top = VSplit(
        [
            corner("tl"),
            Window(width=1, height=1, char=line, style="class:frame.border"),
            Window(
                FormattedTextControl(
                    lambda: [("class:frame.label", f" {title() if callable(title) else title} ")]
                ),
                height=1,
                dont_extend_width=True,
            ),
            Window(height=1, char=line, style="class:frame.border"),
            corner("tr"),
        ],
        height=1,
    )
    side = piece("v")
    middle = VSplit(
        [
            Window(width=1, char=side, style="class:frame.border"),
            body,
            Window(width=1, char=side, style="class:frame.border"),
        ]
    )
    bottom = VSplit(
        [corner("bl"), Window(height=1, char=line, style="class:frame.border"), corner("br")],
        height=1,
    )
    return HSplit([top, middle, bottom])


class SizedTextControl(FormattedTextControl):
    """Formatted text drawn for the width it is given: boards fit the window they are in,
    so a resize redraws them to the new width."""

    def __init__(self, get_text: Callable[[int], StyleAndTextTuples], **kwargs: Any) -> None:
        self._get_sized = get_text
        self._width = 80
        super().__init__(lambda: self._get_sized(self._width), **kwargs)

    def preferred_height(
        self, width: int, max_available_height: int, wrap_lines: bool, get_line_prefix: Any
    ) -> int | None:
        self._width = width
        return super().preferred_height(width, max_available_height, wrap_lines, get_line_prefix)

    def line_count(self) -> int:
        """Lines of the text at the width last drawn."""
        return sum(text.count("\n") for _s, text, *_ in self._get_sized(self._width)) + 1

    def create_content(self, width: int, height: int | None) -> Any:
        if width != self._width:
            self._width = width
            self._fragment_cache.clear()
        return super().create_content(width, height)


class ClientApp:
    """The screens over a ``ClientState``; ``submit`` gets every line meant for the server."""

    def __init__(
        self,
        state: ClientState,
        submit: Callable[[str], None],
        *,
        ascii_only: bool = False,
        input: Input | None = None,
        output: Output | None = None,
        history: History | None = None,
        color_depth: Any = None,
    ) -> None:
        self.state = state
        self.submit = submit
        self.ascii_only = ascii_only
        self.current: str | None = None  # the table on screen; None: the lobby
        self.filter_words: list[str] = []
        self.reply: StyleAndTextTuples = []
        self.picker_open = False
        self.picker_index = 0
        #: the page framed over the screen (the help, a game's rules, a long reply), or None
        self.page: Page | None = None
        self.lobby_log: deque[LogLine] = deque(maxlen=200)
        self.redraws = 0
        self.boards_drawn = 0  # board drawings actually made (the rest come from the cache)
        self.lines_described = 0  # log lines actually described (likewise)
        # One redraw asks for the board several times (its height, its line count, its
        # content) and for the log's lines twice; both are drawn once per change instead.
        self._board_cache: tuple[object, tuple[Any, ...], StyleAndTextTuples] | None = None
        self._line_cache: dict[int, tuple[LogLine, tuple[Any, ...], StyleAndTextTuples]] = {}
        self._log_rows: dict[str, int] = {}  # rows each part of the log took, last drawn
        #: each described log line's rows for the pane's width, as last wrapped
        self._wrap_cache: dict[int, tuple[StyleAndTextTuples, int, list[Any]]] = {}
        self.last_change: float | None = None
        self.on_redraw: Callable[[float], None] | None = None
        self.input_field = TextArea(
            height=1,
            prompt=self._prompt,
            multiline=False,
            wrap_lines=False,
            completer=CommandCompleter(state, lambda: self.current),
            complete_while_typing=False,
            history=history or InMemoryHistory(),
            accept_handler=self._accept,
            style="class:input",
        )
        self.application: Application[int] = Application(
            layout=Layout(self._build_layout(), focused_element=self.input_field),
            key_bindings=self._build_keys(),
            style=STYLE,
            full_screen=True,
            mouse_support=False,
            input=input,
            output=output,
            color_depth=color_depth,
            after_render=self._after_render,
            max_render_postpone_time=0,
        )

    # ------------------------------------------------------------ state hooks
    def arrived(self, _msg: object = None) -> None:
        """A message just arrived from the server (the start of the redraw latency)."""
        if self.last_change is None:
            self.last_change = time.perf_counter()

    def changed(self) -> None:
        """The state changed (a message arrived): redraw soon."""
        self.arrived()
        self.application.invalidate()

    def show_table(self, table: str | None) -> None:
        self.current = table
        self.application.invalidate()

    def say(self, text: str, style: str = "") -> None:
        """Put a reply on the reply line (in the lobby, also in its log)."""
        if self.current is None:  # the lobby's log shows it: once, not also on the reply line
            self.reply = []
            self.lobby_log.append(LogLine("error" if "error" in style else "note", {"text": text}))
        else:
            self.reply = [(style, text)]
        self.application.invalidate()

    def _after_render(self, _app: Any) -> None:
        self.redraws += 1
        if self.last_change is not None:
            took = time.perf_counter() - self.last_change
            self.last_change = None
            if self.on_redraw is not None:
                self.on_redraw(took)

    @property
    def show_help(self) -> bool:
        """Whether the help is the page on screen (F1, ``help``)."""
        return self.page is not None and self.page.title == HELP_TITLE

    @show_help.setter
    def show_help(self, shown: bool) -> None:
        if shown:
            self.show_page(Page(HELP_TITLE, self._help_page, ""))  # its first line says how
        elif self.show_help:
            self.page = None

    def show_page(self, page: Page) -> None:
        """Frame ``page`` over the screen, in place of any other page or the picker."""
        self.page = page
        self.picker_open = False
        self.application.invalidate()

    def show_lines(self, title: str, lines: list[str], style: str = "") -> None:
        """A reply of several lines (``finger``, ``top``, ``history``, ``who``): a page shows
        it whole (a log pane has only a few rows, beside the board or under the tables), and
        the log on screen keeps it."""
        if self.current is None or self.table is None:
            for line in lines:
                self.say(line, style)
        else:
            for line in lines:
                self.state.note(self.current, line)
        self.show_page(Page(title, lambda width: wrap_page(lines, width), PAGE_CLOSES))

    @property
    def table(self) -> TableState | None:
        return self.state.tables.get(self.current) if self.current else None

    def exit(self) -> None:
        """Leave the application (the runner then ends the network side)."""
        if self.application.is_running and not self.application.future.done():
            self.application.exit(result=0)

    # ------------------------------------------------------------ commands
    def _accept(self, buffer: Any) -> bool:
        text = buffer.text.strip()
        if text:
            self.run_line(text)
        return False

    def run_line(self, text: str) -> None:
        """Handle one command line: screen commands here, the rest to ``submit``."""
        self.reply = []
        words = text.split()
        verb = words[0].lower() if words else ""
        if verb in ("quit", "exit"):
            self.exit()
            return
        if verb in ("help", "?"):
            if len(words) > 1:
                self.say(command_help(words[1]))
            else:
                self.show_help = True
                self.application.invalidate()
            return
        if verb == "lobby":
            self.show_table(None)
            return
        if verb == "table" and len(words) == 2:
            if words[1] in self.state.tables:
                self.show_table(words[1])
            elif words[1] in self.seated_by_server():
                self.submit(f"join {words[1]}")  # our name's seat: joining takes it back
            else:
                self.say(
                    f"you are not at table {words[1]}; `join {words[1]}` sits down", "class:error"
                )
            return
        if verb == "ascii":
            self.ascii_only = not self.ascii_only
            self.application.invalidate()
            return
        if verb == "rules":
            self.open_rules(words[1] if len(words) > 1 else None)
            return
        if verb == "filter":
            self.filter_words = [w.lower() for w in words[1:]]
            self.application.invalidate()
            return
        if verb == "create" and len(words) == 1 and self.state.rulesets:
            self.picker_open, self.picker_index = True, 0
            self.application.invalidate()
            return
        if text.startswith("'"):
            text = "say " + text[1:]
        self.submit(text)

    # ------------------------------------------------------------ drawing
    def _prompt(self) -> StyleAndTextTuples:
        t = self.table
        if t is not None and t.my_turn:
            return [("class:turn", "your move> ")]
        return [("", f"{self.current or 'lobby'}> ")]

    def _title(self) -> StyleAndTextTuples:
        who = self.state.name or "(no name)"
        dot = " - " if self.ascii_only else " · "
        left = f" Switchboard{dot}{who}"
        if self.state.server:
            left += f" @ {self.state.server}"
        t = self.table
        right = ""
        low = False  # our own clock is nearly out: the right side turns red
        if t is not None:
            ruleset = (t.view or {}).get("ruleset") or self._lobby_ruleset(t.table)
            left += f"{dot}table {t.table} {ruleset}"
            if t.seat is None:
                left += f"{dot}watching"
            if t.to_act is not None and t.state == fields.TableState.PLAYING:
                whose = "YOUR TURN" if t.to_act == t.seat else f"{self._name(t, t.to_act)} to play"
                right = f"{whose} {clock_text(t.clock_left())} "
                left_s = t.clock_left()
                if t.my_turn and left_s is not None and left_s <= CLOCK_WARNING:
                    right = f"HURRY: {right}"
                    low = True
            elif t.state != fields.TableState.PLAYING:
                right = f"{t.state} "
        else:
            left += f"{dot}lobby"
        width = get_app().output.get_size().columns
        left = left[: max(0, width - len(right) - 1)]
        pad = max(1, width - len(left) - len(right))
        right_style = "class:title class:clock.low" if low else "class:title"
        return [("class:title", left + " " * pad), (right_style, right)]

    def _lobby_ruleset(self, table: str) -> str:
        for info in self.state.lobby:
            if str(info.get("table")) == table:
                return str(info.get("ruleset", ""))
        return ""

    def _name(self, t: TableState, seat: int | None) -> str:
        names = t.names
        if seat is not None and 0 <= seat < len(names) and names[seat]:
            return str(names[seat])
        if seat is not None and t.view and t.view.get("seat_names"):
            return str(t.view["seat_names"][seat])
        return f"seat {seat}"

    def _board(self, width: int) -> StyleAndTextTuples:
        t = self.table
        if t is None:
            return self._lobby_text(width)
        # Everything the drawing reads; the view is compared by identity (a new view is a
        # new dict), which the cache's reference to it keeps meaningful.
        key = (t.table, t.seq, t.state, t.master, tuple(t.names), t.legal, t.my_turn)
        key += (width, self.ascii_only, self.state.name)
        cached = self._board_cache
        if cached is not None and cached[0] is t.view and cached[1] == key:
            return cached[2]
        board = self._draw_board(t, width)
        self._board_cache = (t.view, key, board)
        self.boards_drawn += 1
        return board

    def _draw_board(self, t: TableState, width: int) -> StyleAndTextTuples:
        ctx = BoardContext(
            names=t.names,
            ascii_only=self.ascii_only,
            width=width,
            legal=t.legal if t.my_turn else (),
        )
        if not t.view:
            waiting: StyleAndTextTuples = [("class:dim", "Waiting for the game to start...")]
            mine = t.master == self.state.name or (t.master is None and t.seat is not None)
            if t.master and t.master == self.state.name:
                waiting += [("", "\nYou are the game master.")]
            if mine:
                waiting += [("", "\nType "), ("class:turn", "start"), ("", " to deal")]
                waiting += [("", " (empty seats are played by bots).")]
            elif t.master:
                waiting += [("", f"\n{t.master} starts the game.")]
            return waiting
        view = t.view
        finished = t.state == fields.TableState.OVER or view.get("over")
        if finished and view.get("to_act") is not None:
            # A game the master ended keeps its last view, whose seat to act is no one's
            # turn now: a finished board marks no seat.
            view = {**view, "to_act": None}
        board = render_board(view, ctx)
        if finished:
            board = [*board, ("", "\n"), ("class:turn", "Game over.")]
            if t.master and t.master == self.state.name:
                # Two short lines: the board does not wrap, and at 80 columns it is 55 wide.
                board.append(("", " `start` deals a new game;\n`leave` returns to the lobby."))
            else:
                board.append(("", " `leave` returns to the lobby."))
        return board

    def _lobby_text(self, width: int) -> StyleAndTextTuples:
        # The players column takes what the others leave: at 80 columns (55 beside the
        # panel) every column, the state last, still shows.
        players_width = max(8, min(28, width - LOBBY_FIXED))
        out: StyleAndTextTuples = [
            (
                "class:heading",
                f"{'table':<6}{'game':<11}{'seats':<6}{'players':<{players_width}}state",
            ),
            ("", "\n"),
        ]
        rows = 0
        for info in self.state.lobby:
            ratings = list(info.get("ratings") or [])
            players = ", ".join(
                with_rating(seat_name(p, i) or "-", ratings[i] if i < len(ratings) else None)
                for i, p in enumerate(info.get("players") or [])
            )
            if len(players) > players_width - 1:
                players = players[: players_width - 2] + ("~" if self.ascii_only else "…")
            taken = sum(1 for p in info.get("players") or [] if p)
            seats = f"{taken}/{info.get('seats', '?')}"
            line = (
                f"{info.get('table', '?')!s:<6}{info.get('ruleset', '?')!s:<11}{seats:<6}"
                f"{players:<{players_width}}{info.get('state', '')}"
            )
            if self.filter_words and not all(w in line.lower() for w in self.filter_words):
                continue
            out += [("", line[:width]), ("", "\n")]
            rows += 1
        if not rows:
            hint = "no table matches the filter" if self.filter_words else "no tables yet"
            out += [("class:dim", f"({hint}: `create` opens one)"), ("", "\n")]
        if self.filter_words:
            out += [("class:dim", f"filter: {' '.join(self.filter_words)}"), ("", "\n")]
        if self.state.rulesets:
            names = " ".join(str(r.get("name")) for r in self.state.rulesets)
            wrapped = textwrap.wrap(f"games: {names}", max(20, width), subsequent_indent="  ")
            out += [("class:dim", "\n".join(wrapped))]
        return out

    def _panel(self) -> StyleAndTextTuples:
        t = self.table
        if t is None:
            out: StyleAndTextTuples = [("class:heading", "Your tables"), ("", "\n")]
            mine = self.my_tables()
            for tid, role in mine.items():
                out += [("", f"{tid} {role}"), ("", "\n")]
            if not mine:
                out += [("class:dim", "none yet"), ("", "\n")]
            else:
                out += [("class:dim", "`table N` goes to one"), ("", "\n")]
            return out + self._online()
        out = [("class:heading", f"{'Players':<17}score"), ("", "\n")]
        scores = (t.view or {}).get("scores") or []
        count = max(len(t.players), len(scores), int((t.view or {}).get("seats") or 0))
        for seat in range(count):
            names = t.names
            name = self._name(t, seat) if seat < len(names) and names[seat] else "(empty)"
            if seat == t.seat:
                name += "*"
            if t.away(seat):
                name = name[:11] + " (gone)"
            turn = t.to_act == seat and t.state == fields.TableState.PLAYING
            marker = (">" if self.ascii_only else "▶") if turn else " "
            score = scores[seat] if seat < len(scores) else ""
            style = "class:seat.turn" if turn else ("class:seat.me" if seat == t.seat else "")
            out += [
                ("class:turn", marker),
                (style, f"{name[:15]:<16}"),
                ("class:score", f"{score!s:>4}"),
                ("", "\n"),
            ]
        left = t.clock_left()
        if left is not None and t.to_act is not None and t.state == fields.TableState.PLAYING:
            style = "class:clock.low" if left < 10 else ""
            out += [
                ("", "\n"),
                (style, f"clock {clock_text(left)} for {self._name(t, t.to_act)}"[:24]),
            ]
            out.append(("", "\n"))
        if t.master:
            out += [("class:dim", f"master: {t.master}"), ("", "\n")]
        if t.seat is None:
            out += [("class:dim", "you are watching"), ("", "\n")]
        if t.watching:
            out += [("class:dim", f"{plural(t.watching, 'watcher')}"), ("", "\n")]
        return out

    def _online(self) -> StyleAndTextTuples:
        """Who is online, under the lobby's own tables: each name and where it is (the
        server's ``who``, fetched with the table list; ``who`` prints it whole)."""
        if self.state.online is None:
            return []
        total, _guests = self.state.online
        out: StyleAndTextTuples = [("", "\n"), ("class:heading", f"Online ({total})"), ("", "\n")]
        rows = max(0, get_app().output.get_size().rows - 16)  # what the panel has room for
        for person in self.state.people[:rows]:
            where = [
                f"{'watching' if spot.get('seat') is None else 'at'} {spot.get('table')}"
                for spot in person.get("tables") or []
                if isinstance(spot, dict)
            ]
            place = ", ".join(where) or "lobby"
            out += [
                ("", f"{str(person.get('name'))[:10]:<11}"),
                ("class:dim", place[: PANEL_WIDTH - 11]),
                ("", "\n"),
            ]
        if total > min(rows, len(self.state.people)):
            out += [("class:dim", f"... `who` lists all {total}"), ("", "\n")]
        return out

    def seated_by_server(self) -> dict[str, int]:
        """Tables where the server's table list shows our name in a seat: the truth, even
        for a seat this client never took (another machine's, or before a crash)."""
        out: dict[str, int] = {}
        name = self.state.name
        for info in self.state.lobby:
            players = list(info.get("players") or [])
            if name and name in players:
                out[str(info.get("table"))] = players.index(name)
        return out

    def my_tables(self) -> dict[str, str]:
        """Table -> ``seat N`` or ``watching``: where we sit (by the server's list, and
        by this connection) and what we watch."""
        mine = {tid: f"seat {seat}" for tid, seat in self.seated_by_server().items()}
        for tid, tt in self.state.tables.items():
            if tt.seat is not None:
                mine[tid] = f"seat {tt.seat}"
            else:
                mine.setdefault(tid, "watching")
        return mine

    def talk_apart(self) -> bool:
        """Talk gets a pane of its own beside the events when the terminal is wide enough."""
        return self.table is not None and get_app().output.get_size().columns >= TALK_APART

    def _log_lines(self, part: str = "all") -> list[StyleAndTextTuples]:
        """The log's lines: ``all``, ``events`` (everything but talk) or ``talk``."""
        t = self.table
        if t is not None:
            newest_first: Iterable[LogLine] = reversed(t.log)
        else:  # the client's own lines, notices and shouts, in the order they came
            newest_first = heapq.merge(
                reversed(self.lobby_log),
                reversed(self.state.notice_lines),
                reversed(self.state.shouts),
                key=lambda line: line.at,
                reverse=True,
            )
        names = t.names if t is not None else []
        lines: list[StyleAndTextTuples] = []
        # Only the lines that can show: the pane is never taller than the screen.
        room = get_app().output.get_size().rows
        picked = []
        for entry in newest_first:
            if part != "all" and (part == "talk") != (entry.kind == "talk"):
                continue
            picked.append(entry)
            if len(picked) >= room:
                break
        now = tuple(names)
        cache = self._line_cache
        if len(cache) > 4 * MAX_LOG:  # lines long scrolled away, or of tables left
            cache.clear()
        for entry in reversed(picked):
            then = now if entry.names is None else entry.names  # who sat there at the time
            key = (then, self.ascii_only)
            cached = cache.get(id(entry))
            if cached is not None and cached[0] is entry and cached[1] == key:
                lines.append(cached[2])
                continue
            line = self._describe(entry, list(then))
            cache[id(entry)] = (entry, key, line)
            self.lines_described += 1
            lines.append(line)
        return lines

    def _describe(self, entry: LogLine, names: list[str | None]) -> StyleAndTextTuples:
        """One log line as the log shows it."""
        if entry.kind == "event":
            return describe_event(entry.data, names, self.ascii_only)
        if entry.kind == "talk":
            return [
                ("class:talk.name", f"{entry.data.get('name')}: "),
                ("", str(entry.data.get("text", ""))),
            ]
        if entry.kind == "presence":
            words = {
                "dropped": " dropped out (the seat stays his; his clock runs)",
                "left": " left the table (a bot takes the seat)",
                "back": " is back",
                "sat": f" sits down (seat {entry.data.get('seat')})",
            }
            if not entry.data.get("playing", True):  # no game running: no bot, no clock
                words |= {"dropped": " dropped out", "left": " left the table"}
            what = str(entry.data.get("what"))
            text = words.get(what, f" {what}")
            return [("class:log.seat", str(entry.data.get("name"))), ("class:dim", text)]
        if entry.kind == "watcher":
            who = entry.data.get("name") or "someone with no name"
            came = entry.data.get("what") == "came"
            now = plural(entry.data.get("watching", 0), "watcher")
            what = f" came to watch ({now})" if came else f" stopped watching ({now})"
            return [("class:log.seat", str(who)), ("class:dim", what)]
        if entry.kind == "shout":
            return [
                ("class:talk.name", f"{entry.data.get('name')} shouts: "),
                ("", str(entry.data.get("text", ""))),
            ]
        if entry.kind == "error":
            return [("class:error", str(entry.data.get("text", "")))]
        if entry.kind == "notice":
            return [("class:log.event", str(entry.data.get("text", "")))]
        return [("class:dim", str(entry.data.get("text", "")))]

    def _joined(self, part: str, width: int) -> StyleAndTextTuples:
        """The log's lines for a pane ``width`` wide, each wrapped at words (a long line
        continues indented under itself); the pane's cursor goes to the last row."""
        out: StyleAndTextTuples = []
        rows = 0
        wrapped = self._wrap_cache
        if len(wrapped) > 4 * MAX_LOG:
            wrapped.clear()
        for line in self._log_lines(part):
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
        self._log_rows[part] = rows
        return out

    def _log(self, width: int) -> StyleAndTextTuples:
        return self._joined("events" if self.talk_apart() else "all", width)

    def _talk(self, width: int) -> StyleAndTextTuples:
        lines = self._joined("talk", width)
        return lines or [("class:dim", "(talk: type ' then your words)")]

    def _log_cursor(self) -> Point:
        return Point(0, max(0, self._log_rows.get("events" if self.talk_apart() else "all", 0) - 1))

    def _talk_cursor(self) -> Point:
        return Point(0, max(0, self._log_rows.get("talk", 0) - 1))

    def _bar(self) -> StyleAndTextTuples:
        keys = [
            ("F1", "help"),
            ("F2", "rules"),
            ("Tab", "complete"),
            ("↑↓" if not self.ascii_only else "Up", "history"),
        ]
        keys += [("Ctrl-D", "quit")]
        out: StyleAndTextTuples = []
        for k, what in keys:
            out += [("class:bar.key", f" {k}"), ("class:bar", f" {what} ")]
        t = self.table
        if t is not None and t.my_turn:
            dot = "-" if self.ascii_only else "·"
            out.append(("class:bar", f" {dot} {plural(len(t.legal), 'legal move')}"))
        width = get_app().output.get_size().columns
        used = sum(len(x[1]) for x in out)
        out.append(("class:bar", " " * max(0, width - used)))
        return out

    def help_lines(self) -> list[str]:
        """The help for the screen on display (F1 or ``help``)."""
        # The way out first: a long list of legal moves may push the end off a small screen.
        lines = ["Escape or F1 closes this help; Up/Down scroll it. Tab completes, Ctrl-D quits"]
        t = self.table
        if t is not None:
            family = t.family or ""
            if t.my_turn:  # every one of them, first: the help wraps, it never cuts
                lines.append("Legal now:")
                width = max(20, self.application.output.get_size().columns - 4)
                lines += ["  " + line for line in legal_text(t.legal, width)]
            lines.append(f"At the table ({family or 'waiting'}): type an action")
            actions = ACTION_HELP.get(family, ("(actions appear once dealt)",))
            lines += ["  " + h for h in actions]
            lines.append(BOT_NAMES)
            lines.append("Table commands:")
            lines += ["  " + help_line(c) for c in TABLE_COMMANDS]
            if t.master == self.state.name:  # one wrapped line: the help fits 24 rows
                usage = [found.usage for c in MASTER_COMMANDS if (found := command(c))]
                lines.append("Game master: " + ", ".join(usage) + " (help WORD for one)")
        else:
            lines.append("In the lobby:")
            lines += ["  " + help_line(c) for c in COMMANDS]
            lines.append(BOT_NAMES)
        return lines

    def open_rules(self, ruleset: str | None = None) -> None:
        """Show the rules of ``ruleset``, or of the table's game and its options (F2)."""
        t = self.table
        table_options: dict[str, Any] | None = None
        if ruleset is None and t is not None:
            ruleset = (t.view or {}).get("ruleset") or self._lobby_ruleset(t.table)
            info = next((i for i in self.state.lobby if str(i.get("table")) == t.table), {})
            table_options = dict(info.get("options") or {})
        if not ruleset:
            games = " ".join(str(r.get("name")) for r in self.state.rulesets)
            self.say(f"rules GAME shows a game's rules; the games: {games}", "class:error")
            return
        found = next((r for r in self.state.rulesets if r.get("name") == ruleset), None)
        if found is None:
            self.say(f"no game {ruleset!r}; `rulesets` lists them", "class:error")
            return
        lines = rules_lines(
            found.get("family"),
            ruleset,
            found.get("options") or [],
            table_options,
            str(found.get("summary") or ""),
        )
        closes = "Escape or F2 closes the rules"
        self.show_page(Page(RULES_TITLE, lambda width: wrap_page(lines, width), closes))

    def _page_text(self) -> StyleAndTextTuples:
        """The page on screen, in the box its frame leaves (two columns and two rows)."""
        page = self.page
        if page is None:
            return []
        size = self.application.output.get_size()
        lines, hint = page.window(size.columns - 2, size.rows - 2)
        out: StyleAndTextTuples = [("", "\n".join(lines))]
        if hint:
            out += [("", "\n"), ("class:dim", "\n".join(hint))]
        return out

    def _glyph(self, fancy: str, plain: str) -> Callable[[], str]:
        """A character read when drawn, so the ``ascii`` command changes it at once."""
        return lambda: plain if self.ascii_only else fancy

    def _help_page(self, width: int) -> list[str]:
        return wrap_page(self.help_lines(), width)

    def _picker(self) -> StyleAndTextTuples:
        out: StyleAndTextTuples = [("class:dim", "Up/Down choose, Enter picks, Esc cancels\n")]
        for i, r in enumerate(self.state.rulesets):
            style = "class:picker.selected" if i == self.picker_index else ""
            seats = f"{r.get('min_seats')}-{r.get('max_seats')}"
            line = f"{r.get('name')!s:<10} {seats:<5} {str(r.get('summary', ''))[:58]}"
            out += [(style, line), ("", "\n")]
        if self.state.rulesets:
            chosen = self.state.rulesets[self.picker_index % len(self.state.rulesets)]
            opts = " ".join(f"{o['name']}={o.get('default')}" for o in chosen.get("options", []))
            out += [("class:dim", "options (add name=value after the seats; Tab lists them):\n")]
            out += [("class:dim", opts[:220])]
        return out

    def _pick(self) -> None:
        r = self.state.rulesets[self.picker_index]
        self.picker_open = False
        seats = r.get("max_seats") if r.get("family") == "abbott" else r.get("min_seats")
        if r.get("family") != "abbott" and (r.get("max_seats") or 0) >= 4 >= (seats or 0):
            seats = 4
        self.input_field.text = f"create {r.get('name')} {seats} "
        self.input_field.buffer.cursor_position = len(self.input_field.text)
        self.application.invalidate()

    def _build_layout(self) -> FloatContainer:
        wide = Condition(lambda: get_app().output.get_size().columns >= 70)
        board_control = SizedTextControl(self._board)

        def board_height() -> Dimension:
            # The board keeps its full height while the screen has room: the log gives way.
            lines = board_control.line_count()
            rows = get_app().output.get_size().rows
            room = max(3, rows - 7)
            return Dimension(min=min(lines, room), preferred=lines)

        board = Window(
            board_control, wrap_lines=False, dont_extend_height=True, height=board_height
        )
        panel = ConditionalContainer(
            VSplit(
                [
                    Window(width=1, char=self._glyph("│", "|"), style="class:dim"),
                    Window(FormattedTextControl(self._panel), width=PANEL_WIDTH),
                ]
            ),
            filter=wide,
        )
        events = Window(
            SizedTextControl(self._log, get_cursor_position=self._log_cursor),
            wrap_lines=True,
        )
        talk = ConditionalContainer(
            VSplit(
                [
                    Window(width=1, char=self._glyph("│", "|"), style="class:dim"),
                    Window(
                        SizedTextControl(self._talk, get_cursor_position=self._talk_cursor),
                        wrap_lines=True,
                        width=Dimension(preferred=40, max=48),
                    ),
                ]
            ),
            filter=Condition(self.talk_apart),
        )
        log = VSplit([events, talk], height=Dimension(min=2, weight=1))
        body = HSplit(
            [
                Window(FormattedTextControl(self._title), height=1, style="class:title"),
                VSplit([board, panel]),
                Window(height=1, char=self._glyph("─", "-"), style="class:dim"),
                log,
                Window(FormattedTextControl(lambda: self.reply), height=1),
                self.input_field,
                Window(FormattedTextControl(self._bar), height=1, style="class:bar"),
            ]
        )
        return FloatContainer(
            content=body,
            floats=[
                Float(xcursor=True, ycursor=True, content=CompletionsMenu(max_height=8)),
                overlay(
                    self._picker, "New table", lambda: self.picker_open, lambda: self.ascii_only
                ),
                overlay(
                    self._page_text,
                    lambda: self.page.title if self.page else "",
                    lambda: self.page is not None,
                    lambda: self.ascii_only,
                    full_width=True,
                ),
            ],
        )

    def _build_keys(self) -> KeyBindings:
        kb = KeyBindings()
        picking = Condition(lambda: self.picker_open)

        @kb.add("f1")
        def _help(event: KeyPressEvent) -> None:
            self.show_help = not self.show_help

        @kb.add("escape", eager=True)
        def _close(event: KeyPressEvent) -> None:
            self.picker_open = False
            self.page = None

        @kb.add("f2")
        def _rules(event: KeyPressEvent) -> None:
            if self.page is not None and self.page.title == RULES_TITLE:
                self.page = None
            else:
                self.open_rules()

        reading = Condition(lambda: self.page is not None)
        for key, step in (("up", -1), ("down", 1), ("pageup", -10), ("pagedown", 10)):

            @kb.add(key, filter=reading)
            def _scroll(event: KeyPressEvent, step: int = step) -> None:
                if self.page is not None:
                    self.page.scroll(step)

        @kb.add("c-d")
        @kb.add("c-c")
        def _quit(event: KeyPressEvent) -> None:
            self.exit()

        @kb.add("up", filter=picking)
        def _up(event: KeyPressEvent) -> None:
            self.picker_index = (self.picker_index - 1) % max(1, len(self.state.rulesets))

        @kb.add("down", filter=picking)
        def _down(event: KeyPressEvent) -> None:
            self.picker_index = (self.picker_index + 1) % max(1, len(self.state.rulesets))

        @kb.add("enter", filter=picking)
        def _enter(event: KeyPressEvent) -> None:
            self._pick()

        return kb

    # ------------------------------------------------------------ running
    async def tick(self) -> None:
        """Redraw every half second while a clock counts down."""
        while True:
            await asyncio.sleep(0.5)
            self.check_clocks()

    def check_clocks(self) -> None:
        """Warn once where our own clock is nearly out (at any of our tables), and redraw
        while the shown table's clock counts down."""
        warned = [t for t in self.state.tables.values() if t.clock_warning()]
        t = self.table
        if warned or (t is not None and t.deadline is not None):
            self.application.invalidate()


def render_text(app: ClientApp, columns: int = 80, rows: int = 24) -> str:
    """The screen as a person would read it, drawn at ``columns`` x ``rows``."""
    application = app.application
    screen = Screen(initial_width=columns, initial_height=rows)
    with set_app(application), _sized(application, columns, rows):
        application.render_counter += 1  # controls cache what they drew per render
        container = application.layout.container
        container.write_to_screen(
            screen, MouseHandlers(), WritePosition(0, 0, columns, rows), "", True, None
        )
        screen.draw_all_floats()
    lines = []
    for y in range(rows):
        row = screen.data_buffer[y]
        lines.append("".join(row[x].char for x in range(columns)).rstrip())
    return "\n".join(lines)


@contextlib.contextmanager
def _sized(application: Application[Any], columns: int, rows: int) -> Iterator[None]:
    """Make the output report ``columns`` x ``rows`` while drawing (for ``render_text``)."""
    from prompt_toolkit.data_structures import Size

    output = application.output
    original = output.get_size
    output.get_size = lambda: Size(rows=rows, columns=columns)  # type: ignore[method-assign]
    try:
        yield
    finally:
        output.get_size = original  # type: ignore[method-assign]
