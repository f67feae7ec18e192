"""A client's session: the application side of one connection, whatever its binding.

The session is what tables and operations see of a client (a
``server.core.commands.Member``, an ``server.operators.ops.Peer``): its name, the
seats it holds, the tables it is at, its limits (talk, records, the handshake's
refusals); ``server.transport.requests`` holds what each message it sends does.
It holds no socket and no codec.

The interface with the shell under it (``server.transport.connection`` for a
TCP stream; the next binding brings its own):

- the shell makes the session with the ``Outbox`` it writes through, and sets
  ``binding`` to the framing once the binding is known (before the first
  ``handle``): the session asks it only what differs per binding (``person``,
  ``page_budget``, ``focus``), never which it is;
- the shell calls ``await server.transport.requests.handle(session, message)``
  for each decoded message, one at a time, in order. ``Closing`` out of it means:
  stop reading, close politely (what is queued, a goodbye last, is written first);
- the session answers through ``deliver``/``deliver_many`` (never blocking), which
  note what changes its state (``welcome``, ``named``, ``goodbye``, a seat's
  token) and put the messages in the outbox;
- when the connection has ended, the shell calls ``await detach()`` (shielded), so
  the tables it was at let it go.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from protocol import messages as m
from protocol.errors import ProtocolError
from protocol.limits import Limits
from protocol.messages import SERVER
from protocol.state import Session, State
from server.core import commands as cmd
from server.core import wire
from server.core.config import ServerConfig
from server.core.limits import AddressBudget, TokenBucket, fold_name
from server.operators.ops import ConnectionOps, Ops
from server.players.accounts import Accounts
from server.tables.lobby import Lobby
from server.tables.room import Room
from server.tournaments.service import Tournaments
from server.transport.crowd_lane import CrowdLane
from server.transport.errors import Closing
from server.transport.held import HeldBytes
from server.transport.http import HttpLimits
from server.transport.outbox import Outbox, WriterState
from server.transport.proxied import HttpPolicy

if TYPE_CHECKING:
    from server.transport.framing import Framing

log = logging.getLogger("switchboard.connection")

_ids = itertools.count(1)

#: Server messages that move the connection's state on (``protocol.state.TRANSITIONS``).
_TRANSITIONS = (m.Welcome, m.Named, m.Goodbye)
#: Server messages that change what the session holds: those and ``seated`` (its token).
_STATEFUL = frozenset((*_TRANSITIONS, m.Seated))


@dataclass(slots=True)
class Services:
    """What every session shares: the server's config, names, and tables."""

    config: ServerConfig
    accounts: Accounts
    lobby: Lobby
    limits: Limits
    connections: set[ClientSession]
    ops: Ops | None = None  #: chips, limits, operators
    room: Room = field(default_factory=Room)  #: the shout channel's shared rate
    http: AddressBudget | None = None  #: HTTP requests per address (made at the first)
    held: HeldBytes | None = None  #: bytes held unsent, by address (made at the first)
    #: the HTTP side's limits and policy (made at the first HTTP request, as ``http``)
    http_setup: tuple[HttpLimits, HttpPolicy] | None = None
    tournaments: Tournaments | None = None  #: the server's tournaments
    #: where connections with no seat and no trust wait their turn (``crowd_lane``)
    lane: CrowdLane = field(default_factory=CrowdLane)


