"""The shell bot (examples/shellbot.sh) plays a whole game against a real server.

The server runs in-process on 127.0.0.1, port 0; a controller connection opens
the table and starts the game once the bot has sat down; the script must play
to the end and exit by itself. It is run twice: through ``nc`` (when the
machine has it) and through bash's ``/dev/tcp`` (always).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
import trio

from client.net.connection import connect
from protocol import messages as m
from server.app import Server
from server.core.config import ServerConfig
from server.store.base import MemoryStore

SCRIPT = Path(__file__).resolve().parent.parent / "examples" / "shellbot.sh"
CONFIG = ServerConfig(host="127.0.0.1", port=0, scrypt_n=2, handshake_seconds=5)


@pytest.mark.parametrize(
    "via",
    [
        pytest.param(
            "nc", marks=pytest.mark.skipif(shutil.which("nc") is None, reason="no nc here")
        ),
        "devtcp",
    ],
)
@pytest.mark.parametrize(("ruleset", "seats"), [("switch", 2), ("abbott", 2)])
async def test_shell_bot_plays_a_whole_game(
    via: str, ruleset: str, seats: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SWITCHBOARD_CONFIG_DIR", str(tmp_path))
    async with trio.open_nursery() as nursery:
        server = Server(CONFIG, MemoryStore())
        port = await nursery.start(server.serve)
        async with connect("127.0.0.1", port, name="master", secret="s" * 16) as conn:
            reply = await conn.request(
                m.CreateTable(ruleset=ruleset, seats=seats, options={"turn_seconds": 0})
            )
            table = reply.table
            await conn.watch(table)
            env = dict(os.environ, SWITCHBOARD_PORT=str(port))
            if via == "devtcp":
                env["SHELLBOT_DEVTCP"] = "1"
            out, err = tmp_path / "out", tmp_path / "err"
            with out.open("w") as fo, err.open("w") as fe:
                proc = await trio.lowlevel.open_process(
                    ["bash", str(SCRIPT), table, "shelly"], env=env, stdout=fo, stderr=fe
                )
            try:
                with trio.fail_after(20):
                    while "shelly" not in conn.state.tables[table].players:
                        await conn.events().receive()
                await conn.request(m.StartGame(table=table))
                with trio.fail_after(60):
                    await proc.wait()
            finally:
                if proc.returncode is None:
                    proc.kill()
            state = conn.state.tables[table]
            with trio.fail_after(10):
                while state.state != "over":
                    await conn.events().receive()
        server.shutdown()
    assert proc.returncode == 0, err.read_text()
    text = out.read_text()
    assert "moves at table" in text, err.read_text()
    assert int(text.split("shellbot: ")[1].split()[0]) > 0
    assert state.view is not None and state.view["over"]
