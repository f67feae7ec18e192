"""Abbott strategies: ``heuristic`` (the family default) and ``search``.

Everything in abbott is public, so both read the whole position from the view.

The heuristic is what a decent player does: look one move ahead for yourself
and one for the next player, and judge a position by who is likely to win the
hand and what that would pay *you* under the alliance scoring. A seat's
strength is its best poker hand now and with the best card it could take
next; a softmax of strengths gives each seat's chance of winning; the worth
of a position to you is the expected points those chances pay you (which
makes the chooser of an alliance play for his partner, as Abbott says he
will). It names a partner when three points from the leader's win are worth
more than its own chances, and never votes or concedes unless everyone else
already voted and the hand as it stands pays it at least as well.

The search in the 2-player game is IS-MCTS (``search.py``) on copies of the
one state the view describes, with rollouts by a greedy taker and the
heuristic's estimate at the depth limit; once few enough cards remain, the
exact solver (``abbott_solver.py``) decides instead. At 4 seats it is
``AbbottLookahead``: each move (and each partner it could name) followed
through a round of the other seats' greedy replies and judged by the
heuristic's worth at the end of the line, which beats the tree search there
(see that class).
"""

from __future__ import annotations

import logging
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from engine.abbott import rook_moves, square_index, square_name
from engine.abbott.game import Abbott
from engine.abbott.scoring import hand_points
from engine.abbott.vocabulary import AbbottView
from engine.actions import Action, Ally, Move, Vote
from engine.poker import CARD_BIT, value_of_mask
from engine.strategies import register_strategy
from engine.strategies.abbott_solver import VOTE_END, Solution, SolverTable, cards_left, solve
from engine.strategies.search import ISMCTS, fresh_copy
from engine.vocabulary import seat_of

log = logging.getLogger(__name__)

SHARPNESS = 4.0  # how sharply strength turns into a chance of winning
ALLY_MARGIN = 0.1  # points a partner must add to the line before the search names one


def strength(value: int) -> float:
    """A hand value as a number: category, then the top two ranks as fractions."""
    return (value >> 20) + ((value >> 16) & 0xF) / 14 + ((value >> 12) & 0xF) / 200


class Position:
    """The numbers the heuristic needs, read from a view (or a game) once."""

    __slots__ = ("alliance", "cells", "masks", "mover", "pieces", "seats", "size")

    def __init__(
        self,
        size: int,
        cells: list[int],
        pieces: list[int],
        masks: list[int],
        mover: int,
        alliance: tuple[int, int] | None,
    ) -> None:
        self.size = size
        self.cells = cells  # card bit per square, 0 when blank
        self.pieces = pieces
        self.masks = masks
        self.mover = mover
        self.alliance = alliance
        self.seats = len(pieces)

    @classmethod
    def from_view(cls, view: AbbottView) -> Position:
        size = view["size"]
        cells = [CARD_BIT[c] if c is not None else 0 for row in view["grid"] for c in row]
        pieces = [square_index(p, size) for p in view["pieces"]]
        masks = [sum(CARD_BIT[c] for c in coll) for coll in view["collections"]]
        a = view.get("alliance")
        alliance = None if a is None else (a["chooser"], a["partner"])
        mover = view["turn_of"]
        assert mover is not None, "a position to play on: the game is not over"
        return cls(size, cells, pieces, masks, mover, alliance)

    def moves(self, seat: int) -> list[int]:
        return rook_moves(self.pieces[seat], self.size, self.pieces)

    def after(self, dest: int) -> Position:
        """The position once the mover goes to ``dest`` (taking what is there)."""
        cells = self.cells
        masks = self.masks
        bit = cells[dest]
        if bit:
            cells = cells.copy()
            cells[dest] = 0
            masks = masks.copy()
            masks[self.mover] |= bit
        pieces = self.pieces.copy()
        pieces[self.mover] = dest
        return Position(
            self.size, cells, pieces, masks, (self.mover + 1) % self.seats, self.alliance
        )

    def reach_value(self, seat: int) -> int:
        """The seat's best hand value after its best take from where it stands."""
        mask = self.masks[seat]
        best = value_of_mask(mask)
        cells = self.cells
        for sq in self.moves(seat):
            bit = cells[sq]
            if bit:
                v = value_of_mask(mask | bit)
                if v > best:
                    best = v
        return best

    def chances(self) -> list[float]:
        """Each seat's chance of winning the hand, from its strength now and next."""
        strengths = [
            0.6 * strength(value_of_mask(self.masks[s])) + 0.4 * strength(self.reach_value(s))
            for s in range(self.seats)
        ]
        top = max(strengths)
        weights = [math.exp(SHARPNESS * (x - top)) for x in strengths]
        total = sum(weights)
        return [w / total for w in weights]

    def worth(self, seat: int) -> float:
        """Expected points of the hand to ``seat`` under its alliance scoring."""
        chances = self.chances()
        return sum(
            p * hand_points(self.seats, w, self.alliance)[seat] for w, p in enumerate(chances)
        )

    def best_reply(self) -> Position:
        """The mover's greedy move: the one worth most to him one move ahead."""
        mover = self.mover
        options = self.moves(mover)
        if not options:
            return Position(
                self.size,
                self.cells,
                self.pieces,
                self.masks,
                (mover + 1) % self.seats,
                self.alliance,
            )
        return max((self.after(sq) for sq in options), key=lambda p: p.worth(mover))


