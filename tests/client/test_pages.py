"""The help and the rules are pages framed over the screen: every line inside its box,
wrapped at words, and a page taller than the screen scrolls to its end."""

from __future__ import annotations

import asyncio

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from test_legal_moves import turn_where

import engine
from client.net.state import ClientState
from client.terminal.app import ClientApp, render_text
from protocol import messages as m


def _app_at(game: engine.Game, seat: int, ruleset: str) -> ClientApp:
    state = ClientState()
    state.name = "ann"
    state.rulesets = [
        {"name": rs.name, "family": rs.family, "summary": rs.summary, **rs.describe()}
        for rs in engine.all_rulesets()
    ]
    state.handle(
        m.Snapshot(
            table="1",
            seq=1,
            state="playing",
            view=game.view(seat),
            seat=seat,
            legal=tuple(str(a) for a in game.legal_actions(seat)),
            players=("ann", "bob", "cy"),
            master="ann",
        )
    )
    state.tables["1"].to_act = seat
    with create_pipe_input() as pipe:
        app = ClientApp(state, lambda _line: None, input=pipe, output=DummyOutput())
    app.show_table("1")
    return app


def _box(screen: str) -> list[str]:
    """The rows of the framed box, border to border."""
    rows = screen.splitlines()
    top = next(i for i, row in enumerate(rows) if row.lstrip().startswith("┌"))
    bottom = next(i for i, row in enumerate(rows) if row.lstrip().startswith("└"))
    return rows[top : bottom + 1]


def _draw(app: ClientApp, columns: int, rows: int) -> str:
    async def draw() -> str:
        render_text(app, columns, rows)
        return render_text(app, columns, rows)

    return asyncio.run(draw())


@pytest.mark.parametrize(("columns", "rows"), [(80, 24), (120, 40), (60, 20)])
def test_a_long_help_stays_in_its_box_and_scrolls_to_its_end(columns: int, rows: int) -> None:
    """Before: at 80x24 a j28 turn's help ran past the bottom of its box, the game master's
    line cut off, with no way to read it."""
    game, seat = turn_where("j28", 3, lambda g, s: len(g.legal_actions(s)) >= 12)
    app = _app_at(game, seat, "j28")
    app.show_help = True
    box = _box(_draw(app, columns, rows))
    assert box[0].lstrip().startswith("┌") and box[-1].lstrip().startswith("└")
    assert all(row.rstrip().endswith("│") for row in box[1:-1]), box
    assert all(len(row) <= columns for row in box)
    for _ in range(20):
        assert app.page is not None
        app.page.scroll(10)
    box = _box(_draw(app, columns, rows))
    assert any("close [REASON]" in row for row in box), box  # the help's last words
    assert all(row.rstrip().endswith("│") for row in box[1:-1]), box


@pytest.mark.parametrize("ruleset", ["blackjack", "abbott", "kilodney"])
def test_the_rules_stay_in_their_box_at_80_columns(ruleset: str) -> None:
    game, seat = turn_where("j28", 3, lambda g, s: True)
    app = _app_at(game, seat, "j28")
    app.open_rules(ruleset)
    for _ in range(12):
        box = _box(_draw(app, 80, 24))
        assert all(row.rstrip().endswith("│") for row in box[1:-1]), box
        assert all(len(row) <= 80 for row in box)
        assert app.page is not None
        app.page.scroll(10)
