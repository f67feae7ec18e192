"""A table's inbox: the bounded channel its connections queue commands on.

A connection never touches the table's game: it queues a command here, and the
table's loop takes them one at a time (``next``). A full inbox is back-pressure on
that client only. Once the table is closed (or failed), every request still queued,
and every one sent after, gets its one reply, ``no_table``, instead of silence.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable

import trio

from server.core import wire
from server.core.commands import Command, Detach
from server.tables.alarms import TICK, alarms

CLOSED = (trio.BrokenResourceError, trio.ClosedResourceError)


def refuse_closed(command: object, table: int) -> None:
    """The one reply to a request that reached a closed table (a ``Detach`` needs none)."""
    member = getattr(command, "member", None)
    if member is not None and not isinstance(command, Detach):
        req = getattr(command, "req", None)
        member.deliver(wire.error(req, "no_table", f"table {table} is closed", table))


class Inbox:
    """One table's queue of commands. ``interrupt`` sees each command as it is queued
    (a close or a game master's command cancels a bot's thought rather than wait)."""

    def __init__(self, table_id: int, size: int, interrupt: Callable[[object], None]) -> None:
        self.table_id = table_id
        #: commands, and the alarms' ``TICK`` (dropped when it is full: the table is busy)
        self._send, self._receive = trio.open_memory_channel[Command | object](size)
        self._interrupt = interrupt
        self.alarm_at = math.inf  #: the deadline the alarm is set for (``server.tables.alarms``)

    async def submit(self, command: Command) -> None:
        """Queue a command; waits while the inbox is full (back-pressure on that client only).

        With room, it is queued without yielding: the connection's reader goes on to
        its next message or its next read, which waits anyway (a yield here was a task
        switch more per action). Only a full inbox makes the sender wait."""
        self._interrupt(command)
        try:
            self._send.send_nowait(command)
            return
        except trio.WouldBlock:
            pass
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            refuse_closed(command, self.table_id)
            return
        try:
            await self._send.send(command)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            refuse_closed(command, self.table_id)

    def submit_nowait(self, command: Command) -> bool:
        """Queue a command if there is room; False if the table is busy or gone."""
        try:
            self._send.send_nowait(command)
        except (trio.WouldBlock, trio.BrokenResourceError, trio.ClosedResourceError):
            return False
        self._interrupt(command)
        return True

    async def next(self, deadline: float) -> Command | None:
        """The next command, or None if none came before ``deadline`` (trio time).

        A command already queued is taken even if the deadline has passed (it came
        before the table looked). The wait is timed by an alarm (``server.tables.alarms``),
        not a cancel scope of its own, which cost every action its entry and exit."""
        receive = self._receive
        while True:
            try:
                item = receive.receive_nowait()
            except trio.WouldBlock:
                pass
            else:
                await trio.lowlevel.checkpoint()
                if item is not TICK:  # a command: mypy does not narrow a union by identity
                    return item  # type: ignore[return-value]
                continue  # an alarm's: the deadline is looked at below
            if deadline <= trio.current_time():
                await trio.lowlevel.checkpoint()
                return None
            if deadline == math.inf:
                self.alarm_at = math.inf  # an alarm set before is stale now
            else:
                alarms().set(self, deadline)
            item = await receive.receive()
            if item is not TICK:  # a command: mypy does not narrow a union by identity
                return item  # type: ignore[return-value]

    def wake(self) -> None:
        """The alarm's deadline came: put ``TICK`` in, for ``next`` to look at the time."""
        with contextlib.suppress(trio.WouldBlock, *CLOSED):
            self._send.send_nowait(TICK)

    def queued(self) -> int:
        return self._receive.statistics().current_buffer_used

    def refuse_the_rest(self) -> None:
        """The table is closed (or failed): every request still queued, and every one
        sent from now on, gets its one reply, ``no_table``, instead of silence.

        Closing the send side first makes a sender blocked on a full inbox (and any
        later ``submit``) fail at once, and answer for itself; what was already
        queued is answered here."""
        self._send.close()
        while True:
            try:
                command = self._receive.receive_nowait()
            except (trio.WouldBlock, trio.EndOfChannel, trio.ClosedResourceError):
                break
            refuse_closed(command, self.table_id)
        self._receive.close()
