"""The exact solver for a 2-player abbott hand (Abbott: "for every array of
cards dealt there must exist a perfect winning strategy for one of the players").

Everything in abbott is public, so a position is fully described by its view:
the cards left on the grid, the two pieces, the two collections, whose turn it
is, how many turns have passed without a card taken, and a pending ``vote
end``. ``solve(view)`` plays out every line with alpha-beta over the three
outcomes (South wins, tie, North wins), so it answers exactly who wins with
best play and which moves keep that result.

Votes. A hand also ends when both players have voted, on the cards as they
are (a take clears the votes). So while one player's vote stands, the other
may end the hand on the current cards at any moment before the next take:
the solver gives him that option at every position until a card is taken,
and lists ``vote end`` among the moves of a player to act whose opponent has
voted. Voting first never helps (it only hands the opponent that option), so
the solver never casts a first vote itself.

Why it finishes: a transposition table (the same cards can be taken in many
orders), taking moves searched first, and the "winner is decided" test of the
rules used as a bound at every node: a collection that already beats the
other player's collection plus every card left on the grid has won, however
the hand goes on. Hand values only grow as cards are added (a missing kicker
ranks below any card), which is what makes that bound sound.

What it costs (``python bench/solver.py``, positions from heuristic games on
the 2-core development machine): every position of up to 7 cards solves
within a second, most of 8 do, and from about 10 cards most need more than
the default node limit. ``node_limit`` caps the nodes of one call. Work is
never thrown away at the limit: the moves already solved keep their exact
results, the others get the best bounds found (``Solution.bounds``), and
``Solution.solved`` says whether a best move is proven anyway. A
``SolverTable`` passed from call to call keeps the transposition table for
the rest of the hand, so the next move's solve starts from this one's work.

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
A pending vote changes the answer. Here South holds two aces against two
kings, every square his piece can reach holds a low card, and North has voted
to end the hand. Any move takes a card, which clears the vote, and North then
takes the king of diamonds for three kings; voting too ends the hand with
South ahead, so it is his only winning move:

>>> grid = [[None] * 5 for _ in range(5)]
>>> grid[1][0], grid[2][0], grid[3][0], grid[4][0], grid[2][1] = "2C", "3D", "4H", "6S", "KD"
>>> voted = {**view, "grid": grid, "pieces": ["a1", "b1"], "votes": [1]}
>>> result = solve(voted)
>>> result.winning_moves, result.outcomes["move a2"]
(['vote end'], 1)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.poker import CARD_BIT, value_of_mask

FILES = "abcdef"

#: Outcomes from South's (seat 0's) side.
SOUTH, TIE, NORTH = 1, 0, -1

#: No vote pending (the ``voter`` of a state is otherwise the seat that voted).
NO_VOTE = -1

VOTE_END = "vote end"


class SolverLimit(Exception):
    """Raised inside the search at the node limit; ``solve`` catches it and
    returns what it found (``Solution.complete`` is then false)."""


@dataclass(frozen=True, slots=True)
class Solution:
    """What best play gives from a position.

    ``winner`` is the seat that wins with best play from both sides (``None``
    for a tie, in which nobody scores); ``outcomes`` maps each option of the
    seat to act (its moves, and ``vote end`` when the opponent has voted)
    whose result is proven to the hand's result after it (a seat, or
    ``None``), and ``winning_moves`` lists the options that keep the win for
    the seat to act (empty when it cannot win). ``best_moves`` are the options
    proven to keep the best result the seat to act can force.

    At the node limit the search stops but keeps its work: ``complete`` is
    false, ``outcomes`` holds only the options solved before the limit, and
    ``bounds`` gives every option's worst and best result *for the seat to
    act* (-1 loss, 0 tie, 1 win; equal for a solved option). ``solved`` says
    whether the best result is proven all the same (an option reaches the
    best that every other option could at most reach); when it is not,
    ``winner`` means nothing and ``best_moves`` is empty, and ``candidates``
    are the options not proven worse than another: where a fallback looks.
    """

    winner: int | None
    to_act: int
    winning_moves: list[str]
    best_moves: list[str]
    outcomes: dict[str, int | None] = field(default_factory=dict)
    nodes: int = 0
    bounds: dict[str, tuple[int, int]] = field(default_factory=dict)
    complete: bool = True
    solved: bool = True
    candidates: list[str] = field(default_factory=list)


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


State = tuple[int, int, int, int, int, int, int, int, int]


class _Solver:
    """One hand's search. Its table holds true bounds on the value of absolute
    states (which cards remain, South's collection, the pieces, the turn, the
    stall count, the pending vote), so it stays valid for the whole hand and
    may be reused from one call to the next."""

    def __init__(self, size: int, cards: list[int], stall_limit: int, universe: int) -> None:
        self.size = size
        self.cards = cards  # poker bit of the card on each square, 0 when blank
        self.stall_limit = stall_limit
        self.universe = universe  # every card of the hand: both collections and the grid
        self.rays = _rays(size)
        self.table: dict[tuple[int, ...], tuple[int, int]] = {}
        self.values: dict[int, int] = {}  # hand value by card mask: few masks recur often
        self.nodes = 0
        self.node_limit = 0

    def fits(self, size: int, cards: list[int], stall_limit: int, universe: int) -> bool:
        """Whether a position belongs to this solver's hand (its table then applies)."""
        if (size, stall_limit, universe) != (self.size, self.stall_limit, self.universe):
            return False
        return all(bit == 0 or bit == self.cards[sq] for sq, bit in enumerate(cards))

    def value(self, mask: int) -> int:
        v = self.values.get(mask)
        if v is None:
            v = self.values[mask] = value_of_mask(mask)
        return v

    def moves(self, mover: int, other: int) -> list[int]:
        out = []
        for ray in self.rays[mover]:
            for sq in ray:
                if sq == other:
                    break
                out.append(sq)
        return out

    def final(self, c0: int, c1: int) -> int:
        v0, v1 = self.value(c0), self.value(c1)
        return SOUTH if v0 > v1 else NORTH if v1 > v0 else TIE

    def after(self, state: State, sq: int) -> tuple[int | None, State | None]:
        """Apply the mover's move to ``sq``: (terminal outcome or None, next state)."""
        rem, left, c0, c1, p0, p1, turn, stall, voter = state
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
            voter = NO_VOTE  # a take clears the votes
            if not rem:
                return self.final(c0, c1), None
        else:
            stall += 1
            if stall >= self.stall_limit:
                return self.final(c0, c1), None
        return None, (rem, left, c0, c1, p0, p1, 1 - turn, stall, voter)

    def static(self, state: State) -> tuple[int, int]:
        """Bounds (South's side) known without searching: the decided test, the
        standing vote, and the table."""
        rem, left, c0, c1, p0, p1, turn, stall, voter = state
        v0, v1 = self.value(c0), self.value(c1)
        max0, max1 = self.value(c0 | left), self.value(c1 | left)
        if v0 > max1:
            return SOUTH, SOUTH
        if v1 > max0:
            return NORTH, NORTH
        lo = TIE if v0 >= max1 else NORTH
        hi = TIE if v1 >= max0 else SOUTH
        if voter != NO_VOTE:  # the other seat may end it on these cards
            stand = SOUTH if v0 > v1 else NORTH if v1 > v0 else TIE
            if voter == 1:
                lo = max(lo, stand)
            else:
                hi = min(hi, stand)
        hit = self.table.get((rem, c0, p0, p1, turn, stall, voter))
        if hit is not None:
            lo, hi = max(lo, hit[0]), min(hi, hit[1])
        return lo, hi

    def search(self, state: State, alpha: int, beta: int) -> int:
        """The outcome (South's side) under alpha-beta, ``alpha < beta`` in -1..1."""
        self.nodes += 1
        if self.nodes > self.node_limit:
            raise SolverLimit(f"more than {self.node_limit} nodes")
        rem, left, c0, c1, p0, p1, turn, stall, voter = state
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
        # A standing vote lets the other seat end the hand on these cards at any
        # moment before the next take: a floor on the value for that seat.
        stand = SOUTH if v0 > v1 else NORTH if v1 > v0 else TIE
        if voter == 1:
            lo = max(lo, stand)
        elif voter == 0:
            hi = min(hi, stand)
        key = (rem, c0, p0, p1, turn, stall, voter)
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
        # Taking moves first, the biggest gain to the mover's hand first, then
        # the rest: a good take is usually the best reply.
        mine = c0 if turn == 0 else c1
        cards = self.cards
        hand_value = self.value
        options.sort(key=lambda sq: -hand_value(mine | cards[sq]) if rem >> sq & 1 else 0)
        best = NORTH if turn == 0 else SOUTH
        for sq in options:
            done, nxt = self.after(state, sq)
            if nxt is None:
                assert done is not None  # a move that ends the hand has an outcome
                value = done
            else:
                value = self.search(nxt, alpha, beta)
            if turn == 0:
                if value > best:
                    best = value
                    alpha = max(alpha, value)
            elif value < best:
                best = value
                beta = min(beta, value)
            if alpha >= beta:
                break
        # The vote's option belongs to the node whoever moves: fold it in.
        if voter == 1:
            best = max(best, stand)
        elif voter == 0:
            best = min(best, stand)
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


