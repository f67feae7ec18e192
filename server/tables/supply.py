"""The table supply under a crowd: who may create a table now, and room for a newcomer.

``max_tables`` bounds the tables of untrusted creators, all together. The last
``tables_reserve`` of them are kept for an address's first table; the rest is shared,
each address that holds tables at most an equal share of it (so the share shrinks as
addresses come). Trusted addresses and the house always create.

Two things keep the promise that a newcomer can start a game on a server a crowd has
filled, without passing ``max_tables``:

- **Creations under way count.** A table is counted from the moment its creation is
  allowed (``Supply.claim``), not once it is stored and running: a crowd's creates
  that all pass the check before any is stored cannot go past the limit together.
- **The heaviest address makes room.** When the whole is held and an address that holds
  no table asks for its first, one table of the address holding the most (if more than
  one) is closed for it: a waiting one before a game in play, the newest first. The
  new table is made once that close is stored. Only when every address holds a single
  table is a newcomer refused.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager

import trio

from server.core.commands import Close
from server.core.config import ServerConfig
from server.core.logfmt import log_event
from server.tables.holdings import Holdings
from server.tables.table import CLOSED, PLAYING, Table

log = logging.getLogger("switchboard.lobby")

#: How long a newcomer's create waits for the table closed to make room for it.
MAKE_ROOM_SECONDS = 10.0
#: What the players of a table closed for a newcomer are told.
MADE_ROOM = "the server is full and a newcomer needed a table; your address held the most"


class SupplyRefused(Exception):
    """No table may be created from this address now: the text says why."""


class Supply:
    """The lobby's count of untrusted creators' tables, and its creations under way."""

    def __init__(
        self,
        config: ServerConfig,
        tables: Callable[[], Iterable[Table]],
        holdings: Holdings | None = None,
    ) -> None:
        self.config = config
        self._tables = tables
        #: the open tables counted by address, kept by the lobby (None: counted here,
        #: walking every table)
        self._holdings_kept = holdings
        self._pending: Counter[str] = Counter()  #: creations allowed, not yet running
        self._leaving: set[int] = set()  #: tables closing to make room for a newcomer

    def trusted(self, address: str | None) -> bool:
        """Whether tables created from ``address`` are the house's or a trusted one's
        (not counted against ``max_tables``, never refused, never reclaimed)."""
        return address is None or address in self.config.trusted_addresses

    def counted(self) -> list[Table]:
        """The open tables ``max_tables`` bounds: every untrusted creator's (one restored,
        whose address is not stored, counts as untrusted), less those closing for room."""
        return [
            t
            for t in self._tables()
            if t.state != CLOSED
            and t.id not in self._leaving
            and t.creator is not None
            and (t.creator_address is None or not self.trusted(t.creator_address))
        ]

    def _holdings(self) -> tuple[int, Counter[str]]:
        """The tables ``max_tables`` bounds with the creations under way, and how many
        of them each address holds: from the lobby's counts, a look at each address
        holding tables (not at every table)."""
        kept = self._holdings_kept
        if kept is None:
            counted = self.counted()
            held = Counter(t.creator_address for t in counted if t.creator_address is not None)
            total = len(counted)
        else:
            trusted = self.config.trusted_addresses
            held = Counter({a: n for a, n in kept.addresses().items() if a not in trusted})
            total = kept.total - sum(n for a, n in kept.addresses().items() if a in trusted)
            for table_id in self._leaving:  # closing for a newcomer: counted out already
                held_here, address = kept.address_of(table_id)
                if held_here:
                    total -= 1
                    if address is not None and address in held:
                        held[address] -= 1
            held = +held  # no address at zero
        held.update(self._pending)
        return total + sum(self._pending.values()), held

    def refuse(self, address: str | None) -> str | None:
        """Why no table may be created from ``address`` now, or None (the module's rules;
        a newcomer on a full server is refused here only when nobody can make room)."""
        if self.trusted(address):
            return None
        assert address is not None
        config = self.config
        total, held = self._holdings()
        here = held[address]
        if here == 0:  # a first table may take the reserve, or room made for it
            if total >= config.max_tables and self._victim() is None:
                return f"the server holds {total} tables, its most, one for each address"
            return None
        room = max(0, config.max_tables - config.tables_reserve)
        if total >= room:
            return (f"the server holds {total} tables; the last {config.tables_reserve}"
                    " of its most are kept for other addresses' first tables")  # fmt: skip
        share = max(1, room // len(held))
        if here >= share:
            return (f"{here} open tables were created from your address, its share while "
                    f"{len(held)} addresses hold tables")  # fmt: skip
        return None

    def _victim(self) -> Table | None:
        """The table to close for a newcomer: of the address holding the most tables
        (more than one), a waiting one before one in play, the newest first."""
        counted = self.counted()
        held = Counter(t.creator_address for t in counted if t.creator_address is not None)
        if not held:
            return None
        address, most = held.most_common(1)[0]
        if most <= 1:
            return None
        theirs = [t for t in counted if t.creator_address == address]
        return min(theirs, key=lambda t: (t.state == PLAYING, -t.id))

    @contextmanager
    def claim(self, address: str | None) -> Iterator[None]:
        """Count a creation from ``address`` while it is under way (raise
        ``SupplyRefused`` if it may not be): the check and the count are one step."""
        if (why := self.refuse(address)) is not None:
            raise SupplyRefused(why)
        if self.trusted(address):
            yield
            return
        assert address is not None
        self._pending[address] += 1
        try:
            yield
        finally:
            self._pending[address] -= 1
            if self._pending[address] <= 0:
                del self._pending[address]

    async def make_room(self, address: str | None) -> None:
        """Inside ``claim``: if the whole is held now, close the heaviest address's table
        and wait for its close to be stored (``SupplyRefused`` if it is not in time).
        A trusted creation is not counted, and makes no room."""
        if self.trusted(address):
            return
        total, _ = self._holdings()
        if total <= self.config.max_tables:  # this creation's own count is in ``total``
            return
        victim = self._victim()
        if victim is None:
            raise SupplyRefused(f"the server holds {total - 1} tables, its most")
        self._leaving.add(victim.id)
        try:
            log_event(log, "table.room_made", table=victim.id, creator=victim.creator_address)
            with trio.move_on_after(MAKE_ROOM_SECONDS):
                await victim.submit(Close(MADE_ROOM))
                await victim.closed.wait()
            if not victim.closed.is_set():
                raise SupplyRefused("the server is full and no table closed in time")
        finally:  # closed: ``counted`` leaves it out by its state; else it counts again
            self._leaving.discard(victim.id)
