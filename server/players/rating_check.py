"""The ratings recomputed from a data directory's stored games, and compared or put back.

A rating is a fold over the finished games in the order they ended
(``server.players.profiles.rebuild``), so the ``results`` rows alone determine every
rating; this module reads them straight from the SQLite file, without a server,
for ``switchboard ratings``. The check reads inside one read transaction (it may
run beside a live server and sees one consistent moment); the rebuild takes the
data directory's lock (a live server holds it) and replaces the ``ratings`` rows
in one transaction.
"""

from __future__ import annotations

from pathlib import Path

from server.players.chip_audit import open_readonly
from server.players.profiles import disagreements, rebuild
from server.store import profile_sql
from server.store.datalock import DataDirLock
from server.store.sqlite import migrate


def check_file(path: Path | str) -> tuple[list[str], int, int]:
    """Where the stored ratings differ from a rebuild (empty: they agree), how many
    ratings are stored, and from how many finished games."""
    conn = open_readonly(path)
    try:
        conn.execute("BEGIN")
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
        if not {"results", "ratings"} <= tables:  # made by a version that kept no ratings
            return [], 0, 0
        results = profile_sql.results(conn)
        stored = profile_sql.read_ratings(conn)
        conn.execute("COMMIT")
    finally:
        conn.close()
    return disagreements(stored, rebuild(results)), len(stored), len(results)


def rebuild_file(path: Path | str) -> tuple[int, int]:
    """Replace the stored ratings by a rebuild; how many ratings, from how many games.

    ``DataDirLocked`` if a server holds the data directory."""
    import sqlite3

    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no database at {path}")
    lock = DataDirLock(path.parent)
    lock.acquire()
    try:
        conn = sqlite3.connect(path, isolation_level=None)
        try:
            migrate(conn)
            conn.execute("BEGIN IMMEDIATE")
            results = profile_sql.results(conn)
            ratings = rebuild(results)
            conn.execute("DELETE FROM ratings")
            profile_sql.write_ratings(conn, list(ratings.values()))
            conn.execute("COMMIT")
        finally:
            conn.close()
    finally:
        lock.release()
    return len(ratings), len(results)
