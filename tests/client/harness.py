"""Drive the real terminal client the way a person would, for the tests and the bench.

``run_client(script, ...)`` starts ``switchboard play`` in this process (a
real server on a loopback port, the full-screen application on asyncio with
trio as its guest), feeds keys through prompt_toolkit's pipe input, renders
to ``DummyOutput``, and hands ``script`` a ``Driver`` that types and reads
the screen as text (``client.terminal.app.render_text``).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from client.terminal.app import ClientApp, render_text
from switchboard.play import play_async

F1 = "\x1bOP"
CTRL_D = "\x04"
ENTER = "\r"
TAB = "\t"


class SizedOutput(DummyOutput):
    """A dummy terminal whose size the test sets (and changes: a resize)."""

    def __init__(self, columns: int = 80, rows: int = 24) -> None:
        self.size = Size(rows=rows, columns=columns)

    def get_size(self) -> Size:
        return self.size


class Driver:
    """Keys in, screen text out."""

    def __init__(self, app: ClientApp, session: Any, pipe: Any) -> None:
        self.app = app
        self.session = session
        self.pipe = pipe

    @property
    def size(self) -> tuple[int, int]:
        s = self.app.application.output.get_size()
        return (s.columns, s.rows)

    def resize(self, columns: int, rows: int) -> None:
        """What SIGWINCH does: the terminal has a new size; prompt_toolkit redraws."""
        self.app.application.output.size = Size(rows=rows, columns=columns)
        self.app.application._on_resize()

    @property
    def state(self) -> Any:
        return self.app.state

    @property
    def table(self) -> Any:
        return self.app.table

    def keys(self, text: str) -> None:
        self.pipe.send_text(text)

    def line(self, text: str) -> None:
        """Type a command line and press Enter."""
        self.pipe.send_text(text + ENTER)

    def screen(self, columns: int | None = None, rows: int | None = None) -> str:
        return render_text(self.app, columns or self.size[0], rows or self.size[1])

    async def until(
        self, predicate: Callable[[], object], timeout: float = 10.0, what: str = ""
    ) -> None:
        """Wait (on the event loop) until ``predicate()`` is true."""
        deadline = time.monotonic() + timeout
        while not predicate():
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what or predicate}\n{self.screen()}")
            await asyncio.sleep(0.005)

    async def until_screen(self, text: str, timeout: float = 10.0) -> str:
        await self.until(lambda: text in self.screen(), timeout, repr(text))
        return self.screen()


async def run_client(
    script: Callable[[Driver], Awaitable[None]], timeout: float = 60.0, **kwargs: Any
) -> int:
    """Run ``switchboard play`` (local server and bots unless ``address`` is given) under
    ``script``; return the client's exit status once the script quit it."""
    kwargs.setdefault("bot_delay", 0.0)
    address = kwargs.pop("address", None)
    with create_pipe_input() as pipe:
        ready: asyncio.Future[Driver] = asyncio.get_running_loop().create_future()

        def on_ready(app: ClientApp, session: Any) -> None:
            if not ready.done():
                ready.set_result(Driver(app, session, pipe))

        task = asyncio.ensure_future(
            play_async(address, input=pipe, output=SizedOutput(), on_ready=on_ready, **kwargs)
        )
        try:
            done, _ = await asyncio.wait({task, ready}, timeout=15, return_when="FIRST_COMPLETED")
            if task in done:
                task.result()
                raise AssertionError("the client ended before it was ready")
            driver = ready.result()
            await asyncio.wait_for(script(driver), timeout)
            return await asyncio.wait_for(task, 10)
        finally:
            if not task.done():
                task.cancel()
                with __import__("contextlib").suppress(BaseException):
                    await task
