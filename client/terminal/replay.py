"""Step through a finished game, forward and back: the model and its small full-screen viewer.

Two kinds of record come from a server (``record`` message) or from a file:

- a **full record** (``game.record()``: ruleset, seats, seed, options, the
  list of actions). ``engine.replay`` over its prefixes rebuilds the game at
  every step, so each position is drawn with the family's own board, as seen
  from any seat (``seat``; a spectator by default);
- a **public event log** (``{"ruleset", "seats", "options", "events"}``: what a
  spectator saw; sent instead of the full record when hands were hidden).
  Then there is no board to rebuild: the viewer steps through the events.

>>> import engine
>>> g = engine.new_game("kilodney", seats=4, seed=1)
>>> for _ in range(3):
...     _ = g.apply(g.to_act, g.legal_actions(g.to_act)[0])
>>> r = Replay(g.record(), seat=0)
>>> r.steps, r.full
(4, True)
>>> r.view(3) == g.view(0)
True
>>> r.caption(1).startswith("1/3")
True
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from prompt_toolkit.application import Application
from prompt_toolkit.formatted_text import StyleAndTextTuples, fragment_list_to_text
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import HSplit, Layout, Window
from prompt_toolkit.layout.controls import FormattedTextControl

import engine
from client.terminal.boards import BoardContext, render_board
from client.terminal.public_board import PublicBoard
from client.terminal.style import STYLE
from engine.views import as_view
from protocol.describe import describe_event, seat_words


def load_record(path: str | Path) -> dict[str, Any]:
    """A record from a JSON file (a ``record`` reply saved by the client, or
    ``game.record()`` dumped as JSON)."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    if not isinstance(data, dict) or "ruleset" not in data:  # (a tournament's has one too)
        raise ValueError(f"{path}: not a game record (no 'ruleset')")
    return data


class Replay:
    """Every position of one game, computed once; ``steps`` of them (0: the deal)."""

    def __init__(self, record: dict[str, Any], seat: int | None = None) -> None:
        self.record = record
        self.seat = seat
        self.full = "actions" in record and "seed" in record
        self.names: list[str | None] = list(record.get("names") or [])
        #: a game's views (``Game.view``), or a public log's boards (``PublicBoard``)
        self._views: list[Mapping[str, Any] | None] = []
        self._events: list[list[dict[str, Any]]] = []
        self._labels: list[str] = []
        if self.full:
            self._from_actions()
        else:
            self._from_events()
        first: Mapping[str, Any] = next((v for v in self._views if v), {})
        if not self.names and first.get("seat_names"):
            self.names = list(first["seat_names"])

    def _from_actions(self) -> None:
        rec = self.record
        game = engine.new_game(
            rec["ruleset"],
            rec["seats"],
            rec["seed"],
            rec.get("options") or {},
            dealer=rec.get("dealer"),
            deck=rec.get("deck"),
        )
        self._views.append(game.view(self.seat))
        self._events.append([])
        self._labels.append("the deal")
        for seat, notation in rec.get("actions", []):
            events = game.apply(seat, notation)
            self._views.append(game.view(self.seat))
            self._events.append([e.present(self.seat) for e in events])
            self._labels.append(f"{{{seat}}}: {notation}")

    def _from_events(self) -> None:
        """A public log: the board is followed event by event (``PublicBoard``), hands
        hidden as they were to a spectator."""
        rec = self.record
        try:
            board: PublicBoard | None = PublicBoard(str(rec["ruleset"]), int(rec["seats"]))
        except (ValueError, KeyError, TypeError):  # a ruleset this client does not know
            board = None
        self._views.append(None)
        self._events.append([])
        self._labels.append("the start")
        for ev in rec.get("events", []):
            view = None
            if board is not None:
                try:
                    board.apply(ev)
                    view = board.view()
                except (KeyError, IndexError, TypeError, ValueError):
                    board = None  # an event it cannot follow: events only from here
            self._views.append(view)
            self._events.append([ev])
            seat = ev.get("seat")
            kind = str(ev.get("kind", "?"))
            self._labels.append(f"{{{seat}}}: {kind}" if isinstance(seat, int) else kind)

    @property
    def steps(self) -> int:
        return len(self._views)

    def view(self, i: int) -> Mapping[str, Any] | None:
        return self._views[i]

    def events(self, i: int) -> list[dict[str, Any]]:
        """What happened to reach step ``i``."""
        return self._events[i]

    def history(self, i: int, last: int = 8) -> list[dict[str, Any]]:
        """The last ``last`` events up to step ``i``."""
        out: list[dict[str, Any]] = []
        for k in range(i, 0, -1):
            out[:0] = self._events[k]
            if len(out) >= last:
                break
        return out[-last:]

    def caption(self, i: int) -> str:
        """``12/87 South: move c4``: where we are, and the action that led here."""
        label = self._labels[i]
        if label.startswith("{"):
            seat = int(label[1 : label.index("}")])
            named = seat < len(self.names) and self.names[seat]
            who = self.names[seat] if named else seat_words(seat)
            label = f"{who}{label[label.index('}') + 1 :]}"
        return f"{i}/{self.steps - 1} {label}"

    def render(self, i: int, width: int = 80, ascii_only: bool = False) -> StyleAndTextTuples:
        """Step ``i`` as formatted text: the board (full records), then recent events."""
        dot = "-" if ascii_only else "·"
        title = f" {self.record.get('ruleset')} {dot} step {self.caption(i)} "
        out: StyleAndTextTuples = [("class:title", title.ljust(width)), ("", "\n")]
        view = self.view(i)
        if view is not None:
            ctx = BoardContext(names=self.names, ascii_only=ascii_only, width=width)
            out += render_board(as_view(view), ctx)
            out.append(("", "\n"))
        out.append(("class:dim", "─" * width if not ascii_only else "-" * width))
        for ev in self.history(i, last=8 if view is not None else 18):
            out.append(("", "\n"))
            out += describe_event(ev, self.names, ascii_only)
        return out

    def text(self, i: int, width: int = 80, ascii_only: bool = True) -> str:
        """Step ``i`` as plain text (``switchboard replay --print``)."""
        return fragment_list_to_text(self.render(i, width, ascii_only))


