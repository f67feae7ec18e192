"""Each player is told his table in a typed ``your_table`` message (no English to parse);
a person at ``nc`` reads it as a sentence, and the table becomes his current one, so a
bare ``look`` sits him in the seat held there and shows the table."""

from __future__ import annotations

import dataclasses

import trio
from e2e_client import TEST_CONFIG, Client

from protocol import messages as m
from server.app import Server
from server.store.base import MemoryStore

CONFIG = dataclasses.replace(TEST_CONFIG, tournament_countdown_seconds=30.0)


class Person:
    """A person at ``nc``: lines typed, sentences read."""

    def __init__(self, stream: trio.SocketStream) -> None:
        self.stream = stream
        self.buffer = b""

    async def say(self, line: str) -> None:
        await self.stream.send_all(line.encode() + b"\n")

    async def until(self, start: str) -> str:
        """The next line that begins with ``start`` (the others are passed over)."""
        with trio.fail_after(10):
            while True:
                while b"\n" not in self.buffer:
                    self.buffer += await self.stream.receive_some(65536)
                line, self.buffer = self.buffer.split(b"\n", 1)
                if line.decode().startswith(start):
                    return line.decode()


async def test_each_player_is_told_his_table_and_text_mode_looks_and_joins_there() -> None:
    server = Server(CONFIG, MemoryStore())
    async with trio.open_nursery() as nursery:
        port = await nursery.start(server.serve)
        bots = [await Client.connect(port, n) for n in ("ann", "bob", "cy")]
        person = Person(await trio.open_tcp_stream("127.0.0.1", port))
        await person.say("name dee pw")
        await person.until("named")
        host = await Client.connect(port, "host")
        made = await host.request(m.CreateTournament(ruleset="switch", rounds=1, seats=4))
        assert isinstance(made, m.Ok), made
        for bot in bots:
            assert isinstance(await bot.request(m.EnterTournament(tournament=1)), m.Ok)
        await person.say("enter 1")
        await person.until("ok")
        assert isinstance(await host.request(m.StartTournament(tournament=1)), m.Ok)
        told = []
        for bot in bots:
            msg = await bot.wait_for(lambda x: isinstance(x, m.YourTable))
            assert isinstance(msg, m.YourTable)
            told.append(msg)
        tables = {t.table for t in told}
        seats = [t.seat for t in told]
        assert len(tables) == 1 and len(set(seats)) == 3
        (table,) = tables
        assert all(t.round == 1 and t.tournament == 1 and not t.final for t in told)
        line = await person.until("your table")
        assert line.startswith(f"your table for round 1 is {table} (seat "), line
        await person.say("look")  # no table named: the one he was told, his seat taken
        seated = await person.until("seated")
        assert seated.startswith(f"seated {table} · you sit in seat {line.split('seat ')[1][0]}")
        view = await person.until("view")
        assert view.startswith(f"view {table} · table {table}, switch"), view
        assert "dee (you)" in view, view
        for client in [*bots, host]:
            await client.aclose()
        await person.stream.aclose()
        server.shutdown()
