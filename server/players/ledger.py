"""Chips and prizes: a double-entry ledger where no chip is created or lost.

Why double entry: every change is one *transaction* whose postings sum to
zero, so conservation holds by construction rather than by care in each
caller. Three kinds of account:

- a player's name (as it was first claimed, the display form): their balance;
- ``@table:N``: the prize held aside for table N while its game runs;
- ``@mint``: where each new name's 1000 starting chips come from. Its balance
  is minus every chip ever issued.

So the sum over all accounts is always 0, and, equivalently, the sum of all
names' balances and all held prizes equals the chips the mint has issued and
not taken back: the ledger's invariant ("chips are never created or lost")
once new names are counted. ``Ledger.check()`` asserts both.

Chip grants are part of that promise: chips enter only as a new name's
``welcome`` from the mint, and leave only when a name that never finished a
game expires (``close_account``: its balance goes back to the mint, reason
``name expired``, in the transaction that removes the name, and its emptied
account goes with it). A name claimed again after it expired is a new name and
gets a new welcome.

Rulings (the sources are silent):

- A prize comes from the game master's balance, may be set, changed or
  withdrawn (amount 0) until the game starts, and cannot exceed the balance.
  Setting a new amount returns the old prize to whoever put it up, in the same
  transaction.
- Paid when the game ends to the winners: the seats with the highest final
  score. A shared win splits the prize equally; the chips that do not divide
  go one each to the winners in seat order (seat 0 first). A winning seat
  held by no named player (a server bot) gives its share back to whoever put
  the prize up: chips only ever move between people.
- Returned to whoever put it up if the game is abandoned (the master ends it
  early, an operator closes the table, or the table is gone after a restart).
- Each transaction carries its reason (``welcome``, ``prize``, ``prize won``,
  ``prize returned`` ...) and, where there is one, its table.

A prize belongs to a game: it is held for the table's running game, or, set
while none runs, for the next one; a payout or a return names the game it
settles, and a game's prize is settled once, by the transaction that stores the
game's end (``commit`` below). So a restart can neither pay a game twice nor pay
a game with the prize meant for the next.

Persistence: a transaction is a store write (``server.store.base.ChipsMoved``) that
goes through the server's one store writer, in the same SQL transaction as the
writes that cause it (a game's end, a new name), under the ledger's lock, and
the ledger's memory changes only after it is durable, so memory never runs
ahead of disk and no crash can separate a game's end from its payout.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence

import trio

from server.store.base import (
    ChipError,
    ChipsMoved,
    Entry,
    LedgerState,
    Prize,
    Store,
    Write,
)

__all__ = [
    "MINT",
    "START_BALANCE",
    "ChipError",
    "Entry",
    "Ledger",
    "Prize",
    "Transaction",
    "held_account",
    "split_prize",
    "winning_seats",
]

#: The account new names' chips come from (its balance is minus all chips issued).
MINT = "@mint"
#: A new name's balance.
START_BALANCE = 1000

#: One ledger transaction (the store write that records it).
Transaction = ChipsMoved
#: How the ledger's writes are committed: the store's ``commit`` or a table's (which
#: freezes the table when the store fails).
Commit = Callable[..., Awaitable[None]]


def held_account(table: int) -> str:
    """The account that holds table ``table``'s prize."""
    return f"@table:{table}"


