"""A prize belongs to one game, and a restart respects how every game ended.

Each test runs a real server over SQLite, stops it (or crashes it at the worst
moment), starts another on the same data directory and looks through the wire, as
a player would: the prize is paid or returned exactly once, for its own game."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any

import pytest
import trio
from e2e_client import TEST_CONFIG, Client, serving_server

import engine
from protocol import messages as m
from server.app import DB_NAME, Server
from server.players.chip_audit import audit_file
from server.players.ledger import Ledger

FAST = [r for r in ("switch", "gamebot", "blackjack", "taketwo") if r in engine.rulesets()]
RULESET = FAST[0]
CONFIG = TEST_CONFIG.replace(close_grace_seconds=0.5)


def serving(data: Path, **settings: Any) -> AbstractAsyncContextManager[tuple[Server, int]]:
    """One run of a server on ``data``: started, then shut down (store closed) on leaving."""
    return serving_server(Server(CONFIG.replace(data_dir=data, **settings)))


async def ok(client: Client, message: m.Message) -> Any:
    reply = await client.request(message)
    assert not isinstance(reply, m.Error), reply
    return reply


async def chips(client: Client, name: str | None = None) -> int:
    return (await ok(client, m.GetChips(name=name))).balance


async def listed(client: Client, table: str) -> dict[str, Any]:
    tables = (await ok(client, m.ListTables())).tables
    return next(t for t in tables if t["table"] == table)


async def until(predicate: Callable[[], Any], timeout: float = 10) -> None:
    with trio.fail_after(timeout):
        while not predicate():
            await trio.sleep(0.005)


async def game_played_for_a_prize(ann: Client) -> str:
    """A 2-seat table of ann's against a bot, game 1 played out with a prize of 100."""
    table = (await ok(ann, m.CreateTable(ruleset=RULESET, seats=2))).table
    await ok(ann, m.Join(table=table, seat=0))
    await ok(ann, m.SetPrize(table=table, chips=100))
    await ok(ann, m.StartGame(table=table))
    await ann.play(table, random.Random(1))
    return table


async def test_a_restart_pays_no_game_twice(tmp_path: Path) -> None:
    """Game 1 pays its prize; a prize set after it ended waits for game 2, across a
    restart (before, the restart paid it to game 1's winner a second time)."""
    async with serving(tmp_path) as (_server, port):
        ann = await Client.connect(port, "ann")
        table = await game_played_for_a_prize(ann)
        # ann won, or the bot did and a bot's share goes back to her: 1000 either way
        assert await chips(ann) == 1000
        await ok(ann, m.SetPrize(table=table, chips=200))  # for the next game
        assert await chips(ann) == 800
        await ann.aclose()
    async with serving(tmp_path) as (_server, port):
        ann = await Client.connect(port, "ann")
        assert await chips(ann) == 800, "the restart paid game 1 again"
        row = await listed(ann, table)
        assert (row["state"], row["prize"]) == ("over", 200)
        await ok(ann, m.Join(table=table, seat=0))
        await ok(ann, m.StartGame(table=table))
        await ann.wait_for(lambda x: isinstance(x, m.Snapshot) and x.state == "playing")
        await ann.play(table, random.Random(2))
        assert await chips(ann) == 1000  # game 2 paid once
        await ann.aclose()
    result = audit_file(tmp_path / DB_NAME)
    assert result.problems == [] and result.figures["prizes_settled"] == 2


async def test_a_game_ended_by_the_master_stays_ended_after_a_restart(tmp_path: Path) -> None:
    """``end_game`` returns the prize; after a restart the game is still over, the next
    game's prize is not locked into it, and the master can withdraw it or start."""
    async with serving(tmp_path) as (_server, port):
        ann = await Client.connect(port, "ann")
        table = (await ok(ann, m.CreateTable(ruleset=RULESET, seats=2))).table
        await ok(ann, m.Join(table=table, seat=0))
        await ok(ann, m.SetPrize(table=table, chips=100))
        await ok(ann, m.StartGame(table=table))
        await ok(ann, m.EndGame(table=table))
        assert await chips(ann) == 1000
        await ok(ann, m.SetPrize(table=table, chips=200))
        await ann.aclose()
    async with serving(tmp_path) as (_server, port):
        ann = await Client.connect(port, "ann")
        assert (await listed(ann, table))["state"] == "over"
        await ok(ann, m.SetPrize(table=table, chips=0))  # withdrawn: the game is not running
        assert await chips(ann) == 1000
        await ok(ann, m.Join(table=table, seat=0))
        await ok(ann, m.StartGame(table=table))
        await ann.aclose()
    assert audit_file(tmp_path / DB_NAME).problems == []


async def test_an_abandoned_house_table_stays_abandoned_after_a_restart(tmp_path: Path) -> None:
    """Everyone left a house table mid-game: its game is abandoned, and after a restart
    the table waits for people instead of bots playing the old game on."""
    async with serving(tmp_path, open_tables=(RULESET,)) as (server, port):
        first = await Client.connect(port, "p0")
        table = next(
            t["table"] for t in (await ok(first, m.ListTables())).tables if t["ruleset"] == RULESET
        )
        seats = (await listed(first, table))["seats"]
        people = [first] + [await Client.connect(port, f"p{i}") for i in range(1, seats)]
        for person in people:  # the last one to sit starts it (start when full)
            await ok(person, m.Join(table=table))
        await until(lambda: server.lobby.get(table).state == "playing")  # type: ignore[union-attr]
        for person in people:
            await ok(person, m.Leave(table=table))
        await until(lambda: server.lobby.get(table).state == "over")  # type: ignore[union-attr]
        for person in people:
            await person.aclose()
    async with serving(tmp_path, open_tables=(RULESET,)) as (server, port):
        restored = server.lobby.get(table)
        assert restored is not None and restored.state == "over"
        await trio.sleep(0.05)  # bots would have moved by now (no bot delay in tests)
        assert restored.game is not None and restored.game.actions_taken == restored_actions(
            tmp_path, table
        )


