"""The searches' worlds: what copying a game and building a world costs, and each
family's search per move, with a digest of the moves it chose.

Run: ``python bench/worlds.py [--games N] [--rounds R]``.

- ``copy``: microseconds per copy of a game in mid-hand with a generator of its own
  (``search.fresh_copy``: what every playout of a search starts with);
- ``move``: CPU milliseconds per search move (mean and median), every seat played by
  the family's ``search`` strategy at its default budget on fixed seeds, and a digest
  of every game's record. Equal digests in two trees mean the searches chose the
  very same moves: a change to how worlds are built kept their play identical.

Times are CPU time (``time.process_time``), so other processes on the machine
disturb them less; ``--rounds`` repeats each figure and keeps the best.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine
from engine.game import Game
from engine.strategies import get_strategy
from engine.strategies.search import fresh_copy

#: (ruleset, seats, search parameters): the families' searches that build worlds from a view.
TABLES = [
    ("switch", 4, {}),
    ("j28", 4, {}),
    ("blackjack", 4, {}),
    ("abbott", 2, {"iterations": 200}),
]


def midgame(ruleset: str, seats: int, steps: int = 12) -> Game:
    game = engine.new_game(ruleset, seats=seats, seed=1)
    rng = random.Random(1)
    for _ in range(steps):
        legal = game.legal_actions(game.to_act)
        game.apply(game.to_act, legal[rng.randrange(len(legal))])
    return game


def copy_us(ruleset: str, seats: int, n: int = 20000) -> float:
    """Microseconds per copy of a game in mid-hand, with a generator given."""
    game = midgame(ruleset, seats)
    rng = random.Random(0)
    start = time.process_time()
    for _ in range(n):
        fresh_copy(game, rng)
    return (time.process_time() - start) / n * 1e6


def play_searched(ruleset: str, seats: int, params: dict, games: int) -> tuple[list[float], str]:
    """Every seat a search: CPU seconds per move, and a digest of the records."""
    times: list[float] = []
    records = []
    for seed in range(games):
        game = engine.new_game(ruleset, seats=seats, seed=seed, options={"target": 0})
        players = [get_strategy("search", game.family, **params) for _ in range(seats)]
        rngs = [random.Random(f"{seed}:{s}") for s in range(seats)]
        for event in game.opening_events:
            for s, p in enumerate(players):
                if hasattr(p, "observe"):
                    p.observe(event.present(s))
        while not game.over and game.actions_taken < 400:
            seat = game.to_act
            legal = game.legal_actions(seat)
            view = game.view(seat)
            start = time.process_time()
            action = players[seat].choose(view, legal, rngs[seat])
            times.append(time.process_time() - start)
            for event in game.apply(seat, action):
                for s, p in enumerate(players):
                    if hasattr(p, "observe"):
                        p.observe(event.present(s))
        records.append(game.record())
    digest = hashlib.sha256(json.dumps(records, sort_keys=True).encode()).hexdigest()[:16]
    return times, digest


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3, help="games per table for the move figure")
    ap.add_argument("--rounds", type=int, default=3, help="repeats; the best is kept")
    args = ap.parse_args()
    print(f"{'table':<14}{'copy us':>9}{'move ms mean':>14}{'median':>8}{'moves':>7}  digest")
    for ruleset, seats, params in TABLES:
        copies = min(copy_us(ruleset, seats) for _ in range(args.rounds))
        best: list[float] | None = None
        digest = ""
        for _ in range(args.rounds):
            times, digest = play_searched(ruleset, seats, params, args.games)
            if best is None or sum(times) < sum(best):
                best = times
        assert best is not None
        print(
            f"{ruleset + ':' + str(seats):<14}{copies:>9.1f}"
            f"{1000 * statistics.mean(best):>14.2f}{1000 * statistics.median(best):>8.2f}"
            f"{len(best):>7}  {digest}",
            flush=True,
        )


if __name__ == "__main__":
    main()