class Ledger:
    """Balances and held prizes, changed only by balanced transactions.

    A move is *planned* from the balances in memory (``welcome``, ``prize_change``,
    ``payout``, ``refund``: each returns the ``ChipsMoved`` write, or None when
    nothing would move), committed with whatever other writes belong with it, and
    only then *applied* to memory. ``commit`` does the three under one lock, so two
    moves never plan from the same stale balance and a failed commit changes nothing.
    """

    def __init__(
        self, store: Store, state: LedgerState | None = None, start_balance: int = START_BALANCE
    ) -> None:
        self.store = store
        self.start_balance = start_balance
        if state is None:  # a store that loads cheaply and repeatedly (``MemoryStore``)
            state = store.load().ledger
        self._balances = dict(state.balances)
        self._prizes = dict(state.prizes)
        self._next = state.next_txn
        self._lock = trio.Lock()
        self.transactions = 0  #: made since start (for stats)

    # -------------------------------------------------------------- reading
    def balance(self, name: str) -> int:
        """A name's balance (0 for a name the ledger has never seen)."""
        return self._balances.get(name, 0)

    def has_account(self, name: str) -> bool:
        return name in self._balances

    def prize(self, table: int) -> Prize | None:
        """The prize held for ``table``, if any."""
        return self._prizes.get(table)

    def prizes(self) -> dict[int, Prize]:
        return dict(self._prizes)

    def names(self) -> list[str]:
        """Every player account (not the mint, not held prizes)."""
        return [a for a in self._balances if not a.startswith("@")]

    def check(self) -> None:
        """Assert conservation: all accounts sum to zero, players and prizes to what was issued."""
        total = sum(self._balances.values())
        if total != 0:
            raise AssertionError(f"chips created or lost: accounts sum to {total}")
        players = sum(self._balances[n] for n in self.names())
        held = sum(p.amount for p in self._prizes.values())
        issued = -self._balances.get(MINT, 0)
        if players + held != issued:
            raise AssertionError(f"balances {players} + held {held} != issued {issued}")
        for p in self._prizes.values():
            if self._balances.get(held_account(p.table), 0) != p.amount:
                raise AssertionError(f"prize of table {p.table} does not match its account")
        if any(b < 0 for a, b in self._balances.items() if a != MINT):
            raise AssertionError("a negative balance")

    async def statement(self, name: str, limit: int = 10) -> list[Entry]:
        """The newest ``limit`` entries of a name's account, newest first (the chips command)."""
        return await self.store.statement(name, limit)

    # -------------------------------------------------------------- planning
    def _plan(
        self,
        reason: str,
        postings: Iterable[tuple[str, int]],
        table: int | None = None,
        game: int | None = None,
        prize_after: Prize | None = None,
    ) -> ChipsMoved | None:
        """The transaction for ``postings`` from the balances now (None: nothing moves)."""
        merged: dict[str, int] = {}
        for account, delta in postings:
            merged[account] = merged.get(account, 0) + delta
        moves = tuple((a, d) for a, d in merged.items() if d != 0)
        if not moves:
            return None  # e.g. the same prize set again: no empty transaction
        after = tuple((a, self._balances.get(a, 0) + d) for a, d in moves)
        if any(b < 0 for a, b in after if a != MINT):
            raise ChipError("not enough chips")
        return ChipsMoved(self._next, time.time(), reason, table, game, moves, after, prize_after)

    def welcome(self, name: str) -> ChipsMoved | None:
        """A new name's starting chips (None if it has an account already)."""
        if name in self._balances:
            return None
        if name.startswith("@"):
            raise ChipError("account names starting with @ are the ledger's own")
        return self._plan("welcome", [(MINT, -self.start_balance), (name, self.start_balance)])

    def prize_change(self, table: int, game: int, funder: str, amount: int) -> ChipsMoved | None:
        """Hold ``amount`` of ``funder``'s chips for game ``game`` of ``table`` (0: withdraw).

        Any prize already held goes back to whoever put it up, in the same
        transaction, so changing a prize never needs two steps that a crash could
        split. The same prize again moves nothing: None."""
        if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
            raise ChipError("a prize is a whole number of chips, 0 or more")
        old = self._prizes.get(table)
        if funder not in self._balances:
            raise ChipError(f"{funder} has no chips")
        available = self._balances[funder] + (old.amount if old and old.funder == funder else 0)
        if amount > available:
            raise ChipError(f"a prize of {amount} is more than the {available} chips you have")
        postings: list[tuple[str, int]] = []
        if old is not None:
            postings += [(held_account(table), -old.amount), (old.funder, old.amount)]
        if amount:
            postings += [(funder, -amount), (held_account(table), amount)]
        prize = Prize(table, funder, amount, game) if amount else None
        if prize == old:
            return None
        reason = "prize" if amount else "prize withdrawn"
        txn = self._plan(reason, postings, table, game, prize)
        if txn is None:  # only the game it is for changed (an old prize, now placed)
            self._prizes[table] = prize  # type: ignore[assignment]
        return txn

    def payout(self, table: int, game: int, winners: Sequence[str | None]) -> ChipsMoved | None:
        """Pay game ``game``'s prize to ``winners`` (a name per winning seat, None for a
        bot): equal shares, the remainder one chip each to the first winners in seat
        order, a bot's share back to the funder. None if no prize is held for that game."""
        prize = self._prizes.get(table)
        if prize is None or prize.game != game:
            return None
        shares = split_prize(prize.amount, list(winners), prize.funder)
        postings = [(held_account(table), -prize.amount), *shares.items()]
        return self._plan("prize won", postings, table, game, None)

    def refund(
        self, table: int, game: int | None = None, reason: str = "prize returned"
    ) -> ChipsMoved | None:
        """Give the prize held for ``table`` back to whoever put it up: the prize of game
        ``game`` only, or (None) whatever is held, for any game (a table closing)."""
        prize = self._prizes.get(table)
        if prize is None or (game is not None and prize.game != game):
            return None
        postings = [(held_account(table), -prize.amount), (prize.funder, prize.amount)]
        return self._plan(reason, postings, table, prize.game, None)

    def place(self, table: int, game: int) -> None:
        """Say which game an old prize (kept with no game) is for: memory only; the
        next transaction of the table writes it."""
        prize = self._prizes.get(table)
        if prize is not None and prize.game is None:
            self._prizes[table] = Prize(prize.table, prize.funder, prize.amount, game)

    def _apply(self, txn: ChipsMoved) -> None:
        self._next = max(self._next, txn.id + 1)
        self._balances.update(txn.balances)
        if txn.table is not None:
            if txn.prize_after is None:
                self._prizes.pop(txn.table, None)
            else:
                self._prizes[txn.table] = txn.prize_after
        self.transactions += 1

    # -------------------------------------------------------------- moving
    async def commit(
        self,
        plan: Callable[[], ChipsMoved | None],
        *writes: Write,
        commit: Commit | None = None,
    ) -> ChipsMoved | None:
        """Plan a move, commit it with ``writes`` as one transaction, then apply it.

        ``plan`` runs under the lock (``ChipError`` from it commits nothing); ``commit``
        is the store's unless given (a table gives its own). Shielded: a cancellation
        cannot leave a move durable but not applied. The move, or None if none was made."""
        async with self.moving(plan) as txn:
            if txn is not None or writes:
                with trio.CancelScope(shield=True):
                    await (commit or self.store.commit)(*writes, *([txn] if txn else []))
        return txn

    @contextlib.asynccontextmanager
    async def moving(
        self, plan: Callable[[], ChipsMoved | None]
    ) -> AsyncIterator[ChipsMoved | None]:
        """Plan a move under the lock and hold the lock while the caller commits it (the
        move is the block's value: the caller adds it to its own transaction); the move is
        applied when the block ends, only if it ends without an exception (a refused
        commit leaves the ledger as it was). ``ChipError`` from ``plan``: no block runs."""
        async with self._lock:
            txn = plan()
            yield txn
            if txn is not None:
                self._apply(txn)

    async def close_account(self, name: str, *writes: Write) -> ChipsMoved | None:
        """Return ``name``'s chips to the mint and drop its account, committed with
        ``writes`` (the name's removal) as one transaction; the move, if any chips moved.
        ``ChipError`` (nothing done) while a prize ``name`` put up is held."""
        async with self._lock:
            if any(p.funder == name for p in self._prizes.values()):
                raise ChipError(f"{name} has a prize held at a table")
            balance = self._balances.get(name, 0)
            txn = None
            if balance:
                txn = self._plan("name expired", [(name, -balance), (MINT, balance)])
            with trio.CancelScope(shield=True):
                await self.store.commit(*([txn] if txn else []), *writes)
            if txn is not None:
                self._apply(txn)
            self._balances.pop(name, None)
            return txn

    async def open_account(self, name: str) -> bool:
        """Give a name its starting chips the first time it is seen; True if it was new."""
        return await self.commit(lambda: self.welcome(name)) is not None

    async def return_prize(
        self, table: int, reason: str = "prize returned", game: int | None = None
    ) -> int:
        """``refund`` committed; the amount returned."""
        txn = await self.commit(lambda: self.refund(table, game, reason))
        return 0 if txn is None else sum(d for a, d in txn.postings if not a.startswith("@"))

    async def return_orphans(self, open_tables: Iterable[int]) -> int:
        """At start: return every prize held for a table that no longer exists."""
        keep = set(open_tables)
        total = 0
        for table in sorted(set(self._prizes) - keep):
            total += await self.return_prize(table, "prize returned: table gone")
        return total


def split_prize(amount: int, winners: list[str | None], funder: str) -> dict[str, int]:
    """How a prize of ``amount`` is shared by ``winners`` (seat order; None: a bot).

    >>> split_prize(100, ["ann", "bob", "cy"], "ann")
    {'ann': 34, 'bob': 33, 'cy': 33}
    >>> split_prize(10, ["bob", None], "ann")
    {'bob': 5, 'ann': 5}
    >>> split_prize(7, [], "ann")
    {'ann': 7}
    """
    if not winners:
        return {funder: amount}
    share, extra = divmod(amount, len(winners))
    out: dict[str, int] = {}
    for i, name in enumerate(winners):
        got = share + (1 if i < extra else 0)
        who = funder if name is None else name
        if got:
            out[who] = out.get(who, 0) + got
    return out


def winning_seats(scores: Sequence[int]) -> list[int]:
    """The seats that won a finished game: those with the highest total (several: a shared win).

    >>> winning_seats([3, 20, 7, 20])
    [1, 3]
    """
    if not scores:
        return []
    top = max(scores)
    return [s for s, v in enumerate(scores) if v == top]
