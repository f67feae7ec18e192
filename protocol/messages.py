"""The message model: every message is a small frozen class, validated when built.

Build a message with keyword arguments; a bad field raises
``LocalProtocolError`` at once (with ``code`` ``bad_message``, or
``bad_action`` for notation that does not parse), so a bad message never
reaches a codec. ``to_map()`` gives the wire map and ``from_map()`` reads one
back; the codecs (``protocol.msgpack_codec``, ``protocol.text_codec``) turn
those into bytes.

>>> msg = Act(table="t1", action="play qh", id=7)
>>> msg
Act(table='t1', action='play QH', id=7)
>>> msg.to_map()
{'type': 'act', 'table': 't1', 'action': 'play QH', 'id': 7}
>>> from_map({"type": "act", "table": "t1", "action": "draw", "extra": 1}) == Act("t1", "draw")
True
>>> Join(table="two words")
Traceback (most recent call last):
...
protocol.errors.LocalProtocolError: Join.table: 'two words' is not a word (see protocol.fields)

Conventions every message follows:

- the wire map's ``"type"`` names the class (``Act`` is ``"act"``); ``TYPES``
  maps each type to its class, and ``SENDER`` says who may send it;
- ``id`` (every message has it, keyword-only, default ``None``) is the
  request id a client chooses; the reply (``ok``, ``error`` or the specific
  answer) echoes it. Unsolicited messages (events, talk, notices) have none;
- table events carry ``table`` and ``seq`` (the per-table sequence number);
- unknown fields in a received map are ignored; a missing optional field
  takes its default; a field whose value is ``None`` is left out of the map,
  as is a field marked ``OMIT_EMPTY`` while it is empty;
- ``from_map`` never raises for a map: an unknown type gives an
  ``UnknownMessage`` and a bad field an ``InvalidMessage``, each with
  ``.error()``, the reply to send (the connection carries on).

Treat dict fields (views, events, options) as read-only: the message does
not copy them, for speed.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable
from dataclasses import MISSING, dataclass, field, fields
from typing import Any, ClassVar, NamedTuple

from protocol.errors import LocalProtocolError, ProtocolError
from protocol.fields import (
    CONTROL,
    Bool,
    Choices,
    Clock,
    Count,
    EventPayload,
    GameList,
    Id,
    LeaderList,
    LedgerList,
    Legal,
    Lines,
    Notation,
    OptCount,
    OptSeat,
    OptSeq,
    OptText,
    OptView,
    OptWord,
    Payload,
    Payloads,
    PersonList,
    Players,
    RatingList,
    RulesetList,
    Seat,
    Seats,
    Seq,
    Signed,
    State,
    TableList,
    TallyList,
    Text,
    Versions,
    ViewPayload,
    Word,
)

PROTOCOL = "switchboard"
#: Every protocol version this code speaks, oldest first.
VERSIONS: tuple[int, ...] = (1,)

CLIENT = "client"
SERVER = "server"
BOTH = "both"

#: type -> class, for every message that goes on the wire.
TYPES: dict[str, type[Message]] = {}
#: class -> who may send it: ``"client"``, ``"server"`` or ``"both"``.
SENDER: dict[type[Message], str] = {}


# ------------------------------------------------- what a decoder may yield
@dataclass(frozen=True, slots=True)
class UnknownMessage:
    """A well-framed map whose ``type`` this version does not know.

    Not a wire message: the server answers ``error()`` and keeps the connection."""

    type: str
    id: int | None = None

    def error(self) -> Error:
        return Error(
            code="unknown_type", text=f"unknown message type {self.type!r}"[:200], id=self.id
        )


@dataclass(frozen=True, slots=True)
class InvalidMessage:
    """A well-framed map of a known type with a bad or missing field.

    Not a wire message: the server answers ``error()`` and keeps the connection."""

    type: str
    code: str
    text: str
    id: int | None = None

    def error(self) -> Error:
        return Error(code=self.code, text=clean_text(self.text)[:1000], id=self.id)


# --------------------------------------------------------------- the model
#: Field metadata key: leave the field off the wire while it is empty (its default).
OMIT_EMPTY = "omit_empty"


class _Field(NamedTuple):
    """One field of a message class, as ``@message`` reads it from the declaration."""

    name: str
    check: Callable[[Any], Any]  #: the checker of its annotation (``protocol.fields``)
    required: bool
    default: Any  #: its default value, or the factory of one (``factory``)
    factory: bool
    listed: bool  #: a tuple on the message, a list on the wire
    omit_empty: bool  #: left off the wire while empty (``OMIT_EMPTY``)


@dataclass(frozen=True, slots=True)
class Message:
    """Base of every wire message. Subclasses set ``type`` with ``@message``.

    Every message is a plain frozen dataclass; its fields' checkers (one table a class,
    ``_fields``, read from the annotations by ``@message``) run when it is built
    (``__post_init__``) and when it is decoded (``_from_map``)."""

    type: ClassVar[str] = ""
    _fields: ClassVar[tuple[_Field, ...]] = ()
    # The same table cut for each loop below (a tuple unpacks faster than a NamedTuple's
    # attributes are read): names and checkers; what encoding needs; what decoding needs.
    _checks: ClassVar[tuple[tuple[str, Callable[[Any], Any]], ...]] = ()
    _encoding: ClassVar[tuple[tuple[str, bool, bool], ...]] = ()
    _decoding: ClassVar[tuple[tuple[str, Callable[[Any], Any], Any, bool], ...]] = ()
    _required: ClassVar[tuple[str, ...]] = ()  #: the names of the fields without a default
    #: What ``trusted`` needs: each field's name, its default (``MISSING``: required), and
    #: whether that default is a factory.
    _trusting: ClassVar[tuple[tuple[str, Any, bool], ...]] = ()
    _wire: ClassVar[tuple[tuple[str, bool, Any], ...]] = ()
    #: ``trusted``'s work as straight-line code (``_trusted_maker``)
    _make_trusted: ClassVar[Callable[..., Any]]

    def __post_init__(self) -> None:
        for name, check in self._checks:
            value = getattr(self, name)
            try:
                checked = check(value)
            except LocalProtocolError as exc:
                where = f"{type(self).__name__}.{name}"
                raise LocalProtocolError(f"{where}: {exc}", exc.code) from None
            if checked is not value:  # normalised (a list made a tuple, notation canonical)
                object.__setattr__(self, name, checked)

    @classmethod
    def trusted(cls, **values: Any) -> typing.Self:
        """A message this program built from values it made itself, set as given: no
        field is checked. Only for the few messages the server makes on every action
        (``server.core.wire``'s events, turns and acknowledgements), whose checks cost more
        than building them, and only with values the server made (never a peer's or a
        person's: those go through the constructor, and what a peer sends through
        ``from_map``, both fully checked). A value must be what the constructor would
        keep (a tuple for a list field); a misspelt or missing field still fails.

        >>> Turn.trusted(table="7", seq=3, legal=("draw",)) == Turn("7", 3, legal=["draw"])
        True

        It calls the class's own straight-line maker (``_trusted_maker``); only a call
        that maker refuses (a missing or unknown field) takes the loop below, which
        says which field."""
        try:
            made: typing.Self = cls._make_trusted(**values)
        except TypeError:
            pass
        else:
            return made
        self = object.__new__(cls)
        put = object.__setattr__
        given = 0
        for name, default, factory in cls._trusting:
            if name in values:
                put(self, name, values[name])
                given += 1
            elif default is MISSING:
                raise TypeError(f"{cls.__name__}.trusted: missing field {name!r}")
            else:
                put(self, name, default() if factory else default)
        if given != len(values):
            unknown = sorted(set(values) - {f.name for f in cls._fields})
            raise TypeError(f"{cls.__name__}.trusted: no field {', '.join(unknown)}")
        return self

    @classmethod
    def trusted_maker(cls) -> Callable[..., typing.Self]:
        """``trusted`` itself, the class's straight-line maker, to be called without the
        classmethod around it: for the server's hottest path (``server.core.wire``'s
        turns, events and acknowledgements, several per action), where the wrapper
        (its keywords gathered, then spread again) cost a third of a message. Only
        for calls that name their fields in the code: a missing or misspelt field
        fails as any call's keyword does, without ``trusted``'s naming of it.

        >>> make = Turn.trusted_maker()
        >>> make(table="7", seq=3, legal=("draw",)) == Turn("7", 3, legal=["draw"])
        True
        """
        maker: Callable[..., typing.Self] = cls._make_trusted
        return maker

    def to_map(self) -> dict[str, Any]:
        """The wire map: ``type`` then every field, ``None`` values left out (and a field
        marked ``OMIT_EMPTY`` while it is empty)."""
        out: dict[str, Any] = {"type": self.type}
        for name, listed, omit_empty in self._encoding:
            value = getattr(self, name)
            if value if omit_empty else value is not None:
                out[name] = list(value) if listed else value
        return out

    @classmethod
    def _from_map(cls, data: dict[str, Any]) -> Received:
        """The message ``data`` (a map of this class's type) stands for; never raises.

        Every required field is looked for first (a missing one is reported before any
        bad one, as the constructor would); a missing optional field takes its default
        (valid by construction, so unchecked). The instance is made without the
        constructor's argument handling: each field is checked once, here."""
        get = data.get
        for name in cls._required:
            if get(name) is None:
                text = f"{cls.type}: missing field '{name}'"
                return InvalidMessage(cls.type, "bad_message", text, _peer_id(get("id")))
        self = object.__new__(cls)
        for name, check, default, factory in cls._decoding:
            value = get(name)
            if value is None:
                value = default() if factory else default
            else:
                try:
                    value = check(value)
                except LocalProtocolError as exc:
                    text = f"{cls.__name__}.{name}: {exc}"
                    return InvalidMessage(cls.type, exc.code, text, _peer_id(get("id")))
            object.__setattr__(self, name, value)
        return self


M = typing.TypeVar("M", bound=type[Message])


def _peer_id(value: Any) -> int | None:
    return value if type(value) is int and 0 <= value <= (1 << 31) - 1 else None


def _declared(cls: type[Message], f: Any, hints: dict[str, Any]) -> _Field:
    meta = getattr(hints[f.name], "__metadata__", None)
    if not meta:
        raise TypeError(f"{cls.__name__}.{f.name} needs a checker annotation")
    base = typing.get_args(hints[f.name])[0]
    factory = f.default is MISSING and f.default_factory is not MISSING
    return _Field(
        name=f.name,
        check=meta[0],
        required=f.default is MISSING and f.default_factory is MISSING,
        default=f.default_factory if factory else (None if f.default is MISSING else f.default),
        factory=factory,
        listed=typing.get_origin(base) is tuple or base is tuple,
        omit_empty=bool(f.metadata.get(OMIT_EMPTY)),
    )


def _slot_setter(cls: type[Message], name: str) -> Callable[[Any, Any], None] | None:
    """The ``__set__`` of the slot that holds field ``name`` (a frozen dataclass's
    fields are slots, each a member descriptor), or ``None`` if it is not one."""
    for klass in cls.__mro__:
        if name in klass.__dict__:
            slot = klass.__dict__[name]
            return slot.__set__ if isinstance(slot, types.MemberDescriptorType) else None
    return None


def _trusted_maker(cls: type[Message]) -> Callable[..., Any]:
    """``Message.trusted`` for ``cls`` as straight-line code: a keyword-only parameter
    per field (its default as declared; a factory called when it is not given), each
    set on a new instance in turn. The loop it replaces cost more than the message's
    use on the server's hottest path (several per action). Built from the class's own
    field names, as ``dataclasses`` builds an ``__init__``.

    Each field is set through its slot's own ``__set__`` (``_slot_setter``), which
    writes the slot straight away: ``object.__setattr__`` (what a frozen dataclass's
    ``__init__`` calls) first looks the name up on the type, and cost a third more, ten
    times a turn, on every seat's turn of every action."""
    params, body = [], ["    self = _new(_cls)"]
    namespace: dict[str, Any] = {"_new": object.__new__, "_put": object.__setattr__,
                                 "_cls": cls, "_unset": MISSING}  # fmt: skip
    for i, (name, default, factory) in enumerate(cls._trusting):
        if not name.isidentifier():
            raise TypeError(f"{cls.__name__}: field {name!r} is not a name")
        setter = _slot_setter(cls, name)
        namespace[f"_s{i}"] = setter
        if default is MISSING:
            params.append(name)
        elif factory:
            params.append(f"{name}=_unset")
            body.append(f"    if {name} is _unset: {name} = _d{i}()")
            namespace[f"_d{i}"] = default
        else:
            params.append(f"{name}=_d{i}")
            namespace[f"_d{i}"] = default
        body.append(f"    _s{i}(self, {name})" if setter else f"    _put(self, {name!r}, {name})")
    source = "\n".join([f"def trusted(*, {', '.join(params)}):", *body, "    return self"])
    exec(source, namespace)  # the field names are checked above
    maker: Callable[..., Any] = namespace["trusted"]
    return maker


def message(type_name: str, sender: str) -> Callable[[M], M]:
    """Register a message class under its wire ``type`` and read its fields' checkers."""

    def register(cls: M) -> M:
        if type_name in TYPES:
            raise TypeError(f"message type {type_name!r} registered twice")
        hints = typing.get_type_hints(cls, include_extras=True)
        cls.type = type_name
        cls._fields = tuple(_declared(cls, f, hints) for f in fields(cls))
        cls._required = tuple(f.name for f in cls._fields if f.required)
        cls._checks = tuple((f.name, f.check) for f in cls._fields)
        cls._encoding = tuple((f.name, f.listed, f.omit_empty) for f in cls._fields)
        cls._decoding = tuple((f.name, f.check, f.default, f.factory) for f in cls._fields)
        cls._trusting = tuple(
            (f.name, MISSING if f.required else f.default, f.factory) for f in cls._fields
        )
        cls._wire = tuple(
            (f.name, f.required, f.default if not f.required else MISSING) for f in cls._fields
        )
        cls._make_trusted = staticmethod(_trusted_maker(cls))
        TYPES[type_name] = cls
        SENDER[cls] = sender
        return cls

    return register


# ------------------------------------------------------------------ handshake
@message("hello", CLIENT)
@dataclass(frozen=True, slots=True)
class Hello(Message):
    """The client's first message: the protocol and the versions it speaks."""

    versions: Versions = VERSIONS
    protocol: Word = PROTOCOL
    client: Text = ""
    id: Id = field(default=None, kw_only=True)


@message("welcome", SERVER)
@dataclass(frozen=True, slots=True)
class Welcome(Message):
    """The server's answer to hello: the version chosen (the highest in common)."""

    version: Count
    protocol: Word = PROTOCOL
    server: Text = ""
    id: Id = field(default=None, kw_only=True)


@message("ping", BOTH)
@dataclass(frozen=True, slots=True)
class Ping(Message):
    """Are you there? Answered by ``pong`` with the same id."""

    id: Id = field(default=None, kw_only=True)


@message("pong", BOTH)
@dataclass(frozen=True, slots=True)
class Pong(Message):
    id: Id = field(default=None, kw_only=True)


@message("quit", CLIENT)
@dataclass(frozen=True, slots=True)
class Quit(Message):
    """The client is leaving; the server answers ``goodbye`` and closes."""

    id: Id = field(default=None, kw_only=True)


@message("goodbye", SERVER)
@dataclass(frozen=True, slots=True)
class Goodbye(Message):
    """The server closes the connection after this (quit, kick, shutdown, slow reader)."""

    code: Word
    text: Text = ""
    id: Id = field(default=None, kw_only=True)


# ------------------------------------------------------------ generic replies
@message("ok", SERVER)
@dataclass(frozen=True, slots=True)
class Ok(Message):
    """A request succeeded. ``table`` names the table it concerned (e.g. a new one)."""

    table: OptWord = None
    text: Text = ""
    id: Id = field(default=None, kw_only=True)


@message("error", SERVER)
@dataclass(frozen=True, slots=True)
class Error(Message):
    """A request failed: a stable ``code`` (see ``protocol.errors.CODES``) and words
    for a person. ``supported`` lists the server's versions on ``bad_version``."""

    code: Word
    text: Text = ""
    table: OptWord = None
    supported: Versions = field(default=(), metadata={OMIT_EMPTY: True})
    id: Id = field(default=None, kw_only=True)

    @classmethod
    def answering(
        cls, exc: ProtocolError, id: int | None = None, table: str | None = None
    ) -> Error:
        """The ``error`` reply to a protocol error: its code, and its words made safe.

        >>> from protocol.errors import RemoteProtocolError
        >>> Error.answering(RemoteProtocolError("frame over the limit", "too_large")).code
        'too_large'
        """
        return cls(code=exc.code, text=clean_text(str(exc))[:1000], id=id, table=table)


# ------------------------------------------------------------------ the lobby
@message("claim_name", CLIENT)
@dataclass(frozen=True, slots=True)
class ClaimName(Message):
    """Use ``name``; the first claim sets its secret, later ones must repeat it."""

    name: Word
    secret: Word
    id: Id = field(default=None, kw_only=True)


@message("named", SERVER)
@dataclass(frozen=True, slots=True)
class Named(Message):
    """The reply to ``claim_name``: this connection now acts as ``name``."""

    name: Word
    id: Id = field(default=None, kw_only=True)


@message("help", CLIENT)
@dataclass(frozen=True, slots=True)
class Help(Message):
    """Ask for the command list, or the help of one command (``topic``)."""

    topic: OptWord = None
    id: Id = field(default=None, kw_only=True)


@message("help_text", SERVER)
@dataclass(frozen=True, slots=True)
class HelpText(Message):
    """Lines of help (``protocol.commands.help_lines`` makes them)."""

    lines: Lines
    topic: OptWord = None
    id: Id = field(default=None, kw_only=True)


@message("list_rulesets", CLIENT)
@dataclass(frozen=True, slots=True)
class ListRulesets(Message):
    id: Id = field(default=None, kw_only=True)


@message("rulesets", SERVER)
@dataclass(frozen=True, slots=True)
class Rulesets(Message):
    """Every ruleset: ``engine.registry.Ruleset.describe()`` maps."""

    rulesets: RulesetList
    id: Id = field(default=None, kw_only=True)


@message("list_tables", CLIENT)
@dataclass(frozen=True, slots=True)
class ListTables(Message):
    """A page of the lobby: ``count`` tables (``None``: the server's page,
    ``lobby_page``; never more) from the ``start``-th, the tables waiting for players
    first."""

    start: Count = 0
    count: OptCount = None
    id: Id = field(default=None, kw_only=True)


@message("tables", SERVER)
@dataclass(frozen=True, slots=True)
class Tables(Message):
    """A page of table summaries: maps with table, ruleset, family, seats, players,
    spectators, state, master, options (docs/protocol.md). ``start``: the first one's
    place in the listing; ``next``: the ``start`` of the next page (null: the last);
    ``total``: the tables listed in all."""

    tables: TableList
    start: Count = 0
    next: OptCount = None
    total: Count = 0
    id: Id = field(default=None, kw_only=True)


@message("create_table", CLIENT)
@dataclass(frozen=True, slots=True)
class CreateTable(Message):
    """Open a table; the creator is its game master. Reply: ``ok`` naming the table."""

    ruleset: Word
    seats: Count
    options: Payload = field(default_factory=dict)
    id: Id = field(default=None, kw_only=True)


@message("join", CLIENT)
@dataclass(frozen=True, slots=True)
class Join(Message):
    """Take a seat (``None``: any free one). Reply: ``seated`` then a ``snapshot``."""

    table: Word
    seat: OptSeat = None
    id: Id = field(default=None, kw_only=True)


@message("seated", SERVER)
@dataclass(frozen=True, slots=True)
class Seated(Message):
    """You hold ``seat`` at ``table``; keep ``token`` to act and to resume."""

    table: Word
    seat: Seat
    token: Word
    id: Id = field(default=None, kw_only=True)


@message("spectate", CLIENT)
@dataclass(frozen=True, slots=True)
class Spectate(Message):
    """Watch a table. Reply: a spectator's ``snapshot``; or, with ``last_seq``
    (watching again after a reconnect), the events after it when the server
    still holds them all."""

    table: Word
    last_seq: OptSeq = None
    id: Id = field(default=None, kw_only=True)


@message("leave", CLIENT)
@dataclass(frozen=True, slots=True)
class Leave(Message):
    """Stop playing or watching; a seat left in a game is played by a bot."""

    table: Word
    id: Id = field(default=None, kw_only=True)


@message("resume", CLIENT)
@dataclass(frozen=True, slots=True)
class Resume(Message):
    """Take back a seat after a reconnect. The server sends every event after
    ``last_seq`` (or a ``snapshot`` when it no longer holds them all)."""

    table: Word
    token: Word
    last_seq: Seq
    id: Id = field(default=None, kw_only=True)


# ---------------------------------------------------------------- at a table
@message("act", CLIENT)
@dataclass(frozen=True, slots=True)
class Act(Message):
    """Take an action at your seat, in the engine's notation (normalised)."""

    table: Word
    action: Notation
    id: Id = field(default=None, kw_only=True)


@message("look", CLIENT)
@dataclass(frozen=True, slots=True)
class Look(Message):
    """Show the table again: the reply is a ``snapshot`` of what you may see there (your
    seat's view if you hold one, else the spectators'). For a person at ``nc`` who has
    lost the position in his scrollback; a drawing client never needs it."""

    table: Word
    id: Id = field(default=None, kw_only=True)


@message("say", CLIENT)
@dataclass(frozen=True, slots=True)
class Say(Message):
    """Talk at a table: public to everyone there, spectators included."""

    table: Word
    text: Text
    id: Id = field(default=None, kw_only=True)


@message("talk", SERVER)
@dataclass(frozen=True, slots=True)
class Talk(Message):
    """Someone said something at a table (relayed, cleaned; not sequenced)."""

    table: Word
    name: Word
    text: Text
    id: Id = field(default=None, kw_only=True)


@message("presence", SERVER)
@dataclass(frozen=True, slots=True)
class Presence(Message):
    """A seated player's coming and going, told to the rest of the table (not sequenced):
    ``what`` is ``left`` (gave up the seat), ``dropped`` (the connection went; the seat
    and its clock stay) or ``back`` (a dropped player's seat is his connection's again).
    ``text`` is the line in words (``protocol.table_lines.presence_text``)."""

    table: Word
    seat: Seat
    name: Word
    what: Word
    text: OptText = None
    id: Id = field(default=None, kw_only=True)


@message("watcher", SERVER)
@dataclass(frozen=True, slots=True)
class Watcher(Message):
    """Someone began or stopped watching a table, told to everyone else at it (not
    sequenced): ``what`` is ``came`` or ``went``; ``watching`` counts the spectators now.
    ``name`` is None for a spectator who has claimed no name. ``text`` is the line in
    words (``protocol.table_lines.watcher_text``)."""

    table: Word
    what: Word
    name: OptWord = None
    watching: Count = 0
    text: OptText = None
    id: Id = field(default=None, kw_only=True)


@message("snapshot", SERVER)
@dataclass(frozen=True, slots=True)
class Snapshot(Message):
    """Everything a seat (``None``: a spectator) may see at ``table`` as of event ``seq``.

    ``view`` is the engine's ``game.view(seat)`` (empty before the game
    starts), ``legal`` that seat's legal actions in notation, ``players`` each
    seat's occupant (a name, ``bot:STRATEGY``, or ``None`` when empty),
    ``clock`` the seconds left to the seat to act (``None``: no clock), ``ruleset`` the
    table's ruleset (known before the first deal, when ``view`` is still empty).
    ``must`` and ``choices`` are the seat's legal actions in words, as in ``Turn``.
    ``again``: at a finished game, the seats whose players asked to play the next one
    (``again``), left off the wire while nobody has. ``waiting``, ``pending_text`` and
    ``clock_warning`` as in ``Turn`` (``waiting``, before the first deal, says so);
    ``result_text``: at a finished game, how it ended in words (its ``game_end``'s), for
    one who comes to the table after it."""

    table: Word
    seq: Seq
    state: State
    view: ViewPayload
    seat: OptSeat = None
    legal: Legal = ()
    players: Players = ()
    master: OptWord = None
    clock: Clock = None
    must: OptText = None
    choices: Choices = field(default=(), metadata={OMIT_EMPTY: True})
    ruleset: OptWord = None
    again: Seats = field(default=(), metadata={OMIT_EMPTY: True})
    waiting: OptText = None
    pending_text: OptText = None
    clock_warning: OptText = None
    result_text: OptText = None
    id: Id = field(default=None, kw_only=True)


@message("event", SERVER)
@dataclass(frozen=True, slots=True)
class TableEvent(Message):
    """One thing that happened at a table, presented for the receiver
    (``Event.present(seat)``), or a table event (``seat``, ``start``, ...).

    ``text`` is the event in words for this receiver, composed when it happened and
    naming the seats' holders of that moment (``None``: an older server; compose it
    with ``protocol.describe``)."""

    table: Word
    seq: Seq
    event: EventPayload
    text: OptText = None
    id: Id = field(default=None, kw_only=True)


@message("turn", SERVER)
@dataclass(frozen=True, slots=True)
class Turn(Message):
    """After each event batch: whose turn it is, the receiver's legal actions now
    and (``view``) its fresh ``game.view(seat)``, so nobody has to ask for a snapshot.

    ``seat`` is the receiving seat, ``None`` for a spectator (whose ``legal``
    is empty and whose ``view`` is the public one). ``view`` ``None``: not sent
    (an older server); keep the last view and move ``to_act`` only.

    ``must`` says in words what the seat must answer now (``None``: nothing is owed);
    ``choices`` groups ``legal`` for display, each action once with its label
    (``protocol.legal``), left off the wire while ``legal`` is empty.

    ``waiting`` says whom the table waits for (``Waiting for ann…``), to everyone but
    the seat to act; ``pending_text`` what the pile asks of whoever plays next
    (shedding's pending power, kilodney's suit or rank to follow), to everyone;
    ``clock_warning`` what the seat's client says, once a turn, when the seat's own clock
    runs low (the client times the clock; sent to the seat to act while a clock runs)
    (``protocol.table_lines``; ``None``: nothing to say)."""

    table: Word
    seq: Seq
    seat: OptSeat = None
    to_act: OptSeat = None
    legal: Legal = ()
    clock: Clock = None
    view: OptView = None
    must: OptText = None
    choices: Choices = field(default=(), metadata={OMIT_EMPTY: True})
    waiting: OptText = None
    pending_text: OptText = None
    clock_warning: OptText = None
    id: Id = field(default=None, kw_only=True)


# ------------------------------------------------------- the game master's
@message("start_game", CLIENT)
@dataclass(frozen=True, slots=True)
class StartGame(Message):
    """Deal; empty seats are filled with bots. At a finished game where some players
    asked to play again (``again``), those who did not are unseated first, and
    ``absent`` says what becomes of their seats: ``free`` (``None``, the default) leaves
    them free, played by a server bot until someone sits down; ``bot`` reserves them for
    the default bot."""

    table: Word
    absent: OptWord = None
    id: Id = field(default=None, kw_only=True)


@message("pause_game", CLIENT)
@dataclass(frozen=True, slots=True)
class PauseGame(Message):
    table: Word
    id: Id = field(default=None, kw_only=True)


@message("resume_game", CLIENT)
@dataclass(frozen=True, slots=True)
class ResumeGame(Message):
    table: Word
    id: Id = field(default=None, kw_only=True)


@message("seat_bot", CLIENT)
@dataclass(frozen=True, slots=True)
class SeatBot(Message):
    """Put a server bot in ``seat`` (``strategy`` ``None``: the default one)."""

    table: Word
    seat: Seat
    strategy: OptWord = None
    id: Id = field(default=None, kw_only=True)


@message("unseat", CLIENT)
@dataclass(frozen=True, slots=True)
class Unseat(Message):
    """Empty ``seat`` (a bot or a player); a game in play gives it to a bot."""

    table: Word
    seat: Seat
    id: Id = field(default=None, kw_only=True)


@message("set_options", CLIENT)
@dataclass(frozen=True, slots=True)
class SetOptions(Message):
    """Change table options before the game starts."""

    table: Word
    options: Payload
    id: Id = field(default=None, kw_only=True)


@message("set_prize", CLIENT)
@dataclass(frozen=True, slots=True)
class SetPrize(Message):
    """Put up ``chips`` from the master's balance for the winner."""

    table: Word
    chips: Count
    id: Id = field(default=None, kw_only=True)


@message("hand_over", CLIENT)
@dataclass(frozen=True, slots=True)
class HandOver(Message):
    """Make ``name`` the table's game master."""

    table: Word
    name: Word
    id: Id = field(default=None, kw_only=True)


@message("end_game", CLIENT)
@dataclass(frozen=True, slots=True)
class EndGame(Message):
    """Abandon the game (a prize goes back to the master)."""

    table: Word
    id: Id = field(default=None, kw_only=True)


@message("close_table", CLIENT)
@dataclass(frozen=True, slots=True)
class CloseTable(Message):
    """Close the table for good (a running game is abandoned, its prize returned);
    everyone at it is told ``reason``."""

    table: Word
    reason: Text = ""
    id: Id = field(default=None, kw_only=True)


# ----------------------------------------------------------- chips, records
@message("get_chips", CLIENT)
@dataclass(frozen=True, slots=True)
class GetChips(Message):
    """A balance and recent ledger entries (``name`` ``None``: your own)."""

    name: OptWord = None
    id: Id = field(default=None, kw_only=True)


@message("chips", SERVER)
@dataclass(frozen=True, slots=True)
class Chips(Message):
    """A balance and recent ledger entries (maps: time, delta, reason, table)."""

    name: Word
    balance: Signed
    entries: LedgerList = ()
    id: Id = field(default=None, kw_only=True)


@message("get_record", CLIENT)
@dataclass(frozen=True, slots=True)
class GetRecord(Message):
    """One page of a table's game record, from entry ``start`` (an action of a full
    record, an event of a public log)."""

    table: Word
    start: Count = 0
    id: Id = field(default=None, kw_only=True)


@message("record", SERVER)
@dataclass(frozen=True, slots=True)
class Record(Message):
    """One page of a game's record. ``full``: ``game.record()`` (seed, options,
    actions), which ``engine.replay`` rebuilds once every page's ``actions`` are
    joined; otherwise the public event log (``{"ruleset", "seats", "options",
    "events": [...]}``). The page holds the entries from ``start``; ``next`` is where
    the next page starts (null: this is the last), ``total`` how many entries there
    are, ``game`` the table's game number (pages of one record share it)."""

    table: Word
    record: Payload
    full: Bool = True
    start: Count = 0
    next: OptCount = None
    total: Count = 0
    game: Count = 0
    id: Id = field(default=None, kw_only=True)


# ---------------------------------------------------------------- players
@message("get_profile", CLIENT)
@dataclass(frozen=True, slots=True)
class GetProfile(Message):
    """A player's profile (``finger``): ``name`` ``None``: your own; ``bot:STRATEGY``: a
    server bot's."""

    name: OptWord = None
    id: Id = field(default=None, kw_only=True)


@message("profile", SERVER)
@dataclass(frozen=True, slots=True)
class Profile(Message):
    """A player's profile: ``ratings`` one map a family (family, rating, mu, sigma,
    games), ``tallies`` one map a ruleset (ruleset, played, won), ``recent`` his last
    finished games (maps as in ``history``), ``games`` how many he has finished,
    ``chips`` his chip balance (``None``: no chip account, e.g. a bot); ``lines`` all
    of it in words, as every client shows it (``protocol.profile_lines``)."""

    name: Word
    games: Count = 0
    chips: OptCount = None
    ratings: RatingList = ()
    tallies: TallyList = ()
    recent: GameList = ()
    lines: Lines = ()
    id: Id = field(default=None, kw_only=True)


@message("get_history", CLIENT)
@dataclass(frozen=True, slots=True)
class GetHistory(Message):
    """A page of a player's finished games, newest first, skipping the newest ``start``
    (``name`` ``None``: your own)."""

    name: OptWord = None
    start: Count = 0
    id: Id = field(default=None, kw_only=True)


@message("history", SERVER)
@dataclass(frozen=True, slots=True)
class History(Message):
    """A page of ``name``'s finished games, newest first: maps of table, game, ruleset,
    rated, time, seat (his), players, scores and places (0 = won). ``next``: the
    ``start`` of the next page (null: this is the last); ``total``: his games in all."""

    name: Word
    games: GameList = ()
    start: Count = 0
    next: OptCount = None
    total: Count = 0
    id: Id = field(default=None, kw_only=True)


@message("get_top", CLIENT)
@dataclass(frozen=True, slots=True)
class GetTop(Message):
    """The best rated players of a family (a ruleset's name means its family); at most
    ``count`` of them (``None``: the server's most)."""

    family: Word
    count: OptCount = None
    id: Id = field(default=None, kw_only=True)


@message("top", SERVER)
@dataclass(frozen=True, slots=True)
class Top(Message):
    """The leaderboard of ``family``, best first: maps of place, name, rating, mu,
    sigma and games."""

    family: Word
    players: LeaderList = ()
    id: Id = field(default=None, kw_only=True)


# ------------------------------------------------------------ the operators
@message("admin_auth", CLIENT)
@dataclass(frozen=True, slots=True)
class AdminAuth(Message):
    """Become an operator on this connection with the server's operator secret."""

    secret: Word
    id: Id = field(default=None, kw_only=True)


@message("admin_connections", CLIENT)
@dataclass(frozen=True, slots=True)
class AdminConnections(Message):
    id: Id = field(default=None, kw_only=True)


@message("connections", SERVER)
@dataclass(frozen=True, slots=True)
class Connections(Message):
    """Open connections: maps with id, name, peer, codec, tables, since."""

    connections: Payloads
    id: Id = field(default=None, kw_only=True)


@message("admin_tables", CLIENT)
@dataclass(frozen=True, slots=True)
class AdminTables(Message):
    """Every table, closed ones too. Reply: ``tables``."""

    id: Id = field(default=None, kw_only=True)


@message("admin_close_table", CLIENT)
@dataclass(frozen=True, slots=True)
class AdminCloseTable(Message):
    table: Word
    reason: Text = ""
    id: Id = field(default=None, kw_only=True)


@message("admin_close_tables", CLIENT)
@dataclass(frozen=True, slots=True)
class AdminCloseTables(Message):
    """Close every table that matches all the filters given: ``empty`` (nobody seated
    or watching is connected), ``creator`` (created by that name). At least one."""

    empty: Bool = False
    creator: OptWord = None
    reason: Text = ""
    id: Id = field(default=None, kw_only=True)


@message("admin_kick", CLIENT)
@dataclass(frozen=True, slots=True)
class AdminKick(Message):
    """Close every connection of ``name``."""

    name: Word
    reason: Text = ""
    id: Id = field(default=None, kw_only=True)


@message("admin_ban", CLIENT)
@dataclass(frozen=True, slots=True)
class AdminBan(Message):
    """Kick ``name`` and refuse it from now on."""

    name: Word
    reason: Text = ""
    id: Id = field(default=None, kw_only=True)


@message("admin_notice", CLIENT)
@dataclass(frozen=True, slots=True)
class AdminNotice(Message):
    """Send a ``notice`` to every connection."""

    text: Text
    id: Id = field(default=None, kw_only=True)


@message("admin_shutdown", CLIENT)
@dataclass(frozen=True, slots=True)
class AdminShutdown(Message):
    """Shut the server down after a countdown announced by notices."""

    seconds: Count
    reason: Text = ""
    id: Id = field(default=None, kw_only=True)


@message("admin_stats", CLIENT)
@dataclass(frozen=True, slots=True)
class AdminStats(Message):
    id: Id = field(default=None, kw_only=True)


@message("stats", SERVER)
@dataclass(frozen=True, slots=True)
class Stats(Message):
    """Server figures (connections, tables, actions/s, ...): a map."""

    stats: Payload
    id: Id = field(default=None, kw_only=True)


@message("notice", SERVER)
@dataclass(frozen=True, slots=True)
class Notice(Message):
    """A message from the server or its operators; ``shutdown_in`` counts down.
    ``table`` names the table a notice is about (the clock's move, a seat taken up
    elsewhere, a table closed), so a client files it in that table's log; it is null
    for a notice to the whole server."""

    text: Text
    shutdown_in: OptCount = None
    table: OptWord = None
    id: Id = field(default=None, kw_only=True)


# ------------------------------------------------------------- the room
@message("who", CLIENT)
@dataclass(frozen=True, slots=True)
class Who(Message):
    """Who is on the server, and where. Reply: ``people``."""

    id: Id = field(default=None, kw_only=True)


@message("people", SERVER)
@dataclass(frozen=True, slots=True)
class People(Message):
    """The people online, by name: maps of ``name``, ``state`` (``playing``: seated at a
    running game; ``seated``: at a table waiting for its game; ``watching``; ``idle``: in
    the lobby), ``tables`` (``{"table", "seat", "state"}`` each, ``seat`` null when
    watching) and ``idle`` (whole seconds since the name last sent anything).
    At most the server's ``who_max`` of them; ``total`` counts every name online and
    ``guests`` the connections that have claimed none; ``text`` says so in words, the
    line every client shows above the list (``protocol.table_lines.online_text``)."""

    people: PersonList = ()
    total: Count = 0
    guests: Count = 0
    text: OptText = None
    id: Id = field(default=None, kw_only=True)


@message("shout", CLIENT)
@dataclass(frozen=True, slots=True)
class Shout(Message):
    """Talk to the whole room (everyone online who hears shouts), not one table."""

    text: Text
    id: Id = field(default=None, kw_only=True)


@message("shouted", SERVER)
@dataclass(frozen=True, slots=True)
class Shouted(Message):
    """Someone shouted to the room (relayed, cleaned; not sequenced)."""

    name: Word
    text: Text
    id: Id = field(default=None, kw_only=True)


@message("hear_shouts", CLIENT)
@dataclass(frozen=True, slots=True)
class HearShouts(Message):
    """Hear the room's shouts (``on``, the default) or not, on this connection."""

    on: Bool = True
    id: Id = field(default=None, kw_only=True)


# ------------------------------------------------------ looking back at a game
@message("analyse", CLIENT)
@dataclass(frozen=True, slots=True)
class Analyse(Message):
    """Ask for the after-game analysis of a table's finished game (``game``: its number
    at the table; ``None``: the table's last game). Answered ``analysis`` at once when it
    was made before; else ``ok``, then ``analysis_progress`` while it runs and
    ``analysis`` when it is done (to the asker and everyone at the table)."""

    table: Word
    game: OptCount = None
    id: Id = field(default=None, kw_only=True)


@message("analysis_progress", SERVER)
@dataclass(frozen=True, slots=True)
class AnalysisProgress(Message):
    """How far the analysis of ``game`` at ``table`` has come: ``done`` of ``total``
    decisions judged."""

    table: Word
    game: Count
    done: Count
    total: Count
    id: Id = field(default=None, kw_only=True)


@message("analysis", SERVER)
@dataclass(frozen=True, slots=True)
class Analysis(Message):
    """A finished game's analysis (``engine.analysis.as_json``): ``players`` (each
    seat's summary: accuracy, marks, costliest decisions) and ``decisions`` (each
    judged decision: ``index`` (the action's place; the replay's step ``index + 1``),
    ``seat``, ``played``, ``best``, ``values``, ``loss``, ``mark``, ``exact``,
    ``capped``)."""

    table: Word
    game: Count
    analysis: Payload
    id: Id = field(default=None, kw_only=True)


@message("review", CLIENT)
@dataclass(frozen=True, slots=True)
class Review(Message):
    """Lead the review of the table's finished game: the sender is at ``step`` (0: the
    deal; ``N``: after the ``N``th action). Everyone following him is sent
    ``reviewing``; the first step of a review is sent to everyone at the table."""

    table: Word
    step: Count = 0
    id: Id = field(default=None, kw_only=True)


@message("follow", CLIENT)
@dataclass(frozen=True, slots=True)
class Follow(Message):
    """Follow ``name``'s review at ``table`` (his step is sent at once, then each one
    he takes); ``name`` ``None``: step away (follow nobody)."""

    table: Word
    name: OptWord = None
    id: Id = field(default=None, kw_only=True)


@message("reviewing", SERVER)
@dataclass(frozen=True, slots=True)
class Reviewing(Message):
    """``leader`` is at ``step`` of ``total`` in the review of ``game`` at ``table``;
    ``said`` is that step's action in words (empty at the deal)."""

    table: Word
    game: Count
    leader: Word
    step: Count
    total: Count
    said: Text = ""
    id: Id = field(default=None, kw_only=True)


@message("hint", CLIENT)
@dataclass(frozen=True, slots=True)
class Hint(Message):
    """The search's advice for the sender's decision now, in a game against bots only."""

    table: Word
    id: Id = field(default=None, kw_only=True)


@message("hinted", SERVER)
@dataclass(frozen=True, slots=True)
class Hinted(Message):
    """The advice: ``best`` (an action's notation), ``values`` (each alternative's
    expected score for the seat, 0..1; empty when chosen by rule of thumb), ``exact``
    (the solver's values: 1 a win, 1/2 a tie, 0 a loss) and ``text``, a sentence."""

    table: Word
    best: Notation
    values: Payload = field(default_factory=dict)
    exact: Bool = False
    text: Text = ""
    id: Id = field(default=None, kw_only=True)


Received = Message | UnknownMessage | InvalidMessage


def clean_text(text: str) -> str:
    """``text`` with control characters turned into spaces: safe for any text field.

    >>> clean_text("hi\\nthere\\x07")
    'hi there '
    """
    return CONTROL.sub(" ", text)


def from_map(data: Any) -> Received:
    """The message a wire map stands for. Never raises: see ``UnknownMessage``
    and ``InvalidMessage``."""
    if type(data) is not dict:
        return InvalidMessage("", "bad_message", "a message must be a map")
    type_name = data.get("type")
    if type(type_name) is not str:
        return InvalidMessage(
            "", "bad_message", "a message needs a string 'type'", _peer_id(data.get("id"))
        )
    cls = TYPES.get(type_name)
    if cls is None:
        return UnknownMessage(type_name[:100], _peer_id(data.get("id")))
    return cls._from_map(data)


def client_types() -> list[str]:
    """The types a client may send."""
    return [t for t, cls in TYPES.items() if SENDER[cls] != SERVER]


def server_types() -> list[str]:
    """The types a server may send."""
    return [t for t, cls in TYPES.items() if SENDER[cls] != CLIENT]


__all__ = [
    "BOTH",
    "CLIENT",
    "PROTOCOL",
    "SENDER",
    "SERVER",
    "TYPES",
    "VERSIONS",
    "Act",
    "AdminAuth",
    "AdminBan",
    "AdminCloseTable",
    "AdminCloseTables",
    "AdminConnections",
    "AdminKick",
    "AdminNotice",
    "AdminShutdown",
    "AdminStats",
    "AdminTables",
    "Analyse",
    "Analysis",
    "AnalysisProgress",
    "Chips",
    "ClaimName",
    "CloseTable",
    "Connections",
    "CreateTable",
    "EndGame",
    "Error",
    "Follow",
    "GetChips",
    "GetHistory",
    "GetProfile",
    "GetRecord",
    "GetTop",
    "Goodbye",
    "HandOver",
    "HearShouts",
    "Hello",
    "Help",
    "HelpText",
    "Hint",
    "Hinted",
    "History",
    "InvalidMessage",
    "Join",
    "Leave",
    "ListRulesets",
    "ListTables",
    "Look",
    "Message",
    "Named",
    "Notice",
    "Ok",
    "PauseGame",
    "People",
    "Ping",
    "Pong",
    "Presence",
    "Profile",
    "Quit",
    "Received",
    "Record",
    "Resume",
    "ResumeGame",
    "Review",
    "Reviewing",
    "Rulesets",
    "Say",
    "SeatBot",
    "Seated",
    "SetOptions",
    "SetPrize",
    "Shout",
    "Shouted",
    "Snapshot",
    "Spectate",
    "StartGame",
    "Stats",
    "TableEvent",
    "Tables",
    "Talk",
    "Top",
    "Turn",
    "UnknownMessage",
    "Unseat",
    "Watcher",
    "Welcome",
    "Who",
    "clean_text",
    "client_types",
    "from_map",
    "message",
    "server_types",
]


# ------------------------------------------------------------- tournaments
# An evening's tournament above the tables (docs/protocol.md, "Tournaments"). A
# tournament is named by its number; its tables are ordinary tables.


@message("list_tournaments", CLIENT)
@dataclass(frozen=True, slots=True)
class ListTournaments(Message):
    """Every tournament on the server. Reply: ``tournaments``."""

    id: Id = field(default=None, kw_only=True)


@message("tournaments", SERVER)
@dataclass(frozen=True, slots=True)
class Tournaments(Message):
    """Tournament summaries: maps with tournament, format, ruleset, host, players,
    round, rounds, state (docs/protocol.md)."""

    tournaments: Payloads = ()
    id: Id = field(default=None, kw_only=True)


@message("get_tournament", CLIENT)
@dataclass(frozen=True, slots=True)
class GetTournament(Message):
    """One tournament's standings and round (``None``: the one you play in); ``record``:
    with its whole record (every round's tables and points). Reply: ``tournament``."""

    tournament: OptCount = None
    record: Bool = False
    id: Id = field(default=None, kw_only=True)


@message("tournament", SERVER)
@dataclass(frozen=True, slots=True)
class Tournament(Message):
    """One tournament: its ``summary`` (as listed), the ``standings`` best first, the
    current round's ``tables``, how each tiebreak is computed (``tiebreaks``), and its
    ``record`` when asked for (``get_tournament`` ``record``)."""

    tournament: Count
    summary: Payload = field(default_factory=dict)
    standings: Payloads = ()
    tables: Payloads = ()
    tiebreaks: Payloads = ()
    record: Payload = field(default_factory=dict, metadata={OMIT_EMPTY: True})
    id: Id = field(default=None, kw_only=True)


@message("your_table", SERVER)
@dataclass(frozen=True, slots=True)
class YourTable(Message):
    """A round is seated: your seat in it is ``seat`` at ``table`` (held for you by
    name), in round ``round`` of tournament ``tournament`` (``final``: the final
    table). A client sits down there by itself (``join``); text mode makes it the
    current table, so ``join`` and ``look`` mean it."""

    tournament: Count
    round: Count
    table: Word
    seat: Seat
    final: Bool = False
    id: Id = field(default=None, kw_only=True)


@message("create_tournament", CLIENT)
@dataclass(frozen=True, slots=True)
class CreateTournament(Message):
    """Host a tournament of ``ruleset``: ``format`` ``swiss`` (``rounds``, 0: about log2
    of the players plus one, fixed when it starts, each capped at ``minutes``) or
    ``arena`` (tables started as players are free for ``minutes``, bots filling for one
    who waited ``wait`` seconds); tables of ``seats`` each, bots filling where no split
    fits (null: any size the ruleset allows, 4 preferred where it may be, else its
    most); round 1 ``by_strength`` (the strongest together) or mixed; ``apart``: pairs
    never seated together, each line two names; ``final``: the top ``final`` of the
    standings play one last game that decides the winner (0: none); ``bots``: the most
    server bots a table where no split of the players fits (0: people only); ``options``:
    every table's options, as ``create_table``'s (house rules, ``rated``,
    ``turn_seconds``). Reply: ``ok``."""

    ruleset: Word
    rounds: Count = 0
    minutes: Count = 30
    seats: OptCount = None
    format: Word = "swiss"
    wait: Count = 25
    by_strength: Bool = False
    apart: Lines = ()
    final: Count = 0
    bots: Count = 1
    options: Payload = field(default_factory=dict, metadata={OMIT_EMPTY: True})
    id: Id = field(default=None, kw_only=True)


@message("enter_tournament", CLIENT)
@dataclass(frozen=True, slots=True)
class EnterTournament(Message):
    """Enter tournament ``tournament`` (or come back after a pause). Reply: ``ok``."""

    tournament: Count
    id: Id = field(default=None, kw_only=True)


@message("withdraw", CLIENT)
@dataclass(frozen=True, slots=True)
class Withdraw(Message):
    """Leave a tournament for good, keeping the points earned (``None``: the one you
    play in); its host (or an operator) drops a player by ``name``. Reply: ``ok``."""

    tournament: OptCount = None
    name: OptWord = None
    id: Id = field(default=None, kw_only=True)


@message("start_tournament", CLIENT)
@dataclass(frozen=True, slots=True)
class StartTournament(Message):
    """The host starts his tournament: round 1 is seated. Reply: ``ok``."""

    tournament: Count
    id: Id = field(default=None, kw_only=True)


@message("end_tournament", CLIENT)
@dataclass(frozen=True, slots=True)
class EndTournament(Message):
    """The host ends his tournament now: games still running are scored as they stand,
    then the final standings are told. Reply: ``ok``."""

    tournament: Count
    id: Id = field(default=None, kw_only=True)


@message("sit_out", CLIENT)
@dataclass(frozen=True, slots=True)
class SitOut(Message):
    """Sit out the next rounds of a tournament (``None``: the one you play in) until you
    enter it again; a game you are at is played on. Reply: ``ok``."""

    tournament: OptCount = None
    id: Id = field(default=None, kw_only=True)


@message("pause_tournament", CLIENT)
@dataclass(frozen=True, slots=True)
class PauseTournament(Message):
    """The host pauses his whole tournament: no round is seated or started and the
    round's time cap stands still; a game in play finishes its hand, then waits paused
    until ``resume_tournament``. Reply: ``ok``."""

    tournament: Count
    id: Id = field(default=None, kw_only=True)


@message("resume_tournament", CLIENT)
@dataclass(frozen=True, slots=True)
class ResumeTournament(Message):
    """The host resumes his paused tournament: the games play on, the cap counts again
    and the next round is seated when it is due. Reply: ``ok``."""

    tournament: Count
    id: Id = field(default=None, kw_only=True)


__all__ += [
    "CreateTournament",
    "EndTournament",
    "EnterTournament",
    "GetTournament",
    "ListTournaments",
    "PauseTournament",
    "ResumeTournament",
    "SitOut",
    "StartTournament",
    "Tournament",
    "Tournaments",
    "Withdraw",
    "YourTable",
]


# ------------------------------------------------------------ play again
@message("again", CLIENT)
@dataclass(frozen=True, slots=True)
class PlayAgain(Message):
    """Play the next game at ``table``, whose game is over, in your seat. Everyone at
    the table is told (a ``notice``, and the snapshots' ``again``); once every seated
    person has asked, the next game starts. Reply: ``ok``."""

    table: Word
    id: Id = field(default=None, kw_only=True)


@message("rated", SERVER)
@dataclass(frozen=True, slots=True)
class Rated(Message):
    """The ratings a finished game at ``table`` changed, sent to everyone there once
    they are stored. ``game`` is the table's game number; ``changes`` one map a rated
    seat: ``seat``, ``name``, ``before`` and ``after`` (its rating, whole points);
    ``text`` says it in words."""

    table: Word
    game: Count
    changes: Payloads
    text: Text
    id: Id = field(default=None, kw_only=True)


__all__ += ["PlayAgain", "Rated"]


# ------------------------------------------------------ a finished game's replay
@message("get_replay", CLIENT)
@dataclass(frozen=True, slots=True)
class GetReplay(Message):
    """Ask for the replay of game ``game`` of ``table`` (any finished game the server
    keeps, by its number at the table), steps from ``start``: answered ``replay``, one
    page of steps. A game still running is refused (``bad_state``: its deal is secret)."""

    table: Word
    game: Count
    start: Count = 0
    id: Id = field(default=None, kw_only=True)


@message("replay", SERVER)
@dataclass(frozen=True, slots=True)
class Replay(Message):
    """One page of a finished game's replay, worked out by the server: ``record`` is the
    full record but its actions (``ruleset``, ``seats``, ``seed``, ``options``,
    ``dealer``, ``deck``) with ``names``, each seat's player as shown; ``steps`` holds
    steps ``start`` onwards, each ``{"step", "action", "view", "hands", "said"}``: the
    action that led to it (``[seat, notation]``; null at step 0, the deal), the public
    view after it, each seat's hand then (the game is over: the record shows them all;
    empty in a family without hands) and the events' sentences, and (``pile``, where
    there is something to say) what the pile asks then, as the table's board says it
    (``protocol.table_lines.pile_text``). ``next``: the ``start``
    of the following page (null: the last); ``total``: the number of actions (steps 0
    to ``total``)."""

    table: Word
    game: Count
    record: Payload = field(default_factory=dict)
    steps: Payloads = ()
    start: Count = 0
    next: OptCount = None
    total: Count = 0
    id: Id = field(default=None, kw_only=True)


__all__ += ["GetReplay", "Replay"]