REPLAY_HELP = """Replay: step through a finished game.

  Right, n, space      one step forward
  Left, p, backspace   one step back
  PgDn / PgUp          ten steps
  Home / End           the deal / the end
  F1 or ?              this help (again: back to the game)
  q or Ctrl-D          quit

A full record shows the board at every step, as the chosen seat saw it
(--seat N; a spectator by default). A public event log shows the events."""


class ReplayApp:
    """Right/Left (or n/p, space/backspace) step; Home/End jump; q or Ctrl-D quits."""

    def __init__(self, replay: Replay, *, ascii_only: bool = False, **app_kwargs: Any) -> None:
        self.replay = replay
        self.ascii_only = ascii_only
        self.i = 0
        kb = KeyBindings()

        def move(delta: int) -> None:
            self.i = max(0, min(self.replay.steps - 1, self.i + delta))

        @kb.add("right")
        @kb.add("n")
        @kb.add("space")
        def _fwd(event: KeyPressEvent) -> None:
            move(1)

        @kb.add("left")
        @kb.add("p")
        @kb.add("backspace")
        def _back(event: KeyPressEvent) -> None:
            move(-1)

        @kb.add("pagedown")
        def _fwd10(event: KeyPressEvent) -> None:
            move(10)

        @kb.add("pageup")
        def _back10(event: KeyPressEvent) -> None:
            move(-10)

        @kb.add("home")
        def _home(event: KeyPressEvent) -> None:
            self.i = 0

        @kb.add("end")
        def _end(event: KeyPressEvent) -> None:
            self.i = self.replay.steps - 1

        @kb.add("q")
        @kb.add("c-d")
        @kb.add("c-c")
        def _quit(event: KeyPressEvent) -> None:
            event.app.exit(result=0)

        self.show_help = False

        @kb.add("f1")
        @kb.add("?")
        def _help(event: KeyPressEvent) -> None:
            self.show_help = not self.show_help

        def body() -> StyleAndTextTuples:
            from prompt_toolkit.application.current import get_app

            width = get_app().output.get_size().columns
            if self.show_help:
                return [("", REPLAY_HELP)]
            return self.replay.render(self.i, width, self.ascii_only)

        bar = " Right/Left step  PgUp/PgDn 10  Home/End  F1 help  q quit"
        self.application: Application[int] = Application(
            layout=Layout(
                HSplit(
                    [
                        Window(FormattedTextControl(body), wrap_lines=False),
                        Window(
                            FormattedTextControl(lambda: [("class:bar", bar)]),
                            height=1,
                            style="class:bar",
                        ),
                    ]
                )
            ),
            key_bindings=kb,
            style=STYLE,
            full_screen=True,
            **app_kwargs,
        )
