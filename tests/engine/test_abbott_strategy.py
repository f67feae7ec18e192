"""Abbott's ``search`` at four seats (the line of greedy replies) and its
promise to leave the 2-player search exactly as it was."""

from __future__ import annotations

import random
from typing import Any

import pytest
from support import soak

import engine
from engine.abbott.game import Abbott
from engine.actions import Action, Ally, Move
from engine.game import Game
from engine.strategies.abbott import (
    AbbottAdapter,
    AbbottHeuristic,
    AbbottLookahead,
    AbbottSearch,
)
from engine.strategies.search import ISMCTS


def walk(seats: int, seed: int, actions: int) -> Game:
    """A game after ``actions`` heuristic actions (a varied, real position)."""
    game = engine.new_game("abbott", seats=seats, seed=seed)
    walker = AbbottHeuristic()
    rng = random.Random(seed)
    for _ in range(actions):
        if game.over:
            break
        seat = game.to_act
        assert seat is not None
        game.apply(seat, walker.choose(game.view(seat), game.legal_actions(seat), rng))
    return game


def positions(seats: int, count: int) -> list[tuple[dict[str, Any], list[Action]]]:
    out = []
    for seed in range(count):
        game = walk(seats, seed, 1 + (7 * seed) % 23)
        if game.over:
            continue
        seat = game.to_act
        assert seat is not None
        out.append((game.view(seat), game.legal_actions(seat)))
    return out


def test_two_seats_still_the_tree_search() -> None:
    """At 2 seats the search is IS-MCTS as before, drawing on the same generator."""
    checked = 0
    for view, legal in positions(2, soak(8, 40)):
        moves = [a for a in legal if isinstance(a, Move)]
        if len(moves) < 2 or sum(1 for row in view["grid"] for c in row if c) <= 7:
            continue
        kept = [a for a in legal if isinstance(a, Move | Ally)]
        tree = ISMCTS(AbbottAdapter(), iterations=12, depth=40)
        expected, _ = tree.search(view, kept, Abbott.from_view(view), random.Random(5))
        rng = random.Random(5)
        got = AbbottSearch(iterations=12).choose(view, legal, rng)
        assert got == expected
        checked += 1
    assert checked >= 3


def test_one_reply_is_the_heuristic() -> None:
    """A line of one reply with the heuristic's partner rule is the heuristic itself:
    the lookahead extends the heuristic's own evaluation, nothing else."""
    for view, legal in positions(4, soak(10, 60)):
        one = AbbottLookahead(plies=1, ally=0).choose(view, legal, random.Random(3))
        assert one == AbbottHeuristic().choose(view, legal, random.Random(3))


def test_four_seats_use_the_lookahead_legally_and_reproducibly() -> None:
    for view, legal in positions(4, soak(6, 30)):
        first = AbbottSearch().choose(view, legal, random.Random(1))
        assert first in legal
        assert AbbottSearch().choose(view, legal, random.Random(1)) == first


def test_names_the_partner_who_is_winning() -> None:
    """South, far behind, gains nothing alone; naming West (holding four aces)
    pays South 3 points of West's likely win, so the search allies with West."""
    game = walk(4, 11, 0)
    while not game.over:
        seat = game.to_act
        assert seat is not None
        legal = game.legal_actions(seat)
        if seat == 0 and any(isinstance(a, Ally) for a in legal):
            break
        game.apply(seat, AbbottHeuristic().choose(game.view(seat), legal, random.Random(0)))
    else:
        pytest.fail("South never had the chance to name a partner")
    view = game.view(0)
    aces = ["AS", "AH", "AD", "AC"]
    view["grid"] = [[None if c in aces else c for c in row] for row in view["grid"]]
    view["collections"] = [[c for c in coll if c not in aces] for coll in view["collections"]]
    view["collections"][1] = view["collections"][1] + aces
    action = AbbottSearch().choose(view, legal, random.Random(0))
    assert action == Ally("west")
