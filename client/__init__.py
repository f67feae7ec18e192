"""Switchboard's clients: the connection library, the terminal client, bots.

- ``client.connection``: ``connect(host, port, name=...)``, one trio connection kept alive
  (hello, the name's kept secret, request ids, table state, reconnect and resume);
- ``client.state``: what a client knows, folded from the server's messages;
- ``client.app`` / ``client.session`` / ``client.guest``: the prompt_toolkit terminal client
  (``switchboard play``) with trio as asyncio's guest; ``client.boards``: the three boards;
- ``client.replay``: stepping through a finished game (``switchboard replay``);
- ``client.bot`` / ``client.arena``: bots and the arena.

``connect``, ``Connection``, ``ConnectionLost`` and ``ServerError`` are also importable from
here; they load on first use, so importing ``client.boards`` stays cheap.
"""

from __future__ import annotations

from typing import Any

_LAZY = {"connect", "Connection", "ConnectionLost", "ServerError", "DEFAULT_PORT"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        from client import connection

        return getattr(connection, name)
    raise AttributeError(f"module 'client' has no attribute {name!r}")
