"""The after-game analysis: planted mistakes are marked, a seed fixes the result,
and a seat is judged only on what it could see."""

from __future__ import annotations

import multiprocessing
import random
from typing import Any

import pytest

import engine
from engine.actions import Draw, Play
from engine.analysis import Settings, analyse, as_json, as_text, decision_points, grade
from engine.cards import FULL_PACK
from engine.strategies import get_strategy
from engine.strategies.abbott_solver import cards_left, solve

FAST = Settings(seed=3, worlds=8, depth=20)


def play_out(game: Any, seed: int, plant: Any = None) -> dict[str, Any]:
    """Play ``game`` to its end with the heuristic; ``plant(game, seat, legal)``
    may return an action to take instead (once)."""
    rng = random.Random(seed)
    strategies = [get_strategy("heuristic", game.family) for _ in range(game.seats)]
    planted = None
    while not game.over:
        seat = game.to_act
        view, legal = game.view(seat), game.legal_actions(seat)
        action = plant(game, seat, legal) if plant is not None and planted is None else None
        if action is not None:
            planted = game.actions_taken
        else:
            action = strategies[seat].choose(view, legal, rng)
        game.apply(seat, action)
    record = game.record()
    record["planted"] = planted
    return record


def planted(ruleset: str, seats: int, seeds: int, plant: Any, missing: str) -> dict[str, Any]:
    """The record of the first of ``seeds`` heuristic games where ``plant`` found its
    chance (the test fails saying ``missing`` when none did)."""
    for seed in range(seeds):
        record = play_out(engine.new_game(ruleset, seats, seed), seed, plant)
        if record["planted"] is not None:
            return record
    pytest.fail(missing)


# ------------------------------------------------------------ planted mistakes
def test_drawing_when_a_seat_could_go_out_is_a_blunder() -> None:
    def draw_instead(game: Any, seat: int, legal: list[Any]) -> Any:
        hand = game.view(seat)["hand"]
        out = [a for a in legal if isinstance(a, Play) and len(a.cards) == len(hand)]
        if out and any(isinstance(a, Draw) for a in legal):
            return next(a for a in legal if isinstance(a, Draw))
        return None

    record = planted("switch", 3, 20, draw_instead, "no game offered a chance to go out")
    index = record["planted"]
    assert index in decision_points(record)
    [decision] = analyse(record, [index], FAST)
    assert decision.played == "draw"
    assert decision.mark == "blunder"
    assert decision.best.startswith("play") and decision.values[decision.best] == 1.0


def test_a_solved_losing_move_is_marked_exactly() -> None:
    """A 2-player abbott endgame where the solver says some move wins and the
    seat played one that loses: an exact blunder, the winning move beside it."""

    def losing_move(game: Any, seat: int, legal: list[Any]) -> Any:
        view = game.view(seat)
        if cards_left(view) > 6:
            return None
        result = solve(view)
        losers = [m for m, w in result.outcomes.items() if w not in (seat, None)]
        if result.winner == seat and losers:
            return losers[0]
        return None

    record = planted("abbott", 2, 30, losing_move, "no won endgame with a losing move")
    [decision] = analyse(record, [record["planted"]], FAST)
    assert decision.exact and decision.mark == "blunder"
    assert decision.loss == 1.0 and decision.values[decision.best] == 1.0