class ClientSession:
    """One client, above its transport. Tables see it as a ``Member``."""

    def __init__(self, services: Services, outbox: Outbox, peer: str = "?") -> None:
        self.id = next(_ids)
        self.peer = peer
        self.services = services
        self.config = services.config
        self.outbox = outbox
        #: the binding's framing, set by the shell before the first message
        self.binding: Framing | None = None
        self.name: str | None = None
        self.operator = False
        self.protocol = Session(SERVER)  #: hello first, a name before playing
        self.tokens: dict[int, str] = {}  #: table -> seat token held by this session
        self.tables: set[int] = set()  #: tables this session is at (seated or watching)
        self.last_message = 0.0  #: when the last whole message arrived (the idle timer)
        self.talk = TokenBucket(self.config.talk_per_second, self.config.talk_burst)
        self.records: TokenBucket | None = None  #: made at the first get_record
        self.listings: TokenBucket | None = None  #: made at the first list_tables
        self.hears_shouts = True  #: gets the room's shouts (``hear_shouts``)
        self.who: TokenBucket | None = None  #: made at the first ``who``
        self.handshake_errors = 0  #: messages refused before welcome
        self.ops = None if services.ops is None else ConnectionOps(self, services.ops)

    # ------------------------------------------------------ the Member side
    def deliver(self, message: m.Message) -> None:
        """Send a message to this client; never blocks. A full queue drops the client."""
        self.deliver_many((message,))

    def deliver_many(self, messages: Sequence[m.Message]) -> None:
        """Send messages to this client, in order; never blocks (``Outbox.put``)."""
        outbox = self.outbox
        if outbox.state is WriterState.CLOSED:  # (closing: ``put`` ignores them)
            return
        for message in messages:
            if type(message) in _STATEFUL:
                if isinstance(message, m.Seated):  # the token this session now acts with
                    self.tokens[int(message.table)] = message.token
                else:
                    with contextlib.suppress(ProtocolError):
                        self.protocol.send(message)
        outbox.put(messages)

    def drop(self, code: str, text: str) -> None:
        """Close this connection now (nothing more is queued), with a goodbye if it fits."""
        self.outbox.drop(wire.goodbye(code, text))

    def close_nowait(self, code: str, text: str) -> None:
        """Say goodbye after what is queued, then close (shutdown, kick)."""
        self.deliver(wire.goodbye(code, text))
        self.outbox.close()

    def statistics(self) -> dict[str, Any]:
        outbox = self.outbox
        return {
            "id": self.id,
            "name": self.name,
            "peer": self.peer,
            "codec": "-" if self.binding is None else self.binding.kind,
            "queued": len(outbox),
            "held": outbox.held,
            "sent": outbox.sent,
            "received": outbox.received,
            "tables": sorted(self.tables),
        }

    @property
    def awaiting_hello(self) -> bool:
        return self.protocol.state is State.AWAIT_HELLO

    # ------------------------------------------------------ the shell's side
    async def detach(self) -> None:
        """The connection has ended: let every table it was at know."""
        self.services.room.at.gone(self)
        for table_id in list(self.tables):
            table = self.services.lobby.get(table_id)
            if table is not None:
                await table.submit(cmd.Detach(self))

    # ------------------------------------------------------ for the handlers
    def not_served(self, message: m.Message) -> None:
        request_id = getattr(message, "id", None)  # a request's id, for its reply
        self.deliver(wire.error(request_id, "not_allowed", f"{message.type} is not served here"))

    def handshake_refused(self) -> None:
        """A refused message before ``welcome`` leaves the connection usable (the client
        may fix its hello), up to ``handshake_errors`` of them: a peer that keeps failing
        is not speaking our protocol, and is let go without waiting for the timer."""
        self.handshake_errors += 1
        if self.handshake_errors >= self.config.handshake_errors:
            why = f"{self.handshake_errors} messages refused before a welcome"
            self.deliver(wire.goodbye("need_hello", why))
            raise Closing

    def seats_are(self, name: str) -> bool:
        """Whether this session, with no name of its own yet, holds only seats of
        ``name`` (it resumed them by their tokens before claiming it)."""
        if self.name is not None:
            return False
        key = fold_name(name)
        held = [
            seat.name
            for table_id in self.tokens
            if (table := self.services.lobby.get(table_id)) is not None
            for seat in table.seats
            if seat.member is self
        ]
        return all(n is not None and fold_name(n) == key for n in held)

    @property
    def in_the_crowd(self) -> bool:
        """Whether this connection's messages take turns in the crowd's lane
        (``server.transport.crowd_lane``): it holds no seat's token and is not from a
        trusted address. A token counts while its table is open (a finished game's table
        stays open a while, so a player whose game has just ended is not sent behind a
        crowd); one is given up with ``leave``, and one of a table that closed counts no
        more. What bounds the seats a crowd can take is each address's share of the
        tables."""
        tokens = self.tokens
        if tokens:
            open_tables = self.services.lobby.tables
            for table_id in tokens:
                if table_id in open_tables:
                    return False
        ops = self.ops
        return ops is None or ops.guard is not None  # no guard: a trusted address

    def holds_a_seat(self) -> bool:
        """Whether this session is a seat's member at some table now (read from the
        tables between awaits, as the lobby's listing is; a token kept from a table that
        closed, or from a seat resumed elsewhere or unseated, does not count)."""
        for table_id in self.tokens:
            table = self.services.lobby.get(table_id)
            if table is not None and any(seat.member is self for seat in table.seats):
                return True
        return False
