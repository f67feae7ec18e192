"""The two ways a connection ends early, as the session and its shells say them."""

from __future__ import annotations

import trio

#: what a transport raises when the peer is gone or the socket broke
TRANSPORT_ERRORS = (trio.BrokenResourceError, trio.ClosedResourceError, OSError)


class ConnectionLost(Exception):
    """The peer is gone (or the socket broke): the one transport error tables and
    handlers ever see."""


class Closing(Exception):
    """Stop reading and close politely (quit, a banned name, a flood, failed
    handshakes): what is queued is written, a goodbye last."""
