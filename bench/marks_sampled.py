"""Whether the after-game analysis's sampled marks can be trusted where no exact truth exists.

In shedding (``switch``, 3 players) and 4-player abbott the analysis only
samples: its values are the rollouts' averages over ``worlds`` sampled worlds.
There is no solver to give the truth, so the marks are measured two ways.

- **Recall, on planted blunders.** Games between players who take the
  heuristic's move three times in four and a random one otherwise; once a game,
  at the first chance, one seat is made to play a move that is a blunder by any
  measure, and the analysis judges that decision. Shedding: drawing when a play
  that goes out was open (going out is the best a seat can do, first out
  scores 1). 4-player abbott: a move
  that leaves the next player a take that wins him the hand, where a take that
  wins the hand at once was open (the hand's 10 points, or 7 to a partner, are
  the scale's top). The share of plants marked ``??`` is the recall.
- **Precision, against a reference ten times the budget.** Every decision of
  such games (no plants) is judged, game after game until ``--blunders`` marks
  ``??`` were given (or ``--most`` decisions judged); each ``??`` is judged
  again with ten times the worlds on a seed of its own, and is right when that
  reference also finds the played move at least 0.20 (the ``??`` floor) below
  its best.

Targets, as for 2-player abbott's exact truth (``bench/marks.py``): ``??``
precision >= 90%, recall >= 70%. It prints the analysis's CPU a decision.

    nice -n 10 python bench/marks_sampled.py                  # both families, seed 5
    nice -n 10 python bench/marks_sampled.py --family shedding --seed 12 --blunders 50
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine
from engine.actions import Action, Draw, Move, Play
from engine.analysis import Decision, Settings, analyse, decision_points
from engine.strategies import get_strategy

TARGETS = (0.90, 0.70)  # ``??`` precision, recall
FAMILIES = {"shedding": ("switch", 3), "abbott": ("abbott", 4)}
FLOOR = 0.20  # the ``??`` floor
Plant = Callable[[Any, int, list[Action]], Action | None]


# ------------------------------------------------------------- plants
def _goes_out(game: Any, seat: int, legal: list[Action]) -> list[Play]:
    hand = game.view(seat)["hand"]
    return [a for a in legal if isinstance(a, Play) and len(a.cards) == len(hand)]


def draw_not_out(game: Any, seat: int, legal: list[Action]) -> Action | None:
    """Shedding: draw when a play that goes out is open."""
    if _goes_out(game, seat, legal):
        return next((a for a in legal if isinstance(a, Draw)), None)
    return None


def _hand_ended(game: Any, seat: int, move: Action) -> tuple[Any, list[int] | None]:
    """The game after ``move``, and the hand's points if it ended the hand."""
    after = game.copy(rng=random.Random(0))
    hand = after.hand_number
    after.apply(seat, move)
    if after.hand_number == hand and not after.over:
        return after, None
    return after, list(after.hand_scores[-1])


def opening_for_next(game: Any, seat: int, legal: list[Action]) -> Action | None:
    """4-player abbott: a move that lets the next seat take a card that wins it the hand
    (6 points or more to it, nothing to the mover), when a take that wins the hand at once
    (6 points or more to the mover) was open."""
    moves = [a for a in legal if isinstance(a, Move)]
    if not any((p := _hand_ended(game, seat, m)[1]) and p[seat] >= 6 for m in moves):
        return None
    for m in moves:
        after, points = _hand_ended(game, seat, m)
        nxt = after.to_act
        if points is not None or nxt is None:
            continue
        for reply in (a for a in after.legal_actions(nxt) if isinstance(a, Move)):
            p = _hand_ended(after, nxt, reply)[1]
            if p and p[nxt] >= 6 and p[seat] == 0:
                return m
    return None


PLANTS: dict[str, list[tuple[str, Plant]]] = {
    "shedding": [
        ("draw instead of going out", draw_not_out),
    ],
    "abbott": [("a move that hands the next player the hand", opening_for_next)],
}


# ------------------------------------------------------------- games
def play(ruleset: str, seats: int, seed: int, plant: Plant | None, after: int) -> dict[str, Any]:
    """One game between mixed players (the heuristic three times in four, else a random
    legal action); ``plant`` acts once, at its first chance from action ``after``. The
    record's ``planted`` is that action's index (None: no chance came)."""
    game = engine.new_game(ruleset, seats, seed)
    heuristic = get_strategy("heuristic", game.family)
    rng = random.Random(seed)
    planted = None
    while not game.over:
        seat = game.to_act
        view, legal = game.view(seat), game.legal_actions(seat)
        action = None
        if plant is not None and planted is None and game.actions_taken >= after:
            action = plant(game, seat, legal)
            if action is not None:
                planted = game.actions_taken
        if action is None:
            if rng.random() < 0.25:
                action = rng.choice(legal)
            else:
                action = heuristic.choose(view, legal, rng)
        game.apply(seat, action)
    record = game.record()
    record["planted"] = planted
    return record


