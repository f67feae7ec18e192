"""People come and go in a tournament: one withdraws (his points stay), one enters late
(the rounds' average for the rounds he missed), one sits out and comes back, one drops
and is paused, the host drops one, and the host ends it early (the running game scored
as it stands)."""

from __future__ import annotations

import dataclasses
import random
from fractions import Fraction

import trio
from e2e_client import TEST_CONFIG, Client

from protocol import messages as m
from server.app import Server
from server.store.base import MemoryStore
from server.tournaments.book import OVER, Book

CONFIG = dataclasses.replace(TEST_CONFIG, tournament_countdown_seconds=0.0)


async def round_open(book: Book, number: int) -> None:
    """Until round ``number``'s tables are all opened."""
    with trio.fail_after(20):
        while book.round < number or any(t.table is None for t in book.current_tables()):
            await trio.sleep(0.01)


def people(book: Book) -> set[str]:
    return {p for t in book.current_tables() for p in t.seats if p is not None}


async def play(client: Client, book: Book, name: str, seed: int) -> None:
    table = book.table_of(name)
    assert table is not None and table.table is not None
    seated = await client.request(m.Join(table=str(table.table)))
    assert isinstance(seated, m.Seated), seated
    await client.play(str(table.table), random.Random(seed))


async def ok(client: Client, message: m.Message) -> None:
    reply = await client.request(message)
    assert isinstance(reply, m.Ok), reply


async def test_withdraw_late_entry_sit_out_drop_and_an_early_end() -> None:
    server = Server(CONFIG, MemoryStore())
    names = ["ann", "bob", "cy", "dee", "eve", "fay"]
    async with trio.open_nursery() as nursery:
        port = await nursery.start(server.serve)
        c = {n: await Client.connect(port, n) for n in names}
        host = await Client.connect(port, "host")
        await ok(host, m.CreateTournament(ruleset="switch", rounds=4, seats=4))
        book = server.tournaments.get(1)
        for n in ["ann", "bob", "cy", "dee"]:
            await ok(c[n], m.EnterTournament(tournament=1))
        await ok(host, m.StartTournament(tournament=1))
        await round_open(book, 1)
        assert people(book) == {"ann", "bob", "cy", "dee"}
        # during round 1 (nobody has sat down: its game waits for them)
        shown = await c["ann"].request(m.GetTournament())  # yours: the one you play in
        assert isinstance(shown, m.Tournament) and shown.tournament == 1
        assert 0 < shown.summary["time_left"] <= 30 * 60  # the round's cap, counting down
        assert [t["players"] for t in shown.tables] == [list(book.current_tables()[0].seats)]
        await ok(c["dee"], m.Withdraw())
        await ok(c["eve"], m.EnterTournament(tournament=1))  # late: plays from round 2
        await ok(c["fay"], m.EnterTournament(tournament=1))
        await ok(c["cy"], m.SitOut(tournament=1))
        await c["fay"].aclose()  # drops before round 2 is seated
        with trio.fail_after(30):
            async with trio.open_nursery() as round1:
                for i, n in enumerate(["ann", "bob", "cy", "dee"]):
                    round1.start_soon(play, c[n], book, n, i)
        await round_open(book, 2)
        assert people(book) == {"ann", "bob", "eve"}  # not dee (withdrew), cy, fay (paused)
        assert book.entrants["fay"].paused and book.entrants["cy"].paused
        await ok(c["cy"], m.EnterTournament(tournament=1))  # back
        with trio.fail_after(30):
            async with trio.open_nursery() as round2:
                for i, n in enumerate(["ann", "bob", "eve"]):
                    round2.start_soon(play, c[n], book, n, i)
        await round_open(book, 3)
        assert people(book) == {"ann", "bob", "cy", "eve"}
        dropping = await c["ann"].request(m.Withdraw(tournament=1, name="bob"))
        assert isinstance(dropping, m.Error) and dropping.code == "not_master"
        await ok(host, m.Withdraw(tournament=1, name="bob"))  # the host drops a player
        assert book.entrants["bob"].withdrawn
        refused = await c["ann"].request(m.EndTournament(tournament=1))
        assert isinstance(refused, m.Error) and refused.code == "not_master"
        await ok(host, m.EndTournament(tournament=1))
        with trio.fail_after(20):
            while book.state != OVER:
                await trio.sleep(0.01)
        assert book.ended == "ended early by its host" and book.round == 3
        (last,) = [t for t in book.current_tables()]
        assert last.outcome == "abandoned"  # scored as it stood, never dropped
        table = {s.name: s for s in book.standings()}
        assert table["dee"].games == 1 and book.entrants["dee"].withdrawn  # points kept
        round1_average = sum(g.points()[p] for g in book.results() if g.round == 1
                             for p in g.people()) / 4  # fmt: skip
        assert round1_average == Fraction(1, 2)  # a 4-seat table: 1 + 2/3 + 1/3 + 0
        eve_round2 = next(g.points()["eve"] for g in book.results() if g.round == 2)
        eve_round3 = next(g.points()["eve"] for g in book.results() if g.round == 3)
        assert table["eve"].points == round1_average + eve_round2 + eve_round3
        assert table["fay"].points == round1_average  # late for round 1; a pause earns nothing
        for client in [*c.values(), host]:
            await client.aclose()
        server.shutdown()
