"""Alarms: one task per trio run that wakes a table's inbox when its deadline comes.

A table waits for its next command until a deadline (a turn clock, a bot's move, its
own end: ``server.tables.table.Table._deadline``). Waiting under a cancel scope of
its own cost every action a scope's entry and exit, a measurable share of the
server's CPU at saturation. Instead a table sets an alarm (``set``: a push on one
heap) and waits on its inbox alone; when the time comes this module's task puts a
``TICK`` in that inbox, and the table, finding its deadline passed, does what was
due. An alarm set again (the deadline moved) leaves the older entry in the heap,
where it is skipped when it comes up.

The task is a system task of the trio run, started with the first alarm, sleeping
until the earliest one (under ``MockClock`` the clock jumps to it as to any
deadline). An inbox is held weakly: a table gone is never kept alive by its alarm.
"""

from __future__ import annotations

import heapq
import itertools
import math
import weakref
from typing import Any, Final, Protocol

import trio

#: the fewest entries at which the heap is pruned of alarms set again since
PRUNE_AT = 1024


class _Tick:
    """What an alarm puts in an inbox: its deadline may have come."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "TICK"


TICK: Final = _Tick()


class Woken(Protocol):
    """What an alarm wakes (``server.tables.inbox.Inbox``)."""

    alarm_at: float  #: the deadline its alarm is set for now (inf: none)

    def wake(self) -> None:
        """Put ``TICK`` in it if there is room (a full inbox is busy anyway)."""


class Alarms:
    """The alarms of one trio run: a heap of (deadline, order, inbox) and the task that
    sleeps until the earliest."""

    def __init__(self) -> None:
        self._heap: list[tuple[float, int, weakref.ref[Any]]] = []
        self._order = itertools.count()
        self._scope: trio.CancelScope | None = None  #: the task's sleep, until ``_heap[0]``
        self._started = False
        self._prune_at = PRUNE_AT  #: the heap's size at which stale entries are dropped

    def _prune(self) -> None:
        """Drop the entries set again since (each action leaves one), keeping the heap
        within a few times the alarms that are set."""
        live = []
        for deadline, order, ref in self._heap:
            inbox = ref()
            if inbox is not None and inbox.alarm_at == deadline:
                live.append((deadline, order, ref))
        heapq.heapify(live)
        self._heap[:] = live  # the same list: ``_run`` holds it
        self._prune_at = max(PRUNE_AT, 4 * len(live))

    def set(self, inbox: Woken, deadline: float) -> None:
        """Wake ``inbox`` at ``deadline`` (trio time), unless set again meanwhile. A NaN
        is refused here, in the caller's task, as a cancel scope would refuse it: in the
        heap it would fail the alarms' task, and with it the whole trio run."""
        if math.isnan(deadline):
            raise ValueError("an alarm's deadline must not be NaN")
        if inbox.alarm_at == deadline:
            return  # set already (a command came, and the deadline stayed)
        inbox.alarm_at = deadline
        heap = self._heap
        heapq.heappush(heap, (deadline, next(self._order), weakref.ref(inbox)))
        if len(heap) > self._prune_at:
            self._prune()
        if not self._started:
            self._started = True
            trio.lowlevel.spawn_system_task(self._run, name="switchboard-alarms")
        scope = self._scope
        if scope is not None and deadline < scope.deadline:
            scope.deadline = deadline  # earlier than the task sleeps until

    async def _run(self) -> None:
        heap = self._heap
        while True:
            with trio.CancelScope(deadline=heap[0][0] if heap else math.inf) as scope:
                self._scope = scope
                await trio.sleep_forever()
            self._scope = None
            now = trio.current_time()
            while heap and heap[0][0] <= now:
                deadline, _order, ref = heapq.heappop(heap)
                inbox = ref()
                if inbox is not None and inbox.alarm_at == deadline:
                    inbox.alarm_at = math.inf
                    inbox.wake()


_alarms: trio.lowlevel.RunVar[Alarms] = trio.lowlevel.RunVar("switchboard_alarms")


def alarms() -> Alarms:
    """This trio run's alarms (made on first use)."""
    try:
        return _alarms.get()
    except LookupError:
        made = Alarms()
        _alarms.set(made)
        return made
