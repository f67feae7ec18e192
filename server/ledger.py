"""Chips and prizes: a double-entry ledger where no chip is created or lost.

Why double entry: every change is one *transaction* whose postings sum to
zero, so conservation holds by construction rather than by care in each
caller. Three kinds of account:

- a player's name (folded, as accounts.py keys it): their balance;
- ``@table:N``: the prize held aside for table N while its game runs;
- ``@mint``: where each new name's 1000 starting chips come from. Its balance
  is minus every chip ever issued.

So the sum over all accounts is always 0, and, equivalently, the sum of all
names' balances and all held prizes equals 1000 times the number of names:
the invariant RULES.md asks for ("chips are never created or lost") once new
names are counted. ``Ledger.check()`` asserts both.

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

Persistence: a ``LedgerStore`` makes each transaction durable (one SQL
transaction: its entries, the new balances and the table's prize) before the
ledger's memory changes, under one lock, so memory never runs ahead of disk.
``SQLiteLedgerStore`` keeps its own tables in the server's SQLite file through
its own connection (chip moves are rare: a few per game, so a thread hop per
transaction costs nothing, and the table-action writer stays untouched);
``MemoryLedgerStore`` serves tests and servers started without ``--data``.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import trio

#: The account new names' chips come from (its balance is minus all chips issued).
MINT = "@mint"
#: A new name's balance.
START_BALANCE = 1000


def held_account(table: int) -> str:
    """The account that holds table ``table``'s prize."""
    return f"@table:{table}"


class ChipError(ValueError):
    """A chip move that cannot be made (not enough chips, no prize ...), with the reason."""


@dataclass(frozen=True, slots=True)
class Prize:
    """A prize held aside for one table."""

    table: int
    funder: str  #: the name it came from and goes back to
    amount: int


@dataclass(frozen=True, slots=True)
class Transaction:
    """One change: postings that sum to zero, a reason, and the table's prize afterwards."""

    id: int
    at: float
    reason: str
    table: int | None
    postings: tuple[tuple[str, int], ...]
    #: when ``table`` is set: its prize after this transaction (None: no prize)
    prize_after: Prize | None = None

    def __post_init__(self) -> None:
        if sum(d for _, d in self.postings) != 0:
            raise ChipError(f"transaction {self.reason!r} does not balance: {self.postings}")
        if any(d == 0 for _, d in self.postings):
            raise ChipError("a posting of zero chips")


@dataclass(frozen=True, slots=True)
class Entry:
    """One line of an account's statement."""

    txn: int
    at: float
    reason: str
    table: int | None
    delta: int
    balance: int  #: the account's balance after this entry


@dataclass(slots=True)
class LedgerState:
    """What a ledger store loads: balances, prizes held, the next transaction id."""

    balances: dict[str, int] = field(default_factory=dict)
    prizes: dict[int, Prize] = field(default_factory=dict)
    next_txn: int = 1


class LedgerStore(Protocol):
    """Durability for the ledger."""

    def load(self) -> LedgerState:
        """Read everything (blocking: call once, at start)."""
        ...

    async def commit(self, txn: Transaction, balances_after: dict[str, int]) -> None:
        """Make ``txn`` durable with the new balances of the accounts it touches."""
        ...

    async def statement(self, account: str, limit: int) -> list[Entry]:
        """The newest ``limit`` entries of ``account``, newest first."""
        ...

    async def aclose(self) -> None: ...


class MemoryLedgerStore:
    """Keeps transactions in memory; survives a "restart" of a server in the same process."""

    def __init__(self) -> None:
        self.state = LedgerState()
        self.entries: dict[str, list[Entry]] = {}

    def load(self) -> LedgerState:
        return LedgerState(dict(self.state.balances), dict(self.state.prizes), self.state.next_txn)

    async def commit(self, txn: Transaction, balances_after: dict[str, int]) -> None:
        await trio.lowlevel.checkpoint()
        _apply_to_state(self.state, txn, balances_after)
        for account, delta in txn.postings:
            self.entries.setdefault(account, []).append(
                Entry(txn.id, txn.at, txn.reason, txn.table, delta, balances_after[account])
            )

    async def statement(self, account: str, limit: int) -> list[Entry]:
        await trio.lowlevel.checkpoint()
        return list(reversed(self.entries.get(account, [])[-limit:]))

    async def aclose(self) -> None:
        await trio.lowlevel.checkpoint()


