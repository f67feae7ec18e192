"""A restarted server brings every table back as its game master left it: the bots he
reserved (and the ones he freed), a pause, the away seats, and server bots that
remember the hand they were playing. Over both stores (the memory store kept across
two ``Server`` objects in one process, and SQLite in a temporary data directory), once
over a real ``switchboard serve`` process stopped with SIGINT, and on a database made
with the schema from before these were stored.
"""

from __future__ import annotations

import random
import signal
import sqlite3
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any

import pytest
import trio
from e2e_client import TEST_CONFIG, Client, serving_server
from serverproc import start_server
from test_gamemaster import CONFIG, Member

import engine
from engine.strategies import default_strategy
from protocol import messages as m
from server.app import Server
from server.core.commands import Act, Join, Resume, SeatBot, Start
from server.store.base import (
    AwaySet,
    BotReserved,
    MemoryStore,
    PauseSet,
    Store,
    StoredState,
    TableCreated,
)
from server.store.sqlite import SQLiteStore, migrate
from server.tables.gamemaster import PAUSED
from server.tables.table import PLAYING, Table

FAST = TEST_CONFIG.replace(close_grace_seconds=0.5)

MakeServer = Callable[[], Server]


@pytest.fixture(params=["memory", "sqlite"])
def make_server(request: pytest.FixtureRequest, tmp_path: Path) -> MakeServer:
    """Servers that share their data: each call is the same server started again."""
    if request.param == "memory":
        store = MemoryStore()
        return lambda: Server(FAST, store)
    config = FAST.replace(data_dir=tmp_path)
    return lambda: Server(config)


def serving(make: MakeServer) -> AbstractAsyncContextManager[tuple[Server, int]]:
    """One run of the server: started, then shut down (store closed) on leaving."""
    return serving_server(make())


async def until(predicate: Callable[[], Any], timeout: float = 10) -> None:
    with trio.fail_after(timeout):
        while not predicate():
            await trio.sleep(0.005)


async def summary(client: Client, table: str) -> dict[str, Any]:
    listed = await client.request(m.ListTables())
    return next(t for t in listed.tables if t["table"] == table)


async def ok(client: Client, message: m.Message) -> m.Received:
    reply = await client.request(message)
    assert isinstance(reply, (m.Ok, m.Seated)), reply
    return reply


def table_of(server: Server, table: str) -> Table:
    found = server.lobby.get(table)
    assert found is not None
    return found


# ------------------------------------------------------------------ bots
async def test_reserved_and_unseated_bots_come_back(make_server: MakeServer) -> None:
    async with serving(make_server) as (server, port):
        ann, bob = await Client.connect(port, "ann"), await Client.connect(port, "bob")
        create = m.CreateTable(ruleset="kilodney", seats=4, options={"turn_seconds": 0})
        table = (await ok(ann, create)).table
        await ok(ann, m.Join(table=table, seat=0))
        await ok(bob, m.Join(table=table, seat=2))
        await ok(ann, m.SeatBot(table=table, seat=1, strategy="search"))
        await ok(ann, m.SeatBot(table=table, seat=3, strategy="random"))
        await ok(ann, m.Unseat(table=table, seat=3))  # a reserved bot freed
        await ok(ann, m.Unseat(table=table, seat=2))  # a player unseated
        waiting = (await summary(ann, table))["players"]
        assert waiting == ["ann", "bot:search", None, None]
    async with serving(make_server) as (server, port):
        ann = await Client.connect(port, "ann")
        assert (await summary(ann, table))["players"] == waiting
        cy = await Client.connect(port, "cy")
        assert (await cy.request(m.Join(table=table, seat=1))).code == "seat_taken"
        await ok(ann, m.Join(table=table, seat=0))  # her name's seat, a fresh token
        await ok(ann, m.StartGame(table=table))
        t = table_of(server, table)
        await until(lambda: t.game is not None and t.game.to_act == 0)  # the bots have moved
        assert t.game is not None
        playing = (await summary(ann, table))["players"]
        assert playing == ["ann", "bot:search", "bot:heuristic", "bot:heuristic"]
        actions = t.game.actions_taken
    async with serving(make_server) as (server, port):
        ann = await Client.connect(port, "ann")
        assert (await summary(ann, table))["players"] == playing
        t = table_of(server, table)
        assert t.game is not None and t.game.actions_taken == actions and t.state == PLAYING
        chosen = {seat: key for seat, (key, _s) in t.gm.strategies.items()}
        assert chosen == {0: "", 1: "search", 2: "", 3: ""}
        assert t.gm.strategy_for(1).name == "search"
        # the game goes on, and the search bot plays seat 1 after the restart
        await ok(ann, m.Join(table=table, seat=0))
        game = t.game

        def seat_1_played() -> bool:
            return any(s == 1 for s, _n in game.record()["actions"][actions:])

        for _ in range(20):
            await until(lambda: game.to_act == 0 or game.over or seat_1_played())
            if game.over or seat_1_played():
                break
            before = game.actions_taken
            await ok(ann, m.Act(table=table, action=str(game.legal_actions(0)[0])))
            await until(lambda: game.actions_taken > before)  # noqa: B023
        assert seat_1_played()


