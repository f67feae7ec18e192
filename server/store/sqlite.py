"""The embedded store: SQLite in WAL mode, one connection, commits in groups.

Why one writer: SQLite allows one writer at a time, and a commit costs far
more than the rows in it. Every write goes through the one connection, and
writes that arrive together share one transaction and one commit.

Where a commit runs depends on what it costs:

- ``synchronous=NORMAL`` (the default) in WAL mode writes a commit to the WAL
  without an fsync: a small transaction costs ~20 µs, less than handing it to a
  thread and waking trio again (~60 µs at the median; milliseconds at the tail
  when the trio thread keeps the GIL: ``bench/commit.py`` measures both). So a
  commit runs *on the trio thread*: the first ``commit`` of a scheduler tick
  waits one checkpoint, during which every other task that commits in that tick
  joins its group, then writes the group in one transaction (``_commit_inline``);
  unless no commit began within ``GATHER_SECONDS`` before it (a quiet server, where
  nobody would join): then it writes at once.
- Whatever may block for long runs on the writer thread instead: every commit
  under ``synchronous=FULL`` (an fsync each), WAL checkpoints (an fsync of the
  database; ``wal_autocheckpoint`` is off on the connection and the thread runs
  one every ``checkpoint_every`` commits, or sooner once the WAL file has grown past
  ``wal_limit`` bytes or a quarter of the disk's free space: ``wal_threshold``), reads
  (``run_in_writer``) and the
  fire-and-forget writes of ``submit_nowait``. The thread takes whatever has
  gathered on its ``queue`` (up to ``batch`` writes), runs it in one
  transaction, and wakes every waiting trio task with a *single*
  ``trio.from_thread.run_sync`` call.

The two never touch the connection at once, and writes keep their order: a
commit runs inline only while nothing is handed to the thread and not yet
done (``_in_thread``, counted on the trio thread, so it needs no lock); else
it queues behind what the thread holds.

A small disk heals by itself: ``journal_size_limit`` (``wal_limit``) shrinks the WAL
file back after each checkpoint, and when a write fails the store runs a TRUNCATE
checkpoint (at most one every ``heal_seconds``), which copies the WAL into the
database and empties the file, and tries the write once more. Without it a WAL that
had filled the disk stayed full: the checkpoint came only after ``checkpoint_every``
further commits, failed ones included, so a disk of a few MiB refused about four
writes in five.

``synchronous=NORMAL`` in WAL mode survives a killed process (the WAL is in the
OS's hands once a commit returns) but may lose the last commits in a power
cut; ``FULL`` survives that too at the price of an fsync per group.

The rows are the records: ``games`` holds seed, dealer and deck, ``actions``
holds one row per accepted action in order, so a game's record (the export
and the replay input) is one query away. What the game master set up sits
beside them: ``bots`` (seat reservations), ``games.paused`` and ``away``. ``snapshots``
holds each table's newest ``GameSnapshot``, a restart cache beside the record (a store
made before it gets the table empty, and its games are replayed as before). At
``load()`` a game with a snapshot has only the actions after it read; those before it
are read on first need (``StoredActions``, through ``read_now``), so a restart reads
as much whatever the games' length.

Schema changes are additive and applied at ``load()`` by ``migrate``: new tables
are ``CREATE TABLE IF NOT EXISTS``, new columns are added only when
``PRAGMA table_info`` lacks them, so a data directory made by any earlier
version opens, and opening it twice changes nothing. (No ``user_version``:
checking the columns themselves cannot disagree with what is there.)

A finished game's after-game analysis is kept in ``analyses`` (JSON text, one row a game,
``AnalysisKept``) and read only when asked for (``analysis``), never at ``load()``.

The chip ledger's tables live here too (``chip_*``), and its transactions are
writes like any other (``ChipsMoved``), so a game's end and its payout, or a new
name and its starting chips, commit in one SQL transaction: one writer per file.
"""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import math
import os
import queue
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar, assert_never, cast

import trio

from server.store import profile_sql, tournament_sql
from server.store.base import (
    ActionTaken,
    AnalysisKept,
    AwaySet,
    BotReserved,
    ChipsMoved,
    Entry,
    FinishedGame,
    GameEnded,
    GamePlayers,
    GameResult,
    GameSnapshot,
    GameStarted,
    HandShown,
    HeldActions,
    MasterSet,
    NameClaimed,
    NameExpired,
    NameSeen,
    OptionsSet,
    PauseSet,
    PlayedGame,
    Prize,
    SeatSet,
    StoredActions,
    StoredGame,
    StoredState,
    StoredTable,
    StoreError,
    StoreStatistics,
    TableClosed,
    TableCreated,
    TalkSaid,
    Tally,
    TournamentLogged,
    Write,
    now,
)
from server.store.datalock import DataDirLock

log = logging.getLogger("switchboard.store")

T = TypeVar("T")

#: How the store runs a read for a caller that needs it now (``SQLiteStore.read_now``).
ReadNow = Callable[[Callable[[sqlite3.Connection], Any]], Any]

