"""A player whose client died sits down again by himself: the client keeps its seat tokens
(mode 0600) and resumes them on start, with the table's log caught up; without a token, the
server's table list still shows where his name sits, and `table N` takes the seat back."""

from __future__ import annotations

import asyncio
import json
import threading
import time

import trio
from harness import CTRL_D, Driver, run_client

from server.app import Server
from server.core.config import ServerConfig


def serve_in_thread(ports: list[int], stop: threading.Event) -> threading.Thread:
    def serve() -> None:
        async def main() -> None:
            async with trio.open_nursery() as nursery:
                config = ServerConfig(host="127.0.0.1", port=0, scrypt_n=2**4, bot_delay_seconds=0)
                server = Server(config)
                ports.append(await nursery.start(server.serve))
                await trio.to_thread.run_sync(stop.wait, abandon_on_cancel=True)
                server.shutdown()

        trio.run(main)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not ports and time.monotonic() < deadline:
        time.sleep(0.01)
    return thread


def test_a_restarted_client_is_back_in_its_seat(tmp_path, monkeypatch) -> None:
    """Before: the lobby said "Your tables: none yet" and `table 1` "you are not at table 1"."""
    monkeypatch.setenv("SWITCHBOARD_CONFIG_DIR", str(tmp_path))
    ports: list[int] = []
    stop = threading.Event()
    thread = serve_in_thread(ports, stop)
    seen: dict[str, object] = {}

    async def first(d: Driver) -> None:
        d.line("create switch 2")
        await d.until(lambda: d.table is not None and d.table.seat is not None, what="seated")
        d.line("start")
        await d.until(lambda: d.table.view and d.table.seq >= 2, what="the game")
        seen["table"], seen["seat"] = d.app.current, d.table.seat
        d.keys(CTRL_D)  # the client goes away without leaving

    async def second(d: Driver) -> None:
        await d.until(lambda: d.app.current == seen["table"], what="the table, by itself")
        t = d.table
        await d.until(lambda: t.view and t.seat == seen["seat"], what="our seat")
        await d.until(lambda: any(line.kind == "event" for line in t.log), what="the log")
        assert "back in your seat" in d.screen()
        d.keys(CTRL_D)

    async def third(d: Driver) -> None:  # no token kept: the server's list says where we sit
        await d.until_screen("Your tables")
        await d.until(lambda: f"{seen['table']} seat {seen['seat'] + 1}" in d.screen(), what="list")
        assert d.app.current is None or d.app.current == seen["table"]
        d.line("lobby")
        d.line(f"table {seen['table']}")
        await d.until(lambda: d.table is not None and d.table.seat == seen["seat"], what="back")
        d.keys(CTRL_D)

    try:
        address = ("127.0.0.1", ports[0])
        assert asyncio.run(run_client(first, address=address, name="ann")) == 0
        kept = tmp_path / "seats.json"
        assert kept.stat().st_mode & 0o777 == 0o600
        held = json.loads(kept.read_text())
        assert list(held.values()) == [{seen["table"]: held[next(iter(held))][seen["table"]]}]
        assert asyncio.run(run_client(second, address=address, name="ann")) == 0
        kept.unlink()
        from client.terminal import session

        monkeypatch.setattr(session.Session, "sit_down_again", _nothing)
        assert asyncio.run(run_client(third, address=address, name="ann")) == 0
    finally:
        stop.set()
        thread.join(10)


def test_a_restarted_client_comes_back_as_the_name_typed_with_its_seats(
    tmp_path, monkeypatch
) -> None:
    """Before: a client started without --name claimed the login name (spending one of the
    address's new names), and after `name dan` a restart came back as the login name with
    none of dan's seats. Now it claims no name until one is typed, and comes back as it."""
    monkeypatch.setenv("SWITCHBOARD_CONFIG_DIR", str(tmp_path))
    ports: list[int] = []
    stop = threading.Event()
    thread = serve_in_thread(ports, stop)
    seen: dict[str, object] = {}

    async def first(d: Driver) -> None:
        await d.until_screen("no name here yet")
        assert d.session.conn.state.name is None  # nothing claimed that was not chosen
        d.line("name dan")
        # The reader folds `named` into the state before the session takes the reply and
        # makes it the name a reconnect claims: wait for the second, which follows.
        await d.until(lambda: d.session.conn.name == "dan", what="named")
        assert d.session.conn.state.name == "dan"  # a reconnect claims dan, not a name before
        d.line("create switch 2")
        await d.until(lambda: d.table is not None and d.table.seat is not None, what="seated")
        seen["table"], seen["seat"] = d.app.current, d.table.seat
        d.keys(CTRL_D)

    async def second(d: Driver) -> None:
        await d.until(lambda: d.app.current == seen["table"], what="the table, by itself")
        assert d.session.conn.state.name == "dan"
        await d.until(lambda: d.table.seat == seen["seat"], what="dan's seat")
        assert "back in your seat" in d.screen()
        d.keys(CTRL_D)

    try:
        address = ("127.0.0.1", ports[0])
        assert asyncio.run(run_client(first, address=address)) == 0
        names = tmp_path / "names.json"
        assert names.stat().st_mode & 0o777 == 0o600
        assert json.loads(names.read_text()) == {f"127.0.0.1:{ports[0]}": "dan"}
        assert asyncio.run(run_client(second, address=address)) == 0
        (tmp_path / "secrets.json").unlink()  # dan's secret is lost: the server refuses him
        assert asyncio.run(run_client(refused, address=address)) == 0
    finally:
        stop.set()
        thread.join(10)


