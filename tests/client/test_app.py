"""The application's screens, driven by keys through a pipe and read back as text."""

from __future__ import annotations

import asyncio
import io
import threading
import time

import pytest
import trio
from harness import CTRL_D, ENTER, F1, Driver, run_client

from client.net.connection import connect
from protocol import messages as m


@pytest.fixture(autouse=True)
def private_config(tmp_path, monkeypatch) -> None:
    """Secrets the client makes go to a temporary directory, not the user's."""
    monkeypatch.setenv("SWITCHBOARD_CONFIG_DIR", str(tmp_path))


def other_client(port: int, script) -> None:
    """Run ``script(conn)`` as another person, on a trio run of its own (in a thread)."""

    async def main() -> None:
        async with connect("127.0.0.1", port, name="zoe", secret="zoe-secret") as conn:
            await script(conn)

    trio.run(main)


def test_table_talk_resize_help_and_quit() -> None:
    async def script(d: Driver) -> None:
        await d.until(lambda: d.table is not None and d.table.view, what="the board")
        table = d.app.current
        port = d.session.conn.port

        async def watch_and_talk(conn) -> None:
            await conn.watch(table)
            await conn.say(table, "hello from the rail")

        await asyncio.to_thread(other_client, port, watch_and_talk)
        screen = await d.until_screen("zoe: hello from the rail")
        assert "Your hand" in screen
        # Our own talk, with the ' shortcut.
        d.line("'nice to meet you")
        await d.until_screen("ann: nice to meet you")
        # A wide terminal, then a narrow one: the board is redrawn for each size.
        d.resize(120, 40)
        wide = d.screen()
        assert "Players" in wide and "Your hand" in wide
        assert max(len(line) for line in wide.splitlines()) > 80
        # Wide enough for talk to have its own pane, to the right of the events.
        talk_line = next(line for line in wide.splitlines() if "zoe: hello from the rail" in line)
        assert talk_line.index("zoe:") > 60, wide
        d.resize(60, 20)
        narrow = d.screen()
        assert "Players" not in narrow  # the side panel gives way below 70 columns
        assert "Your hand" in narrow
        assert all(len(line) <= 60 for line in narrow.splitlines())
        d.resize(80, 24)
        # Help on F1 and on `help`; Escape closes it.
        d.keys(F1)
        help_screen = await d.until_screen("Escape or F1 closes this help")
        assert "play CARD" in help_screen
        d.keys("\x1b[6~")  # PgDn: the help is taller than 24 rows, and scrolls
        await d.until_screen("Game master: bot SEAT [STRATEGY], unseat SEAT")  # ann hosts
        d.keys(F1)
        await d.until(lambda: "closes this help" not in d.screen(), what="help to close")
        d.line("help")
        await d.until_screen("Escape or F1 closes this help")
        d.keys("\x1b")
        await d.until(lambda: "closes this help" not in d.screen(), what="help to close")
        d.line("help join")
        await d.until_screen("join [TABLE [SEAT]]")
        # `ascii` switches the whole screen, frames and rules included, at once.
        assert not d.screen().isascii()
        d.line("ascii")
        await d.until(lambda: d.screen().isascii(), what="an all-ASCII screen")
        d.line("ascii")
        # A typo gets a suggestion.
        d.line("drwa")
        await d.until_screen("did you mean 'draw'?")
        d.keys(CTRL_D)

    assert asyncio.run(run_client(script, game="switch", name="ann")) == 0


def test_completion_offers_legal_actions() -> None:
    async def script(d: Driver) -> None:
        await d.until(lambda: d.table is not None and d.table.my_turn, what="our turn")
        verb = d.table.legal[0].split()[0]
        d.keys(verb[:2] + "\t")
        await d.until(lambda: verb in d.app.input_field.text, what="the verb completed")
        d.keys(" \t")
        # Tab again shows the menu of what is legal now.
        await d.until_screen("legal now")
        d.keys("\x15")  # Ctrl-U clears the line
        d.keys(CTRL_D)

    assert asyncio.run(run_client(script, game="abbott", name="ann")) == 0


