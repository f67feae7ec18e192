"""A tournament survives ``kill -9``: a real server process is killed in the middle of a
round; after the restart the round's table comes back where its game was, the players
sit down again and play on, and the final standings are exactly the stored games'."""

from __future__ import annotations

import contextlib
import json
import random
import signal
import sqlite3
import time
from pathlib import Path

import trio
from e2e_client import Client
from serverproc import start_server

from engine.tournament import GameResult, standings
from protocol import messages as m
from server.tournaments.audit import audit_tournaments

NAMES = ["ann", "bob", "cy", "dee"]


async def play_rounds(client: Client, name: str, seed: int) -> None:
    """Sit down at this round's table (read from the tournament, not from a notice a
    restart may have cost) and play it out, until the tournament is over."""
    rng = random.Random(seed)
    done: set[str] = set()
    while True:
        reply = await client.request(m.GetTournament(tournament=1))
        assert isinstance(reply, m.Tournament), reply
        if reply.summary["state"] == "over":
            return
        mine = [
            t["table"]
            for t in reply.tables
            if name in t["players"] and t["table"] and not t["over"] and t["table"] not in done
        ]
        if not mine:
            await trio.sleep(0.05)
            continue
        seated = await client.request(m.Join(table=mine[0]))
        assert isinstance(seated, m.Seated), seated
        await client.play(mine[0], rng)
        done.add(mine[0])


#: What a client reading from a server killed under it may raise.
GONE = (EOFError, trio.BrokenResourceError, trio.ClosedResourceError, OSError)


async def until_killed(client: Client, name: str, seed: int) -> None:
    with contextlib.suppress(*GONE):
        await play_rounds(client, name, seed)


def stored_standings(db: Path) -> list[tuple[int, str, str]]:
    """The standings worked out from the database's tournament log alone."""
    conn = sqlite3.connect(db)
    rows = conn.execute(
        "SELECT kind, data FROM tournament_log WHERE tournament = 1 ORDER BY seq"
    ).fetchall()
    conn.close()
    seats: dict[tuple[int, int], tuple[str | None, ...]] = {}
    games = []
    for kind, raw in rows:
        data = json.loads(raw)
        if kind == "seated":
            for i, t in enumerate(data["tables"]):
                seats[data["round"], i] = (*t["people"], *([None] * t["bots"]))
        elif kind == "played":
            at = seats[data["round"], data["index"]]
            games.append(GameResult(data["round"], at, tuple(data["places"]),
                                    tuple(data["scores"])))  # fmt: skip
    assert len(games) == len({(g.round, g.seats) for g in games})  # no game counted twice
    return [(s.rank, s.name, str(s.points)) for s in standings(NAMES, games)]


async def test_kill_9_mid_round_resumes_with_the_standings_exact(tmp_path: Path) -> None:
    data = tmp_path / "data"
    config = tmp_path / "switchboard.toml"
    config.write_text("[server]\nscrypt_n = 2\ntournament_countdown_seconds = 0.0\n")
    async with trio.open_nursery() as nursery:
        proc, port, _log = await start_server(nursery, data, config)
        host = await Client.connect(port, "host")
        made = await host.request(m.CreateTournament(ruleset="kilodney", rounds=2, seats=4))
        assert isinstance(made, m.Ok), made
        clients = [await Client.connect(port, n) for n in NAMES]
        for client in clients:
            assert isinstance(await client.request(m.EnterTournament(tournament=1)), m.Ok)
        started = time.time()  # (round 1's cap starts counting a moment later)
        assert isinstance(await host.request(m.StartTournament(tournament=1)), m.Ok)
        with trio.fail_after(60):
            async with trio.open_nursery() as players:
                for i, (client, name) in enumerate(zip(clients, NAMES, strict=True)):
                    players.start_soon(until_killed, client, name, i)
                # mid-round: the first table's game has had a few dozen events
                while sum(isinstance(x, m.TableEvent) for x in clients[0].inbox) < 30:
                    await trio.sleep(0.01)
                inbox = clients[0].inbox
                over = [x for x in inbox if isinstance(x, m.Snapshot) and x.state == "over"]
                assert not over  # round 1's game is still running
                proc.kill()  # SIGKILL: no goodbye, no last commit
                assert await proc.wait() == -signal.SIGKILL
        for client in [host, *clients]:
            await client.aclose()
        await trio.sleep(max(0.0, started + 3 - time.time()))  # time enough to tell apart

        proc, port, _log = await start_server(nursery, data, config)
        clients = [await Client.connect(port, n) for n in NAMES]
        # round 1's cap (30 minutes) was kept: it counts on, never from the restart
        shown = await clients[0].request(m.GetTournament(tournament=1))
        assert isinstance(shown, m.Tournament) and shown.summary["round"] == 1
        assert shown.summary["time_left"] <= 30 * 60 - (time.time() - started) + 1
        with trio.fail_after(120):
            async with trio.open_nursery() as players:
                for i, (client, name) in enumerate(zip(clients, NAMES, strict=True)):
                    players.start_soon(play_rounds, client, name, 10 + i)
        final = await clients[0].request(m.GetTournament(tournament=1))
        assert isinstance(final, m.Tournament) and final.summary["round"] == 2
        shown = [(s["rank"], s["name"], s["exact"]) for s in final.standings]
        for client in clients:
            await client.aclose()
        proc.kill()
        await proc.wait()
    assert shown == stored_standings(data / "switchboard.sqlite3")
    # the audit finds every game the tournament scored as its stored end says
    conn = sqlite3.connect(data / "switchboard.sqlite3")
    try:
        problems, figures = audit_tournaments(conn)
    finally:
        conn.close()
    assert problems == [] and figures == {"tournaments": 1, "tournament_games": 2}
