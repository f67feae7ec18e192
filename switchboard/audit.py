"""Audit a server's chips: read its data directory and check every promise of the ledger.

Read-only, so it may run beside a live server (it sees one consistent moment).
It checks that every transaction balances, that every balance is the sum of its
entries and all accounts sum to zero, that names' balances plus held prizes equal
the chips ever issued, that every name has an account, and that each game's prize
was paid or returned exactly once, as the game's end says, or is still held for a
game that has not ended; that a payout went only to the winning seats' players or
back to the funder, and a return only to the funder; and that each finished game has
one result and an abandoned one none. Then the tournaments: each game a tournament
scored against the game's stored end (``server.tournaments.audit``). Exit status 0: all
kept; 1: problems (listed); 2: no database there, or not a database.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--data",
        metavar="DIR",
        help="the server's data directory (default: the per-user data directory)",
    )
    parser.add_argument("--json", action="store_true", help="print the result as JSON")


def run(args: argparse.Namespace) -> int:
    from server.app import DB_NAME
    from server.players.chip_audit import audit_file, summary

    data = args.data
    if data is None:
        import platformdirs

        data = platformdirs.user_data_dir("switchboard", appauthor=False)
    try:
        result = audit_file(Path(data) / DB_NAME)
    except (FileNotFoundError, OSError) as exc:
        print(f"switchboard audit: {exc}", file=sys.stderr)
        return 2
    except sqlite3.DatabaseError as exc:  # not a database, or too damaged to read at all
        print(
            f"switchboard audit: {Path(data) / DB_NAME} cannot be read as a database ({exc});"
            " restore it from a backup",
            file=sys.stderr,
        )
        return 2
    try:
        from server.players.chip_audit import open_readonly
        from server.tournaments.audit import audit_tournaments

        conn = open_readonly(Path(data) / DB_NAME)
        try:
            problems, counts = audit_tournaments(conn)
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        problems, counts = [f"the tournaments cannot be read ({exc})"], {}
    result.problems += problems
    result.figures.update(counts)
    if args.json:
        print(json.dumps(summary(result), sort_keys=True))
    else:
        figures = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in result.figures.items())
        print(f"{'ok' if result.ok else 'PROBLEMS'}: {figures}")
        for problem in result.problems:
            print(f"  {problem}")
    return 0 if result.ok else 1
