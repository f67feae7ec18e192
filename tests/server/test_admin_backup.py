"""A backup taken with SQLite's online backup API while the server writes is a working
server's data: docs/operations.md's backup and restore procedure, end to end."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import trio
from e2e_client import Client

import engine
from protocol import messages as m
from server.app import Server
from server.core.config import ServerConfig
from server.operators.ops import DB_NAME
from server.players.chip_audit import audit_file

RULESET = "switch" if "switch" in engine.rulesets() else engine.rulesets()[0]


def backup(db: Path, copy: Path) -> None:
    """What ``sqlite3 DB ".backup COPY"`` does: a consistent copy, the writer never stopped."""
    src = sqlite3.connect(db)
    dst = sqlite3.connect(copy)
    with dst:
        src.backup(dst, pages=64)  # in steps, as a large file would be copied
    dst.close()
    src.close()


async def test_backup_while_running_then_restore(nursery: trio.Nursery, tmp_path: Path) -> None:
    live, restored = tmp_path / "live", tmp_path / "restored"
    config = ServerConfig(host="127.0.0.1", port=0, scrypt_n=2, data_dir=live)
    server = Server(config)
    port = await nursery.start(server.serve)
    ann = await Client.connect(port, "ann")
    tables = []
    for _ in range(3):  # every seat a server bot: the tables write as fast as they can
        table = (await ann.request(m.CreateTable(ruleset=RULESET, seats=4))).table
        assert isinstance(await ann.request(m.SetPrize(table=table, chips=100)), m.Ok)
        assert isinstance(await ann.request(m.StartGame(table=table)), m.Ok)
        tables.append(table)
    restored.mkdir()
    await trio.to_thread.run_sync(backup, live / DB_NAME, restored / DB_NAME)
    server.shutdown()

    conn = sqlite3.connect(restored / DB_NAME)
    assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert conn.execute("SELECT COUNT(*) FROM tables").fetchone() == (3,)
    conn.close()
    assert audit_file(restored / DB_NAME).problems == []  # the chips in the copy balance

    # restore: a server started on the copy has the tables, the names and the chips
    if (live / "bans.txt").exists():
        shutil.copy(live / "bans.txt", restored)
    server2 = Server(config.replace(data_dir=restored))
    port2 = await nursery.start(server2.serve)
    ann2 = await Client.connect(port2, "ann")  # the same secret still proves the name
    listed = await ann2.request(m.ListTables())
    assert sorted(t["table"] for t in listed.tables) == sorted(tables)
    chips = await ann2.request(m.GetChips())
    held = sum(t["prize"] for t in listed.tables)
    assert chips.balance + held == 1000  # prizes still held for unfinished games, or paid
    server2.ops.ledger.check()
    server2.shutdown()
