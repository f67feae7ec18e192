"""The disk fills and frees at random moments, many times, under a server whose tables
keep writing: every request is answered (stored, or refused with ``store_failed``),
and once the space is back every table carries on and says so.

What it looks for: in 2 of 13 runs with a 16 MiB data disk filling mid-game, one
seat's ``act`` had no reply for over 10 s and its table never logged that writes
succeed again. Here the disk is ``PRAGMA max_page_count`` (as in
``test_store_failures.py``), set to the pages in use (plus a few, so some writes
still fit) at a random moment, then lifted after a random while; meanwhile a person
plays by ``act``, talks and new names are claimed, while server bots play two more
tables (and, in the long run, another person plays a search bot, whose moves are
thought in a worker process). Each round checks that every request got its answer,
and that after the space is freed no table is left waiting on the store.
``SWITCHBOARD_SOAK=long`` runs it long (``slow``); CI runs the short one."""

from __future__ import annotations

import itertools
import logging
import random
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import trio
from e2e_client import TEST_CONFIG, Client, serving_server
from support import SOAK, soak

from protocol import messages as m
from server.app import DB_NAME, Server
from server.players.chip_audit import audit_file
from server.tables.table import Table

CONFIG = TEST_CONFIG.replace(
    close_grace_seconds=0.5, store_retry_seconds=0.05, bot_delay_seconds=0.002, snapshot_every=8
)
#: How long a request may go unanswered before the test calls it stalled: far beyond any
#: wait the server means (a refusal is immediate; a bot table retries every 0.05 s).
STALLED = 30.0
UNLIMITED = 1073741823


async def pragma(server: Server, sql: str) -> Any:
    return await server.store.run_in_writer(  # type: ignore[attr-defined]
        lambda conn: conn.execute(sql).fetchone()
    )


async def until(predicate: Callable[[], Any], what: str, timeout: float = STALLED) -> None:
    with trio.move_on_after(timeout):
        while not predicate():
            await trio.sleep(0.01)
        return
    raise AssertionError(f"stalled: {what}")


class Person:
    """Ann, playing her seat by ``act`` as fast as she is let, a new game after each;
    every reply she waits for is counted by kind."""

    def __init__(self, client: Client, table: str, rng: random.Random) -> None:
        self.client = client
        self.table = table
        self.rng = rng
        self.replies: Counter[str] = Counter()
        self.acted = 0

    async def request(self, message: m.Message) -> m.Received:
        try:
            reply = await self.client.request(message, timeout=STALLED)
        except trio.TooSlowError:
            raise AssertionError(f"stalled: no reply to {message} in {STALLED} s") from None
        kind = reply.code if isinstance(reply, m.Error) else reply.type
        self.replies[f"{message.type}: {kind}"] += 1
        return reply

    async def play(self) -> None:
        while True:
            msg = await self.client.next(timeout=STALLED)
            if isinstance(msg, m.Snapshot) and msg.table == self.table and msg.state == "over":
                while not isinstance(await self.request(m.StartGame(table=self.table)), m.Ok):
                    await trio.sleep(0.02)  # refused while the disk is full: again
                continue
            mine = isinstance(msg, m.Turn) and msg.table == self.table and msg.to_act == msg.seat
            if mine and msg.legal:
                action = self.rng.choice(msg.legal)
                while True:
                    reply = await self.request(m.Act(table=self.table, action=action))
                    if not (isinstance(reply, m.Error) and reply.code == "store_failed"):
                        break
                    await trio.sleep(0.02)  # nothing was taken: the same move again
                self.acted += 1


async def started_table(client: Client, ruleset: str, options: dict[str, Any], seat: bool) -> str:
    create = await client.request(m.CreateTable(ruleset=ruleset, seats=2 if seat else 4,
                                                options=options))  # fmt: skip
    assert isinstance(create, m.Ok), create
    if seat:
        assert isinstance(await client.request(m.Join(table=create.table, seat=0)), m.Seated)
    assert isinstance(await client.request(m.StartGame(table=create.table)), m.Ok)
    return create.table


