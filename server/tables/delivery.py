"""Delivery to a table's members: the events numbered and kept, and each member sent
exactly what its seat may see.

A table (``server.tables.table.Table``) owns one ``Delivery``. It numbers the events
of the current game (``seq``, from ``game_base``, the start's own number, so replaying
a record gives the same numbers), keeps the last ``config.event_ring`` of them (as
``Event`` objects, presented on demand, which serves every audience from one ring)
and the public log of the whole game (``game_events``), and makes the messages: each
seat its own view of each event, spectators the public one, snapshots and turns. A
client further behind than the ring reaches gets a snapshot.

It reads the table through ``Stage`` (a protocol: the game, its state, who plays, the
master, the clock) and its members through the table's ``Seating``; it changes nothing
of either.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from engine.events import Event
from engine.game import Game
from protocol.describe import BOT, SENTENCE_FIELDS, describe_text, seat_name
from protocol.fields import TableState
from server.core import wire
from server.core.commands import Member
from server.tables.seating import Seating


class Told:
    """One event as kept: its public presentation, and its sentence for each audience
    (``protocol.describe``) composed once, the first time that audience is sent it,
    naming the seats' holders of the moment it happened (``names``). A seat that
    changes hands later never relabels it: a resumed client's catch-up says what the
    first sending said."""

    __slots__ = ("_private_texts", "_public_text", "event", "names", "public")

    def __init__(self, event: Event, names: tuple[str | None, ...]) -> None:
        self.event = event
        self.names = names  #: each seat's name as the log names it, when it happened
        self.public = event.present(None)  #: what spectators (and the public log) see
        self._public_text: str | None = None  #: the public sentence, once made
        self._private_texts: dict[int, str] | None = None  #: a seat shown more: its own

    def __eq__(self, other: object) -> bool:
        """The same event, told with the same names (a rebuilt ring equals the first)."""
        if not isinstance(other, Told):
            return NotImplemented
        return self.event == other.event and self.names == other.names

    __hash__ = None  # type: ignore[assignment]  # equal by value, and not frozen

    def __repr__(self) -> str:
        return f"Told({self.event!r}, {self.names!r})"

    def message(self, table: str, seq: int, seat: int | None) -> wire.Message:
        """The event as ``seat`` is sent it (``None``: a spectator), with its sentence, at
        the table whose word is ``table`` (``wire.table_word``)."""
        if seat is None or seat not in self.event.private:
            text = self._public_text
            if text is None:
                text = self._public_text = describe_text(self.public, self.names)
            return wire.worded_event(table, seq, self.public, text)
        shown = self.event.present(seat)
        texts = self._private_texts
        if texts is None:
            texts = self._private_texts = {}
        text = texts.get(seat)
        if text is None:
            text = texts[seat] = self._private_text(shown)
        return wire.worded_event(table, seq, shown, text)

    def _private_text(self, shown: dict[str, Any]) -> str:
        """The sentence of a seat shown more than the public: the public one where the
        fields its sentence reads are all public (a deal, whose private part is the
        seat's hand, which its sentence does not name), so it is composed once."""
        public = self.public
        reads = SENTENCE_FIELDS.get(shown["kind"])  # ``present`` always says it
        if reads is not None and all(shown.get(k) == public.get(k) for k in reads):
            text = self._public_text
            if text is None:
                text = self._public_text = describe_text(public, self.names)
            return text
        return describe_text(shown, self.names)


#: An event as numbered and kept: its number, the event, and how it is told.
Numbered = tuple[int, Event, Told]


class Stage(Protocol):
    """What delivery reads of its table (``server.tables.table.Table``)."""

    ruleset: str

    @property
    def game(self) -> Game | None: ...

    @property
    def state(self) -> TableState: ...

    @property
    def master(self) -> str | None: ...

    def players(self) -> list[str | None]: ...

    def clock_left(self) -> float | None: ...


class Delivery:
    """The numbered events of one table's current game, and the messages that carry them."""

    def __init__(
        self,
        table_id: int,
        ring: int,
        seating: Seating,
        stage: Stage,
        observe: Callable[[Sequence[Event]], None],
        away: Callable[[int], bool] = lambda seat: False,
    ) -> None:
        self.table_id = table_id
        self.word = wire.table_word(table_id)  #: the table as the wire names it
        self.seq = 0  #: the table's event sequence number, across games
        self.game_base = 0  #: the seq of the current game's start
        self.ring: deque[tuple[int, Told]] = deque(maxlen=ring)
        #: Every event of the current game as spectators are shown it, in order: the public
        #: log (``server.core.records``) is sliced from here a page at a time, never rebuilt
        #: by a replay; presented once, as each event happens, so a page costs no work.
        self.game_events: list[dict[str, Any]] = []
        self._seating = seating
        self._stage = stage
        self._observe = observe  #: the bots' strategies are shown each event as it is kept
        #: whether a seat is away: the server plays it at once, so it is offered nothing
        self._away = away
        #: the seats' changes when their names were last read, and those names as the log
        #: says them
        self._names: tuple[int, tuple[str | None, ...]] = (-1, ())
        #: whom the table waits for, by the seat to act, said of those names (``names``)
        self._said: tuple[tuple[str | None, ...], dict[int | None, str | None]] = ((), {})

    # ---------------------------------------------------------- numbering
    def new_game(self, base: int) -> None:
        """A game starts at ``base`` (restored, or dealt): nothing of the last one is kept."""
        self.seq = self.game_base = base
        self.ring.clear()
        self.game_events = []

    def resume_numbering(self, seq: int) -> None:
        """A game restored from a snapshot: its later events are numbered from ``seq``."""
        self.seq = seq

    def reaches(self, since: int, missing_seq: int) -> bool:
        """Whether a client that saw ``since`` would be served from the ring once the
        events before a snapshot (numbered up to ``missing_seq``) are made."""
        reach = self.ring.maxlen or 0
        return self.game_base <= since < missing_seq and self.seq - since <= reach

    def prepend(self, before: list[Event], missing_seq: int) -> bool:
        """The events before a restored snapshot, made at last: the public log's start
        and the ring's, as far as it reaches. False (nothing kept) if they are not
        numbered as stored."""
        if self.game_base + len(before) != missing_seq:
            return False
        names = self.names()
        told = [Told(ev, names) for ev in before]
        self.game_events[:0] = [t.public for t in told]
        room = (self.ring.maxlen or 0) - len(self.ring)
        if room > 0:
            numbered = [(self.game_base + 1 + i, t) for i, t in enumerate(told)]
            self.ring.extendleft(reversed(numbered[-room:]))
        return True

    def names(self) -> tuple[str | None, ...]:
        """Each seat's name as the log says it now (``seat_name``), read again only when a
        seat changed hands (``Seating.changes``). A seat nobody holds is named as the bot's
        (``bot 2``), as is a server bot's: every seat of a game is played, and a seat is
        empty while events are made only as a stored game is replayed after a restart,
        when its bots are not back yet. So the names hang on the holders alone."""
        changes = self._seating.changes
        kept, names = self._names
        if changes != kept:
            players = self._stage.players()
            names = tuple(seat_name(BOT if p is None else p, i) for i, p in enumerate(players))
            self._names = (changes, names)
        return names

    def record(self, events: list[Event]) -> list[Numbered]:
        """Number the events, keep them (the ring, and the public log as spectators see
        it); each with its number and how it is told (its public presentation, and its
        sentences naming the seats' holders of now)."""
        names = self.names()
        numbered = []
        for ev in events:
            self.seq += 1
            numbered.append((self.seq, ev, Told(ev, names)))
        self.ring.extend((n, told) for n, _ev, told in numbered)
        self.game_events.extend(told.public for _n, _ev, told in numbered)
        self._observe(events)
        return numbered

    # ----------------------------------------------------------- messages
    def legal(self, seat: int | None) -> list[str]:
        game = self._stage.game
        if seat is None or game is None or self._stage.state != TableState.PLAYING:
            return []
        actions = game.legal_actions(seat)  # most seats have none: away is asked of the rest
        if not actions or self._away(seat):  # played at once: a list would be stale
            return []
        return [str(a) for a in actions]

    def snapshot(
        self, seat: int | None, req: int | None = None, *, legal: bool = True
    ) -> wire.Message:
        stage = self._stage
        game = stage.game
        return wire.snapshot(
            self.table_id,
            self.seq,
            seat,
            stage.state,
            None if game is None else game.view(seat),
            self.legal(seat) if legal else [],
            stage.players(),
            stage.master,
            req,
            stage.clock_left(),
            stage.ruleset,
            tuple(sorted(self._seating.again)),
            self.names(),
        )

    def turn(
        self, seat: int | None, clock: float | None, lines: wire.TurnLines | None = None
    ) -> wire.Message:
        """Whose turn it is, ``seat``'s legal actions and its fresh view (``None``: a
        spectator's turn, the public view), so nobody needs to ask for a snapshot.
        ``clock``: the seconds left, and ``lines``: the table's lines (``turn_lines``),
        each made once for a batch's turns."""
        game = self._stage.game
        to_act = None if game is None else game.to_act
        view = None if game is None else game.view(seat)
        if lines is None:
            lines = self.turn_lines()
        pile = lines.pile if lines.piled else lines.set_pile(view)
        legal = self.legal(seat)
        return wire.lined_turn(
            self.word, self.seq, seat, to_act, legal, clock, view, lines.waiting, pile
        )

    def turn_lines(self) -> wire.TurnLines:
        """The table's lines for this action's turns, every seat's and the spectators'
        (``wire.TurnLines``): whom it waits for, named as the log names him, and what the
        pile asks, each composed once for them all."""
        game = self._stage.game
        to_act = None if game is None else game.to_act
        names = self.names()
        said = self._said
        if said[0] is not names:  # a seat changed hands: nobody is named as before
            said = self._said = (names, {})
        lines = said[1]
        try:
            line = lines[to_act]
        except KeyError:
            line = lines[to_act] = wire.waiting(None, to_act, names)
        return wire.TurnLines(line)

    def catch_up(
        self,
        member: Member,
        seat: int | None,
        since: int | None,
        req: int | None = None,
        *,
        answer: bool = False,
    ) -> None:
        """Events after ``since`` from the ring if it still holds them all, else a snapshot.

        The ring holds the current game's events only, so a client behind the
        start of this game (``game_base``) always gets a snapshot."""
        held = self.ring[0][0] if self.ring else self.seq + 1
        if since is not None and self.game_base <= since <= self.seq and held <= since + 1:
            # a spectate's reply, before the events it brings (a resume's is seated); all in
            # one delivery, so one write
            batch = [wire.ok(req, self.table_id)] if answer else []
            word = self.word
            batch.extend(told.message(word, n, seat) for n, told in self.ring if n > since)
            batch.append(self.turn(seat, self._stage.clock_left()))
            member.deliver_many(batch)
        else:
            member.deliver(self.snapshot(seat, req))

    def send_snapshots(self) -> None:
        """Everyone gets a fresh snapshot: after the seats changed, a start, an end."""
        for member, snapshot in self.snapshots().items():
            member.deliver(snapshot)

    def snapshots(self, *, legal: bool = True) -> dict[Member, wire.Message]:
        """Each member's fresh snapshot, seats first; the spectators share one.

        ``legal=False`` (a start whose opening events and turn follow, in the same
        delivery) leaves the legal actions to that turn, so that a client acts once,
        on the turn."""
        seating = self._seating
        out = {s.member: self.snapshot(i, legal=legal) for i, s in enumerate(seating.seats)
               if s.member is not None}  # fmt: skip
        if seating.spectators:
            public = self.snapshot(None)
            out.update(dict.fromkeys(seating.spectators, public))
        return out

    def send_events(
        self,
        numbered: list[Numbered],
        ack: tuple[Member, wire.Message] | None = None,
        heads: dict[Member, wire.Message] | None = None,
        prelude: Sequence[wire.Message] = (),
    ) -> None:
        """Each seat its own view of each event, then its turn (with its view);
        spectators the public view of each, then a spectator's turn: one delivery
        (one write) per connection. ``ack``: a member and the reply to its request
        (the action's ``ok``), which heads its delivery, the first one made. ``heads``:
        a message to head each member's delivery (a start's snapshots). ``prelude``: the
        messages that head every delivery (the clock's notices of a move it made).

        Each message is made once per distinct view: an event's public presentation
        (the one the public log keeps) is one message, shared by the spectators and
        by every seat it shows nothing private to (so a connection encodes it once
        for all, ``server.transport.connection.SharedEncodings``); a seat shown more gets
        its own; each seat's turn, and the spectators' one, once per batch."""
        word = self.word
        seating = self._seating
        public = [told.message(word, n, None) for n, _ev, told in numbered]
        clock = self._stage.clock_left()  # one reading for every turn of the batch
        lines = self.turn_lines()  # and one composing of the table's lines

        def seat_batch(i: int) -> list[wire.Message]:
            batch = [
                told.message(word, n, i) if i in ev.private else msg
                for (n, ev, told), msg in zip(numbered, public, strict=True)
            ]
            batch.append(self.turn(i, clock, lines))
            return batch

        leads: dict[Member, list[wire.Message]] | None = None  # what heads each delivery
        if heads is not None:
            leads = {m: [h] for m, h in heads.items()}
        if prelude:  # rare (a move the clock made): every delivery starts with it
            leads = {m: [*(leads or {}).get(m, ()), *prelude] for m in seating.members()}
        first = None
        if ack is not None:
            member, reply = ack
            first = seating.seat_of(member)
            if first is None:
                member.deliver(reply)
            else:
                member.deliver_many([reply, *seat_batch(first)])
        for i, s in enumerate(seating.seats):
            if s.member is not None and i != first:
                batch = seat_batch(i)
                s.member.deliver_many(batch if leads is None else [*leads[s.member], *batch])
        if seating.spectators:
            public.append(self.turn(None, clock, lines))
            for m in list(seating.spectators):
                m.deliver_many(public if leads is None else [*leads[m], *public])
