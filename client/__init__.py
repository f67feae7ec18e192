"""Switchboard's clients in Python: the connection library, the terminal client, bots.

Three subpackages, whose imports go one way (``tests/test_imports.py`` holds them to it):

- ``client.net``: the connection library (``connect``: one trio connection kept alive, with
  the name's secret, the table state folded from the server's messages, reconnect and
  resume), finding servers on the LAN, and what a client keeps on disk per server (secrets,
  seats, talk). It imports neither of the others: a bot needs nothing else.
- ``client.bots``: the bot runner (``switchboard bot``), the in-process arena, and the
  engine's advice (a hint, a finished game's analysis) run off the event loop.
  It may import ``client.net``.
- ``client.terminal``: the prompt_toolkit terminal client (``switchboard play``) with trio as
  asyncio's guest, its boards and rules pages, and the replay viewer (``switchboard replay``).
  It may import ``client.net`` and ``client.bots`` (for ``hint`` and ``analyze``).

The connection library's public names are importable from here (``from client import
connect``) and stay so whichever module holds them; they load on first use, so importing
``client.terminal.boards`` stays cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from client.net.connection import DEFAULT_PORT, Connection, ConnectionLost, ServerError, connect

__all__ = ["DEFAULT_PORT", "Connection", "ConnectionLost", "ServerError", "connect"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from client.net import connection

        return getattr(connection, name)
    raise AttributeError(f"module 'client' has no attribute {name!r}")
