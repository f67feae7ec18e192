"""The table on screen: its board (one drawing per family), the players and scores
beside it, and the title bar that says whose turn it is and how long is left.

A board is drawn once per change: one redraw asks for it several times (its height,
its line count, its content), so the drawing is kept until anything it reads
changes. ``boards_drawn`` counts the drawings actually made.
"""

from __future__ import annotations

from typing import Any

from prompt_toolkit.application.current import get_app
from prompt_toolkit.formatted_text import StyleAndTextTuples

from client.net.state import CLOCK_WARNING, TableState
from client.terminal.boards import BoardContext, render_board
from client.terminal.end_table import end_lines
from client.terminal.lobby_screen import PANEL_WIDTH, LobbyScreen
from client.terminal.screen import Screen
from engine.views import is_abbott
from protocol import fields
from protocol.describe import seat_words
from protocol.table_lines import START_WAITING
from protocol.words import plural


def clock_text(seconds: float | None) -> str:
    """``0:42`` for a countdown; empty when there is no clock.

    >>> clock_text(41.2), clock_text(None)
    ('0:42', '')
    """
    if seconds is None:
        return ""
    s = int(seconds + 0.999)
    return f"{s // 60}:{s % 60:02d}"


def seat_label(t: TableState, seat: int | None) -> str:
    """Who is at ``seat``: the player's name, else the seat's own name (abbott's compass
    points), else ``seat N``."""
    names = t.names
    if seat is not None and 0 <= seat < len(names) and names[seat]:
        return str(names[seat])
    if seat is not None and t.view and is_abbott(t.view) and t.view.get("seat_names"):
        return str(t.view["seat_names"][seat])
    return seat_words(seat)