def test_lobby_filter_picker_create_and_watch() -> None:
    """Connect to a running server (an address given): the lobby lists its tables, the filter
    narrows them, the picker creates a table, and a table can be watched."""
    ports: list[int] = []
    stop = threading.Event()

    def serve() -> None:
        async def main() -> None:
            from server.app import Server
            from server.core.config import ServerConfig

            async with trio.open_nursery() as nursery:
                config = ServerConfig(
                    host="127.0.0.1", port=0, scrypt_n=2**4, bot_delay_seconds=0.02
                )
                server = Server(config)
                port = await nursery.start(server.serve)
                async with connect("127.0.0.1", port, name="kim", secret="k") as kim:
                    await kim.request(m.CreateTable(ruleset="kilodney", seats=4))
                    made = await kim.request(m.CreateTable(ruleset="abbott", seats=4))
                    await kim.request(m.StartGame(table=made.table))  # four bots play
                    ports.append(port)
                    await trio.to_thread.run_sync(stop.wait, abandon_on_cancel=True)
                server.shutdown()

        trio.run(main)

    async def script(d: Driver) -> None:
        await d.until_screen("kilodney")
        screen = d.screen()
        assert "abbott" in screen and "lobby" in screen
        d.line("filter kilo")
        await d.until(lambda: "abbott " not in d.screen().split("games:")[0], what="the filter")
        d.line("filter")
        # The picker: `create` opens the list of rulesets; Enter picks one.
        d.line("create")
        await d.until_screen("New table")
        d.keys("\x1b[B")  # Down: the second ruleset
        d.keys(ENTER)
        await d.until(lambda: d.app.input_field.text.startswith("create "), what="prefill")
        chosen = d.app.input_field.text.split()[1]
        d.keys(ENTER)
        await d.until(lambda: d.table is not None, what="the new table")
        await d.until_screen(f"table {d.app.current} {chosen}")
        d.line("lobby")
        await d.until_screen("Your tables")
        # Watch kim's abbott game: the board, no hand of ours.
        abbott = next(t["table"] for t in d.state.lobby if t["ruleset"] == "abbott")
        d.line(f"watch {abbott}")
        await d.until(lambda: d.app.current == abbott and d.table.view, what="watching")
        screen = d.screen()
        assert "watching" in screen and "a   b   c" in screen
        # The game goes on under our eyes: the board follows the events.
        seq = d.table.seq
        await d.until(lambda: d.table.seq > seq + 3 and not d.table.stale, what="the board")
        assert d.table.view["to_act"] == d.table.to_act or d.table.view["over"]
        d.keys(CTRL_D)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 10
        while not ports and time.monotonic() < deadline:
            time.sleep(0.01)
        code = asyncio.run(run_client(script, address=("127.0.0.1", ports[0]), name="ann"))
        assert code == 0
    finally:
        stop.set()
        thread.join(10)


def test_quit_leaves_the_terminal_as_it_was() -> None:
    """Ctrl-D ends the application and the bytes written end by leaving the alternate
    screen and showing the cursor again."""
    from prompt_toolkit.data_structures import Size
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output.vt100 import Vt100_Output

    from switchboard.play import play_async

    class Sink(io.StringIO):
        encoding = "utf-8"

        def isatty(self) -> bool:
            return True

    sink = Sink()
    output = Vt100_Output(sink, lambda: Size(rows=24, columns=80), term="xterm")

    async def main() -> int:
        with create_pipe_input() as pipe:
            ready = asyncio.Event()
            task = asyncio.ensure_future(
                play_async(
                    None,
                    game="kilodney",
                    name="ann",
                    bot_delay=0,
                    input=pipe,
                    output=output,
                    on_ready=lambda app, s: ready.set(),
                )
            )
            await asyncio.wait_for(ready.wait(), 15)
            await asyncio.sleep(0.2)
            pipe.send_text(CTRL_D)
            return await asyncio.wait_for(task, 10)

    assert asyncio.run(main()) == 0
    written = sink.getvalue()
    assert "\x1b[?1049h" in written  # entered the alternate screen
    tail = written[written.rindex("\x1b[?1049l") :]  # ...and left it at the end
    assert "\x1b[?25h" in written[-200:] or "\x1b[?25h" in tail


def test_a_server_that_is_not_there_is_said_plainly() -> None:
    """No traceback for a person who mistyped the address: one sentence, status 1."""
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from switchboard.play import explain, play_async

    sock = __import__("socket").socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()  # nothing listens there now

    async def main() -> BaseException:
        with create_pipe_input() as pipe:
            try:
                await play_async(("127.0.0.1", port), name="ann", input=pipe, output=DummyOutput())
            except BaseException as exc:
                return exc
        raise AssertionError("connecting to nothing succeeded")

    failure = asyncio.run(asyncio.wait_for(main(), 20))
    message = explain(failure)
    assert message is not None and message.startswith("cannot connect")


def test_the_client_rides_out_a_dropped_connection() -> None:
    """The socket is cut mid-hand: the screen says so, the client reconnects and resumes its
    seat by itself, and the person plays on to the end of the hand."""
    from proxy import Proxy
    from test_play import play_my_turns

    box: dict[str, object] = {}
    stop = threading.Event()

    def serve() -> None:
        async def main() -> None:
            from server.app import Server
            from server.core.config import ServerConfig

            async with trio.open_nursery() as nursery:
                config = ServerConfig(host="127.0.0.1", port=0, scrypt_n=2**4)
                server = Server(config)
                port = await nursery.start(server.serve)
                proxy = Proxy(port)
                box["port"] = await nursery.start(proxy.serve)
                box["proxy"], box["token"] = proxy, trio.lowlevel.current_trio_token()
                await trio.to_thread.run_sync(stop.wait, abandon_on_cancel=True)
                server.shutdown()
                nursery.cancel_scope.cancel()

        trio.run(main)

    async def script(d: Driver) -> None:
        d.line("create kilodney 4")
        await d.until(lambda: d.table is not None, what="the table")
        d.line("start")
        await d.until(lambda: d.table.view and d.table.my_turn, what="our turn")
        proxy = box["proxy"]
        cut = trio.from_thread.run_sync(proxy.drop, trio_token=box["token"])
        assert cut == 1
        await d.until(lambda: d.session.conn.connects == 2, what="the reconnect")
        await d.until_screen("reconnected")
        await play_my_turns(d)
        seqs = [e.seq for e in d.table.log if e.kind == "event"]
        assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))  # nothing lost or repeated
        d.keys(CTRL_D)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 10
        while "port" not in box and time.monotonic() < deadline:
            time.sleep(0.01)
        code = asyncio.run(run_client(script, address=("127.0.0.1", box["port"]), name="ann"))
        assert code == 0
    finally:
        stop.set()
        thread.join(10)
