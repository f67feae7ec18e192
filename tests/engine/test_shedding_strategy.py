"""The shedding search's parts: its rollout policy and when it skips the search."""

from __future__ import annotations

import random
from typing import Any

import pytest
from support import soak

import engine
from engine.actions import Action, Play
from engine.cards import Card
from engine.game import Game
from engine.shedding.codes import code
from engine.strategies import shedding as shed

PRESETS = ["switch", "blackjack", "irish", "j28", "taketwo", "gamebot"]


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("smart", [False, True])
def test_rollout_policies_play_whole_games_legally(preset: str, smart: bool) -> None:
    """The rollouts run on real games of every preset: each move they pick is
    legal, and a table of them finishes its game."""
    adapter = shed.SheddingAdapter(smart=smart)
    for seed in range(soak(3, 200)):
        game: Any = engine.new_game(preset, seats=4, seed=seed)
        rng = random.Random(seed)
        for _ in range(5000):
            if game.over:
                break
            seat = game.to_act
            legal = game.legal_actions(seat)
            action = adapter.rollout(game, seat, legal, rng)
            assert action in legal
            game.apply(seat, action)
        assert game.over


def _rated(game: Game) -> list[tuple[float, Action]]:
    seat = game.to_act
    assert seat is not None
    view = game.view(seat)
    hand = [code(Card.parse(t)) for t in view["hand"]]
    pt = shed.view_table(view)
    plays = [a for a in game.legal_actions(seat) if isinstance(a, Play)]
    return sorted(((shed.rate_play(view, p, hand, pt), p) for p in plays), key=lambda r: -r[0])


def _positions(gap_wanted: bool) -> list[Game]:
    """States (reached by heuristic play) where the heuristic's best play leads
    the next by at least 1 point (``gap_wanted``) or by less than 0.1."""
    out = []
    h = shed.SheddingHeuristic()
    for seed in range(40):
        game = engine.new_game("switch", seats=4, seed=seed)
        rng = random.Random(seed)
        for _ in range(30):
            if game.over:
                break
            rated = _rated(game)
            if len(rated) >= 2 and game.view(game.to_act).get("awaiting") is None:
                lead = rated[0][0] - rated[1][0]
                if (lead >= 1.0) == gap_wanted and (gap_wanted or lead < 0.1):
                    out.append(game)
                    break
            seat = game.to_act
            game.apply(seat, h.choose(game.view(seat), game.legal_actions(seat), rng))
        if len(out) >= 3:
            break
    assert len(out) >= 3
    return out


class Searched(Exception):
    """Raised by a stand-in search, to see whether the search ran."""


def _no_search(*args: Any, **kwargs: Any) -> Any:
    raise Searched


def test_a_clear_heuristic_lead_skips_the_search() -> None:
    for game in _positions(gap_wanted=True):
        s = shed.SheddingSearch(iterations=10, depth=5, gap=1.0)
        s.mc.search = _no_search  # type: ignore[method-assign]
        seat = game.to_act
        choice = s.choose(game.view(seat), game.legal_actions(seat), random.Random(1))
        assert choice == _rated(game)[0][1]


def test_a_close_call_is_searched() -> None:
    for game in _positions(gap_wanted=False):
        s = shed.SheddingSearch(iterations=10, depth=5, gap=1.0)
        s.mc.search = _no_search  # type: ignore[method-assign]
        seat = game.to_act
        with pytest.raises(Searched):
            s.choose(game.view(seat), game.legal_actions(seat), random.Random(1))
