"""Chips are never created or lost: many random games with prizes, wins, abandonments,
closed tables and server restarts, on real table tasks (MockClock: idle players time
out and are played automatically), then once more over a real server and SQLite."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import trio
import trio.testing
from e2e_client import Client
from support import Member, keep_chips, settle, soak

import engine
from protocol import messages as m
from server.app import Server
from server.core.commands import Close, EndGame, Join, SetPrize, Start
from server.core.config import ServerConfig
from server.players.chip_audit import audit_file
from server.players.ledger import Ledger, split_prize
from server.store.base import FINISHED, MemoryStore, TableCreated
from server.tables import course
from server.tables.table import CLOSED, OVER, Table

CONFIG = ServerConfig(host="127.0.0.1", port=0, scrypt_n=2)
FAST = [r for r in ("switch", "gamebot", "blackjack", "taketwo") if r in engine.rulesets()]
NAMES = [f"p{i}" for i in range(6)]


async def wait_until(predicate: Any, limit: float = 1e6) -> None:
    """Sleep on the mock clock until ``predicate()`` holds."""
    end = trio.current_time() + limit
    while not predicate():
        assert trio.current_time() < end, "the table never got there"
        await trio.sleep(0.5)


def check(ledger: Ledger, names: list[str]) -> None:
    ledger.check()
    held = sum(p.amount for p in ledger.prizes().values())
    assert sum(ledger.balance(n) for n in names) + held == 1000 * len(names)


@pytest.mark.parametrize("seed", [1, 2])
async def test_chips_are_conserved_over_random_games(
    seed: int, autojump_clock: trio.testing.MockClock
) -> None:
    assert FAST, "no fast ruleset registered"
    rng = random.Random(seed)
    store = MemoryStore()  # the table store keeps the ledger too: one writer
    ledger = Ledger(store)
    for n in NAMES:
        await ledger.open_account(n)
    fates: dict[str, int] = {}
    for tid in range(1, soak(30, 300) + 1):
        ruleset = rng.choice(FAST)
        rs = engine.ruleset(ruleset)
        seats = rng.randint(rs.min_seats, min(rs.max_seats, 4))
        people = rng.sample(NAMES, rng.randint(1, seats))
        options = {"turn_seconds": rng.choice([1, 5])}
        await store.commit(TableCreated(tid, ruleset, seats, options, people[0], {}))
        fate = rng.choice(["finish", "finish", "abandon", "close", "restart", "restart"])
        fates[fate] = fates.get(fate, 0) + 1
        async with trio.open_nursery() as nursery:
            table = Table(tid, ruleset, seats, options, config=CONFIG, store=store,
                          creator=people[0])  # fmt: skip
            keep_chips(table, ledger)
            await nursery.start(table.run)
            members = [Member(n) for n in people]
            for seat, member in enumerate(members):
                await table.submit(Join(member, 1, seat))
            master = members[0]
            amount = rng.randrange(0, ledger.balance(master.name) + 1)
            await table.submit(SetPrize(master, 2, chips=amount))
            await table.submit(Start(master, 3))
            await settle()
            assert table.game is not None
            prize = ledger.prize(tid)
            assert (0 if prize is None else prize.amount) == amount
            held_before = {n: ledger.balance(n) for n in NAMES}  # the prize is held now
            if fate == "abandon":
                await trio.sleep(rng.uniform(0, 20))
                await table.submit(EndGame(master, 4))
                await wait_until(lambda t=table: t.state == OVER)
            elif fate == "close":
                await trio.sleep(rng.uniform(0, 20))
                await table.submit(Close("an operator closed it"))
                await wait_until(lambda t=table: t.state == CLOSED)
            elif fate == "finish":
                await wait_until(lambda t=table: t.state == OVER)
            else:  # restart: the server dies mid-game (the task is cancelled) ...
                await trio.sleep(rng.uniform(0, 20))
            nursery.cancel_scope.cancel()
        if fate == "restart":
            # ... and comes back: the ledger reloaded, the table replayed from the store
            ledger = Ledger(store)
            check(ledger, NAMES)
            async with trio.open_nursery() as nursery:
                table = Table.restore(store.state.tables[tid], config=CONFIG, store=store)
                keep_chips(table, ledger)
                await nursery.start(table.run)
                await wait_until(lambda t=table: t.state == OVER)
                nursery.cancel_scope.cancel()
        game = table.game
        assert game is not None
        if game.over:  # it ended by the rules (before any abandon): paid to the winners
            ended = course.ended(table, FINISHED)
            winners = [ended.people[s] for s in ended.winners]
            expected = split_prize(amount, winners, master.name)
        else:  # abandoned: back to the game master
            expected = {master.name: amount} if amount else {}
        after = {n: ledger.balance(n) for n in NAMES}
        assert after == {n: held_before[n] + expected.get(n, 0) for n in NAMES}, (fate, expected)
        assert ledger.prize(tid) is None, "a finished or abandoned game holds no prize"
        check(ledger, NAMES)
    assert fates.get("restart") and fates.get("finish")


async def test_prize_survives_a_server_restart_over_sqlite(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    """Set a prize, restart the server mid-game, finish the game: the winner is paid once."""
    config = CONFIG.replace(data_dir=tmp_path)
    server = Server(config)
    port = await nursery.start(server.serve)
    ann = await Client.connect(port, "ann")
    table = (await ann.request(m.CreateTable(ruleset=FAST[0], seats=2))).table
    await ann.request(m.Join(table=table, seat=0))
    assert isinstance(await ann.request(m.SetPrize(table=table, chips=400)), m.Ok)
    assert isinstance(await ann.request(m.StartGame(table=table)), m.Ok)
    await ann.aclose()
    server.shutdown()
    await trio.testing.wait_all_tasks_blocked()
    with trio.fail_after(10):
        while server.store._thread is not None:  # type: ignore[attr-defined]
            await trio.sleep(0.01)

    server = Server(config)
    port = await nursery.start(server.serve)
    ledger = server.ops.ledger
    assert ledger.prize(int(table)) is not None and ledger.balance("ann") == 600
    ann = await Client.connect(port, "ann")
    listed = await ann.request(m.ListTables())
    assert listed.tables[0]["prize"] == 400
    seated = await ann.request(m.Join(table=table, seat=0))
    assert isinstance(seated, m.Seated)
    with trio.fail_after(30):
        await ann.play(table, random.Random(3))
    chips = await ann.request(m.GetChips())
    # ann won it, or the bot on seat 1 did and a bot's share goes back to the funder
    assert chips.balance == 1000
    assert [e["reason"] for e in chips.entries][:1] == ["prize won"]
    ledger.check()
    assert ledger.prize(int(table)) is None
    server.shutdown()
    await trio.testing.wait_all_tasks_blocked()
    assert audit_file(tmp_path / "switchboard.sqlite3").problems == []


async def test_a_game_that_ended_just_before_a_crash_is_paid_at_start(
    autojump_clock: trio.testing.MockClock,
) -> None:
    """The last action and GameEnded were committed, the payout was not: a restart pays it."""
    store = MemoryStore()  # the table store keeps the ledger too: one writer
    ledger = Ledger(store)
    await ledger.open_account("ann")
    await store.commit(TableCreated(1, FAST[0], 2, {"turn_seconds": 1}, "ann", {}))
    async with trio.open_nursery() as nursery:
        table = Table(1, FAST[0], 2, {"turn_seconds": 1}, config=CONFIG, store=store,
                      creator="ann")  # fmt: skip
        keep_chips(table, ledger)
        await nursery.start(table.run)
        ann = Member("ann")
        await table.submit(Join(ann, 1, 0))
        await table.submit(SetPrize(ann, 2, chips=300))
        await table.submit(Start(ann, 3))
        await settle()
        keep_chips(table, None)  # the crash: the payout never happens
        await wait_until(lambda: table.state == OVER)
        nursery.cancel_scope.cancel()
    assert store.state.tables[1].game.over  # type: ignore[union-attr]
    ledger = Ledger(store)  # the server starts again
    assert ledger.prize(1) is not None and ledger.balance("ann") == 700
    async with trio.open_nursery() as nursery:
        table = Table.restore(store.state.tables[1], config=CONFIG, store=store)
        keep_chips(table, ledger)
        await nursery.start(table.run)
        await settle()
        nursery.cancel_scope.cancel()
    assert ledger.prize(1) is None and ledger.balance("ann") == 1000  # ann or the bot won
    check(ledger, ["ann"])
