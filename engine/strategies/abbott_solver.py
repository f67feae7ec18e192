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

Why it finishes: alpha-beta over three outcomes, with

- the "winner is decided" test of the rules as a bound at every node: a
  collection that already beats the other player's collection plus every card
  left on the grid has won, however the hand goes on (hand values only grow as
  cards are added: a missing kicker ranks below any card);
- a transposition table of true bounds and each state's best move (the same
  cards are taken in many orders, and the pieces shuffle back and forth);
- move ordering, which decides how much alpha-beta cuts: the table's best
  move, then the move that last refuted a position with the same cards left
  (a killer), then the takes by what they give the mover or deny the other
  seat, then the other moves by how many cards their square lines up with
  and how often they cut before (the history heuristic);
- the one-card race solved once a hand (``_Solver.pursuit``): with one card
  left the result depends only on who gets it, so it is worked out on the
  squares alone and shared by every collection.

What it costs: see ``bench/solver.py``, which measures the share of positions
solved completely within a second of CPU, by cards left, beside the solver
as it was before these means. ``node_limit`` caps the nodes of one call. Work
is never thrown away at the limit: the moves already solved keep their exact
results, the others get the best bounds found (``Solution.bounds``), and
``Solution.solved`` says whether a best move is proven anyway. A
``SolverTable`` passed from call to call keeps the transposition table for
the rest of the hand, so the next move's solve starts from this one's work,
even in a worker process (see the class).

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

