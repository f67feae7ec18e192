"""How often the 2-player abbott solver finishes within a second of CPU, by cards left,
beside the solver as it was before (``--reference``), in the same run.

Positions come from 2-player games of the ``heuristic`` strategy (seeded: the
same ``--seed`` measures the same positions, a new one fresh positions): for
each card count, the first position of each game's first hand with that many
cards left. Each is solved from scratch (no kept table, as at a bot's first
endgame move) by both solvers, every option to its exact result (``complete``,
as the after-game analysis needs it), each solve given one second of the
process's CPU time (a ``SIGPROF`` timer: CPU, not wall, so other work on a
shared machine does not count against it). A position counts as solved when
the solve completed within that second.

The reference is the solver module at ``--reference`` (a git revision: by
default the commit before the faster solver), read with ``git show`` and
loaded beside today's, so both run on the same machine, at the same load, on
the same positions. The targets (the figures a player's analysis and a bot's
endgame rely on): at least 90% of 8-card and 70% of 10-card positions.

    nice -n 10 python bench/solver.py                     # 6..12 cards, 40 each: ~6 CPU min
    nice -n 10 python bench/solver.py --cards 8-10 --positions 60 --seed 9
"""

from __future__ import annotations

import argparse
import signal
import statistics
import subprocess
import sys
import time
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine
from engine.strategies import abbott_solver, get_strategy
from engine.strategies.abbott_solver import cards_left

ROOT = Path(__file__).resolve().parents[1]
#: The solver before move ordering, the one-card race and the kept tables.
REFERENCE = "1a4682bc3d9a350d53bbb0c44aeab7fa36135a49"
TARGETS = {8: 0.90, 10: 0.70}
BUDGET = 1.0  # CPU seconds a solve


class OverBudget(Exception):
    """Raised by the CPU timer inside a solve that ran out of its second."""


def _expired(signum: int, frame: Any) -> None:
    raise OverBudget


def reference_solver(revision: str) -> types.ModuleType:
    """The solver module as it was at ``revision``, loaded under its own name."""
    source = subprocess.run(
        ["git", "show", f"{revision}:engine/strategies/abbott_solver.py"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    module = types.ModuleType("abbott_solver_reference")
    module.__file__ = f"{revision}:engine/strategies/abbott_solver.py"
    sys.modules[module.__name__] = module  # dataclasses look their module up
    exec(compile(source, module.__file__, "exec"), module.__dict__)
    return module


def positions(n_cards: int, count: int, seed: int) -> list[dict[str, Any]]:
    """``count`` positions with ``n_cards`` left, from games seeded ``seed``, ``seed + 1``..."""
    import random

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


def timed(solve: Callable[..., Any], view: dict[str, Any]) -> tuple[bool, float, int]:
    """(completed within the budget, CPU seconds, nodes or -1 when cut by the timer)."""
    start = time.process_time()
    try:
        try:
            signal.setitimer(signal.ITIMER_PROF, BUDGET)
            result = solve(view, 50_000_000)
        finally:  # the timer may go off here too, just as the solve ends: still over
            signal.setitimer(signal.ITIMER_PROF, 0)
    except OverBudget:
        return False, time.process_time() - start, -1
    took = time.process_time() - start
    return bool(result.complete) and took <= BUDGET, took, result.nodes


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", default="6-12", help="card counts, e.g. 6-12 or 8 (6-12)")
    parser.add_argument("--positions", type=int, default=40, help="positions a count (40)")
    parser.add_argument("--seed", type=int, default=7, help="positions' games seed (7)")
    parser.add_argument("--reference", default=REFERENCE, help="git revision of the reference")
    args = parser.parse_args()
    lo, _, hi = args.cards.partition("-")
    counts = range(int(lo), int(hi or lo) + 1)
    old = reference_solver(args.reference)
    signal.signal(signal.SIGPROF, _expired)
    print(
        f"abbott 2-player solver: share of positions solved completely within {BUDGET:g} s"
        f" of CPU; {args.positions} positions a count, seed {args.seed};"
        f" reference {args.reference[:10]}"
    )
    print(
        f"{'cards':>5} {'reference':>10} {'today':>7} {'median s ref':>13}"
        f" {'median s today':>15} {'median nodes today':>19}  target"
    )
    verdicts = []
    for n in counts:
        views = positions(n, args.positions, args.seed * 1000 + n)
        ref = [timed(old.solve, v) for v in views]
        new = [timed(abbott_solver.solve, v) for v in views]
        share_ref = sum(ok for ok, _, _ in ref) / len(views)
        share_new = sum(ok for ok, _, _ in new) / len(views)
        nodes = [k for _, _, k in new if k >= 0]
        target = TARGETS.get(n)
        verdict = "-"
        if target is not None:
            met = share_new >= target
            verdicts.append(met)
            verdict = f">= {target:.0%}: {'met' if met else 'NOT met'}"
        print(
            f"{n:>5} {share_ref:>10.0%} {share_new:>7.0%}"
            f" {statistics.median(t for _, t, _ in ref):>13.3f}"
            f" {statistics.median(t for _, t, _ in new):>15.3f}"
            f" {statistics.median(nodes) if nodes else 0:>19,.0f}  {verdict}",
            flush=True,
        )
    return 0 if all(verdicts) else 1


if __name__ == "__main__":
    sys.exit(main())
