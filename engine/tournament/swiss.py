"""Seating a Swiss round at tables of any size, and block seating, its reference.

Why this way: two-player Swiss pairs by points and never pairs twice; at tables of 3 to 9
that rule cannot hold for long (16 players at 4-seat tables meet 3 new people a round),
so the aim is fewer repeat meetings, not none. A round starts from block seating, the
players in order of points (ratings in round 1) filling the tables in turn, which keeps
each table's points close; then a bounded local search swaps players between tables
while a swap lowers the round's cost, with kicks of random swaps to leave a local
minimum while the budget lasts:

- a forbidden pair at one table costs more than anything else (it is never left there
  while a swap can undo it, and a seating that keeps one raises ``SeatingError``);
- each pair that already met costs ``REPEAT_COST`` a meeting before (so a pair that met
  twice weighs twice);
- each table's spread of points (highest minus lowest) costs its size in points.

The search tries swaps only between tables at most ``window`` apart in the order of
points, and stops after ``budget`` swaps tried or a pass that changed nothing: it is
bounded, and deterministic (its order is fixed; the seed only breaks ties of points
and ratings, so a restart seats the round the same way).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations

from engine.tournament.scoring import GameResult
from engine.tournament.sizes import Layout, SeatingError, SeatRule, plan_tables

#: What a pair that met once before costs, in points of spread at one table.
REPEAT_COST = 1.5
#: What a forbidden pair at one table costs: more than any seating without one.
FORBIDDEN_COST = 1e9
#: Swaps tried at most when seating a round (about 20 ms at 64 players on one core).
SEARCH_BUDGET = 6000
#: How far apart (in tables, in the order of points) two tables may swap players.
SEARCH_WINDOW = 3


@dataclass(frozen=True, slots=True)
class Player:
    """A player to seat: his ``points`` so far and his ``rating`` (for round 1)."""

    name: str
    rating: float = 1500.0
    points: Fraction = Fraction(0)


@dataclass(frozen=True, slots=True)
class Table:
    """One table of a round: the ``people`` at it, and ``bots`` seats more for bots.

    >>> Table(("ann", "bob", "cat"), bots=1).seats
    4
    """

    people: tuple[str, ...]
    bots: int = 0

    @property
    def seats(self) -> int:
        """The table's size, bots included."""
        return len(self.people) + self.bots


@dataclass(frozen=True, slots=True)
class Seating:
    """A round's tables, in order of points (table 1 the leaders')."""

    round: int
    tables: tuple[Table, ...]

    def table_of(self, name: str) -> int | None:
        """The index of ``name``'s table, or ``None`` if he is not seated."""
        for index, table in enumerate(self.tables):
            if name in table.people:
                return index
        return None

    def repeats(self, meetings: Mapping[frozenset[str], int]) -> int:
        """How many pairs seated together this round had met before."""
        return sum(
            1
            for table in self.tables
            for a, b in combinations(table.people, 2)
            if meetings.get(frozenset((a, b)), 0)
        )

    def repeat_weight(self, meetings: Mapping[frozenset[str], int]) -> int:
        """The meetings before of the pairs seated together (a pair met twice counts two)."""
        return sum(
            meetings.get(frozenset((a, b)), 0)
            for table in self.tables
            for a, b in combinations(table.people, 2)
        )

    def spread(self, points: Mapping[str, Fraction]) -> float:
        """The average over tables of two people or more of the spread of points."""
        spreads = [
            float(max(points[p] for p in t.people) - min(points[p] for p in t.people))
            for t in self.tables
            if len(t.people) > 1
        ]
        return sum(spreads) / len(spreads) if spreads else 0.0


@dataclass(frozen=True, slots=True)
class Options:
    """The host's choices for seating: round 1 ``by_strength`` (the strongest together)
    or mixed (the default), and pairs who are never seated together."""

    by_strength: bool = False
    forbidden: frozenset[frozenset[str]] = field(default_factory=frozenset)
    budget: int = SEARCH_BUDGET
    window: int = SEARCH_WINDOW

    @classmethod
    def forbidding(cls, pairs: Iterable[tuple[str, str]], by_strength: bool = False) -> Options:
        """Options with ``pairs`` forbidden (each a pair of names).

        >>> sorted(next(iter(Options.forbidding([("ann", "bob")]).forbidden)))
        ['ann', 'bob']
        """
        return cls(by_strength, frozenset(frozenset(p) for p in pairs))


