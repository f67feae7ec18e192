"""A restored table whose SQLite store read only the actions after its game's snapshot (the
ones the snapshot holds are read when first needed) is the table a full replay restores,
whatever needs the rest first: the views and legal actions (which never do), the running
game's public log, a catch-up from seq 0 or from before the snapshot, the record of the
game once it ends, and the take-back of an action the store refused. Over both stores
(the in-memory one holds every action: the same paths, nothing to read later), each
restored table against a full replay of the same stored game in a store of its own."""

from __future__ import annotations

import copy
import dataclasses
import random
import shutil
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, closing
from pathlib import Path
from typing import Any

import pytest
import trio
import trio.testing
from test_gamemaster import Member

from protocol import messages as m
from server.app import DB_NAME
from server.core.commands import Act, Export, Join, Resume, Start
from server.core.config import ServerConfig
from server.store.base import MemoryStore, StoredActions, StoredTable, StoreError, TableCreated
from server.store.sqlite import SQLiteStore, read_state
from server.tables.listing import summary
from server.tables.table import OVER, PLAYING, Table

EVERY = 8
CONFIG = ServerConfig(
    host="127.0.0.1",
    port=0,
    scrypt_n=2,
    snapshot_every=EVERY,
    empty_table_seconds=0,
    absent_game_seconds=0,
)
#: Four players and no clock: nothing moves (and nothing reads the record) unasked.
OPTIONS = {"turn_seconds": 0, "target": 30}
PLAYED = 5 * EVERY + 3  #: actions before the restart: five snapshots, three after the last
#: The deal: with ``random.Random(5)`` choosing the moves, this game runs 358 actions. A
#: deal drawn afresh ends before ``PLAYED`` about once in 300 games (one here was over at 42).
SEED = 11


@pytest.fixture(autouse=True)
def long_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every table here deals ``SEED``: a game known to outlast the actions played."""
    monkeypatch.setattr("server.tables.course.secrets.randbits", lambda bits: SEED)


class Refusing(MemoryStore):
    """A memory store that refuses every write while ``refuse`` is set (a full disk)."""

    refuse = False

    async def commit(self, *writes: Any) -> None:
        if self.refuse:
            raise StoreError("the store could not keep a write: refused by the test")
        await super().commit(*writes)


@dataclasses.dataclass
class Side:
    """One restored table, the members who hold its seats, and its store."""

    table: Table
    members: list[Member]
    store: Any
    stored: StoredTable
    req: int = 100

    async def send(self, command_of: Any) -> list[Any]:
        """Submit ``command_of(req)``, wait until the table is idle; what came back."""
        self.req += 1
        before = [len(x.got) for x in self.members]
        await self.table.submit(command_of(self.req))
        await trio.testing.wait_all_tasks_blocked()
        return [x.got[n:] for x, n in zip(self.members, before, strict=True)]

    def unread(self) -> bool:
        """Whether the actions the snapshot holds are still unread (SQLite only)."""
        actions = self.stored.game.actions  # type: ignore[union-attr]
        return isinstance(actions, StoredActions) and not actions.held.loaded


async def play_first(store: Any, rng: random.Random) -> list[str]:
    """Table 1, kilodney for four players, played ``PLAYED`` actions; each seat's token."""
    await store.commit(TableCreated(1, "kilodney", 4, OPTIONS, "p0", {}))
    members = [Member(f"p{i}") for i in range(4)]
    async with trio.open_nursery() as nursery:
        table = Table(1, "kilodney", 4, OPTIONS, config=CONFIG, store=store, creator="p0")
        await nursery.start(table.run)
        for i, member in enumerate(members):
            await table.submit(Join(member, 1, i))
        await table.submit(Start(members[0], 2))
        await trio.testing.wait_all_tasks_blocked()
        tokens = [x.token() for x in members]
        for n in range(PLAYED):
            await act(table, members, tokens, rng, n)
        assert table.game is not None and table.game.actions_taken == PLAYED
        nursery.cancel_scope.cancel()  # the server dies here
    return tokens


async def act(table: Table, members: list[Member], tokens: list[str], rng: random.Random,
              req: int) -> None:  # fmt: skip
    game = table.game
    assert game is not None and not game.over and game.to_act is not None
    seat = game.to_act
    choice = str(rng.choice(game.legal_actions(seat)))
    await table.submit(Act(members[seat], req, tokens[seat], choice))
    await trio.testing.wait_all_tasks_blocked()