def recall(family: str, games: int, seed: int, settings: Settings) -> tuple[int, int, float, int]:
    """(plants, marked ``??``, analysis CPU, decisions judged) over ``games`` a plant."""
    ruleset, seats = FAMILIES[family]
    found = total = judged = capped = 0
    cpu = 0.0
    for name, plant in PLANTS[family]:
        hits = tried = 0
        game_seed = seed * 10_000
        while tried < games and game_seed < seed * 10_000 + 20 * games:
            record = play(ruleset, seats, game_seed, plant, 4)
            game_seed += 1
            index = record["planted"]
            if index is None or index not in decision_points(record):
                continue
            start = time.process_time()
            [dec] = analyse(record, [index], settings)
            cpu += time.process_time() - start
            judged += 1
            tried += 1
            hits += dec.mark == "blunder"
            capped += dec.mark != "blunder" and dec.capped is not None
            if dec.mark != "blunder":
                print(f"  missed ({name}, game {game_seed - 1}): {_line(dec)}", flush=True)
        print(f"  {name}: {hits} of {tried} marked ??", flush=True)
        found += hits
        total += tried
    print(f"  the cap on untrusted samples took {capped} plants from ??", flush=True)
    return total, found, cpu, judged


def precision(
    family: str, wanted: int, most: int, seed: int, settings: Settings, scale: int
) -> tuple[list[Decision], int, float, int]:
    """The ``??`` given to every decision of unplanted games, until ``wanted`` of them or
    ``most`` decisions judged; how many the reference (``scale`` times the worlds)
    confirms; the analysis's CPU and the decisions judged."""
    ruleset, seats = FAMILIES[family]
    reference = replace(settings, seed=settings.seed + 1000, worlds=settings.worlds * scale)
    blunders: list[Decision] = []
    capped: dict[str, int] = {}  #: sampled ? and ?? held at ?!, by why
    right = judged = 0
    cpu = 0.0
    game_seed = seed * 10_000 + 5_000
    while len(blunders) < wanted and judged < most:
        record = play(ruleset, seats, game_seed, None, 0)
        points = decision_points(record)
        start = time.process_time()
        decisions = analyse(record, points, settings)
        cpu += time.process_time() - start
        judged += len(points)
        for dec in decisions:
            if dec.capped is not None:
                capped[dec.capped] = capped.get(dec.capped, 0) + 1
                print(f"  capped, game {game_seed}: {_line(dec)}", flush=True)
            if dec.mark != "blunder":
                continue
            [ref] = analyse(record, [dec.index], reference)
            agreed = ref.values[ref.best] - ref.values[dec.played] >= FLOOR - 1e-9
            right += agreed
            blunders.append(dec)
            verdict = "agreed" if agreed else f"NOT agreed: {_line(ref)}"
            print(f"  ?? game {game_seed}: {_line(dec)}; reference {verdict}", flush=True)
        game_seed += 1
    held = ", ".join(f"{n} {why}" for why, n in capped.items()) or "none"
    print(f"  sampled ? and ?? capped at ?! in unplanted games: {held}", flush=True)
    return blunders, right, cpu, judged


def _line(dec: Decision) -> str:
    return (
        f"step {dec.index + 1} {dec.played} ({dec.values[dec.played]:.2f}), best {dec.best}"
        f" ({dec.values[dec.best]:.2f}), loss {dec.loss:.2f} ±{dec.error:.2f}, mark {dec.mark}"
        + (f" (capped: {dec.capped})" if dec.capped else "")
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--family", choices=[*FAMILIES, "both"], default="both")
    parser.add_argument("--plants", type=int, default=20, help="planted blunders of each kind (20)")
    parser.add_argument("--blunders", type=int, default=30, help="?? to check for precision (30)")
    parser.add_argument("--most", type=int, default=3000, help="... or decisions judged (3000)")
    parser.add_argument("--seed", type=int, default=5, help="games seed (5)")
    parser.add_argument("--scale", type=int, default=10, help="the reference's worlds, times (10)")
    args = parser.parse_args()
    settings = Settings(seed=args.seed)
    ok = True
    for family in FAMILIES if args.family == "both" else [args.family]:
        ruleset, seats = FAMILIES[family]
        print(
            f"\n{ruleset}, {seats} players, seed {args.seed}: {settings.worlds} worlds a decision"
        )
        planted, found, cpu_r, n_r = recall(family, args.plants, args.seed, settings)
        blunders, right, cpu_p, n_p = precision(
            family, args.blunders, args.most, args.seed, settings, args.scale
        )
        p = right / len(blunders) if blunders else float("nan")
        r = found / planted if planted else float("nan")
        met_p, met_r = (bool(blunders) and p >= TARGETS[0]), (bool(planted) and r >= TARGETS[1])
        ok = ok and met_p and met_r
        print(
            f"?? precision: {right} of {len(blunders)} confirmed by {args.scale}x the worlds ="
            f" {p:.0%} (target >= {TARGETS[0]:.0%}: {'met' if met_p else 'NOT met'})"
        )
        print(
            f"?? recall: {found} of {planted} planted blunders = {r:.0%}"
            f" (target >= {TARGETS[1]:.0%}: {'met' if met_r else 'NOT met'})"
        )
        print(
            f"analysis CPU: {(cpu_r + cpu_p) / max(1, n_r + n_p):.2f} s a decision"
            f" ({n_r + n_p} decisions; {n_p} in unplanted games)"
        )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