def meetings_from(results: Iterable[GameResult]) -> dict[frozenset[str], int]:
    """How often each pair of players sat at one table (bots left out).

    >>> met = meetings_from([GameResult(1, ("a", "b", None), (0, 1, 2), (0, 0, 0))])
    >>> met[frozenset(("a", "b"))], len(met)
    (1, 1)
    """
    met: dict[frozenset[str], int] = {}
    for game in results:
        for a, b in combinations(game.people(), 2):
            pair = frozenset((a, b))
            met[pair] = met.get(pair, 0) + 1
    return met


def _rng(seed: int | str, round_number: int) -> random.Random:
    return random.Random(f"{seed}:{round_number}")


def order_players(players: Sequence[Player], seed: int | str, round_number: int) -> list[Player]:
    """Best first: points, then rating; the seed breaks the remaining ties."""
    names = [p.name for p in players]
    if len(set(names)) != len(names):
        raise SeatingError("a player is listed twice")
    shuffled = sorted(players, key=lambda p: p.name)
    _rng(seed, round_number).shuffle(shuffled)
    return sorted(shuffled, key=lambda p: (-p.points, -p.rating))


def _fill_in_order(order: list[Player], layout: Layout) -> list[list[Player]]:
    tables, start = [], 0
    for people in layout.people:
        tables.append(order[start : start + people])
        start += people
    return tables


def _snake(order: list[Player], layout: Layout) -> list[list[Player]]:
    """Mixed: the players dealt over the tables in a serpentine, strongest first."""
    tables: list[list[Player]] = [[] for _ in layout.people]
    lanes = list(range(len(tables)))
    forward = True
    pending = list(order)
    while pending:
        for index in lanes if forward else reversed(lanes):
            if pending and len(tables[index]) < layout.people[index]:
                tables[index].append(pending.pop(0))
        forward = not forward
    return tables


def block_seating(
    players: Sequence[Player], rule: SeatRule, *, seed: int | str, round_number: int
) -> Seating:
    """Block seating (the common way for tables of more than two): players in order of
    points, then rating, fill table 1, then table 2, and so on.

    >>> ps = [Player(n, points=Fraction(i)) for i, n in enumerate("abcdef")]
    >>> [t.people for t in block_seating(ps, SeatRule.between(3, 3), seed=1, round_number=2).tables]
    [('f', 'e', 'd'), ('c', 'b', 'a')]
    """
    layout = plan_tables(len(players), rule)
    groups = _fill_in_order(order_players(players, seed, round_number), layout)
    return Seating(
        round_number,
        tuple(Table(tuple(p.name for p in g), b) for g, b in zip(groups, layout.bots, strict=True)),
    )


class _Search:
    """The local search's state: tables as lists of player indices, and their costs."""

    def __init__(
        self,
        groups: list[list[Player]],
        meetings: Mapping[frozenset[str], int],
        forbidden: frozenset[frozenset[str]],
        spread_weight: float,
    ) -> None:
        players = [p for g in groups for p in g]
        index = {p.name: i for i, p in enumerate(players)}
        n = len(players)
        self.players = players
        self.points = [float(p.points) for p in players]
        self.pair = [[0.0] * n for _ in range(n)]
        for pair, count in meetings.items():
            a, b = tuple(pair) if len(pair) == 2 else (None, None)
            if a in index and b in index and count:
                self.pair[index[a]][index[b]] = self.pair[index[b]][index[a]] = REPEAT_COST * count
        for pair in forbidden:
            a, b = tuple(pair) if len(pair) == 2 else (None, None)
            if a in index and b in index:
                self.pair[index[a]][index[b]] = self.pair[index[b]][index[a]] = FORBIDDEN_COST
        self.spread_weight = spread_weight
        self.tables = [[index[p.name] for p in g] for g in groups]
        self.costs = [self.cost(t) for t in self.tables]

    def cost(self, members: list[int]) -> float:
        """One table's cost: its pairs' weights and its spread of points."""
        pair = self.pair
        total = 0.0
        for i, a in enumerate(members):
            row = pair[a]
            for b in members[i + 1 :]:
                total += row[b]
        if len(members) > 1 and self.spread_weight:
            pts = [self.points[m] for m in members]
            total += self.spread_weight * len(members) * (max(pts) - min(pts))
        return total

    def descend(self, budget: int, window: int) -> int:
        """Swap while a swap lowers the cost, ``budget`` swaps tried at most; the swaps tried."""
        tables, costs, tried = self.tables, self.costs, 0
        changed = True
        while changed and tried < budget:
            changed = False
            for ti in range(len(tables)):
                for tj in range(ti + 1, min(len(tables), ti + 1 + window)):
                    for ai in range(len(tables[ti])):
                        for bj in range(len(tables[tj])):
                            tried += 1
                            left, right = list(tables[ti]), list(tables[tj])
                            left[ai], right[bj] = right[bj], left[ai]
                            new_left, new_right = self.cost(left), self.cost(right)
                            if new_left + new_right < costs[ti] + costs[tj] - 1e-9:
                                tables[ti], tables[tj] = left, right
                                costs[ti], costs[tj] = new_left, new_right
                                changed = True
                            if tried >= budget:
                                return tried
        return tried

    def run(self, budget: int, window: int, rng: random.Random) -> None:
        """Iterated local search: descend, then kick (a few random swaps) and descend
        again while the budget lasts, keeping the cheapest seating found."""
        tried = self.descend(budget, window)
        best = ([list(t) for t in self.tables], list(self.costs))
        while tried < budget and len(self.tables) > 1:
            for _ in range(2):
                ti = rng.randrange(len(self.tables) - 1)
                tj = rng.randrange(ti + 1, min(len(self.tables), ti + 1 + window))
                ai, bj = rng.randrange(len(self.tables[ti])), rng.randrange(len(self.tables[tj]))
                left, right = self.tables[ti], self.tables[tj]
                left[ai], right[bj] = right[bj], left[ai]
                self.costs[ti], self.costs[tj] = self.cost(left), self.cost(right)
            tried += 2 + self.descend(budget - tried, window)
            if sum(self.costs) < sum(best[1]) - 1e-9:
                best = ([list(t) for t in self.tables], list(self.costs))
        self.tables, self.costs = best

    def forbidden_left(self) -> bool:
        """Whether a forbidden pair still sits together."""
        return any(c >= FORBIDDEN_COST for c in self.costs)


