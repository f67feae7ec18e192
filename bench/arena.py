"""Arena tables for every family: search vs heuristic vs random.

Run: ``python bench/arena.py [--games 2000] [--jobs 2] [--only abbott:2,switch:4] [--search SPEC]
[--head-to-head [--save FILE]]``, or ``python bench/arena.py --merge FILE...``.

Each table is ``switchboard arena RULESET SEARCH heuristic random`` at the usual table
size (the command is printed above it), so any one can be re-run on its own. The
reference beside each strategy is the even share (1/seats): a strategy no better than
chance wins that often. Every seat rotates over the same deals (see
``engine/tournament/rotation.py``), and under each table every pair of strategies is
compared deal by deal. ``--head-to-head`` leaves random out: search and heuristic then
hold half the seats each, the direct test of
whether search is the better; each such table ends with its row (the paired
difference, search's time a move) beside the target (the difference above 0 with 95%
confidence, at most a second a move at the 99th percentile of CPU time). ``--save``
keeps a head-to-head table's deals, and ``--merge`` joins tables of one ruleset played
at different seeds (a long table played in bounded pieces) into one row.

``SEARCH`` is each family's arena entrant below (``--search`` replaces it everywhere):
the shedding search's default budget (200 rollouts a decision, with each preset's
``PRESET_SEARCH`` settings), and budgets at or below the other families' defaults so that
thousands of games finish on two cores; the tables say which budget they used.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from client.bots.arena import Versus, paired_difference, quantile, run_arena

#: The slowest a search may be at the 99th percentile of its moves to count as playable.
P99_TARGET = 1.0

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
    ap.add_argument(
        "--save",
        metavar="FILE",
        help="with --head-to-head: write each table's deals and times as JSON to FILE"
        " (RULESET in the name is replaced by the ruleset), for --merge",
    )
    ap.add_argument(
        "--merge",
        nargs="+",
        metavar="FILE",
        help="print one row from saved head-to-head runs of one ruleset on disjoint deals",
    )
    args = ap.parse_args()
    if args.merge:
        vs = merged([json.loads(Path(f).read_text()) for f in args.merge])
        print(vs.row())
        print(target_line(vs))
        return
    configs = args.only.split(",") if args.only else list(CONFIGS)
    rows: list[tuple[Versus, str]] = []
    for item in configs:
        ruleset, _, seats = item.partition(":")
        n = int(seats or 4)
        search = args.search or CONFIGS.get(f"{ruleset}:{n}", "search")
        entrants = [search, "heuristic"] if args.head_to_head else [search, "heuristic", "random"]
        command = (
            f"switchboard arena {ruleset} {' '.join(entrants)}"
            f" --seats {n} --games {args.games} --seed {args.seed} --jobs {args.jobs}"
        )
        print(f"$ {command}", flush=True)
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
        print(f"({time.perf_counter() - start:.0f} s)", flush=True)
        if args.head_to_head:
            vs = result.versus(search, "heuristic")
            rows.append((vs, command))
            if args.save:
                saved = {
                    "ruleset": ruleset,
                    "games": args.games,
                    "command": command,
                    "deals": result.deals,
                    "times": result.standings[search].times,
                    "cpu": result.standings[search].cpu,
                    "labels": [search, "heuristic"],
                }
                Path(args.save.replace("RULESET", ruleset)).write_text(json.dumps(saved))
            print(target_line(vs) + "\n", flush=True)
        else:
            print(flush=True)
    if rows:
        print(
            "| ruleset | games | search − heuristic, paired"
            " | search ms a move (p50 / p99) | CPU ms (p50 / p99, mean) |"
        )
        print("|---|---|---|---|---|")
        for vs, _command in rows:
            print(vs.row())
        for _vs, command in rows:
            print(f"$ {command}")
        met = sum(vs.met(P99_TARGET) for vs, _command in rows)
        print(f"target met in {met} of {len(rows)} tables")


def merged(parts: list[dict[str, Any]]) -> Versus:
    """Saved head-to-head runs of one ruleset as one table: the paired difference over
    all their deals (each deal is keyed by its seed, so runs at seeds far enough apart
    hold different deals) and the search's times a move from all of them."""
    if len({p["ruleset"] for p in parts}) != 1:
        raise SystemExit("--merge: the runs are of different rulesets")
    deals: dict[str, Any] = {}
    for p in parts:
        if deals.keys() & p["deals"].keys():
            raise SystemExit("--merge: two runs share deals (seeds overlap)")
        deals |= p["deals"]
    first, second = parts[0]["labels"]
    times = [t for p in parts for t in p["times"]]
    cpu = [t for p in parts for t in p["cpu"]]
    return Versus(
        parts[0]["ruleset"],
        sum(p["games"] for p in parts),
        paired_difference(first, second, deals),
        quantile(times, 0.5),
        quantile(times, 0.99),
        quantile(cpu, 0.99),
        quantile(cpu, 0.5),
        sum(cpu) / len(cpu),
    )


def target_line(vs: Versus) -> str:
    """The figure beside its target: the paired difference's lower bound above 0
    (search the better, 95%) with search's p99 CPU time a move at most ``P99_TARGET``
    (the wall time is printed too; on a shared machine it counts the others' work)."""
    d = vs.difference
    return (
        f"search − heuristic {d.mean * 100:+.1f} points, 95% CI [{d.low * 100:+.1f},"
        f" {d.high * 100:+.1f}] (target: above 0); p99 {vs.p99 * 1000:.0f} ms a move, CPU"
        f" {(vs.cpu_p99 or 0) * 1000:.0f} ms (median {(vs.cpu_p50 or 0) * 1000:.2f},"
        f" mean {(vs.cpu_mean or 0) * 1000:.1f}) (target: CPU ≤ {P99_TARGET * 1000:.0f} ms):"
        f" {'met' if vs.met(P99_TARGET) else 'NOT met'}"
    )


if __name__ == "__main__":
    main()