# ----------------------------------------------------------------- pause
async def test_a_paused_game_stays_paused(make_server: MakeServer) -> None:
    async with serving(make_server) as (server, port):
        ann = await Client.connect(port, "ann")
        create = m.CreateTable(ruleset="kilodney", seats=4, options={"turn_seconds": 1})
        table = (await ok(ann, create)).table
        await ok(ann, m.Join(table=table, seat=0))
        await ok(ann, m.StartGame(table=table))
        t = table_of(server, table)
        await until(lambda: t.game is not None and t.game.to_act == 0)
        await ok(ann, m.PauseGame(table=table))
        assert t.game is not None
        actions = t.game.actions_taken
    async with serving(make_server) as (server, port):
        ann = await Client.connect(port, "ann")
        t = table_of(server, table)
        assert t.state == PAUSED and (await summary(ann, table))["state"] == "paused"
        assert t.gm.clock_left() == 1.0  # a full turn, kept while paused
        await trio.sleep(1.5)  # longer than the turn: no timeout, no bot
        assert t.game is not None and t.game.actions_taken == actions and t.gm.timeouts == 0
        await ok(ann, m.ResumeGame(table=table))
        await until(lambda: t.game.actions_taken > actions)  # ann's turn times out
        assert t.state == PLAYING and t.gm.timeouts == 1
        actions = t.game.actions_taken
    async with serving(make_server) as (server, port):  # resumed stays resumed
        t = table_of(server, table)
        assert t.state == PLAYING and t.game is not None and t.game.actions_taken >= actions


# ------------------------------------------------------------------ away
async def test_an_away_seat_stays_away(make_server: MakeServer) -> None:
    async with serving(make_server) as (server, port):
        ann = await Client.connect(port, "ann")
        create = m.CreateTable(ruleset="kilodney", seats=4, options={"turn_seconds": 1})
        table = (await ok(ann, create)).table
        token = (await ok(ann, m.Join(table=table, seat=0))).token
        await ok(ann, m.StartGame(table=table))
        t = table_of(server, table)
        await until(lambda: t.gm.away.is_away(0))  # two timeouts in a row
        assert t.gm.timeouts == 2
    async with serving(make_server) as (server, port):
        ann = await Client.connect(port, "ann")
        t = table_of(server, table)
        assert t.gm.away.is_away(0) and (await summary(ann, table))["away"] == [0]
        # her turns are played at once as an away seat's, not after a countdown each
        assert t.game is not None
        game, actions = t.game, t.game.actions_taken
        await until(lambda: sum(s == 0 for s, _n in game.record()["actions"][actions:]) >= 2)
        assert t.gm.timeouts == 0 and t.gm.away.is_away(0)
        # she comes back by acting (even a refused action counts), and that is kept
        await ok(ann, m.Resume(table=table, token=token, last_seq=0))
        await ann.request(m.Act(table=table, action="concede"))
        assert not t.gm.away.is_away(0)
    async with serving(make_server) as (server, port):
        assert not table_of(server, table).gm.away.is_away(0)


