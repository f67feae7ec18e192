"""Rotation seating: every line-up of a deal plays it once per seat, and deals walk the line-ups.

Why this way: where one sits matters (who leads, who is dealt last) and so does the deal,
so a deal is played ``seats`` times, the line-up rotated one seat each time (duplicate
bridge's idea: the luck of the deal cancels out), and successive deals walk through every
distinct seating of the entrants. Unlike a Swiss round it needs no standings to seat: the
whole schedule is known before the first game, so games can be played in any order and in
parallel. An entrant may hold several seats of one table (three entrants at four seats),
which suits strategies rated against each other; people, who hold one seat a table, are
seated by ``swiss`` or ``arena``.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from itertools import combinations

#: More distinct seatings than this and only the rotations of the line-up are walked.
ARRANGEMENT_LIMIT = 5000


def lineup_for(entrants: Sequence[str], seats: int) -> list[str]:
    """The multiset of entrants at a table: the entrants cycled to fill the seats.

    >>> lineup_for(["a", "b", "c"], 4)
    ['a', 'b', 'c', 'a']
    """
    return [entrants[i % len(entrants)] for i in range(seats)]


def distinct_arrangements(items: Sequence[str], limit: int = ARRANGEMENT_LIMIT) -> list[list[str]]:
    """Every distinct ordering of ``items`` (a multiset) in a fixed order,
    or just its rotations when there would be more than ``limit``.

    >>> distinct_arrangements(["a", "a", "b"])
    [['a', 'a', 'b'], ['a', 'b', 'a'], ['b', 'a', 'a']]
    """
    counts: dict[str, int] = {}
    for item in items:
        counts[item] = counts.get(item, 0) + 1
    total = math.factorial(len(items))
    for c in counts.values():
        total //= math.factorial(c)
    if total > limit:
        return [list(items[i:]) + list(items[:i]) for i in range(len(items))]
    keys = sorted(counts)
    out: list[list[str]] = []

    def walk(prefix: list[str]) -> None:
        if len(prefix) == len(items):
            out.append(list(prefix))
            return
        for k in keys:
            if counts[k]:
                counts[k] -= 1
                prefix.append(k)
                walk(prefix)
                prefix.pop()
                counts[k] += 1

    walk([])
    return out


def seatings(entrants: Sequence[str], seats: int) -> list[list[str]]:
    """The line-ups deals walk through: the distinct seatings of the entrants
    cycled to fill the table, or, with more entrants than seats, every group of
    ``seats`` of them in turn (a round robin).

    >>> seatings(["a", "b", "c"], 2)
    [['a', 'b'], ['b', 'a'], ['a', 'c'], ['c', 'a'], ['b', 'c'], ['c', 'b']]
    """
    if not entrants:
        raise ValueError("a rotation needs at least one entrant")
    if len(entrants) <= seats:
        return distinct_arrangements(lineup_for(entrants, seats))
    out: list[list[str]] = []
    for group in combinations(entrants, seats):
        out += [[group[(s + k) % seats] for s in range(seats)] for k in range(seats)]
    return out


def schedule(entrants: Sequence[str], seats: int, games: int) -> Iterator[tuple[int, list[str]]]:
    """``(deal, line-up by seat)`` for each of ``games`` games: each deal is played
    once per rotation of its seating, and deals walk through the seatings.

    >>> list(schedule(["a", "b"], 2, 4))
    [(0, ['a', 'b']), (0, ['b', 'a']), (1, ['b', 'a']), (1, ['a', 'b'])]
    """
    arrangements = seatings(entrants, seats)
    for i in range(games):
        deal, turn = divmod(i, seats)
        base = arrangements[deal % len(arrangements)]
        yield deal, [base[(s + turn) % seats] for s in range(seats)]
