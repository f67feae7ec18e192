"""A table's writes to the store: durable before they are acknowledged, and a refusal
that freezes only this table until a write succeeds again.

The store may refuse a write (disk full, I/O error ...): then nothing changed, the
requester is told so (``refuse``), the table's bots and clock wait until
``retry_at``, and the next write that succeeds (a player's request, or that retry)
carries on. Other tables are not touched by it.
"""

from __future__ import annotations

import logging
import math
from typing import Any

import trio

from server.core import wire
from server.core.commands import Detach
from server.core.logfmt import log_event
from server.store.base import Store, StoreError

log = logging.getLogger("switchboard.table")


class StoreGate:
    """One table's way to the store, and whether the store is refusing it."""

    def __init__(self, table_id: int, store: Store, retry_seconds: float) -> None:
        self.table_id = table_id
        self.store = store
        #: the store's ``commit`` needs no shield: no cancellation ends it early
        self._uncancellable = getattr(store, "uncancellable", False) is True
        self._retry_seconds = retry_seconds
        #: The store refused this table's last write: it waits until ``retry_at``.
        self.failing = False
        self.retry_at = math.inf

    async def commit(self, *writes: Any) -> None:
        """Make ``writes`` durable before what they record is acknowledged; shielded,
        so a cancellation (a shutdown) cannot leave a change done but not stored (a
        store that promises its ``commit`` is never cancelled, ``uncancellable``, is
        trusted to: a cancel scope per action was a measurable share of its CPU).

        ``StoreError`` if the store refused them: the caller changes nothing, and the
        table waits (``failing``) until a write of its own succeeds again."""
        try:
            if self._uncancellable:
                await self.store.commit(*writes)
            else:
                with trio.CancelScope(shield=True):
                    await self.store.commit(*writes)
        except StoreError as exc:
            self.failed(exc)
            raise
        if self.failing:
            self.failing, self.retry_at = False, math.inf
            log_event(log, "table.store_ok", table=self.table_id)

    def failed(self, exc: StoreError) -> None:
        """The store refused a write (or a read the table needed): wait before retrying."""
        self.retry_at = trio.current_time() + self._retry_seconds
        if not self.failing:
            self.failing = True
            log_event(
                log, "table.store_failed", logging.WARNING, table=self.table_id, error=str(exc)
            )

    def refuse(self, command: object) -> None:
        """Tell whoever asked that nothing was done: the store could not keep it."""
        member = getattr(command, "member", None)
        if member is not None and not isinstance(command, Detach):
            member.deliver(
                wire.error(
                    getattr(command, "req", None),
                    "store_failed",
                    "the server could not store that: nothing changed; try again later",
                    self.table_id,
                )
            )