# ------------------------------------------------------ a bot's memory
def open_store(kind: str, path: Path) -> tuple[Store, StoredState]:
    store: Store = MemoryStore() if kind == "memory" else SQLiteStore(path)
    return store, store.load()


def bots_remember(table: Table) -> int:
    """Each bot seat's memory of the cards played this hand is the table's; their number."""
    game = table.game
    assert game is not None
    for seat in (1, 2, 3):
        strategy = table.gm.strategies[seat][1]
        played = strategy.memory.played_for(game.view(seat))  # type: ignore[attr-defined]
        assert played == game.pile, seat
    return len(game.pile)


async def play_ann(
    table: Table, ann: Member, req: int, done: Callable[[], bool], replayed: int = 0
) -> int:
    """Ann plays her first legal card until ``done()`` holds at her turn (at most 30
    moves); the bots answer. Checks the bots' memory at each of her turns; returns
    the most cards it saw played in one hand. ``replayed``: the actions the table
    was restored with (it counts only those it accepted itself)."""
    game = table.game
    assert game is not None

    def settled() -> bool:
        """The table has recorded every action applied (a bot's waits for its commit
        between the two, and only then are its events shown to the strategies)."""
        return table.statistics().actions + replayed == game.actions_taken

    most = 0
    for _ in range(30):
        await until(lambda: settled() and (game.to_act == 0 or game.over))
        if game.over:
            break
        most = max(most, bots_remember(table))
        if done():
            break
        before = game.actions_taken
        req += 1
        await table.submit(Act(ann, req, ann.token(), str(game.legal_actions(0)[0])))
        await until(lambda: game.actions_taken > before)  # noqa: B023
    return most


#: No snapshots: a restart replays the whole game, showing each bot every event at once.
#: From a snapshot, the bots are shown what came before it only when a bot or a clock is
#: next to move (``test_snapshot_restore`` checks that), so the check made at once below
#: failed on a deal whose hand began before the last snapshot (one deal in 120 sampled).
REPLAYED = CONFIG.replace(snapshot_every=0)


@pytest.mark.parametrize("kind", ["memory", "sqlite"])
async def test_restored_bots_remember_the_hand(kind: str, tmp_path: Path) -> None:
    """Kilodney with a reserved heuristic bot, restarted mid-hand: every bot's memory
    of the cards played this hand equals the table's pile, as in the live game."""
    path = tmp_path / "s.sqlite3"
    store, _ = open_store(kind, path)
    options = {"turn_seconds": 0}
    await store.commit(TableCreated(1, "kilodney", 4, options, "ann", {}))
    ann = Member("ann")
    async with trio.open_nursery() as nursery:
        table = Table(1, "kilodney", 4, options, config=REPLAYED, store=store, creator="ann")
        await nursery.start(table.run)
        await table.submit(Join(ann, 1, 0))
        await table.submit(SeatBot(ann, 2, seat=1, strategy="heuristic"))
        await table.submit(Start(ann, 3))
        await until(lambda: table.game is not None)
        game = table.game
        assert game is not None
        await play_ann(table, ann, 10, lambda: len(game.pile) >= 4)
        nursery.cancel_scope.cancel()  # the server dies mid-hand, at ann's turn
    assert len(game.pile) >= 4 and not game.over, "not mid-hand"
    pile = list(game.pile)
    if kind == "sqlite":
        await store.aclose()
    store, state = open_store(kind, path) if kind == "sqlite" else (store, store.load())
    replayed = len(state.tables[1].game.actions)  # type: ignore[union-attr]
    async with trio.open_nursery() as nursery:
        table = Table.restore(state.tables[1], config=REPLAYED, store=store)
        assert table.gm.bots == {1: "heuristic"}
        await nursery.start(table.run)
        await table.submit(Resume(ann, 99, ann.token(), None))  # a seat acts once resumed
        assert table.game is not None and table.game.pile == pile
        assert bots_remember(table) == len(pile) >= 4
        game = table.game
        count = game.actions_taken
        await play_ann(table, ann, 100, lambda: game.actions_taken >= count + 8, replayed)
        assert game.actions_taken >= count + 8 or game.over  # and still remember
        assert len({id(s) for _k, s in table.gm.strategies.values()}) == 4
        nursery.cancel_scope.cancel()
    await store.aclose()


