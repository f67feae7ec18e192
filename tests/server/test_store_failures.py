"""A store that cannot write (disk full, a read-only file) is an operating condition.

Real SQLite errors, without root: ``PRAGMA max_page_count`` stops the file growing
("database or disk is full"), and ``PRAGMA query_only`` refuses every write as a
read-only file would (the tests may run as root, for whom ``chmod`` stops nothing).
The request that needed the write is refused with ``store_failed``; its table does
not move (the game in memory is the game on disk); the log says so once; every
other request keeps being served; and once writes succeed the server carries on
by itself."""

from __future__ import annotations

import contextlib
import logging
import resource
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any

import pytest
import trio
from e2e_client import TEST_CONFIG, Client, serving_server

from protocol import messages as m
from server.app import DB_NAME, Server
from server.players.chip_audit import audit_file
from server.store import sqlite as sqlite_store
from server.store.base import TalkSaid
from server.store.sqlite import SQLiteStore
from server.tables.table import Table

CONFIG = TEST_CONFIG.replace(close_grace_seconds=0.5, store_retry_seconds=0.05)


def serving(data: Path, **settings: Any) -> AbstractAsyncContextManager[tuple[Server, int]]:
    """One run of a server on ``data``: started, then shut down (store closed) on leaving."""
    return serving_server(Server(CONFIG.replace(data_dir=data, **settings)))


async def until(predicate: Callable[[], Any], timeout: float = 20) -> None:
    with trio.fail_after(timeout):
        while not predicate():
            await trio.sleep(0.005)


async def pragma(server: Server, sql: str) -> Any:
    """``sql`` on the store's own (writer) connection: the setting its writes meet."""
    return await server.store.run_in_writer(  # type: ignore[attr-defined]
        lambda conn: conn.execute(sql).fetchone()
    )


async def stored_actions(server: Server, table: Table) -> int:
    row = await pragma(
        server,
        f"SELECT COUNT(*) FROM actions WHERE table_id = {table.id} AND game = {table.game_no}",
    )
    return row[0]


def failing_lines(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if "store writes are failing" in r.getMessage()]


async def bots_table(client: Client, server: Server) -> Table:
    """A kilodney table of four server bots, started: it writes an action every few ms."""
    reply = await client.request(
        m.CreateTable(ruleset="kilodney", seats=4, options={"turn_seconds": 0})
    )
    assert isinstance(reply, m.Ok), reply
    assert isinstance(await client.request(m.StartGame(table=reply.table)), m.Ok)
    table = server.lobby.get(reply.table)
    assert table is not None
    return table