def test_every_proof_counts_when_the_solver_stops_at_its_limit() -> None:
    """The solver stopped at its node limit with one move proved won, the played move
    proved lost and others unsolved: the mark is an exact blunder all the same, and no
    sampled value leaves the bounds the solver proved (before, one unsolved option sent
    every option to sampling, which once rated the proved-lost move best)."""
    limit = 200

    def proved_loss_among_unsolved(game: Any, seat: int, legal: list[Any]) -> Any:
        view = game.view(seat)
        if not 5 <= cards_left(view) <= 8:
            return None
        bounds = solve(view, limit).bounds
        won = [n for n, (lo, hi) in bounds.items() if lo == hi == 1]
        lost = [n for n, (lo, hi) in bounds.items() if lo == hi == -1]
        unsolved = [n for n, (lo, hi) in bounds.items() if lo < hi]
        if won and lost and unsolved:
            return next(a for a in legal if str(a) == lost[0])
        return None

    record = planted("abbott", 2, 40, proved_loss_among_unsolved, "no partly solved endgame")
    settings = Settings(seed=3, worlds=8, depth=20, node_limit=limit)
    [decision] = analyse(record, [record["planted"]], settings)
    assert not decision.exact  # some alternatives were sampled
    assert decision.exact_mark and decision.mark == "blunder" and decision.error == 0.0
    assert decision.values[decision.played] == 0.0 and decision.values[decision.best] == 1.0
    assert decision.played in decision.proved and decision.best in decision.proved
    game = engine.replay({**record, "actions": record["actions"][: record["planted"]]})
    bounds = solve(game.view(decision.seat), limit).bounds
    worth = {1: 1.0, 0: 0.5, -1: 0.0}
    for name, value in decision.values.items():
        lo, hi = bounds[name]
        assert worth[lo] <= value <= worth[hi], name
    assert as_text(record, [decision]).splitlines()[-1].endswith("proved")


# Two 2-player abbott decisions with 12 cards on the grid, where the analysis samples
# (found by ``bench/marks.py --seed 3`` with the exact solver as the truth). In the
# first North played ``move d5``, which the solver proves loses a hand ``move e2`` wins;
# in the second South played ``move b5``, an optimal move, which the playouts rated a
# blunder (a loss of 0.50, two standard errors clear of noise).
TRUE_BLUNDER: dict[str, Any] = {
    "ruleset": "abbott", "family": "abbott", "seats": 2, "viewer": 1, "to_act": 1,
    "over": False, "scores": [0, 0], "options": {}, "size": 5,
    "grid": [[None, "AS", None, None, "QD"], ["8C", "3S", None, None, "AC"],
             [None, None, None, None, None], [None, None, "2D", "8S", "4C"],
             ["9S", "3C", None, "QH", "5D"]],
    "pieces": ["e3", "d2"],
    "collections": [["6D", "TS", "TH", "5S", "9C", "5H"],
                    ["AH", "7S", "3H", "KC", "TC", "7H", "JS"]],
    "dealer": 1, "hand_number": 1, "turn_of": 1, "round": 8, "alliance": None,
    "power": None, "votes": [], "conceded": [], "stall": 1, "stall_limit": 6,
    "target": 40, "hand_scores": [], "seat_names": ["South", "North"],
    "alliance_from_round": 1, "end_when_decided": True, "winner": None,
}  # fmt: skip
OPTIMAL_MOVE: dict[str, Any] = {
    "ruleset": "abbott", "family": "abbott", "seats": 2, "viewer": 0, "to_act": 0,
    "over": False, "scores": [20, 10], "options": {}, "size": 5,
    "grid": [[None, None, "JD", "9S", "9H"], [None, None, None, "5S", None],
             [None, None, None, "TD", "JH"], [None, None, "9C", "2H", "QD"],
             [None, "4C", None, "8S", "5D"]],
    "pieces": ["b1", "a5"],
    "collections": [["AC", "KD", "6H", "6D", "7S"],
                    ["KH", "4S", "3C", "6S", "2D", "KS", "7C", "TH"]],
    "dealer": 0, "hand_number": 4, "turn_of": 0, "round": 9, "alliance": None,
    "power": None, "votes": [], "conceded": [], "stall": 2, "stall_limit": 6,
    "target": 40, "hand_scores": [[10, 0], [10, 0], [0, 10]],
    "seat_names": ["South", "North"], "alliance_from_round": 1,
    "end_when_decided": True, "winner": None,
}  # fmt: skip


def judge_sampled(view: dict[str, Any], played: str, seed: int) -> Any:
    """The analysis's judgement of ``played``, sampled (the solver is not tried first)."""
    from engine.analysis import judge

    game = engine.abbott.game.Abbott.from_view(view)
    legal = game.legal_actions(view["viewer"])
    settings = Settings(seed=3, solve_at=8)
    return judge(seed, view, None, legal, played, random.Random(f"3:{seed}"), settings)


def test_a_sampled_blunder_confirmed_by_the_solver_is_exact() -> None:
    decision = judge_sampled(TRUE_BLUNDER, "move d5", 1)
    assert decision.mark == "blunder" and decision.exact_mark and decision.error == 0.0
    assert decision.best == "move e2" and decision.loss == 1.0