async def test_a_bot_seated_mid_hand_is_shown_the_hand(nursery: trio.Nursery) -> None:
    """Not a restart, the same gap live: the master seats a bot in mid-hand (the
    default one was playing the seat); the new strategy knows the cards played."""
    store = MemoryStore()
    options = {"turn_seconds": 0}
    await store.commit(TableCreated(1, "kilodney", 4, options, "ann", {}))
    table = Table(1, "kilodney", 4, options, config=CONFIG, store=store, creator="ann")
    await nursery.start(table.run)
    ann = Member("ann")
    await table.submit(Join(ann, 1, 0))
    await table.submit(Start(ann, 2))
    await until(lambda: table.game is not None)
    game = table.game
    assert game is not None
    await play_ann(table, ann, 10, lambda: len(game.pile) >= 4)
    assert len(game.pile) >= 4 and not game.over
    before = {seat: id(s) for seat, (_k, s) in table.gm.strategies.items()}
    await table.submit(SeatBot(ann, 3, seat=2, strategy="heuristic"))
    await table.submit(SeatBot(ann, 4, seat=3, strategy="search"))
    await until(lambda: len(ann.replies(4)) == 1)
    assert isinstance(ann.last_reply(3), m.Ok) and isinstance(ann.last_reply(4), m.Ok)
    assert table.gm.strategies[3][1].name == "search"
    assert id(table.gm.strategies[2][1]) != before[2] != id(table.gm.strategies[3][1])
    assert bots_remember(table) == len(game.pile)
    count = game.actions_taken
    await play_ann(table, ann, 100, lambda: game.actions_taken >= count + 8)


# ---------------------------------------------------------------- the store
#: The schema of the tables a store held before the game master's setup was kept
#: (as released; frozen here, whatever ``sqlite_store.SCHEMA`` becomes).
OLD_SCHEMA = """
CREATE TABLE names (
    name TEXT PRIMARY KEY, display TEXT NOT NULL, salt BLOB NOT NULL, digest BLOB NOT NULL,
    created REAL NOT NULL);
CREATE TABLE tables (
    id INTEGER PRIMARY KEY, ruleset TEXT NOT NULL, seats INTEGER NOT NULL,
    options TEXT NOT NULL, creator TEXT, master TEXT, settings TEXT NOT NULL,
    closed INTEGER NOT NULL DEFAULT 0, created REAL NOT NULL);
CREATE TABLE seats (
    table_id INTEGER NOT NULL, seat INTEGER NOT NULL, name TEXT, token_hash BLOB,
    PRIMARY KEY (table_id, seat));
CREATE TABLE games (
    table_id INTEGER NOT NULL, game INTEGER NOT NULL, seed INTEGER NOT NULL,
    dealer INTEGER, deck TEXT, seq INTEGER NOT NULL, scores TEXT, started REAL NOT NULL, ended REAL,
    PRIMARY KEY (table_id, game));
CREATE TABLE actions (
    table_id INTEGER NOT NULL, game INTEGER NOT NULL, idx INTEGER NOT NULL,
    seat INTEGER NOT NULL, notation TEXT NOT NULL,
    PRIMARY KEY (table_id, game, idx)) WITHOUT ROWID;
CREATE TABLE talk (
    id INTEGER PRIMARY KEY, table_id INTEGER NOT NULL, name TEXT NOT NULL,
    text TEXT NOT NULL, at REAL NOT NULL);
"""