def _ally_choice(view: AbbottView, pos: Position, me: int) -> str | None:
    """A partner worth naming now, or ``None``."""
    chances = pos.chances()
    alone = chances[me] * 10
    leader = max((s for s in range(pos.seats) if s != me), key=lambda s: chances[s])
    if 3 * chances[leader] > alone + 1.0:
        return str(view["seat_names"][leader]).lower()
    return None


class AbbottHeuristic:
    """Greedy with one reply of look-ahead, alliance-aware (see the module doc)."""

    name = "heuristic"

    def choose(self, view: AbbottView, legal: Sequence[Action], rng: random.Random) -> Action:
        moves = [a for a in legal if isinstance(a, Move)]
        if not moves:
            return legal[0] if len(legal) == 1 else _fallback(legal)
        me = seat_of(view)
        pos = Position.from_view(view)
        allies = {a.partner: a for a in legal if isinstance(a, Ally)}
        if allies:
            partner = _ally_choice(view, pos, me)
            if partner in allies:
                return allies[partner]
        scored = rank_moves(pos, moves, me)
        return vote_or_best(view, me, legal, scored, rng)


def vote_or_best(
    view: AbbottView,
    me: int,
    legal: Sequence[Action],
    scored: Sequence[tuple[float, Move]],
    rng: random.Random,
) -> Action:
    """Vote to end when everyone else has and the hand as it stands pays ``me`` at
    least the best move's worth; else one of the best-scored moves at random."""
    best = max(v for v, _ in scored)
    votes = [a for a in legal if isinstance(a, Vote)]
    others_voted = len(view.get("votes", [])) == view["seats"] - 1
    if votes and others_voted and _stands(view, me) >= best:
        return votes[0]
    top = [m for v, m in scored if v >= best - 1e-9]
    return top[rng.randrange(len(top))]


def rank_moves(pos: Position, moves: Sequence[Move], me: int) -> list[tuple[float, Move]]:
    """Each move's worth to ``me`` after the next player's greedy reply."""
    out = []
    for m in moves:
        after = pos.after(square_index(m.square, pos.size))
        out.append((after.best_reply().worth(me) + 0.001 * after.worth(me), m))
    return out


def _stands(view: AbbottView, me: int) -> float:
    """What the hand pays ``me`` if it ends now."""
    values = [value_of_mask(sum(CARD_BIT[c] for c in coll)) for coll in view["collections"]]
    best = max(values)
    winners = [s for s, v in enumerate(values) if v == best]
    if len(winners) > 1:
        return 0.0
    a = view.get("alliance")
    alliance = None if a is None else (a["chooser"], a["partner"])
    return float(hand_points(view["seats"], winners[0], alliance)[me])


def _fallback(legal: Sequence[Action]) -> Action:
    """Never concede or vote when something else is legal."""
    for a in legal:
        if not isinstance(a, Vote) and a.verb != "concede":
            return a
    return legal[0]