@asynccontextmanager
async def restored(kind: str, tmp_path: Path) -> AsyncIterator[tuple[Side, Side, list[str]]]:
    """The played table restored twice, each in a store of its own, both running: from
    its snapshot (only the actions after it read, for SQLite) and by a full replay."""
    rng = random.Random(5)
    if kind == "memory":
        first: Any = Refusing()
        first.load()
        tokens = await play_first(first, rng)
        second = Refusing()
        second.state = copy.deepcopy(first.state)
        stores = [first, second]
    else:
        (tmp_path / "a").mkdir()
        first = SQLiteStore(tmp_path / "a" / DB_NAME)
        first.load()
        tokens = await play_first(first, rng)
        await first.aclose()
        shutil.copytree(tmp_path / "a", tmp_path / "b")
        stores = [SQLiteStore(tmp_path / d / DB_NAME) for d in "ab"]
    sides = []
    for n, store in enumerate(stores):
        stored = store.load().tables[1]
        assert stored.game is not None and stored.game.snapshot is not None
        assert stored.game.snapshot.actions == 5 * EVERY and len(stored.game.actions) == PLAYED
        if n == 1:  # the reference: no snapshot, every action read at once and replayed
            actions = stored.game.actions
            if isinstance(store, SQLiteStore):
                with closing(sqlite3.connect(store.path)) as conn:
                    actions = read_state(conn).tables[1].game.actions  # type: ignore[union-attr]
                assert isinstance(actions, list) and len(actions) == PLAYED
            stored.game = dataclasses.replace(stored.game, snapshot=None, actions=actions)
        table = Table.restore(stored, config=CONFIG, store=store)
        assert (table.replayed_because is None) == (n == 0)
        sides.append(Side(table, [Member(f"p{i}") for i in range(4)], store, stored))
    lazy, full = sides
    assert lazy.unread() == (kind == "sqlite")
    try:
        async with trio.open_nursery() as nursery:
            for side in sides:
                await nursery.start(side.table.run)
            yield lazy, full, tokens
            nursery.cancel_scope.cancel()
    finally:
        for store in stores:
            await store.aclose()


def same_now(lazy: Side, full: Side) -> None:
    """Equal in everything that needs no record: views, legal actions, numbering, lobby."""
    a, b = lazy.table, full.table
    assert a.game is not None and b.game is not None
    seats = [*range(4), None]
    assert [a.game.view(s) for s in seats] == [b.game.view(s) for s in seats]
    assert [a.out.legal(s) for s in seats] == [b.out.legal(s) for s in seats]
    assert a.game.snapshot() == b.game.snapshot() and a.game.last_action == b.game.last_action
    assert (a.seq, a.out.game_base, a.game_no, a.state) == (
        b.seq,
        b.out.game_base,
        b.game_no,
        b.state,
    )
    assert summary(a) == summary(b)


async def record_pages(side: Side, member: Member) -> list[Any]:
    """Every page of the table's record (``get_record``) as ``member`` is sent it."""
    pages, start = [], 0
    while start is not None:
        got = await side.send(lambda req, s=start: Export(member, req, s))
        (page,) = [x for x in got[side.members.index(member)] if isinstance(x, m.Record)]
        pages.append(dataclasses.replace(page, id=None))  # as sent, but for the request id
        start = page.next
    return pages


async def resume(side: Side, seat: int, token: str, since: int | None) -> list[Any]:
    got = await side.send(lambda req: Resume(side.members[seat], req, token, since))
    return got[seat]


async def seat_everyone(lazy: Side, full: Side, tokens: list[str]) -> None:
    """Each player back in his seat (a snapshot each: nothing read)."""
    for side in (lazy, full):
        for seat, token in enumerate(tokens):
            got = await resume(side, seat, token, None)
            assert [type(x) for x in got] == [m.Seated, m.Snapshot]
    assert lazy.unread() == isinstance(lazy.store, SQLiteStore)


KINDS = ["memory", "sqlite"]


@pytest.mark.parametrize("kind", KINDS)
async def test_the_running_games_public_log_is_whole(kind: str, tmp_path: Path) -> None:
    async with restored(kind, tmp_path) as (lazy, full, tokens):
        same_now(lazy, full)
        for side in (lazy, full):
            await resume(side, 1, tokens[1], None)  # a member: he may read the log
        assert lazy.unread() == (kind == "sqlite")  # a snapshot to resume needs no record
        log = await record_pages(lazy, lazy.members[1])
        assert not lazy.unread()
        assert log == await record_pages(full, full.members[1])
        assert sum(len(p.record["events"]) for p in log) == len(full.table.out.game_events) > PLAYED
        same_now(lazy, full)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("behind", ["seq 0", "the game's start", "before the snapshot"])
async def test_a_catch_up_from_before_the_snapshot(kind: str, behind: str, tmp_path: Path) -> None:
    async with restored(kind, tmp_path) as (lazy, full, tokens):
        table = lazy.table
        assert table.restoration.unreplayed is not None
        since = {
            "seq 0": 0,
            "the game's start": table.out.game_base,
            "before the snapshot": table.restoration.unreplayed.seq - 3,  # within the ring's reach
        }[behind]
        assert since < table.restoration.unreplayed.seq
        got = await resume(lazy, 2, tokens[2], since)
        assert got == await resume(full, 2, tokens[2], since)
        if behind == "seq 0":  # behind the game's start: a snapshot, and nothing read
            assert [type(x) for x in got] == [m.Seated, m.Snapshot]
            assert lazy.unread() == (kind == "sqlite")
        else:  # events, not a snapshot: the ring was refilled from the record
            assert [x.seq for x in got if isinstance(x, m.TableEvent)] == list(
                range(since + 1, table.seq + 1)
            )
            assert not lazy.unread()
            assert list(lazy.table.out.ring) == list(full.table.out.ring)
        same_now(lazy, full)


