"""Abbott invariants over many random games (hypothesis and seeded soak loops):
no card created or lost, no two pieces on a square, an illegal action changes
nothing, ``is_legal`` agrees with ``legal_actions``, replay gives the identical
state, and every game ends."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from support import soak

import engine
from engine.abbott.board import FILES
from engine.abbott.game import Abbott
from engine.actions import Action, Ally, Concede, Draw, Move, Pass, Vote
from engine.cards import FULL_PACK
from engine.errors import IllegalActionError

UNIVERSE: list[Action] = [
    *(Move(f"{f}{r}") for f in FILES for r in range(1, 7)),
    *(Ally(n) for n in ("south", "west", "north", "east", "0", "1", "2", "3", "9", "up")),
    Vote("end"),
    Concede(),
    Pass(),
    Draw(),
]
MAX_ACTIONS = 20_000


def check_invariants(game: Abbott) -> None:
    on_grid = [c for c in game.grid if c is not None]
    held = [c for coll in game.collections for c in coll]
    everything = on_grid + held + game.unused
    assert len(everything) == 52 and set(everything) == set(FULL_PACK)
    assert len(set(game.pieces)) == game.seats
    for sq in game.pieces:
        assert 0 <= sq < game.size * game.size


def views(game: engine.Game) -> list[dict[str, Any]]:
    return [game.view(s) for s in [*range(game.seats), None]]


def play_random_game(seats: int, seed: int, options: dict[str, Any], checks: bool) -> Abbott:
    """Random legal play, mostly by the seat to act, sometimes a vote or a
    concession out of turn; with ``checks``, the invariants after every action
    and an illegal attempt now and then."""
    game = engine.new_game("abbott", seats=seats, seed=seed, options=options)
    assert isinstance(game, Abbott)
    rng = random.Random(seed)
    steps = 0
    while not game.over:
        if checks:
            check_invariants(game)
            seat = rng.randrange(seats)
            action = game.normalize(seat, rng.choice(UNIVERSE))
            legal = game.legal_actions(seat)
            assert game.is_legal(seat, action) == (action in legal)
            for a in legal:
                assert game.is_legal(seat, a)
            if action not in legal:
                before = views(game)
                try:
                    game.apply(seat, action)
                except IllegalActionError as exc:
                    assert exc.reason and exc.seat == seat
                else:
                    raise AssertionError(f"{action} was accepted for seat {seat}")
                assert views(game) == before
        actor = game.to_act if rng.random() < 0.95 else rng.randrange(seats)
        assert actor is not None
        legal = game.legal_actions(actor)
        if actor == game.to_act:
            assert any(type(a) is Move for a in legal), "the seat to act always has a move"
        if legal:
            game.apply(actor, rng.choice(legal))
        steps += 1
        assert steps < MAX_ACTIONS, "the game did not end"
    assert game.to_act is None and game.legal_actions(0) == []
    return game


options_st = st.fixed_dictionaries(
    {},
    optional={
        "alliance_from_round": st.integers(1, 5),
        "end_when_decided": st.booleans(),
        "stall_limit": st.integers(0, 8),
        "target": st.sampled_from([0, 10, 20]),
    },
)


@given(st.sampled_from([2, 4]), st.integers(0, 2**32), options_st)
def test_random_games_keep_every_invariant(seats: int, seed: int, options: dict) -> None:
    game = play_random_game(seats, seed, options, checks=True)
    again = engine.replay(game.record())
    assert views(again) == views(game)
    assert again.record() == game.record()


def test_many_seeded_games_end_and_replay() -> None:
    """Soak: whole games at default options, replayed exactly from their records."""
    for seed in range(soak(40, 2_000)):
        seats = 4 if seed % 3 else 2
        game = play_random_game(seats, seed, {}, checks=seed % 10 == 0)
        winner = game.view(None)["winner"]
        assert winner is not None and game.scores[winner] >= game.target
        assert sorted(game.scores)[-1] > sorted(game.scores)[-2]  # alone at the top
        assert engine.replay(game.record()).view(None) == game.view(None)


@given(st.integers(0, 2**32), st.data())
def test_mid_game_replay_is_identical(seed: int, data: st.DataObject) -> None:
    game = engine.new_game("abbott", seats=4, seed=seed)
    rng = random.Random(seed)
    for _ in range(data.draw(st.integers(0, 150))):
        if game.over:
            break
        seat = game.to_act
        assert seat is not None
        legal = game.legal_actions(seat)
        game.apply(seat, legal[rng.randrange(len(legal))])
    again = engine.replay(game.record())
    assert views(again) == views(game)
    assert [str(a) for a in again.legal_actions(0)] == [str(a) for a in game.legal_actions(0)]