def seat_round(
    players: Sequence[Player],
    rule: SeatRule,
    *,
    seed: int | str,
    round_number: int,
    meetings: Mapping[frozenset[str], int] | None = None,
    options: Options | None = None,
) -> Seating:
    """A Swiss round's tables: round 1 from ratings (mixed, or ``by_strength``), later
    rounds by points with fewer repeat meetings; forbidden pairs never together.

    >>> ps = [Player(n, rating=1500 + 10 * i) for i, n in enumerate("abcdefghi")]
    >>> rule = SeatRule.between(3, 3)
    >>> [t.people for t in seat_round(ps, rule, seed=7, round_number=1).tables]
    [('i', 'd', 'c'), ('h', 'e', 'b'), ('g', 'f', 'a')]
    >>> strong = seat_round(ps, rule, seed=7, round_number=1, options=Options(by_strength=True))
    >>> [t.people for t in strong.tables]
    [('i', 'h', 'g'), ('f', 'e', 'd'), ('c', 'b', 'a')]

    Had every game been a three-way tie, block seating would seat round 2 as round 1;
    the search finds tables where nobody meets again:

    >>> met = meetings_from([GameResult(1, t.people, (0, 0, 0), (0, 0, 0)) for t in strong.tables])
    >>> later = seat_round(ps, rule, seed=7, round_number=2, meetings=met)
    >>> later.repeats(met), block_seating(ps, rule, seed=7, round_number=2).repeats(met)
    (0, 9)
    """
    opts = options or Options()
    layout = plan_tables(len(players), rule)
    order = order_players(players, seed, round_number)
    first = round_number == 1
    if first and not opts.by_strength:
        groups = _snake(order, layout)
    else:
        groups = _fill_in_order(order, layout)
    # In a first round the search only undoes forbidden pairs: the mixing is the point.
    search = _Search(groups, meetings or {}, opts.forbidden, 0.0 if first else 1.0)
    rng = _rng(seed, round_number)
    search.run(opts.budget, len(groups) if first else opts.window, rng)
    if search.forbidden_left():
        search.run(opts.budget, len(groups), rng)
        if search.forbidden_left():
            raise SeatingError("a forbidden pair cannot be kept apart at these tables")
    tables = tuple(
        Table(tuple(search.players[m].name for m in members), bots)
        for members, bots in zip(search.tables, layout.bots, strict=True)
    )
    seating = Seating(round_number, tables)
    if first or not meetings or opts.forbidden:
        return seating
    # The search weighs repeats against the spread of points, and may buy a closer table
    # with a repeat; never past block seating's own repeats, where the search began.
    block = Seating(
        round_number,
        tuple(Table(tuple(p.name for p in g), b) for g, b in zip(groups, layout.bots, strict=True)),
    )
    return block if seating.repeat_weight(meetings) > block.repeat_weight(meetings) else seating
