"""The tournaments' rows in the SQLite store: each tournament's log, one row an entry.

Kept apart from ``server.store.sqlite`` (which calls in here at its schema, its writes
and its load), as the profiles' rows are. A tournament is its log
(``base.TournamentLogged``): the server rebuilds it from the entries in order, so the
one table holds everything, and a finished tournament's log stays as its record.
"""

from __future__ import annotations

import json
import sqlite3

from server.store.base import TournamentLogged

SCHEMA = """
CREATE TABLE IF NOT EXISTS tournament_log (
    tournament INTEGER NOT NULL, seq INTEGER NOT NULL, kind TEXT NOT NULL, data TEXT NOT NULL,
    PRIMARY KEY (tournament, seq)) WITHOUT ROWID;
"""


def migrate(conn: sqlite3.Connection) -> None:
    """Create the tournaments' table if the database lacks it (idempotent)."""
    conn.executescript(SCHEMA)


def execute(conn: sqlite3.Connection, w: TournamentLogged) -> None:
    """Store one entry of a tournament's log."""
    conn.execute(
        "INSERT INTO tournament_log (tournament, seq, kind, data) VALUES (?, ?, ?, ?)",
        (w.tournament, w.seq, w.kind, json.dumps(w.data, sort_keys=True)),
    )


def read(conn: sqlite3.Connection) -> dict[int, list[TournamentLogged]]:
    """Every tournament's log, in order."""
    logs: dict[int, list[TournamentLogged]] = {}
    for tournament, seq, kind, data in conn.execute(
        "SELECT tournament, seq, kind, data FROM tournament_log ORDER BY tournament, seq"
    ):
        logs.setdefault(tournament, []).append(
            TournamentLogged(tournament, seq, kind, json.loads(data))
        )
    return logs
