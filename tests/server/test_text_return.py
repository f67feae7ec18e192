"""A person at ``nc`` across a server restart: the connection ends with the goodbye (``nc``
ends with it, rather than waiting for a key), and the name claimed again is told where it
sits, and ``back`` or ``look`` sits it there again."""

from __future__ import annotations

import logging
import re
import select

import pytest
import trio
from test_restart_gm import MakeServer, make_server, serving  # the fixture, reused

__all__ = ["make_server"]


class Person:
    """A person at ``nc``: lines typed, sentences read (text mode's own format)."""

    def __init__(self, stream: trio.SocketStream) -> None:
        self.stream = stream
        self.buffer = b""
        self.said: list[str] = []

    @classmethod
    async def connect(cls, port: int) -> Person:
        person = cls(await trio.open_tcp_stream("127.0.0.1", port))
        await person.type("")  # a bare Enter: the greeting
        await person.line_with("Switchboard: ")
        return person

    async def type(self, line: str) -> None:
        await self.stream.send_all(line.encode() + b"\n")

    async def line_with(self, text: str, timeout: float = 10) -> str:
        """The next sentence that holds ``text``, its continuation lines (broken at 80
        columns, indented by two spaces) joined to it; what came before is kept in
        ``said``, line by line as it was written."""
        with trio.fail_after(timeout):
            while True:
                await self._fill()
                raw, self.buffer = self.buffer.split(b"\n", 1)
                lines = [raw.decode()]
                while self.buffer.startswith(b"  ") and b"\n" in self.buffer:
                    raw, self.buffer = self.buffer.split(b"\n", 1)  # written with it
                    lines.append(raw.decode())
                self.said += lines
                sentence = " ".join(line.strip() for line in lines)
                if text in sentence:
                    return sentence

    async def _fill(self) -> None:
        while b"\n" not in self.buffer:
            data = await self.stream.receive_some(65536)
            assert data, f"the server closed; it said: {self.said[-5:]}"
            self.buffer += data

    async def hung_up(self, timeout: float = 3) -> bool:
        """Whether the server ends the connection so that ``nc`` ends too: not only the
        end of the stream (``nc`` then waits for a key), a reset (``POLLHUP``)."""
        poll = select.poll()
        poll.register(self.stream.socket.fileno(), select.POLLOUT)
        with trio.move_on_after(timeout):
            while not any(events & select.POLLHUP for _fd, events in poll.poll(0)):
                await trio.sleep(0.01)
            return True
        return False


async def test_nc_ends_with_the_goodbye_of_quit(make_server: MakeServer) -> None:
    async with serving(make_server) as (_server, port):
        person = await Person.connect(port)
        await person.type("name ann")
        await person.line_with("named")
        await person.type("quit")
        assert await person.line_with("goodbye") == "goodbye quit · goodbye"
        assert await person.hung_up()


async def test_the_console_counts_the_connections_it_shuts_down_in_words(
    make_server: MakeServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="switchboard.server")
    async with serving(make_server) as (_server, port):
        ann = await Person.connect(port)
        await ann.type("name ann")
        await ann.line_with("named")
    assert "goodbye shutdown" in await ann.line_with("goodbye")
    said = [r.getMessage() for r in caplog.records if "shutting down:" in r.getMessage()]
    assert said == ["shutting down: 1 connection"], said


async def test_a_returning_name_is_told_its_seat_and_takes_it_back(
    make_server: MakeServer,
) -> None:
    async with serving(make_server) as (_server, port):
        eve = await Person.connect(port)
        await eve.type("name eve")
        named = await eve.line_with("named")
        secret = re.search(r"Your secret is (\S+)", named)
        assert secret is not None, named
        await eve.type("create kilodney 4")
        await eve.line_with("you sit down at it")
        await eve.type("start")
        await eve.line_with("kilodney, playing")
    # the server stopped: eve's nc was told, and ends with it
    assert "goodbye shutdown" in await eve.line_with("goodbye")
    assert await eve.hung_up()

    async with serving(make_server) as (_server, port):
        eve = await Person.connect(port)
        await eve.type(f"name eve {secret.group(1)}")
        assert await eve.line_with("named") == "named · you are eve"
        where = await eve.line_with("notice")
        assert where.endswith(
            "your name holds a seat at table 1 (kilodney, playing): back sits you there again"
        ), where
        welcome = next(line for line in eve.said if line.startswith("welcome"))
        assert "name YOURNAME" not in welcome  # she typed her name first
        await eve.type("look")  # the current table is hers: the seat, taken again
        assert (await eve.line_with("seated 1")).startswith("seated 1 · you sit in seat")
        view = await eve.line_with("table 1, kilodney, playing")
        assert "eve (you" in view, view
        # every line fits an 80-column terminal, broken between words, not inside one
        assert all(len(line) <= 80 for line in eve.said), eve.said
        assert any(line.startswith("  ") for line in eve.said)  # some sentence was broken
        assert " ".join(line.strip() for line in eve.said).count(" seats: ") >= 1

        other = await Person.connect(port)  # a second connection of hers: back, by name
        await other.type(f"name eve {secret.group(1)}")
        await other.line_with("your name holds a seat at table 1")
        await other.type("back")
        await other.line_with("seated 1")
        assert "was taken up elsewhere" in await eve.line_with("taken up elsewhere")


async def test_a_name_at_two_tables_is_told_both(make_server: MakeServer) -> None:
    async with serving(make_server) as (_server, port):
        eve = await Person.connect(port)
        await eve.type("name eve s3cret")
        await eve.line_with("named")
        for create in ("create kilodney 4", "create switch 2"):
            await eve.type(create)
            await eve.line_with("you sit down at it")
    async with serving(make_server) as (_server, port):
        eve = await Person.connect(port)
        await eve.type("name eve s3cret")
        where = await eve.line_with("notice")
        assert where.endswith(
            "your name holds seats at table 1 (kilodney, waiting), table 2 (switch, waiting):"
            " back 1 (or back TABLE) sits you there again"
        ), where
        await eve.type("back 2")
        assert (await eve.line_with("seated")).startswith("seated 2 ")


async def test_a_name_with_no_seat_is_told_nothing_and_back_says_why(
    make_server: MakeServer,
) -> None:
    async with serving(make_server) as (_server, port):
        ann = await Person.connect(port)
        await ann.type("name ann")
        await ann.line_with("named")
        await ann.type("back")
        error = await ann.line_with("error")
        assert "back to which table?" in error, error
        assert not any(line.startswith("notice") for line in ann.said)
