"""A redraw draws the board once and describes each log line once, not on every ask."""

from __future__ import annotations

import asyncio

from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

import engine
from client.net.state import ClientState
from client.terminal.app import ClientApp, render_text
from protocol import messages as m


def _app_at_a_table() -> tuple[ClientApp, ClientState, engine.Game]:
    state = ClientState()
    state.name = "ann"
    game = engine.new_game("switch", seats=4, seed=3)
    state.handle(
        m.Snapshot(
            table="1",
            seq=1,
            state="playing",
            view=game.view(0),
            seat=0,
            legal=tuple(str(a) for a in game.legal_actions(0)),
            players=("ann", "bot:random", "bot:random", "bot:random"),
        )
    )
    with create_pipe_input() as pipe:
        app = ClientApp(state, lambda _line: None, input=pipe, output=DummyOutput())
    app.show_table("1")
    return app, state, game


def test_the_board_is_drawn_once_per_change() -> None:
    asyncio.run(_board_once())


def test_each_log_line_is_described_once() -> None:
    asyncio.run(_lines_once())


async def _board_once() -> None:
    app, state, game = _app_at_a_table()
    first = render_text(app)
    assert "Your hand" in first
    # A fresh screen may draw once at the width it guessed before the layout gave it one.
    drawn = app.boards_drawn
    assert drawn <= 2
    assert render_text(app) == first
    assert app.boards_drawn == drawn  # nothing changed: nothing redrawn
    # A turn brings a new view: the board is drawn again, once.
    seat = game.to_act
    events = game.apply(seat, game.legal_actions(seat)[0])
    for i, event in enumerate(events):
        state.handle(m.TableEvent(table="1", seq=2 + i, event=event.present(0)))
    state.handle(
        m.Turn(table="1", seq=1 + len(events), seat=0, to_act=game.to_act, view=game.view(0))
    )
    second = render_text(app)
    assert app.boards_drawn == drawn + 1  # asked for several times in the redraw: drawn once
    assert second != first
    # A resize is a new drawing for the new width.
    render_text(app, 120, 40)
    assert app.boards_drawn == drawn + 2


async def _lines_once() -> None:
    app, state, _game = _app_at_a_table()
    for i in range(30):
        state.handle(m.Talk(table="1", name="bob", text=f"line {i}"))
    screen = render_text(app, 80, 24)
    assert "bob: line 29" in screen
    described = app.lines_described
    assert 0 < described <= 30
    render_text(app, 80, 24)
    render_text(app, 80, 24)
    assert app.lines_described == described  # the same lines: described from the cache
    state.handle(m.Talk(table="1", name="bob", text="one more"))
    assert "bob: one more" in render_text(app, 80, 24)
    assert app.lines_described == described + 1
