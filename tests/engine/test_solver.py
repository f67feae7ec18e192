"""The 2-player abbott solver against brute force on small positions.

The brute force below is written from RULES.md alone: plain minimax over
every move (memoised on the full state, but with no alpha-beta, no move
ordering and no "winner is decided" bound), ranking hands with the ordinary
``best_hand``. The solver must agree with it on the value of every move.
"""

from __future__ import annotations

import random
import time
from functools import cache
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support import soak

from engine.cards import FULL_PACK
from engine.poker import best_hand
from engine.strategies.abbott_solver import SolverLimit, cards_left, solve

SIZE = 5


def squares() -> list[str]:
    return [f"{'abcde'[f]}{r + 1}" for r in range(SIZE) for f in range(SIZE)]


def rook_moves(frm: str, other: str) -> list[str]:
    f, r = "abcde".index(frm[0]), int(frm[1]) - 1
    out = []
    for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        x, y = f + df, r + dr
        while 0 <= x < SIZE and 0 <= y < SIZE:
            sq = f"{'abcde'[x]}{y + 1}"
            if sq == other:
                break
            out.append(sq)
            x, y = x + df, y + dr
    return out


def brute_force(view: dict[str, Any]) -> dict[str, int | None]:
    """Each move's result (winning seat or None) under perfect play, by exhaustion."""
    limit = view["stall_limit"]

    def result(colls: tuple[frozenset[str], frozenset[str]]) -> int | None:
        a, b = best_hand(list(colls[0])), best_hand(list(colls[1]))
        return 0 if a > b else 1 if b > a else None

    def score(winner: int | None, seat: int) -> int:
        return 0 if winner is None else (1 if winner == seat else -1)

    @cache
    def value(grid, pieces, colls, turn, stall):  # type: ignore[no-untyped-def]
        return max(
            (
                after(grid, pieces, colls, turn, stall, sq)
                for sq in rook_moves(*pieces_of(pieces, turn))
            ),
            key=lambda w: score(w, turn),
        )

    def pieces_of(pieces: tuple[str, str], turn: int) -> tuple[str, str]:
        return pieces[turn], pieces[1 - turn]

    def after(grid, pieces, colls, turn, stall, sq):  # type: ignore[no-untyped-def]
        cards = dict(grid)
        taken = cards.pop(sq, None)
        new_pieces = (sq, pieces[1]) if turn == 0 else (pieces[0], sq)
        new_colls = list(colls)
        if taken is not None:
            new_colls[turn] = colls[turn] | {taken}
            stall = 0
            if not cards:
                return result(tuple(new_colls))
        else:
            stall += 1
            if stall >= limit:
                return result(tuple(new_colls))
        return value(frozenset(cards.items()), new_pieces, tuple(new_colls), 1 - turn, stall)

    grid = {
        f"{'abcde'[f]}{r + 1}": card
        for r, row in enumerate(view["grid"])
        for f, card in enumerate(row)
        if card is not None
    }
    pieces = tuple(view["pieces"])
    colls = tuple(frozenset(c) for c in view["collections"])
    turn = view["turn_of"]
    return {
        f"move {sq}": after(frozenset(grid.items()), pieces, colls, turn, view["stall"], sq)
        for sq in rook_moves(*pieces_of(pieces, turn))
    }


def random_view(rng: random.Random, n_cards: int, stall_limit: int) -> dict[str, Any]:
    deck = [str(c) for c in FULL_PACK]
    rng.shuffle(deck)
    where = rng.sample(squares(), n_cards)
    grid: list[list[str | None]] = [[None] * SIZE for _ in range(SIZE)]
    for sq in where:
        grid[int(sq[1]) - 1]["abcde".index(sq[0])] = deck.pop()
    colls = [[deck.pop() for _ in range(rng.randint(0, 5))] for _ in range(2)]
    pieces = rng.sample(squares(), 2)
    return {
        "size": SIZE,
        "seats": 2,
        "grid": grid,
        "pieces": pieces,
        "collections": colls,
        "turn_of": rng.randrange(2),
        "stall": rng.randrange(stall_limit),
        "stall_limit": stall_limit,
    }


@given(
    seed=st.integers(0, 2**32 - 1),
    n_cards=st.integers(1, 3),
    stall_limit=st.integers(1, 4),
)
def test_solver_agrees_with_brute_force(seed: int, n_cards: int, stall_limit: int) -> None:
    view = random_view(random.Random(seed), n_cards, stall_limit)
    expected = brute_force(view)
    got = solve(view)
    assert got.outcomes == expected
    best = [m for m, w in expected.items() if w == view["turn_of"]]
    assert got.winning_moves == best
    if best:
        assert got.winner == view["turn_of"]


def test_many_small_positions() -> None:
    rng = random.Random(7)
    for _ in range(soak(12, 300)):
        view = random_view(rng, rng.randint(2, 4), rng.randint(2, 5))
        assert solve(view).outcomes == brute_force(view)


def test_eight_cards_solve_in_seconds() -> None:
    rng = random.Random(11)
    view = random_view(rng, 8, 6)
    start = time.perf_counter()
    result = solve(view)
    assert time.perf_counter() - start < 20
    assert set(result.best_moves) <= set(result.outcomes)
    assert cards_left(view) == 8


def test_node_limit_stops_big_positions() -> None:
    view = random_view(random.Random(3), 20, 6)
    with pytest.raises(SolverLimit):
        solve(view, node_limit=1000)


def test_four_player_views_are_refused() -> None:
    with pytest.raises(ValueError, match="2-player"):
        solve({"seats": 4})