class SolverTable:
    """The solver's work kept from one call to the next, for the rest of a hand.

    Pass the same table to ``solve`` for successive positions of one hand (a
    bot's moves, an analysis walking through a game): a position from another
    hand starts a fresh table. ``max_entries`` bounds its memory.
    """

    def __init__(self, max_entries: int = 2_000_000) -> None:
        self.max_entries = max_entries
        self._solver: _Solver | None = None

    def solver_for(self, size: int, cards: list[int], stall_limit: int, universe: int) -> _Solver:
        s = self._solver
        if s is None or not s.fits(size, cards, stall_limit, universe):
            s = self._solver = _Solver(size, cards, stall_limit, universe)
        elif len(s.table) > self.max_entries:
            s.table.clear()
        return s


def _position(view: Mapping[str, Any]) -> tuple[int, list[int], int, int, State]:
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
    votes = list(view.get("votes") or [])
    voter = votes[0] if len(votes) == 1 else NO_VOTE
    state = (rem, left, c0, c1, p0, p1, turn, int(view["stall"]), voter)
    return size, cards, int(view["stall_limit"]), c0 | c1 | left, state


def cards_left(view: Mapping[str, Any]) -> int:
    """How many cards are still on the grid."""
    return sum(card is not None for row in view["grid"] for card in row)


