"""Random playouts of every ruleset: games/s and actions/s.

Run: ``python bench/engine.py [--seconds S]``. Each ruleset is played at its
usual table size by the random strategy, choosing uniformly among
``legal_actions`` (the cost of listing legal actions is part of the figure,
as it is for a bot). References from the same run (RLCard's UNO, OpenSpiel's
crazy_eights) come from ``bench/engine_refs.py`` where their packages are
installed.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine

# (ruleset, seats) pairs measured; a ruleset not registered is skipped.
CONFIGS = [("abbott", 4), ("abbott", 2), ("kilodney", 6)] + [
    (p, 4) for p in ("switch", "blackjack", "irish", "j28", "taketwo", "gamebot")
]


def playout(name: str, seats: int, seed: int, max_actions: int = 100_000) -> int:
    """Play one game to its end with uniform random actions; return actions taken."""
    game = engine.new_game(name, seats=seats, seed=seed)
    rng = random.Random(seed)
    n = 0
    while not game.over and n < max_actions:
        seat = game.to_act
        legal = game.legal_actions(seat)
        game.apply(seat, legal[rng.randrange(len(legal))])
        n += 1
    return n


def measure(name: str, seats: int, seconds: float) -> tuple[float, float, int]:
    """Games/s, actions/s and games played within about ``seconds``."""
    start = time.perf_counter()
    games = actions = 0
    while time.perf_counter() - start < seconds or games == 0:
        actions += playout(name, seats, seed=games)
        games += 1
    elapsed = time.perf_counter() - start
    return games / elapsed, actions / elapsed, games


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="time per ruleset")
    args = ap.parse_args()
    known = set(engine.rulesets())
    print(f"{'ruleset':<12}{'seats':>6}{'games/s':>12}{'actions/s':>14}{'games':>8}")
    results = {}
    for name, seats in CONFIGS:
        if name not in known:
            print(f"{name:<12}{seats:>6}  (not registered)")
            continue
        gps, aps, games = measure(name, seats, args.seconds)
        results[(name, seats)] = aps
        print(f"{name:<12}{seats:>6}{gps:>12.1f}{aps:>14.0f}{games:>8}")
    try:
        import engine_refs  # type: ignore[import-not-found]
    except ImportError:
        print("(no reference games: bench/engine_refs.py is absent)")
        return
    engine_refs.report(results, args.seconds)


if __name__ == "__main__":
    main()
