"""Run trio inside prompt_toolkit's asyncio loop: trio's guest mode, one thread.

prompt_toolkit owns the terminal and runs on asyncio; our networking is trio.
``trio.lowlevel.start_guest_run`` lets trio run *as a guest* of the asyncio
loop: trio schedules its work with the loop's ``call_soon_threadsafe`` and
only the waiting for I/O happens off the main thread, so both sides share one
thread and may call each other's plain (non-async) functions directly. The
rules, as trio's own ``aiotrio_run`` test states them:

- one cancel scope ends the trio side; the UI ending cancels it, and the trio
  side ending (say the server went away for good) ends the UI;
- the trio run is always allowed to finish before the asyncio loop closes (its
  ``done_callback`` resolves a future the host awaits), so no trio task is
  ever abandoned half-way;
- lines typed in the UI cross to trio through ``Bridge.to_trio``
  (``TrioToken.run_sync_soon``), the one thread-safe door into a trio run.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

import outcome
import trio

from client.terminal.app import ClientApp


class Bridge:
    """What the two sides share: the trio token, the trio side's cancel scope, the UI."""

    def __init__(self, app: ClientApp) -> None:
        self.app = app
        self.token: trio.lowlevel.TrioToken | None = None
        self.scope: trio.CancelScope | None = None
        self.finished = False
        self.lines_send, self.lines_recv = trio.open_memory_channel[str](float("inf"))

    def to_trio(self, fn: Callable[..., object], *args: Any) -> None:
        """Call ``fn(*args)`` inside the trio run, soon (from the asyncio side)."""
        if self.token is not None and not self.finished:
            with contextlib.suppress(trio.RunFinishedError):
                self.token.run_sync_soon(fn, *args)

    def submit(self, line: str) -> None:
        """The UI's ``submit``: hand a typed line to the trio side."""
        self.to_trio(self._put, line)

    def _put(self, line: str) -> None:
        with contextlib.suppress(trio.ClosedResourceError, trio.BrokenResourceError):
            self.lines_send.send_nowait(line)

    def cancel(self) -> None:
        """End the trio side (from the asyncio side)."""
        if self.scope is not None:
            self.to_trio(self.scope.cancel)


async def run_async(app: ClientApp, trio_main: Callable[[Bridge], Awaitable[object]]) -> int:
    """Run the UI on this asyncio loop and ``trio_main(bridge)`` as trio's guest."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future[outcome.Outcome[object]] = loop.create_future()
    bridge = Bridge(app)
    app.send_lines_to(bridge.submit)

    async def trio_entry() -> object:
        bridge.token = trio.lowlevel.current_trio_token()
        try:
            with trio.CancelScope() as scope:
                bridge.scope = scope
                return await trio_main(bridge)
            return None  # cancelled from the asyncio side: the UI ended first
        finally:
            bridge.finished = True
            loop.call_soon(app.exit)

    def trio_done(result: outcome.Outcome[object]) -> None:
        if not done.done():
            done.set_result(result)

    trio.lowlevel.start_guest_run(
        trio_entry,
        run_sync_soon_threadsafe=loop.call_soon_threadsafe,
        done_callback=trio_done,
        host_uses_signal_set_wakeup_fd=True,
    )

    def pre_run() -> None:
        if bridge.finished:
            app.exit()
        else:
            app.application.create_background_task(app.tick())

    result: int | None = 0
    try:
        result = await app.application.run_async(pre_run=pre_run)
    finally:
        bridge.cancel()
        trio_outcome = await done  # the trio run always finishes before we return
    trio_outcome.unwrap()
    return int(result or 0)


def run(app: ClientApp, trio_main: Callable[[Bridge], Awaitable[object]]) -> int:
    """``run_async`` on a fresh asyncio loop: the entry point of ``switchboard play``."""
    return asyncio.run(run_async(app, trio_main))