def test_a_sampled_blunder_the_solver_cannot_confirm_is_only_a_hint() -> None:
    """In 2-player abbott nothing is hidden, so the playouts' error is their policy's
    bias, not noise: a blunder that stands on them alone was more often wrong than
    right. Unconfirmed, it is marked an inaccuracy (before, this optimal move was a
    blunder)."""
    decision = judge_sampled(OPTIMAL_MOVE, "move b5", 19)
    assert decision.loss >= 0.2 and not decision.exact_mark  # the playouts' verdict
    assert decision.mark == "inaccuracy"


def test_conceding_a_won_endgame_is_judged_and_marked_exactly() -> None:
    """A concession is a decision like any move (before, it was never judged, since the
    search never considers conceding): giving up a hand the solver says is won is the
    costliest blunder there is."""

    def concede_a_win(game: Any, seat: int, legal: list[Any]) -> Any:
        view = game.view(seat)
        concede = [a for a in legal if str(a) == "concede"]
        if not concede or cards_left(view) > 6 or solve(view).winner != seat:
            return None
        return concede[0]

    record = planted("abbott", 2, 30, concede_a_win, "no won endgame where conceding was legal")
    assert record["planted"] in decision_points(record)
    [decision] = analyse(record, [record["planted"]], FAST)
    assert decision.played == "concede" and decision.exact and decision.mark == "blunder"
    assert decision.values["concede"] == 0.0 and decision.values[decision.best] == 1.0


def test_conceding_early_in_a_hand_is_still_a_blunder() -> None:
    """Far from an endgame the solver cannot check the sampled values, but a concession
    needs no playout policy to be judged (the hand is given away): the check that makes
    an unconfirmed sampled move an inaccuracy leaves it a blunder."""

    def concede_early(game: Any, seat: int, legal: list[Any]) -> Any:
        concede = [a for a in legal if str(a) == "concede"]
        return concede[0] if concede and cards_left(game.view(seat)) > 20 else None

    record = planted("abbott", 2, 10, concede_early, "no early turn where conceding was legal")
    [decision] = analyse(record, [record["planted"]], FAST)
    assert decision.played == "concede" and not decision.exact_mark
    assert decision.mark == "blunder"


def test_grades_need_the_margin_and_beat_the_noise() -> None:
    assert grade(0.04, 0.0, True) is None
    assert grade(0.05, 0.0, True) == "inaccuracy"
    assert grade(0.12, 0.0, True) == "mistake"
    assert grade(0.5, 0.0, True) == "blunder"
    assert grade(0.3, 0.2, False) is None  # within two standard errors: noise
    # A sampled loss is graded by what it is sure to be, two standard errors below.
    assert grade(0.3, 0.1, False) == "mistake"
    assert grade(0.2, 0.06, False) == "inaccuracy"
    assert grade(0.3, 0.02, False) == "blunder"
    assert grade(0.08, 0.02, False) is None


# ---------------------------------------------------------------- the seed
def shedding_record(seed: int = 2) -> dict[str, Any]:
    return play_out(engine.new_game("switch", 3, seed), seed)


def test_the_same_seed_gives_the_same_analysis_in_workers_or_not() -> None:
    from switchboard.analyze import run_analysis

    record = shedding_record()
    here = run_analysis(record, FAST, workers=0)
    pooled = run_analysis(record, FAST, workers=2)
    assert [d.index for d in here] == decision_points(record)
    assert as_json(record, here, FAST) == as_json(record, pooled, FAST)
    other = run_analysis(record, Settings(seed=4, worlds=8, depth=20), workers=0)
    assert [d.values for d in other] != [d.values for d in here]


def test_the_text_report_names_the_better_move() -> None:
    record = shedding_record()
    decisions = analyse(record, decision_points(record), FAST)
    text = as_text(record, decisions)
    assert "accuracy" in text
    marked = [d for d in decisions if d.mark]
    for d in marked:
        assert f"{d.played} ({d.values[d.played]:.2f})" in text
        assert f"{d.best} ({d.values[d.best]:.2f})" in text


