"""Helpers shared by the tests (``tests/`` is on ``pythonpath``: ``from support import soak``)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import trio
import trio.testing

from protocol import messages as m

if TYPE_CHECKING:
    from server.players.ledger import Ledger
    from server.store.base import Prize

SOAK = os.environ.get("SWITCHBOARD_SOAK", "short")


def soak(short: int, long: int) -> int:
    """How many iterations a soak loop runs: ``short`` by default and in CI,
    ``long`` with ``SWITCHBOARD_SOAK=long``."""
    return long if SOAK == "long" else short


class Member:
    """A connection as a table sees it (``server.tables.table.Member``): a name, and every
    delivery made to it, kept as one batch each (a connection writes a delivery at
    once), so a test can read the messages in order (``got``) or ask how many writes
    an action cost (``batches``)."""

    def __init__(self, name: str | None, operator: bool = False) -> None:
        self.name = name
        self.operator = operator
        self.batches: list[list[Any]] = []

    def deliver(self, message: Any) -> None:
        self.batches.append([message])

    def deliver_many(self, messages: Any) -> None:
        self.batches.append(list(messages))

    @property
    def got(self) -> list[Any]:
        """Every message delivered, in order."""
        return [x for batch in self.batches for x in batch]

    def token(self) -> str:
        """The token of the seat it was last given."""
        return next(x.token for x in reversed(self.got) if isinstance(x, m.Seated))

    def replies(self, req: int) -> list[Any]:
        return [x for x in self.got if getattr(x, "id", None) == req]

    def last_reply(self, req: int) -> Any:
        found = self.replies(req)
        assert found, f"no reply to request {req}: {self.got[-5:]}"
        return found[-1]

    def notices(self) -> list[str]:
        return [x.text for x in self.got if isinstance(x, m.Notice)]


async def settle() -> None:
    """Let every task run until all wait (a table under trio's mock clock)."""
    for _ in range(5):
        await trio.testing.wait_all_tasks_blocked()


def keep_chips(table: Any, ledger: Ledger | None) -> None:
    """Give a table built by a test the server's prizes over ``ledger``, as the server's
    composition does: they hear its games' ends (None: a table that keeps no chips)."""
    from server.tables.events import TableEvents
    from server.tables.prize import Prizes

    events = TableEvents()
    if ledger is None:
        table.events, table.gm.stakes = events, None
        return
    prizes = Prizes(ledger)
    prizes.subscribe(events)
    table.events, table.gm.stakes = events, prizes


async def set_prize(
    ledger: Ledger, table: int, funder: str, amount: int, game: int | None = None
) -> Prize | None:
    """``ledger.prize_change`` committed, as a test states a prize; the prize now held
    (None: none). ``game`` defaults to the game the prize held now is for, else the
    table's first."""
    if game is None:
        held = ledger.prize(table)
        game = held.game if held is not None and held.game is not None else 1
    await ledger.commit(lambda: ledger.prize_change(table, game, funder, amount))
    return ledger.prize(table)


async def pay_prize(
    ledger: Ledger, table: int, winners: Sequence[str | None], game: int | None = None
) -> dict[str, int]:
    """``ledger.payout`` committed (``game`` None: the game the prize is held for); who
    gained what (the held account and the mint left out)."""
    held = ledger.prize(table)
    if held is None:
        return {}
    number = held.game if game is None else game
    assert number is not None
    txn = await ledger.commit(lambda: ledger.payout(table, number, winners))
    if txn is None:
        return {}
    return {a: d for a, d in txn.postings if not a.startswith("@") and d > 0}


def client_frame(text: str | bytes, fin: bool = True, opcode: int | None = None) -> bytes:
    """A masked frame as a client sends it, built by hand: wsproto's client sends whole
    messages, and the tests need fragments, bare control frames and bad opcodes too."""
    payload = text.encode() if isinstance(text, str) else text
    if opcode is None:
        opcode = 1 if isinstance(text, str) else 2
    head = bytes([(0x80 if fin else 0) | opcode])
    n = len(payload)
    if n < 126:
        head += bytes([0x80 | n])
    elif n < 1 << 16:
        head += bytes([0x80 | 126]) + n.to_bytes(2, "big")
    else:
        head += bytes([0x80 | 127]) + n.to_bytes(8, "big")
    mask = os.urandom(4)
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return head + mask + masked