import os
from collections import OrderedDict
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
        n = size * size
        # The squares each piece may move to, for every square of the other piece.
        self.reach = [[self.moves(m, o) for o in range(n)] for m in range(n)]
        # state -> (floor, ceiling, best move's square or -1): true bounds on its value
        self.table: dict[tuple[int, ...], tuple[int, int, int]] = {}
        self.history = [[0] * n, [0] * n]  # per seat: cut-offs each destination caused
        self.races: dict[int, int] = {}  # the one-card races (``pursuit``)
        self.killers: dict[int, int] = {}  # cards left and turn -> the last move that cut
        self.lines = [sum(1 << t for ray in self.rays[sq] for t in ray) for sq in range(n)]
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

    def search(  # noqa: C901 (the solver's inner loop)
        self,
        rem: int,
        left: int,
        c0: int,
        c1: int,
        p0: int,
        p1: int,
        turn: int,
        stall: int,
        voter: int,
        alpha: int,
        beta: int,
    ) -> int:
        """The outcome (South's side) under alpha-beta, ``alpha < beta`` in -1..1.

        The state is passed unpacked and each move applied inline (no state tuple
        a move): this function is the whole cost of a solve. The moves are tried in
        the order most likely to cut: the table's best move for this state first
        (from an earlier, shallower look, or the last call of the hand), then the
        takes by what they add to the mover's hand, then the other moves by how
        often each square has refuted a line before (the history heuristic)."""
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
        # A standing vote lets the other seat end the hand on these cards at any
        # moment before the next take: a floor on the value for that seat.
        stand = SOUTH if v0 > v1 else NORTH if v1 > v0 else TIE
        if voter == 1:
            lo = max(lo, stand)
        elif voter == 0:
            hi = min(hi, stand)
        if not rem & (rem - 1) and voter == NO_VOTE:
            # One card left: a race for it, whose result is the pursuit's.
            sq = rem.bit_length() - 1
            race = self.pursuit(sq, p0, p1, turn, stall)
            if race == TIE:
                return stand
            bit = self.cards[sq]
            return self.final(c0 | bit, c1) if race == SOUTH else self.final(c0, c1 | bit)
        key = (rem, c0, p0, p1, turn, stall, voter)
        table = self.table
        hit = table.get(key)
        first = -1
        if hit is not None:
            if hit[0] > lo:
                lo = hit[0]
            if hit[1] < hi:
                hi = hit[1]
            first = hit[2]
        if lo >= beta or lo == hi:
            return lo
        if hi <= alpha:
            return hi
        if lo > alpha:
            alpha = lo
        if hi < beta:
            beta = hi
        a0, b0 = alpha, beta
        cards = self.cards
        if turn == 0:
            options = self.reach[p0][p1]
            mine, theirs, vm, vt = c0, c1, v0, v1
        else:
            options = self.reach[p1][p0]
            mine, theirs, vm, vt = c1, c0, v1, v0
        history = self.history[turn]
        killers = self.killers
        lines = self.lines
        stall_limit = self.stall_limit
        search = self.search
        nxt = 1 - turn
        best = NORTH if turn == 0 else SOUTH
        best_sq = -1
        # The table's move alone first: it often cuts, and then no order is built.
        order: Sequence[int] = (first,) if first >= 0 else ()
        for stage in (0, 1):
            if stage:
                if alpha >= beta:
                    break
                takes = []
                others = []
                for sq in options:
                    if sq == first:
                        continue
                    if rem >> sq & 1:
                        m = mine | cards[sq]
                        gain = values.get(m)
                        if gain is None:
                            gain = values[m] = value_of_mask(m)
                        m = theirs | cards[sq]
                        deny = values.get(m)
                        if deny is None:
                            deny = values[m] = value_of_mask(m)
                        takes.append((max(gain - vm, deny - vt), sq))
                    else:
                        others.append(((lines[sq] & rem).bit_count() * 1000000 + history[sq], sq))
                takes.sort(reverse=True)
                others.sort(reverse=True)
                order = [sq for _, sq in takes]
                order += [sq for _, sq in others]
                killer = killers.get(rem * 2 + turn, -1)
                if killer >= 0 and killer != first and killer in options:
                    order.remove(killer)
                    order.insert(0, killer)
            for sq in order:
                if rem >> sq & 1:
                    bit = cards[sq]
                    nrem = rem & ~(1 << sq)
                    if not nrem:
                        value = self.final(c0 | bit, c1) if turn == 0 else self.final(c0, c1 | bit)
                    elif not nrem & (nrem - 1):  # one card left: its race decides
                        last = nrem.bit_length() - 1
                        if turn == 0:
                            race = self.pursuit(last, sq, p1, 1, 0)
                            n0, n1 = c0 | bit, c1
                        else:
                            race = self.pursuit(last, p0, sq, 0, 0)
                            n0, n1 = c0, c1 | bit
                        if race == SOUTH:
                            n0 |= cards[last]
                        elif race == NORTH:
                            n1 |= cards[last]
                        value = self.final(n0, n1)
                    elif turn == 0:
                        value = search(
                            nrem, left & ~bit, c0 | bit, c1, sq, p1, 1, 0, NO_VOTE, alpha, beta
                        )
                    else:
                        value = search(
                            nrem, left & ~bit, c0, c1 | bit, p0, sq, 0, 0, NO_VOTE, alpha, beta
                        )
                elif stall + 1 >= stall_limit:
                    value = stand
                elif turn == 0:
                    value = search(rem, left, c0, c1, sq, p1, nxt, stall + 1, voter, alpha, beta)
                else:
                    value = search(rem, left, c0, c1, p0, sq, nxt, stall + 1, voter, alpha, beta)
                if turn == 0:
                    if value > best:
                        best, best_sq = value, sq
                        if value > alpha:
                            alpha = value
                elif value < best:
                    best, best_sq = value, sq
                    if value < beta:
                        beta = value
                if alpha >= beta:
                    history[sq] += 1
                    killers[rem * 2 + turn] = sq
                    break
        # The vote's option belongs to the node whoever moves: fold it in.
        if voter == 1:
            best = max(best, stand)
        elif voter == 0:
            best = min(best, stand)
        if best <= a0:  # failed low: an upper bound
            lo2, hi2 = NORTH, best
        elif best >= b0:  # failed high: a lower bound
            lo2, hi2 = best, SOUTH
        else:
            lo2 = hi2 = best
        if hit is not None:
            if hit[0] > lo2:
                lo2 = hit[0]
            if hit[1] < hi2:
                hi2 = hit[1]
            if best_sq < 0:
                best_sq = first
        table[key] = (lo2, hi2, best_sq)
        return best

    def exact(self, state: State) -> int:
        """A state's exact outcome, by two null-window searches: does South win, and
        if not, does he tie? A window of one step cuts far more than the full one."""
        if self.search(*state, TIE, SOUTH) >= SOUTH:
            return SOUTH
        return TIE if self.search(*state, NORTH, TIE) >= TIE else NORTH

    def pursuit(self, sq: int, p0: int, p1: int, turn: int, stall: int) -> int:
        """Who gets the last card, on ``sq``, with best play: ``SOUTH``, ``NORTH``,
        or ``TIE`` when nobody takes it before the stall limit ends the hand.

        Why it holds whatever the cards: a take of the last card ends the hand, and
        taking it is never worse for the taker than the hand ending without it, or
        than the other seat taking it (hand values only grow). So each seat prefers
        "I take it" to "nobody does" to "he does", and the hand's result is that
        order mapped onto the three results, a map that never reverses it; the best
        play of a game is unchanged by such a map. The race depends only on the
        squares, the turn and the stall count, so it is worked out once a hand for
        every collection the search meets (most of a search's positions used to be
        these one-card races). Counted in the solve's nodes."""
        key = (((sq * 64 + p0) * 64 + p1) * 2 + turn) * (self.stall_limit + 1) + stall
        memo = self.races
        hit = memo.get(key)
        if hit is not None:
            return hit
        self.nodes += 1
        if self.nodes > self.node_limit:
            raise SolverLimit(f"more than {self.node_limit} nodes")
        if turn == 0:
            options, mine = self.reach[p0][p1], SOUTH
        else:
            options, mine = self.reach[p1][p0], NORTH
        if sq in options:
            result = mine
        elif stall + 1 >= self.stall_limit:
            result = TIE
        else:
            result = -mine
            for dest in options:
                if turn == 0:
                    value = self.pursuit(sq, dest, p1, 1, stall + 1)
                else:
                    value = self.pursuit(sq, p0, dest, 0, stall + 1)
                if value * mine > result * mine:
                    result = value
                    if result == mine:
                        break
        memo[key] = result
        return result


