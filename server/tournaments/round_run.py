"""A Swiss round's time: its cap, kept across a restart, and the host's pause.

A round's cap starts counting when its tables start, and that moment is logged
(``clocked``, on the wall clock), so a server restarted mid-round keeps the cap where
it was: the minutes the server was down count, as they do for an arena. When the cap
runs out, each game still running ends at the end of the hand in progress (the table's
``HandEnded`` event), or at once a grace later, scored as it stands.

The host may pause the whole tournament (``halted``) and resume it (``resumed``). While
it is paused no round is seated or started and the round's cap stands still; a game in
play is not stopped mid-hand: its hand is played out, then the game is paused between
hands (the table's own pause, by the tournament as its game master: its turn clocks
stop and nobody can play), until the host resumes. This is a break in the evening, as a
tournament director calls one: everyone finishes the deal in hand, then stands up.
"""

from __future__ import annotations

import math
import time
from typing import TYPE_CHECKING, Any, Protocol

import trio

from server.core.commands import PauseGame, ResumeGame
from server.tables.course import PAUSED, PLAYING
from server.tournaments.book import Book

if TYPE_CHECKING:
    from server.core.commands import Member
    from server.tables.lobby import Lobby


class RoundHost(Protocol):
    """What a round's run needs of the tournaments service (named here, not imported,
    so that the service imports this module and not the other way round)."""

    lobby: Lobby
    capped: set[int]
    cap_grace_seconds: float

    def ending(self, number: int) -> bool: ...

    async def record(self, book: Book, kind: str, data: dict[str, Any]) -> None: ...

    def push(self, book: Book) -> None: ...

    def end_game_at(self, table_id: int) -> None: ...

    async def changed(self, number: int) -> None: ...

    def stuck(self, book: Book) -> bool: ...

    async def score_lost_tables(self, book: Book) -> None: ...

    def steward(self, table_id: int) -> Member: ...


async def play_round(host: RoundHost, book: Book) -> None:
    """Wait for every table of the round to end; at the cap, end each at its hand's end
    (or at once, a grace later); when the host ends the tournament, at once."""
    number = book.number
    if book.clock_round != book.round:  # (after a restart it counts on from its start)
        await host.record(book, "clocked", {"round": book.round, "at": time.time()})
    host.push(book)  # the round's clock runs: everyone is told its time left
    await until_capped(host, book)
    if book.round_over():
        return
    host.capped.add(number)
    try:
        if not host.ending(number):
            for at in book.current_tables():
                if at.result is None and at.table is not None:
                    _notice_cap(host, at.table)
            with trio.move_on_after(host.cap_grace_seconds):
                await until_round_over(host, book)
        while not book.round_over():  # every game still running ends as it stands
            for at in book.current_tables():
                if at.result is None and at.table is not None:
                    host.end_game_at(at.table)
            with trio.move_on_after(5.0):
                await until_round_over(host, book, ending_too=False)
            if not book.round_over() and host.stuck(book):
                await host.score_lost_tables(book)
    finally:
        host.capped.discard(number)


async def until_capped(host: RoundHost, book: Book) -> None:
    """Until the round is over, the host ends the tournament, or the cap runs out (the
    cap stands still while the tournament is paused)."""
    while not book.round_over() and not host.ending(book.number):
        left = book.cap_left(time.time())
        if left is not None and left <= 0:
            return
        wait = math.inf if book.paused or left is None else left
        with trio.move_on_after(wait):
            await host.changed(book.number)


async def until_round_over(host: RoundHost, book: Book, *, ending_too: bool = True) -> None:
    """Wait until the round is over (or, ``ending_too``, the host ends the tournament)."""
    while not book.round_over() and not (ending_too and host.ending(book.number)):
        await host.changed(book.number)


async def until_resumed(host: RoundHost, book: Book) -> None:
    """Wait while the host keeps the tournament paused (an end lifts the wait)."""
    while book.paused and not host.ending(book.number):
        await host.changed(book.number)


def pause_table(host: RoundHost, table_id: int) -> None:
    """A hand ended at a table of a paused tournament: its game waits there."""
    table = host.lobby.get(table_id)
    if table is not None and table.state == PLAYING:
        table.submit_nowait(PauseGame(host.steward(table_id), None))


def resume_tables(host: RoundHost, book: Book) -> None:
    """The host resumed: every game the pause stopped plays on."""
    for at in book.running_tables():
        table = None if at.table is None else host.lobby.get(at.table)
        if table is not None and table.state == PAUSED:
            table.submit_nowait(ResumeGame(host.steward(table.id), None))


def _notice_cap(host: RoundHost, table_id: int) -> None:
    table = host.lobby.get(table_id)
    if table is not None:
        table.notice_all("the round's time is up: this game ends when the hand ends")
