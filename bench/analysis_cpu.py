"""The server's CPU to analyse one finished game, by family: what an ``analyse`` costs.

For each family (``switch`` with 4 players, ``abbott`` with 2 and with 4, ``kilodney``
with 6) it records ``--games`` games between the heuristic bot with a random move one
time in five (so the records hold mistakes to find, as people's do), then analyses each
exactly as the server does (``engine.analysis``: ``decision_points`` then ``analyse`` at
the server's default ``analysis_worlds``), one game at a time on one core, and prints the
CPU seconds a game took (process time: the work, not the wait), p50 and p99, with the
decisions judged a game beside them. The reference on the same line is the CPU of
replaying the same record once (``engine.replay``), which every piece of analysis work
pays again: it says how much of the cost is the judging itself.

The server runs the same work in its thinking workers, a chunk of decisions at a time,
behind the people's bot turns (``server.tables.analyses``), so a player's wait is this
CPU spread over the workers left idle by the tables: on a quiet server with two workers,
about half of it.

    nice -n 10 python bench/analysis_cpu.py                 # 20 games a family
    nice -n 10 python bench/analysis_cpu.py --games 5       # a quick look
    nice -n 10 python bench/analysis_cpu.py --only abbott:4 --only kilodney:6
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
from engine.analysis import Settings, analyse, decision_points
from engine.strategies import get_strategy
from server.core.config import ServerConfig

FAMILIES = (("switch", 4), ("abbott", 2), ("abbott", 4), ("kilodney", 6))


def record_game(ruleset: str, seats: int, seed: int) -> dict[str, Any]:
    """A finished game between heuristic bots that play a random move one time in five."""
    game = engine.new_game(ruleset, seats, seed)
    bot = get_strategy("heuristic", game.family)
    rng = random.Random(seed)
    while not game.over:
        seat = game.to_act
        legal = game.legal_actions(seat)
        if rng.random() < 0.2:
            action = rng.choice(legal)
        else:
            action = bot.choose(game.view(seat), legal, rng)
        game.apply(seat, str(action))
    return dict(game.record())


def pct(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values``, nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def cpu(fn: Any, *args: Any) -> tuple[float, Any]:
    start = time.process_time()
    result = fn(*args)
    return time.process_time() - start, result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games a family (20)")
    parser.add_argument("--seed", type=int, default=1, help="the first game's seed (1)")
    parser.add_argument("--only", action="append", metavar="RULESET:SEATS",
                        help="measure these only (repeat; default: all four)")  # fmt: skip
    args = parser.parse_args()
    families = FAMILIES
    if args.only:
        families = tuple((r, int(n)) for r, _, n in (o.partition(":") for o in args.only))
    worlds = ServerConfig().analysis_worlds
    settings = Settings(worlds=worlds)
    print(f"analysis CPU a game, {args.games} games a family, worlds={worlds} (the server's"
          " default), one core")  # fmt: skip
    print(f"{'family':<12} {'actions':>7} {'judged':>6} {'p50 s':>7} {'p99 s':>7} {'max s':>7}"
          f"   reference: replay p50 ms")  # fmt: skip
    for ruleset, seats in families:
        costs: list[float] = []
        judged: list[int] = []
        actions: list[int] = []
        replays: list[float] = []
        for n in range(args.games):
            record = record_game(ruleset, seats, args.seed + n)
            replays.append(cpu(engine.replay, record)[0])
            spent, points = cpu(decision_points, record)
            took, _decisions = cpu(analyse, record, points, settings)
            costs.append(spent + took)
            judged.append(len(points))
            actions.append(len(record["actions"]))
        name = f"{ruleset} {seats}p"
        print(f"{name:<12} {statistics.median(actions):>7.0f} {statistics.median(judged):>6.0f}"
              f" {pct(costs, 0.5):>7.2f} {pct(costs, 0.99):>7.2f} {max(costs):>7.2f}"
              f"   {pct(replays, 0.5) * 1000:.1f}", flush=True)  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
