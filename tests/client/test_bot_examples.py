"""The twenty-line Python bot of docs/bots.md (examples/pybot.py) plays a whole game."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
import trio

from client.net.connection import connect
from protocol import messages as m
from server.app import Server
from server.core.config import ServerConfig
from server.store.base import MemoryStore

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ServerConfig(host="127.0.0.1", port=0, scrypt_n=2, handshake_seconds=5)


@pytest.mark.parametrize(("ruleset", "seats"), [("switch", 2)])
async def test_pybot_plays_a_whole_game(
    ruleset: str, seats: int, tmp_path: Path, nursery: trio.Nursery
) -> None:
    server = Server(CONFIG, MemoryStore())
    port = await nursery.start(server.serve)
    env = dict(os.environ, SWITCHBOARD_CONFIG_DIR=str(tmp_path))
    async with connect("127.0.0.1", port, name="host", secret="h" * 16) as conn:
        reply = await conn.request(
            m.CreateTable(ruleset=ruleset, seats=seats, options={"turn_seconds": 0})
        )
        table = reply.table
        await conn.watch(table)
        with trio.fail_after(90):
            async with trio.open_nursery() as inner:
                result = {}

                async def bot() -> None:
                    result["p"] = await trio.run_process(
                        [sys.executable, str(ROOT / "examples" / "pybot.py"), table, str(port)],
                        env=env,
                        capture_stdout=True,
                        capture_stderr=True,
                        check=False,
                    )

                inner.start_soon(bot)
                while "pybot" not in conn.state.tables[table].players:
                    await conn.events().receive()
                await conn.request(m.StartGame(table=table))
        state = conn.state.tables[table]
        with trio.fail_after(10):
            while state.state != "over":
                await conn.events().receive()
    p = result["p"]
    assert p.returncode == 0, p.stderr.decode()
    assert state.view is not None and state.view["over"]
    server.shutdown()
