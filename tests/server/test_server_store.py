"""The store: SQLite means exactly what ``apply_write`` says, commits in groups, and
loses nothing queued when it is closed."""

from __future__ import annotations

import math
import random
import sqlite3
import threading

import trio
import trio.testing

from server.store.base import (
    ActionTaken,
    AwaySet,
    BotReserved,
    GameEnded,
    GamePlayers,
    GameResult,
    GameSnapshot,
    GameStarted,
    HandShown,
    MasterSet,
    MemoryStore,
    NameClaimed,
    PauseSet,
    Rating,
    SeatSet,
    StoreError,
    TableClosed,
    TableCreated,
    TalkSaid,
)
from server.store.sqlite import SQLiteStore


def history(rng: random.Random) -> list:
    """A plausible history touching every kind of write."""
    out: list = [NameClaimed("ann", "Ann", b"s" * 16, b"d" * 32)]
    for t in range(1, 6):
        out.append(
            TableCreated(t, "kilodney", 4, {"target": 50}, "Ann", {"start_when_full": t % 2 == 0})
        )
        for seat in range(4):
            if rng.random() < 0.7:
                out.append(SeatSet(t, seat, f"p{seat}", bytes([seat]) * 32))
        for game in range(1, rng.randrange(1, 4)):
            out.append(GameStarted(t, game, rng.randrange(2**62), None, None, game * 100))
            players = ("p0", "p1", "bot:random", "p3")
            out.append(GamePlayers(t, game, players, players, rng.random() < 0.5))
            for i in range(rng.randrange(0, 30)):
                out.append(ActionTaken(t, game, i, rng.randrange(4), f"play {i}H"))
                if rng.random() < 0.2:  # a restart snapshot with the action it follows
                    out.append(GameSnapshot(t, game, i + 1, game * 100 + 2 * i, bytes([i]) * 9))
            if rng.random() < 0.6:
                out.append(GameEnded(t, game, [1, 2, 3, 4]))
                rated = (Rating("p0", "kilodney", "P0", 20.0 + game, 7.0, game),)
                out.append(GameResult(t, game, "kilodney", "kilodney", True, 1.0, players,
                                      players, (1, 2, 3, 4), (3, 2, 1, 0), rated))  # fmt: skip
        out.append(SeatSet(t, 0, None, None))
        out.append(MasterSet(t, "p1"))
        out.append(TalkSaid(t, "p1", "hello there", 1.0))
        for seat in range(4):  # the game master's setup (kept across restarts)
            if rng.random() < 0.5:
                out.append(BotReserved(t, seat, rng.choice(["search", "random"])))
        out.append(BotReserved(t, 0, None))
        last = sum(isinstance(w, GameStarted) and w.table == t for w in out)
        if last:
            out.append(PauseSet(t, last, True))
            out.append(PauseSet(t, last, rng.random() < 0.5))
            for seat in range(4):
                out.append(AwaySet(t, last, seat, rng.random() < 0.6))
            out.append(AwaySet(t, last, 1, False))
            for seat in range(4):  # who was shown which hand (the first seat a name held)
                out.append(HandShown(t, last, seat, f"p{seat}"))
            out.append(HandShown(t, last, 2, "p0"))
    out.append(TableClosed(3))
    return out


async def test_sqlite_loads_what_the_writes_mean(tmp_path):
    setups: list[tuple[bool, bool]] = []  # (bots reserved, a paused game with away seats)
    for seed in range(3):
        writes = history(random.Random(seed))
        memory = MemoryStore()
        memory.submit_nowait(*writes)
        store = SQLiteStore(tmp_path / f"s{seed}.sqlite3")
        store.load()
        for w in writes:  # in several commits, as a server would
            await store.commit(w)
        await store.aclose()
        again = SQLiteStore(tmp_path / f"s{seed}.sqlite3")
        loaded = again.load()
        # the actions a snapshot holds are read when first compared, through the open store
        assert loaded.tables == memory.state.tables
        await again.aclose()
        assert loaded.names == memory.state.names
        assert loaded.profiles == memory.state.profiles
        for player in ("p0", "bot:random"):
            assert await again_history(tmp_path / f"s{seed}.sqlite3", player) == (
                await memory.history(player, 1, 3),
                await memory.tallies(player),
            )
        assert 3 not in loaded.tables and loaded.next_table == 6
        setups += [
            (bool(t.bots), bool(t.game and t.game.paused and t.game.away and t.game.shown))
            for t in loaded.tables.values()
        ]
    assert any(bots for bots, _ in setups) and any(kept for _, kept in setups)  # not vacuous
    assert any(t.game and t.game.snapshot for t in loaded.tables.values())


