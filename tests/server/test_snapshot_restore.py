"""A table restored from its game's newest snapshot plus the actions after it is the table
a full replay of the record restores: the game, its sequence numbers, its players, its
public log and event ring (made when first asked for), and its bots' memory. A snapshot
that is missing, damaged or of an older format is replaced by the full replay, and the
server says so once. Over both stores, on real table tasks (MockClock: idle players time
out and are played automatically)."""

from __future__ import annotations

import dataclasses
import logging
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import msgpack
import pytest
import trio
import trio.testing
from e2e_client import serving_server
from test_gamemaster import Member

from server.app import Server
from server.core.commands import Join, Start
from server.core.config import ServerConfig
from server.store import snapshots
from server.store.base import (
    GameSnapshot,
    MemoryStore,
    Store,
    StoredActions,
    StoredTable,
    TableCreated,
    snapshot_digest,
)
from server.store.sqlite import SQLiteStore, read_state
from server.tables.listing import summary
from server.tables.table import OVER, Table

EVERY = 8
#: Bots wait half a second before each move, so a test can stop a game where it likes.
CONFIG = ServerConfig(
    host="127.0.0.1", port=0, scrypt_n=2, snapshot_every=EVERY, bot_delay_seconds=0.5
)


#: Targets that keep a game going well past the actions a test stops it at.
LONG = {"abbott": {"target": 1000}, "kilodney": {"target": 500}, "switch": {"target": 10000}}


async def play(store: Store, tid: int, ruleset: str, seats: int, actions: int | None) -> None:
    """A table whose one player (seat 0) times out and is then played automatically, the
    other seats by server bots: until ``actions`` are taken (None: the game's end, at
    the ruleset's own target)."""
    options = {"turn_seconds": 1, **(LONG[ruleset] if actions is not None else {})}
    await store.commit(TableCreated(tid, ruleset, seats, options, "ann", {}))
    ann = Member("ann")
    async with trio.open_nursery() as nursery:
        table = Table(tid, ruleset, seats, options, config=CONFIG, store=store, creator="ann")
        await nursery.start(table.run)
        await table.submit(Join(ann, 1, 0))
        await table.submit(Start(ann, 2))
        while table.game is None or not (
            table.state == OVER or (actions is not None and table.statistics().actions >= actions)
        ):
            await trio.sleep(0.1)
        nursery.cancel_scope.cancel()  # the server dies here


def full_replay(stored: StoredTable) -> StoredTable:
    """The same stored table without its snapshot: ``Table.restore`` replays it all."""
    assert stored.game is not None
    return dataclasses.replace(stored, game=dataclasses.replace(stored.game, snapshot=None))


def eagerly(stored: StoredTable, store: Store) -> StoredTable:
    """``stored`` with every action of its game read at once (by SQLite, as a store read
    without ``read_now`` does), so that nothing of the restore under test serves its
    reference."""
    if not isinstance(store, SQLiteStore):
        return stored
    with closing(sqlite3.connect(store.path)) as conn:
        actions = read_state(conn).tables[stored.id].game.actions  # type: ignore[union-attr]
    assert isinstance(actions, list)
    return dataclasses.replace(stored, game=dataclasses.replace(stored.game, actions=actions))


def unread(stored: StoredTable) -> bool:
    """Whether the actions ``stored``'s snapshot holds are still unread (SQLite only)."""
    assert stored.game is not None
    actions = stored.game.actions
    return isinstance(actions, StoredActions) and not actions.held.loaded


def memories(table: Table) -> dict[int, Any]:
    """What each seat's strategy remembers of the game (for those that remember)."""
    out = {}
    for seat, (_key, strategy) in table.gm.strategies.items():
        memory = getattr(strategy, "memory", None)
        out[seat] = None if memory is None else vars(memory)
    return out