def _seat(outcome: int) -> int | None:
    return 0 if outcome == SOUTH else 1 if outcome == NORTH else None


def solve(
    view: Mapping[str, Any],
    node_limit: int = 2_000_000,
    table: SolverTable | None = None,
    all_moves: bool = True,
) -> Solution:
    """Solve the current hand of a 2-player abbott view.

    Searches at most ``node_limit`` positions in this call; past it the
    answer is partial (see ``Solution``), never an exception. ``table`` keeps
    the work for the next call of the same hand. With ``all_moves`` false the
    search stops at the first option proven to win (a bot needs no more);
    the others then carry bounds only. ``ValueError`` for a 4-player view.
    """
    size, cards, stall_limit, universe, state = _position(view)
    if table is None:
        solver = _Solver(size, cards, stall_limit, universe)
    else:
        solver = table.solver_for(size, cards, stall_limit, universe)
    solver.nodes = 0
    solver.node_limit = node_limit
    rem, _, c0, c1, p0, p1, turn, _, voter = state
    sign = 1 if turn == 0 else -1
    mover, other = (p0, p1) if turn == 0 else (p1, p0)
    squares = solver.moves(mover, other)
    if not squares:  # blocked: the turn is missed (never in a 2-player game)
        value = solver.final(c0, c1)
        return Solution(_seat(value), turn, [], [], {}, solver.nodes)
    stand = solver.final(c0, c1)
    exact: dict[str, int] = {}
    bounds: dict[str, tuple[int, int]] = {}  # South's side
    if voter == 1 - turn:
        exact[VOTE_END] = stand
    order = [VOTE_END] * (VOTE_END in exact) + [f"move {square_name(sq, size)}" for sq in squares]
    stopped = False
    # Takes first: they are most often best, so a limit cuts the others.
    for sq in sorted(squares, key=lambda sq: not (rem >> sq & 1)):
        name = f"move {square_name(sq, size)}"
        done, nxt = solver.after(state, sq)
        if nxt is None:
            exact[name] = done  # type: ignore[assignment]
            continue
        if stopped:
            bounds[name] = solver.static(nxt)
            continue
        try:
            exact[name] = solver.search(nxt, NORTH, SOUTH)
        except SolverLimit:
            stopped = True
            bounds[name] = solver.static(nxt)
            continue
        if not all_moves and exact[name] * sign == 1:
            stopped = True  # a proven win: nothing can do better
    for name, value in exact.items():
        bounds[name] = (value, value)
    # Everything from the side of the seat to act: -1 loss, 0 tie, 1 win.
    names = order
    mine = {
        n: (
            min(bounds[n][0] * sign, bounds[n][1] * sign),
            max(bounds[n][0] * sign, bounds[n][1] * sign),
        )
        for n in names
    }
    top_lo = max(lo for lo, _ in mine.values())
    top_hi = max(hi for _, hi in mine.values())
    proven = [n for n in names if mine[n][0] == top_hi]
    solved = bool(proven)
    complete = len(exact) == len(names)
    candidates = [n for n in names if mine[n][1] >= top_lo]
    best = top_hi
    if voter == turn:  # our own vote stands: the opponent may end it now
        best = min(best, stand * sign)
    winner = _seat(best * sign) if solved else None
    best_moves = proven if solved else []
    return Solution(
        winner,
        turn,
        best_moves if solved and winner == turn else [],
        best_moves,
        {n: _seat(exact[n]) for n in names if n in exact},
        solver.nodes,
        {n: (int(lo), int(hi)) for n, (lo, hi) in mine.items()},
        complete,
        solved,
        candidates,
    )


def best_moves_within(view: Mapping[str, Any], node_limit: int) -> Sequence[str] | None:
    """The moves proven to keep the best result, or ``None`` if none is proven
    within ``node_limit``."""
    result = solve(view, node_limit)
    return result.best_moves if result.solved else None
