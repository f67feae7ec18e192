"""Step through a finished game: `switchboard replay FILE` or `... replay HOST[:PORT] TABLE`.

A tournament's record (saved by `tournament N record`) is printed instead: each round's
tables with places and points, then the final standings and the winner.

FILE is a record saved as JSON (the client's `record` command saves one; a
server's export is the same shape). From a server, the table's record is
fetched page by page: the full record of a finished game, or the public event
log of one still running (for the table's members). Right/Left (or n/p) step
forward and back, Home/End jump, q quits. --print writes every step (or
--step N) as text instead, for scripts and for reading in a pager.
--analyze judges every decision of a full record instead (docs/analysis.md).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from switchboard import analyze

#: lobby pages read at most to find a record's table (a connection's burst of listings)
LISTING_PAGES = 10


def _seat_number(text: str) -> int:
    """``--seat N`` as a person counts seats (from 1), as the record's 0-based seat."""
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a seat is a number, not {text!r}") from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"seats are counted from 1, not {number}")
    return number - 1


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("source", metavar="FILE|HOST[:PORT]", help="a record file, or a server")
    parser.add_argument("table", nargs="?", help="the table to fetch (with a server)")
    parser.add_argument(
        "--seat",
        type=_seat_number,
        help="show the game as this seat saw it, seats counted from 1 (full records)",
    )
    parser.add_argument(
        "--name",
        help="the name to claim on the server (default: the one last used there, else none)",
    )
    parser.add_argument("--ascii", action="store_true", help="plain ASCII cards (QH)")
    parser.add_argument("--print", action="store_true", help="print the steps instead of paging")
    parser.add_argument("--step", type=int, help="with --print: only this step")
    parser.add_argument("--width", type=int, default=80, help="with --print: columns (80)")
    analyze.add_arguments(parser)


async def fetch_record(host: str, port: int, table: str, name: str | None) -> dict[str, Any]:
    """The table's record from the server, every page of it (full, or the public event
    log of a game still running)."""
    from client.net import records
    from client.net.config import last_name
    from client.net.connection import connect
    from client.net.state import display_name
    from protocol import messages as m

    refused: records.RecordError | None = None
    name = name or last_name(f"{host}:{port}")  # a record needs no name: none is made up
    async with connect(host, port, name=name, reconnect=False) as conn:
        try:
            record = await records.fetch_record(lambda msg: conn.request(msg, check=False), table)
        except records.RecordError as exc:  # raised below, not wrapped by the connection's tasks
            refused = exc
        else:
            # The record holds seats, not names: the table list says who sits where, a
            # page at a time (as many pages as a burst of listings allows).
            start: int | None = 0
            for _ in range(LISTING_PAGES):
                listed = await conn.request(m.ListTables(start=start or 0), check=False)
                for info in getattr(listed, "tables", ()):
                    if str(info.get("table")) == table and info.get("players"):
                        record.setdefault("names", [display_name(p) for p in info["players"]])
                start = getattr(listed, "next", None)
                if "names" in record or start is None:
                    break
            return record
    assert refused is not None
    raise refused


def run(args: argparse.Namespace) -> int:
    if args.analyze:
        return analyze.main(args, fetch_record)
    from pathlib import Path

    from client.terminal.replay import Replay, ReplayApp, load_record
    from client.terminal.tournament import is_tournament_record
    from protocol.tournament_lines import record_lines
    from switchboard.play import parse_address, wants_ascii

    try:
        if args.table is None or Path(args.source).exists():
            record = load_record(args.source)
        else:
            import trio

            host, port = parse_address(args.source)
            record = trio.run(fetch_record, host, port, args.table, args.name)
        if is_tournament_record(record):  # a tournament's: its rounds and standings
            print("\n".join(record_lines(record)))
            return 0
        replay = Replay(record, seat=args.seat)
    except Exception as exc:  # a bad file, a refused request: say it plainly
        print(f"switchboard replay: {exc}", file=sys.stderr)
        return 1
    if args.print:
        steps = [args.step] if args.step is not None else range(replay.steps)
        for i in steps:
            if not 0 <= i < replay.steps:
                print(f"switchboard replay: no step {i} (0..{replay.steps - 1})", file=sys.stderr)
                return 2
            print(replay.text(i, args.width, ascii_only=True))
            print()
        return 0
    return int(ReplayApp(replay, ascii_only=wants_ascii(args.ascii)).application.run() or 0)
