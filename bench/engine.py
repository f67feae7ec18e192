"""Random playouts of every ruleset: games/s and actions/s.

Run: ``python bench/engine.py [--seconds S]``. Each ruleset is played at its
usual table size by a random policy over ``legal_actions`` (the cost of listing
legal actions is part of the figure, as it is for a bot), in two forms:

- ``uniform``: any legal action, drawing included. In the shedding family this
  draws while it could play, so hands grow, and many hands end only at the
  engine's turn limit (a blocked hand); the share of such hands is printed.
- ``plays``: a play whenever one is legal, a draw only when nothing else is.
  This is what RLCard's UNO random agent does (its legal actions hold the draw
  only when no card can be played), so it is the policy the UNO reference is
  compared with. In abbott and kilodney the two are the same policy.

References from the same run (RLCard's UNO, OpenSpiel's crazy_eights) come from
``bench/engine_refs.py`` where their packages are installed.

Times are the process's CPU time (``time.process_time``), so other work on a shared
machine disturbs the figures less than it would wall-clock ones; ``--rounds`` measures
each ruleset that many times and keeps the best.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine
from engine.actions import Action, Draw
from engine.shedding import SheddingGame

# (ruleset, seats) pairs measured; a ruleset not registered is skipped.
CONFIGS = [("abbott", 4), ("abbott", 2), ("kilodney", 6)] + [
    (p, 4) for p in ("switch", "blackjack", "irish", "j28", "taketwo", "gamebot")
]


def _uniform(legal: list[Action], rng: random.Random) -> Action:
    return legal[rng.randrange(len(legal))]


def _plays(legal: list[Action], rng: random.Random) -> Action:
    """A play (any action but a draw) when there is one, as UNO's random agent."""
    plays = [a for a in legal if not isinstance(a, Draw)]
    return _uniform(plays or legal, rng)


POLICIES: dict[str, Callable[[list[Action], random.Random], Action]] = {
    "uniform": _uniform,
    "plays": _plays,
}


def playout(
    name: str, seats: int, seed: int, policy: str = "uniform", max_actions: int = 100_000
) -> tuple[int, int, int]:
    """Play one game to its end by ``policy``: (actions taken, hands, hands blocked at
    the turn limit)."""
    game = engine.new_game(name, seats=seats, seed=seed)
    choose = POLICIES[policy]
    rng = random.Random(seed)
    n = hands = blocked = 0
    while not game.over and n < max_actions:
        seat = game.to_act
        for event in game.apply(seat, choose(game.legal_actions(seat), rng)):
            if event.kind == "hand_end":
                hands += 1
                blocked += bool(event.public.get("blocked"))
        n += 1
    return n, hands, blocked


def measure(name: str, seats: int, seconds: float, policy: str) -> dict[str, float]:
    """Games/s, actions/s, games played and the share of hands blocked at the turn
    limit, within about ``seconds``."""
    start = time.process_time()
    games = actions = hands = blocked = 0
    while time.process_time() - start < seconds or games == 0:
        n, h, b = playout(name, seats, seed=games, policy=policy)
        actions, hands, blocked, games = actions + n, hands + h, blocked + b, games + 1
    elapsed = time.process_time() - start
    return {
        "games_per_s": games / elapsed,
        "actions_per_s": actions / elapsed,
        "games": games,
        "blocked": blocked / hands if hands else 0.0,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="CPU time per ruleset")
    ap.add_argument("--rounds", type=int, default=1, help="measures per ruleset; the best is kept")
    args = ap.parse_args()
    known = set(engine.rulesets())
    print(
        f"{'ruleset':<12}{'seats':>6}{'policy':>9}{'games/s':>10}{'actions/s':>11}"
        f"{'games':>7}{'hands blocked':>15}"
    )
    results = {}
    for name, seats in CONFIGS:
        if name not in known:
            print(f"{name:<12}{seats:>6}  (not registered)")
            continue
        # abbott and kilodney have no draw: their two policies are one.
        shedding = isinstance(engine.new_game(name, seats=seats, seed=0), SheddingGame)
        for policy in POLICIES if shedding else ["uniform"]:
            r = max(
                (measure(name, seats, args.seconds, policy) for _ in range(args.rounds)),
                key=lambda m: m["actions_per_s"],
            )
            results[(name, seats, policy)] = r["actions_per_s"]
            print(
                f"{name:<12}{seats:>6}{policy:>9}{r['games_per_s']:>10.1f}"
                f"{r['actions_per_s']:>11.0f}{r['games']:>7}{r['blocked']:>14.0%}"
            )
    try:
        import engine_refs  # type: ignore[import-not-found]
    except ImportError:
        print("(no reference games: bench/engine_refs.py is absent)")
        return
    engine_refs.report(results, args.seconds, measure)


if __name__ == "__main__":
    main()
