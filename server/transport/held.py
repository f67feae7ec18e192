"""Bytes held unsent, per address and in all: the memory a server's readers may cost it.

Every connection's ``Outbox`` holds what it has yet to write (queued, or being
written); a limit in messages alone let a client that never reads keep 256 large
replies queued per connection (22 KB each: 5.6 MB a connection, gigabytes for a
crowd). Each outbox bounds its own bytes; this ledger bounds what all of one
address's connections hold together, and what the whole server holds.

Why the largest holder is the one let go: when an address (or the server) is over
its bytes, some connection of it has fallen behind its reader; the one holding the
most is the one furthest behind, where a connection that reads keeps next to nothing
queued. It is shed (told, if it can still be told, and closed), and its queue's
memory comes back at once.
"""

from __future__ import annotations

from typing import Protocol


class Holder(Protocol):
    """A connection's send side, as the ledger sees it."""

    held: int  #: bytes it holds unsent (queued, or being written)

    @property
    def accepting(self) -> bool: ...

    def shed(self) -> None:
        """It fell behind: free its queue, say goodbye if it can, and end."""
        ...


class HeldBytes:
    """What every connection holds unsent, by address; ``charge`` sheds the largest
    holders of an address, or of the server, that is over its limit (0: no limit;
    addresses in ``exempt`` have none of their own but count towards the server's).

    >>> class H:
    ...     def __init__(self):
    ...         self.held, self.accepting = 0, True
    ...     def shed(self):
    ...         self.accepting = False
    ...         ledger.release(self, "a", self.held)
    >>> ledger = HeldBytes(address_limit=100, server_limit=0)
    >>> small, big = H(), H()
    >>> ledger.charge(small, "a", 30); ledger.charge(big, "a", 60); ledger.address("a")
    90
    >>> ledger.charge(small, "a", 20)  # 110 > 100: the largest holder goes
    >>> big.accepting, small.accepting, ledger.address("a"), ledger.total
    (False, True, 50, 50)
    """

    __slots__ = ("_addresses", "_holders", "address_limit", "exempt", "peak", "server_limit",
                 "shed", "total")  # fmt: skip

    def __init__(self, address_limit: int, server_limit: int, exempt: tuple[str, ...] = ()) -> None:
        self.address_limit = address_limit
        self.exempt = frozenset(exempt)  #: addresses with no limit of their own (trusted)
        self.server_limit = server_limit
        self.total = 0  #: bytes held by every connection together
        self.peak = 0  #: the most ever held at once
        self.shed = 0  #: connections let go for holding too much
        self._addresses: dict[str, int] = {}  #: address -> bytes its connections hold
        self._holders: dict[str, set[Holder]] = {}  #: address -> connections holding any

    def address(self, key: str) -> int:
        """Bytes all of ``key``'s connections hold."""
        return self._addresses.get(key, 0)

    def charge(self, holder: Holder, key: str, n: int) -> None:
        """``holder`` (of address ``key``) holds ``n`` bytes more; then any limit passed
        sheds the largest holders until it is kept (or none is left to shed)."""
        if n <= 0:
            return
        if holder.held == 0:
            self._holders.setdefault(key, set()).add(holder)
        holder.held += n
        held = self._addresses.get(key, 0) + n
        self._addresses[key] = held
        self.total += n
        if self.total > self.peak:
            self.peak = self.total
        if self.address_limit and held > self.address_limit and key not in self.exempt:
            self._shed_over(key)
        if self.server_limit and self.total > self.server_limit:
            self._shed_over(None)

    def release(self, holder: Holder, key: str, n: int) -> None:
        """``holder`` no longer holds ``n`` of its bytes (written, or let go)."""
        n = min(n, holder.held)
        if n <= 0:
            return
        holder.held -= n
        self.total -= n
        left = self._addresses.get(key, 0) - n
        if left > 0:
            self._addresses[key] = left
        else:
            self._addresses.pop(key, None)
        if holder.held == 0:
            holders = self._holders.get(key)
            if holders is not None:
                holders.discard(holder)
                if not holders:
                    del self._holders[key]

    def _shed_over(self, key: str | None) -> None:
        """Shed the largest holders (of ``key``, or of anyone) while over the limit. What
        holders already shed still hold (a write under way, ended within the close grace)
        is not counted again: it is on its way back."""
        limit = self.server_limit if key is None else self.address_limit
        while True:
            if key is None:
                holders = [h for hs in self._holders.values() for h in hs]
                held = self.total
            else:
                holders = list(self._holders.get(key, ()))
                held = self._addresses.get(key, 0)
            live = [h for h in holders if h.accepting]
            going = sum(h.held for h in holders if not h.accepting)
            if held - going <= limit or not live:
                return
            self.shed += 1
            max(live, key=lambda h: h.held).shed()
