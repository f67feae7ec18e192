"""How many tables a round has and how many seats each: as even as the seat rule allows.

Why this way: a round's tables should compare, so their sizes differ by at most one
seat where the ruleset and the host allow it. Only where no split of the players fits
the allowed sizes do bots fill, and then as few as will do, at most ``max_bots`` a
table, and at the tables that come last (the lowest-scoring ones: the seating puts the
tables in order of points, so the leaders never play a bot for a seat they could have
played a person for).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


class SeatingError(ValueError):
    """The players cannot be seated as asked (no split fits, even with bots)."""


@dataclass(frozen=True, slots=True)
class SeatRule:
    """Which table sizes a round may use.

    ``sizes``: the sizes allowed (the ruleset's seat range, narrowed by the host);
    ``preferred``: the size the host would rather have; ``max_bots``: bots a table may
    have at most when no split of the people fits.

    >>> SeatRule.between(4, 9, preferred=5).sizes
    (4, 5, 6, 7, 8, 9)
    """

    sizes: tuple[int, ...]
    preferred: int
    max_bots: int = 1

    def __post_init__(self) -> None:
        if not self.sizes or min(self.sizes) < 2 or list(self.sizes) != sorted(set(self.sizes)):
            raise SeatingError(f"table sizes must be increasing and at least 2: {self.sizes!r}")
        if self.preferred not in self.sizes:
            raise SeatingError(f"preferred size {self.preferred} is not one of {self.sizes!r}")
        if not 0 <= self.max_bots < self.sizes[0]:
            raise SeatingError(f"max_bots must be 0 to {self.sizes[0] - 1}, not {self.max_bots}")

    @classmethod
    def between(
        cls, low: int, high: int, preferred: int | None = None, max_bots: int = 1
    ) -> SeatRule:
        """Every size from ``low`` to ``high``; ``preferred`` defaults to ``high``."""
        return cls(tuple(range(low, high + 1)), high if preferred is None else preferred, max_bots)

    @classmethod
    def only(
        cls, sizes: Iterable[int], preferred: int | None = None, max_bots: int = 1
    ) -> SeatRule:
        """Exactly ``sizes`` (abbott's 2 or 4); ``preferred`` defaults to the largest."""
        ordered = tuple(sorted(set(sizes)))
        return cls(ordered, ordered[-1] if preferred is None else preferred, max_bots)


@dataclass(frozen=True, slots=True)
class Layout:
    """A round's tables: ``seats[i]`` seats at table ``i``, ``bots[i]`` of them bots.

    >>> layout = plan_tables(7, SeatRule.only([2, 4]))
    >>> layout.seats, layout.bots, layout.people
    ((4, 4), (0, 1), (4, 3))
    """

    seats: tuple[int, ...]
    bots: tuple[int, ...]

    @property
    def people(self) -> tuple[int, ...]:
        """The people each table seats."""
        return tuple(s - b for s, b in zip(self.seats, self.bots, strict=True))


def _even_split(total: int, tables: int) -> list[int]:
    base, extra = divmod(total, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def _bots_last(seats: list[int], bots: int, max_bots: int) -> list[int]:
    """``bots`` dealt one a table from the last table back, at most ``max_bots`` each."""
    placed = [0] * len(seats)
    index = len(seats) - 1
    while bots:
        if placed[index] < max_bots:
            placed[index] += 1
            bots -= 1
        index = index - 1 if index else len(seats) - 1
    return placed


def plan_tables(people: int, rule: SeatRule) -> Layout:
    """The most even tables for ``people``: fewest bots first, then sizes nearest the
    preferred (summed over the tables), then the smaller tables.

    >>> plan_tables(16, SeatRule.between(2, 4)).seats
    (4, 4, 4, 4)
    >>> plan_tables(9, SeatRule.between(4, 9, preferred=4)).seats
    (5, 4)
    >>> plan_tables(6, SeatRule.between(2, 8, preferred=4)).seats  # not one table of 6
    (3, 3)
    >>> plan_tables(5, SeatRule.only([4]))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    engine.tournament.sizes.SeatingError: cannot seat 5 players at tables of 4 with ...
    """
    if people < 1:
        raise SeatingError("a round needs at least one player")
    allowed = set(rule.sizes)
    for bots in range(0, people * rule.max_bots + 1):
        best: tuple[int, int, list[int]] | None = None
        total = people + bots
        for tables in range(max(1, -(-total // rule.sizes[-1])), total // rule.sizes[0] + 1):
            if bots > tables * rule.max_bots:
                continue
            seats = _even_split(total, tables)
            if not allowed.issuperset(seats):
                continue
            # nearest the preferred size; of two as near, the smaller tables
            cost = sum(abs(s - rule.preferred) for s in seats)
            if best is None or (cost, seats[0]) < best[:2]:
                best = (cost, seats[0], seats)
        if best is not None:
            seats = best[2]
            return Layout(tuple(seats), tuple(_bots_last(seats, bots, rule.max_bots)))
    sizes = [str(n) for n in rule.sizes]
    where = ", ".join(sizes[:-1]) + f" or {sizes[-1]}" if len(sizes) > 1 else sizes[0]
    raise SeatingError(
        f"cannot seat {people} player{'' if people == 1 else 's'} at tables of {where}"
        f" with at most {rule.max_bots} bot{'' if rule.max_bots == 1 else 's'} a table"
    )
