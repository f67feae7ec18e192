"""Swiss seating at tables of any size against block seating (the common way).

Run: ``python bench/seating.py [--seeds 200] [--rounds 5]``.

Block seating puts the players in order of points and fills table 1, then table 2, and so
on; it keeps each table's points close but seats the leaders together round after round.
The Swiss seating (``engine/tournament/swiss.py``) starts from it and swaps players to
lower repeat meetings. For each scenario both seatings run the same tournaments: the same
players, each with a hidden strength drawn from the seed, each game's places drawn from
the strengths plus noise (the seed, the round and the table's people fix the draw), so the
two differ only in how they seat. Each figure is printed beside block seating's from the
same run, with the target and whether it is met:

- repeat meetings a round: pairs seated together who had met before, averaged over the
  rounds after the first (target: at most half of block seating's);
- spread of points within a table: highest minus lowest at a table, averaged over the
  tables and rounds after the first (target: at most twice block seating's);
- time to seat a round of 64 players at 4-seat tables (round 3 of a run), the median of
  the seeds, on one core (target: at most 100 ms).

The 16-player, 4-seat, 5-round scenario carries the targets; 12 players at 4 seats and 9
at kilodney (4 to 9 seats, 4 or 5 preferred) are reported beside block seating too.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.tournament import GameResult, SeatRule
from engine.tournament.scoring import points_table
from engine.tournament.swiss import Player, Seating, block_seating, meetings_from, seat_round

REPEAT_TARGET = 0.5  # of block seating's
SPREAD_TARGET = 2.0  # times block seating's
TIME_TARGET = 0.100  # seconds to seat a round of 64

Seater = Callable[..., Seating]


@dataclass
class Figures:
    repeats: list[float]
    spread: list[float]
    seat_time: list[float]


def play(seating: Seating, strength: dict[str, float], seed: int) -> list[GameResult]:
    """Each table's places from strengths plus noise, fixed by seed, round and people."""
    games = []
    for table in seating.tables:
        rng = random.Random(f"{seed}:{seating.round}:{','.join(sorted(table.people))}")
        seats: list[str | None] = [*table.people, *([None] * table.bots)]
        perf = [(strength[s] if s else 0.0) + rng.gauss(0, 1.0) for s in seats]
        places = tuple(sum(1 for q in perf if q > p) for p in perf)
        games.append(
            GameResult(seating.round, tuple(seats), places, tuple(int(p * 10) for p in perf))
        )
    return games


def run(seater: Seater, names: list[str], rule: SeatRule, rounds: int, seed: int) -> Figures:
    rng = random.Random(seed)
    strength = {n: rng.gauss(0, 1) for n in names}
    rating = {n: 1500 + 200 * s + rng.gauss(0, 100) for n, s in strength.items()}
    results: list[GameResult] = []
    figures = Figures([], [], [])
    for r in range(1, rounds + 1):
        points = points_table(results, {n: 1 for n in names})
        players = [Player(n, rating[n], points[n]) for n in names]
        met = meetings_from(results)
        start = time.process_time()
        seating = seater(players, rule, seed=seed, round_number=r, meetings=met)
        figures.seat_time.append(time.process_time() - start)
        if r > 1:
            figures.repeats.append(seating.repeats(met))
            figures.spread.append(seating.spread(points))
        results.extend(play(seating, strength, seed))
    return figures


def block(players: list[Player], rule: SeatRule, **kwargs: object) -> Seating:
    kwargs.pop("meetings", None)
    return block_seating(players, rule, **kwargs)  # type: ignore[arg-type]


def scenario(label: str, people: int, rule: SeatRule, rounds: int, seeds: int) -> tuple[float, ...]:
    names = [f"p{i:02d}" for i in range(people)]
    swiss, ref = Figures([], [], []), Figures([], [], [])
    for seed in range(seeds):
        for seater, into in ((seat_round, swiss), (block, ref)):
            f = run(seater, names, rule, rounds, seed)
            into.repeats.append(statistics.mean(f.repeats))
            into.spread.append(statistics.mean(f.spread))
            into.seat_time.append(statistics.median(f.seat_time))
    rs, rb = statistics.mean(swiss.repeats), statistics.mean(ref.repeats)
    ss, sb = statistics.mean(swiss.spread), statistics.mean(ref.spread)
    print(
        f"{label} ({seeds} seeds, {rounds} rounds, tables {rule.sizes}, preferred {rule.preferred})"
    )
    ratio = rs / rb if rb else 0.0
    print(f"   repeat meetings a round: swiss {rs:.2f}, block {rb:.2f}; ratio {ratio:.2f}")
    ratio = ss / sb if sb else 0.0
    print(f"   spread of points at a table: swiss {ss:.3f}, block {sb:.3f}; ratio {ratio:.2f}")
    return rs, rb, ss, sb


def seat_time_64(seeds: int) -> tuple[float, float]:
    names = [f"p{i:02d}" for i in range(64)]
    rule = SeatRule.between(2, 4)
    times_s, times_b = [], []
    for seed in range(seeds):
        times_s.append(run(seat_round, names, rule, 3, seed).seat_time[-1])
        times_b.append(run(block, names, rule, 3, seed).seat_time[-1])
    return statistics.median(times_s), statistics.median(times_b)


def verdict(ok: bool) -> str:
    return "met" if ok else "NOT met"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    rs, rb, ss, sb = scenario(
        "16 players at 4-seat tables", 16, SeatRule.between(2, 4), args.rounds, args.seeds
    )
    print(f"   target repeats <= {REPEAT_TARGET} x block: {verdict(rs <= REPEAT_TARGET * rb)}")
    print(f"   target spread <= {SPREAD_TARGET} x block: {verdict(ss <= SPREAD_TARGET * sb)}")
    ts, tb = seat_time_64(max(5, args.seeds // 10))
    print("64 players at 4-seat tables, round 3")
    print(
        f"   time to seat a round: swiss {ts * 1000:.1f} ms, block {tb * 1000:.2f} ms (CPU, median)"
    )
    print(f"   target <= {TIME_TARGET * 1000:.0f} ms: {verdict(ts <= TIME_TARGET)}")
    scenario("12 players at 4-seat tables", 12, SeatRule.between(2, 4), args.rounds, args.seeds)
    scenario(
        "9 players at kilodney", 9, SeatRule.between(4, 9, preferred=4), args.rounds, args.seeds
    )


if __name__ == "__main__":
    main()
