"""How fast the 2-player abbott solver answers, by cards left on the grid.

Positions come from 2-player games of the ``heuristic`` strategy (seeded, so
every run measures the same positions): for each card count, the first
position of each game's first hand with that many cards left (a hand often
ends "decided" before it runs low, so the games needed vary by count). Each
is solved from scratch (no kept table, as at a bot's first endgame move)
with ``--node-limit`` nodes, and the script prints per card count the median
and 99th-percentile wall time, the share solved within a second, and the
share that hit the node limit. A solve that hits the limit counts as over a
second whatever its time.

The target: every position solved within a second (``--target``, 99%) up to
``--claim`` cards (5), the figure docs/bots.md states. Node counts do not
depend on the machine's load; times do. Wall times on a shared
machine vary; run it under ``nice`` and quote the machine.

    nice -n 10 python bench/solver.py             # 4..9 cards, 15 positions each, ~3 min
    nice -n 10 python bench/solver.py --cards 6-8 --positions 40
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine
from engine.strategies import get_strategy
from engine.strategies.abbott_solver import cards_left, solve


def positions(n_cards: int, count: int, seed: int) -> list[dict[str, Any]]:
    """``count`` positions with ``n_cards`` left, from games seeded ``seed``, ``seed + 1``..."""
    out: list[dict[str, Any]] = []
    walker = get_strategy("heuristic", "abbott")
    rng = random.Random(seed)
    game_seed = seed
    while len(out) < count:
        game = engine.new_game("abbott", seats=2, seed=game_seed)
        game_seed += 1
        while not game.over and game.view(None)["hand_number"] == 1:
            seat = game.to_act
            assert seat is not None
            view = game.view(seat)
            if cards_left(view) == n_cards:
                out.append(view)
                break
            game.apply(seat, walker.choose(view, game.legal_actions(seat), rng))
    return out


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", default="4-9", help="card counts, e.g. 4-9 or 7 (4-9)")
    parser.add_argument("--positions", type=int, default=15, help="positions per count (15)")
    parser.add_argument("--node-limit", type=int, default=500_000, help="(500,000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--claim", type=int, default=5, help="cards claimed within 1 s (5)")
    parser.add_argument("--target", type=float, default=0.99, help="share within 1 s (0.99)")
    args = parser.parse_args()
    lo, _, hi = args.cards.partition("-")
    counts = range(int(lo), int(hi or lo) + 1)
    print(
        f"abbott 2-player solver, {args.positions} positions a count, seed {args.seed},"
        f" node limit {args.node_limit:,}"
    )
    print(
        f"{'cards':>5} {'median s':>9} {'p99 s':>8} {'<=1 s':>7} {'at limit':>9}"
        f" {'median nodes':>13} {'p99 nodes':>10}  target"
    )
    verdicts = []
    for n in counts:
        times, nodes, within, limited = [], [], 0, 0
        for view in positions(n, args.positions, args.seed * 1000 + n):
            start = time.perf_counter()
            result = solve(view, args.node_limit)
            took = time.perf_counter() - start
            times.append(took)
            nodes.append(result.nodes)
            limited += not result.complete
            within += result.complete and took <= 1.0
        share = within / len(times)
        p99 = percentile(times, 0.99)
        claimed = n <= args.claim
        met = share >= args.target
        verdict = f"{args.target:.0%} within 1 s: {'met' if met else 'NOT met'}" if claimed else "-"
        if claimed:
            verdicts.append(met)
        print(
            f"{n:>5} {statistics.median(times):>9.3f} {p99:>8.3f} {share:>7.0%}"
            f" {limited / len(times):>9.0%} {statistics.median(nodes):>13,.0f}"
            f" {percentile(nodes, 0.99):>10,}  {verdict}"
        )
    ok = all(verdicts)
    print(
        f"claim (docs/bots.md): every position up to {args.claim} cards within 1 s"
        f" -> {'met' if ok else 'NOT met'}"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
