"""Which message is allowed when: the connection's states as a table, and the handshake.

Like h11's ``_state.py``, the rules are data: ``ALLOWED`` says which message
types each side may send in each state, and ``TRANSITIONS`` which message
moves the connection on. ``Session`` applies them for one side of one
connection; it does no I/O.

States: ``AWAIT_HELLO`` (just connected) -> ``READY`` (after ``welcome``) ->
``NAMED`` (after ``named``) -> ``CLOSED`` (after ``goodbye``; no more
messages). The server's policy (is this name's secret right, is this
connection an operator) is the server's; the table only says what may be
*attempted* in each state.

>>> from protocol.messages import Act
>>> server = Session(SERVER)
>>> server.receive(Act(table="t1", action="draw", id=4))
Error(code='need_hello', text="send hello first (got 'act')", table=None, supported=(), id=4)
>>> server.receive(Hello(versions=(1, 7)))
>>> reply = negotiate(Hello(versions=(1, 7)))
>>> reply
Welcome(version=1, protocol='switchboard', server='', id=None)
>>> server.send(reply); server.state
<State.READY: 'ready'>
>>> server.receive(Act(table="t1", action="draw", id=5)).code
'need_name'
"""

from __future__ import annotations

import enum

from protocol.errors import LocalProtocolError
from protocol.messages import (
    CLIENT,
    PROTOCOL,
    SENDER,
    SERVER,
    TYPES,
    VERSIONS,
    AdminAuth,
    AdminBan,
    AdminCloseTable,
    AdminCloseTables,
    AdminConnections,
    AdminKick,
    AdminNotice,
    AdminShutdown,
    AdminStats,
    AdminTables,
    ClaimName,
    Error,
    GetHistory,
    GetProfile,
    GetRecord,
    GetReplay,
    GetTop,
    Goodbye,
    Hello,
    Help,
    InvalidMessage,
    Leave,
    ListRulesets,
    ListTables,
    Look,
    Message,
    Named,
    Notice,
    Ping,
    Pong,
    Quit,
    Received,
    Resume,
    Spectate,
    UnknownMessage,
    Welcome,
    Who,
)


class State(enum.Enum):
    AWAIT_HELLO = "await_hello"
    READY = "ready"
    NAMED = "named"
    CLOSED = "closed"


_ALL_CLIENT = frozenset(c for c in TYPES.values() if SENDER[c] != SERVER)
_ALL_SERVER = frozenset(c for c in TYPES.values() if SENDER[c] != CLIENT)
#: What a client may send before it has a name: look around, watch, resume a
#: seat by its token (the token is the credential), and the operators' commands.
_ANONYMOUS = frozenset(
    {
        ClaimName,
        Ping,
        Pong,
        Quit,
        Help,
        ListRulesets,
        ListTables,
        Who,
        Look,
        Spectate,
        Leave,
        Resume,
        GetRecord,
        GetReplay,
        GetProfile,
        GetHistory,
        GetTop,
        AdminAuth,
        AdminConnections,
        AdminTables,
        AdminCloseTable,
        AdminCloseTables,
        AdminKick,
        AdminBan,
        AdminNotice,
        AdminShutdown,
        AdminStats,
    }
)

#: (sender, state) -> the message classes that sender may send in that state.
ALLOWED: dict[tuple[str, State], frozenset[type[Message]]] = {
    (CLIENT, State.AWAIT_HELLO): frozenset({Hello, Ping, Quit}),
    (CLIENT, State.READY): _ANONYMOUS,
    (CLIENT, State.NAMED): _ALL_CLIENT - {Hello},
    (CLIENT, State.CLOSED): frozenset(),
    (SERVER, State.AWAIT_HELLO): frozenset({Welcome, Error, Goodbye, Pong, Notice}),
    (SERVER, State.READY): _ALL_SERVER - {Welcome},
    (SERVER, State.NAMED): _ALL_SERVER - {Welcome},
    (SERVER, State.CLOSED): frozenset(),
}

#: (state, message class) -> the state after that message (sent by either side).
TRANSITIONS: dict[tuple[State, type[Message]], State] = {
    (State.AWAIT_HELLO, Welcome): State.READY,
    (State.READY, Named): State.NAMED,
    (State.NAMED, Named): State.NAMED,
    (State.AWAIT_HELLO, Goodbye): State.CLOSED,
    (State.READY, Goodbye): State.CLOSED,
    (State.NAMED, Goodbye): State.CLOSED,
}

