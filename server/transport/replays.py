"""``get_replay``: a finished game's replay, step by step, for a client that cannot run
the engine (the browser). The game is read from the store by its table and number
(``Store.finished_game``), so any game over may be replayed, the table closed or not; the
steps are worked out by ``server.core.replays``. A game still running is refused
(``bad_state``: its deal is secret). Pages count against the same budgets as
``get_record`` (``record_burst``, ``record_per_second``, and the address's)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import trio

from protocol import messages as m
from protocol.fields import RUNNING
from server.core import replays, wire
from server.core.limits import TokenBucket
from server.store.base import StoreError
from server.transport.session import ClientSession


def _within_rate(session: ClientSession, msg: m.GetReplay, table: int) -> bool:
    """Take one page from the connection's and its address's record budgets; refuse
    (and say so) when either is spent."""
    if session.records is None:
        config = session.config
        session.records = TokenBucket(config.record_per_second, config.record_burst)
    now, shared = trio.current_time(), session.services.lobby.budgets.records
    if not session.records.take(now):
        session.deliver(wire.error(msg.id, "rate_limited", "you are asking for records too fast",
                                   table))  # fmt: skip
        return False
    if not shared.take(session.peer, now):
        wait = shared.wait_time(session.peer, now)
        text = f"too many records asked for from your address; wait {wait:.1f} s"
        session.deliver(wire.error(msg.id, "rate_limited", text, table))
        return False
    return True


async def get_replay(session: ClientSession, msg: m.GetReplay) -> None:
    if not msg.table.isdigit():
        session.deliver(wire.error(msg.id, "no_table", f"there is no table {msg.table}"))
        return
    number = int(msg.table)
    if not _within_rate(session, msg, number):
        return
    lobby = session.services.lobby
    live = lobby.get(number)
    if live is not None and live.game_no == msg.game and live.state in RUNNING:
        text = "the game is still running: its replay is there once it is over"
        session.deliver(wire.error(msg.id, "bad_state", text, number))
        return
    try:
        found = await lobby.store.finished_game(number, msg.game)
    except StoreError as exc:
        session.deliver(wire.error(msg.id, "internal", f"the store could not read: {exc}", number))
        return
    if found is None:
        text = f"table {number} has no finished game {msg.game}"
        session.deliver(wire.error(msg.id, "no_record", text, number))
        return
    try:
        budget = replays.BUDGET
        if session.binding is not None and session.binding.page_budget is not None:
            budget = min(budget, session.binding.page_budget)  # a text line's room
        page = replays.page(found.record, found.names, msg.start, budget=budget)
    except (ValueError, KeyError) as exc:  # a record the engine refuses (an illegal action)
        text = f"game {msg.game} of table {number} cannot be replayed: {exc}"
        session.deliver(wire.error(msg.id, "no_record", text, number))
        return
    session.deliver(m.Replay(wire.table_word(number), msg.game, page.record, tuple(page.steps),
                             page.start, page.next, page.total, id=msg.id))  # fmt: skip


#: The handler of this module's message (``server.transport.requests.HANDLERS``).
HANDLERS: dict[type[m.Message], Callable[[ClientSession, Any], Awaitable[None]]] = {
    m.GetReplay: get_replay,
}
