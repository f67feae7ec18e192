"""Fetching a whole game record: the server hands it out a page at a time.

A ``record`` reply holds at most the server's page size of entries (a full
record's ``actions``, or a public log's ``events``) and says where the next
page starts (``next``; null on the last). ``fetch_record`` follows ``next``
and joins the pages into one record. Record requests are rate-limited per
connection: a ``rate_limited`` refusal is waited out and the page asked for
again, a bounded number of times. Pages of another game (the table started a
new one meanwhile) restart the fetch.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import trio

from protocol import messages as m

#: How long to wait before asking again after ``rate_limited``, and how often.
RETRY_SECONDS = 1.0
RETRIES = 60
RESTARTS = 5  #: fetches begun again because a new game started between pages

Request = Callable[[m.Message], Awaitable[Any]]


class RecordError(Exception):
    """The server refused the record: ``code`` is its error code."""

    def __init__(self, code: str, text: str) -> None:
        super().__init__(text or code)
        self.code = code


async def _page(request: Request, table: str, start: int) -> m.Record:
    for _ in range(RETRIES):
        reply = await request(m.GetRecord(table=table, start=start))
        if isinstance(reply, m.Record):
            return reply
        if reply is None:
            raise RecordError("closed", "the connection dropped")
        if getattr(reply, "code", None) != "rate_limited":
            raise RecordError(getattr(reply, "code", "?"), getattr(reply, "text", ""))
        await trio.sleep(RETRY_SECONDS)
    raise RecordError("rate_limited", "the server kept refusing: too many record requests")


async def fetch_record(request: Request, table: str) -> dict[str, Any]:
    """Every page of ``table``'s record joined: the record as one map, with ``full``.

    ``request`` sends a message and returns the reply, an ``error`` included
    (``client.net.connection.Connection.request`` with ``check=False``)."""
    for _ in range(RESTARTS):
        first = await _page(request, table, 0)
        key = "actions" if first.full else "events"
        entries = list(first.record.get(key, []))
        page = first
        while page.next is not None:
            page = await _page(request, table, page.next)
            if page.game != first.game or page.full != first.full:
                break  # a new game (or the end of this one) came between pages: again
            entries.extend(page.record.get(key, []))
        else:
            return {**dict(first.record), key: entries, "full": first.full}
    raise RecordError("bad_state", "the table kept starting new games while it was fetched")