async def refused(d: Driver) -> None:
    """A remembered name the server refuses: the client comes in with none, and says why."""
    await d.until_screen("no name here yet")
    assert "dan was refused" in d.screen()
    assert d.session.conn.state.name is None
    d.keys(CTRL_D)


async def _nothing(self) -> None:
    """A client that takes back no seat on start (the third run shows the lobby's list)."""


def test_a_dropped_player_is_marked_by_his_name_and_the_log_says_so() -> None:
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from client.net.state import ClientState
    from client.terminal.app import ClientApp, render_text
    from protocol import messages as m

    state = ClientState()
    state.name = "ann"
    state.handle(
        m.Snapshot(table="1", seq=1, state="playing", view={}, seat=0, players=("ann", "bob"))
    )
    state.handle(m.Presence(table="1", seat=1, name="bob", what="dropped"))

    async def draw() -> str:
        with create_pipe_input() as pipe:
            app = ClientApp(state, lambda _line: None, input=pipe, output=DummyOutput())
        app.show_table("1")
        return render_text(app, 80, 24)

    screen = asyncio.run(draw())
    assert "bob (gone)" in screen and "bob dropped out" in screen, screen
    state.handle(m.Presence(table="1", seat=1, name="bob", what="back"))
    screen = asyncio.run(draw())
    assert "bob (gone)" not in screen and "bob is back" in screen, screen


def test_a_restarted_client_shows_the_talk_in_its_place_among_the_plays(
    tmp_path, monkeypatch
) -> None:
    """The server catches a resumed seat up on events, never on talk (it is not numbered):
    before, a restarted client's log had the plays and none of what was said. The client
    keeps a held seat's talk (as the browser keeps its log) and puts it back in order."""
    monkeypatch.setenv("SWITCHBOARD_CONFIG_DIR", str(tmp_path))
    ports: list[int] = []
    stop = threading.Event()
    thread = serve_in_thread(ports, stop)
    seen: dict[str, int] = {}

    def talk(t) -> list:
        return [line for line in t.log if line.kind == "talk"]

    async def first(d: Driver) -> None:
        d.line("create switch 2")
        await d.until(lambda: d.table is not None and d.table.seat is not None, what="seated")
        d.line("start")
        await d.until(lambda: d.table.view and d.table.seq >= 2, what="the game")
        d.line("say good luck")
        await d.until(lambda: talk(d.table), what="the talk")
        seen["after"] = after = talk(d.table)[0].after
        while d.table.seq <= after + 1:  # a play or two after the talk
            seq = d.table.seq
            if d.table.my_turn and "draw" in d.table.legal:
                d.line("draw")
            await d.until(lambda seq=seq: d.table.seq > seq, what="a play after the talk")
        d.keys(CTRL_D)

    async def second(d: Driver) -> None:
        await d.until(lambda: d.table is not None and talk(d.table), what="the kept talk")
        t = d.table
        await d.until(
            lambda: (
                any(x.seq is not None and x.seq > seen["after"] for x in t.log)
                and any(x.seq is not None and x.seq <= seen["after"] for x in t.log)
            ),
            what="the plays before and after it",
        )
        order = [("talk", x.data["text"]) if x.kind == "talk" else x.seq for x in t.log
                 if x.kind == "talk" or x.seq is not None]  # fmt: skip
        at = order.index(("talk", "good luck"))
        assert all(s <= seen["after"] for s in order[:at]), order
        assert all(s > seen["after"] for s in order[at + 1 :]), order
        assert "good luck" in d.screen()
        d.keys(CTRL_D)

    try:
        address = ("127.0.0.1", ports[0])
        assert asyncio.run(run_client(first, address=address, name="ann")) == 0
        kept = tmp_path / "talk.json"
        assert kept.stat().st_mode & 0o777 == 0o600
        assert asyncio.run(run_client(second, address=address, name="ann")) == 0
    finally:
        stop.set()
        thread.join(10)
