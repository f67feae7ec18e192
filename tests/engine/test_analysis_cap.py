"""The cap on sampled marks that cannot be trusted: early in a hand, or where a second
rollout policy does not see the loss, a sampled ``?`` or ``??`` is held at ``?!``; a mark
the solver proved, or one both policies see, stands."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import engine
from engine.analysis import (
    DISAGREE,
    EARLY,
    GRADES,
    Decision,
    SecondOpinion,
    Settings,
    _trusted,
    analyse,
    decision_points,
    is_early,
)

MARKS = st.sampled_from(["blunder", "mistake"])


def decision(mark: str) -> Decision:
    return Decision(10, 0, "draw", "play QH", {"draw": 0.2, "play QH": 0.6}, 0.4, False, mark)


@given(MARKS, st.floats(-1.0, 1.0), st.booleans())
def test_a_capped_mark_is_at_most_an_inaccuracy_and_says_why(mark, second, early) -> None:
    asked: list[bool] = []

    def opinion() -> float:
        asked.append(True)
        return second

    out = _trusted(decision(mark), early, opinion)
    mistake_floor = GRADES[1][1]
    if early:
        assert (out.mark, out.capped) == ("inaccuracy", EARLY)
        assert not asked  # no second opinion is paid for once the hand's start caps it
    elif second < mistake_floor:
        assert (out.mark, out.capped) == ("inaccuracy", DISAGREE)
    else:
        assert (out.mark, out.capped) == (mark, None)
    assert out.loss == 0.4 and out.best == "play QH"  # the values are not touched


def test_early_is_the_first_round_of_a_hand() -> None:
    abbott = {"family": "abbott", "seats": 4, "round": 1}
    assert is_early(abbott, 0) and not is_early({**abbott, "round": 2}, 0)
    shedding = {"family": "shedding", "seats": 3}
    assert is_early(shedding, 2) and not is_early(shedding, 3)


def test_the_second_policy_sometimes_wanders_but_plays_the_first_otherwise() -> None:
    class First:
        def rollout(self, game, seat, legal, rng):
            return legal[0]

        def value(self) -> str:
            return "the first's"

    second = SecondOpinion(First())
    rng = random.Random(3)
    picks = [second.rollout(None, 0, ["a", "b", "c", "d"], rng) for _ in range(400)]
    assert 0.5 < picks.count("a") / len(picks) < 0.8  # half its own, a quarter of the rest
    assert {"b", "c", "d"} <= set(picks)
    assert second.value() == "the first's"  # everything else is the first policy's


@pytest.mark.parametrize("seed", [1, 2])
def test_no_sampled_mark_stands_in_a_hands_first_round(seed: int) -> None:
    """A 4-player abbott game: no sampled ``?`` or ``??`` is given in the first round of
    any hand (where the opening moves were once marked ``??`` on the rollout's bias)."""
    game = engine.new_game("abbott", 4, seed)
    rng = random.Random(seed)
    rounds = {}
    while not game.over and game.actions_taken < 40:
        seat = game.to_act
        rounds[game.actions_taken] = game.view(seat).get("round")
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    record = game.record()
    early = [i for i in decision_points(record) if rounds.get(i) == 1]
    assert early
    for d in analyse(record, early, Settings(seed=seed, worlds=6, depth=20)):
        assert d.mark in (None, "inaccuracy") or d.exact_mark, d