def check_same(a: Table, b: Table, *, record: bool = True) -> None:
    """Equal games, views, legal actions, numbering and lobby lines; and records, unless
    ``record`` is False (the check then reads nothing a restore left unread)."""
    assert a.game is not None and b.game is not None
    assert a.game.snapshot() == b.game.snapshot()
    if record:
        assert a.game.record() == b.game.record()
    seats = [*range(len(a.seats)), None]
    assert [a.game.view(s) for s in seats] == [b.game.view(s) for s in seats]
    assert [a.out.legal(s) for s in seats] == [b.out.legal(s) for s in seats]
    assert (a.seq, a.out.game_base, a.game_no, a.state, a.outcome) == (
        b.seq,
        b.out.game_base,
        b.game_no,
        b.state,
        b.outcome,
    )
    assert summary(a) == summary(b) and a.gm.away.away == b.gm.away.away


async def open_store(kind: str, path: Path, store: Store | None = None) -> Store:
    if kind == "memory":
        return store or MemoryStore()
    if store is not None:
        await store.aclose()
    return SQLiteStore(path)


@pytest.mark.parametrize("kind", ["memory", "sqlite"])
@pytest.mark.parametrize(
    ("ruleset", "seats", "actions"),
    [("kilodney", 4, 45), ("abbott", 4, 37), ("switch", 3, 29), ("kilodney", 5, None)],
)
async def test_a_table_restored_from_a_snapshot_is_the_replayed_table(
    kind: str,
    ruleset: str,
    seats: int,
    actions: int | None,
    tmp_path: Path,
    autojump_clock: trio.testing.MockClock,
) -> None:
    path = tmp_path / "s.sqlite3"
    store = await open_store(kind, path)
    store.load()
    await play(store, 1, ruleset, seats, actions)
    store = await open_store(kind, path, store)
    stored = store.load().tables[1]
    assert stored.game is not None and stored.game.snapshot is not None
    assert len(stored.game.actions) - stored.game.snapshot.actions < EVERY
    if actions is not None:
        assert not stored.game.over and stored.game.snapshot.actions < len(stored.game.actions)

    fast = Table.restore(stored, config=CONFIG, store=store)
    slow = Table.restore(full_replay(eagerly(stored, store)), config=CONFIG, store=store)
    assert fast.replayed_because is None and fast.restoration.unreplayed is not None
    assert slow.replayed_because == "no snapshot stored"
    check_same(fast, slow, record=False)
    assert unread(stored) == (kind == "sqlite")  # the SQLite store left them on disk
    # the ring holds the events after the snapshot until the rest is asked for
    held = list(fast.out.ring)
    assert held == (list(slow.out.ring)[-len(held) :] if held else [])
    assert bool(held) == (stored.game.snapshot.actions < len(stored.game.actions))
    # a client resuming from before this game, or caught up, needs no replay...
    missing = fast.restoration.unreplayed
    fast.fill_unreplayed(fast.out.game_base - 1)
    fast.fill_unreplayed(fast.seq)
    assert fast.restoration.unreplayed is missing and unread(stored) == (kind == "sqlite")
    # ...one behind the snapshot, within the ring's reach, has the events it missed made
    since = max(fast.out.game_base, fast.seq - CONFIG.event_ring)
    fast.fill_unreplayed(since)
    if since < missing.seq:
        assert fast.restoration.unreplayed is None and list(fast.out.ring) == list(slow.out.ring)
    fast.fill_unreplayed()
    assert fast.restoration.unreplayed is None
    assert fast.out.game_events == slow.out.game_events and list(fast.out.ring) == list(
        slow.out.ring
    )
    assert memories(fast) == memories(slow)
    if ruleset == "kilodney" and actions is not None:  # its bots remember: not vacuous
        assert any(m and m["plays"] for m in memories(fast).values())
    check_same(fast, slow)
    await store.aclose()


