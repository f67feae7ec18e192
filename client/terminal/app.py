"""The terminal client's screens: the lobby and the table, with help, completion and history.

One prompt_toolkit ``Application`` draws everything from a ``ClientState``; it
never talks to the network itself. A line typed at the command line goes to
``submit`` (the session, which runs on trio in guest mode: see
``client.terminal.guest``), except the few commands that only change the screen
(``client.terminal.screen_commands``: ``help``, ``quit``, ``lobby``, ``table``, ``ascii``,
``filter`` ...). When the session folds a message into the state it calls
``ClientApp.changed()``, which asks prompt_toolkit to redraw: a redraw is cheap
(only the changed cells go to the terminal), so the screen is always a pure
function of the state.

The layout, top to bottom: a title bar; the board (one drawing per family,
``client.terminal.boards``) beside the players and scores; the table's log (events in
words and talk); a line for the last reply; the command line; a bar of keys.
The lobby swaps the board for the list of tables. Everything fits 80x24 and
follows the terminal's size as it changes.

This module composes the parts, each of which owns what it draws and keeps:
``client.terminal.table_screen`` (the board, the players, the title),
``client.terminal.lobby_screen`` (the tables and who is online),
``client.terminal.log_pane`` (the log and talk),
``client.terminal.pages`` (the help, the rules, long replies and the new-table picker) and
``client.terminal.keys`` (the key bindings).

``render_text(app, columns, rows)`` draws the layout into a plain string, the
way a person would read the screen; the tests assert on it.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Iterator
from typing import Any

from prompt_toolkit.application import Application
from prompt_toolkit.application.current import get_app, set_app
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.history import History, InMemoryHistory
from prompt_toolkit.input import Input
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
from prompt_toolkit.widgets import TextArea

from client.net.state import ClientState, TableState
from client.terminal.bell import TurnBell, bell_on
from client.terminal.completion import CommandCompleter
from client.terminal.keys import build_keys
from client.terminal.lobby_screen import PANEL_WIDTH, LobbyScreen
from client.terminal.log_pane import LogPane
from client.terminal.page import Page
from client.terminal.pages import Pages
from client.terminal.screen_commands import run_line
from client.terminal.style import STYLE
from client.terminal.table_screen import TableScreen
from client.terminal.widgets import SizedTextControl, overlay
from protocol.words import plural

__all__ = ["STYLE", "ClientApp", "render_text"]

TALK_APART = 100  #: columns from which talk has its own pane


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
        self._submit = submit
        self.ascii_only = ascii_only
        self.current: str | None = None  # the table on screen; None: the lobby
        self.reply: StyleAndTextTuples = []  # the reply line's words
        self.redraws = 0
        self.last_change: float | None = None
        #: told how long each redraw took after a message arrived (the benchmark)
        self.on_redraw: Callable[[float], None] | None = None
        #: rings when the turn comes to us (``bell on|off``, kept in the config)
        self.bell = TurnBell(on=bell_on())
        self.lobby = LobbyScreen(self)
        self.board = TableScreen(self, self.lobby)
        self.log = LogPane(self)
        self.pages = Pages(self, self.lobby)
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
            key_bindings=build_keys(self.pages, self.exit, self.submit),
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

    def ring_on_turn(self) -> None:
        """Ring the terminal's bell if the turn just came to one of our seats."""
        if self.bell.due(self.state.tables):
            self.application.output.bell()

    def show_table(self, table: str | None) -> None:
        """Show ``table`` (None: the lobby)."""
        self.current = table
        self.application.invalidate()

    def say(self, text: str, style: str = "") -> None:
        """Put a reply on the reply line (in the lobby, also in its log)."""
        if self.current is None:  # the lobby's log shows it: once, not also on the reply line
            self.reply = []
            self.log.note("error" if "error" in style else "note", text)
        else:
            self.reply = [(style, text)]
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
        self.pages.show_lines(title, lines)

    def submit(self, line: str) -> None:
        """Send a typed line on to whoever carries lines to the server."""
        self._submit(line)

    def send_lines_to(self, submit: Callable[[str], None]) -> None:
        """From now on, typed lines go to ``submit`` (the trio side, once it runs)."""
        self._submit = submit

    def toggle_ascii(self) -> None:
        """Card symbols and box lines, or plain ASCII (the ``ascii`` command)."""
        self.ascii_only = not self.ascii_only
        self.application.invalidate()

    @property
    def table(self) -> TableState | None:
        """The state of the table on screen, or None in the lobby."""
        return self.state.tables.get(self.current) if self.current else None

    def exit(self) -> None:
        """Leave the application (the runner then ends the network side)."""
        future = self.application.future
        if self.application.is_running and future is not None and not future.done():
            self.application.exit(result=0)

    def _after_render(self, _app: Any) -> None:
        self.redraws += 1
        if self.last_change is not None:
            took = time.perf_counter() - self.last_change
            self.last_change = None
            if self.on_redraw is not None:
                self.on_redraw(took)

    # ------------------------------------------------------------ the parts, for readers
    @property
    def page(self) -> Page | None:
        """The page framed over the screen, or None."""
        return self.pages.page

    @property
    def show_help(self) -> bool:
        """Whether the help is the page on screen (F1, ``help``)."""
        return self.pages.help_shown

    @show_help.setter
    def show_help(self, shown: bool) -> None:
        if shown:
            self.pages.open_help()
        elif self.pages.help_shown:
            self.pages.close()

    def help_lines(self) -> list[str]:
        """The help for the screen on display."""
        return self.pages.help_lines()

    def open_rules(self, ruleset: str | None = None) -> None:
        """Show the rules of ``ruleset``, or of the table's game (F2)."""
        self.pages.open_rules(ruleset)

    @property
    def boards_drawn(self) -> int:
        return self.board.boards_drawn

    @property
    def lines_described(self) -> int:
        return self.log.lines_described

    # ------------------------------------------------------------ commands
    def _accept(self, buffer: Any) -> bool:
        text = buffer.text.strip()
        if text:
            self.run_line(text)
        return False

    def run_line(self, text: str) -> None:
        """Handle one command line: screen commands here, the rest to ``submit``."""
        self.reply = []
        run_line(self, text)

    # ------------------------------------------------------------ drawing
    def _prompt(self) -> StyleAndTextTuples:
        t = self.table
        if t is not None and t.my_turn:
            return [("class:turn", "your move> ")]
        return [("", f"{self.current or 'lobby'}> ")]

    def talk_apart(self) -> bool:
        """Talk gets a pane of its own beside the events when the terminal is wide enough."""
        return self.table is not None and get_app().output.get_size().columns >= TALK_APART

    def _bar(self) -> StyleAndTextTuples:
        keys = [
            ("F1", "help"),
            ("F2", "rules"),
            ("Tab", "complete"),
            ("↑↓" if not self.ascii_only else "Up", "history"),
            ("Ctrl-D", "quit"),
        ]
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

    def _glyph(self, fancy: str, plain: str) -> Callable[[], str]:
        """A character read when drawn, so the ``ascii`` command changes it at once."""
        return lambda: plain if self.ascii_only else fancy

    def _rule(self, fancy: str, plain: str, **kwargs: Any) -> Window:
        """A line between panes, drawn with ``fancy`` (or ``plain`` in ASCII)."""
        return Window(char=self._glyph(fancy, plain), style="class:dim", **kwargs)

    def _build_layout(self) -> FloatContainer:
        wide = Condition(lambda: get_app().output.get_size().columns >= 70)
        board_control = SizedTextControl(self.board.board)

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
                    self._rule("│", "|", width=1),
                    Window(FormattedTextControl(self.board.panel), width=PANEL_WIDTH),
                ]
            ),
            filter=wide,
        )
        events = Window(
            SizedTextControl(self.log.events, get_cursor_position=self.log.events_cursor),
            wrap_lines=True,
        )
        talk = ConditionalContainer(
            VSplit(
                [
                    self._rule("│", "|", width=1),
                    Window(
                        SizedTextControl(self.log.talk, get_cursor_position=self.log.talk_cursor),
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
                Window(FormattedTextControl(self.board.title), height=1, style="class:title"),
                VSplit([board, panel]),
                self._rule("─", "-", height=1),
                log,
                Window(FormattedTextControl(lambda: self.reply), height=1),
                self.input_field,
                Window(FormattedTextControl(self._bar), height=1, style="class:bar"),
            ]
        )
        pages = self.pages
        return FloatContainer(
            content=body,
            floats=[
                Float(xcursor=True, ycursor=True, content=CompletionsMenu(max_height=8)),
                overlay(
                    pages.picker_text,
                    "New table",
                    lambda: pages.picker_open,
                    lambda: self.ascii_only,
                ),
                overlay(
                    pages.text,
                    lambda: pages.title,
                    lambda: pages.page is not None,
                    lambda: self.ascii_only,
                    full_width=True,
                ),
            ],
        )

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
    original = output.get_size  # replaced on the instance while drawing, then put back
    output.get_size = lambda: Size(rows=rows, columns=columns)  # type: ignore[method-assign]
    try:
        yield
    finally:
        output.get_size = original  # type: ignore[method-assign]
