"""How sure a mark is: a blunder the playouts miss is found by the solver, and a sampled
loss near a floor is not promoted by luck."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.abbott.game import Abbott
from engine.analysis import Settings, judge
from engine.strategies.abbott_solver import SolverTable, solve

# A 2-player abbott decision with 11 cards on the grid (``bench/marks.py --seed 3``): South
# played ``move d1``, which the solver proves loses a hand another move wins; the playouts
# saw no loss in it (0.08 ± 0.12), so it went unmarked.
MISSED_BLUNDER: dict[str, Any] = {
    "ruleset": "abbott", "family": "abbott", "seats": 2, "viewer": 0, "to_act": 0,
    "over": False, "scores": [20, 20], "options": {}, "size": 5,
    "grid": [[None, "QS", None, None, None], ["5H", "7H", "3C", "6H", "QH"],
             [None, "4S", None, "9D", "8H"], [None, None, None, None, "3S"],
             [None, None, None, None, "6S"]],
    "pieces": ["d4", "a5"],
    "collections": [["JS", "JH", "KD", "2H", "KS", "4C"],
                    ["JC", "JD", "7S", "7D", "AS", "8D", "5D", "6C"]],
    "dealer": 0, "hand_number": 5, "turn_of": 0, "round": 8, "alliance": None,
    "power": None, "votes": [], "conceded": [], "stall": 0, "stall_limit": 6,
    "target": 40, "hand_scores": [[10, 0], [10, 0], [0, 10], [0, 10]],
    "seat_names": ["South", "North"], "alliance_from_round": 1,
    "end_when_decided": True, "winner": None,
}  # fmt: skip

# A 4-player abbott decision (``bench/marks_sampled.py --seed 5``): South's ``move d2``
# loses about 0.13 to ``move c2`` by the reference (240 worlds); on 24 worlds the
# analysis measured 0.27 ± 0.05 and called it a blunder.
NEAR_THE_FLOOR: dict[str, Any] = {
    "ruleset": "abbott", "family": "abbott", "seats": 4, "viewer": 0, "to_act": 0,
    "over": False, "scores": [0, 10, 10, 0], "options": {}, "size": 6,
    "grid": [[None, "TC", None, "AC", "2D", "TS"], [None, "4H", "AH", "AD", None, "JS"],
             ["4C", None, "JC", "6H", None, None], [None, None, None, "8C", "4D", "JD"],
             [None, None, "8H", "3C", None, "5H"], ["5D", "9D", "2S", "9H", None, "2H"]],
    "pieces": ["a2", "e3", "c4", "c1"],
    "collections": [["7S", "7D", "QC"], ["QH", "QS", "9C", "3D"],
                    ["KH", "KC", "QD", "7C", "7H"], ["2C", "6S"]],
    "dealer": 1, "hand_number": 3, "turn_of": 0, "round": 5,
    "alliance": {"chooser": 3, "partner": 2}, "power": None, "votes": [], "conceded": [],
    "stall": 1, "stall_limit": 12, "target": 20, "hand_scores": [[0, 7, 3, 0], [0, 3, 7, 0]],
    "seat_names": ["South", "West", "North", "East"], "alliance_from_round": 1,
    "end_when_decided": True, "winner": None,
}  # fmt: skip


def judged(view: dict[str, Any], played: str, index: int, settings: Settings) -> Any:
    legal = Abbott.from_view(view).legal_actions(view["viewer"])
    rng = random.Random(f"{settings.seed}:{index}")
    return judge(index, view, None, legal, played, rng, settings, SolverTable())


def test_a_blunder_the_playouts_miss_is_found_by_solving_the_moves() -> None:
    """The decision's own solve stops at its limit without proving the played move or a
    better one, and the playouts see no loss: the positions after the played move and
    after the alternatives that could beat it are solved, and the blunder is exact."""
    settings = Settings(seed=3)
    assert not solve(MISSED_BLUNDER, settings.node_limit).complete
    decision = judged(MISSED_BLUNDER, "move d1", 63, settings)
    assert decision.mark == "blunder" and decision.exact_mark and decision.error == 0.0
    assert decision.values["move d1"] == 0.0 and decision.values[decision.best] == 1.0


def test_a_sampled_loss_near_the_floor_is_not_a_blunder_by_luck() -> None:
    decision = judged(NEAR_THE_FLOOR, "move d2", 119, Settings(seed=5))
    assert not decision.exact_mark
    assert decision.mark in ("inaccuracy", "mistake")
    assert decision.error < 0.04  # more worlds were added: 24 gave ± 0.05


# A 4-player abbott decision (``bench/marks_sampled.py --seed 5``, a planted blunder): East
# played ``move f1``, which leaves the next player a take that wins him the hand, where a
# take that won the hand at once was open. Among more than eight moves, the shortlist took
# the first seven listed, which left the winning take out, and the blunder went unmarked.
HANDS_OVER_THE_HAND: dict[str, Any] = {'ruleset': 'abbott',
 'family': 'abbott',
 'seats': 4,
 'viewer': 3,
 'to_act': 3,
 'over': False,
 'scores': [6, 4, 6, 4],
 'options': {},
 'size': 6,
 'grid': [[None, None, None, None, None, None], [None, None, None, None, None, None],
          [None, '2C', None, None, None, None], [None, '7S', None, None, None, None],
          [None, None, '3S', None, None, None], [None, 'TD', 'JD', None, '8C', None]],
 'pieces': ['a6', 'c3', 'a4', 'e1'],
 'collections': [['JS', '7D', '8D', 'AS', 'AD', '8S', '6H', '8H'],
                 ['7H', 'AH', '6S', 'AC', '6D', '5D', '3D', '4D', 'JC'],
                 ['3C', '2D', '6C', '9C'],
                 ['TH', 'KC', 'QH', 'QD', '9H', 'KS', '9S', '4S', 'KD']],
 'dealer': 3,
 'hand_number': 3,
 'turn_of': 3,
 'round': 14,
 'alliance': {'chooser': 2, 'partner': 3},
 'power': None,
 'votes': [],
 'conceded': [],
 'stall': 2,
 'stall_limit': 12,
 'target': 20,
 'hand_scores': [[6, 4, 0, 0], [0, 0, 6, 4]],
 'seat_names': ['South', 'West', 'North', 'East'],
 'alliance_from_round': 1,
 'end_when_decided': True,
 'winner': None}  # fmt: skip


def test_the_shortlist_keeps_the_move_that_wins_the_hand() -> None:
    decision = judged(HANDS_OVER_THE_HAND, "move f1", 123, Settings(seed=5))
    assert decision.mark == "blunder"
    assert decision.values[decision.best] >= 0.6  # the hand won (or a partner's 7)


# A 2-player abbott decision with 17 cards on the grid: South voted to end the hand on his
# turn, then took a card (which clears the vote). The playouts value the vote with their
# own move after it, which lost the hand in most of them: sampled, it was a blunder.
VOTE_ON_MY_TURN: dict[str, Any] = {'ruleset': 'abbott',
 'family': 'abbott',
 'seats': 2,
 'viewer': 0,
 'to_act': 0,
 'over': False,
 'scores': [10, 10],
 'options': {},
 'size': 5,
 'grid': [[None, '4S', '2D', None, None], [None, '6D', None, 'JC', '9S'],
          ['4C', 'JD', None, None, '3D'], ['5S', '9C', None, '7S', None],
          ['7H', '5D', '5H', '8C', None]],
 'pieces': ['a2', 'a1'],
 'collections': [['KD', 'KS', 'AD', 'TC', 'TS'], ['2S', 'QC', 'QS', '8S', '8H']],
 'dealer': 0,
 'hand_number': 3,
 'turn_of': 0,
 'round': 6,
 'alliance': None,
 'power': None,
 'votes': [],
 'conceded': [],
 'stall': 0,
 'stall_limit': 6,
 'target': 40,
 'hand_scores': [[0, 10], [10, 0]],
 'seat_names': ['South', 'North'],
 'alliance_from_round': 1,
 'end_when_decided': True,
 'winner': None}  # fmt: skip


def test_a_vote_that_leaves_the_turn_to_play_is_marked_a_hint_at_most() -> None:
    decision = judged(VOTE_ON_MY_TURN, "vote end", 31, Settings(seed=1))
    assert decision.loss >= 0.2 and not decision.exact_mark  # the playouts' verdict
    assert decision.mark == "inaccuracy"


def test_a_hint_adds_no_worlds_to_settle_a_mark(monkeypatch: pytest.MonkeyPatch) -> None:
    """Extra worlds make a mark clear; a hint shows none, and a person waits for it."""
    import engine.analysis as analysis

    calls: list[int] = []
    sample = analysis._sample

    def counted(*args: Any) -> Any:
        calls.append(1)
        return sample(*args)

    monkeypatch.setattr(analysis, "_in_doubt", lambda loss, error: True)
    monkeypatch.setattr(analysis, "_sample", counted)
    legal = Abbott.from_view(NEAR_THE_FLOOR).legal_actions(0)
    analysis.advise(NEAR_THE_FLOOR, [], legal)
    assert len(calls) <= 2  # the alternatives, then the best against the first again
    calls.clear()
    judged(NEAR_THE_FLOOR, "move d2", 119, Settings(seed=5))
    assert len(calls) == 1 + analysis.MORE_WORLDS  # an analysis settles the mark
