"""A game's points join the transaction of the game's end: stored with it, or not at all."""

from __future__ import annotations

import pytest

from server.store.base import FINISHED, MemoryStore, StoreError, TournamentLogged
from server.tables.events import GameEnded, Transaction
from server.tournaments.book import Book
from server.tournaments.service import Tournaments


def a_service() -> Tournaments:
    entries = [
        ("created", {"host": "h", "ruleset": "switch", "sizes": [2], "preferred": 2,
                     "rounds": 1, "minutes": 30, "seed": 1}),
        ("entered", {"name": "ann", "rating": 0, "round": 1}),
        ("entered", {"name": "bob", "rating": 0, "round": 1}),
        ("started", {"rounds": 1}),
        ("seated", {"round": 1, "tables": [{"people": ["ann", "bob"], "bots": 0}]}),
        ("opened", {"round": 1, "index": 0, "table": 7}),
    ]  # fmt: skip
    logs = {1: [TournamentLogged(1, i, k, d) for i, (k, d) in enumerate(entries)]}
    return Tournaments(MemoryStore(), lobby=None, logs=logs)  # type: ignore[arg-type]


def an_end(table: int) -> GameEnded:
    return GameEnded(table, 1, "switch", "shedding", FINISHED, (9, 2), (0, 1),
                     ("ann", "bob"), ("ann", "bob"), (0,))  # fmt: skip


async def test_the_points_are_written_with_the_end_and_applied_once_it_is_stored() -> None:
    service = a_service()
    book: Book = service.books[1]
    txn = Transaction((an_end(7),), ["the table's own write"])
    async with service._joining(txn):
        (logged,) = [w for w in txn.writes if isinstance(w, TournamentLogged)]
        assert (logged.seq, logged.kind) == (6, "played")  # the next entry, in this commit
        assert book.current_tables()[0].result is None  # not applied before it is stored
    assert book.round_over() and book.points() == {"ann": 1, "bob": 0}
    # another table's end (not the tournament's) adds nothing
    other = Transaction((an_end(8),), [])
    async with service._joining(other):
        pass
    assert other.writes == []


async def test_a_refused_commit_changes_no_standings() -> None:
    service = a_service()
    book = service.books[1]
    txn = Transaction((an_end(7),), [])
    with pytest.raises(StoreError):
        async with service._joining(txn):
            raise StoreError("disk full")  # the store refused the end and the points
    assert not book.round_over() and book.entries == 6
    again = Transaction((an_end(7),), [])  # the retry writes the same entry
    async with service._joining(again):
        (logged,) = again.writes
        assert logged.seq == 6
