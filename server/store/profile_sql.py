"""The profiles' rows in the SQLite store: who played each game, results and ratings.

Kept apart from ``server.store.sqlite`` (which calls in here at its schema, its
writes and its load) so the store's core stays about tables and games:

- ``lineups``: who plays each game, fixed at its deal (``GamePlayers``), so a
  restarted server still knows whom a running game rates;
- ``results``: each finished game as the profiles read it (players, scores,
  places, rated or not), one row per game in the order they ended, and
  ``result_seats``, one row per (player, game), which is what a history page is
  read from (by the primary key: no scan);
- ``tallies``: each player's games played and won per ruleset, counted as each
  result is written, so a profile costs one row a ruleset however many games the
  player has (a bot may have played hundreds of thousands);
- ``ratings``: each player's current rating per family, written in the transaction
  that stores the game's end (``GameResult.ratings``: the values after it).

Every column holding a list is JSON.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from server.store.base import (
    GamePlayers,
    GameResult,
    PlayedGame,
    ProfileState,
    Rating,
    Tally,
    played,
)

SCHEMA = """
CREATE TABLE IF NOT EXISTS lineups (
    table_id INTEGER NOT NULL, game INTEGER NOT NULL, players TEXT NOT NULL,
    shown TEXT NOT NULL, rated INTEGER NOT NULL, PRIMARY KEY (table_id, game)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS results (
    id INTEGER PRIMARY KEY, table_id INTEGER NOT NULL, game INTEGER NOT NULL,
    ruleset TEXT NOT NULL, family TEXT NOT NULL, rated INTEGER NOT NULL, at REAL NOT NULL,
    players TEXT NOT NULL, shown TEXT NOT NULL, scores TEXT NOT NULL, places TEXT NOT NULL,
    UNIQUE (table_id, game));
CREATE TABLE IF NOT EXISTS result_seats (
    player TEXT NOT NULL, result INTEGER NOT NULL, seat INTEGER NOT NULL,
    ruleset TEXT NOT NULL, won INTEGER NOT NULL, PRIMARY KEY (player, result)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS tallies (
    player TEXT NOT NULL, ruleset TEXT NOT NULL, played INTEGER NOT NULL, won INTEGER NOT NULL,
    PRIMARY KEY (player, ruleset)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS ratings (
    player TEXT NOT NULL, family TEXT NOT NULL, shown TEXT NOT NULL, mu REAL NOT NULL,
    sigma REAL NOT NULL, games INTEGER NOT NULL, PRIMARY KEY (player, family)) WITHOUT ROWID;
"""


def migrate(conn: sqlite3.Connection) -> None:
    """Create the profiles' tables a database lacks; a ``tallies`` table new to a
    database that already holds results is counted from them once."""
    had = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    conn.executescript(SCHEMA)
    if "tallies" not in had and "result_seats" in had:
        conn.execute(
            "INSERT INTO tallies (player, ruleset, played, won)"
            " SELECT player, ruleset, COUNT(*), SUM(won) FROM result_seats"
            " GROUP BY player, ruleset"
        )


def execute(conn: sqlite3.Connection, w: GamePlayers | GameResult) -> None:
    """One profile write as SQL (its meaning: ``store.apply_write``)."""
    if isinstance(w, GamePlayers):
        conn.execute(
            "INSERT OR REPLACE INTO lineups (table_id, game, players, shown, rated)"
            " VALUES (?, ?, ?, ?, ?)",
            (w.table, w.game, json.dumps(w.players), json.dumps(w.shown), int(w.rated)),
        )
        return
    cur = conn.execute(
        "INSERT INTO results (table_id, game, ruleset, family, rated, at, players, shown,"
        " scores, places) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (w.table, w.game, w.ruleset, w.family, int(w.rated), w.at, json.dumps(w.players),
         json.dumps(w.shown), json.dumps(w.scores), json.dumps(w.places)),
    )  # fmt: skip
    # each player's first seat (a strategy may hold two: its first seat speaks for it)
    first = {p: s for s, p in reversed(list(enumerate(w.players)))}
    conn.executemany(
        "INSERT INTO result_seats (player, result, seat, ruleset, won) VALUES (?, ?, ?, ?, ?)",
        [(p, cur.lastrowid, s, w.ruleset, int(w.places[s] == 0)) for p, s in first.items()],
    )
    conn.executemany(
        "INSERT INTO tallies (player, ruleset, played, won) VALUES (?, ?, 1, ?)"
        " ON CONFLICT (player, ruleset) DO UPDATE SET played = played + 1,"
        " won = won + excluded.won",
        [(p, w.ruleset, int(w.places[s] == 0)) for p, s in first.items()],
    )
    write_ratings(conn, w.ratings)


def write_ratings(conn: sqlite3.Connection, ratings: tuple[Rating, ...] | list[Rating]) -> None:
    conn.executemany(
        "INSERT OR REPLACE INTO ratings (player, family, shown, mu, sigma, games)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        [(r.player, r.family, r.shown, r.mu, r.sigma, r.games) for r in ratings],
    )


def read_ratings(conn: sqlite3.Connection) -> dict[tuple[str, str], Rating]:
    return {
        (row[0], row[1]): Rating(*row)
        for row in conn.execute("SELECT player, family, shown, mu, sigma, games FROM ratings")
    }


def read(conn: sqlite3.Connection) -> ProfileState:
    """Every rating, and the lineup of each open table's last game if it has not ended."""
    state = ProfileState(ratings=read_ratings(conn))
    for table, game, players, shown, rated in conn.execute(
        "SELECT l.table_id, l.game, l.players, l.shown, l.rated FROM lineups l"
        " JOIN tables t ON t.id = l.table_id AND t.closed = 0"
        " JOIN games g ON g.table_id = l.table_id AND g.game = l.game AND g.ended IS NULL"
        " WHERE l.game = (SELECT MAX(game) FROM games WHERE table_id = l.table_id)"
    ):
        state.lineups[table] = GamePlayers(
            table, game, tuple(json.loads(players)), tuple(json.loads(shown)), bool(rated)
        )
    return state


def result_from_row(row: tuple[Any, ...]) -> GameResult:
    """A ``results`` row (``RESULT_COLUMNS``) as the write that made it (ratings left out)."""
    table, game, ruleset, family, rated, at, players, shown, scores, places = row
    return GameResult(table, game, ruleset, family, bool(rated), at, tuple(json.loads(players)),
                      tuple(json.loads(shown)), tuple(json.loads(scores)),
                      tuple(json.loads(places)))  # fmt: skip


RESULT_COLUMNS = "table_id, game, ruleset, family, rated, at, players, shown, scores, places"


def results(conn: sqlite3.Connection) -> list[GameResult]:
    """Every finished game, in the order they ended (a rebuild replays them so)."""
    return [
        result_from_row(row)
        for row in conn.execute(f"SELECT {RESULT_COLUMNS} FROM results ORDER BY id")
    ]


def history(
    conn: sqlite3.Connection, player: str, start: int, limit: int
) -> tuple[list[PlayedGame], int]:
    """A page of ``player``'s finished games, newest first, and how many there are."""
    (total,) = conn.execute(
        "SELECT COALESCE(SUM(played), 0) FROM tallies WHERE player = ?", (player,)
    ).fetchone()
    rows = conn.execute(
        f"SELECT s.seat, {', '.join('r.' + c.strip() for c in RESULT_COLUMNS.split(','))}"
        " FROM result_seats s JOIN results r ON r.id = s.result"
        " WHERE s.player = ? ORDER BY s.result DESC LIMIT ? OFFSET ?",
        (player, limit, start),
    ).fetchall()
    return [played(result_from_row(tuple(row)), seat) for seat, *row in rows], total


def tallies(conn: sqlite3.Connection, player: str) -> list[Tally]:
    return [
        Tally(*row)
        for row in conn.execute(
            "SELECT ruleset, played, won FROM tallies WHERE player = ? ORDER BY ruleset",
            (player,),
        )
    ]
