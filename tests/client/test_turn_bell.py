"""The terminal rings its bell when the turn comes to our seat (once, not at every message
while it stays ours), and ``bell off`` silences it for this run and the next."""

from __future__ import annotations

from pathlib import Path

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

import engine
from client.net.state import ClientState
from client.terminal.app import ClientApp
from client.terminal.bell import SETTINGS_FILE, bell_on
from protocol import messages as m


class Ringing(DummyOutput):
    """An output that counts the bells it was asked for."""

    def __init__(self) -> None:
        super().__init__()
        self.bells = 0

    def bell(self) -> None:
        self.bells += 1


@pytest.fixture(autouse=True)
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SWITCHBOARD_CONFIG_DIR", str(tmp_path))
    return tmp_path


def _app(state: ClientState) -> tuple[ClientApp, Ringing]:
    out = Ringing()
    with create_pipe_input() as pipe:
        app = ClientApp(state, lambda _line: None, input=pipe, output=out)
    app.show_table("1")
    return app, out


def _table() -> ClientState:
    st = ClientState()
    game = engine.new_game("switch", seats=2, seed=5)
    st.handle(
        m.Snapshot(
            table="1", seq=1, state="playing", view=game.view(0), seat=0, players=("ann", "bob")
        )
    )
    return st


def _turn(st: ClientState, seq: int, to_act: int) -> None:
    legal = ("draw",) if to_act == 0 else ()
    st.handle(m.Turn(table="1", seq=seq, seat=0, to_act=to_act, legal=legal))


def test_the_bell_rings_once_when_the_turn_comes() -> None:
    st = _table()
    app, out = _app(st)
    _turn(st, 2, 1)
    app.ring_on_turn()
    assert out.bells == 0
    _turn(st, 3, 0)
    app.ring_on_turn()
    assert out.bells == 1
    _turn(st, 4, 0)  # still ours (a draw, then a play): no second ring
    app.ring_on_turn()
    assert out.bells == 1
    _turn(st, 5, 1)
    app.ring_on_turn()
    _turn(st, 6, 0)
    app.ring_on_turn()
    assert out.bells == 2


def test_bell_off_is_kept_for_the_next_run(config: Path) -> None:
    st = _table()
    app, out = _app(st)
    app.run_line("bell off")
    assert bell_on() is False and (config / SETTINGS_FILE).exists()
    _turn(st, 2, 1)
    app.ring_on_turn()
    _turn(st, 3, 0)
    app.ring_on_turn()
    assert out.bells == 0
    again, _ = _app(_table())
    assert again.bell.on is False  # the next run starts silent
    again.run_line("bell on")
    assert bell_on() is True
    again.run_line("bell loud")
    assert "bell on, or bell off" in str(again.reply)
