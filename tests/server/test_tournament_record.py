"""A tournament's record: asked for over the wire (``get_tournament`` with ``record``), it
holds the entries, each round's tables with the game scored there and each person's
points, and the final standings; saved as a file, ``switchboard replay`` prints it."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import trio
from e2e_client import TEST_CONFIG, Client
from test_tournament_server import play_tournament

from protocol import messages as m
from server.app import Server
from server.store.base import MemoryStore

CONFIG = dataclasses.replace(TEST_CONFIG, tournament_countdown_seconds=0.0)


async def test_the_record_of_a_two_round_tournament_and_its_replay(tmp_path: Path) -> None:
    server = Server(CONFIG, MemoryStore())
    names = ["ann", "bob", "cy"]
    async with trio.open_nursery() as nursery:
        port = await nursery.start(server.serve)
        clients = [await Client.connect(port, n) for n in names]
        host = await Client.connect(port, "host")
        create = m.CreateTournament(ruleset="switch", rounds=2, seats=2)
        await play_tournament(host, clients, create, 2, 90)
        # each round's clock is pushed as it starts, before any game of the round can end
        inbox = clients[0].inbox
        told = [i for i, x in enumerate(inbox) if isinstance(x, m.YourTable)]
        assert len(told) == 2
        for i in told:
            pushed = next(x for x in inbox[i:] if isinstance(x, m.Tournament))
            assert pushed.summary["time_left"] is not None, pushed.summary
            assert 0 < pushed.summary["time_left"] <= 30 * 60
            assert not any(t["over"] for t in pushed.tables)  # no game had ended yet
        reply = await clients[0].request(m.GetTournament(tournament=1, record=True))
        plain = await clients[0].request(m.GetTournament(tournament=1))
        for client in [*clients, host]:
            await client.aclose()
        server.shutdown()
    assert isinstance(reply, m.Tournament) and isinstance(plain, m.Tournament)
    assert plain.record == {}  # only when asked for
    record = dict(reply.record)
    book = server.tournaments.get(1)
    assert record["kind"] == "tournament" and record["ruleset"] == "switch"
    assert sorted(e["name"] for e in record["entries"]) == names
    assert [r["round"] for r in record["rounds"]] == [1, 2]
    points: dict[str, Fraction] = {n: Fraction(0) for n in names}
    for played, r in zip(book.played_rounds, record["rounds"], strict=True):
        # 3 players at 2-seat tables: two tables a round, one with a bot
        assert len(r["tables"]) == 2
        for at, t in zip(played, r["tables"], strict=True):
            assert t["table"] == at.table and t["game"] == 1
            assert t["players"] == [n or "bot" for n in at.seats]
            assert at.result is not None and t["places"] == list(at.result.places)
            for name, got in t["points"].items():
                points[name] += Fraction(got)
    assert record["standings"] == list(reply.standings)
    assert {s["name"]: Fraction(s["exact"]) for s in record["standings"]} == points
    assert record["summary"]["winner"] == book.winner() == reply.standings[0]["name"]
    # saved as the terminal client saves it, ``switchboard replay`` prints it
    path = tmp_path / "tournament.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    shown = subprocess.run(
        [sys.executable, "-m", "switchboard", "replay", str(path)],
        capture_output=True, text=True, timeout=60, check=True,
    ).stdout  # fmt: skip
    assert shown.startswith("Tournament 1: switch, swiss, host host, 3 entries")
    assert "Round 1" in shown and "Round 2" in shown and "Standings" in shown
    table = record["rounds"][0]["tables"][0]
    assert f"table {table['table']} game 1 (" in shown
    assert shown.rstrip().endswith(f"{book.winner()} wins the night")