def old_database(path: Path) -> list[list[Any]]:
    """A data directory's database as the old schema wrote it: table 1, kilodney, ann at
    seat 0, a game under way (its actions played by the default strategy); the actions."""
    game = engine.new_game("kilodney", 4, 5, {"turn_seconds": 0})
    strategy, rng = default_strategy("kilodney"), random.Random(1)
    for _ in range(10):
        seat = game.to_act
        game.apply(seat, strategy.choose(game.view(seat), game.legal_actions(seat), rng))
    actions = game.record()["actions"]
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path)
    conn.executescript(OLD_SCHEMA)
    conn.execute(
        "INSERT INTO tables (id, ruleset, seats, options, creator, master, settings, created)"
        """ VALUES (1, 'kilodney', 4, '{"turn_seconds": 0}', 'ann', 'ann', '{}', 0)"""
    )
    conn.execute("INSERT INTO seats VALUES (1, 0, 'ann', ?)", (b"h" * 32,))
    conn.execute("INSERT INTO games (table_id, game, seed, seq, started) VALUES (1, 1, 5, 1, 0)")
    conn.executemany(
        "INSERT INTO actions VALUES (1, 1, ?, ?, ?)",
        [(i, s, n) for i, (s, n) in enumerate(actions)],
    )
    conn.commit()
    conn.close()
    return actions


async def test_a_database_of_the_old_schema_loads(tmp_path: Path) -> None:
    db = tmp_path / "switchboard.sqlite3"
    actions = old_database(db)
    store = SQLiteStore(db)
    t = store.load().tables[1]
    assert t.game is not None and t.game.actions == actions
    assert (t.bots, t.game.paused, t.game.away) == ({}, False, set())
    await store.commit(BotReserved(1, 2, "search"), PauseSet(1, 1, True), AwaySet(1, 1, 3, True))
    await store.aclose()
    conn = sqlite3.connect(db)
    assert migrate(conn) == []  # opening it again changes nothing
    conn.close()
    store = SQLiteStore(db)
    t = store.load().tables[1]
    await store.aclose()
    assert (t.bots, t.game.paused, t.game.away) == ({2: "search"}, True, {3})  # type: ignore[union-attr]
    # and a server started on it brings the table back, paused, with its bot
    async with serving(lambda: Server(FAST.replace(data_dir=tmp_path))) as (server, _port):
        table = table_of(server, "1")
        assert table.state == PAUSED and table.game is not None
        assert table.game.actions_taken == len(actions)
        assert table.players() == ["ann", "bot:heuristic", "bot:search", "bot:heuristic"]


async def test_migrating_adds_the_column_once(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "x.sqlite3")
    conn.executescript(OLD_SCHEMA)
    added = migrate(conn)
    games = ["games.paused", "games.outcome", "games.options"]
    assert [c for c in added if c.startswith("games.")] == games
    assert migrate(conn) == []
    columns = [row[1] for row in conn.execute("PRAGMA table_info(games)")]
    assert columns.count("paused") == 1
    conn.close()


# ------------------------------------------------------ a real server process
async def test_a_real_server_stopped_with_sigint_keeps_the_setup(
    tmp_path: Path, nursery: trio.Nursery
) -> None:
    """As a person hosting a LAN game would: a bot seated, the game paused, Ctrl-C, start
    again: the lobby shows the same table, paused, with the same players."""
    config = tmp_path / "switchboard.toml"
    config.write_text("[server]\nscrypt_n = 2\n")
    data = tmp_path / "data"
    proc, port, _log = await start_server(nursery, data, config)
    ann = await Client.connect(port, "ann")
    create = m.CreateTable(ruleset="kilodney", seats=4, options={"turn_seconds": 30})
    table = (await ok(ann, create)).table
    await ok(ann, m.Join(table=table, seat=0))
    await ok(ann, m.SeatBot(table=table, seat=2, strategy="search"))
    await ok(ann, m.StartGame(table=table))
    await ok(ann, m.PauseGame(table=table))
    before = await summary(ann, table)
    await ann.aclose()
    proc.send_signal(signal.SIGINT)
    with trio.fail_after(10):
        assert await proc.wait() == 0
    proc, port, _log = await start_server(nursery, data, config)
    ann = await Client.connect(port, "ann")
    after = await summary(ann, table)
    assert after["state"] == "paused" and after["players"] == before["players"]
    assert after["players"] == ["ann", "bot:heuristic", "bot:search", "bot:heuristic"]
    await ok(ann, m.ResumeGame(table=table))
    assert (await summary(ann, table))["state"] == "playing"
    await ann.aclose()
    proc.send_signal(signal.SIGINT)
    with trio.fail_after(10):
        await proc.wait()
