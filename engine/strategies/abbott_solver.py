"""The exact solver for a 2-player abbott hand (Abbott: "for every array of
cards dealt there must exist a perfect winning strategy for one of the players").

Everything in abbott is public, so a position is fully described by its view:
the cards left on the grid, the two pieces, the two collections, whose turn it
is and how many turns have passed without a card taken. ``solve(view)`` plays
out every line with alpha-beta over the three outcomes (South wins, tie,
North wins), so it answers exactly who wins with best play and which moves
keep that result.

Why it finishes: a transposition table (the same cards can be taken in many
orders), taking moves searched first, and the "winner is decided" test of the
rules used as a bound at every node: a collection that already beats the
other player's collection plus every card left on the grid has won, however
the hand goes on. Hand values only grow as cards are added (a missing kicker
ranks below any card), which is what makes that bound sound. With about a
dozen cards left a position solves in well under a second; ``node_limit``
stops a search that would take too long (``SolverLimit``).

The solver reads only the view, so a hint shown to a player and the ``search``
strategy's endgame both see exactly what the seat sees.

>>> view = {"size": 5, "seats": 2, "turn_of": 0, "stall": 0, "stall_limit": 6,
...         "pieces": ["a1", "e5"], "collections": [["AS", "AH"], ["KS", "KH"]],
...         "grid": [["2C", None, None, None, None], [None] * 5, [None] * 5, [None] * 5,
...                  [None, None, None, None, "KD"]]}
>>> result = solve(view)
>>> result.winner, result.winning_moves
(1, [])

South's two aces beat North's two kings, but the king of diamonds lies under
North's piece: North steps off and comes back for it, and South, needing two
moves to reach it along a row or a column, is blocked whichever way he goes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.poker import CARD_BIT, value_of_mask

FILES = "abcdef"

#: Outcomes from South's (seat 0's) side.
SOUTH, TIE, NORTH = 1, 0, -1

_EXACT, _LOWER, _UPPER = 0, 1, 2


class SolverLimit(Exception):
    """The position needs more nodes than the limit allows; try later in the hand."""


@dataclass(frozen=True, slots=True)
class Solution:
    """What best play gives from a position.

    ``winner`` is the seat that wins with best play from both sides (``None``
    for a tie, in which nobody scores); ``outcomes`` maps each move of the
    seat to act to the hand's result after it (a seat, or ``None``), and
    ``winning_moves`` lists the moves that keep the win for the seat to act
    (empty when it cannot win). ``best_moves`` are the moves that keep the
    best result the seat to act can force, a win or at least a tie.
    """

    winner: int | None
    to_act: int
    winning_moves: list[str]
    best_moves: list[str]
    outcomes: dict[str, int | None] = field(default_factory=dict)
    nodes: int = 0


def square_name(index: int, size: int) -> str:
    """``0 -> "a1"``: files left to right, ranks from South's side."""
    return f"{FILES[index % size]}{index // size + 1}"


def square_index(name: str, size: int) -> int:
    return FILES.index(name[0]) + (int(name[1:]) - 1) * size


def _rays(size: int) -> list[list[list[int]]]:
    """For each square, its four rook rays outward, nearest square first."""
    out = []
    for sq in range(size * size):
        f, r = sq % size, sq // size
        rays = [
            [r * size + x for x in range(f + 1, size)],
            [r * size + x for x in range(f - 1, -1, -1)],
            [y * size + f for y in range(r + 1, size)],
            [y * size + f for y in range(r - 1, -1, -1)],
        ]
        out.append([ray for ray in rays if ray])
    return out