def _apply_to_state(state: LedgerState, txn: Transaction, balances_after: dict[str, int]) -> None:
    state.balances.update(balances_after)
    if txn.table is not None:
        if txn.prize_after is None:
            state.prizes.pop(txn.table, None)
        else:
            state.prizes[txn.table] = txn.prize_after
    state.next_txn = max(state.next_txn, txn.id + 1)


LEDGER_SCHEMA = """
CREATE TABLE IF NOT EXISTS chip_accounts (
    account TEXT PRIMARY KEY, balance INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS chip_txns (
    id INTEGER PRIMARY KEY, at REAL NOT NULL, reason TEXT NOT NULL, table_id INTEGER);
CREATE TABLE IF NOT EXISTS chip_entries (
    txn INTEGER NOT NULL, account TEXT NOT NULL, delta INTEGER NOT NULL,
    balance INTEGER NOT NULL, PRIMARY KEY (account, txn)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS chip_prizes (
    table_id INTEGER PRIMARY KEY, funder TEXT NOT NULL, amount INTEGER NOT NULL);
"""


class SQLiteLedgerStore:
    """The ledger's tables in the server's SQLite file, through a connection of its own."""

    def __init__(self, path: Path | str, synchronous: str = "NORMAL") -> None:
        self.path = Path(path)
        self._synchronous = synchronous.upper()
        self._conn: sqlite3.Connection | None = None
        self._lock = threading.Lock()  # the connection is used from worker threads

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA busy_timeout=10000")  # the table writer may hold the lock briefly
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute(f"PRAGMA synchronous={self._synchronous}")
        return conn

    def load(self) -> LedgerState:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        conn = self._conn = self._connect()
        conn.executescript(LEDGER_SCHEMA)
        state = LedgerState()
        state.balances = dict(conn.execute("SELECT account, balance FROM chip_accounts"))
        for table, funder, amount in conn.execute(
            "SELECT table_id, funder, amount FROM chip_prizes"
        ):
            state.prizes[table] = Prize(table, funder, amount)
        (top,) = conn.execute("SELECT COALESCE(MAX(id), 0) FROM chip_txns").fetchone()
        state.next_txn = top + 1
        return state

    def _write(self, txn: Transaction, balances_after: dict[str, int]) -> None:
        assert self._conn is not None, "load() first"
        with self._lock:
            conn = self._conn
            conn.execute("BEGIN IMMEDIATE")
            try:
                conn.execute(
                    "INSERT INTO chip_txns (id, at, reason, table_id) VALUES (?, ?, ?, ?)",
                    (txn.id, txn.at, txn.reason, txn.table),
                )
                conn.executemany(
                    "INSERT INTO chip_entries (txn, account, delta, balance) VALUES (?, ?, ?, ?)",
                    [(txn.id, a, d, balances_after[a]) for a, d in txn.postings],
                )
                conn.executemany(
                    "INSERT OR REPLACE INTO chip_accounts (account, balance) VALUES (?, ?)",
                    list(balances_after.items()),
                )
                if txn.table is not None:
                    if txn.prize_after is None:
                        conn.execute("DELETE FROM chip_prizes WHERE table_id = ?", (txn.table,))
                    else:
                        p = txn.prize_after
                        conn.execute(
                            "INSERT OR REPLACE INTO chip_prizes (table_id, funder, amount)"
                            " VALUES (?, ?, ?)",
                            (p.table, p.funder, p.amount),
                        )
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise

    async def commit(self, txn: Transaction, balances_after: dict[str, int]) -> None:
        await trio.to_thread.run_sync(self._write, txn, balances_after)

    def _statement(self, account: str, limit: int) -> list[Entry]:
        assert self._conn is not None, "load() first"
        with self._lock:
            rows = self._conn.execute(
                "SELECT e.txn, t.at, t.reason, t.table_id, e.delta, e.balance"
                " FROM chip_entries e JOIN chip_txns t ON t.id = e.txn"
                " WHERE e.account = ? ORDER BY e.txn DESC LIMIT ?",
                (account, limit),
            ).fetchall()
        return [Entry(*row) for row in rows]

    async def statement(self, account: str, limit: int) -> list[Entry]:
        return await trio.to_thread.run_sync(self._statement, account, limit)

    def audit(self) -> list[str]:
        """Problems found by recomputing every balance from the entries (empty: all good)."""
        assert self._conn is not None, "load() first"
        problems = []
        with self._lock:
            for account, balance, summed in self._conn.execute(
                "SELECT a.account, a.balance, COALESCE(SUM(e.delta), 0) FROM chip_accounts a"
                " LEFT JOIN chip_entries e ON e.account = a.account GROUP BY a.account"
            ):
                if balance != summed:
                    problems.append(f"{account}: balance {balance} but entries sum to {summed}")
            (total,) = self._conn.execute(
                "SELECT COALESCE(SUM(balance), 0) FROM chip_accounts"
            ).fetchone()
        if total != 0:
            problems.append(f"accounts sum to {total}, not 0")
        return problems

    async def aclose(self) -> None:
        if self._conn is not None:
            conn, self._conn = self._conn, None
            with self._lock:
                conn.close()
        await trio.lowlevel.checkpoint()


