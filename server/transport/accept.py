"""The accept loop: new connections handed to a nursery, and a server that runs out of
file descriptors refuses newcomers at once instead of leaving them hanging.

``trio.serve_listeners`` answers ``EMFILE`` by sleeping 0.1 s and logging a full
traceback, forever: the client waits in the kernel's backlog for a reply that
never comes, and the log grows by ten tracebacks a second. Here, as nginx and
libev do, one descriptor is held in reserve: when ``accept`` fails for want of
descriptors, the reserve is closed, the waiting connection is accepted and closed
at once (the client sees the connection end, not a hang), and the reserve is
taken again. The log gets one line per ``log_interval`` saying how many were
refused, not one per attempt.
"""

from __future__ import annotations

import errno
import logging
import os
import resource
from collections.abc import Awaitable, Callable
from typing import Any

import trio

from server.core.logfmt import IntervalLog

log = logging.getLogger("switchboard.server")

#: accept() errors that mean "out of descriptors or kernel memory", not "bad listener"
OUT_OF_RESOURCES = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})


def fd_limit() -> int:
    """This process's soft limit on open file descriptors."""
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


class Acceptor:
    """Accepts on every listener, starting ``handler(stream)`` in ``nursery`` for each."""

    def __init__(
        self,
        handler: Callable[[trio.SocketStream], Awaitable[Any]],
        nursery: trio.Nursery,
        log_interval: float = 10.0,
    ) -> None:
        self.handler = handler
        self.nursery = nursery
        self.refused = 0  #: connections refused for want of descriptors, in all
        self._reserve: int | None = None
        self._log = IntervalLog(log_interval, self._log_refused)

    async def serve(self, listeners: list[trio.SocketListener]) -> None:
        self._take_reserve()
        try:
            async with trio.open_nursery() as nursery:
                for listener in listeners:
                    nursery.start_soon(self._serve_one, listener)
        finally:
            self._drop_reserve()

    async def _serve_one(self, listener: trio.SocketListener) -> None:
        while True:
            try:
                stream = await listener.accept()
            except OSError as exc:
                if exc.errno not in OUT_OF_RESOURCES:
                    raise
                await self._refuse(listener)
                continue
            self.nursery.start_soon(self.handler, stream)

    async def _refuse(self, listener: trio.SocketListener) -> None:
        """Out of descriptors: close the one waiting connection with the reserve's
        descriptor; without a reserve, stop accepting for a moment instead."""
        self.refused += 1
        self._log.event(trio.current_time())
        if self._reserve is None:
            await trio.sleep(0.1)
            self._take_reserve()
            return
        self._drop_reserve()
        try:
            with trio.move_on_after(0.1):  # it is waiting: accept returns at once
                stream = await listener.accept()
                stream.socket.close()
        except OSError:  # someone else took the descriptor meanwhile
            await trio.sleep(0.1)
        finally:
            self._take_reserve()

    def _take_reserve(self) -> None:
        if self._reserve is None:
            try:
                self._reserve = os.open(os.devnull, os.O_RDONLY)
            except OSError:
                self._reserve = None

    def _drop_reserve(self) -> None:
        if self._reserve is not None:
            os.close(self._reserve)
            self._reserve = None

    def _log_refused(self, count: int) -> None:
        log.warning(
            "out of file descriptors (limit %d): refused %d new connection(s) since the last"
            " line; raise the limit (ulimit -n, systemd LimitNOFILE) or lower max_connections",
            fd_limit(),
            count,
        )
