"""The table arena's task: whoever is free sits down as soon as a table can be filled.

An arena has no rounds: for ``minutes`` from its start, the players who are connected
and at no running table are seated (``engine.tournament.arena.seat_free``) at full
tables of the preferred size as soon as there are enough of them; once one of them has
waited ``wait_seconds``, everyone free is seated and bots take the empty seats. Nobody
sits with the very group of people he last sat with. When the time is up no table is
started any more, and every game still running ends as it stands (scored from the
scores then, ties sharing a place), never dropped.

Each seating is logged as a round of its own (``seated``), so the book, the standings
and a restart work as in the Swiss format; the arena's end is counted from its start
on the wall clock (``started``'s ``at``), so a restart does not lengthen it. While the
host pauses the tournament nobody is seated and its time stands still (``Book.arena_left``).
"""

from __future__ import annotations

import time
from typing import Any, Protocol

import trio

from engine.tournament.arena import seat_free
from engine.tournament.swiss import Player
from server.tournaments.book import Book

#: How often the arena looks for players to seat when nothing else wakes it.
TICK_SECONDS = 1.0
#: How long the arena waits for games ended at its close before looking again.
END_WAIT_SECONDS = 5.0


class ArenaHost(Protocol):
    """What the arena needs of the tournaments service."""

    def present(self, name: str) -> bool: ...

    def ending(self, number: int) -> bool: ...

    async def record(self, book: Book, kind: str, data: dict[str, Any]) -> None: ...

    async def open_round(self, book: Book) -> None: ...

    def push(self, book: Book) -> None: ...

    def end_game_at(self, table_id: int) -> None: ...

    async def changed(self, number: int) -> None: ...

    def stuck(self, book: Book) -> bool: ...

    async def score_lost_tables(self, book: Book) -> None: ...


def seconds_left(book: Book) -> float:
    """The arena's time left, on the wall clock from its start (less its pauses)."""
    return book.arena_left(time.time())


async def run_arena(host: ArenaHost, book: Book) -> str:
    """Seat whoever is free until the time is up, then end what still runs; why it
    ended (the final table, if any, and the end are the service's)."""
    if any(t.table is None for t in book.current_tables()):  # a restart mid-opening
        await host.open_round(book)
    waiting: dict[str, float] = {}  #: free player -> since when (trio's clock)
    while (left := seconds_left(book)) > 0 and not host.ending(book.number):
        if book.paused:
            waiting.clear()  # a pause is nobody's wait
        else:
            await _seat_the_free(host, book, waiting)
        with trio.move_on_after(min(left, TICK_SECONDS)):
            await host.changed(book.number)
    while book.running_tables():  # the end: every game still running ends as it stands
        for at in book.running_tables():
            if at.table is not None:
                host.end_game_at(at.table)
        with trio.move_on_after(END_WAIT_SECONDS):
            while book.running_tables():
                await host.changed(book.number)
        if book.running_tables() and host.stuck(book):
            await host.score_lost_tables(book)
    return "ended early by its host" if host.ending(book.number) else "the arena's time is up"


async def _seat_the_free(host: ArenaHost, book: Book, waiting: dict[str, float]) -> None:
    now = trio.current_time()
    busy = {p for t in book.running_tables() for p in t.seats if p is not None}
    free = [
        e
        for e in book.entrants.values()
        if not (e.withdrawn or e.paused) and e.name not in busy and host.present(e.name)
    ]
    names = {e.name for e in free}
    for name in list(waiting):
        if name not in names:
            del waiting[name]
    for name in names:
        waiting.setdefault(name, now)
    if not free:
        return
    free.sort(key=lambda e: (waiting[e.name], e.name))
    fill = any(now - waiting[e.name] >= book.wait_seconds for e in free)
    points = book.points()
    seating = seat_free(
        [Player(e.name, e.rating, points[e.name]) for e in free],
        book.rule,
        last_group=book.last_groups(),
        seed=book.seed,
        serial=book.round + 1,
        fill=fill,
    )
    if not seating.tables:
        return
    tables = [{"people": list(t.people), "bots": t.bots} for t in seating.tables]
    await host.record(book, "seated", {"round": book.round + 1, "tables": tables})
    host.push(book)
    await host.open_round(book)
