"""Audit the tournaments of a data directory: their points against the stored games.

Read-only, like the chips' audit (``server.players.chip_audit``), beside which
``switchboard audit`` runs it. Each tournament is rebuilt from its log (as the server
rebuilds it), and each game it scored is checked against the game's own stored end:

- every ``played`` entry names a table whose game 1 ended, with the same scores and
  outcome, and the places the entry holds are the ones those scores give when the
  game was ended early (scored as it stands);
- no table's game is scored twice, and every table of a round that ended is scored;
- the log replays (each entry in order, each ``played`` entry of a seated round).

A tournament's standings are computed from its log alone, so a log whose games match
the stored ends has standings that do.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from engine.places import places_from_scores
from server.store.base import ABANDONED
from server.tournaments.book import Book


def audit_tournaments(conn: sqlite3.Connection) -> tuple[list[str], dict[str, int]]:
    """The problems found (empty: every game scored as stored) and the figures."""
    tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if "tournament_log" not in tables:
        return [], {"tournaments": 0, "tournament_games": 0}
    logs: dict[int, list[tuple[str, dict[str, Any]]]] = {}
    for number, kind, data in conn.execute(
        "SELECT tournament, kind, data FROM tournament_log ORDER BY tournament, seq"
    ):
        logs.setdefault(number, []).append((kind, json.loads(data)))
    problems: list[str] = []
    games = 0
    for number, entries in sorted(logs.items()):
        found = _audit_one(conn, number, entries)
        problems += found[0]
        games += found[1]
    return problems, {"tournaments": len(logs), "tournament_games": games}


def _audit_one(
    conn: sqlite3.Connection, number: int, entries: list[tuple[str, dict[str, Any]]]
) -> tuple[list[str], int]:
    problems: list[str] = []
    book = Book(number)
    scored: set[int] = set()
    for kind, data in entries:
        try:
            book.apply(kind, data)
        except (KeyError, IndexError, ValueError, AssertionError, TypeError) as exc:
            problems.append(f"tournament {number}: its log does not replay at {kind} ({exc!r})")
            return problems, len(scored)
        if kind == "played" and data.get("outcome") != "lost":
            table = int(data["table"])
            if table in scored:
                problems.append(f"tournament {number}: table {table}'s game is scored twice")
            scored.add(table)
            problems += _check_game(conn, number, data)
    if book.round_over() and book.round and any(t.result is None for t in book.current_tables()):
        problems.append(f"tournament {number}: a table of round {book.round} is not scored")
    return problems, len(scored)


def _check_game(conn: sqlite3.Connection, number: int, data: dict[str, Any]) -> list[str]:
    table = int(data["table"])
    row = conn.execute(
        "SELECT scores, outcome, ended FROM games WHERE table_id = ? AND game = 1", (table,)
    ).fetchone()
    where = f"tournament {number} round {data['round']} table {table}"
    if row is None or row[2] is None:
        return [f"{where}: scored, but its game has no stored end"]
    scores, outcome = json.loads(row[0]), row[1]
    problems = []
    if scores != data["scores"]:
        problems.append(f"{where}: scored {data['scores']}, its game ended {scores}")
    if outcome is not None and outcome != data["outcome"]:
        problems.append(f"{where}: scored as {data['outcome']}, its game ended {outcome}")
    if data["outcome"] == ABANDONED and data["places"] != places_from_scores(scores):
        problems.append(f"{where}: places {data['places']} are not its scores' as they stood")
    return problems
