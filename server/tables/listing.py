"""A table as the lobby lists it: what anyone may see of it without being at it.

Built afresh when the lobby's cached summary of a table is dropped (after anything
that may have changed it: ``server.tables.lifetime.watch``), from what the table, its
game master and its prize each say of themselves.
"""

from __future__ import annotations

from typing import Any, Protocol

from protocol.fields import TableState
from server.core import wire
from server.tables.seating import Seating


class Summarised(Protocol):
    """Who adds his own part to the summary (the game master, the prize)."""

    def summary_extra(self) -> dict[str, Any]: ...


class Listed(Protocol):
    """What the listing reads of a table (``server.tables.table.Table``)."""

    @property
    def id(self) -> int: ...

    @property
    def ruleset(self) -> str: ...

    @property
    def family(self) -> str: ...

    @property
    def state(self) -> TableState: ...

    @property
    def game_no(self) -> int: ...

    @property
    def master(self) -> str | None: ...

    @property
    def options(self) -> dict[str, Any]: ...

    @property
    def settings(self) -> dict[str, Any]: ...

    @property
    def seating(self) -> Seating: ...

    @property
    def gm(self) -> Summarised: ...

    @property
    def prize(self) -> Summarised: ...

    def players(self) -> list[str | None]: ...


def summary(table: Listed) -> dict[str, Any]:
    """The table as the lobby lists it, its keys in the order the spec documents them."""
    seating = table.seating
    gm, prize = table.gm.summary_extra(), table.prize.summary_extra()
    return {
        "table": wire.table_word(table.id),
        "ruleset": table.ruleset,
        "family": table.family,
        "seats": len(seating.seats),
        "players": table.players(),
        "taken": sum(s.name is not None for s in seating.seats),
        "spectators": len(seating.spectators),
        "state": table.state,
        "game": table.game_no,
        "master": table.master,
        "options": table.options,
        "start_when_full": bool(table.settings.get("start_when_full")),
        "prize": prize["prize"],
        "away": gm["away"],
        "turn_seconds": gm["turn_seconds"],
        "ratings": prize["ratings"],
        "rated": prize["rated"],
    }
