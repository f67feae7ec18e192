"""The terminal client's clock warning and its finished board, as a person sees them."""

from __future__ import annotations

import asyncio

from harness import CTRL_D, Driver, run_client
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from client.net.state import ClientState
from client.terminal.app import ClientApp, render_text
from client.terminal.session import Session
from protocol import messages as m


def _app_at_my_turn(clock: float) -> ClientApp:
    state = ClientState()
    state.name = "ann"
    view = {"family": "shedding", "ruleset": "switch", "to_act": 0, "viewer": 0, "seats": 2}
    state.handle(
        m.Snapshot(table="4", seq=1, state="playing", view=view, seat=0, players=("ann", "bob"))
    )
    state.handle(m.Turn(table="4", seq=2, seat=0, to_act=0, legal=("draw",), clock=clock))
    with create_pipe_input() as pipe:
        app = ClientApp(state, lambda _line: None, input=pipe, output=DummyOutput())
    app.show_table("4")
    return app


def test_the_clock_warns_at_ten_seconds_visibly_and_once_in_the_log() -> None:
    """Before, the last seconds looked like any others until the clock played for you."""

    async def draw() -> tuple[list[str], str, list[str]]:
        app = _app_at_my_turn(clock=30)
        app.check_clocks()
        calm = [line.data.get("text") for line in app.table.log]
        quiet_title = render_text(app, 100, 24).splitlines()[0]
        assert "HURRY" not in quiet_title, quiet_title
        app.table._set_clock(9.6)  # the same turn, nine seconds later
        app.check_clocks()
        app.check_clocks()  # a redraw later: still one warning
        screen = render_text(app, 100, 24)
        return calm, screen, [line.data.get("text", "") for line in app.table.log]

    calm, screen, log = asyncio.run(draw())
    assert calm == []
    warnings = [text for text in log if "seconds left" in text]
    assert warnings == ["10 seconds left: play, or the clock plays for you"], log
    assert "HURRY" in screen.splitlines()[0], screen
    assert screen.count("10 seconds left") == 1, screen


def test_a_new_turn_warns_again() -> None:
    state_app = _app_at_my_turn(clock=5)
    t = state_app.table
    assert t.clock_warning() and not t.clock_warning()
    t._set_clock(60)  # the next turn's clock
    t._set_clock(8)
    assert t.clock_warning()


def test_a_game_the_master_ends_leaves_no_turn_marker() -> None:
    """Before, ending the game on his own turn left ``▶`` by his name on the board."""

    async def script(d: Driver) -> None:
        await d.until(lambda: d.table is not None and d.table.my_turn, 20, "our turn")
        assert "▶" in d.screen(120, 40)
        d.line("end")
        await d.until(lambda: "Game over" in d.screen(120, 40), 10, "the end")
        screen = d.screen(120, 40)
        assert "▶" not in screen and "YOUR TURN" not in screen, screen
        d.keys(CTRL_D)

    assert asyncio.run(run_client(script, game="switch", name="ann")) == 0


def test_the_clocks_move_reads_before_the_game_end_it_led_to() -> None:
    """Before: the clock's notice stayed on the reply line, under the log's "Game over",
    so the screen read "time's up ... the clock made ben's move" after the game had ended."""

    async def draw() -> tuple[str, str]:
        state = ClientState()
        state.name = "ann"
        view = {"family": "shedding", "ruleset": "switch", "to_act": 1, "viewer": 0, "seats": 2}
        players = ("ann", "ben")
        state.handle(m.Snapshot(table="4", seq=1, state="playing", view=view, players=players))
        with create_pipe_input() as pipe:
            app = ClientApp(state, lambda _line: None, input=pipe, output=DummyOutput())
        app.show_table("4")
        session = object.__new__(Session)  # only its screen: what it shows of a notice
        session.ui = app
        clock = "time's up at table 4: the clock made ben's move: play 9S"
        for msg in (
            m.Notice(text=clock, table="4"),  # the server sends it ahead of the move
            m.TableEvent(table="4", seq=2, event={"kind": "play", "seat": 1, "cards": ["9S"]}),
            m.TableEvent(table="4", seq=3, event={"kind": "game_end", "winner": 1}),
        ):
            state.handle(msg)
            if isinstance(msg, m.Notice):
                session._show_notice(msg)
        screen = render_text(app, 80, 24)
        other = m.Notice(text="table 7 is closing", table="7")
        session._show_notice(other)  # another table's notice still reaches the reply line
        return screen, render_text(app, 80, 24)

    screen, then = asyncio.run(draw())
    assert screen.count("the clock made ben's move") == 1, screen
    assert screen.index("the clock made ben's move") < screen.index("Game over"), screen
    assert "table 7 is closing" in then, then