# ------------------------------------------------------- what a seat knows
def swapped_hidden_cards() -> tuple[dict[str, Any], dict[str, Any]]:
    """A switch game and the same game with one card of seat 1's hand and one
    of seat 2's exchanged in the deal, both cards held to the end: seat 0 saw
    exactly the same things in both."""
    for seed in range(40):
        deck = list(FULL_PACK)
        random.Random(seed).shuffle(deck)
        game = engine.new_game("switch", 3, seed, deck=deck)
        start = [set(game.view(s)["hand"]) for s in range(3)]
        record = play_out(game, seed)
        end = [set(game.view(s)["hand"]) for s in range(3)]
        kept1, kept2 = sorted(start[1] & end[1]), sorted(start[2] & end[2])
        if not kept1 or not kept2:
            continue
        texts = [str(c) for c in deck]
        i, j = texts.index(kept1[0]), texts.index(kept2[0])
        texts[i], texts[j] = texts[j], texts[i]
        changed = {**record, "deck": texts}
        try:
            engine.replay(changed)  # the same actions are still legal
        except engine.IllegalActionError:
            continue
        return record, changed
    pytest.fail("no game kept a dealt card in both other hands")


def test_a_seat_is_judged_only_on_what_it_saw() -> None:
    record, changed = swapped_hidden_cards()

    def of(rec: dict[str, Any], seat: int) -> list[int]:
        return [i for i in decision_points(rec) if rec["actions"][i][0] == seat]

    mine, theirs = of(record, 0), of(record, 1)
    assert mine and of(changed, 0) == mine
    first = analyse(record, mine, FAST)
    second = analyse(changed, mine, FAST)
    assert [(d.values, d.mark) for d in first] == [(d.values, d.mark) for d in second]
    # The other seats' hands did change, and so does the judging of seat 1.
    both = sorted(set(theirs) & set(of(changed, 1)))
    one = analyse(record, both, FAST)
    two = analyse(changed, both, FAST)
    assert [d.values for d in one] != [d.values for d in two]


def test_an_event_log_is_refused_plainly() -> None:
    with pytest.raises(ValueError, match="full record"):
        decision_points({"ruleset": "switch", "seats": 3, "events": []})


# ------------------------------------------------------------------ Ctrl-C
def test_ctrl_c_ends_the_workers_and_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    import argparse

    from switchboard import analyze

    record = shedding_record()
    calls = []

    def interrupt(done: int, total: int) -> None:
        calls.append(done)
        if done:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        analyze.run_analysis(record, FAST, workers=2, progress=interrupt)
    assert multiprocessing.active_children() == []
    assert calls and calls[-1] < len(decision_points(record))

    class Bar:
        def __init__(self, *args: Any) -> None:
            pass

        def __call__(self, done: int, total: int) -> None:
            if done:
                raise KeyboardInterrupt

    args = argparse.Namespace(seed=1, worlds=8, workers=2, json=False, marked=False)
    saved = analyze.ProgressBar
    analyze.ProgressBar = Bar  # type: ignore[misc,assignment]
    try:
        assert analyze.run(record, args) == 130
    finally:
        analyze.ProgressBar = saved  # type: ignore[misc]
    err = capsys.readouterr().err
    assert "analysis interrupted" in err and "Traceback" not in err
    assert multiprocessing.active_children() == []


# --------------------------------------------------------------- the command
def test_replay_analyze_prints_json_and_refuses_an_event_log(
    tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    from switchboard.cli import main

    record = shedding_record()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    argv = ["replay", str(path), "--analyze", "--json", "--workers", "0", "--worlds", "6"]
    assert main(argv) == 0
    out, err = capsys.readouterr()
    report = json.loads(out)
    assert [d["index"] for d in report["decisions"]] == decision_points(record)
    assert report["margin"] == 0.05 and len(report["players"]) == 3
    assert "analysing [" in err and f"{len(decision_points(record))} decisions" in err
    log = tmp_path / "log.json"
    log.write_text(json.dumps({"ruleset": "switch", "seats": 3, "options": {}, "events": []}))
    assert main(["replay", str(log), "--analyze", "--workers", "0"]) == 1
    assert "full record" in capsys.readouterr().err