class SolverTable:
    """The solver's work kept from one call to the next, for the rest of a hand.

    Pass the same table to ``solve`` for successive positions of one hand (a
    bot's moves, an analysis walking through a game): a position from another
    hand starts a fresh table. ``max_entries`` bounds its memory (about 240
    bytes an entry: the default, 500,000, is some 120 MB at most).

    A table survives being sent to a worker process. The server pickles a
    search bot with everything it holds for each thought, and a table's
    contents would cost more to pickle than to recompute; so a pickled table
    is only its name, and unpickling it in a process gives the table of that
    name this process already holds (or a new one there). A worker that
    thinks for the same bot again so starts from its earlier thoughts' work;
    each process keeps the ``KEPT`` tables it used last.
    """

    def __init__(self, max_entries: int = 500_000, token: str | None = None) -> None:
        self.max_entries = max_entries
        self.token = token or os.urandom(8).hex()
        self._solver: _Solver | None = None

    def solver_for(self, size: int, cards: list[int], stall_limit: int, universe: int) -> _Solver:
        s = self._solver
        if s is None or not s.fits(size, cards, stall_limit, universe):
            s = self._solver = _Solver(size, cards, stall_limit, universe)
        elif len(s.table) > self.max_entries:
            s.table.clear()
            s.races.clear()
            s.killers.clear()
        return s

    def __reduce__(self) -> tuple[Any, tuple[int, str]]:
        return _revive, (self.max_entries, self.token)


#: How many solver tables a process keeps for tables pickled to it (``SolverTable``).
KEPT = 2
_kept: OrderedDict[str, SolverTable] = OrderedDict()


def _revive(max_entries: int, token: str) -> SolverTable:
    """This process's table named ``token``, or a new one by that name (kept)."""
    table = _kept.pop(token, None) or SolverTable(max_entries, token)
    _kept[token] = table  # the most recently used last
    while len(_kept) > KEPT:
        _kept.popitem(last=False)
    return table


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
            assert done is not None  # no next state: the move ended the hand, with an outcome
            exact[name] = done
            continue
        if stopped:
            bounds[name] = solver.static(nxt)
            continue
        try:
            exact[name] = solver.exact(nxt)
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
