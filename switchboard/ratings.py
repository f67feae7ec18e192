"""Check or rebuild the players' ratings from the games a data directory has stored.

Every finished game is stored with its players, their places and whether it was
rated; the ratings are recomputed from those results alone, in the order the games
ended, and compared with the ratings the server keeps. ``--check`` (the default)
only reads, so it may run beside a live server; ``--rebuild`` writes the recomputed
ratings in place of the stored ones, and needs the server stopped (it takes the
data directory's lock). Exit status 0: they agree (or were rebuilt); 1: they
disagree (listed); 2: no database there, or a server holds it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--data",
        metavar="DIR",
        help="the server's data directory (default: the per-user data directory)",
    )
    what = parser.add_mutually_exclusive_group()
    what.add_argument(
        "--check", action="store_true", help="compare the stored ratings with a rebuild (default)"
    )
    what.add_argument(
        "--rebuild", action="store_true", help="replace the stored ratings by a rebuild"
    )


def run(args: argparse.Namespace) -> int:
    from server.app import DB_NAME
    from server.players.rating_check import check_file, rebuild_file
    from server.store.datalock import DataDirLocked

    data = args.data
    if data is None:
        import platformdirs

        data = platformdirs.user_data_dir("switchboard", appauthor=False)
    path = Path(data) / DB_NAME
    try:
        if args.rebuild:
            count, games = rebuild_file(path)
            print(f"rebuilt {count} ratings from {games} finished games")
            return 0
        problems, count, games = check_file(path)
    except (FileNotFoundError, OSError, DataDirLocked) as exc:
        print(f"switchboard ratings: {exc}", file=sys.stderr)
        return 2
    if not problems:
        print(f"ok: {count} ratings agree with a rebuild from {games} finished games")
        return 0
    print(f"DISAGREE: {len(problems)} of the ratings differ from a rebuild from {games} games")
    for problem in problems:
        print(f"  {problem}")
    return 1
