"""A Swiss tournament end to end over loopback: players (bots over msgpack) are told their
table each round, sit down and play; server bots fill the gaps; the standings at the end
are the stored games'."""

from __future__ import annotations

import dataclasses
import logging
import random
from fractions import Fraction

import pytest
import trio
from e2e_client import TEST_CONFIG, Client

from engine.places import places_from_scores
from engine.tournament import GameResult, standings
from protocol import messages as m
from server.app import Server
from server.store.base import MemoryStore
from server.tournaments.book import OVER

CONFIG = dataclasses.replace(TEST_CONFIG, tournament_countdown_seconds=0.0)


async def attend(client: Client, rounds: int, seed: int) -> list[int]:
    """Sit down at each round's table when told, play it out; the tables played at."""
    rng = random.Random(seed)
    played = []
    while True:
        msg = await client.next(timeout=60)
        if isinstance(msg, m.Notice) and "is over" in msg.text:
            return played
        if isinstance(msg, m.YourTable):  # told in a typed message, acted on unparsed
            table = msg.table
            seated = await client.request(m.Join(table=table))
            assert isinstance(seated, m.Seated), seated
            over = await client.play(table, rng)
            assert over.state == "over"
            played.append(int(table))


async def play_tournament(
    host: Client, clients: list[Client], create: m.CreateTournament, rounds: int, seconds: float
) -> None:
    """Over the wire: the host makes tournament 1 (``create``), every client enters it, and
    the host starts it while each client attends its ``rounds`` rounds, all within
    ``seconds``."""
    made = await host.request(create)
    assert isinstance(made, m.Ok), made
    for client in clients:
        assert isinstance(await client.request(m.EnterTournament(tournament=1)), m.Ok)
    with trio.fail_after(seconds):
        async with trio.open_nursery() as players:
            for i, client in enumerate(clients):
                players.start_soon(attend, client, rounds, i)
            assert isinstance(await host.request(m.StartTournament(tournament=1)), m.Ok)


async def test_a_three_round_swiss_with_bots_filling_to_final_standings() -> None:
    """Six players (one in text mode) enter over the wire; a host starts it; three
    rounds at 4-seat tables, a bot at each; every client reads the same final standings."""
    store = MemoryStore()
    server = Server(CONFIG, store)
    names = [f"p{i}" for i in range(6)]
    async with trio.open_nursery() as nursery:
        port = await nursery.start(server.serve)
        clients = [await Client.connect(port, n, text=(n == "p5")) for n in names]
        host = await Client.connect(port, "host")  # hosts, does not play
        made = await host.request(m.CreateTournament(ruleset="switch", rounds=3, seats=4))
        assert isinstance(made, m.Ok) and "tournament 1 is open" in made.text, made
        listed = await clients[1].request(m.ListTournaments())
        assert isinstance(listed, m.Tournaments) and listed.tournaments[0]["state"] == "waiting"
        for client in clients:
            entered = await client.request(m.EnterTournament(tournament=1))
            assert isinstance(entered, m.Ok), entered
        again = await clients[1].request(m.EnterTournament(tournament=1))
        assert isinstance(again, m.Error) and again.code == "bad_state"
        refused = await clients[1].request(m.StartTournament(tournament=1))
        assert isinstance(refused, m.Error) and refused.code == "not_master"
        book = server.tournaments.get(1)
        tables: dict[str, list[int]] = {}

        async def run(client: Client, name: str, seed: int) -> None:
            tables[name] = await attend(client, 3, seed)

        with trio.fail_after(120):
            async with trio.open_nursery() as players:
                for i, (client, name) in enumerate(zip(clients, names, strict=True)):
                    players.start_soon(run, client, name, i)
                started = await host.request(m.StartTournament(tournament=1))
                assert isinstance(started, m.Ok), started
        assert book.state == OVER and book.round == 3
        # 6 players at 4-seat tables: two tables a round, one bot each.
        for tables_of_round in book.played_rounds:
            assert sorted(len([s for s in t.seats if s is None]) for t in tables_of_round) == [1, 1]
        assert all(len(t) == 3 for t in tables.values())
        # The standings are the stored games', rebuilt from the log alone ...
        log = store.state.tournaments[book.number]
        assert [e.kind for e in log].count("played") == 6
        games = []
        for e in log:
            if e.kind == "played":
                seats = book.played_rounds[e.data["round"] - 1][e.data["index"]].seats
                places, scores = tuple(e.data["places"]), tuple(e.data["scores"])
                games.append(GameResult(e.data["round"], seats, places, scores))
        assert standings(names, games) == book.standings()
        assert sum(s.points for s in book.standings()) <= Fraction(6 * 3)
        # ... and every client, whatever it speaks, reads the same.
        seen = []
        for client in clients:
            reply = await client.request(m.GetTournament(tournament=1))
            assert isinstance(reply, m.Tournament), reply
            seen.append([(s["rank"], s["name"], s["exact"]) for s in reply.standings])
        assert all(x == seen[0] for x in seen) and len(seen[0]) == 6
        assert seen[0] == [(s.rank, s.name, str(s.points)) for s in book.standings()]
        for client in [*clients, host]:
            await client.aclose()
        server.shutdown()


