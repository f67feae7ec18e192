"""Ratings: a rated game moves its players' ratings the way its result went, in the
transaction that stores its end; they survive a restart and agree with a rebuild from
the stored games; an unrated table moves nothing; bots are rated by strategy."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import trio
from e2e_client import TEST_CONFIG, Client, serving_server

import engine
from protocol import messages as m
from server.app import DB_NAME, Server
from server.players.profiles import BASE, MU, SIGMA, disagreements, rebuild
from server.store import profile_sql
from server.store.base import MemoryStore

RULESET = "switch"
FAMILY = engine.ruleset(RULESET).family
CONFIG = TEST_CONFIG.replace(close_grace_seconds=0.5, store_retry_seconds=0.05)


def serving(data: Path | None = None, store: Any = None) -> Any:
    return serving_server(Server(CONFIG.replace(data_dir=data), store))


async def ok(client: Client, message: m.Message) -> Any:
    reply = await client.request(message)
    assert not isinstance(reply, m.Error), reply
    return reply


async def table_of(ann: Client, bob: Client | None, **options: Any) -> str:
    """A 2-seat table, ann in seat 0 and bob (or a bot) in seat 1, dealt."""
    table = (await ok(ann, m.CreateTable(ruleset=RULESET, seats=2, options=options))).table
    await ok(ann, m.Join(table=table, seat=0))
    if bob is not None:
        await ok(bob, m.Join(table=table, seat=1))
    await ok(ann, m.StartGame(table=table))
    await dealt(ann, table)
    return table


async def dealt(client: Client, table: str) -> None:
    """Until ``client`` is told the game at ``table`` runs (the start's ``ok`` comes first)."""
    await client.wait_for(
        lambda x: isinstance(x, m.Snapshot) and x.table == table and x.state == "playing"
    )


async def play_out(server: Server, table_id: str, seats: dict[int, Client]) -> m.Received:
    """The seats' players act (the first legal action) until the game is over or an
    action is refused; the refusal, or the last ``ok``. A seat with no client is a bot's."""
    table = server.lobby.get(table_id)
    assert table is not None and table.game is not None
    reply: m.Received = m.Ok()
    with trio.fail_after(30):
        while not table.game.over:
            seat = table.game.to_act
            if seat not in seats:
                await trio.sleep(0.002)  # the bot's move
                continue
            action = str(table.game.legal_actions(seat)[0])
            reply = await seats[seat].request(m.Act(table=table_id, action=action))
            if isinstance(reply, m.Error):
                return reply
    return reply


def places(server: Server, table_id: str) -> list[int]:
    from engine.places import outcome_places

    table = server.lobby.get(table_id)
    assert table is not None and table.game is not None
    return outcome_places(table.game)


async def test_a_rated_game_moves_both_ratings_the_way_it_went() -> None:
    async with serving(store=MemoryStore()) as (server, port):
        ann, bob = await Client.connect(port, "Ann"), await Client.connect(port, "bob")
        table = await table_of(ann, bob)  # two people: rated by default
        await play_out(server, table, {0: ann, 1: bob})
        won = places(server, table)
        profiles = server.ops.profiles
        assert profiles is not None
        a, b = profiles.rating("ann", FAMILY), profiles.rating("BOB", FAMILY)
        assert a is not None and b is not None and a.games == b.games == 1
        winner, loser = (a, b) if won[0] < won[1] else (b, a)
        assert won[0] != won[1]
        assert winner.mu > MU > loser.mu
        assert winner.sigma < SIGMA and loser.sigma < SIGMA
        assert a.shown == "Ann"  # kept under the normal form, shown as claimed


async def test_an_unrated_table_moves_nothing_but_keeps_the_game() -> None:
    store = MemoryStore()
    async with serving(store=store) as (server, port):
        ann, bob = await Client.connect(port, "ann"), await Client.connect(port, "bob")
        table = await table_of(ann, bob, rated=False)
        await play_out(server, table, {0: ann, 1: bob})
        assert server.ops.profiles is not None and server.ops.profiles.ratings == {}
        assert [r.rated for r in store.results] == [False]
        assert (await store.history("ann", 0, 10))[1] == 1


async def test_one_person_against_bots_is_rated_only_at_a_rated_table() -> None:
    store = MemoryStore()
    async with serving(store=store) as (server, port):
        ann = await Client.connect(port, "ann")
        table = await table_of(ann, None)  # one person and a bot: not rated by default
        await play_out(server, table, {0: ann})
        profiles = server.ops.profiles
        assert profiles is not None and profiles.ratings == {}
        table = (
            await ok(ann, m.CreateTable(ruleset=RULESET, seats=2, options={"rated": True}))
        ).table
        await ok(ann, m.Join(table=table, seat=0))
        await ok(ann, m.SeatBot(table=table, seat=1, strategy="random"))
        await ok(ann, m.StartGame(table=table))
        await dealt(ann, table)
        await play_out(server, table, {0: ann})
        bot = profiles.rating("bot:random", FAMILY)
        assert bot is not None and bot.games == 1 and bot.shown == "bot:random"
        assert profiles.rating("ann", FAMILY) is not None
        assert store.results[-1].players == ("ann", "bot:random")


async def test_two_people_and_a_bot_are_rated_by_default_the_bot_by_strategy() -> None:
    """Game night fills the empty seats with bots: after ten such games ``top`` said
    nobody was rated, as a game was rated only when every seat was a person's."""
    store = MemoryStore()
    async with serving(store=store) as (server, port):
        ann, bob = await Client.connect(port, "ann"), await Client.connect(port, "bob")
        table = (await ok(ann, m.CreateTable(ruleset=RULESET, seats=3))).table
        await ok(ann, m.Join(table=table, seat=0))
        await ok(bob, m.Join(table=table, seat=1))
        await ok(ann, m.SeatBot(table=table, seat=2, strategy="random"))
        await ok(ann, m.StartGame(table=table))
        await dealt(ann, table)
        await play_out(server, table, {0: ann, 1: bob})
        assert [r.rated for r in store.results] == [True]
        profiles = server.ops.profiles
        assert profiles is not None
        assert {r.player for r in profiles.top(FAMILY, 10)} == {"ann", "bob", "bot:random"}


async def test_a_bad_rated_option_is_refused() -> None:
    async with serving(store=MemoryStore()) as (_server, port):
        ann = await Client.connect(port, "ann")
        reply = await ann.request(m.CreateTable(ruleset=RULESET, seats=2, options={"rated": 3}))
        assert isinstance(reply, m.Error) and reply.code == "bad_options", reply
        table = (await ok(ann, m.CreateTable(ruleset=RULESET, seats=2))).table
        reply = await ann.request(m.SetOptions(table=table, options={"rated": "maybe"}))
        assert isinstance(reply, m.Error) and reply.code == "bad_options", reply
        await ok(ann, m.SetOptions(table=table, options={"rated": False}))
        listed = (await ok(ann, m.ListTables())).tables
        assert [t["rated"] for t in listed if t["table"] == table] == [False]


def stored(data: Path, sql: str) -> list[tuple[Any, ...]]:
    conn = sqlite3.connect(data / DB_NAME)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


async def test_ratings_survive_a_restart_and_agree_with_a_rebuild(tmp_path: Path) -> None:
    async with serving(tmp_path) as (server, port):
        ann, bob = await Client.connect(port, "ann"), await Client.connect(port, "bob")
        for _ in range(2):
            table = await table_of(ann, bob)
            await play_out(server, table, {0: ann, 1: bob})
        assert server.ops.profiles is not None
        before = dict(server.ops.profiles.ratings)
        assert {r.games for r in before.values()} == {2}
    async with serving(tmp_path) as (server, _port):
        assert server.ops.profiles is not None
        assert server.ops.profiles.ratings == before
    conn = sqlite3.connect(tmp_path / DB_NAME)
    rebuilt = rebuild(profile_sql.results(conn))
    assert disagreements(profile_sql.read_ratings(conn), rebuilt) == []
    assert rebuilt == before
    conn.close()


async def test_a_store_failure_at_the_end_keeps_neither_the_end_nor_the_ratings(
    tmp_path: Path,
) -> None:
    """The game's last action is refused when its result cannot be written (a real
    SQLite abort inside the end's transaction): the game is not ended on disk, no
    rating moved anywhere; once writes succeed, the same action ends it and rates it."""
    async with serving(tmp_path) as (server, port):
        ann, bob = await Client.connect(port, "ann"), await Client.connect(port, "bob")
        table = await table_of(ann, bob)
        await server.store.run_in_writer(  # type: ignore[attr-defined]
            lambda conn: conn.execute(
                "CREATE TEMP TRIGGER no_results BEFORE INSERT ON results"
                " BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END"
            )
        )
        refused = await play_out(server, table, {0: ann, 1: bob})
        assert isinstance(refused, m.Error) and refused.code == "store_failed", refused
        t = server.lobby.get(table)
        assert t is not None and t.game is not None and not t.game.over
        assert stored(tmp_path, "SELECT ended FROM games") == [(None,)]
        assert stored(tmp_path, "SELECT COUNT(*) FROM ratings") == [(0,)]
        assert server.ops.profiles is not None and server.ops.profiles.ratings == {}
        await server.store.run_in_writer(  # type: ignore[attr-defined]
            lambda conn: conn.execute("DROP TRIGGER no_results")
        )
        assert isinstance(await play_out(server, table, {0: ann, 1: bob}), m.Ok)
        assert t.game.over
        assert stored(tmp_path, "SELECT COUNT(*) FROM ratings") == [(2,)]
        assert len(server.ops.profiles.ratings) == 2
    assert len(stored(tmp_path, "SELECT * FROM results")) == 1


async def test_a_new_player_shows_the_base_rating() -> None:
    from server.players.profiles import shown_rating

    assert shown_rating(MU, SIGMA) == BASE


async def test_switchboard_ratings_checks_and_rebuilds(tmp_path: Path, capsys: Any) -> None:
    from switchboard.cli import main

    async with serving(tmp_path) as (server, port):
        ann, bob = await Client.connect(port, "ann"), await Client.connect(port, "bob")
        table = await table_of(ann, bob)
        await play_out(server, table, {0: ann, 1: bob})
        assert main(["ratings", "--data", str(tmp_path)]) == 0  # beside a live server
        assert main(["ratings", "--rebuild", "--data", str(tmp_path)]) == 2  # it holds the lock
    assert "ok: 2 ratings agree with a rebuild from 1 finished games" in capsys.readouterr().out
    conn = sqlite3.connect(tmp_path / DB_NAME)
    conn.execute("UPDATE ratings SET mu = mu + 1 WHERE player = 'ann'")
    conn.commit()
    conn.close()
    assert main(["ratings", "--check", "--data", str(tmp_path)]) == 1
    assert "ann in shedding: stored mu" in capsys.readouterr().out
    assert main(["ratings", "--rebuild", "--data", str(tmp_path)]) == 0
    assert main(["ratings", "--data", str(tmp_path)]) == 0
    assert main(["ratings", "--data", str(tmp_path / "nowhere")]) == 2


async def test_who_plays_a_game_survives_a_restart_mid_game(tmp_path: Path) -> None:
    """The players are fixed at the deal and stored with it: a game dealt before a restart
    and finished after it rates the same two people (before, nothing said who they were)."""
    async with serving(tmp_path) as (server, port):
        ann, bob = await Client.connect(port, "ann"), await Client.connect(port, "bob")
        table = await table_of(ann, bob)
        tokens = {0: ann.tokens[table], 1: bob.tokens[table]}
    async with serving(tmp_path) as (server, port):
        ann, bob = await Client.connect(port, "ann"), await Client.connect(port, "bob")
        for client, seat in ((ann, 0), (bob, 1)):
            await ok(client, m.Resume(table=table, token=tokens[seat], last_seq=0))
        await play_out(server, table, {0: ann, 1: bob})
        assert server.ops.profiles is not None
        assert {p for p, _f in server.ops.profiles.ratings} == {"ann", "bob"}
    assert stored(tmp_path, "SELECT players, rated FROM results") == [('["ann", "bob"]', 1)]


async def test_a_store_without_tallies_counts_them_from_its_results(tmp_path: Path) -> None:
    """A data directory written before games were tallied gets its tallies counted once
    from the stored results when it is opened."""
    async with serving(tmp_path) as (server, port):
        ann, bob = await Client.connect(port, "ann"), await Client.connect(port, "bob")
        table = await table_of(ann, bob)
        await play_out(server, table, {0: ann, 1: bob})
        before = await server.store.tallies("ann")  # type: ignore[attr-defined]
    conn = sqlite3.connect(tmp_path / DB_NAME)
    conn.execute("DROP TABLE tallies")
    conn.commit()
    conn.close()
    async with serving(tmp_path) as (server, _port):
        assert [t.played for t in before] == [1]
        assert await server.store.tallies("ann") == before  # type: ignore[attr-defined]
        assert (await server.store.history("ann", 0, 5))[1] == 1  # type: ignore[attr-defined]
