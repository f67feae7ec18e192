"""A tournament as the wire shows it: the ``tournament`` message, standings and tables.

Points go on the wire as a number rounded to three places (``points``) and exactly, as a
fraction (``exact``: ``"7/6"``), so two players level on points are seen to be level.
"""

from __future__ import annotations

from typing import Any

from engine.tournament import TIEBREAKS, Standing
from protocol import messages as m
from server.tournaments.book import ARENA, Book


def standing_map(s: Standing, book: Book) -> dict[str, Any]:
    """One line of the standings as the wire carries it."""
    entrant = book.entrants[s.name]
    return {
        "rank": s.rank,
        "name": s.name,
        "points": round(float(s.points), 3),
        "exact": str(s.points),
        "opponents": round(float(s.opponents), 3),
        "firsts": s.firsts,
        "score": s.score,
        "games": s.games,
        "paused": entrant.paused,
        "withdrawn": entrant.withdrawn,
    }


def tournament_message(
    book: Book,
    req: int | None = None,
    time_left: float | None = None,
    record: dict[str, Any] | None = None,
) -> m.Message:
    """The ``tournament`` reply: summary (with the round's, or the arena's, seconds left),
    standings, the round's tables (an arena's: every table running), tiebreaks, and
    (asked for) the whole ``record``."""
    shown = book.running_tables() if book.format == ARENA else book.current_tables()
    tables = [
        {
            "index": t.index,
            "table": None if t.table is None else str(t.table),
            "players": [name or "bot" for name in t.seats],
            "over": t.result is not None,
        }
        for t in shown
    ]
    summary = book.summary()
    summary["time_left"] = None if time_left is None else max(0, round(time_left))
    return m.Tournament(
        tournament=book.number,
        summary=summary,
        standings=tuple(standing_map(s, book) for s in book.standings()),
        tables=tuple(tables),
        tiebreaks=tuple({"name": name, "how": how} for name, how in TIEBREAKS),
        record=record or {},
        id=req,
    )


def your_tables(book: Book) -> list[tuple[str, m.YourTable]]:
    """Each person seated in the round under way, and the ``your_table`` that tells him
    where (tables not opened yet are left out: they are told once open)."""
    final = book.final_round is not None and book.round == book.final_round
    return [
        (name, m.YourTable(tournament=book.number, round=book.round, table=str(at.table),
                           seat=seat, final=final))
        for at in book.current_tables()
        for seat, name in enumerate(at.seats)
        if name is not None and at.table is not None
    ]  # fmt: skip