class Ledger:
    """Balances and held prizes, changed only by balanced transactions.

    Every method that moves chips is ``async`` (it waits for the store) and
    serialised by one lock, so two moves never read the same stale balance.
    """

    def __init__(self, store: LedgerStore, start_balance: int = START_BALANCE) -> None:
        self.store = store
        self.start_balance = start_balance
        state = store.load()
        self._balances = state.balances
        self._prizes = state.prizes
        self._next = state.next_txn
        self._lock = trio.Lock()
        self.transactions = 0  #: made since start (for stats)

    # -------------------------------------------------------------- reading
    def balance(self, name: str) -> int:
        """A name's balance (0 for a name the ledger has never seen)."""
        return self._balances.get(name, 0)

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

    # -------------------------------------------------------------- moving
    async def _post(
        self,
        reason: str,
        postings: Iterable[tuple[str, int]],
        table: int | None = None,
        prize_after: Prize | None = None,
    ) -> Transaction:
        merged: dict[str, int] = {}
        for account, delta in postings:
            merged[account] = merged.get(account, 0) + delta
        txn = Transaction(
            self._next,
            time.time(),
            reason,
            table,
            tuple((a, d) for a, d in merged.items() if d != 0),
            prize_after,
        )
        after = {a: self._balances.get(a, 0) + d for a, d in txn.postings}
        if any(b < 0 for a, b in after.items() if a != MINT):
            raise ChipError("not enough chips")
        await self.store.commit(txn, after)
        self._next += 1
        self._balances.update(after)
        if table is not None:
            if prize_after is None:
                self._prizes.pop(table, None)
            else:
                self._prizes[table] = prize_after
        self.transactions += 1
        return txn

    async def open_account(self, name: str) -> bool:
        """Give a name its starting chips the first time it is seen; True if it was new."""
        async with self._lock:
            if name in self._balances:
                return False
            if name.startswith("@"):
                raise ChipError("account names starting with @ are the ledger's own")
            await self._post("welcome", [(MINT, -self.start_balance), (name, self.start_balance)])
            return True

    async def set_prize(self, table: int, funder: str, amount: int) -> Prize | None:
        """Hold ``amount`` of ``funder``'s chips as table ``table``'s prize (0: withdraw it).

        Any prize already held goes back to whoever put it up, in the same
        transaction, so changing a prize never needs two steps that a crash could split.
        """
        if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
            raise ChipError("a prize is a whole number of chips, 0 or more")
        async with self._lock:
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
            if not postings:
                return None
            prize = Prize(table, funder, amount) if amount else None
            reason = "prize" if amount else "prize withdrawn"
            await self._post(reason, postings, table, prize)
            return prize

    async def pay_prize(self, table: int, winners: Sequence[str | None]) -> dict[str, int]:
        """Pay table ``table``'s prize to ``winners`` (a name per winning seat, None for a bot).

        Returns who got what. The split: equal shares, the remainder one chip
        each to the first winners in seat order; a bot's share goes back to the
        funder. No prize held: nothing happens and ``{}`` comes back.
        """
        async with self._lock:
            prize = self._prizes.get(table)
            if prize is None:
                return {}
            shares = split_prize(prize.amount, list(winners), prize.funder)
            postings = [(held_account(table), -prize.amount), *shares.items()]
            await self._post("prize won", postings, table, None)
            return shares

    async def return_prize(self, table: int, reason: str = "prize returned") -> int:
        """Give an abandoned game's prize back to whoever put it up; the amount returned."""
        async with self._lock:
            prize = self._prizes.get(table)
            if prize is None:
                return 0
            await self._post(
                reason, [(held_account(table), -prize.amount), (prize.funder, prize.amount)], table
            )
            return prize.amount

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
