"""A tournament's record: the JSON a player saves and ``switchboard replay`` shows.

Built from the book alone (so from the stored log): the entries, each round's tables
with who sat where (``"bot"`` for a server bot), the table's number and game scored
there, the places, scores and points each person took, and the final standings with
the winner. ``kind`` is ``"tournament"``, so a reader tells it from a table's record.
"""

from __future__ import annotations

from typing import Any

from server.tournaments.book import Book
from server.tournaments.messages import standing_map

KIND = "tournament"


def tournament_record(book: Book) -> dict[str, Any]:
    """The record of ``book`` as it stands (the final one once it is over)."""
    rounds = []
    for number, tables in enumerate(book.played_rounds, start=1):
        shown = []
        for t in tables:
            result = t.result
            points = {} if result is None else {k: str(v) for k, v in result.points().items()}
            shown.append({
                "index": t.index,
                "table": t.table,
                "game": t.game,
                "players": [name or "bot" for name in t.seats],
                "places": None if result is None else list(result.places),
                "scores": None if result is None else list(result.scores),
                "points": points,
                "outcome": t.outcome,
            })  # fmt: skip
        rounds.append({"round": number, "final": number == book.final_round, "tables": shown})
    entries = [
        {"name": e.name, "first_round": e.first_round, "withdrawn": e.withdrawn,
         "paused": e.paused}
        for e in book.entrants.values()
    ]  # fmt: skip
    return {
        "kind": KIND,
        "tournament": book.number,
        "ruleset": book.ruleset,
        "summary": book.summary(),
        "ended": book.ended,
        "entries": entries,
        "rounds": rounds,
        "standings": [standing_map(s, book) for s in book.standings()],
    }
