"""The requests that look back at a finished game: its analysis, a shared review, and
the hint during a game against bots (``server.tables.analyses``, ``server.tables.reviews``).

Each handler finds the table, asks the lobby's desk or relay, and answers: the specific
reply, ``ok``, or the ``error`` the desk refused with."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from protocol import messages as m
from server.core import wire
from server.tables import analyses, reviews
from server.tables.table import Table
from server.transport.session import ClientSession


def _table(session: ClientSession, msg: Any) -> Table | None:
    """The table ``msg`` names, or None once ``no_table`` is said."""
    table = session.services.lobby.get(msg.table)
    if table is None:
        session.deliver(wire.error(msg.id, "no_table", f"there is no table {msg.table}"))
    return table


async def analyse(session: ClientSession, msg: m.Analyse) -> None:
    lobby = session.services.lobby
    if (table := _table(session, msg)) is None:
        return
    if lobby.nursery is None:
        session.deliver(wire.error(msg.id, "shutdown", "the server is not running tables"))
        return
    try:
        answer = await lobby.analyses.ask(session, session.peer, table, msg.game, lobby.nursery)
    except analyses.Refused as exc:
        session.deliver(wire.error(msg.id, exc.code, str(exc), table.id))
        return
    if answer is not None:
        session.deliver(m.Analysis(answer.table, answer.game, answer.analysis, id=msg.id))
    else:
        text = "the analysis is under way: its progress and result will be sent"
        session.deliver(wire.ok(msg.id, table.id, text))


async def review(session: ClientSession, msg: m.Review | m.Follow) -> None:
    """``review`` leads the table's review to a step; ``follow`` follows a leader (or,
    with no name, steps away)."""
    if (table := _table(session, msg)) is None:
        return
    relay = session.services.lobby.reviews
    try:
        if isinstance(msg, m.Review):
            said = relay.lead(table, session, msg.step)
        else:
            said = relay.follow(table, session, msg.name)
    except reviews.Refused as exc:
        session.deliver(wire.error(msg.id, exc.code, str(exc), table.id))
        return
    session.deliver(wire.ok(msg.id, table.id, said))


async def hint(session: ClientSession, msg: m.Hint) -> None:
    if (table := _table(session, msg)) is None:
        return
    try:
        answer = await session.services.lobby.analyses.hint(session, session.peer, table)
    except analyses.Refused as exc:
        session.deliver(wire.error(msg.id, exc.code, str(exc), table.id))
        return
    session.deliver(m.Hinted(answer.table, answer.best, answer.values, answer.exact,
                             answer.text, id=msg.id))  # fmt: skip


#: The handlers of this module's messages (``server.transport.requests.HANDLERS``).
HANDLERS: dict[type[m.Message], Callable[[ClientSession, Any], Awaitable[None]]] = {
    m.Analyse: analyse,
    m.Review: review,
    m.Follow: review,
    m.Hint: hint,
}
