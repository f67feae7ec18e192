"""The crowd's lane: the work of connections that hold no seat, one message a loop pass.

Why: trio runs every task that became ready in one pass of its loop (a batch), in an
order of its own. When a crowd of connections asks for the lobby or a record at the
same moment, all of their requests are in the batch a player's ping or action lands
in, and the player's reply waits for all of them. Rates per address bound how much a
crowd asks; they cannot order it.

So a connection that holds no seat at any table and is not from a trusted address (a
lobby browser, a record reader, a newcomer, a crowd) takes a turn in this lane before
each message: one message of the lane starts each pass of the loop, first come, first
served, and the rest wait for the next passes. Whoever holds a seat (or is trusted) is
served in the pass his bytes arrive in, behind one crowd message at most, never
behind all of them; the crowd is still served as fast as the loop turns (one message a
pass, thousands a second), so no honest lobby reader notices.

What it costs: nothing while the crowd's messages come one a pass (the first of a pass
goes straight on, with no extra pass of the loop); only messages that arrive together
wait, each for a pass. The passes are counted by a trio instrument's ``after_io_wait``
(one call a pass), and the waiters let go by a system task, the pump, started by the
first waiter of a burst and ending when nobody waits: it keeps the loop turning while
anyone waits (a loop with nothing else to run would otherwise sleep on its sockets).

The turn is taken before a message is decoded and handled, not before the socket is
read: a read is one system call, the decode and the handler are the work. A turn is
not held while the handler runs (a handler that awaits the store does not stop the
lane): it only orders when each message starts.
"""

from __future__ import annotations

import trio

__all__ = ["CrowdLane"]


class _Passes(trio.abc.Instrument):
    """Counts the passes of trio's loop (each waits for I/O once, maybe for no time)."""

    def __init__(self) -> None:
        self.count = 0

    def after_io_wait(self, timeout: float) -> None:
        self.count += 1


class CrowdLane:
    """One message of the crowd a pass of trio's loop, in the order they asked."""

    __slots__ = ("_given", "_passes", "_pumping", "_run", "_waiting", "served")

    def __init__(self) -> None:
        self._waiting = trio.lowlevel.ParkingLot()
        self._pumping = False
        self._passes = _Passes()
        self._run: object = None  #: the trio run the instrument counts passes in
        self._given = -1  #: the last pass a turn was given for
        self.served = 0  #: turns given since the server started (for the operator, tests)

    def __len__(self) -> int:
        """How many connections wait for their turn now."""
        return len(self._waiting)

    async def turn(self) -> None:
        """Wait for this connection's turn: now if no other message of the lane started
        in this pass and none waits, else after every one that asked before it, each in
        a pass of its own."""
        passes = self._passes
        if self._run is not (run := trio.lowlevel.current_trio_token()):
            self._run = run  # a new run (a server started again): count its passes
            trio.lowlevel.add_instrument(passes)
        if self._given != passes.count and not self._waiting:
            self._given = passes.count
            self.served += 1
            return
        if not self._pumping:
            self._pumping = True
            trio.lowlevel.spawn_system_task(self._pump, name="switchboard crowd lane")
        await self._waiting.park()

    async def _pump(self) -> None:
        """Let one waiter go, then yield until the loop's next pass; end when none wait.
        The waiter let go runs in that next pass, beside whatever became ready for it:
        a seated player's message then waits for one crowd message at most, not for
        every one that arrived with it."""
        try:
            while self._waiting:
                self._waiting.unpark()
                self._given = self._passes.count + 1  # the pass the waiter will run in
                self.served += 1
                await trio.lowlevel.cancel_shielded_checkpoint()
        finally:
            self._pumping = False
