"""``switchboard bot`` against a real server on 127.0.0.1 (port 0), end to end."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
import trio
from proxy import Proxy

from client.bots.bot import BotConfig, run_bot, won
from client.net.connection import connect
from protocol import messages as m
from server.app import Server
from server.core.config import ServerConfig
from server.store.base import MemoryStore

CONFIG = ServerConfig(host="127.0.0.1", port=0, scrypt_n=2, handshake_seconds=5)
NO_CLOCK = {"turn_seconds": 0}


@pytest.fixture(autouse=True)
def _config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SWITCHBOARD_CONFIG_DIR", str(tmp_path))


def test_won_reads_the_final_view() -> None:
    assert won({"scores": [3, 9]}, 1) and not won({"scores": [3, 9]}, 0)
    assert won({"family": "shedding", "scores": [0, 0, 0], "finished": [2, 0, 1]}, 2)


async def test_bot_creates_a_table_and_plays_two_games(nursery: trio.Nursery) -> None:
    server = Server(CONFIG, MemoryStore())
    port = await nursery.start(server.serve)
    with trio.fail_after(60):
        report = await run_bot(
            BotConfig(port=port, name="robo", create="switch", seats=2, options=NO_CLOCK, games=2)
        )
    assert len(report.games) == 2
    assert all(len(g.scores) == 2 and g.seat == 0 for g in report.games)
    assert report.move_seconds and not report.errors
    server.shutdown()


async def test_two_bots_at_one_table_see_the_same_ending(nursery: trio.Nursery) -> None:
    server = Server(CONFIG, MemoryStore())
    port = await nursery.start(server.serve)
    reports = {}
    async with connect("127.0.0.1", port, name="host", secret="h" * 16) as conn:
        reply = await conn.request(m.CreateTable(ruleset="kilodney", seats=4, options=NO_CLOCK))
        table = reply.table
        await conn.watch(table)

        async def play(name: str, seat: int, strategy: str) -> None:
            config = BotConfig(port=port, name=name, strategy=strategy, join=[(table, seat)])
            reports[name] = await run_bot(config)

        with trio.fail_after(120):  # the bots end by themselves when the game is over
            async with trio.open_nursery() as bots:
                bots.start_soon(play, "ann", 0, "heuristic")
                bots.start_soon(play, "bob", 2, "random")
                while {"ann", "bob"} - set(conn.state.tables[table].players):
                    await conn.events().receive()
                await conn.request(m.StartGame(table=table))
    a, b = reports["ann"].games, reports["bob"].games
    assert len(a) == len(b) == 1
    assert a[0].scores == b[0].scores and max(a[0].scores) >= 50
    assert (a[0].seat, b[0].seat) == (0, 2)
    server.shutdown()


async def test_bot_resumes_after_drops(nursery: trio.Nursery) -> None:
    server = Server(CONFIG, MemoryStore())
    port = await nursery.start(server.serve)
    proxy = Proxy(port)
    proxy_port = await nursery.start(proxy.serve)
    moves = 0

    def on_move(table: str, action: str) -> None:
        nonlocal moves
        moves += 1
        if moves in (3, 9, 20):
            proxy.drop()

    with trio.fail_after(60):
        report = await run_bot(
            BotConfig(port=proxy_port, name="tough", create="abbott", seats=2, options=NO_CLOCK),
            on_move=on_move,
        )
    assert len(report.games) == 1
    assert report.reconnects >= 1
    assert proxy.accepted >= 2
    server.shutdown()


async def test_the_command_plays_and_reports_json(nursery: trio.Nursery) -> None:
    server = Server(CONFIG, MemoryStore())
    port = await nursery.start(server.serve)
    root = Path(__file__).resolve().parents[2]
    with trio.fail_after(60):
        done = await trio.run_process(
            [
                sys.executable,
                "-m",
                "switchboard",
                "bot",
                f"127.0.0.1:{port}",
                "--create",
                "abbott",
                "--seats",
                "2",
                "--option",
                "turn_seconds=0",
                "--strategy",
                "search:iterations=4",
                "--json",
            ],
            capture_stdout=True,
            capture_stderr=True,
            check=False,
            cwd=root,
            env=dict(os.environ),
        )
    assert done.returncode == 0, done.stderr.decode()
    report = json.loads(done.stdout.decode().strip().splitlines()[-1])
    assert len(report["games"]) == 1 and report["move_seconds"]
    server.shutdown()


async def test_the_command_says_what_is_wrong() -> None:
    done = await trio.run_process(
        [sys.executable, "-m", "switchboard", "bot", "127.0.0.1:1", "--create", "abbott"],
        capture_stdout=True,
        capture_stderr=True,
        check=False,
    )
    assert done.returncode == 1
    assert b"cannot reach 127.0.0.1:1" in done.stderr


async def test_bot_sends_a_rate_limited_act_again_and_finishes(nursery: trio.Nursery) -> None:
    """A refusal about the moment (``rate_limited``) is followed by no other message:
    the server waits for the seat to act. The bot must send the act again, not wait."""
    strict = ServerConfig(
        host="127.0.0.1",
        port=0,
        scrypt_n=2,
        trusted_addresses=(),
        commands_per_second=20.0,
        commands_burst=4,
        flood_penalty_seconds=0.3,
        flood_drop_after=1000,
    )
    server = Server(strict, MemoryStore())
    port = await nursery.start(server.serve)
    with trio.fail_after(30):
        report = await run_bot(
            BotConfig(port=port, name="hasty", create="switch", seats=2, options=NO_CLOCK)
        )
    assert len(report.games) == 1
    assert any("rate_limited" in e for e in report.errors)  # the limit was really met
    server.shutdown()
