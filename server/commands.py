"""What connections ask of a table: small frozen commands, queued to the table's task.

A table is one trio task that owns its game; nothing else touches it. A
connection turns a client request into one of these and ``await table.submit``
it; the table answers on the connection's own queue (``Member.deliver``), so a
reply is always ordered with the table events around it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol


class Member(Protocol):
    """A connection as a table sees it: somewhere to deliver messages, never blocking.

    ``deliver`` must not block or raise; a connection whose queue is full drops
    itself (and will get a ``Detach`` to the tables it was at)."""

    @property
    def name(self) -> str | None: ...

    @property
    def operator(self) -> bool: ...

    def deliver(self, message: Any) -> None: ...

    def deliver_many(self, messages: Sequence[Any]) -> None:
        """``deliver`` each, in order (a connection writes them at once, in one write)."""
        ...


@dataclass(frozen=True, slots=True)
class Join:
    member: Member
    req: int | None
    seat: int | None  #: None: the first free seat


@dataclass(frozen=True, slots=True)
class Watch:
    member: Member
    req: int | None
    since: int | None = None  #: last event seq seen (a spectator reconnecting)
    game: int | None = None


@dataclass(frozen=True, slots=True)
class Resume:
    member: Member
    req: int | None
    token: str
    since: int | None  #: last event seq seen; None: send a snapshot
    game: int | None = None


@dataclass(frozen=True, slots=True)
class Leave:
    member: Member
    req: int | None


@dataclass(frozen=True, slots=True)
class Detach:
    """The connection is gone: keep its seat (the token resumes it), stop sending."""

    member: Member


@dataclass(frozen=True, slots=True)
class Act:
    member: Member
    req: int | None
    token: str
    action: str


@dataclass(frozen=True, slots=True)
class Talk:
    member: Member
    req: int | None
    text: str  #: already cleaned and length-limited by the connection


@dataclass(frozen=True, slots=True)
class Start:
    member: Member
    req: int | None


@dataclass(frozen=True, slots=True)
class Export:
    """A page of the game's record, from entry ``start`` (``server.records``)."""

    member: Member
    req: int | None
    start: int = 0
    budget: int | None = None  #: bytes of JSON a page may take (a text line); None: no cap


@dataclass(frozen=True, slots=True)
class Close:
    """Close the table (the server is shutting down, or an operator said so)."""

    reason: str


Command = Join | Watch | Resume | Leave | Detach | Act | Talk | Start | Export | Close
