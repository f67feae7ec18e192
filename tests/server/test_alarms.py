"""A table's inbox is woken by an alarm at its deadline (``server.tables.alarms``), not
by a cancel scope of its own: a command that comes first is taken, an alarm set again
since is skipped, a full inbox is not overfilled, and the alarms' heap stays small."""

from __future__ import annotations

import gc
import math

import pytest
import trio
import trio.testing
from support import Member

from server.core.commands import Start
from server.tables import alarms
from server.tables.inbox import Inbox


async def test_the_deadline_comes_unless_a_command_comes_first(
    autojump_clock: trio.testing.MockClock,
) -> None:
    inbox = Inbox(1, 4, lambda command: None)
    ann = Member("ann")
    start = trio.current_time()
    assert await inbox.next(start + 5) is None
    assert trio.current_time() == start + 5

    async def later() -> None:
        await trio.sleep(1)
        inbox.submit_nowait(Start(ann, 1))

    async with trio.open_nursery() as nursery:
        nursery.start_soon(later)
        got = await inbox.next(start + 10)  # a command at 6: before its deadline
    assert isinstance(got, Start) and trio.current_time() == start + 6
    # the alarm set for 10 is set again, for 20: it is skipped at 10
    assert await inbox.next(start + 20) is None
    assert trio.current_time() == start + 20
    # a deadline passed already, with nothing queued: at once
    assert await inbox.next(start) is None
    assert trio.current_time() == start + 20


async def test_an_alarm_never_overfills_a_full_inbox(
    autojump_clock: trio.testing.MockClock,
) -> None:
    inbox = Inbox(1, 2, lambda command: None)
    ann = Member("ann")
    alarms.alarms().set(inbox, trio.current_time() + 1)
    assert inbox.submit_nowait(Start(ann, 1)) and inbox.submit_nowait(Start(ann, 2))
    await trio.sleep(2)  # the alarm came: no room, so no tick
    assert inbox.queued() == 2 and not inbox.submit_nowait(Start(ann, 3))
    deadline = trio.current_time() - 1  # passed: the queued commands first, then None
    assert [await inbox.next(deadline) for _ in range(3)][2] is None


async def test_alarms_set_again_are_pruned_and_a_gone_inbox_is_not_kept(
    autojump_clock: trio.testing.MockClock,
) -> None:
    inbox = Inbox(1, 4, lambda command: None)
    table_alarms = alarms.alarms()
    now = trio.current_time()
    for i in range(10 * alarms.PRUNE_AT):  # an action's each: the deadline moves on
        table_alarms.set(inbox, now + 60 + i)
    assert len(table_alarms._heap) <= alarms.PRUNE_AT + 1
    gone = Inbox(2, 4, lambda command: None)
    table_alarms.set(gone, now + 1)
    del gone
    gc.collect()
    await trio.sleep(2)  # its alarm comes up and finds nothing to wake
    assert await inbox.next(now + 60 + 10 * alarms.PRUNE_AT - 1) is None


async def test_a_nan_deadline_fails_its_table_alone() -> None:
    inbox = Inbox(1, 4, lambda command: None)
    with pytest.raises(ValueError, match="NaN"):
        await inbox.next(math.nan)
    assert await inbox.next(trio.current_time()) is None  # the alarms still work