async def again_history(path, player):
    """A page of ``player``'s history and his tallies, as a reopened SQLite store reads them."""
    store = SQLiteStore(path)
    store.load()
    try:
        return await store.history(player, 1, 3), await store.tallies(player)
    finally:
        await store.aclose()


async def test_concurrent_commits_share_transactions(tmp_path):
    store = SQLiteStore(tmp_path / "g.sqlite3")
    store.load()
    await store.commit(TableCreated(1, "abbott", 4, {}, None, {}))
    await store.commit(GameStarted(1, 1, 5, None, None, 1))

    async def act(i: int) -> None:
        await store.commit(TalkSaid(1, "x", str(i), 0.0))

    async with trio.open_nursery() as nursery:
        for i in range(300):
            nursery.start_soon(act, i)
    stats = store.statistics()
    assert stats.writes == 302 and stats.commits < 150 and stats.largest_batch > 2
    # talk submitted without waiting is still written by the time the store is closed
    for i in range(50):
        store.submit_nowait(TalkSaid(1, "y", str(i), 0.0))
    await store.aclose()
    conn = sqlite3.connect(tmp_path / "g.sqlite3")
    assert conn.execute("SELECT COUNT(*) FROM talk").fetchone() == (350,)
    assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)


def rows(path, sql: str) -> list:
    """``sql`` read by a connection of its own (what is committed, as another reader sees it)."""
    conn = sqlite3.connect(path)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


async def test_a_commit_runs_on_the_trio_thread_unless_synchronous_full(tmp_path):
    """Under ``synchronous=NORMAL`` a commit (no fsync) is written by the trio thread
    itself, without a hop to the writer thread and back; under ``FULL`` (an fsync
    each) by the writer thread, so that no table waits for a disk."""
    for synchronous, inline in (("NORMAL", True), ("FULL", False)):
        path = tmp_path / f"{synchronous}.sqlite3"
        store = SQLiteStore(path, synchronous=synchronous)
        store.load()
        writers: list[int] = []

        def trace(conn: sqlite3.Connection, seen: list[int] = writers) -> None:
            conn.set_trace_callback(
                lambda sql: seen.append(threading.get_ident()) if "actions" in sql else None
            )

        await store.run_in_writer(trace)
        for i in range(3):
            await store.commit(ActionTaken(1, 1, i, 0, "draw"))
        await store.aclose()
        assert len(writers) == 3
        assert all((w == threading.get_ident()) is inline for w in writers), synchronous


async def test_a_commit_keeps_its_place_behind_what_the_thread_holds(tmp_path):
    """A commit never runs ahead of what was handed to the writer thread before it: while
    the thread is busy, a commit queues behind it (and behind talk queued meanwhile)."""
    path = tmp_path / "o.sqlite3"
    store = SQLiteStore(path)
    store.load()
    gate = threading.Event()
    done = trio.Event()

    async def commit() -> None:
        await store.commit(ActionTaken(1, 1, 0, 0, "draw"))
        done.set()

    async with trio.open_nursery() as nursery:
        nursery.start_soon(store.run_in_writer, lambda conn: gate.wait(30))  # the thread busy
        await trio.testing.wait_all_tasks_blocked()
        store.submit_nowait(TalkSaid(1, "x", "first", 0.0))
        nursery.start_soon(commit)
        await trio.testing.wait_all_tasks_blocked()
        assert not done.is_set()  # it waits its turn: not written inline past the thread
        assert rows(path, "SELECT COUNT(*) FROM actions") == [(0,)]
        gate.set()
        await done.wait()
        assert rows(path, "SELECT COUNT(*) FROM talk") == [(1,)]
        assert rows(path, "SELECT COUNT(*) FROM actions") == [(1,)]
    await store.aclose()


