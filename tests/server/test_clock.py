"""The turn countdown, pause/resume and the away state, driven by plain numbers and MockClock."""

from __future__ import annotations

import math

import pytest
import trio
import trio.testing
from support import Member

from server.core.commands import Start
from server.tables.clock import AwayTracker, TurnClock
from server.tables.inbox import Inbox


def test_countdown_restarts_when_the_turn_passes() -> None:
    clock = TurnClock(30)
    assert clock.follow(0, now=0.0)
    assert clock.deadline == 30.0
    assert clock.follow(1, now=10.0, actor=0)
    assert clock.deadline == 40.0 and clock.seat == 1


def test_a_second_decision_by_the_same_seat_gets_full_time() -> None:
    clock = TurnClock(30)
    clock.follow(0, now=0.0)
    assert clock.follow(0, now=20.0, actor=0)
    assert clock.deadline == 50.0


def test_an_out_of_turn_action_does_not_stretch_the_countdown() -> None:
    clock = TurnClock(30)
    clock.follow(0, now=0.0)
    assert not clock.follow(0, now=20.0, actor=3)  # seat 3 voted
    assert clock.deadline == 30.0
    assert not clock.follow(0, now=25.0)  # nothing applied (e.g. a refused action)
    assert clock.deadline == 30.0


def test_zero_seconds_is_no_clock() -> None:
    clock = TurnClock(0)
    assert not clock.enabled
    assert not clock.follow(0, now=0.0)
    assert clock.deadline is None and not clock.expired(1e9)


def test_game_over_stops_the_clock() -> None:
    clock = TurnClock(10)
    clock.follow(2, now=0.0)
    clock.follow(None, now=5.0, actor=2)
    assert clock.deadline is None and clock.seat is None and clock.remaining(6.0) is None


def test_pause_keeps_the_time_left_and_resume_gives_it_back() -> None:
    clock = TurnClock(60)
    clock.follow(1, now=0.0)
    clock.pause(45.0)
    assert clock.paused and clock.deadline is None
    assert not clock.expired(10_000.0)
    assert clock.remaining(10_000.0) == 15.0
    clock.pause(50.0)  # pausing twice changes nothing
    assert clock.remaining(10_000.0) == 15.0
    clock.resume(10_000.0)
    assert clock.deadline == 10_015.0
    assert not clock.expired(10_014.9) and clock.expired(10_015.0)


def test_a_turn_that_starts_while_paused_waits_for_resume() -> None:
    clock = TurnClock(20)
    clock.pause(0.0)
    assert clock.follow(3, now=1.0)
    assert clock.deadline is None and clock.remaining(99.0) == 20.0
    clock.resume(100.0)
    assert clock.deadline == 120.0


def test_describe_gives_a_wall_clock_deadline() -> None:
    clock = TurnClock(60)
    clock.follow(1, now=10.0)
    d = clock.describe(now=25.0, wall=1_000_000.0)
    assert d == {
        "seat": 1,
        "turn_seconds": 60.0,
        "remaining": 45.0,
        "deadline": 1_000_045.0,
        "paused": False,
    }
    clock.pause(25.0)
    d = clock.describe(now=99.0, wall=1_000_000.0)
    assert d["paused"] and d["deadline"] is None and d["remaining"] == 45.0


def test_negative_seconds_refused() -> None:
    with pytest.raises(ValueError):
        TurnClock(-1)


def test_two_timeouts_in_a_row_mark_away_and_acting_brings_back() -> None:
    away = AwayTracker()
    assert not away.timed_out(0)
    assert away.acted(0) is False  # acting resets the streak
    assert not away.timed_out(0)  # one in a row again
    assert away.timed_out(0)
    assert away.is_away(0) and not away.is_away(1)
    assert not away.timed_out(0)  # already away: not "newly" away
    assert away.acted(0)
    assert not away.is_away(0)
    away.timed_out(2)
    away.timed_out(2)
    away.clear()
    assert not away.away


async def test_an_inbox_wait_times_out_at_the_clock_on_mock_time(
    autojump_clock: trio.testing.MockClock,
) -> None:
    inbox = Inbox(1, 1, lambda command: None)
    clock = TurnClock(60)
    clock.follow(0, now=trio.current_time())
    start = trio.current_time()
    assert clock.deadline is not None
    assert await inbox.next(clock.deadline) is None
    assert trio.current_time() - start == pytest.approx(60.0)
    act = Start(Member("ann"), 1)
    await inbox.submit(act)  # already waiting: taken even though the deadline has passed
    assert await inbox.next(clock.deadline) is act
    assert await inbox.next(clock.deadline) is None


async def test_an_inbox_wait_without_deadline_waits_for_a_command(
    autojump_clock: trio.testing.MockClock,
) -> None:
    inbox = Inbox(1, 1, lambda command: None)
    late = Start(Member("ann"), 1)
    got: list[object] = []

    async def later() -> None:
        await trio.sleep(10_000)
        await inbox.submit(late)

    async with trio.open_nursery() as nursery:
        nursery.start_soon(later)
        got.append(await inbox.next(math.inf))
    assert got == [late]


async def test_pause_and_resume_with_a_running_clock(
    autojump_clock: trio.testing.MockClock,
) -> None:
    """A table-shaped loop: pause at 20 s, resume 100 s later, the turn ends 40 s after that."""
    inbox = Inbox(1, 4, lambda command: None)
    clock = TurnClock(60)
    clock.follow(1, now=trio.current_time())
    t0 = trio.current_time()
    timeouts: list[float] = []
    pause, resume = Start(Member("ann"), 1), Start(Member("ann"), 2)

    async def master() -> None:
        await trio.sleep(20)
        await inbox.submit(pause)
        await trio.sleep(100)
        await inbox.submit(resume)

    async with trio.open_nursery() as nursery:
        nursery.start_soon(master)
        while not timeouts:
            item = await inbox.next(math.inf if clock.deadline is None else clock.deadline)
            now = trio.current_time()
            if item is None:
                timeouts.append(now - t0)
            elif item is pause:
                clock.pause(now)
            elif item is resume:
                clock.resume(now)
    assert timeouts == [pytest.approx(160.0)]
