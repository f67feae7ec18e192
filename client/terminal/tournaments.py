"""The tournament replies as a page of lines: ``tournaments`` (the list) and
``tournament N`` / ``standings`` (one tournament's standings and tables).

The sentences are text mode's (``protocol.tournament_lines``), so a tournament reads
the same at ``nc`` and in the client; only the leading word that names text mode's
message (and the request's tag) is left off, as a page's title says what it is.
"""

from __future__ import annotations

import dataclasses

from protocol import messages as m
from protocol.tournament_lines import tournament_lines, tournaments_lines


def tournament_page(reply: m.Tournaments | m.Tournament) -> tuple[str, list[str]]:
    """The page's title and its lines."""
    if isinstance(reply, m.Tournaments):
        lines = tournaments_lines(dataclasses.replace(reply, id=None))
        return "Tournaments", [line.removeprefix("tournaments").lstrip(" ·") for line in lines]
    lines = tournament_lines(dataclasses.replace(reply, id=None))
    head = f"tournament {reply.tournament} · "
    return f"Tournament {reply.tournament}", [line.removeprefix(head) for line in lines]