def test_the_ratings_a_game_changed_are_shown_after_its_end() -> None:
    """The server's ``rated`` after a game's end reaches the table's log, in words."""

    async def draw() -> str:
        state = ClientState()
        state.name = "ann"
        view = {"family": "shedding", "ruleset": "switch", "to_act": 1, "viewer": 0, "seats": 2}
        state.handle(
            m.Snapshot(table="4", seq=1, state="playing", view=view, players=("ann", "ben"))
        )
        with create_pipe_input() as pipe:
            app = ClientApp(state, lambda _line: None, input=pipe, output=DummyOutput())
        app.show_table("4")
        state.handle(m.TableEvent(table="4", seq=2, event={"kind": "game_end", "winner": 0}))
        changes = (
            {"seat": 0, "name": "ann", "before": 1500, "after": 1512},
            {"seat": 1, "name": "ben", "before": 1500, "after": 1492},
        )
        text = "ratings after game 1: ann 1500 → 1512 (+12), ben 1500 → 1492 (-8)"
        state.handle(m.Rated(table="4", game=1, changes=changes, text=text))
        return render_text(app, 80, 24)

    screen = asyncio.run(draw())
    assert "ann 1500 → 1512 (+12)" in screen, screen
    assert screen.index("Game over") < screen.index("ratings after game 1"), screen


def test_the_end_screen_shows_each_hands_points_per_player_at_80_by_24() -> None:
    """The end screen had the rating line but no table of the hands, as the browser has."""
    import engine

    async def draw() -> str:
        state = ClientState()
        state.name = "ann"
        game = engine.new_game("switch", seats=3, seed=5)
        view = {**game.view(0), "over": True, "to_act": None, "scores": [12, 30, 7]}
        players = ("ann", "ben", "bot:heuristic")
        state.handle(m.Snapshot(table="4", seq=1, state="playing", view=view, seat=0,
                                players=players))  # fmt: skip
        with create_pipe_input() as pipe:
            app = ClientApp(state, lambda _line: None, input=pipe, output=DummyOutput())
        app.show_table("4")
        for n, points in enumerate(([0, 30, 0], [12, 0, 7]), start=1):
            ev = {"kind": "hand_end", "hand_number": n, "points": points, "seat": None}
            state.handle(m.TableEvent(table="4", seq=1 + n, event=ev))
        state.handle(m.TableEvent(table="4", seq=4, event={"kind": "game_end", "winner": 1}))
        changes = ({"seat": 0, "name": "ann", "before": 1500, "after": 1492},
                   {"seat": 1, "name": "ben", "before": 1500, "after": 1512})  # fmt: skip
        state.handle(m.Rated(table="4", game=1, changes=changes, text="ratings after game 1"))
        state.handle(m.Snapshot(table="4", seq=4, state="over", view=view, seat=0,
                                players=players))  # fmt: skip
        return render_text(app, 80, 24)

    screen = asyncio.run(draw())
    lines = screen.splitlines()
    assert len(lines) <= 24 and all(len(line) <= 80 for line in lines), screen
    head = next(line for line in lines if line.lstrip().startswith("hand "))
    assert head.split()[:5] == ["hand", "1", "2", "total", "rating"], head
    rows = {line.split()[0]: line.split()[:5] for line in lines if line.split()[:1] in
            (["ann"], ["ben"], ["bot"])}  # fmt: skip
    assert rows["ann"] == ["ann", "0", "+12", "12", "-8"], screen
    assert rows["ben"] == ["ben", "+30", "0", "30", "+12"], screen
    assert "Game over" in screen, screen