class TableScreen:
    """The board, the players panel and the title for the table the app shows."""

    def __init__(self, app: Screen, lobby: LobbyScreen) -> None:
        self.app = app
        self.lobby = lobby
        self.boards_drawn = 0  # board drawings actually made (the rest come from the cache)
        self._board_cache: tuple[object, tuple[Any, ...], StyleAndTextTuples] | None = None

    def _playing(self, t: TableState) -> bool:
        return t.to_act is not None and t.state == fields.TableState.PLAYING

    def title(self) -> StyleAndTextTuples:
        """The title bar: who we are, where, and on the right whose turn and the clock."""
        app = self.app
        who = app.state.name or "(no name)"
        dot = " - " if app.ascii_only else " · "
        left = f" Switchboard{dot}{who}"
        if app.state.server:
            left += f" @ {app.state.server}"
        t = app.table
        right = ""
        low = False  # our own clock is nearly out: the right side turns red
        if t is None:
            left += f"{dot}lobby"
        else:
            ruleset = (t.view.get("ruleset") if t.view else None) or self.lobby.ruleset_of(t.table)
            left += f"{dot}table {t.table} {ruleset}"
            if t.seat is None:
                left += f"{dot}watching"
            right, low = self._whose_turn(t)
        width = get_app().output.get_size().columns
        left = left[: max(0, width - len(right) - 1)]
        pad = max(1, width - len(left) - len(right))
        right_style = "class:title class:clock.low" if low else "class:title"
        return [("class:title", left + " " * pad), (right_style, right)]

    def _whose_turn(self, t: TableState) -> tuple[str, bool]:
        """The title's right side, and whether our own clock is nearly out."""
        if not self._playing(t):
            return ("" if t.state == fields.TableState.PLAYING else f"{t.state} ", False)
        whose = "YOUR TURN" if t.to_act == t.seat else f"{seat_label(t, t.to_act)} to play"
        right = f"{whose} {clock_text(t.clock_left())} "
        left_s = t.clock_left()
        if t.my_turn and left_s is not None and left_s <= CLOCK_WARNING:
            return f"HURRY: {right}", True
        return right, False

    def board(self, width: int) -> StyleAndTextTuples:
        """The board of the table on screen (the lobby's list when there is none)."""
        t = self.app.table
        if t is None:
            return self.lobby.text(width)
        # Everything the drawing reads; the view is compared by identity (a new view is a
        # new dict), which the cache's reference to it keeps meaningful.
        key: tuple[Any, ...] = (t.table, t.seq, t.state, t.master, tuple(t.names), t.legal)
        key += (t.my_turn, width, self.app.ascii_only, self.app.state.name)
        cached = self._board_cache
        if cached is not None and cached[0] is t.view and cached[1] == key:
            return cached[2]
        board = self._draw(t, width)
        self._board_cache = (t.view, key, board)
        self.boards_drawn += 1
        return board

    def _waiting(self, t: TableState) -> StyleAndTextTuples:
        """Before the first deal: who deals, and how."""
        me = self.app.state.name
        waiting: StyleAndTextTuples = [("class:dim", START_WAITING)]
        mine = t.master == me or (t.master is None and t.seat is not None)
        if t.master and t.master == me:
            waiting += [("", "\nYou are the game master.")]
        if mine:
            waiting += [("", "\nType "), ("class:turn", "start"), ("", " to deal")]
            waiting += [("", " (empty seats are played by bots).")]
        elif t.master:
            waiting += [("", f"\n{t.master} starts the game.")]
        return waiting

    def _draw(self, t: TableState, width: int) -> StyleAndTextTuples:
        if not t.view:
            return self._waiting(t)
        ctx = BoardContext(
            names=t.names,
            ascii_only=self.app.ascii_only,
            width=width,
            legal=t.legal if t.my_turn else (),
            choices=t.choices if t.my_turn else (),
            must=t.must,
        )
        view = t.view
        finished = t.state == fields.TableState.OVER or view.get("over")
        if finished and view.get("to_act") is not None:
            # A game the master ended keeps its last view, whose seat to act is no one's
            # turn now: a finished board marks no seat.
            view = view.copy()
            view["to_act"] = None
        board = render_board(view, ctx)
        if finished:
            # The scores of each hand first: at 80x24 the board below may not all fit.
            scores = "\n".join(end_lines(t, width))
            board = [("class:heading", scores), ("", "\n\n"), *board]
            board += [("", "\n"), ("class:turn", "Game over.")]
            if t.master and t.master == self.app.state.name:
                # Two short lines: the board does not wrap, and at 80 columns it is 55 wide.
                board.append(("", " `start` deals a new game;\n`leave` returns to the lobby."))
            else:
                board.append(("", " `leave` returns to the lobby."))
        return board

    def panel(self) -> StyleAndTextTuples:
        """Beside the board: each seat's player and score, the clock, who is master."""
        t = self.app.table
        if t is None:
            return self.lobby.panel()
        out: StyleAndTextTuples = [("class:heading", f"{'Players':<17}score"), ("", "\n")]
        scores = (t.view.get("scores") if t.view else None) or []
        seats = (t.view.get("seats") if t.view else None) or 0
        count = max(len(t.players), len(scores), int(seats))
        for seat in range(count):
            out += self._seat_row(t, seat, scores)
        left = t.clock_left()
        if left is not None and self._playing(t):
            style = "class:clock.low" if left < 10 else ""
            clock = f"clock {clock_text(left)} for {seat_label(t, t.to_act)}"
            out += [("", "\n"), (style, clock[:PANEL_WIDTH]), ("", "\n")]
        if t.master:
            out += [("class:dim", f"master: {t.master}"), ("", "\n")]
        if t.seat is None:
            out += [("class:dim", "you are watching"), ("", "\n")]
        if t.watching:
            out += [("class:dim", f"{plural(t.watching, 'watcher')}"), ("", "\n")]
        return out

    def _seat_row(self, t: TableState, seat: int, scores: list[Any]) -> StyleAndTextTuples:
        names = t.names
        name = seat_label(t, seat) if seat < len(names) and names[seat] else "(empty)"
        if seat == t.seat:
            name += "*"
        if t.away(seat):
            name = name[:11] + " (gone)"
        turn = t.to_act == seat and t.state == fields.TableState.PLAYING
        marker = (">" if self.app.ascii_only else "▶") if turn else " "
        score = scores[seat] if seat < len(scores) else ""
        style = "class:seat.turn" if turn else ("class:seat.me" if seat == t.seat else "")
        return [
            ("class:turn", marker),
            (style, f"{name[:15]:<16}"),
            ("class:score", f"{score!s:>4}"),
            ("", "\n"),
        ]