@pytest.mark.parametrize(
    ("damage", "why"),
    [
        (lambda data: b"\xc1" + data, "unpack"),
        (lambda data: data[: len(data) // 2], "unpack"),
        (lambda data: msgpack.packb({**msgpack.unpackb(data), "format": 0}), "format"),
        (lambda data: msgpack.packb({**msgpack.unpackb(data), "state": {}}), "damaged"),
    ],
)
async def test_a_damaged_or_older_snapshot_is_replaced_by_the_replay(
    damage: Any, why: str, autojump_clock: trio.testing.MockClock
) -> None:
    store = MemoryStore()
    await play(store, 1, "kilodney", 4, 30)
    stored = store.state.tables[1]
    assert stored.game is not None and stored.game.snapshot is not None
    snap = stored.game.snapshot
    stored.game.snapshot = resealed(snap, damage(snap.data))  # as an older engine wrote it
    table = Table.restore(stored, config=CONFIG, store=store)
    assert table.replayed_because is not None and why in table.replayed_because.lower()
    assert table.restoration.unreplayed is None
    check_same(table, Table.restore(full_replay(stored), config=CONFIG, store=store))


def resealed(snap: GameSnapshot, data: bytes) -> GameSnapshot:
    """``snap`` holding ``data`` with its digest made again: what a version whose
    snapshots differ stored, rather than damage (which the digest tells at once)."""
    digest = snapshot_digest(snap.table, snap.game, snap.actions, snap.seq, data)
    return dataclasses.replace(snap, data=data, digest=digest)


def card_swapped(data: bytes, final: dict[str, Any]) -> tuple[int, bytes] | None:
    """A shedding snapshot with one card of a seat's hand swapped with one of the stock:
    still a game the engine restores, but not the one the record plays; and that seat.
    The two are cards that stay where they are to the game's ``final`` state (never
    played, never drawn), so a restore that trusted the snapshot ends with that seat's
    hand different. None if there are none, or if a new hand was dealt since the snapshot:
    the new deal is the same in both games, and a card of the old hand may be in the new
    one by chance."""
    snap = msgpack.unpackb(data)
    state = snap["state"]
    if state["hand_number"] != final["hand_number"]:
        return None
    stock = [j for j, card in enumerate(state["stock"]) if card in final["stock"]]
    for seat, hand in enumerate(state["hands"]):
        kept = [i for i, card in enumerate(hand) if card in final["hands"][seat]]
        if kept and stock:
            i, j = kept[0], stock[0]
            hand[i], state["stock"][j] = state["stock"][j], hand[i]
            return seat, msgpack.packb(snap)
    return None


@pytest.mark.parametrize("kind", ["memory", "sqlite"])
async def test_a_snapshot_altered_on_disk_that_still_decodes_is_replayed(
    kind: str, tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    path = tmp_path / "s.sqlite3"
    store = await open_store(kind, path)
    store.load()
    for tid in range(1, 6):  # until a game's hand outlasts its snapshot (nearly always)
        await play(store, tid, "switch", 3, 29)
        store = await open_store(kind, path, store)
        stored = store.load().tables[tid]
        replayed = Table.restore(full_replay(eagerly(stored, store)), config=CONFIG, store=store)
        assert replayed.game is not None and stored.game and stored.game.snapshot
        swap = card_swapped(stored.game.snapshot.data, replayed.game.snapshot()["state"])
        if swap is not None:
            break
    assert swap is not None
    seat, swapped = swap
    if kind == "sqlite":
        await store.aclose()
        with closing(sqlite3.connect(path)) as conn:  # the row itself, as a damaged disk has it
            conn.execute("UPDATE snapshots SET data = ? WHERE table_id = ?", (swapped, tid))
            conn.commit()
        store = SQLiteStore(path)
        stored = store.load().tables[tid]
    else:
        assert stored.game is not None and stored.game.snapshot is not None
        stored.game.snapshot = dataclasses.replace(stored.game.snapshot, data=swapped)
    assert stored.game is not None and stored.game.snapshot is not None
    trusting = resealed(stored.game.snapshot, stored.game.snapshot.data)  # what main did
    wrong = Table.restore(
        dataclasses.replace(stored, game=dataclasses.replace(stored.game, snapshot=trusting)),
        config=CONFIG,
        store=store,
    )
    table = Table.restore(stored, config=CONFIG, store=store)
    assert table.replayed_because is not None and "digest" in table.replayed_because
    check_same(table, replayed)
    # not vacuous: trusted, the snapshot restores, to a game that is not the record's
    assert wrong.replayed_because is None and wrong.game is not None
    assert wrong.game.view(seat) != replayed.game.view(seat)
    await store.aclose()


async def test_a_snapshot_without_a_digest_is_replayed_and_the_next_one_has_one(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    """A data directory from before digests: the column is added, its snapshots are
    replayed (never trusted), and the snapshots written from then on carry digests."""
    path = tmp_path / "s.sqlite3"
    store = SQLiteStore(path)
    store.load()
    await play(store, 1, "kilodney", 4, 20)
    await store.aclose()
    with closing(sqlite3.connect(path)) as conn:
        conn.execute("ALTER TABLE snapshots DROP COLUMN digest")
        conn.commit()
    store = SQLiteStore(path)
    stored = store.load().tables[1]
    assert stored.game is not None and stored.game.snapshot is not None
    assert stored.game.snapshot.digest is None
    table = Table.restore(stored, config=CONFIG, store=store)
    assert table.replayed_because is not None and "no digest" in table.replayed_because
    await store.aclose()
    store = SQLiteStore(path)
    store.load()
    await play(store, 2, "kilodney", 4, 20)
    await store.aclose()
    with closing(sqlite3.connect(path)) as conn:
        digests = dict(conn.execute("SELECT table_id, digest FROM snapshots"))
    assert digests[1] is None and len(digests[2]) == 16


async def test_the_server_says_once_that_it_replayed_instead(
    autojump_clock: trio.testing.MockClock, caplog: pytest.LogCaptureFixture
) -> None:
    store = MemoryStore()
    for tid in (1, 2, 3):
        await play(store, tid, "kilodney", 4, 20)
    for tid in (1, 2):  # two damaged; the third restores from its snapshot
        g = store.state.tables[tid].game
        assert g is not None and isinstance(g.snapshot, GameSnapshot)
        g.snapshot = dataclasses.replace(g.snapshot, data=b"junk")
    caplog.set_level(logging.WARNING, logger="switchboard")
    async with serving_server(Server(CONFIG, store)) as (server, _port):
        tables = server.lobby.tables
        assert [tables[t].replayed_because is None for t in (1, 2, 3)] == [False, False, True]
    said = [r.getMessage() for r in caplog.records if "snapshot" in r.getMessage()]
    assert len(said) == 1 and said[0].startswith("2 restored tables"), said


async def test_no_snapshots_when_switched_off(autojump_clock: trio.testing.MockClock) -> None:
    store = MemoryStore()
    off = CONFIG.replace(snapshot_every=0)
    await store.commit(TableCreated(1, "kilodney", 4, {"turn_seconds": 1}, "ann", {}))
    ann = Member("ann")
    async with trio.open_nursery() as nursery:
        table = Table(1, "kilodney", 4, {"turn_seconds": 1}, config=off, store=store, creator="ann")
        await nursery.start(table.run)
        await table.submit(Join(ann, 1, 0))
        await table.submit(Start(ann, 2))
        while table.statistics().actions < 2 * EVERY:
            await trio.sleep(0.1)
        nursery.cancel_scope.cancel()
    g = store.state.tables[1].game
    assert g is not None and g.snapshot is None and len(g.actions) >= 2 * EVERY
    restored = Table.restore(store.state.tables[1], config=off, store=store)
    assert restored.replayed_because == snapshots.NONE_DUE
