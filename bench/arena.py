"""Arena tables for every family: search vs heuristic vs random.

Run: ``python bench/arena.py [--games 2000] [--jobs 2] [--only abbott:2,switch:4] [--search SPEC]
[--head-to-head]``.

Each table is ``switchboard arena RULESET SEARCH heuristic random`` at the usual table
size (the command is printed above it), so any one can be re-run on its own. The
reference beside each strategy is the even share (1/seats): a strategy no better than
chance wins that often. Every seat rotates over the same deals (see ``client/arena.py``),
and under each table every pair of strategies is compared deal by deal. ``--head-to-head``
leaves random out: search and heuristic then hold half the seats each, the direct test of
whether search is the better.

``SEARCH`` is each family's arena budget below (``--search`` replaces it everywhere):
smaller than the strategy's default (which stays under a second a move) so that
thousands of games finish on two cores; the tables say which budget they used.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from client.arena import run_arena

SHEDDING_SEARCH = "search:iterations=200"
#: RULESET:SEATS -> the search entrant its table uses.
CONFIGS = {
    "abbott:2": "search:iterations=60",
    "abbott:4": "search",
    "kilodney:4": "search:iterations=500,confidence=2,prune=1,infer=1",
} | {
    f"{p}:4": SHEDDING_SEARCH for p in ("switch", "blackjack", "irish", "j28", "taketwo", "gamebot")
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--search", help="the search entrant of every table: search:iterations=40")
    ap.add_argument("--only", help="comma-separated RULESET:SEATS (default: all)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=1, help="games played at once (processes)")
    ap.add_argument(
        "--head-to-head",
        action="store_true",
        help="search against heuristic alone (half the seats each), without random",
    )
    args = ap.parse_args()
    configs = args.only.split(",") if args.only else list(CONFIGS)
    for item in configs:
        ruleset, _, seats = item.partition(":")
        n = int(seats or 4)
        search = args.search or CONFIGS.get(f"{ruleset}:{n}", "search")
        entrants = [search, "heuristic"] if args.head_to_head else [search, "heuristic", "random"]
        print(
            f"$ switchboard arena {ruleset} {' '.join(entrants)}"
            f" --seats {n} --games {args.games} --seed {args.seed} --jobs {args.jobs}",
            flush=True,
        )
        start = time.perf_counter()
        result = run_arena(
            ruleset,
            entrants,
            args.games,
            seats=n,
            seed=args.seed,
            jobs=args.jobs,
        )
        print(result.table())
        print(f"({time.perf_counter() - start:.0f} s)\n", flush=True)


if __name__ == "__main__":
    main()