#: (state) -> the error code for a client message that state does not allow
#: (but ``hello`` once the handshake is done: ``not_allowed``, whatever the state).
REFUSAL_CODES: dict[State, str] = {
    State.AWAIT_HELLO: "need_hello",
    State.READY: "need_name",
    State.NAMED: "not_allowed",
    State.CLOSED: "not_allowed",
}


class Session:
    """One side's view of one connection's state. ``role`` is who *we* are."""

    def __init__(self, role: str) -> None:
        if role not in (CLIENT, SERVER):
            raise ValueError(f"role must be {CLIENT!r} or {SERVER!r}")
        self.role = role
        self.peer = SERVER if role == CLIENT else CLIENT
        self.state = State.AWAIT_HELLO

    def allowed(self, sender: str, message: type[Message]) -> bool:
        return message in ALLOWED[(sender, self.state)]

    def send(self, message: Message) -> None:
        """Check that we may send ``message`` now, then move the state on.
        ``LocalProtocolError`` (nothing changes) if we may not."""
        if not isinstance(message, Message):
            raise LocalProtocolError(f"{message!r} is not a wire message")
        if not self.allowed(self.role, type(message)):
            raise LocalProtocolError(
                f"a {self.role} may not send {message.type!r} in state {self.state.value}",
                "not_allowed",
            )
        self._advance(type(message))

    def receive(self, message: Received) -> Error | None:
        """Check a message from the peer. ``None``: go ahead and handle it (the
        state has moved on); an ``Error``: send it as the reply and drop the
        message (the connection carries on)."""
        if isinstance(message, (UnknownMessage, InvalidMessage)):
            return message.error()
        if not self.allowed(self.peer, type(message)):
            if isinstance(message, Hello) and self.state is not State.CLOSED:
                # whatever the state, a second hello is refused as what it is
                code = "not_allowed"
                text = "hello was already answered: the version is agreed"
            elif self.peer == CLIENT and SENDER[type(message)] != SERVER:
                code = REFUSAL_CODES[self.state]
                if code == "need_hello":
                    text = f"send hello first (got {message.type!r})"
                elif code == "need_name":
                    text = f"claim a name first (name YOURNAME) before {_typed(message)!r}"
                else:
                    text = f"{_typed(message)!r} is not allowed now"
            else:
                code = "not_allowed"
                text = f"a {self.peer} may not send {message.type!r}"
            # Every request has an id for its reply; a message without one is answered without.
            return Error(code=code, text=text, id=getattr(message, "id", None))
        self._advance(type(message))
        return None

    def _advance(self, cls: type[Message]) -> None:
        self.state = TRANSITIONS.get((self.state, cls), self.state)


def negotiate(
    hello: Hello, supported: tuple[int, ...] = VERSIONS, server: str = ""
) -> Welcome | Error:
    """The server's answer to ``hello``: the highest version both speak, or a
    ``bad_version`` error listing the server's.

    >>> negotiate(Hello(versions=(9, 1, 3)), supported=(1, 2, 3)).version
    3
    >>> negotiate(Hello(versions=(7,)), supported=(1, 2))
    Error(code='bad_version', text='no common version: you offer 7; this server speaks 1, 2', \
table=None, supported=(1, 2), id=None)
    """
    if hello.protocol != PROTOCOL:
        return Error(
            code="bad_version",
            text=f"this server speaks {PROTOCOL!r}, not {hello.protocol!r}",
            supported=supported,
            id=hello.id,
        )
    common = set(hello.versions) & set(supported)
    if not common:
        offered = ", ".join(map(str, hello.versions)) or "nothing"
        return Error(
            code="bad_version",
            text=f"no common version: you offer {offered};"
            f" this server speaks {', '.join(map(str, supported))}",
            supported=supported,
            id=hello.id,
        )
    return Welcome(version=max(common), server=server, id=hello.id)


def _typed(message: Message) -> str:
    """The command a person types for ``message`` (errors name it, not the wire type)."""
    from protocol.commands import typed_word  # commands builds on messages, as this does

    return typed_word(message)