async def test_inline_commits_leave_checkpoints_to_the_writer_thread(tmp_path):
    """No commit runs a checkpoint (an fsync) on the trio thread; the writer thread runs one
    every ``checkpoint_every`` commits, so the WAL is copied into the database and stays
    bounded."""

    async def database_bytes_after(commits: int, checkpoint_every: int) -> int:
        path = tmp_path / f"c{checkpoint_every}.sqlite3"
        store = SQLiteStore(path, checkpoint_every=checkpoint_every)
        store.load()
        start = path.stat().st_size
        for i in range(commits):
            await store.commit(ActionTaken(1, 1, i, 0, "play " + "x" * 2000))
        await store.run_in_writer(lambda conn: None)  # the thread has done what it was given
        assert await store.run_in_writer(
            lambda conn: conn.execute("PRAGMA wal_autocheckpoint").fetchone()
        ) == (0,)
        grown = path.stat().st_size - start
        await store.aclose()
        return grown

    assert await database_bytes_after(40, checkpoint_every=10**6) == 0  # all still in the WAL
    assert await database_bytes_after(40, checkpoint_every=20) > 40 * 2000  # copied over


async def test_a_failed_inline_group_fails_only_its_bad_request(tmp_path):
    """Commits of one tick share a transaction on the trio thread; one that cannot be
    kept (a duplicate key here) is refused alone, and the others are stored."""
    path = tmp_path / "f.sqlite3"
    store = SQLiteStore(path)
    store.load()
    await store.commit(ActionTaken(1, 1, 0, 0, "draw"))
    outcomes: dict[int, str] = {}

    async def commit(i: int) -> None:
        try:
            await store.commit(ActionTaken(1, 1, i, 0, "draw"))  # i == 0: already there
            outcomes[i] = "stored"
        except StoreError:
            outcomes[i] = "refused"

    async with trio.open_nursery() as nursery:
        for i in range(5):
            nursery.start_soon(commit, i)
    assert outcomes == {0: "refused", 1: "stored", 2: "stored", 3: "stored", 4: "stored"}
    assert rows(path, "SELECT idx FROM actions ORDER BY idx") == [(i,) for i in range(5)]
    await store.aclose()


async def test_a_commit_is_not_cancelled_while_its_writes_wait(tmp_path):
    """A commit cancelled while it waits (behind the busy writer thread, or for its
    tick's group) still returns once its writes are stored, so a table needs no shield
    around it (``uncancellable``): what it changed is never done but not known stored."""
    path = tmp_path / "u.sqlite3"
    store = SQLiteStore(path)
    store.load()
    assert store.uncancellable and MemoryStore.uncancellable
    gate = threading.Event()
    returned: list[int] = []

    async def commit(i: int) -> None:
        await store.commit(ActionTaken(1, 1, i, 0, "draw"))
        returned.append(i)

    async with trio.open_nursery() as outer:
        outer.start_soon(store.run_in_writer, lambda conn: gate.wait(30))  # the thread busy
        await trio.testing.wait_all_tasks_blocked()
        async with trio.open_nursery() as nursery:
            for i in range(3):  # queued behind the thread's work
                nursery.start_soon(commit, i)
            await trio.testing.wait_all_tasks_blocked()
            nursery.cancel_scope.cancel()  # a shutdown, say
            gate.set()
        assert sorted(returned) == [0, 1, 2]
        assert rows(path, "SELECT idx FROM actions ORDER BY idx") == [(0,), (1,), (2,)]
        async with trio.open_nursery() as nursery:  # inline: one waits a tick, two its group
            for i in range(3, 6):
                nursery.start_soon(commit, i)
            nursery.cancel_scope.cancel()
    assert sorted(returned) == list(range(6))
    await store.aclose()


async def test_a_commit_alone_is_written_at_once_and_close_ones_share_a_tick(tmp_path, monkeypatch):
    """A commit with no other begun within ``GATHER_SECONDS`` (a quiet server) is written
    without waiting a tick for company; commits close together wait one and share it."""
    from server.store import sqlite

    store = SQLiteStore(tmp_path / "q.sqlite3")
    store.load()
    monkeypatch.setattr(sqlite, "GATHER_SECONDS", 0.0)  # every commit alone
    with trio.testing.assert_no_checkpoints():
        await store.commit(TalkSaid(1, "x", "alone", 0.0))
    assert store.statistics().commits == 1
    monkeypatch.setattr(sqlite, "GATHER_SECONDS", math.inf)  # every commit close to the last

    async def talk(i: int) -> None:
        await store.commit(TalkSaid(1, "x", str(i), 0.0))

    async with trio.open_nursery() as nursery:
        for i in range(5):
            nursery.start_soon(talk, i)
    assert store.statistics().commits == 2  # the five shared one transaction
    await store.aclose()
