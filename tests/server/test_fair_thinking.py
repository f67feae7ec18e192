"""Search thoughts are shared fairly (``server.tables.thinking.FairQueue``): a worker freed
goes round the owners who wait, so a table never waits behind another owner's queue for
more than one of his thoughts, however many he keeps waiting.

The queue itself is checked with plain trio tasks; then the pool, with one real worker
process and the ``Gated`` test double, which holds the worker until the test has queued
every thought and then notes the order in which the worker was given them."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import trio
from thinking_doubles import Gated

import engine
from engine.strategies import get_strategy
from server.tables import thinking
from server.tables.thinking import PROCESSES, FairQueue, Thinker

RULESET = "switch"
FAMILY = engine.ruleset(RULESET).family


async def served_order(queue: FairQueue, arrivals: list[str]) -> list[str]:
    """Who got a place, in order, when ``arrivals`` (owners; a name in capitals: one
    whose table has people at it, urgent) queue one after another behind a holder of
    every place, and each place is then given back at once."""
    order: list[str] = []
    hold = trio.Event()

    async def holder(task_status: trio.TaskStatus[None]) -> None:
        async with queue.place("holder"):
            task_status.started()
            await hold.wait()

    async def waiter(owner: str, task_status: trio.TaskStatus[None]) -> None:
        task_status.started()
        async with queue.place(owner.lower(), owner.isupper()):
            order.append(owner)
            await trio.sleep(0)

    async with trio.open_nursery() as nursery:
        for _ in range(queue.slots):
            await nursery.start(holder)
        for owner in arrivals:
            await nursery.start(waiter, owner)
            await trio.testing.wait_all_tasks_blocked()  # queued in this order
        hold.set()
    return order


async def test_a_newcomer_waits_for_one_place_of_each_owner_ahead_not_his_queue() -> None:
    order = await served_order(FairQueue(1), ["a", "a", "a", "a", "b", "c", "a", "b"])
    assert order == ["a", "b", "c", "a", "b", "a", "a", "a"]


async def test_one_owner_alone_is_served_first_come_first_served() -> None:
    assert await served_order(FairQueue(2), ["x"] * 5) == ["x"] * 5
    assert FairQueue(2).statistics() == {"borrowed": 0, "waiting": 0, "owners_waiting": 0}


async def test_a_cancelled_waiter_leaves_the_line_and_loses_no_place() -> None:
    queue = FairQueue(1)
    await queue.acquire("a")
    with trio.CancelScope() as scope:
        scope.deadline = trio.current_time() + 0.01
        await queue.acquire("b")  # cancelled while it waits
    assert queue.statistics() == {"borrowed": 1, "waiting": 0, "owners_waiting": 0}
    queue.release()
    assert queue.statistics()["borrowed"] == 0
    await queue.acquire("d")  # the place is there for the next
    assert queue.statistics() == {"borrowed": 1, "waiting": 0, "owners_waiting": 0}


async def test_a_table_where_people_wait_goes_before_tables_of_bots_alone() -> None:
    order = await served_order(FairQueue(1), ["a", "a", "b", "C", "a", "D", "c"])
    assert order == ["C", "D", "a", "b", "c", "a", "a"]
    # among urgent ones, round the owners too: c's second waits for d's one
    order = await served_order(FairQueue(1), ["C", "C", "C", "D", "a"])
    assert order == ["C", "D", "C", "C", "a"]


async def test_an_urgent_waiter_does_not_wait_for_background_work() -> None:
    """Background work (an analysis's chunks) holds every place: an urgent waiter takes
    one more at once; one that is not urgent waits; a second urgent one waits for the
    first (the places in the foreground are still ``slots``)."""
    queue = FairQueue(1)
    await queue.acquire("analysis", background=True)
    with trio.fail_after(1):  # at once: a guard against a hang, not a measurement
        await queue.acquire("person", urgent=True)
    assert queue.statistics()["borrowed"] == 2
    order: list[str] = []

    async def waiter(owner: str, urgent: bool) -> None:
        async with queue.place(owner, urgent):
            order.append(owner)

    async with trio.open_nursery() as nursery:
        nursery.start_soon(waiter, "bots", False)
        nursery.start_soon(waiter, "other", True)
        await trio.testing.wait_all_tasks_blocked()
        assert order == [] and queue.statistics()["waiting"] == 2
        queue.release()  # the person's place: the other urgent one's turn
        await trio.testing.wait_all_tasks_blocked()
        assert order == ["other"]
        queue.release(background=True)  # the analysis's: now the table of bots alone's
    assert order == ["other", "bots"] and queue.statistics()["borrowed"] == 0


def test_a_queue_needs_a_place() -> None:
    with pytest.raises(ValueError):
        FairQueue(0)


async def test_the_pool_gives_its_worker_round_the_owners(tmp_path: Path) -> None:
    """Owner ``crowd`` queues five thoughts, then ``person``'s table asks for one: the
    person's thought is the second the worker is given, not the sixth."""
    gate, log = tmp_path / "gate", tmp_path / "log"
    game = engine.new_game(RULESET, 2, 3, {})
    seat = game.to_act
    assert seat is not None
    view, legal = game.view(seat), game.legal_actions(seat)
    thinker = Thinker(PROCESSES, workers=1)
    warm = get_strategy("random", FAMILY)
    warm.slow = True  # type: ignore[attr-defined]
    try:
        # a worker started first, so the order below is the queue's, not start-up's
        await thinker.choose(FAMILY, warm, view, legal, random.Random(0), owner="warm")
        async with trio.open_nursery() as nursery:

            async def think(label: str, owner: str) -> None:
                bot = Gated(label, gate, log)
                await thinker.choose(FAMILY, bot, view, legal, random.Random(0), owner=owner)

            for i in range(5):
                nursery.start_soon(think, f"crowd{i}", "crowd")
                await trio.testing.wait_all_tasks_blocked()
            with trio.fail_after(30):  # a guard against a hang, not a measurement
                while thinker._queue is None or thinker._queue.statistics()["waiting"] < 4:
                    await trio.sleep(0.01)
            thinking.OWNER.set("person")  # the owner a table's task carries
            nursery.start_soon(think, "person", None)
            with trio.fail_after(30):
                while thinker._queue.statistics()["waiting"] < 5:
                    await trio.sleep(0.01)
            gate.touch()
        assert log.read_text().split() == ["crowd0", "person", "crowd1", "crowd2", "crowd3",
                                           "crowd4"]  # fmt: skip
        assert thinker.failures == 0
    finally:
        await thinker.aclose()