SCHEMA = """
CREATE TABLE IF NOT EXISTS names (
    name TEXT PRIMARY KEY, display TEXT NOT NULL, salt BLOB NOT NULL, digest BLOB NOT NULL,
    created REAL NOT NULL);
CREATE TABLE IF NOT EXISTS tables (
    id INTEGER PRIMARY KEY, ruleset TEXT NOT NULL, seats INTEGER NOT NULL,
    options TEXT NOT NULL, creator TEXT, master TEXT, settings TEXT NOT NULL,
    closed INTEGER NOT NULL DEFAULT 0, created REAL NOT NULL);
CREATE TABLE IF NOT EXISTS seats (
    table_id INTEGER NOT NULL, seat INTEGER NOT NULL, name TEXT, token_hash BLOB,
    PRIMARY KEY (table_id, seat));
CREATE TABLE IF NOT EXISTS games (
    table_id INTEGER NOT NULL, game INTEGER NOT NULL, seed INTEGER NOT NULL,
    dealer INTEGER, deck TEXT, seq INTEGER NOT NULL, scores TEXT, started REAL NOT NULL, ended REAL,
    paused INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (table_id, game));
CREATE TABLE IF NOT EXISTS actions (
    table_id INTEGER NOT NULL, game INTEGER NOT NULL, idx INTEGER NOT NULL,
    seat INTEGER NOT NULL, notation TEXT NOT NULL,
    PRIMARY KEY (table_id, game, idx)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS talk (
    id INTEGER PRIMARY KEY, table_id INTEGER NOT NULL, name TEXT NOT NULL,
    text TEXT NOT NULL, at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS bots (
    table_id INTEGER NOT NULL, seat INTEGER NOT NULL, strategy TEXT NOT NULL,
    PRIMARY KEY (table_id, seat)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS shown (
    table_id INTEGER NOT NULL, game INTEGER NOT NULL, name TEXT NOT NULL, seat INTEGER NOT NULL,
    PRIMARY KEY (table_id, game, name)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS away (
    table_id INTEGER NOT NULL, game INTEGER NOT NULL, seat INTEGER NOT NULL,
    PRIMARY KEY (table_id, game, seat)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS snapshots (
    table_id INTEGER PRIMARY KEY, game INTEGER NOT NULL, actions INTEGER NOT NULL,
    seq INTEGER NOT NULL, data BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS chip_accounts (
    account TEXT PRIMARY KEY, balance INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS chip_txns (
    id INTEGER PRIMARY KEY, at REAL NOT NULL, reason TEXT NOT NULL, table_id INTEGER,
    game INTEGER);
CREATE TABLE IF NOT EXISTS chip_entries (
    txn INTEGER NOT NULL, account TEXT NOT NULL, delta INTEGER NOT NULL,
    balance INTEGER NOT NULL, PRIMARY KEY (account, txn)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS analyses (
    table_id INTEGER NOT NULL, game INTEGER NOT NULL, data TEXT NOT NULL,
    PRIMARY KEY (table_id, game)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS chip_prizes (
    table_id INTEGER PRIMARY KEY, funder TEXT NOT NULL, amount INTEGER NOT NULL, game INTEGER);
"""

#: Columns added after a table was first released: (table, column, its definition).
#: ``migrate`` adds each one an existing database lacks.
#: ``games.outcome``: finished or abandoned (NULL in rows ended before it was kept: the
#: replay tells). ``chip_txns.game`` and ``chip_prizes.game``: the game a prize is for.
#: ``snapshots.digest``: ``GameSnapshot.digest`` (NULL in older rows: those replay).
#: ``names.seen``: a name's last use (NULL: never seen since its claim, ``created``).
#: ``games.options``: the options a game was dealt with (NULL in games stored before they
#: were kept: those are replayed with their table's, as they were then).
ADDED_COLUMNS = (
    ("games", "paused", "INTEGER NOT NULL DEFAULT 0"),
    ("games", "outcome", "TEXT"),
    ("chip_txns", "game", "INTEGER"),
    ("chip_prizes", "game", "INTEGER"),
    ("snapshots", "digest", "BLOB"),
    ("names", "seen", "REAL"),
    ("games", "options", "TEXT"),
)


def migrate(conn: sqlite3.Connection) -> list[str]:
    """Bring a database of any earlier version up to ``SCHEMA``; the columns it added.

    Idempotent: run at every ``load()``; on a current database it does nothing."""
    conn.executescript(SCHEMA)  # new tables (IF NOT EXISTS)
    profile_sql.migrate(conn)
    tournament_sql.migrate(conn)
    added = []
    for table, column, definition in ADDED_COLUMNS:
        have = {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}
        if column not in have:
            conn.execute(f"ALTER TABLE {table} ADD COLUMN {column} {definition}")
            added.append(f"{table}.{column}")
    return added


class StoreDamaged(StoreError):
    """The database file cannot be opened or read (half-truncated, overwritten, not a
    database): the server does not start on it. The message is one line that says what
    to do, for ``switchboard serve`` to print instead of a traceback."""

    def __init__(self, path: Path, error: BaseException) -> None:
        super().__init__(
            f"the database {path} is damaged ({error}); not starting. Check it with"
            f" `switchboard audit --data {path.parent}` and restore it from a backup"
            " (see 'Back up and restore' in docs/operations.md)"
        )
        self.path = path


#: An inline commit waits a scheduler tick for others to join its transaction only if
#: the last one began less than this long before: commits that close together come from
#: many busy tables, and one transaction for many saves more than the tick costs; a
#: commit alone (a quiet server) is written at once, a tick sooner, for less CPU.
GATHER_SECONDS = 0.001

