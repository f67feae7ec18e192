"""One server per data directory: a second one refuses to start, says who holds the
directory, and touches nothing of the live server's."""

from __future__ import annotations

import sqlite3
import sys
from pathlib import Path

import pytest
import trio
from e2e_client import Client
from serverproc import start_server

from protocol import messages as m
from server.app import DB_NAME
from server.players.chip_audit import audit_file
from server.store.datalock import DataDirLock, DataDirLocked
from server.store.sqlite import SQLiteStore


def snapshot(db: Path) -> list[tuple[str, list[tuple]]]:
    """Every row of every table: what "touched nothing" compares."""
    conn = sqlite3.connect(db)
    names = [n for (n,) in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
    rows = [(n, sorted(conn.execute(f"SELECT * FROM {n}").fetchall(), key=repr)) for n in names]
    conn.close()
    return rows


async def test_a_second_server_on_a_live_data_directory_refuses_to_start(
    tmp_path: Path, nursery: trio.Nursery
) -> None:
    config = tmp_path / "switchboard.toml"
    config.write_text("[server]\nscrypt_n = 2\n")
    data = tmp_path / "data"
    live, port, _log = await start_server(nursery, data, config)
    ann = await Client.connect(port, "ann")
    table = (await ann.request(m.CreateTable(ruleset="switch", seats=2))).table
    await ann.request(m.Join(table=table, seat=0))
    assert isinstance(await ann.request(m.SetPrize(table=table, chips=100)), m.Ok)
    before = snapshot(data / DB_NAME)
    second = await trio.run_process(
        [sys.executable, "-m", "switchboard", "serve", "--host", "127.0.0.1",
         "--port", str(port), "--data", str(data), "--config", str(config)],
        capture_stderr=True, check=False,
    )  # fmt: skip
    said = second.stderr.decode()
    assert second.returncode == 1, said
    assert f"in use by process {live.pid}" in said
    assert snapshot(data / DB_NAME) == before
    # the live server carries on: its chips move as before
    assert isinstance(await ann.request(m.SetPrize(table=table, chips=250)), m.Ok)
    assert (await ann.request(m.GetChips())).balance == 750
    await ann.aclose()
    assert audit_file(data / DB_NAME).problems == []


async def test_the_store_holds_the_lock_until_it_closes(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / DB_NAME)
    store.load()
    with pytest.raises(DataDirLocked) as refused:
        SQLiteStore(tmp_path / DB_NAME).load()
    assert refused.value.pid is not None
    await store.aclose()
    again = SQLiteStore(tmp_path / DB_NAME)
    again.load()  # released on close
    await again.aclose()
    lock = DataDirLock(tmp_path)
    lock.acquire()
    lock.release()
