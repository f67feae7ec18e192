"""Whether the after-game analysis's marks can be trusted: its marks against the truth.

2-player abbott, where the truth exists: the exact solver, given a large node
budget, values every option of a decision (a win 1, a tie 1/2, a loss 0), so
each decision's true loss is known. The decisions are those of 2-player games
(fresh seeds) between players who take the heuristic's move three times in
four and a random move otherwise (so there are blunders to find), on turns
with 9 to 12 cards on the grid, where the analysis cannot simply solve
everything: there it samples, or stands on what its solver proved within its
own, much smaller budget. Decisions whose truth the big solve does not finish
are left out (and counted).

For each mark it prints how many were given, how many were right (the true
loss at least the mark's floor: 0.20 for ``??``, 0.10 for ``?``, 0.05 for
``?!``; with exact values a true loss is 0, 1/2 or 1), the precision, and the
recall (the true losses of that size marked at that grade or above), with the
targets for ``??``: precision >= 90%, recall >= 70%. It prints the same for
the marks that stand on sampling alone (``±`` in the report), since that is
where trust is earned.

It prints the analysis's own CPU per decision (the truth's solves apart), and
with ``--misses`` each true blunder not marked ``??``: what the analysis gave
it and why (sampled with a loss under the floor or within the noise, a check
the solver could not finish, a proof that fell short).

    nice -n 10 python bench/marks.py                    # 200 decisions, seed 3: ~20 CPU min
    nice -n 10 python bench/marks.py --decisions 300 --seed 11
    nice -n 10 python bench/marks.py --cache truth.json # keep the truth for the next run
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine
from engine.actions import Action
from engine.analysis import CONFIDENCE, GRADES, Settings, alternatives, grade, judge
from engine.strategies import get_strategy
from engine.strategies.abbott_solver import SolverTable, cards_left, solve

WORTH = {0: 1.0, None: 0.5, 1: 0.0}  # a seat's share of the hand, from South's side
TARGETS = {"blunder": (0.90, 0.70)}
DEFAULTS = Settings()
SIGNS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}


Decision = tuple[dict[str, Any], list[Action], str]


def decisions(count: int, seed: int, lo: int, hi: int) -> list[Decision]:
    """``count`` decisions (view, legal, played) with ``lo``..``hi`` cards on the grid."""
    heuristic = get_strategy("heuristic", "abbott")
    rng = random.Random(seed)
    out: list[Decision] = []
    game_seed = seed * 10_000
    while len(out) < count:
        game = engine.new_game("abbott", seats=2, seed=game_seed)
        game_seed += 1
        while not game.over and len(out) < count:
            seat = game.to_act
            assert seat is not None
            view, legal = game.view(seat), game.legal_actions(seat)
            moves = [a for a in legal if a.verb == "move"]
            if rng.random() < 0.25 and moves:
                action: Action = rng.choice(moves)
            else:
                action = heuristic.choose(view, legal, rng)
            if (
                lo <= cards_left(view) <= hi
                and len(alternatives("abbott", view, legal, action)) > 1
            ):
                out.append((view, legal, str(action)))
            game.apply(seat, action)
    return out


def truth(view: dict[str, Any], node_limit: int) -> dict[str, float] | None:
    """Each option's exact value for the seat to act, or ``None`` if not solved in time."""
    result = solve(view, node_limit)
    if not result.complete:
        return None
    me = view["turn_of"]
    return {
        name: WORTH[winner] if me == 0 else 1.0 - WORTH[winner]
        for name, winner in result.outcomes.items()
    }


def why_missed(dec: Any) -> str:
    """Why a true blunder was not marked ``??``, from what the analysis gave."""
    if dec.exact_mark:
        return "valued exactly, loss under the floor (cannot be)" if dec.mark else "exact, no mark"
    if dec.mark == "inaccuracy" and grade(dec.loss, dec.error, False) in ("mistake", "blunder"):
        return "sampled blunder, the solver's check did not finish"
    if dec.loss < GRADES[-1][1]:
        return "sampled, no loss seen"
    if dec.loss < CONFIDENCE * dec.error:
        return "sampled, loss within the noise"
    return f"sampled, loss {dec.loss:.2f} under the floor"


