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

Before and after: ``python bench/engine.py --against TREE`` measures the shedding
presets in this tree and in ``TREE`` (another checkout, e.g. ``git worktree add
../before COMMIT``), one fresh process per measure, the two trees taking turns
round by round (each going first every other round) so that load on the machine
falls on both alike; the best round of each is kept. Besides actions/s over whole
games it prints what ``legal_actions`` and ``apply`` cost per call, each call timed
on the thread's CPU clock (the clock's own cost, measured, is taken off), and
whether the target (no preset slower) is met.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

# The tree whose engine is measured: this one, or the one a comparison's worker was given.
sys.path.insert(0, os.environ.get("BENCH_ENGINE_TREE") or str(Path(__file__).resolve().parents[1]))

import engine
from engine.actions import Action, Draw
from engine.shedding import SheddingGame

TREE = sys.path[0]

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


def per_call(name: str, seats: int, seconds: float, policy: str) -> dict[str, float]:
    """CPU microseconds per ``legal_actions`` and per ``apply`` call over random games
    played by ``policy`` for about ``seconds``, each call timed on the thread's clock."""
    clock = time.thread_time_ns
    overhead = min(-clock() + clock() for _ in range(2000))
    choose = POLICIES[policy]
    legal_ns = apply_ns = calls = 0
    start = time.process_time()
    seed = 0
    while time.process_time() - start < seconds or calls == 0:
        game = engine.new_game(name, seats=seats, seed=seed)
        rng = random.Random(seed)
        seed += 1
        while not game.over:
            seat = game.to_act
            t0 = clock()
            legal = game.legal_actions(seat)
            t1 = clock()
            action = choose(legal, rng)
            t2 = clock()
            game.apply(seat, action)
            t3 = clock()
            legal_ns += t1 - t0 - overhead
            apply_ns += t3 - t2 - overhead
            calls += 1
    return {"legal_us": legal_ns / calls / 1000, "apply_us": apply_ns / calls / 1000}


def _worker(tree: str, name: str, seats: int, seconds: float, policy: str) -> dict[str, float]:
    """One measure of ``tree``'s engine, in a fresh process."""
    out = subprocess.run(
        [sys.executable, __file__, "--worker", name, str(seats), str(seconds), policy],
        env={**os.environ, "BENCH_ENGINE_TREE": tree},
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, float] = json.loads(out.stdout)
    return result


def compare(against: str, seconds: float, rounds: int, only: list[str] | None = None) -> None:
    """Each shedding preset (or those in ``only``) measured in ``against`` (before) and
    this tree (after), interleaved round by round; the best round of each side is kept."""
    trees = {"before": str(Path(against).resolve()), "after": TREE}
    print(f"before: {trees['before']}\nafter:  {trees['after']}")
    print(
        f"{'preset':<10}{'policy':>8}{'actions/s before':>18}{'after':>8}{'ratio':>7}"
        f"{'legal_actions us before':>25}{'after':>7}{'apply us before':>17}{'after':>7}"
    )
    slower = []
    for name, seats in CONFIGS:
        if name in ("abbott", "kilodney") or (only and name not in only):
            continue
        for policy in POLICIES:
            best: dict[str, dict[str, float]] = {}
            for k in range(rounds):
                # The sides swap who goes first each round, so that neither always
                # runs just after the other (a machine's load drifts within a round).
                sides = list(trees.items())
                for side, tree in sides if k % 2 == 0 else sides[::-1]:
                    r = _worker(tree, name, seats, seconds, policy)
                    old = best.get(side)
                    best[side] = (
                        r
                        if old is None
                        else {
                            "actions_per_s": max(old["actions_per_s"], r["actions_per_s"]),
                            "legal_us": min(old["legal_us"], r["legal_us"]),
                            "apply_us": min(old["apply_us"], r["apply_us"]),
                        }
                    )
            b, a = best["before"], best["after"]
            ratio = a["actions_per_s"] / b["actions_per_s"]
            if ratio < 1:
                slower.append(f"{name} {policy}")
            print(
                f"{name:<10}{policy:>8}{b['actions_per_s']:>18.0f}{a['actions_per_s']:>8.0f}"
                f"{ratio:>6.2f}x{b['legal_us']:>25.1f}{a['legal_us']:>7.1f}"
                f"{b['apply_us']:>17.1f}{a['apply_us']:>7.1f}",
                flush=True,
            )
    verdict = "met" if not slower else "MISSED (slower: " + ", ".join(slower) + ")"
    print(f"target: no preset slower in actions/s: {verdict}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="CPU time per ruleset")
    ap.add_argument("--rounds", type=int, default=1, help="measures per ruleset; the best is kept")
    ap.add_argument(
        "--against", metavar="TREE", help="compare the shedding presets with another checkout"
    )
    ap.add_argument(
        "--presets", nargs="+", metavar="PRESET", help="with --against: only these presets"
    )
    ap.add_argument("--worker", nargs=4, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        name, seats, seconds, policy = args.worker
        result = measure(name, int(seats), float(seconds), policy)
        result.update(per_call(name, int(seats), float(seconds), policy))
        print(json.dumps(result))
        return
    if args.against:
        compare(args.against, args.seconds, args.rounds, args.presets)
        return
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
