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

import math
import random
from collections.abc import Sequence
from typing import Any

import engine
from engine.abbott import rook_moves, square_index, square_name
from engine.abbott.scoring import hand_points
from engine.actions import Action, Ally, Move, Vote
from engine.cards import Card
from engine.game import Game
from engine.poker import CARD_BIT, value_of_mask
from engine.strategies import register_strategy
from engine.strategies.abbott_solver import SolverLimit, cards_left, solve
from engine.strategies.search import ISMCTS, clone_game

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
    def from_view(cls, view: dict[str, Any]) -> Position:
        size = view["size"]
        cells = [CARD_BIT[c] if c is not None else 0 for row in view["grid"] for c in row]
        pieces = [square_index(p, size) for p in view["pieces"]]
        masks = [sum(CARD_BIT[c] for c in coll) for coll in view["collections"]]
        a = view.get("alliance")
        alliance = None if a is None else (a["chooser"], a["partner"])
        return cls(size, cells, pieces, masks, view["turn_of"], alliance)

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


def _ally_choice(view: dict[str, Any], pos: Position, me: int) -> str | None:
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

    def choose(self, view: dict[str, Any], legal: Sequence[Action], rng: random.Random) -> Action:
        moves = [a for a in legal if isinstance(a, Move)]
        if not moves:
            return legal[0] if len(legal) == 1 else _fallback(legal)
        me = view["viewer"]
        pos = Position.from_view(view)
        allies = {a.partner: a for a in legal if isinstance(a, Ally)}
        if allies:
            partner = _ally_choice(view, pos, me)
            if partner in allies:
                return allies[partner]
        scored = rank_moves(pos, moves, me)
        return vote_or_best(view, me, legal, scored, rng)


def vote_or_best(
    view: dict[str, Any],
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


def _stands(view: dict[str, Any], me: int) -> float:
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

    def world(self, view: dict[str, Any], memory: Any, rng: random.Random) -> Game:
        return clone_game(memory, rng)

    def keep(self, legal: list[Action]) -> list[Action]:
        """Moves and alliances; votes and concessions are left to people."""
        kept = [a for a in legal if isinstance(a, Move | Ally)]
        return kept or legal

    def rollout(self, game: Game, seat: int, legal: Sequence[Action], rng: random.Random) -> Action:
        """Take the card that improves the mover's hand most; sometimes wander."""
        moves = [a for a in legal if isinstance(a, Move)]
        if not moves:
            return legal[rng.randrange(len(legal))]
        if rng.random() < 0.2:
            return moves[rng.randrange(len(moves))]
        g: Any = game
        mover = g.turn
        mask = g.masks[mover]
        base = g.values[mover]
        best_gain, best = 0, None
        for m in moves:
            bit = g.grid_bits[g._squares[m.square]]
            if bit:
                gain = value_of_mask(mask | bit) - base
                if gain > best_gain or best is None:
                    best_gain, best = gain, m
        return best if best is not None else moves[rng.randrange(len(moves))]

    def ended(self, game: Game, root: dict[str, Any]) -> bool:
        return game.over or game.hand_number != root["hand_number"]  # type: ignore[attr-defined]

    def value(self, game: Game, root: dict[str, Any], finished: bool) -> list[float]:
        g: Any = game
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


def game_from_view(view: dict[str, Any]) -> Game:
    """An abbott game in exactly the state the view shows (the current hand)."""
    n = view["seats"]
    options = view.get("options")  # the table's house rules
    if options is None:  # a view from before views carried them
        options = {
            "stall_limit": view["stall_limit"],
            "target": view["target"],
            "alliance_from_round": view.get("alliance_from_round", 1),
            "end_when_decided": view.get("end_when_decided", True),
        }
    g: Any = engine.new_game(
        view["ruleset"], seats=n, seed=0, options=options, dealer=view["dealer"]
    )
    size = view["size"]
    grid = [None if c is None else Card.parse(c) for row in view["grid"] for c in row]
    g.grid = grid
    g.grid_bits = [0 if c is None else CARD_BIT[str(c)] for c in grid]
    g.grid_mask = sum(g.grid_bits)
    g.pieces = [square_index(p, size) for p in view["pieces"]]
    g.collections = [[Card.parse(c) for c in coll] for coll in view["collections"]]
    g.masks = [sum(CARD_BIT[c] for c in coll) for coll in view["collections"]]
    g.values = [value_of_mask(m) for m in g.masks]
    g.turn = view["turn_of"]
    first = (view["dealer"] + 1) % n
    done = view["round"]
    here = (g.turn - first) % n
    g.turns_taken = [done if (s - first) % n < here else done - 1 for s in range(n)]
    a = view.get("alliance")
    g.alliance = None if a is None else (a["chooser"], a["partner"])
    g.power = view.get("power")
    g._proxy = None
    if g.power is not None and g.alliance is not None:
        c, p = g.alliance
        g._proxy = (p if g.power == c else c, g.power)
    g.votes = list(view.get("votes", []))
    g.conceded = list(view.get("conceded", []))
    g.stall = view["stall"]
    g.hand_number = view["hand_number"]
    g._scores = list(view["scores"])
    g.hand_scores = [list(h) for h in view.get("hand_scores", [])]
    g._packs = []
    g.opening_events = []
    return g


class AbbottSearch:
    """IS-MCTS from the view; the exact solver in a 2-player endgame."""

    name = "search"
    slow = True  # up to a second a move: the server runs it in a thread

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

    def choose(self, view: dict[str, Any], legal: Sequence[Action], rng: random.Random) -> Action:
        moves = [a for a in legal if isinstance(a, Move)]
        if len(moves) == 1 and not any(isinstance(a, Ally) for a in legal):
            return moves[0]
        if not moves:
            return _fallback(legal)
        me = view["viewer"]
        if view["seats"] > 2:
            return self.multi.choose(view, legal, rng)
        if view["seats"] == 2 and cards_left(view) <= self.solve_at:
            try:
                result = solve(view, self.node_limit)
            except SolverLimit:
                result = None
            if result is not None:
                keep = [m for m in moves if str(m) in result.best_moves] or moves
                scored = rank_moves(Position.from_view(view), keep, me)
                best = max(v for v, _ in scored)
                return next(m for v, m in scored if v >= best - 1e-9)
        kept = [a for a in legal if isinstance(a, Move | Ally)]
        action, _ = self.mcts.search(view, kept, game_from_view(view), rng)
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

    def choose(self, view: dict[str, Any], legal: Sequence[Action], rng: random.Random) -> Action:
        moves = [a for a in legal if isinstance(a, Move)]
        me = view["viewer"]
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


def hint(view: dict[str, Any], node_limit: int = 300_000) -> list[str] | None:
    """The moves that keep the best result in a 2-player position, if it solves
    within ``node_limit``; for the terminal client's hint."""
    if view.get("seats") != 2 or view.get("over"):
        return None
    try:
        return solve(view, node_limit).best_moves
    except SolverLimit:
        return None


register_strategy("heuristic", "abbott", AbbottHeuristic, default=True)
register_strategy("search", "abbott", AbbottSearch)

__all__ = ["AbbottHeuristic", "AbbottSearch", "game_from_view", "hint", "square_name"]