def report(title: str, rows: list[tuple[str | None, float]]) -> bool:
    """Precision and recall per grade over (mark, true loss) rows; whether ``??`` met
    its targets."""
    print(f"\n{title}: {len(rows)} decisions")
    print(
        f"{'mark':>4} {'given':>6} {'right':>6} {'precision':>10} {'true':>5} {'recall':>7}  target"
    )
    ok = True
    order = [name for name, _ in GRADES]
    for name, floor in GRADES:
        at_or_above = order[: order.index(name) + 1]
        given = [loss for mark, loss in rows if mark == name]
        right = sum(loss >= floor - 1e-9 for loss in given)
        true = [mark for mark, loss in rows if loss >= floor - 1e-9]
        found = sum(mark in at_or_above for mark in true)
        precision = right / len(given) if given else float("nan")
        recall = found / len(true) if true else float("nan")
        target = "-"
        if name in TARGETS and not given and not true:
            target = "none given, none to find"
        elif name in TARGETS:
            p_min, r_min = TARGETS[name]
            met = bool(given) and precision >= p_min and (not true or recall >= r_min)
            ok = ok and met
            target = (
                f"precision >= {p_min:.0%}, recall >= {r_min:.0%}: {'met' if met else 'NOT met'}"
            )
        print(
            f"{SIGNS[name]:>4} {len(given):>6} {right:>6} {precision:>10.0%} {len(true):>5}"
            f" {recall:>7.0%}  {target}"
        )
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=200, help="decisions judged (200)")
    parser.add_argument("--seed", type=int, default=3, help="games seed (3)")
    parser.add_argument("--cards", default="9-12", help="cards on the grid (9-12)")
    parser.add_argument("--truth-nodes", type=int, default=20_000_000, help="(20,000,000)")
    parser.add_argument("--worlds", type=int, default=DEFAULTS.worlds)
    parser.add_argument("--solve-at", type=int, default=DEFAULTS.solve_at)
    parser.add_argument("--node-limit", type=int, default=DEFAULTS.node_limit)
    parser.add_argument("--cache", type=Path, help="a JSON file keeping the truth between runs")
    parser.add_argument("--misses", action="store_true", help="print the blunders not marked ??")
    args = parser.parse_args()
    lo, _, hi = args.cards.partition("-")
    settings = Settings(
        seed=args.seed, worlds=args.worlds, solve_at=args.solve_at, node_limit=args.node_limit
    )
    print(
        f"abbott 2 players, {args.cards} cards, seed {args.seed}; analysis: {args.worlds} worlds,"
        f" solver from {args.solve_at} cards within {args.node_limit:,} nodes;"
        f" truth within {args.truth_nodes:,} nodes"
    )
    rows: list[tuple[str | None, float]] = []
    sampled: list[tuple[str | None, float]] = []
    unsolved = 0
    cpu = time.process_time()
    spent = 0.0  # the analysis's own CPU
    todo = decisions(args.decisions, args.seed, int(lo), int(hi))
    key = f"{args.seed}:{args.cards}:{args.truth_nodes}"
    cache: dict[str, Any] = {}
    if args.cache and args.cache.exists():
        cache = json.loads(args.cache.read_text())
    known: dict[str, Any] = cache.setdefault(key, {})
    try:
        for i, (view, legal, played) in enumerate(todo):
            values = known[str(i)] if str(i) in known else truth(view, args.truth_nodes)
            known[str(i)] = values
            if values is None:
                unsolved += 1
                continue
            rng = random.Random(f"{args.seed}:{i}")
            start = time.process_time()
            dec = judge(i, view, None, legal, played, rng, settings, SolverTable())
            spent += time.process_time() - start
            loss = max(values.values()) - values[played]
            if args.misses and loss >= 0.2 and dec.mark != "blunder":
                how = "exact" if dec.exact else "proved" if dec.exact_mark else f"±{dec.error:.2f}"
                print(
                    f"  missed {i}: {cards_left(view)} cards, {played} (true {values[played]:.1f},"
                    f" best {max(values.values()):.1f}); analysis {dec.mark} loss {dec.loss:.2f}"
                    f" {how}, best {dec.best}: {why_missed(dec)}"
                )
            rows.append((dec.mark, loss))
            if not dec.exact_mark:
                sampled.append((dec.mark, loss))
            print(f"  {i + 1} judged", file=sys.stderr, flush=True)
    except KeyboardInterrupt:  # a long run stopped (Ctrl-C): report what was judged
        print(f"interrupted after {len(rows) + unsolved} of {len(todo)} decisions")
    if args.cache:
        args.cache.write_text(json.dumps(cache))
    judged = len(rows)
    print(f"left out, not solved within the truth's budget: {unsolved}")
    print(
        f"CPU: {time.process_time() - cpu:.0f} s in all; the analysis {spent:.0f} s,"
        f" {spent / max(1, judged):.2f} s a decision"
    )
    ok = report("every mark", rows)
    report("marks on sampling alone (±)", sampled)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