# ------------------------------------------------------------------ search
class AbbottAdapter:
    """The search's view of abbott: the world is the view itself."""

    def world(self, view: AbbottView, memory: Abbott, rng: random.Random) -> Abbott:
        return fresh_copy(memory, rng)

    def keep(self, legal: list[Action]) -> list[Action]:
        """Moves and alliances; votes and concessions are left to people."""
        kept: list[Action] = [a for a in legal if isinstance(a, Move | Ally)]
        return kept or legal

    def rollout(
        self, game: Abbott, seat: int, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        """Take the card that improves the mover's hand most; sometimes wander."""
        moves = [a for a in legal if isinstance(a, Move)]
        if not moves:
            return legal[rng.randrange(len(legal))]
        if rng.random() < 0.2:
            return moves[rng.randrange(len(moves))]
        mover = game.turn
        mask = game.masks[mover]
        base = game.values[mover]
        best_gain, best = 0, None
        for m in moves:
            bit = game.grid_bit(m.square)
            if bit:
                gain = value_of_mask(mask | bit) - base
                if gain > best_gain or best is None:
                    best_gain, best = gain, m
        return best if best is not None else moves[rng.randrange(len(moves))]

    def ended(self, game: Abbott, root: AbbottView) -> bool:
        return game.over or game.hand_number != root["hand_number"]

    def value(self, game: Abbott, root: AbbottView, finished: bool) -> list[float]:
        g = game
        n = g.seats
        if finished:
            return [p / 10 for p in g.hand_scores[-1]]
        alliance = g.alliance
        pos = Position(
            g.size,
            list(g.grid_bits),
            list(g.pieces),
            list(g.masks),
            g.turn,
            alliance,
        )
        chances = pos.chances()
        return [
            sum(p * hand_points(n, w, alliance)[s] for w, p in enumerate(chances)) / 10
            for s in range(n)
        ]


class AbbottSearch:
    """IS-MCTS from the view; the exact solver in a 2-player endgame.

    The solver's table is kept for the rest of the hand (``SolverTable``), so
    each move's solve starts from the last one's work. When a solve stops at
    ``node_limit`` without a proven best move, the tree search decides among
    the moves the solver could not rule out; ``solver_stats`` counts how each
    endgame move was chosen (``solved``, ``fallback``), so a fallback is seen,
    not silent, and ``last_solution`` keeps the solver's answer.
    """

    name = "search"
    slow = True  # up to a second a move: the server runs it in a worker process

    def __init__(
        self,
        iterations: int = 600,
        depth: int = 40,
        solve_at: int = 7,
        node_limit: int = 150_000,
        seconds: float | None = None,
        plies: int = 4,
        ally: int = 1,
    ) -> None:
        self.mcts = ISMCTS(AbbottAdapter(), iterations=iterations, depth=depth, seconds=seconds)
        self.solve_at = solve_at
        self.node_limit = node_limit
        self.heuristic = AbbottHeuristic()
        self.multi = AbbottLookahead(plies=plies, ally=ally)
        self.table = SolverTable()
        self.solver_stats = {"solved": 0, "fallback": 0}
        self.last_solution: Solution | None = None

    def choose(self, view: AbbottView, legal: Sequence[Action], rng: random.Random) -> Action:
        moves = [a for a in legal if isinstance(a, Move)]
        can_end = me_may_end(view)
        if len(moves) == 1 and not can_end and not any(isinstance(a, Ally) for a in legal):
            return moves[0]
        if not moves:
            return _fallback(legal)
        me = seat_of(view)
        if view["seats"] > 2:
            return self.multi.choose(view, legal, rng)
        kept: list[Action] = [a for a in legal if isinstance(a, Move | Ally)]
        if view["seats"] == 2 and cards_left(view) <= self.solve_at:
            result = solve(view, self.node_limit, self.table, all_moves=False)
            self.last_solution = result
            if result.solved:
                self.solver_stats["solved"] += 1
                by_name = {str(a): a for a in legal}
                if VOTE_END in result.best_moves and VOTE_END in by_name:
                    return by_name[VOTE_END]  # the best result, and the hand ends now
                keep = [m for m in moves if str(m) in result.best_moves] or moves
                scored = rank_moves(Position.from_view(view), keep, me)
                best = max(v for v, _ in scored)
                return next(m for v, m in scored if v >= best - 1e-9)
            self.solver_stats["fallback"] += 1
            log.info(
                "abbott solver: no proven move within %d nodes (%d cards); tree search decides",
                self.node_limit,
                cards_left(view),
            )
            kept = [m for m in moves if str(m) in result.candidates] or kept
        action, _ = self.mcts.search(view, kept, Abbott.from_view(view), rng)
        return action


class AbbottLookahead:
    """The search at 4 seats (any count above 2): each move followed through a round of replies.

    Why not the tree search: abbott is deterministic and public, so every
    world of IS-MCTS is the same, and with four players a tree of a few
    dozen iterations never sees past the first reply. The heuristic's own
    evaluation (``Position.worth``) is cheap, so a fixed line is cheaper and
    deeper: after each candidate move every other seat answers with its
    greedy move (the one worth most to it a move ahead, alliance scoring
    included), for ``plies`` replies (4: the round and the searcher's own
    next move), and the candidate is judged by what the position is then
    worth to the searcher. With ``ally`` on, naming each possible partner is
    judged the same way (the alliance changes what every later position pays
    whom) and a partner is named when the best line with him beats the best
    line alone by ``ALLY_MARGIN``; off, the heuristic's rule names partners.
    The 16-point power is not modelled, and need not be: under the alliance
    scoring chooser and partner both gain only from the partner's win (7
    and 3 points), so the power holder's greedy choice for the partner is
    the partner's own (tried: it changed no move in ten games).

    Measured (``switchboard arena abbott search heuristic random --seats 4
    --games 96 --seed 5``): search 46% a seat, heuristic 7%, about 8 ms a
    move. Head to head (``search heuristic --seats 4 --games 120 --seed 2``):
    45% against 5% a seat; 38% against 12% with ``ally=0``, 32% against 18%
    with ``plies=3,ally=0``; ``plies=8`` was no better than 4.
    """

    def __init__(self, plies: int = 4, ally: int = 1) -> None:
        self.plies = plies
        self.ally = bool(ally)

    def choose(self, view: AbbottView, legal: Sequence[Action], rng: random.Random) -> Action:
        moves = [a for a in legal if isinstance(a, Move)]
        me = seat_of(view)
        pos = Position.from_view(view)
        allies = {a.partner: a for a in legal if isinstance(a, Ally)}
        if allies and not self.ally:
            partner = _ally_choice(view, pos, me)
            if partner in allies:
                return allies[partner]
        scored = self.rank(pos, moves, me)
        if allies and self.ally:
            alone = max(v for v, _ in scored)
            names = [str(n).lower() for n in view["seat_names"]]
            best_ally, best_v = None, alone + ALLY_MARGIN
            for name, action in allies.items():
                p = names.index(name)
                trial = Position(pos.size, pos.cells, pos.pieces, pos.masks, pos.mover, (me, p))
                v = max(x for x, _ in self.rank(trial, moves, me))
                if v > best_v:
                    best_ally, best_v = action, v
            if best_ally is not None:
                return best_ally
        return vote_or_best(view, me, legal, scored, rng)

    def rank(self, pos: Position, moves: Sequence[Move], me: int) -> list[tuple[float, Move]]:
        """Each move's worth to ``me`` after ``plies`` greedy replies."""
        out = []
        for m in moves:
            after = pos.after(square_index(m.square, pos.size))
            line = after
            for _ in range(self.plies):
                line = line.best_reply()
            out.append((line.worth(me) + 0.001 * after.worth(me), m))
        return out


def me_may_end(view: AbbottView) -> bool:
    """Whether the viewer's ``vote end`` would end the hand (everyone else voted)."""
    votes = view.get("votes") or []
    return view["viewer"] not in votes and len(votes) == view["seats"] - 1


RESULT_WORDS = {1: "win", 0: "tie", -1: "loss"}


@dataclass(frozen=True, slots=True)
class Hint:
    """The solver's advice to the seat to act in a 2-player position.

    ``moves`` are the options (``move c3``, or ``vote end`` when the opponent
    has voted) that keep the best result best play can force, ``result`` is
    that result for the seat to act (``win``, ``tie`` or ``loss``), and
    ``results`` gives each option's proven result (an option the search could
    not finish within its node limit is missing).
    """

    seat: int
    moves: list[str]
    result: str
    results: dict[str, str]

    def text(self) -> str:
        """One line for a player: ``move c3 wins (also move c4)``."""
        verb = {"win": "wins", "tie": "ties", "loss": "loses anyway"}[self.result]
        first, rest = self.moves[0], self.moves[1:]
        also = f" (also {', '.join(rest)})" if rest else ""
        return f"{first} {verb}{also}"


def hint(
    view: AbbottView, node_limit: int = 300_000, table: SolverTable | None = None
) -> Hint | None:
    """The solver's advice for the seat to act in a 2-player position, or
    ``None`` (a 4-player game, a finished one, or no best move proven within
    ``node_limit``). For a client's ``hint`` and the after-game analysis; pass
    a ``table`` kept for the hand to reuse earlier work."""
    if view.get("seats") != 2 or view.get("over") or view.get("turn_of") is None:
        return None
    result = solve(view, node_limit, table)
    if not result.solved:
        return None
    seat = result.to_act
    results = {name: RESULT_WORDS[lo] for name, (lo, hi) in result.bounds.items() if lo == hi}
    best = "tie" if result.winner is None else "win" if result.winner == seat else "loss"
    return Hint(seat, result.best_moves, best, results)


register_strategy("heuristic", "abbott", AbbottHeuristic, default=True)
register_strategy("search", "abbott", AbbottSearch)

__all__ = ["AbbottHeuristic", "AbbottSearch", "Hint", "hint", "square_name"]
