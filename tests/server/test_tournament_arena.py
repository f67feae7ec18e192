"""A table arena over loopback: players are seated as they are free, bots fill for one
who waited, nobody sits with the same group twice in a row, and at the end the games
still running are scored as they stand."""

from __future__ import annotations

import dataclasses
import itertools
import random

import trio
from e2e_client import TEST_CONFIG, Client

from protocol import messages as m
from server.app import Server
from server.store.base import MemoryStore
from server.tournaments.book import OVER

CONFIG = dataclasses.replace(TEST_CONFIG, tournament_countdown_seconds=0.0)


async def attend(client: Client, seed: int) -> int:
    """Sit down wherever told and play, until the arena is over; the games played."""
    rng = random.Random(seed)
    games = 0
    while True:
        msg = await client.next(timeout=60)
        if isinstance(msg, m.Notice) and msg.text.startswith("tournament 1 is over"):
            return games
        if isinstance(msg, m.YourTable):  # told in a typed message, acted on unparsed
            assert msg.tournament == 1
            table = msg.table
            seated = await client.request(m.Join(table=table))
            assert isinstance(seated, m.Seated), seated
            await client.play(table, rng)
            games += 1


async def test_an_arena_seats_the_free_with_bots_filling_and_scores_what_runs_at_its_end() -> None:
    server = Server(CONFIG, MemoryStore())
    names = ["ann", "bob", "cy", "dee", "eve"]
    async with trio.open_nursery() as nursery:
        port = await nursery.start(server.serve)
        clients = {n: await Client.connect(port, n, text=(n == "eve")) for n in names}
        service = server.tournaments
        service.table_keep_seconds = 0.5  # bots' games are quick: close the scored tables
        book = await service.create(
            "host", "switch", format="arena", minutes=0.1, sizes=(4,), wait_seconds=0.5
        )
        for client in clients.values():
            reply = await client.request(m.EnterTournament(tournament=1))
            assert isinstance(reply, m.Ok), reply
        with trio.fail_after(60):
            async with trio.open_nursery() as players:
                for i, client in enumerate(clients.values()):
                    players.start_soon(attend, client, i)
                await service.start(1, "host")
        assert book.state == OVER and book.ended == "the arena's time is up"
        tables = [t for r in book.played_rounds for t in r]
        assert len(tables) >= 3 and all(t.result is not None for t in tables)
        assert any(None in t.seats for t in tables)  # bots filled for someone who waited
        for name in names:  # never the very same group of people twice in a row
            groups = [frozenset(p for p in t.seats if p) for t in tables if name in t.seats]
            pairs = itertools.pairwise(groups)
            assert all(a != b or len(a) == 1 for a, b in pairs), (name, groups)
        # nobody at two tables at once: a seating seats only players free at the time
        for number, seating in enumerate(book.played_rounds, start=1):
            seated = [p for t in seating for p in t.seats if p]
            assert len(seated) == len(set(seated)), number
        table = {s.name: s for s in book.standings()}
        assert set(table) == set(names) and sum(s.games for s in table.values()) >= 4
        for client in clients.values():
            await client.aclose()
        server.shutdown()
