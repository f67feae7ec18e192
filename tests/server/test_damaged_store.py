"""A database file that cannot be read (cut short, overwritten) stops the server with one
line that says what to do, not a traceback, and a non-zero exit; nothing is written to it."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest

from server.app import DB_NAME
from server.store.datalock import DataDirLock
from server.store.sqlite import SQLiteStore, StoreDamaged, migrate


def a_damaged_store(data: Path) -> Path:
    """A store with some rows, everything in its main file, then cut to half its size."""
    data.mkdir()
    db = data / DB_NAME
    with closing(sqlite3.connect(db)) as conn:
        migrate(conn)
        conn.executemany(
            "INSERT INTO names (name, display, salt, digest, created) VALUES (?, ?, ?, ?, 0)",
            [(f"n{i}", f"n{i}", b"s" * 16, b"d" * 64) for i in range(2000)],
        )
        conn.commit()
    size = db.stat().st_size
    with db.open("r+b") as f:
        f.truncate(size // 2)
    return db


async def test_loading_a_damaged_store_says_what_to_do_and_releases_the_directory(
    tmp_path: Path,
) -> None:
    db = a_damaged_store(tmp_path / "data")
    with pytest.raises(StoreDamaged) as caught:
        SQLiteStore(db).load()
    said = str(caught.value)
    assert "damaged" in said and "switchboard audit --data" in said and "backup" in said
    assert "\n" not in said
    lock = DataDirLock(db.parent)  # the refused store holds nothing
    lock.acquire()
    lock.release()


def test_serve_on_a_damaged_store_exits_with_one_line(tmp_path: Path) -> None:
    db = a_damaged_store(tmp_path / "data")
    before = db.read_bytes()
    done = subprocess.run(
        [sys.executable, "-m", "switchboard", "serve", "--host", "127.0.0.1", "--port", "0",
         "--data", str(db.parent)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode != 0
    assert "Traceback" not in done.stderr, done.stderr
    errors = [line for line in done.stderr.splitlines() if "level=error" in line]
    assert len(errors) == 1 and "is damaged" in errors[0], done.stderr
    assert "switchboard audit --data" in errors[0] and "restore it from a backup" in errors[0]
    assert db.read_bytes() == before
