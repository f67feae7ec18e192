"""The table arena's seating: whoever is free sits as soon as a table can be filled.

Why this way: an arena has no rounds, so nobody should wait for a slow table elsewhere.
Free players are seated, longest-waiting first, at full tables of the preferred size;
once the host's wait has passed (``fill``), everyone still free is seated and bots take
the empty seats. Players of similar points sit together, and a table is never the very
group of people one of them sat with last (``last_group``): the same swaps as the Swiss
search undo it, and a group that cannot be undone waits for someone else to be free, or,
with ``fill``, is split over two tables with bots.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.tournament.sizes import SeatRule, plan_tables
from engine.tournament.swiss import Player, Table, order_players


@dataclass(frozen=True, slots=True)
class ArenaSeating:
    """The tables to start now, and who stays free (waiting)."""

    tables: tuple[Table, ...]
    waiting: tuple[str, ...]


def _repeats_last(group: Sequence[str], last_group: Mapping[str, frozenset[str]]) -> bool:
    people = frozenset(group)
    return len(people) > 1 and any(last_group.get(p) == people for p in people)


def _untangle(groups: list[list[str]], last_group: Mapping[str, frozenset[str]]) -> None:
    """Swap players between tables until no table repeats a group, where swaps can."""
    for ti, left in enumerate(groups):
        if not _repeats_last(left, last_group):
            continue
        done = False
        for tj, right in enumerate(groups):
            if tj == ti or done:
                continue
            for ai in range(len(left)):
                for bj in range(len(right)):
                    left[ai], right[bj] = right[bj], left[ai]
                    if not _repeats_last(left, last_group) and not _repeats_last(right, last_group):
                        done = True
                        break
                    left[ai], right[bj] = right[bj], left[ai]
                if done:
                    break


def seat_free(
    free: Sequence[Player],
    rule: SeatRule,
    *,
    last_group: Mapping[str, frozenset[str]],
    seed: int | str,
    serial: int,
    fill: bool = False,
) -> ArenaSeating:
    """Tables for the players in ``free`` (longest-waiting first) under ``rule``.

    Without ``fill`` only full tables of the preferred size start; with it everyone
    free is seated and bots fill (at most ``rule.max_bots`` a table, or all seats but
    one where the rule allows no split of so few people). ``serial`` counts the arena's
    seatings, so each one breaks ties of points its own way, the same after a restart.

    >>> ps = [Player(n) for n in "abcdef"]
    >>> seat_free(ps, SeatRule.between(2, 4), last_group={}, seed=1, serial=0)
    ArenaSeating(tables=(Table(people=('a', 'c', 'b', 'd'), bots=0),), waiting=('e', 'f'))
    >>> abcd = frozenset("abcd")
    >>> again = seat_free(ps[:4], SeatRule.between(2, 4), last_group=dict.fromkeys("abcd", abcd),
    ...                   seed=1, serial=1)
    >>> again.tables, again.waiting
    ((), ('a', 'b', 'c', 'd'))
    >>> split = seat_free(ps[:4], SeatRule.between(2, 4), last_group=dict.fromkeys("abcd", abcd),
    ...                   seed=1, serial=1, fill=True)
    >>> [t.seats for t in split.tables], sorted(p for t in split.tables for p in t.people)
    ([2, 2], ['a', 'b', 'c', 'd'])
    """
    size = rule.preferred
    if fill:
        chosen = list(free)
        tables = _fill_layout(len(chosen), rule) if chosen else []
    else:
        count = len(free) // size
        chosen = list(free[: count * size])
        tables = [(size, 0)] * count
    order = [p.name for p in order_players(chosen, seed, serial)]
    groups, start = [], 0
    for seats, bots in tables:
        groups.append(order[start : start + seats - bots])
        start += seats - bots
    _untangle(groups, last_group)
    seated: list[Table] = []
    for group, (_seats, bots) in zip(groups, tables, strict=True):
        if not _repeats_last(group, last_group):
            seated.append(Table(tuple(group), bots))
        elif fill and len(group) >= 2:
            half = len(group) // 2
            for part in (group[:half], group[half:]):
                seated.append(Table(tuple(part), max(rule.sizes[0], len(part)) - len(part)))
    placed = {p for t in seated for p in t.people}
    return ArenaSeating(tuple(seated), tuple(p.name for p in free if p.name not in placed))


def _fill_layout(people: int, rule: SeatRule) -> list[tuple[int, int]]:
    """Seats and bots of each table to seat ``people`` now, bots filling: the rule's
    tables if a split fits, else tables of the largest size filled one after another,
    the last one's empty seats bots (more than ``max_bots`` if need be: nobody waits).

    >>> _fill_layout(1, SeatRule.only([4]))
    [(4, 3)]
    >>> _fill_layout(6, SeatRule.only([4]))  # the rule's split: a bot at each
    [(4, 1), (4, 1)]
    >>> _fill_layout(5, SeatRule.only([4]))  # no split with one bot a table
    [(4, 0), (4, 3)]
    """
    try:
        layout = plan_tables(people, rule)
        return list(zip(layout.seats, layout.bots, strict=True))
    except ValueError:
        size = rule.sizes[-1]
        tables = []
        while people > 0:
            seated = min(people, size)
            seats = next(s for s in rule.sizes if s >= seated)
            tables.append((seats, seats - seated))
            people -= seated
        return tables
