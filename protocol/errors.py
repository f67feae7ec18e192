"""The protocol's errors, and the stable error codes that go on the wire.

As in h11, an error says who broke the rules:

- ``LocalProtocolError``: *we* misused the protocol (built a message with a
  bad field, tried to send a message the connection state forbids). It is a
  bug in our own code or a caller's bad argument; nothing was sent.
- ``RemoteProtocolError``: the *peer* sent something we cannot accept. Its
  ``code`` is the hint for the ``error`` reply (a code from ``CODES``) and
  ``fatal`` says whether the connection must close (a broken frame) or may
  carry on (a well-framed request we refuse).

Both subclass ``ProtocolError``, and nothing in this package raises any other
exception for bad input: that is the invariant the fuzz tests check.

>>> err = RemoteProtocolError("frame of 4294967295 bytes is over the limit", "too_large")
>>> err.code, err.fatal
('too_large', True)

The ``error`` message that answers one is ``protocol.messages.Error.answering(err)``:
this module knows no message, so that every other module of the package may import it.
"""

from __future__ import annotations

#: Every error code a server may send, with what it means. Codes are stable
#: words: clients switch on them; the text beside them is for people.
CODES: dict[str, str] = {
    # framing and protocol (the fatal ones close the connection)
    "bad_frame": "the bytes are not a valid frame (fatal)",
    "too_large": "a frame, line, string or container is over the limits (fatal)",
    "too_deep": "a message nests deeper than the limit (fatal)",
    "bad_version": "no protocol version in common; `supported` lists the server's",
    "need_hello": "the first message must be hello",
    "unknown_type": "the message type is not one this version knows",
    "bad_message": "a field is missing or has the wrong type or value",
    "bad_command": "a text command line did not parse",
    "not_allowed": "that message is not allowed in the connection's state",
    # names, lobby and tables
    "need_name": "claim a name first",
    "bad_name": "that name is not allowed",
    "name_taken": "the name belongs to someone else (wrong secret)",
    "no_table": "there is no such table",
    "no_tournament": "there is no such tournament, or you play in none",
    "table_full": "every seat at the table is taken",
    "seat_taken": "that seat is taken",
    "no_seat": "there is no such seat, or you have none at this table",
    "bad_token": "the seat token is not valid for that table",
    "other_hand": "you were shown another seat's hand in this game (one hand to a person)",
    "bad_options": "the ruleset, seat count or an option is not allowed",
    "bad_state": "the table is not in a state that allows it (e.g. start twice)",
    "not_master": "only the table's game master may do that",
    "too_many_tables": "a table quota is reached (per name, per address, or the server's)",
    "not_member": "only the table's members (seated or watching) may do that while a game runs",
    # play
    "bad_action": "the action notation does not parse",
    "illegal_action": "the action is not legal now (the text says why)",
    # chips and records
    "no_chips": "not enough chips for that",
    "no_record": "no record is available",
    "no_player": "no player of that name is known here (never claimed, never rated)",
    # abuse and operators
    "rate_limited": "too many messages or too much talk; slow down",
    "forbidden": "operators only (authenticate with admin_auth)",
    "banned": "this name is banned",
    "quit": "the client asked to leave (the goodbye to ``quit``)",
    "kicked": "an operator closed this connection",
    "slow_reader": "the connection was dropped because it did not read",
    "too_many_connections": "your address (or the server) has all the connections it may",
    "idle": "the connection sent no message for the idle limit while at no table",
    "timeout": "a message began but did not arrive whole within the time limit",
    "shutdown": "the server is shutting down",
    "store_failed": "the server could not store that (disk full ...): nothing changed; retry",
    "internal": "the server failed; the request may be retried",
}

#: The codes after which the sender closes the connection.
FATAL_CODES = frozenset({"bad_frame", "too_large", "too_deep"})


class ProtocolError(Exception):
    """Base of the protocol's errors; ``code`` is a key of ``CODES``."""

    def __init__(self, message: str, code: str = "bad_message") -> None:
        super().__init__(message)
        self.code = code


class LocalProtocolError(ProtocolError):
    """We misused the protocol: a bad field in a message we built, or a
    message the connection's state does not allow us to send."""


class RemoteProtocolError(ProtocolError):
    """The peer sent bad input. ``code`` is the hint for the error reply;
    ``fatal`` (framing errors) means the decoder is dead and the connection
    must close after the reply."""

    def __init__(self, message: str, code: str = "bad_frame", fatal: bool | None = None) -> None:
        super().__init__(message, code)
        self.fatal = code in FATAL_CODES if fatal is None else fatal