async def test_a_full_disk_freezes_the_writing_tables_and_heals_by_itself(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    async with serving(tmp_path, bot_delay_seconds=0.002) as (server, port):
        ann = await Client.connect(port, "ann")
        table = await bots_table(ann, server)
        await until(lambda: table.game is not None and table.game.actions_taken > 5)
        (pages,) = await pragma(server, "PRAGMA page_count")
        await pragma(server, f"PRAGMA max_page_count = {pages}")  # the disk is full
        await until(lambda: table.store_failing)
        assert table.game is not None
        frozen_at = table.statistics().actions
        for _ in range(10):  # its bots try again every store_retry_seconds
            # no move is taken (told to anyone) that is not stored; a write may still fit
            # now and then (a full file has room left in some pages). (The engine's game
            # may be one action ahead while that action's commit is in flight.)
            taken = table.statistics().actions
            assert taken <= await stored_actions(server, table)
            await trio.sleep(0.03)
        # everyone else is served meanwhile: the lobby, reads, pings
        assert any(t["table"] == str(table.id) for t in (await ann.request(m.ListTables())).tables)
        assert (await ann.request(m.GetChips())).balance == 1000
        assert isinstance(await ann.request(m.Ping()), m.Pong)
        refused = await ann.request(m.CreateTable(ruleset="kilodney", seats=4))
        if isinstance(refused, m.Error):  # a new table needs a new page only sometimes
            assert refused.code == "store_failed"
        await pragma(server, "PRAGMA max_page_count = 1073741823")  # space freed
        await until(
            lambda: (
                not table.store_failing
                and (table.statistics().actions > frozen_at + 20 or table.state == "over")
            )
        )
        await ann.aclose()
        refused = server.store.failed_writes  # type: ignore[attr-defined]
    # Once each way, not per attempt: a full file may take a small write now and then,
    # and each such turn is one line (failing, succeeding), far fewer than the refusals.
    turns = [
        "F" if "are failing" in r.getMessage() else "S"
        for r in caplog.records
        if "store writes" in r.getMessage()
    ]
    assert turns[:1] == ["F"] and "".join(turns) == "FS" * (len(turns) // 2), turns
    assert len(turns) // 2 < refused
    assert not [r for r in caplog.records if r.exc_info], "no traceback for an operating condition"
    assert audit_file(tmp_path / DB_NAME).problems == []


async def test_a_read_only_store_refuses_requests_and_loses_nothing(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    async with serving(tmp_path, bot_delay_seconds=0.002) as (server, port):
        ann = await Client.connect(port, "ann")
        create = await ann.request(m.CreateTable(ruleset="switch", seats=2))
        assert isinstance(create, m.Ok)
        word = create.table
        assert isinstance(await ann.request(m.Join(table=word, seat=0)), m.Seated)
        assert isinstance(await ann.request(m.SetPrize(table=word, chips=100)), m.Ok)
        assert isinstance(await ann.request(m.StartGame(table=word)), m.Ok)
        turn = await ann.wait_for(
            lambda x: isinstance(x, m.Turn) and x.table == word and x.to_act == x.seat and x.legal
        )
        table = server.lobby.get(word)
        assert table is not None and table.game is not None
        before = table.game.actions_taken
        await pragma(server, "PRAGMA query_only = ON")  # the file is read-only now
        for _ in range(3):
            reply = await ann.request(m.Act(table=word, action=turn.legal[0]))
            assert isinstance(reply, m.Error) and reply.code == "store_failed", reply
        assert table.game.actions_taken == before == await stored_actions(server, table)
        assert sorted(map(str, table.game.legal_actions(turn.seat))) == sorted(turn.legal)
        for request in (
            m.CreateTable(ruleset="switch", seats=2),
            m.EndGame(table=word),
            m.PauseGame(table=word),
        ):
            reply = await ann.request(request)
            assert isinstance(reply, m.Error) and reply.code == "store_failed", (request, reply)
        bob = await Client.connect(port)
        reply = await bob.request(m.ClaimName(name="bob", secret="pw"))
        assert isinstance(reply, m.Error) and reply.code == "store_failed"
        assert table.state == "playing" and (await ann.request(m.GetChips())).balance == 900
        await pragma(server, "PRAGMA query_only = OFF")  # writable again
        assert isinstance(await ann.request(m.Act(table=word, action=turn.legal[0])), m.Ok)
        assert table.game.actions_taken == before + 1 and not table.store_failing
        assert isinstance(await bob.request(m.ClaimName(name="bob", secret="pw")), m.Named)
        assert isinstance(await ann.request(m.EndGame(table=word)), m.Ok)
        assert (await ann.request(m.GetChips())).balance == 1000  # the prize went back
        await ann.aclose()
        await bob.aclose()
    assert len(failing_lines(caplog)) == 1
    assert not [r for r in caplog.records if r.exc_info]
    assert audit_file(tmp_path / DB_NAME).problems == []
    conn = sqlite3.connect(tmp_path / DB_NAME)
    assert conn.execute("SELECT COUNT(*) FROM names").fetchone() == (2,)
    conn.close()


async def test_a_start_the_store_refuses_is_not_acknowledged(tmp_path: Path) -> None:
    """``start_game`` is answered ``ok`` only once the start is stored: a start the store
    refuses gets one reply, ``store_failed``, and the table still waits."""
    async with serving(tmp_path) as (server, port):
        ann = await Client.connect(port, "ann")
        create = await ann.request(m.CreateTable(ruleset="switch", seats=2))
        assert isinstance(await ann.request(m.Join(table=create.table, seat=0)), m.Seated)
        await pragma(server, "PRAGMA query_only = 1")
        refused = await ann.request(m.StartGame(table=create.table))
        assert isinstance(refused, m.Error) and refused.code == "store_failed", refused
        table = server.lobby.get(create.table)
        assert table is not None and table.state == "waiting" and table.game is None
        await pragma(server, "PRAGMA query_only = 0")
        assert isinstance(await ann.request(m.StartGame(table=create.table)), m.Ok)
        snapshot = await ann.wait_for(lambda x: isinstance(x, m.Snapshot) and x.seq > 0)
        assert snapshot.state == "playing" and table.game is not None


async def test_talk_the_store_cannot_keep_is_refused_and_heard_by_nobody(tmp_path: Path) -> None:
    """``say`` is a write like any other: answered ``ok`` (and heard by the table) only
    once the line is stored; refused with ``store_failed`` while the store cannot write."""
    async with serving(tmp_path) as (server, port):
        ann = await Client.connect(port, "ann")
        bob = await Client.connect(port, "bob")
        word = (await ann.request(m.CreateTable(ruleset="switch", seats=2))).table
        assert isinstance(await ann.request(m.Join(table=word, seat=0)), m.Seated)
        assert not isinstance(await bob.request(m.Spectate(table=word)), m.Error)
        await pragma(server, "PRAGMA query_only = 1")
        refused = await ann.request(m.Say(table=word, text="lost?"))
        assert isinstance(refused, m.Error) and refused.code == "store_failed", refused
        await pragma(server, "PRAGMA query_only = 0")
        assert isinstance(await ann.request(m.Say(table=word, text="kept")), m.Ok)
        heard = await bob.wait_for(lambda x: isinstance(x, m.Talk))
        assert heard.text == "kept"  # the refused line was never sent to anyone
        stored = await pragma(server, "SELECT group_concat(text, '|') FROM talk")
        assert stored == ("kept",)
        await ann.aclose()
        await bob.aclose()


@contextlib.contextmanager
def file_size_limit(limit: int) -> Iterator[None]:
    """Files this process writes cannot grow past ``limit`` bytes (``RLIMIT_FSIZE``; Python
    ignores SIGXFSZ, so a write past it fails as on a full disk): each of the store's
    files, the WAL too, lives as on a disk of that size."""
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))


async def test_a_wal_that_fills_a_small_disk_is_emptied_and_every_write_kept(
    tmp_path: Path,
) -> None:
    """The WAL alone can fill a small disk: checkpointed every 1,000 commits, it needed
    more room than a MiB holds, and on failure nothing emptied it (failed commits counted
    towards the next checkpoint: about 800 refused writes to take 200). A failed write now
    empties it (a TRUNCATE checkpoint) and is tried again, so none is refused while the
    database itself still fits."""
    store = SQLiteStore(tmp_path / DB_NAME)
    store.load()
    with file_size_limit(1 << 20):
        for _ in range(1500):  # about 1.5 times what a 1 MiB WAL holds
            await store.commit(TalkSaid(1, "ann", "x" * 300, 0.0))
    assert store.failed_writes == 0 and store.healthy
    (count,) = await store.run_in_writer(
        lambda c: c.execute("SELECT COUNT(*) FROM talk").fetchone()
    )
    assert count == 1500
    await store.aclose()


async def test_the_wal_is_checkpointed_by_its_size_and_shrunk_back(tmp_path: Path) -> None:
    """Busy writes checkpoint the WAL once it passes ``wal_limit`` (not only every
    ``checkpoint_every`` commits), and ``journal_size_limit`` shrinks the file back."""
    limit = 64 * 1024
    store = SQLiteStore(tmp_path / DB_NAME, wal_limit=limit)
    store.load()
    largest = 0
    wal = tmp_path / f"{DB_NAME}-wal"
    for i in range(900):  # fewer than checkpoint_every: only the size can trigger one
        await store.commit(TalkSaid(1, "ann", "x" * 2000, 0.0))
        if i % 50 == 0:
            largest = max(largest, wal.stat().st_size)
    await trio.sleep(0.1)
    assert largest < 1024 * 1024, largest  # 900 commits of 2 KB: about 2.5 MB unchecked
    (limit_set,) = await store.run_in_writer(
        lambda c: c.execute("PRAGMA journal_size_limit").fetchone()
    )
    assert limit_set == limit
    await store.aclose()


class CountingStrategy:
    """A strategy that counts its choices (``chosen``) and otherwise is ``inner``."""

    def __init__(self, inner: Any, chosen: list[int]) -> None:
        self.inner, self.chosen = inner, chosen

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def choose(self, *args: Any) -> Any:
        self.chosen.append(1)
        return self.inner.choose(*args)


async def test_a_bot_move_the_store_refused_is_played_again_not_thought_again(
    tmp_path: Path,
) -> None:
    """While the store refuses writes a bot table retries its move every
    ``store_retry_seconds``: the move it chose is tried again, not chosen again. (Each
    retry used to think afresh, so during a full disk every search-bot table spent a
    worker's thought every few seconds on moves nobody could store, and the tables of
    people queued behind those thoughts.)"""
    async with serving(tmp_path, bot_delay_seconds=0.002) as (server, port):
        ann = await Client.connect(port, "ann")
        table = await bots_table(ann, server)
        await until(lambda: table.game is not None and table.game.actions_taken > 3)
        chosen: list[int] = []
        strategy_for = table.gm.strategy_for
        table.gm.strategy_for = lambda seat: CountingStrategy(strategy_for(seat), chosen)  # type: ignore[method-assign]
        await pragma(server, "PRAGMA query_only = ON")
        await until(lambda: table.store_failing)
        before = len(chosen)
        await trio.sleep(40 * CONFIG.store_retry_seconds)  # about 40 retries
        assert table.store_failing and len(chosen) - before <= 1, len(chosen) - before
        await pragma(server, "PRAGMA query_only = OFF")
        moved = table.statistics().actions
        await until(lambda: table.statistics().actions > moved + 3 and not table.store_failing)
        await ann.aclose()
    assert audit_file(tmp_path / DB_NAME).problems == []


async def test_the_wal_stays_within_a_share_of_the_disks_free_space(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a disk with 1 MiB left the WAL is checkpointed past a quarter of it, so the
    database always has room to take the WAL's pages. (It grew to 1.6 MiB on a 2 MiB disk,
    with a database of one page, and nothing could be checkpointed or written again.)"""
    monkeypatch.setattr(sqlite_store, "free_bytes", lambda directory: 1 << 20)
    store = SQLiteStore(tmp_path / DB_NAME)
    store.load()
    wal = tmp_path / f"{DB_NAME}-wal"
    largest = 0
    for i in range(600):
        await store.commit(TalkSaid(1, "ann", "x" * 2000, 0.0))
        if i % 8 == 0:
            largest = max(largest, wal.stat().st_size)
    await store.aclose()
    # a quarter of 1 MiB, and the commits between two looks (16 of 2 KB) on top
    assert largest < (1 << 18) + 200 * 1024, largest