#: The WAL file's size past which it is checkpointed before ``checkpoint_every`` commits,
#: and to which it is shrunk back after each checkpoint (``journal_size_limit``); lower
#: on a disk with little room left (``wal_threshold``).
WAL_LIMIT = 4 * 1024 * 1024
#: The WAL is kept under this share of the disk's free space, so that the checkpoint,
#: which needs room in the database for what the WAL holds, always has it.
WAL_SHARE_OF_FREE = 4
#: ...but is never checkpointed below this size (a full disk: a checkpoint per commit).
WAL_MIN = 64 * 1024
#: Commits between two looks at the WAL file's size and the disk's free space (a
#: ``stat`` and a ``statvfs``: a few microseconds).
WAL_CHECK_EVERY = 16


def free_bytes(directory: Path) -> int | None:
    """The bytes an unprivileged writer may still use on ``directory``'s file system."""
    try:
        st = os.statvfs(directory)
    except OSError:
        return None
    return st.f_bavail * st.f_frsize


def wal_threshold(limit: int, free: int | None) -> int:
    """The WAL size past which to checkpoint: ``limit``, or a quarter of the disk's free
    space if that is less (never under ``WAL_MIN``).

    Why: a checkpoint copies the WAL's pages into the database, which grows by as much,
    before the WAL's own space can be reused; a WAL that holds more than the disk has
    left can never be checkpointed, and the store cannot heal. (On a 2 MiB disk the WAL
    grew to 1.6 MiB, with a database of one page, and stayed so.)

    >>> wal_threshold(4 << 20, None), wal_threshold(4 << 20, 1 << 20), wal_threshold(4 << 20, 0)
    (4194304, 262144, 65536)
    """
    if free is None:
        return limit
    return max(WAL_MIN, min(limit, free // WAL_SHARE_OF_FREE))


_STOP = object()


class _Done:
    """A commit's wait for its group to be written: one task, woken once, and never
    cancelled (a write handed to the store is waited for whatever happens meanwhile, so
    that nothing is done but not known stored). Cheaper than a ``trio.Event`` under a
    shielded cancel scope, which a commit per action paid for."""

    __slots__ = ("_set", "_task")

    def __init__(self) -> None:
        self._set = False
        self._task: trio.lowlevel.Task | None = None

    def set(self) -> None:
        self._set = True
        task, self._task = self._task, None
        if task is not None:
            trio.lowlevel.reschedule(task)

    async def wait(self) -> None:
        if self._set:
            await trio.lowlevel.cancel_shielded_checkpoint()
            return
        self._task = trio.lowlevel.current_task()
        await trio.lowlevel.wait_task_rescheduled(_refuse_abort)


def _refuse_abort(_raise_cancel: Any) -> trio.lowlevel.Abort:
    """A ``_Done`` wait cannot be cancelled: it ends when the group is written."""
    return trio.lowlevel.Abort.FAILED


class _Request:
    """Writes waiting for the writer; ``error`` is set if they could not be kept."""

    __slots__ = ("done", "error", "writes")

    def __init__(self, writes: tuple[Write, ...], done: _Done | None) -> None:
        self.writes = writes
        self.done = done
        self.error: BaseException | None = None


class _Call:
    """A function to run on the writer's connection between transactions (reads, tests,
    checkpoints)."""

    __slots__ = ("done", "error", "fn", "result")

    def __init__(self, fn: Callable[[sqlite3.Connection], Any], done: trio.Event | None) -> None:
        self.fn = fn
        self.done = done
        self.result: Any = None
        self.error: BaseException | None = None


class SQLiteStore:
    """``Store`` on one SQLite file. ``load()`` opens it; ``aclose()`` drains and closes.

    A write that fails (disk full, I/O error, a locked or read-only file) fails only
    the requests in it: their ``commit`` raises ``StoreError`` and the writer goes on
    with the next. A failed group is retried request by request, so one bad request
    never fails the others that shared its group. The log says so once when writes
    start failing and once when they succeed again (``healthy`` tells which)."""

    #: ``commit`` cannot be cancelled once called (``Store.commit``): its waits are ``_Done``
    uncancellable = True

    def __init__(
        self,
        path: Path | str,
        synchronous: str = "NORMAL",
        batch: int = 1024,
        checkpoint_every: int = 1000,
        inline: bool = True,
        wal_limit: int = WAL_LIMIT,
        heal_seconds: float = 1.0,
    ) -> None:
        if synchronous.upper() not in ("OFF", "NORMAL", "FULL", "EXTRA"):
            raise ValueError(f"sqlite synchronous must be NORMAL or FULL, not {synchronous!r}")
        self.path = Path(path)
        self._synchronous = synchronous.upper()
        self._batch = batch
        #: Commits run on the trio thread unless each costs an fsync (``inline=False``:
        #: every commit goes through the writer thread, as ``bench/commit.py`` compares).
        self._inline = inline and self._synchronous in ("OFF", "NORMAL")
        self._checkpoint_every = checkpoint_every
        self._since_checkpoint = 0  #: inline commits since the thread last checkpointed
        self._wal_limit = wal_limit
        self._wal_path = Path(f"{self.path}-wal")
        self._heal_seconds = heal_seconds
        self._healed_at = -math.inf  #: when the last TRUNCATE checkpoint was asked for
        self._thread_batches = 0  #: groups the writer thread has written (its WAL checks)
        self._conn: sqlite3.Connection | None = None
        #: Held by the writer thread while it uses the connection, and by ``read_now``:
        #: a read on the trio thread waits for the thread's transaction, never inside it.
        #: (Inline commits need no lock: they run only while the thread holds nothing.)
        self._using = threading.Lock()
        self._conn_closed = False
        #: Items handed to the writer thread whose wake has not run yet: while it is
        #: not 0 the thread may be using the connection, so nothing commits inline.
        self._in_thread = 0
        self._group: list[_Request] = []  #: requests joining this tick's inline commit
        self._last_inline = -math.inf  #: when the last inline group began (``GATHER_SECONDS``)
        self._queue: queue.SimpleQueue[object] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._token: trio.lowlevel.TrioToken | None = None
        self._closed = trio.Event()
        self._writes = 0
        self._commits = 0
        self._largest = 0
        self._queued = 0
        self._lock = DataDirLock(self.path.parent)
        self.healthy = True  #: the last write succeeded
        self.failed_writes = 0  #: requests refused since start

    # ------------------------------------------------------------ loading
    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute(f"PRAGMA synchronous={self._synchronous}")
        conn.execute("PRAGMA foreign_keys=OFF")
        conn.execute(f"PRAGMA journal_size_limit={int(self._wal_limit)}")
        if self._inline:  # checkpoints fsync: the writer thread runs them, not a commit
            conn.execute("PRAGMA wal_autocheckpoint=0")
        return conn

    def load(self) -> StoredState:
        """Create the schema if needed, read names, open tables and the ledger, start the
        writer. Must be called from inside the trio run (the writer wakes trio tasks).

        First of all it locks the data directory (``DataDirLocked`` if another server
        holds it), so a second server touches nothing of a live one's."""
        self._lock.acquire()
        try:
            conn = self._connect()
            migrate(conn)
            state = read_state(conn, self.read_now)
        except sqlite3.DatabaseError as exc:  # a damaged or foreign file: say what to do
            self._lock.release()
            raise StoreDamaged(self.path, exc) from exc
        except BaseException:
            self._lock.release()
            raise
        self._token = trio.lowlevel.current_trio_token()
        self._conn = conn
        self._thread = threading.Thread(
            target=self._writer, args=(conn,), name="switchboard-store", daemon=True
        )
        self._thread.start()
        return state

    # ------------------------------------------------------------ writing
    async def commit(self, *writes: Write) -> None:
        self._queued += len(writes)
        if self._inline and not self._in_thread:
            request = _Request(writes, None)
            self._group.append(request)
            if len(self._group) == 1:  # the first this tick: the others join, then it writes
                now = time.monotonic()
                if now - self._last_inline < GATHER_SECONDS:  # others are likely to join
                    await trio.lowlevel.cancel_shielded_checkpoint()
                self._last_inline = now
                group, self._group = self._group, []
                if self._in_thread:  # the thread took work meanwhile: queue behind it
                    await self._hand_to_thread(group)
                else:
                    self._commit_inline(group)
            else:
                request.done = _Done()
                await request.done.wait()
        else:
            request = _Request(writes, _Done())
            await self._hand_to_thread([request])
        if request.error is not None:
            raise StoreError(f"the store could not keep a write: {request.error}")

    async def _hand_to_thread(self, requests: list[_Request]) -> None:
        """Queue ``requests`` for the writer thread, in order, and wait until each is
        done (each has its own ``_Done``, which no cancellation ends early)."""
        self._in_thread += len(requests)
        for request in requests:
            if request.done is None:
                request.done = _Done()
            self._queue.put(request)
        for request in requests:
            assert request.done is not None
            await request.done.wait()

    def _commit_inline(self, group: list[_Request]) -> None:
        """Write ``group`` in one transaction on this (the trio) thread and wake the
        requests waiting on it. The writer thread is idle (``_in_thread`` is 0)."""
        assert self._conn is not None
        count = sum(len(r.writes) for r in group)
        failed = self._write_group(self._conn, group, count)
        self._queued -= count
        for request in group:
            if request.done is not None:
                request.done.set()
        self._since_checkpoint += 1
        due = self._since_checkpoint >= self._checkpoint_every or (
            self._since_checkpoint % WAL_CHECK_EVERY == 0 and self._wal_too_big()
        )
        if due and not failed:  # after a failure ``_write_group`` has checkpointed already
            self._since_checkpoint = 0
            self._in_thread += 1
            self._queue.put(_Call(_checkpoint, None))

    def _heal_due(self) -> bool:
        """Whether a failed write should be followed by a TRUNCATE checkpoint and one
        retry now: at once if the last such retry succeeded, else at most once every
        ``heal_seconds``, since on a disk that stays full each attempt fails again (and
        the checkpoint's fsync runs where the write did, on the trio thread for an
        inline commit)."""
        at = time.monotonic()
        if at - self._healed_at < self._heal_seconds:
            return False
        self._healed_at = at
        return True

    def _wal_too_big(self) -> bool:
        """Whether the WAL has grown past ``wal_threshold`` (the disk's room counted)."""
        size = self._wal_bytes()
        if size <= WAL_MIN:
            return False
        return size > wal_threshold(self._wal_limit, free_bytes(self.path.parent))

    def _wal_bytes(self) -> int:
        """The WAL file's size now (0 if there is none)."""
        try:
            return self._wal_path.stat().st_size
        except OSError:
            return 0

    def submit_nowait(self, *writes: Write) -> None:
        self._queued += len(writes)
        self._in_thread += 1
        self._queue.put(_Request(writes, None))

    def read_now(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """``fn(connection)`` at once, on the calling (trio) thread, between two of the
        writer thread's transactions: for a small read a synchronous caller needs now
        (a restored game's actions before its snapshot, ``StoredActions``). It waits for
        what the thread is writing, not for the queue behind it. ``StoreError`` if the
        store is closed or the read fails."""
        with self._using:
            if self._conn is None or self._conn_closed:
                raise StoreError("the store could not read: it is closed")
            try:
                return fn(self._conn)
            except sqlite3.Error as exc:
                raise StoreError(f"the store could not read: {exc}") from exc

    async def run_in_writer(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """``fn(connection)`` on the writer's thread and connection, between two
        transactions; its result. For reads that must see every commit before them
        (a statement) and for tests (a ``PRAGMA`` that makes writes fail)."""
        done = trio.Event()
        call = _Call(fn, done)
        self._in_thread += 1
        self._queue.put(call)
        await done.wait()
        if call.error is not None:
            raise StoreError(f"the store could not read: {call.error}")
        return cast(T, call.result)  # what ``fn`` returned (``_Call`` holds any result)

    async def statement(self, account: str, limit: int) -> list[Entry]:
        def read(conn: sqlite3.Connection) -> list[Entry]:
            rows = conn.execute(
                "SELECT e.txn, t.at, t.reason, t.table_id, e.delta, e.balance"
                " FROM chip_entries e JOIN chip_txns t ON t.id = e.txn"
                " WHERE e.account = ? ORDER BY e.txn DESC LIMIT ?",
                (account, limit),
            ).fetchall()
            return [Entry(*row) for row in rows]

        return await self.run_in_writer(read)

    async def analysis(self, table: int, game: int) -> str | None:
        def read(conn: sqlite3.Connection) -> str | None:
            row = conn.execute(
                "SELECT data FROM analyses WHERE table_id = ? AND game = ?", (table, game)
            ).fetchone()
            return None if row is None else str(row[0])

        return await self.run_in_writer(read)

    async def finished_game(self, table: int, game: int) -> FinishedGame | None:
        return await self.run_in_writer(lambda conn: _finished_game(conn, table, game))

    # ------------------------------------------------------------ profiles
    async def history(self, player: str, start: int, limit: int) -> tuple[list[PlayedGame], int]:
        return await self.run_in_writer(lambda c: profile_sql.history(c, player, start, limit))

    async def tallies(self, player: str) -> list[Tally]:
        return await self.run_in_writer(lambda conn: profile_sql.tallies(conn, player))

    async def finished_any(self, players: Sequence[str]) -> set[str]:
        def read(conn: sqlite3.Connection) -> set[str]:
            found: set[str] = set()
            wanted = list(players)
            for i in range(0, len(wanted), 500):  # within SQLite's limit on parameters
                chunk = wanted[i : i + 500]
                marks = ", ".join("?" * len(chunk))
                found.update(
                    p for (p,) in conn.execute(
                        f"SELECT DISTINCT player FROM tallies WHERE player IN ({marks})", chunk
                    )
                )  # fmt: skip
            return found

        return await self.run_in_writer(read)

    async def aclose(self) -> None:
        if self._thread is None:
            return
        while self._group:  # this tick's inline group is written first
            await trio.lowlevel.checkpoint()
        self._in_thread += 1  # the thread closes the connection: nothing commits inline
        self._queue.put(_STOP)
        await self._closed.wait()
        self._thread = None

    def statistics(self) -> StoreStatistics:
        return StoreStatistics(self._writes, self._commits, self._queued, self._largest)

    def _writer(self, conn: sqlite3.Connection) -> None:
        """The writer thread: gather, write in one transaction, commit, wake everyone once."""
        stopping = False
        try:
            while not stopping:
                batch: list[_Request] = []
                count = 0
                item = self._queue.get()
                while True:
                    if item is _STOP:
                        stopping = True
                    elif isinstance(item, _Call):
                        if batch:  # the writes queued before it first
                            self._write_batch(conn, batch, count)
                            batch, count = [], 0
                        self._call(conn, item)
                    else:
                        assert isinstance(item, _Request)
                        batch.append(item)
                        count += len(item.writes)
                    if count >= self._batch or stopping:
                        break
                    try:
                        item = self._queue.get_nowait()
                    except queue.Empty:
                        break
                if batch:
                    self._write_batch(conn, batch, count)
        finally:
            with self._using:
                conn.close()
                self._conn_closed = True
            self._lock.release()
            self._wake([self._closed], 0, 0)

    def _write_batch(self, conn: sqlite3.Connection, batch: list[_Request], count: int) -> None:
        """The writer thread's group: written, then its waiters woken (in one hop)."""
        with self._using:  # released before the wake, which waits for the trio thread
            failed = self._write_group(conn, batch, count)
            self._thread_batches += 1
            if not failed and self._thread_batches % WAL_CHECK_EVERY == 0 and self._wal_too_big():
                try:  # on this thread already: no need to queue it
                    _checkpoint(conn)
                except sqlite3.Error as exc:
                    log.debug("a WAL checkpoint failed: %s", exc)
        self._wake([r.done for r in batch if r.done is not None], count, len(batch))

    def _write_group(self, conn: sqlite3.Connection, batch: list[_Request], count: int) -> bool:
        """One transaction for the whole group; if it fails, one for each request
        (so one bad request never fails the others). Each request's ``error`` is set;
        whether any failed."""
        writes = [w for r in batch for w in r.writes]
        error = _transaction(conn, writes)
        if error is not None and self._heal_due():  # the WAL may hold the space it needs
            _heal(conn)
            error = _transaction(conn, writes)
            if error is None:  # it was the WAL: the next time it fills, heal at once again
                self._healed_at = -math.inf
        if error is not None and len(batch) > 1:
            for request in batch:
                request.error = _transaction(conn, request.writes)
        else:
            for request in batch:
                request.error = error
        failed = [r for r in batch if r.error is not None]
        self._health(failed)
        self._writes += count
        self._commits += 1
        self._largest = max(self._largest, count)
        return bool(failed)

    def _health(self, failed: list[_Request]) -> None:
        """Log the change between writes failing and writes succeeding, once each way."""
        if failed:
            self.failed_writes += len(failed)
            if self.healthy:
                self.healthy = False
                log.error(
                    "store writes are failing (%s): the requests that need them are refused"
                    " and their tables wait; writes are retried as requests come",
                    failed[0].error,
                )
        elif not self.healthy:
            self.healthy = True
            log.warning(
                "store writes succeed again (%d requests were refused meanwhile)",
                self.failed_writes,
            )

    def _call(self, conn: sqlite3.Connection, call: _Call) -> None:
        try:
            with self._using:
                call.result = call.fn(conn)
        except Exception as exc:
            call.error = exc
            if call.done is None:  # nobody waits for a checkpoint: the log hears of it
                # (once: while writes fail, the failure itself is what the log says)
                level = logging.WARNING if self.healthy else logging.DEBUG
                log.log(level, "a WAL checkpoint failed: %s", exc)
        self._wake([] if call.done is None else [call.done], 0, 1)

    def _wake(self, events: list[trio.Event | _Done], count: int, items: int) -> None:
        """On the trio thread: ``items`` queue items are done (the connection is the
        trio thread's again once none is left); their waiters run."""

        def wake_all() -> None:
            self._queued -= count
            self._in_thread -= items
            for e in events:
                e.set()

        with contextlib.suppress(trio.RunFinishedError):  # the server is gone: nobody waits
            trio.from_thread.run_sync(wake_all, trio_token=self._token)


def _checkpoint(conn: sqlite3.Connection) -> None:
    """Copy the WAL into the database as far as readers allow (never waits for them)."""
    conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()


def _truncate_checkpoint(conn: sqlite3.Connection) -> None:
    """Copy the whole WAL into the database and empty the WAL file: the space a full
    disk needs back. Fails (logged) while the database itself cannot grow, or while a
    reader (a backup) still needs the WAL; the next failing write asks again."""
    (busy, _frames, _done) = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    if busy:
        raise sqlite3.OperationalError("a reader holds the WAL: not emptied this time")


def _heal(conn: sqlite3.Connection) -> None:
    """``_truncate_checkpoint`` after a failed write, on the writer thread; a failure is
    logged (at debug: the write failures themselves are logged once)."""
    try:
        _truncate_checkpoint(conn)
    except sqlite3.Error as exc:
        log.debug("the WAL could not be emptied after a failed write: %s", exc)


def _transaction(
    conn: sqlite3.Connection, writes: list[Write] | tuple[Write, ...]
) -> Exception | None:
    """Run ``writes`` as one transaction; the error that rolled it back, if any."""
    try:
        conn.execute("BEGIN IMMEDIATE")
        for w in writes:
            _execute(conn, w)
        conn.execute("COMMIT")
    except Exception as exc:
        if conn.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
        return exc
    return None


def read_state(conn: sqlite3.Connection, read_now: ReadNow | None = None) -> StoredState:
    """Everything the server keeps, read from an open (migrated) database: what
    ``base.apply_write`` makes of the writes ``_execute`` stored (a test builds random
    histories of every class of write and holds the two states equal).

    With ``read_now`` (how the store reads later, on the trio thread), a game with a
    snapshot has only the actions after it read now; those it holds are read through
    ``read_now`` when first needed (``StoredActions``). Without it, every action is read."""
    state = StoredState()
    for name, display, salt, digest, seen in conn.execute(
        "SELECT name, display, salt, digest, COALESCE(seen, created) FROM names"
    ):
        state.names[name] = (display, bytes(salt), bytes(digest))
        state.name_seen[name] = seen
    (top,) = conn.execute("SELECT COALESCE(MAX(id), 0) FROM tables").fetchone()
    state.next_table = top + 1
    for row in conn.execute(
        "SELECT id, ruleset, seats, options, creator, master, settings FROM tables"
        " WHERE closed = 0 ORDER BY id"
    ).fetchall():
        tid, ruleset, seats, options, creator, master, settings = row
        t = StoredTable(
            tid,
            ruleset,
            seats,
            json.loads(options),
            creator,
            json.loads(settings),
            master=master,
            seat_names=[None] * seats,
            token_hashes=[None] * seats,
        )
        for seat, name, token_hash in conn.execute(
            "SELECT seat, name, token_hash FROM seats WHERE table_id = ?", (tid,)
        ):
            t.seat_names[seat] = name
            t.token_hashes[seat] = None if token_hash is None else bytes(token_hash)
        t.bots = dict(conn.execute("SELECT seat, strategy FROM bots WHERE table_id = ?", (tid,)))
        g = conn.execute(
            "SELECT game, seed, dealer, deck, seq, ended, paused, outcome, options FROM games"
            " WHERE table_id = ? ORDER BY game DESC LIMIT 1",
            (tid,),
        ).fetchone()
        if g is not None:
            number, seed, dealer, deck, seq, ended, paused, outcome, dealt = g
            snap = conn.execute(
                "SELECT actions, seq, data, digest FROM snapshots WHERE table_id = ? AND game = ?",
                (tid, number),
            ).fetchone()
            actions = _read_actions(conn, tid, number, None if snap is None else snap[0], read_now)
            t.game = StoredGame(
                number,
                seed,
                dealer,
                None if deck is None else json.loads(deck),
                seq,
                actions,
                over=ended is not None,
                outcome=outcome,
                paused=bool(paused),
                options=None if dealt is None else json.loads(dealt),
                away={
                    seat
                    for (seat,) in conn.execute(
                        "SELECT seat FROM away WHERE table_id = ? AND game = ?", (tid, number)
                    )
                },
                shown=dict(
                    conn.execute(
                        "SELECT name, seat FROM shown WHERE table_id = ? AND game = ?",
                        (tid, number),
                    )
                ),
            )
            if snap is not None:
                digest = None if snap[3] is None else bytes(snap[3])
                t.game.snapshot = GameSnapshot(
                    tid, number, snap[0], snap[1], bytes(snap[2]), digest
                )
        state.tables[tid] = t
    ledger = state.ledger
    ledger.balances = dict(conn.execute("SELECT account, balance FROM chip_accounts"))
    for table, funder, amount, game in conn.execute(
        "SELECT table_id, funder, amount, game FROM chip_prizes"
    ):
        ledger.prizes[table] = Prize(table, funder, amount, game)
    (top,) = conn.execute("SELECT COALESCE(MAX(id), 0) FROM chip_txns").fetchone()
    ledger.next_txn = top + 1
    state.profiles = profile_sql.read(conn)
    state.tournaments = tournament_sql.read(conn)
    return state


def _read_actions(
    conn: sqlite3.Connection, table: int, game: int, held: int | None, read_now: ReadNow | None
) -> list[list[Any]] | StoredActions:
    """Game ``game`` of ``table``'s actions: with a snapshot of its first ``held`` (and
    ``read_now``), only those after it, the rest left to ``StoredActions`` to read when
    first needed; else, or if the rows do not join the snapshot as they must (the row
    before it and every one after it, in order), all of them, so that the restore finds
    whatever is wrong exactly as a full read would."""
    if held is not None and held > 0 and read_now is not None:
        rows = conn.execute(
            "SELECT idx, seat, notation FROM actions WHERE table_id = ? AND game = ?"
            " AND idx >= ? ORDER BY idx",
            (table, game, held - 1),
        ).fetchall()
        if rows and [r[0] for r in rows] == list(range(held - 1, held - 1 + len(rows))):
            before = functools.partial(_actions_before, table=table, game=game, held=held)
            return StoredActions(
                HeldActions(held, lambda: read_now(before)),
                [[seat, notation] for _, seat, notation in rows[1:]],
            )
    return [
        [seat, notation]
        for seat, notation in conn.execute(
            "SELECT seat, notation FROM actions WHERE table_id = ? AND game = ? ORDER BY idx",
            (table, game),
        )
    ]


def _finished_game(conn: sqlite3.Connection, table: int, game: int) -> FinishedGame | None:
    """Game ``game`` of ``table`` with its whole record, if it is over: with the options
    it was dealt with (its table's, for a game stored before those were kept)."""
    row = conn.execute(
        "SELECT t.ruleset, t.seats, COALESCE(g.options, t.options), g.seed, g.dealer, g.deck"
        " FROM games g"
        " JOIN tables t ON t.id = g.table_id"
        " WHERE g.table_id = ? AND g.game = ? AND g.ended IS NOT NULL",
        (table, game),
    ).fetchone()
    if row is None:
        return None
    ruleset, seats, options, seed, dealer, deck = row
    record = {
        "ruleset": ruleset, "seats": seats, "seed": seed, "options": json.loads(options),
        "dealer": dealer, "deck": None if deck is None else json.loads(deck),
        "actions": _read_actions(conn, table, game, None, None),
    }  # fmt: skip
    shown = conn.execute(
        "SELECT shown FROM results WHERE table_id = ? AND game = ?", (table, game)
    ).fetchone()
    names = () if shown is None else tuple(json.loads(shown[0]))
    return FinishedGame(table, game, record, names)


def _actions_before(
    conn: sqlite3.Connection, *, table: int, game: int, held: int
) -> list[list[Any]]:
    """The first ``held`` actions of game ``game`` of ``table``, in order."""
    return [
        [seat, notation]
        for seat, notation in conn.execute(
            "SELECT seat, notation FROM actions WHERE table_id = ? AND game = ? AND idx < ?"
            " ORDER BY idx",
            (table, game, held),
        )
    ]


def _execute(conn: sqlite3.Connection, w: Write) -> None:  # noqa: C901 (one case a write)
    """One write as SQL. Its meaning is ``base.apply_write``, and ``read_state`` reads it
    back; a test holds the three equal. The match ends in ``assert_never``: a write not
    taught here fails the type check. (The most frequent writes come first.)"""
    match w:
        case ActionTaken():
            conn.execute(
                "INSERT INTO actions (table_id, game, idx, seat, notation) VALUES (?, ?, ?, ?, ?)",
                (w.table, w.game, w.index, w.seat, w.notation),
            )
        case GameSnapshot():
            conn.execute(
                "INSERT OR REPLACE INTO snapshots (table_id, game, actions, seq, data, digest)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (w.table, w.game, w.actions, w.seq, w.data, w.digest),
            )
        case TalkSaid():
            conn.execute(
                "INSERT INTO talk (table_id, name, text, at) VALUES (?, ?, ?, ?)",
                (w.table, w.name, w.text, w.at),
            )
        case AnalysisKept():
            conn.execute(
                "INSERT OR REPLACE INTO analyses (table_id, game, data) VALUES (?, ?, ?)",
                (w.table, w.game, w.data),
            )
        case SeatSet():
            conn.execute(
                "INSERT OR REPLACE INTO seats (table_id, seat, name, token_hash)"
                " VALUES (?, ?, ?, ?)",
                (w.table, w.seat, w.name, w.token_hash),
            )
        case GameStarted():
            conn.execute(
                "INSERT INTO games (table_id, game, seed, dealer, deck, seq, started, options)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    w.table,
                    w.game,
                    w.seed,
                    w.dealer,
                    None if w.deck is None else json.dumps(w.deck),
                    w.seq,
                    now(),
                    None if w.options is None else json.dumps(w.options),
                ),
            )
        case GameEnded():
            conn.execute(
                "UPDATE games SET ended = ?, scores = ?, outcome = ?"
                " WHERE table_id = ? AND game = ?",
                (now(), json.dumps(w.scores), w.outcome, w.table, w.game),
            )
        case ChipsMoved():
            _execute_chips(conn, w)
        case TableCreated():
            conn.execute(
                "INSERT INTO tables"
                " (id, ruleset, seats, options, creator, master, settings, created)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    w.table,
                    w.ruleset,
                    w.seats,
                    json.dumps(w.options),
                    w.creator,
                    w.creator,
                    json.dumps(w.settings),
                    now(),
                ),
            )
        case MasterSet():
            conn.execute("UPDATE tables SET master = ? WHERE id = ?", (w.master, w.table))
        case OptionsSet():
            conn.execute(
                "UPDATE tables SET options = ?, settings = ? WHERE id = ?",
                (json.dumps(w.options), json.dumps(w.settings), w.table),
            )
        case TableClosed():
            conn.execute("UPDATE tables SET closed = 1 WHERE id = ?", (w.table,))
        case NameClaimed():
            conn.execute(
                "INSERT INTO names (name, display, salt, digest, created) VALUES (?, ?, ?, ?, ?)",
                (w.name, w.display, w.salt, w.digest, w.at),
            )
        case NameSeen():
            conn.execute("UPDATE names SET seen = ? WHERE name = ?", (w.at, w.name))
        case NameExpired():
            conn.execute("DELETE FROM names WHERE name = ?", (w.name,))
            conn.execute(
                "DELETE FROM chip_accounts WHERE account = ? AND balance = 0", (w.display,)
            )
        case BotReserved():
            if w.strategy is None:
                conn.execute("DELETE FROM bots WHERE table_id = ? AND seat = ?", (w.table, w.seat))
            else:
                conn.execute(
                    "INSERT OR REPLACE INTO bots (table_id, seat, strategy) VALUES (?, ?, ?)",
                    (w.table, w.seat, w.strategy),
                )
        case PauseSet():
            conn.execute(
                "UPDATE games SET paused = ? WHERE table_id = ? AND game = ?",
                (int(w.paused), w.table, w.game),
            )
        case HandShown():
            conn.execute(
                "INSERT OR IGNORE INTO shown (table_id, game, name, seat) VALUES (?, ?, ?, ?)",
                (w.table, w.game, w.name, w.seat),
            )
        case AwaySet():
            if w.away:
                conn.execute(
                    "INSERT OR IGNORE INTO away (table_id, game, seat) VALUES (?, ?, ?)",
                    (w.table, w.game, w.seat),
                )
            else:
                conn.execute(
                    "DELETE FROM away WHERE table_id = ? AND game = ? AND seat = ?",
                    (w.table, w.game, w.seat),
                )
        case GamePlayers() | GameResult():
            profile_sql.execute(conn, w)
        case TournamentLogged():
            tournament_sql.execute(conn, w)
        case _:
            assert_never(w)


def _execute_chips(conn: sqlite3.Connection, txn: ChipsMoved) -> None:
    """A ledger transaction: its row, its entries, the new balances, the table's prize."""
    conn.execute(
        "INSERT INTO chip_txns (id, at, reason, table_id, game) VALUES (?, ?, ?, ?, ?)",
        (txn.id, txn.at, txn.reason, txn.table, txn.game),
    )
    after = dict(txn.balances)
    conn.executemany(
        "INSERT INTO chip_entries (txn, account, delta, balance) VALUES (?, ?, ?, ?)",
        [(txn.id, a, d, after[a]) for a, d in txn.postings],
    )
    conn.executemany(
        "INSERT OR REPLACE INTO chip_accounts (account, balance) VALUES (?, ?)", txn.balances
    )
    if txn.table is not None:
        if txn.prize_after is None:
            conn.execute("DELETE FROM chip_prizes WHERE table_id = ?", (txn.table,))
        else:
            p = txn.prize_after
            conn.execute(
                "INSERT OR REPLACE INTO chip_prizes (table_id, funder, amount, game)"
                " VALUES (?, ?, ?, ?)",
                (p.table, p.funder, p.amount, p.game),
            )
