"""Play strategies against each other and rate them.

Each deal is played once per seat rotation, so every strategy sits in every
seat on the same cards. The table shows each strategy's win rate per seat
held with a 95% Wilson interval, an openskill (Plackett-Luce) rating, and the
median and 99th-percentile time it took to choose a move.

Examples:
  switchboard arena abbott search heuristic random --games 200
  switchboard arena switch heuristic random --seats 4 --games 2000
  switchboard arena kilodney search:iterations=40 heuristic --seats 6
  switchboard arena abbott heuristic random --network --games 20
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("ruleset", help="a ruleset name: abbott, kilodney or a shedding preset")
    parser.add_argument(
        "strategies",
        nargs="+",
        metavar="STRATEGY",
        help="strategy names, optionally with parameters: search:iterations=50",
    )
    parser.add_argument("--games", type=int, default=200, help="games to play (default 200)")
    parser.add_argument("--seats", type=int, help="table size (default: 4, or the ruleset's)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first deal (default 0)")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a table option (JSON value), e.g. --option target=0; repeatable",
    )
    parser.add_argument(
        "--network",
        action="store_true",
        help="play over a real server on 127.0.0.1 with one `switchboard bot` process a seat",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress line")


def parse_options(items: list[str]) -> dict[str, Any]:
    """``["target=0", "jokers=true"]`` to ``{"target": 0, "jokers": True}``."""
    options: dict[str, Any] = {}
    for item in items:
        name, eq, value = item.partition("=")
        if not eq:
            raise ValueError(f"expected NAME=VALUE, got {item!r}")
        try:
            options[name] = json.loads(value)
        except json.JSONDecodeError:
            options[name] = value
    return options


def run(args: argparse.Namespace) -> int:
    import engine
    from client.arena import GameResult, run_arena

    try:
        options = parse_options(args.option)
        if args.network:
            result = run_network_arena(
                args.ruleset, args.strategies, args.games, args.seats, args.seed, options
            )
        else:

            def progress(i: int, _result: GameResult) -> None:
                if not args.quiet and sys.stderr.isatty():
                    print(f"\r{i + 1}/{args.games} games", end="", file=sys.stderr, flush=True)

            result = run_arena(
                args.ruleset,
                args.strategies,
                args.games,
                seats=args.seats,
                seed=args.seed,
                options=options,
                progress=progress,
            )
            if not args.quiet and sys.stderr.isatty():
                print(file=sys.stderr)
    except (ValueError, engine.OptionError) as exc:
        print(f"switchboard arena: {exc}", file=sys.stderr)
        return 2
    print(result.table())
    return 0


def run_network_arena(
    ruleset: str,
    strategies: list[str],
    games: int,
    seats: int | None,
    seed: int,
    options: dict[str, Any],
) -> Any:
    """The same arena over a real server: not built yet."""
    raise ValueError("--network needs the server; it is not available yet")