async def test_a_round_out_of_time_ends_each_game_at_its_hand_end_scored_as_it_stands() -> None:
    """Kilodney to 500 points cannot finish in a round of a second: when the cap runs out,
    each game ends as its hand in progress ends, abandoned, its places from the scores."""
    store = MemoryStore()
    server = Server(CONFIG, store)
    names = [f"k{i}" for i in range(4)]
    async with trio.open_nursery() as nursery:
        port = await nursery.start(server.serve)
        clients = [await Client.connect(port, n) for n in names]
        service = server.tournaments
        book = await service.create(
            "host", "kilodney", rounds=1, minutes=1 / 60, sizes=(4,), options={"target": 500}
        )
        for name in names:
            await service.enter(book.number, name)
        with trio.fail_after(60):  # far less than the grace: the hand's end ended it
            async with trio.open_nursery() as players:
                for i, client in enumerate(clients):
                    players.start_soon(attend, client, 1, i)
                await service.start(book.number, "host")
        assert book.state == OVER
        (played,) = [e.data for e in store.state.tournaments[book.number] if e.kind == "played"]
        assert played["outcome"] == "abandoned"
        assert played["places"] == places_from_scores(played["scores"])
        assert max(played["scores"]) < 500 and any(played["scores"])  # a hand was scored
        for client in clients:
            await client.aclose()
        server.shutdown()


async def test_a_final_table_of_the_top_two_decides_the_winner() -> None:
    store = MemoryStore()
    server = Server(CONFIG, store)
    names = [f"f{i}" for i in range(4)]
    async with trio.open_nursery() as nursery:
        port = await nursery.start(server.serve)
        clients = [await Client.connect(port, n) for n in names]
        host = await Client.connect(port, "host")
        create = m.CreateTournament(ruleset="switch", rounds=1, seats=4, final=2)
        await play_tournament(host, clients, create, 2, 60)
        book = server.tournaments.get(1)
        assert book.state == OVER and book.final_round == 2
        (final,) = book.played_rounds[1]
        top_two = [s.name for s in standings(names, book.results()[:1])][:2]
        assert [p for p in final.seats if p] == top_two and final.seats.count(None) == 2
        assert final.result is not None
        people = [(p, n) for n, p in zip(final.seats, final.result.places, strict=True) if n]
        best = min(p for p, _ in people)
        assert book.winner() in [n for p, n in people if p == best]  # a bot wins nothing
        over = [x for x in clients[0].inbox if isinstance(x, m.Notice) and "is over" in x.text]
        assert over and over[-1].text.endswith(f"{book.winner()} wins")
        listed = await host.request(m.ListTournaments())
        assert isinstance(listed, m.Tournaments)
        assert listed.tournaments[0]["winner"] == book.winner()
        for client in [*clients, host]:
            await client.aclose()
        server.shutdown()


async def test_a_tournament_of_one_round_says_so_in_the_singular(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="switchboard")
    server = Server(CONFIG, MemoryStore())
    async with trio.open_nursery() as nursery:
        port = await nursery.start(server.serve)
        host = await Client.connect(port, "host")
        made = await host.request(m.CreateTournament(ruleset="switch", rounds=1, seats=4))
        assert isinstance(made, m.Ok) and "switch, 1 round of 30 minutes;" in made.text, made
        logged = [r.getMessage() for r in caplog.records if "created: switch" in r.getMessage()]
        assert logged == ["tournament 1 created: switch, 1 round, by host"], logged
        await host.aclose()
        server.shutdown()
