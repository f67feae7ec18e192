"""What a person reads: the end board, the lobby, ASCII mode, the abbott squares, and the log
of a table watched mid-game."""

from __future__ import annotations

import asyncio
import random
import threading

import trio
from harness import Driver, run_client
from prompt_toolkit.formatted_text import fragment_list_to_text
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

import engine
from client.net.connection import connect
from client.net.state import ClientState
from client.terminal.app import ClientApp, render_text
from client.terminal.boards import BoardContext, render_board
from client.terminal.moves import square_problem
from protocol import messages as m


def other_client(port: int, script) -> None:
    """Run ``script(conn)`` as zoe, on a trio run of her own (in a thread)."""

    async def main() -> None:
        async with connect("127.0.0.1", port, name="zoe", secret="zoe-secret") as conn:
            await script(conn)

    trio.run(main)


def test_the_end_board_shows_out_only_for_who_went_out() -> None:
    """Before, every seat read "out" at the end, since the view's ``finished`` ranks them
    all; only a seat with no cards left went out."""
    for seed in range(6):
        game = engine.new_game("switch", seats=3, seed=seed)
        rng = random.Random(seed)
        while not game.over:
            seat = game.to_act
            game.apply(seat, rng.choice(game.legal_actions(seat)))
        view = game.view(0)
        names = ["ann", "bob", "cy"]
        ctx = BoardContext(names=names, ascii_only=True, width=80)
        drawn = fragment_list_to_text(render_board(view, ctx))
        hands = next(line for line in drawn.splitlines() if line.startswith("Hands:"))
        for seat, size in enumerate(view["hand_sizes"]):
            shown = f"{names[seat]}{' (you)' if seat == 0 else ''} {'out' if size == 0 else size}"
            assert shown in hands, (shown, hands)


def _lobby_app(players: list[str]) -> ClientApp:
    state = ClientState()
    state.name = "ann"
    state.lobby = [
        {
            "table": "12",
            "ruleset": "blackjack",
            "seats": 4,
            "players": players,
            "state": "playing",
            "ratings": [],
        }
    ]
    state.rulesets = [r.describe() for r in engine.all_rulesets()]
    with create_pipe_input() as pipe:
        return ClientApp(state, lambda _line: None, input=pipe, output=DummyOutput())


def test_the_lobby_fits_80_columns_with_its_state_and_says_each_thing_once() -> None:
    async def draw() -> tuple[str, str]:
        app = _lobby_app(["annabelle", "bartholomew", "bot:heuristic", "cyrillus"])
        plain = _lobby_app(["annabelle", "bartholomew", "bot:heuristic", "cyrillus"])
        plain.ascii_only = True
        app.run_line("table 1")  # a local command's error
        render_text(app, 80, 24)  # a first drawing finds each window's width
        render_text(plain, 80, 24)
        return render_text(app, 80, 24), render_text(plain, 80, 24)

    screen, ascii_screen = asyncio.run(draw())
    row = next(line for line in screen.splitlines() if line.startswith("12"))
    assert "playing" in row, screen  # before: cut at the panel's edge
    assert screen.count("you are not at table 1") == 1, screen  # before: log and reply line
    assert all(name in screen for name in ("abbott", "kilodney", "gamebot")), screen
    assert ascii_screen.isascii(), ascii_screen


def test_an_abbott_square_off_the_small_board_is_named_with_its_real_squares() -> None:
    small = {"family": "abbott", "size": 5}
    assert square_problem("move f6", small) == (
        "there is no square f6 on this board: its squares are a1..e5, such as c3"
    )
    assert square_problem("move e5", small) is None
    assert square_problem("move f6", {"family": "abbott", "size": 6}) is None
    assert "a1..f6" in (square_problem("move z9", {"family": "abbott", "size": 6}) or "")
    assert square_problem("move f6", {"family": "shedding"}) is None


def test_a_spectator_arriving_mid_game_sees_the_recent_log() -> None:
    """Before, a table watched mid-game had an empty log until the next move."""

    async def script(d: Driver) -> None:
        await d.until(lambda: d.table is not None and d.table.view, what="the board")
        table = d.app.current
        while d.table.seq < 8:  # a few moves, ours among them
            await d.until(lambda: d.table.my_turn or d.table.seq >= 8, what="a few moves")
            if d.table.seq < 8:
                seq = d.table.seq
                d.line(d.table.legal[0])
                await d.until(lambda s=seq: d.table.seq > s, what="our move")
        port = d.session.conn.port
        done = threading.Event()
        joined = threading.Event()

        async def zoe(conn) -> None:  # keeps the table from being all bots once we leave
            await conn.join(table)
            joined.set()
            await trio.to_thread.run_sync(done.wait)

        zoe_thread = threading.Thread(target=other_client, args=(port, zoe))
        zoe_thread.start()
        await asyncio.to_thread(joined.wait, 10)
        d.line("leave")  # a bot plays on; we come back as a spectator
        await d.until(lambda: d.app.current is None, what="the lobby")
        d.line(f"watch {table}")
        await d.until(lambda: d.app.current == table and d.table.view, what="the table")
        t = d.table
        await d.until(lambda: any(line.kind == "event" for line in t.log), what="the log")
        seqs = [line.seq for line in t.log if line.kind == "event"]
        assert seqs == sorted(seqs) and len(seqs) == len(set(seqs))
        assert seqs[0] <= t.seq - 3, (seqs, t.seq)  # events from before we arrived
        done.set()
        await asyncio.to_thread(zoe_thread.join, 10)
        d.line("quit")

    assert asyncio.run(run_client(script, game="switch", seats=4, bot_delay=0.2)) == 0


def test_a_tables_notice_goes_in_its_log_in_order() -> None:
    """The clock's word lands between the events it came with, not wherever the screen
    caught up (before: after all the events that followed, or in no log at all)."""
    from protocol import messages as m

    state = ClientState()
    state.handle(m.Snapshot(table="4", seq=1, state="playing", view={}, seat=0, players=()))
    state.handle(m.TableEvent(table="4", seq=2, event={"kind": "play", "seat": 0, "cards": ["TC"]}))
    state.handle(
        m.Notice(text="time's up at table 4: the clock made ann's move: play TC", table="4")
    )
    state.handle(m.TableEvent(table="4", seq=3, event={"kind": "draw", "seat": 1, "count": 1}))
    kinds = [line.kind for line in state.tables["4"].log]
    assert kinds == ["event", "note", "event"]
    state.handle(m.Notice(text="the server restarts in 5 minutes"))
    assert len(state.tables["4"].log) == 3


def test_the_lobby_says_which_page_of_the_tables_it_shows() -> None:
    """The server sends the lobby a page at a time: the list says which tables it shows
    of how many, and the command that shows the next ones; a lobby of one page, nothing."""
    app = _lobby_app(["ann", None, None, None])
    assert app.lobby.page_note() is None
    app.state.handle(
        m.Tables.trusted(tables=tuple(app.state.lobby) * 2, start=50, next=52, total=120)
    )
    assert app.lobby.page_note() == "tables 51-52 of 120: `tables 52` shows the next"
    assert "tables 51-52 of 120" in fragment_list_to_text(app.lobby.text(80))
    app.state.handle(m.Tables.trusted(tables=tuple(app.state.lobby[:1]), start=119, total=120))
    assert app.lobby.page_note() == "tables 120-120 of 120: `tables` shows the first"
