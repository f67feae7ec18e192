"""A loopback TCP proxy the tests can cut: every connection through it drops at once.

The client under test connects to the proxy; the proxy connects on to the real
server. ``drop()`` closes every pair abruptly, which is what a dropped Wi-Fi
link looks like to both ends, so the client's reconnect and resume run
against the real server.
"""

from __future__ import annotations

from typing import Any

import trio


class Proxy:
    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.pairs: list[tuple[trio.SocketStream, trio.SocketStream, trio.CancelScope]] = []
        self.accepted = 0

    async def serve(self, *, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
        task_status.started(listeners[0].socket.getsockname()[1])
        await trio.serve_listeners(self._handle, listeners)

    async def _handle(self, client: trio.SocketStream) -> None:
        self.accepted += 1
        server = await trio.open_tcp_stream("127.0.0.1", self.target_port)
        with trio.CancelScope() as scope:
            self.pairs.append((client, server, scope))
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self._pump, client, server)
                nursery.start_soon(self._pump, server, client)
        for stream in (client, server):
            with trio.move_on_after(0.2):
                await stream.aclose()

    async def _pump(self, src: trio.SocketStream, dst: trio.SocketStream) -> None:
        try:
            while data := await src.receive_some(65536):
                await dst.send_all(data)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass
        finally:
            with trio.CancelScope(shield=True), trio.move_on_after(0.2):
                await dst.aclose()

    def drop(self) -> int:
        """Cut every open connection; returns how many were cut."""
        n = len(self.pairs)
        for _client, _server, scope in self.pairs:
            scope.cancel()
        self.pairs.clear()
        return n