@pytest.mark.parametrize("kind", KINDS)
async def test_a_game_that_ends_after_the_restart_has_its_whole_record(
    kind: str, tmp_path: Path
) -> None:
    async with restored(kind, tmp_path) as (lazy, full, tokens):
        await seat_everyone(lazy, full, tokens)
        stored = list(full.stored.game.actions)  # type: ignore[union-attr]
        rng = [random.Random(9), random.Random(9)]
        for _ in range(2000):
            if lazy.table.state != PLAYING:
                break
            for side, r in zip((lazy, full), rng, strict=True):
                await act(side.table, side.members, tokens, r, 0)
            same_now(lazy, full)
        assert lazy.table.state == full.table.state == OVER
        assert lazy.unread() == (kind == "sqlite")  # nothing needed the rest until now
        record = await record_pages(lazy, lazy.members[0])
        assert record == await record_pages(full, full.members[0])
        actions = [a for page in record for a in page.record["actions"]]
        assert actions[:PLAYED] == stored and len(actions) == lazy.table.game.actions_taken  # type: ignore[union-attr]
        assert lazy.table.game.record() == full.table.game.record()  # type: ignore[union-attr]


async def refuse_writes(side: Side, refuse: bool) -> None:
    if isinstance(side.store, Refusing):
        side.store.refuse = refuse
    else:
        flag = "ON" if refuse else "OFF"
        await side.store.run_in_writer(lambda c: c.execute(f"PRAGMA query_only = {flag}"))


@pytest.mark.parametrize("kind", KINDS)
async def test_an_action_the_store_refuses_is_taken_back(kind: str, tmp_path: Path) -> None:
    async with restored(kind, tmp_path) as (lazy, full, tokens):
        await seat_everyone(lazy, full, tokens)
        await refuse_writes(lazy, True)
        game = lazy.table.game
        assert game is not None and game.to_act is not None
        seat = game.to_act
        choice = str(random.Random(3).choice(game.legal_actions(seat)))
        got = await lazy.send(lambda req: Act(lazy.members[seat], req, tokens[seat], choice))
        assert [x.code for x in got[seat] if isinstance(x, m.Error)] == ["store_failed"]
        assert lazy.table.game is not game  # rebuilt from the record without the action
        assert not lazy.unread()
        same_now(lazy, full)
        assert lazy.table.game.record() == full.table.game.record()  # type: ignore[union-attr]
        await refuse_writes(lazy, False)  # and it plays on as the replayed table does
        for side in (lazy, full):
            await act(side.table, side.members, tokens, random.Random(3), 0)
        same_now(lazy, full)
        assert lazy.table.game.record() == full.table.game.record()  # type: ignore[union-attr]


async def unreadable(side: Side, gone: bool) -> None:
    """The store's actions table out of reach (reads and writes of it fail) or back."""
    sql = "ALTER TABLE actions RENAME TO kept" if gone else "ALTER TABLE kept RENAME TO actions"
    await side.store.run_in_writer(lambda c: c.execute(sql))


async def test_a_read_that_fails_refuses_the_log_and_resumes_with_a_snapshot(
    tmp_path: Path,
) -> None:
    async with restored("sqlite", tmp_path) as (lazy, full, tokens):
        await unreadable(lazy, True)
        got = await resume(lazy, 1, tokens[1], lazy.table.out.game_base)  # would need the rest
        assert [type(x) for x in got] == [m.Seated, m.Snapshot] and lazy.unread()
        got = await lazy.send(lambda req: Export(lazy.members[1], req, 0))
        assert [x.code for x in got[1] if isinstance(x, m.Error)] == ["store_failed"]
        assert (
            lazy.unread() and lazy.table.restoration.unreplayed is not None
        )  # nothing lost: later
        await unreadable(lazy, False)
        await resume(full, 1, tokens[1], None)
        assert await record_pages(lazy, lazy.members[1]) == await record_pages(
            full, full.members[1]
        )
        same_now(lazy, full)


async def test_a_take_back_that_cannot_read_fails_the_table_not_the_store(
    tmp_path: Path,
) -> None:
    async with restored("sqlite", tmp_path) as (lazy, full, tokens):
        await seat_everyone(lazy, full, tokens)
        game = lazy.table.game
        assert game is not None and game.to_act is not None
        seat, taken = game.to_act, game.actions_taken
        choice = str(game.legal_actions(seat)[0])
        await unreadable(lazy, True)  # the write of the action fails, and so does the read
        act = Act(lazy.members[seat], 1, tokens[seat], choice)
        with pytest.raises(RuntimeError, match="cannot be taken back"):
            await lazy.table._handle(act)  # (in the table's task, this fails the table)
        await unreadable(lazy, False)
        store = lazy.store
    again = SQLiteStore(store.path)  # the store holds the game as it was: a restart has it
    stored = again.load().tables[1]
    assert len(stored.game.actions) == taken  # type: ignore[union-attr]
    table = Table.restore(stored, config=CONFIG, store=again)
    assert table.game is not None and table.game.record() == full.table.game.record()  # type: ignore[union-attr]
    await again.aclose()