class _Solver:
    def __init__(self, size: int, cards: list[int], stall_limit: int, node_limit: int) -> None:
        self.size = size
        self.cards = cards  # poker bit of the card on each square, 0 when blank
        self.stall_limit = stall_limit
        self.node_limit = node_limit
        self.rays = _rays(size)
        self.table: dict[tuple[int, ...], tuple[int, int]] = {}
        self.values: dict[int, int] = {}  # hand value by card mask: few masks recur often
        self.nodes = 0

    def moves(self, mover: int, other: int) -> list[int]:
        out = []
        for ray in self.rays[mover]:
            for sq in ray:
                if sq == other:
                    break
                out.append(sq)
        return out

    def final(self, c0: int, c1: int) -> int:
        v0, v1 = value_of_mask(c0), value_of_mask(c1)
        return SOUTH if v0 > v1 else NORTH if v1 > v0 else TIE

    def after(
        self,
        rem: int,
        left: int,
        c0: int,
        c1: int,
        p0: int,
        p1: int,
        turn: int,
        stall: int,
        sq: int,
    ) -> tuple[int | None, tuple[int, ...]]:
        """Apply ``turn`` moving to ``sq``: (terminal outcome or None, next state)."""
        bit = self.cards[sq] if rem >> sq & 1 else 0
        if turn == 0:
            p0 = sq
            c0 |= bit
        else:
            p1 = sq
            c1 |= bit
        if bit:
            rem &= ~(1 << sq)
            left &= ~bit
            stall = 0
            if not rem:
                return self.final(c0, c1), ()
        else:
            stall += 1
            if stall >= self.stall_limit:
                return self.final(c0, c1), ()
        return None, (rem, left, c0, c1, p0, p1, 1 - turn, stall)

    def search(
        self,
        rem: int,
        left: int,
        c0: int,
        c1: int,
        p0: int,
        p1: int,
        turn: int,
        stall: int,
        alpha: int,
        beta: int,
    ) -> int:
        """The outcome (South's side) under alpha-beta, ``alpha < beta`` in -1..1."""
        self.nodes += 1
        if self.nodes > self.node_limit:
            raise SolverLimit(f"more than {self.node_limit} nodes")
        values = self.values
        v0 = values.get(c0)
        if v0 is None:
            v0 = values[c0] = value_of_mask(c0)
        v1 = values.get(c1)
        if v1 is None:
            v1 = values[c1] = value_of_mask(c1)
        m0, m1 = c0 | left, c1 | left
        max0 = values.get(m0)
        if max0 is None:
            max0 = values[m0] = value_of_mask(m0)
        max1 = values.get(m1)
        if max1 is None:
            max1 = values[m1] = value_of_mask(m1)
        if v0 > max1:
            return SOUTH
        if v1 > max0:
            return NORTH
        lo = TIE if v0 >= max1 else NORTH
        hi = TIE if v1 >= max0 else SOUTH
        key = (rem, c0, p0, p1, turn, stall)
        hit = self.table.get(key)
        if hit is not None:
            lo, hi = max(lo, hit[0]), min(hi, hit[1])
        if lo >= beta or lo == hi:
            return lo
        if hi <= alpha:
            return hi
        alpha, beta = max(alpha, lo), min(beta, hi)
        a0, b0 = alpha, beta
        mover, other = (p0, p1) if turn == 0 else (p1, p0)
        options = self.moves(mover, other)
        # Taking moves first, then the rest: a take is usually the best reply.
        options.sort(key=lambda sq: not (rem >> sq & 1))
        best = NORTH if turn == 0 else SOUTH
        for sq in options:
            done, state = self.after(rem, left, c0, c1, p0, p1, turn, stall, sq)
            value = done if done is not None else self.search(*state, alpha, beta)
            if turn == 0:
                if value > best:
                    best = value
                    alpha = max(alpha, value)
            elif value < best:
                best = value
                beta = min(beta, value)
            if alpha >= beta:
                break
        if best <= a0:  # failed low: an upper bound
            bound = (NORTH, best)
        elif best >= b0:  # failed high: a lower bound
            bound = (best, SOUTH)
        else:
            bound = (best, best)
        if hit is not None:
            bound = (max(bound[0], hit[0]), min(bound[1], hit[1]))
        self.table[key] = bound
        return best


def _position(view: Mapping[str, Any]) -> tuple[int, list[int], int, tuple[int, ...]]:
    if view.get("seats") != 2:
        raise ValueError("the solver plays the 2-player game only")
    size = int(view["size"])
    cards = [0] * (size * size)
    rem = 0
    for r, row in enumerate(view["grid"]):
        for f, card in enumerate(row):
            if card is not None:
                sq = r * size + f
                cards[sq] = CARD_BIT[card]
                rem |= 1 << sq
    left = sum(cards)
    c0, c1 = (sum(CARD_BIT[c] for c in coll) for coll in view["collections"])
    p0, p1 = (square_index(p, size) for p in view["pieces"])
    turn = int(view["turn_of"])
    return (
        size,
        cards,
        int(view["stall_limit"]),
        (rem, left, c0, c1, p0, p1, turn, int(view["stall"])),
    )


def cards_left(view: Mapping[str, Any]) -> int:
    """How many cards are still on the grid."""
    return sum(card is not None for row in view["grid"] for card in row)


def _seat(outcome: int) -> int | None:
    return 0 if outcome == SOUTH else 1 if outcome == NORTH else None


def solve(view: Mapping[str, Any], node_limit: int = 2_000_000) -> Solution:
    """Solve the current hand of a 2-player abbott view exactly.

    Raises ``SolverLimit`` when more than ``node_limit`` positions would be
    searched (with about a dozen cards left it needs far fewer), and
    ``ValueError`` for a 4-player view.
    """
    size, cards, stall_limit, state = _position(view)
    solver = _Solver(size, cards, stall_limit, node_limit)
    rem, left, c0, c1, p0, p1, turn, stall = state
    mover, other = (p0, p1) if turn == 0 else (p1, p0)
    outcomes: dict[str, int] = {}
    for sq in solver.moves(mover, other):
        done, nxt = solver.after(rem, left, c0, c1, p0, p1, turn, stall, sq)
        value = done if done is not None else solver.search(*nxt, NORTH, SOUTH)
        outcomes[f"move {square_name(sq, size)}"] = value
    if not outcomes:  # blocked: the turn is missed (never in a 2-player game)
        value = solver.final(c0, c1)
        return Solution(_seat(value), turn, [], [], {}, solver.nodes)
    sign = 1 if turn == 0 else -1
    best = max(v * sign for v in outcomes.values()) * sign
    best_moves = [m for m, v in outcomes.items() if v == best]
    winner = _seat(best)
    return Solution(
        winner,
        turn,
        best_moves if winner == turn else [],
        best_moves,
        {m: _seat(v) for m, v in outcomes.items()},
        solver.nodes,
    )


def best_moves_within(view: Mapping[str, Any], node_limit: int) -> Sequence[str] | None:
    """The moves keeping the best result, or ``None`` if the position is too big."""
    try:
        return solve(view, node_limit).best_moves
    except SolverLimit:
        return None