def waiting(server: Server) -> list[Table]:
    return [t for t in server.lobby.tables.values() if t.store_failing]


@pytest.mark.slow
async def test_a_disk_filling_at_random_moments_never_stalls_a_table(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    rng = random.Random(606)
    rounds = soak(12, 150)
    names = itertools.count()
    async with serving_server(Server(CONFIG.replace(data_dir=tmp_path))) as (server, port):
        ann = await Client.connect(port, "ann")
        her = await started_table(ann, "switch", {"turn_seconds": 0}, seat=True)
        for _ in range(2):  # tables of bots only, writing every few ms
            await started_table(ann, "kilodney", {"turn_seconds": 0, "target": 500}, False)
        chat = await Client.connect(port, "cy")
        assert not isinstance(await chat.request(m.Spectate(table=her)), m.Error)
        person = Person(ann, her, rng)
        people = [person]
        if SOAK == "long":  # and dan against a search bot, which thinks in a worker process
            dan = await Client.connect(port, "dan")
            create = await dan.request(m.CreateTable(ruleset="switch", seats=2,
                                                     options={"turn_seconds": 0}))  # fmt: skip
            assert isinstance(await dan.request(m.Join(table=create.table, seat=0)), m.Seated)
            searcher = m.SeatBot(table=create.table, seat=1, strategy="search")
            assert isinstance(await dan.request(searcher), m.Ok)
            assert isinstance(await dan.request(m.StartGame(table=create.table)), m.Ok)
            people.append(Person(dan, create.table, rng))
        said: Counter[str] = Counter()
        async with trio.open_nursery() as nursery:
            for someone in people:
                nursery.start_soon(someone.play)
            for done in itertools.count():
                # The planned rounds, then more until the disk was full for some write (a
                # loaded machine may write little in a short run): never a vacuous pass.
                refused_yet = server.store.failed_writes  # type: ignore[attr-defined]
                if done >= rounds and (refused_yet or done >= 10 * rounds):
                    break
                await trio.sleep(rng.uniform(0.02, 0.3))
                (pages,) = await pragma(server, "PRAGMA page_count")
                await pragma(server, f"PRAGMA max_page_count = {pages + rng.randint(0, 3)}")
                full_until = trio.current_time() + rng.uniform(0.05, 0.6)
                while trio.current_time() < full_until:
                    talk = await chat.request(m.Say(table=her, text="still there?"), STALLED)
                    said[talk.code if isinstance(talk, m.Error) else talk.type] += 1
                    new = await Client.connect(port)
                    claim = await new.request(
                        m.ClaimName(name=f"guest{next(names)}", secret="pw"), STALLED
                    )
                    said[f"claim {claim.code if isinstance(claim, m.Error) else claim.type}"] += 1
                    await new.aclose()
                    await trio.sleep(rng.uniform(0.0, 0.1))
                await pragma(server, f"PRAGMA max_page_count = {UNLIMITED}")
                acted = [p.acted for p in people]
                # the space is back: every table that waited on the store carries on
                await until(lambda: not waiting(server), f"tables wait: {waiting(server)}")
                for someone, before in zip(people, acted, strict=True):
                    await until(lambda p=someone, a=before: p.acted > a, "a person's moves stopped")
            nursery.cancel_scope.cancel()
        failed = server.store.failed_writes  # type: ignore[attr-defined]
        for someone in people:
            await someone.client.aclose()
        await chat.aclose()
        assert not [r for r in caplog.records if r.exc_info], "no traceback"
    replies = sum((p.replies for p in people), Counter())
    refused = sum(n for k, n in replies.items() if k.endswith("store_failed"))
    print(f"\ndisk-full soak ({SOAK}, {done} rounds): {dict(replies)}, {dict(said)},"
          f" refused {refused}, writes refused in all {failed}")  # fmt: skip
    assert failed, "not vacuous: the disk was full for someone"
    assert audit_file(tmp_path / DB_NAME).problems == []