def restored_actions(data: Path, table: str) -> int:
    conn = sqlite3.connect(data / DB_NAME)
    (n,) = conn.execute("SELECT COUNT(*) FROM actions WHERE table_id = ?", (int(table),)).fetchone()
    conn.close()
    return n


async def test_a_crash_between_the_end_and_the_return_returns_the_prize(tmp_path: Path) -> None:
    """The database as an older version's crash could leave it: the game stored as
    ended (the master ended it), the prize still held. The restart returns the prize
    to the master; it pays nobody, and the game does not run again."""
    async with serving(tmp_path) as (_server, port):
        ann = await Client.connect(port, "ann")
        table = (await ok(ann, m.CreateTable(ruleset=RULESET, seats=2))).table
        await ok(ann, m.Join(table=table, seat=0))
        await ok(ann, m.SetPrize(table=table, chips=300))
        await ok(ann, m.StartGame(table=table))
        await ann.aclose()
    conn = sqlite3.connect(tmp_path / DB_NAME)
    conn.execute("UPDATE games SET ended = 1, scores = '[0, 0]' WHERE table_id = ?", (int(table),))
    conn.commit()
    conn.close()
    async with serving(tmp_path) as (_server, port):
        ann = await Client.connect(port, "ann")
        assert (await listed(ann, table))["state"] == "over"
        assert await chips(ann) == 1000
        entries = (await ok(ann, m.GetChips())).entries
        assert entries[0]["reason"] == "prize returned"
        await ann.aclose()


async def test_a_new_name_and_its_chips_are_one_transaction(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server dies right after a new name is stored (here: the step after the
    claim fails): the name has its chips anyway, seen by anyone after a restart."""
    async with serving(tmp_path) as (_server, port):

        async def crash(self: Ledger, name: str) -> bool:
            raise RuntimeError("the process died here")

        monkeypatch.setattr(Ledger, "open_account", crash)
        stream = await Client.connect(port)
        reply = await stream.request(m.ClaimName(name="cy", secret="pw"))
        await stream.aclose()
        monkeypatch.undo()
        assert reply is not None
    async with serving(tmp_path) as (_server, port):
        bob = await Client.connect(port, "bob")
        assert await chips(bob, "cy") == 1000
        await bob.aclose()
    assert audit_file(tmp_path / DB_NAME).problems == []


async def test_setting_the_same_prize_again_writes_nothing(tmp_path: Path) -> None:
    """The same prize set again moves no chips, so no (empty) transaction is written."""
    async with serving(tmp_path) as (_server, port):
        ann = await Client.connect(port, "ann")
        table = (await ok(ann, m.CreateTable(ruleset=RULESET, seats=2))).table
        for _ in range(3):
            await ok(ann, m.SetPrize(table=table, chips=100))
        assert await chips(ann) == 900
        await ann.aclose()
    conn = sqlite3.connect(tmp_path / DB_NAME)
    reasons = [r for (r,) in conn.execute("SELECT reason FROM chip_txns ORDER BY id")]
    (empty,) = conn.execute(
        "SELECT COUNT(*) FROM chip_txns WHERE id NOT IN (SELECT txn FROM chip_entries)"
    ).fetchone()
    conn.close()
    assert (reasons, empty) == (["welcome", "prize"], 0)


async def test_a_data_directory_of_the_old_schema_opens(tmp_path: Path) -> None:
    """Prizes and games kept before a prize named its game: the columns are added, and
    a prize held at a table whose last game is over waits for the next game."""
    async with serving(tmp_path) as (_server, port):
        ann = await Client.connect(port, "ann")
        table = await game_played_for_a_prize(ann)
        await ok(ann, m.SetPrize(table=table, chips=200))
        await ann.aclose()
    conn = sqlite3.connect(tmp_path / DB_NAME)
    for table_name, column in (
        ("chip_txns", "game"),
        ("chip_prizes", "game"),
        ("games", "outcome"),
    ):
        conn.execute(f"ALTER TABLE {table_name} DROP COLUMN {column}")
    conn.commit()
    conn.close()
    async with serving(tmp_path) as (_server, port):
        ann = await Client.connect(port, "ann")
        assert await chips(ann) == 800
        assert (await listed(ann, table))["prize"] == 200
        await ok(ann, m.Join(table=table, seat=0))
        await ok(ann, m.StartGame(table=table))
        await ann.wait_for(lambda x: isinstance(x, m.Snapshot) and x.state == "playing")
        await ann.play(table, random.Random(2))
        assert await chips(ann) == 1000
        await ann.aclose()
    result = audit_file(tmp_path / DB_NAME)
    assert result.problems == [] and result.figures["legacy_prizes"] == 1  # game 1, paid before
