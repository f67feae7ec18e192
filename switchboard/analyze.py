"""``switchboard replay --analyze RECORD``: the after-game analysis, run in worker processes.

The analysis itself is ``engine.analysis`` (pure), shared among worker processes
by ``client.bots.analysis_workers``; this module draws a progress bar on stderr, and prints
the report (text, or ``--json``). Ctrl-C stops it cleanly: the workers are
ended at once and nothing is printed but a line saying so.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from client.bots.analysis_workers import run_analysis


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options ``switchboard replay`` takes for the analysis."""
    group = parser.add_argument_group("analysis (--analyze)")
    group.add_argument("--analyze", action="store_true", help="judge every decision of the game")
    group.add_argument("--json", action="store_true", help="with --analyze: print JSON")
    group.add_argument("--marked", action="store_true", help="with --analyze: marked moves only")
    group.add_argument("--workers", type=int, default=None, help="processes (default: CPUs)")
    group.add_argument("--seed", type=int, default=1, help="the analysis seed (1)")
    group.add_argument("--worlds", type=int, default=24, help="sampled worlds a decision (24)")


class ProgressBar:
    """``analysing [#######.......] 34/120 decisions 0:12`` on one line of stderr."""

    def __init__(self, stream: TextIO | None = None, width: int = 30) -> None:
        self.stream = stream or sys.stderr
        self.width = width
        self.start = time.monotonic()

    def __call__(self, done: int, total: int) -> None:
        filled = self.width * done // total if total else self.width
        secs = int(time.monotonic() - self.start)
        bar = "#" * filled + "." * (self.width - filled)
        end = "\n" if done >= total else ""
        self.stream.write(
            f"\ranalysing [{bar}] {done}/{total} decisions {secs // 60}:{secs % 60:02}{end}"
        )
        self.stream.flush()


def load(args: argparse.Namespace, fetch: Callable[..., Any]) -> dict[str, Any]:
    """The record named on the command line: a JSON file, or a server's table
    (``fetch``: ``switchboard.replay``'s async fetch of a table's record)."""
    from pathlib import Path

    if args.table is None or Path(args.source).exists():
        data = json.loads(Path(args.source).read_text(encoding="utf-8"))
        if not isinstance(data, dict) or "ruleset" not in data:
            raise ValueError(f"{args.source}: not a game record (no 'ruleset')")
        return data
    import trio

    from switchboard.play import parse_address

    host, port = parse_address(args.source)
    return trio.run(fetch, host, port, args.table, args.name)


def main(args: argparse.Namespace, fetch: Callable[..., Any]) -> int:
    """``switchboard replay ... --analyze``: load, analyse, print; the exit status.
    Ctrl-C at any point (loading included) ends it with one line and status 130."""
    try:
        try:
            record = load(args, fetch)
        except Exception as exc:  # a bad file, a refused request: say it plainly
            print(f"switchboard replay: {exc}", file=sys.stderr)
            return 1
        return run(record, args)
    except KeyboardInterrupt:
        print("\nswitchboard replay: analysis interrupted", file=sys.stderr)
        return 130


def run(record: dict[str, Any], args: argparse.Namespace) -> int:
    """Analyse ``record`` as the command line asks; the exit status."""
    from engine.analysis import Settings, as_json, as_text

    settings = Settings(seed=args.seed, worlds=args.worlds)
    try:
        decisions = run_analysis(record, settings, args.workers, ProgressBar())
    except KeyboardInterrupt:
        print("\nswitchboard replay: analysis interrupted", file=sys.stderr)
        return 130
    except ValueError as exc:
        print(f"switchboard replay: {exc}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(as_json(record, decisions, settings), indent=1))
    else:
        print(as_text(record, decisions, marked_only=args.marked))
    return 0


__all__: Sequence[str] = ["ProgressBar", "add_arguments", "load", "main", "run", "run_analysis"]
