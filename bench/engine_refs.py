"""Reference playouts measured in the same run as ``bench/engine.py``.

RLCard's UNO game (pure Python, like ours) and OpenSpiel's ``crazy_eights``
(C++ behind pybind11) are played to the end by uniform random choice among
their legal actions, exactly as ``bench/engine.py`` plays our rulesets, so the
actions/s figures compare the same work: list the legal actions, pick one,
apply it. Both packages are bench-only (``pip install -e '.[bench]'`` in a
venv of its own); a missing one is reported and skipped.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

SEATS = 4
# Compared like with like: UNO's random agent plays when it can, so ours does too.
TARGET = ("switch", 4, "plays")
TARGET_RATIO = 1.5


def _rlcard_uno(seconds: float) -> tuple[float, float, int]:
    import numpy as np
    from rlcard.games.uno.game import UnoGame

    game = UnoGame(num_players=SEATS)
    rng = random.Random(0)
    start = time.process_time()
    games = actions = 0
    while time.process_time() - start < seconds or games == 0:
        game.np_random = np.random.RandomState(games)
        game.init_game()
        while not game.is_over():
            legal = game.get_legal_actions()
            game.step(legal[rng.randrange(len(legal))])
            actions += 1
        games += 1
    elapsed = time.process_time() - start
    return games / elapsed, actions / elapsed, games


def _openspiel_crazy_eights(seconds: float) -> tuple[float, float, int]:
    import pyspiel

    game = pyspiel.load_game("crazy_eights", {"players": SEATS})
    rng = random.Random(0)
    start = time.process_time()
    games = actions = 0
    while time.process_time() - start < seconds or games == 0:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            actions += 1
        games += 1
    elapsed = time.process_time() - start
    return games / elapsed, actions / elapsed, games


REFERENCES: list[tuple[str, Callable[[float], tuple[float, float, int]]]] = [
    ("rlcard uno", _rlcard_uno),
    ("openspiel crazy_eights", _openspiel_crazy_eights),
]


Measure = Callable[[str, int, float, str], dict[str, float]]


def interleaved(measure: Measure, seconds: float, rounds: int = 6) -> float | None:
    """Our actions/s over RLCard UNO's, measured in alternating slices so that a
    machine whose load changes during the run treats both alike."""
    ours = uno = 0.0
    name, seats, policy = TARGET
    for _ in range(rounds):
        try:
            uno += _rlcard_uno(seconds / rounds)[1]
        except ImportError:
            return None
        ours += measure(name, seats, seconds / rounds, policy)["actions_per_s"]
    return ours / uno


def report(results: dict[tuple[str, int, str], float], seconds: float, measure: Measure) -> None:
    """Print each reference's figures beside ours, and the target ratio for ``switch``
    (``measure`` is bench/engine.py's, so both sides play by the same policy)."""
    ref_aps: dict[str, float] = {}
    for name, run in REFERENCES:
        try:
            gps, aps, games = run(seconds)
        except ImportError as exc:
            print(f"{name:<24} (not installed: {exc.name}; pip install -e '.[bench]')")
            continue
        ref_aps[name] = aps
        print(f"{name:<18}{SEATS:>6}{'plays':>9}{gps:>10.1f}{aps:>11.0f}{games:>7}")
    ours = results.get(TARGET)
    uno = ref_aps.get("rlcard uno")
    if ours is not None and uno:
        ratio = ours / uno
        verdict = "meets" if ratio >= TARGET_RATIO else "MISSES"
        print(
            f"{TARGET[0]} at {TARGET[1]} seats ({TARGET[2]}): {ratio:.2f}x RLCard UNO's actions/s"
            f" ({verdict} the {TARGET_RATIO}x target)"
        )
        fair = interleaved(measure, seconds * 2)
        if fair is not None:
            verdict = "meets" if fair >= TARGET_RATIO else "MISSES"
            print(
                f"{TARGET[0]} at {TARGET[1]} seats ({TARGET[2]}), interleaved with UNO in slices:"
                f" {fair:.2f}x ({verdict} the {TARGET_RATIO}x target)"
            )
