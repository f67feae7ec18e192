"""A tournament's book is its log: the same entries give the same book, whatever else
happened; entry closes once more than half the rounds have started."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from server.tournaments.book import OVER, PLAYING, WAITING, Book, seated_entry

CREATED = {
    "host": "ann", "ruleset": "switch", "sizes": [4], "preferred": 4, "max_bots": 1,
    "rounds": 2, "minutes": 30, "seed": 7, "by_strength": False, "forbidden": [["a", "b"]],
    "options": {"turn_seconds": 60},
}  # fmt: skip


def book_of(entries: list[tuple[str, dict[str, Any]]]) -> Book:
    book = Book(1)
    for kind, data in entries:
        book.apply(kind, data)
    return book


def a_tournament() -> list[tuple[str, dict[str, Any]]]:
    entries: list[tuple[str, dict[str, Any]]] = [("created", CREATED)]
    entries += [("entered", {"name": n, "rating": r, "round": 1})
                for n, r in zip("abcdef", (10, 9, 8, 7, 6, 5), strict=True)]  # fmt: skip
    entries.append(("started", {"rounds": 2}))
    book = book_of(entries)
    seating = book.next_seating()
    entries.append(("seated", seated_entry(seating)))
    for i, table in enumerate(seating.tables):
        seats = len(table.people) + table.bots
        entries.append(("opened", {"round": 1, "index": i, "table": 10 + i}))
        entries.append(("played", {"round": 1, "index": i, "table": 10 + i,
                                   "places": list(range(seats)), "scores": [0] * seats,
                                   "outcome": "finished"}))  # fmt: skip
    return entries


def test_the_same_log_makes_the_same_book() -> None:
    entries = a_tournament()
    one, two = book_of(entries), book_of(entries)
    assert one == two
    assert one.state == PLAYING and one.round == 1 and one.round_over()
    # six players at tables of exactly 4: two tables, a bot at each, a and b apart
    assert [t.seats.count(None) for t in one.current_tables()] == [1, 1]
    table_a = one.table_of("a")
    assert table_a is not None and "b" not in table_a.seats
    # the next round is seated the same way from the same log (a restart's)
    assert one.next_seating() == two.next_seating()
    assert one.at_table(11) == (1, one.current_tables()[1])
    points = one.points()
    assert sum(points.values()) == 2 * (1 + Fraction(2, 3) + Fraction(1, 3))


def test_states_and_late_entry() -> None:
    entries = a_tournament()
    assert book_of(entries[:1]).state == WAITING
    assert book_of(entries[:1]).late_entry_open()
    book = book_of(entries)
    assert book.late_entry_open()  # round 1 of 2 started: not more than half
    book.apply("seated", seated_entry(book.next_seating()))
    assert not book.late_entry_open()  # round 2 of 2
    book.apply("ended", {"reason": "all rounds played"})
    assert book.state == OVER and book.summary()["state"] == "over"


def test_an_unknown_entry_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown tournament entry 'bogus'"):
        Book(1).apply("bogus", {})


def test_the_audit_finds_a_score_that_is_not_the_stored_games() -> None:
    import json
    import sqlite3

    from server.store import tournament_sql
    from server.store.base import TournamentLogged
    from server.tournaments.audit import audit_tournaments

    conn = sqlite3.connect(":memory:")
    conn.executescript(
        "CREATE TABLE games (table_id INTEGER, game INTEGER, scores TEXT, outcome TEXT, ended REAL)"
    )
    tournament_sql.migrate(conn)
    for seq, (kind, data) in enumerate(a_tournament()):
        tournament_sql.execute(conn, TournamentLogged(1, seq, kind, data))
    for table in (10, 11):
        conn.execute("INSERT INTO games VALUES (?, 1, ?, 'finished', 1.0)",
                     (table, json.dumps([0, 0, 0, 0])))  # fmt: skip
    assert audit_tournaments(conn) == ([], {"tournaments": 1, "tournament_games": 2})
    conn.execute("UPDATE games SET scores = '[5, 0, 0, 0]' WHERE table_id = 11")
    problems, _ = audit_tournaments(conn)
    assert problems == ["tournament 1 round 1 table 11: scored [0, 0, 0, 0], its game ended"
                        " [5, 0, 0, 0]"]  # fmt: skip
