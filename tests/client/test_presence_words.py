"""A player who drops out is told of without guessing who they are: the log's presence
line says "their" seat and clock, as the web client says "theirs"."""

from __future__ import annotations

import asyncio

from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

import engine
from client.net.state import ClientState
from client.terminal.app import ClientApp, render_text
from protocol import messages as m


def _screen(state: ClientState) -> str:
    with create_pipe_input() as pipe:
        app = ClientApp(state, lambda _line: None, input=pipe, output=DummyOutput())
    app.show_table("1")

    async def draw() -> str:
        render_text(app, 120, 40)  # a first drawing finds each window's width
        return render_text(app, 120, 40)

    return asyncio.run(draw())


def test_a_dropped_player_keeps_their_seat_in_words_for_anyone() -> None:
    """Before: "ann dropped out (the seat stays his; his clock runs)"."""
    st = ClientState()
    st.name = "root"
    game = engine.new_game("switch", seats=3, seed=5)
    players = ("root", "ann", "bot:heuristic")
    st.handle(
        m.Snapshot(table="1", seq=1, state="playing", view=game.view(0), seat=0, players=players)
    )
    st.handle(m.Presence(table="1", seat=1, name="ann", what="dropped"))
    screen = _screen(st)
    assert "ann dropped out (the seat stays theirs; their clock runs)" in screen, screen
    assert "stays his" not in screen and "his clock" not in screen, screen
