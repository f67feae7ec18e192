"""Who holds the lobby's open tables: counts by creator name and by creator address, kept
as tables open and close, so that a create's checks (``tables_per_name``,
``tables_per_address``, the supply's shares of ``max_tables``) cost a few look-ups, not a
walk over every table: with 2,000 tables and a crowd creating, that walk was done on
every create.

A table counts from the moment it runs in the lobby until it closes (its state
``closed``, or its run ended, whichever is first; each counts it out once). Only tables
with a creator count: the house's have none.

>>> from types import SimpleNamespace as T
>>> h = Holdings()
>>> h.opened(T(id=1, creator="ann", creator_address="10.0.0.1"))
>>> h.opened(T(id=2, creator="Ann", creator_address="10.0.0.2"))
>>> h.opened(T(id=3, creator=None, creator_address=None))  # the house's: not counted
>>> h.of_name("ANN"), h.of_address("10.0.0.1"), h.total
(2, 1, 2)
>>> h.closed(T(id=1)); h.closed(T(id=1))  # once
>>> h.of_name("ann"), h.of_address("10.0.0.1"), dict(h.addresses())
(1, 0, {'10.0.0.2': 1})
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from server.core.limits import fold_name


class Holdings:
    """The open tables with a creator, counted by his name (folded) and his address."""

    __slots__ = ("_by_address", "_by_name", "_counted")

    def __init__(self) -> None:
        #: table id -> (its creator's folded name, its creator's address or None)
        self._counted: dict[int, tuple[str, str | None]] = {}
        self._by_name: Counter[str] = Counter()
        self._by_address: Counter[str] = Counter()

    @property
    def total(self) -> int:
        """The open tables counted (with a creator)."""
        return len(self._counted)

    def opened(self, table: Any) -> None:
        """``table`` runs in the lobby: count it (if it has a creator)."""
        if table.creator is None or table.id in self._counted:
            return
        key, address = fold_name(table.creator), table.creator_address
        self._counted[table.id] = (key, address)
        self._by_name[key] += 1
        if address is not None:
            self._by_address[address] += 1

    def closed(self, table: Any) -> None:
        """``table`` closed or left the lobby: count it out (once)."""
        held = self._counted.pop(table.id, None)
        if held is None:
            return
        key, address = held
        _less(self._by_name, key)
        if address is not None:
            _less(self._by_address, address)

    def of_name(self, name: str) -> int:
        """Open tables created under ``name`` (names compared as the server folds them)."""
        return self._by_name.get(fold_name(name), 0)

    def of_address(self, address: str | None) -> int:
        """Open tables created from ``address``."""
        return 0 if address is None else self._by_address.get(address, 0)

    def address_of(self, table_id: int) -> tuple[bool, str | None]:
        """Whether the table is counted, and the address it was created from."""
        held = self._counted.get(table_id)
        return (False, None) if held is None else (True, held[1])

    def addresses(self) -> Mapping[str, int]:
        """The addresses holding open tables, each with how many (none at zero)."""
        return self._by_address


def _less(counts: Counter[str], key: str) -> None:
    counts[key] -= 1
    if counts[key] <= 0:
        del counts[key]
