"""What connections ask of a table: small frozen commands, queued to the table's task.

A table is one trio task that owns its game; nothing else touches it. A
connection turns a client request into one of these and ``await table.submit``
it; the table answers on the connection's own queue (``Member.deliver``), so a
reply is always ordered with the table events around it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, get_args

from protocol import messages as m


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
class Look:
    """Show ``member`` the table again: his seat's snapshot, or the spectators'."""

    member: Member
    req: int | None


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
    #: at a finished game some pressed "again" at: the seats of those who did not go to
    #: a reserved bot (``bot``) or stay free for anyone (``free``, None: the default)
    absent: str | None = None


@dataclass(frozen=True, slots=True)
class Again:
    """Play the next game at a finished table (``server.tables.again``)."""

    member: Member
    req: int | None


@dataclass(frozen=True, slots=True)
class Export:
    """A page of the game's record, from entry ``start`` (``server.core.records``)."""

    member: Member
    req: int | None
    start: int = 0
    budget: int | None = None  #: bytes of JSON a page may take (a text line); None: no cap


@dataclass(frozen=True, slots=True)
class Close:
    """Close the table (the server is shutting down, or an operator said so)."""

    reason: str


# ------------------------------------------------------- the game master's
# Only the table's game master (or an operator) may give these; ``verb`` names
# each in replies and logs. Checks that need the table (a seat in range, a known
# strategy, valid options) are the game master's (``server.tables.gamemaster``).


@dataclass(frozen=True, slots=True)
class PauseGame:
    verb: ClassVar[str] = "pause"
    member: Member
    req: int | None


@dataclass(frozen=True, slots=True)
class ResumeGame:
    verb: ClassVar[str] = "resume"
    member: Member
    req: int | None


@dataclass(frozen=True, slots=True)
class SeatBot:
    """Reserve ``seat`` for a server bot of ``strategy`` (None: the family's default)."""

    verb: ClassVar[str] = "seat_bot"
    member: Member
    req: int | None
    seat: int
    strategy: str | None = None


@dataclass(frozen=True, slots=True)
class Unseat:
    """Empty ``seat``: a bot's reservation, or a player (his token stops working)."""

    verb: ClassVar[str] = "unseat"
    member: Member
    req: int | None
    seat: int


@dataclass(frozen=True, slots=True)
class SetOptions:
    """Options merged into the table's (``start_when_full`` among them)."""

    verb: ClassVar[str] = "set_options"
    member: Member
    req: int | None
    options: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class SetPrize:
    verb: ClassVar[str] = "set_prize"
    member: Member
    req: int | None
    chips: int


@dataclass(frozen=True, slots=True)
class HandOver:
    """Make ``name`` (someone at the table) the game master."""

    verb: ClassVar[str] = "hand_over"
    member: Member
    req: int | None
    name: str


@dataclass(frozen=True, slots=True)
class EndGame:
    """Abandon the running game: scored as it stands, its prize returned."""

    verb: ClassVar[str] = "end_game"
    member: Member
    req: int | None


@dataclass(frozen=True, slots=True)
class CloseTable:
    """Close the table for good, telling everyone ``reason``."""

    verb: ClassVar[str] = "close"
    member: Member
    req: int | None
    reason: str = ""


MasterCommand = (
    PauseGame | ResumeGame | SeatBot | Unseat | SetOptions | SetPrize | HandOver | EndGame
    | CloseTable
)  # fmt: skip
#: Every game-master command by its verb.
MASTER_VERBS: dict[str, type[MasterCommand]] = {c.verb: c for c in get_args(MasterCommand)}

Command = (
    Join | Watch | Resume | Leave | Detach | Act | Talk | Start | Again | Export | Close | Look
    | MasterCommand
)  # fmt: skip

#: The table command each game-master protocol message becomes.
_FROM_MESSAGE: dict[type[m.Message], Callable[[Member, Any], MasterCommand]] = {
    m.PauseGame: lambda who, msg: PauseGame(who, msg.id),
    m.ResumeGame: lambda who, msg: ResumeGame(who, msg.id),
    m.SeatBot: lambda who, msg: SeatBot(who, msg.id, msg.seat, msg.strategy),
    m.Unseat: lambda who, msg: Unseat(who, msg.id, msg.seat),
    m.SetOptions: lambda who, msg: SetOptions(who, msg.id, dict(msg.options)),
    m.SetPrize: lambda who, msg: SetPrize(who, msg.id, msg.chips),
    m.HandOver: lambda who, msg: HandOver(who, msg.id, msg.name),
    m.EndGame: lambda who, msg: EndGame(who, msg.id),
    m.CloseTable: lambda who, msg: CloseTable(who, msg.id, msg.reason),
}
#: The protocol messages that are game-master commands.
MASTER_MESSAGES = tuple(_FROM_MESSAGE)


def master_command(member: Member, msg: m.Message) -> MasterCommand:
    """The table command for a game-master protocol message (one of ``MASTER_MESSAGES``).

    >>> class Ann:
    ...     name, operator = "ann", False
    ...     def deliver(self, message): pass
    >>> master_command(who := Ann(), m.SeatBot(table="3", seat=2, id=7)) == SeatBot(who, 7, 2)
    True
    """
    return _FROM_MESSAGE[type(msg)](member, msg)
