"""A table: one trio task that owns one game and applies actions one at a time.

Connections never touch the game. They queue commands (``server.core.commands``)
on the table's bounded inbox; the table's loop takes them in order, and for
each accepted action it (1) applies it, (2) awaits the store until the action
is durable, and only then (3) sends each seat exactly its own view of the
events (``Event.present(seat)``) and spectators the public view, followed by
whose turn it is and each seat's legal actions. Nothing acknowledged is lost:
on restart, ``Table.restore`` rebuilds the game from its newest stored snapshot and
the actions after it (``server.store.snapshots``), or replays the stored record.

The loop is also where time enters: between commands the table waits until
its next *deadline* (today: a server bot's move; a turn clock and pause hook in
at ``_deadline``/``_on_deadline``), so timed behaviour is testable with trio's
``MockClock`` and never needs a real sleep.

Sequence numbers count the events of one game (``game``, ``seq``), so replaying
a record gives the same numbers: after a restart a client resumes from the seq
it saw. The last ``config.event_ring`` events are kept (as ``Event`` objects,
presented on demand, which serves every audience from one ring); a client
further behind gets a snapshot.
"""

from __future__ import annotations

import contextlib
import logging
import math
import random
import secrets
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import trio

import engine
from engine.events import Event
from engine.game import Game
from protocol.fields import TableState
from server.core import records, wire
from server.core.commands import (
    Act,
    Close,
    Command,
    Detach,
    Export,
    Join,
    Leave,
    Look,
    MasterCommand,
    Member,
    Resume,
    Start,
    Talk,
    Watch,
)
from server.core.config import ServerConfig
from server.core.limits import fold_name
from server.core.logfmt import log_event
from server.players.accounts import new_token, token_hash
from server.store import snapshots
from server.store.base import (
    ABANDONED,
    FINISHED,
    ActionTaken,
    GameEnded,
    GameStarted,
    HandShown,
    SeatSet,
    Store,
    StoredTable,
    StoreError,
    TableClosed,
    TalkSaid,
    now,
)
from server.tables import gamemaster, lifetime, thinking
from server.tables.clock import TIMED_OUT, receive_before
from server.tables.seating import Witnesses

log = logging.getLogger("switchboard.table")

WAITING, PLAYING, OVER, CLOSED = (
    TableState.WAITING,
    TableState.PLAYING,
    TableState.OVER,
    TableState.CLOSED,
)
NO_TOKEN = "that token holds no seat at this table"
#: Spectators' comings and goings remembered per table for ``watch_notice_seconds``.
WATCH_TOLD_MAX = 256


def _refuse_closed(command: object, table: int) -> None:
    """The one reply to a request that reached a closed table (a ``Detach`` needs none)."""
    member = getattr(command, "member", None)
    if member is not None and not isinstance(command, Detach):
        req = getattr(command, "req", None)
        member.deliver(wire.error(req, "no_table", f"table {table} is closed", table))


@dataclass(slots=True)
class Seat:
    """A seat: the name holding it (None: free, a server bot plays it) and who is connected."""

    name: str | None = None
    token_hash: bytes | None = None
    member: Member | None = None


@dataclass(frozen=True, slots=True)
class TableStatistics:
    inbox_queued: int
    actions: int
    members: int


class Table:
    """One table. Build with ``Table(...)`` or ``Table.restore(stored, ...)``; run ``run()``."""

    def __init__(
        self,
        id: int,
        ruleset: str,
        seats: int,
        options: dict[str, Any],
        *,
        config: ServerConfig,
        store: Store,
        creator: str | None = None,
        settings: dict[str, Any] | None = None,
    ) -> None:
        self.id = id
        self.ruleset = ruleset
        self.family = engine.ruleset(ruleset).family
        self.options = dict(options)
        self.settings = dict(settings or {})
        self.creator = creator
        self.creator_address: str | None = None  #: where it was created from (not stored)
        self.master = creator
        self.seats = [Seat() for _ in range(seats)]
        self.spectators: set[Member] = set()
        self.game: Game | None = None
        self.game_no = 0
        self.seq = 0  #: the table's event sequence number, across games
        self.game_base = 0  #: the seq of the current game's start
        self.state = WAITING
        #: how the current (last) game ended: ``FINISHED``, ``ABANDONED``, or None (it runs)
        self.outcome: str | None = None
        self.ring: deque[tuple[int, Event]] = deque(maxlen=config.event_ring)
        #: Every event of the current game as spectators are shown it, in order: the public
        #: log (``server.core.records``) is sliced from here a page at a time, never rebuilt
        #: by a replay; presented once, as each event happens, so a page costs no work.
        self.game_events: list[dict[str, Any]] = []
        self._final: dict[str, Any] | None = None  #: the finished game's record, made once
        self._config = config
        self._store = store
        self._send, self._inbox = trio.open_memory_channel[Command](config.table_inbox)
        self._rng = random.Random()
        self._changed_at = 0.0
        self._actions = 0
        #: Called (without waiting) when a game starts: the lobby opens a new house table.
        self.on_start: Callable[[Table], None] | None = None
        self.gm = gamemaster.GameMaster(self)  #: clock, away seats, bots, prize
        #: Who has been shown which seat's hand this game: one hand to a person.
        self.witnesses = Witnesses(by_address=config.one_hand_per_address)
        #: The server is shutting down: no bot or clock moves and no act is taken, so the
        #: game stays where it was when the players were told (they resume it there).
        self.frozen = False
        #: Since when nobody is at the table / no player plays its game (``tables.lifetime``).
        self.empty_since: float | None = None
        self.unattended_since: float | None = None
        self.closed = trio.Event()  #: set once the close is stored (an operator waits on it)
        #: (came|went, folded name) -> when it was last announced (``_watcher``)
        self._watch_told: dict[tuple[str, str], float] = {}
        #: The store refused this table's last write (disk full, I/O error ...): nothing
        #: changed, bots and clocks wait until ``_retry_at``, and the next write that
        #: succeeds (a player's request, or that retry) carries on. Other tables are not
        #: touched by it.
        self.store_failing = False
        self._retry_at = math.inf
        #: Where its search bots think (``server.tables.thinking``): the lobby gives the server's.
        self.thinker = thinking.IN_THREADS
        self._thought: trio.CancelScope | None = None  #: a search bot's thought under way
        #: a bot's move the store refused, as (game, actions taken, seat, action): its retry
        #: plays it again instead of thinking again (the game is as it was when chosen)
        self._unstored_move: tuple[int, int, int, Any] | None = None
        #: Restored from a snapshot: the events before it, made when first asked for.
        self.unreplayed: snapshots.Unreplayed | None = None
        #: Why ``restore`` replayed the whole game (None: from a snapshot, or nothing to restore).
        self.replayed_because: str | None = None

    # -------------------------------------------------------- restoring
    @classmethod
    def restore(cls, stored: StoredTable, *, config: ServerConfig, store: Store) -> Table:
        """Rebuild a table from the store: seats, master, and the game replayed action by action
        (which also refills the event ring with the very events, and numbers, first sent).

        What the game master set up comes back too: the bots he reserved (set before
        the replay, so each seat's strategy is made first and is shown every replayed
        event its seat was shown, as in the live game), then the pause and the away
        seats of an unfinished game. ``run`` then gives the turn its clock.

        A stored end is respected, whatever the replay says: a game the master ended,
        or abandoned when everyone left, is over (abandoned) after a restart too."""
        t = cls(
            stored.id,
            stored.ruleset,
            stored.seats,
            stored.options,
            config=config,
            store=store,
            creator=stored.creator,
            settings=stored.settings,
        )
        t.master = stored.master
        for seat, name, th in zip(t.seats, stored.seat_names, stored.token_hashes, strict=True):
            seat.name, seat.token_hash = name, th
        t.gm.reserve(stored.bots)
        g = stored.game
        if g is not None:
            t.game_no = g.number
            t.seq = t.game_base = g.seq
            t._start_rng(g.seed)
            if not g.over:  # the bots that will play on watch the replay
                t.gm.new_strategies()
            record = snapshots.record_of(stored.ruleset, stored.seats, stored.options, g)
            restored = snapshots.restore(record, g, config.snapshot_every)
            if isinstance(restored, snapshots.Restored):  # the newest snapshot, what follows
                t.game, t.unreplayed = restored.game, restored.unreplayed
                t.seq = restored.unreplayed.seq  # the later events numbered as they were
                for events in restored.after:
                    t._record_events(events)
            else:  # none, or not usable: the whole record
                t.replayed_because = restored
                t.game = engine.replay(record, t._record_events)
            if g.over or t.game.over:
                t.state = OVER
                # rows ended before the outcome was kept: the replay tells which it was
                t.outcome = g.outcome or (FINISHED if t.game.over else ABANDONED)
            else:
                t.state = PLAYING
            t.state = t.gm.restore(g.paused, g.away)
            for i, name in enumerate(stored.seat_names):
                if name is not None:  # each holder was shown his seat's hand
                    t.witnesses.remember_name(name, i)
            for name, seat in g.shown.items():  # and so was each who held a seat and left
                t.witnesses.remember_name(name, seat)
        return t

    def _fill_unreplayed(self, since: int | None = None) -> None:
        """Make what a restore from a snapshot skipped (``server.store.snapshots``), by one replay
        of the record: the events before it (the public log's start, and the event ring's
        as far as it reaches) and, while the game runs, server bots that have seen every
        event (fresh strategies shown the whole game, as a full replay would have). Called
        before the public log is read, before a bot or a clock moves, and when a client
        resumes from ``since`` (only if the ring could then reach back to it: a client
        further behind gets a snapshot anyway). Once done, or after a full replay: nothing.

        The record's actions before the snapshot may be read from the store now (a SQLite
        store reads them on first need): if it cannot, ``StoreError``, nothing changed, and
        the table waits as after a refused write (its bots and clock retry later)."""
        missing = self.unreplayed
        if missing is None or self.game is None:
            return
        reach = self.ring.maxlen or 0
        if since is not None and not (
            self.game_base <= since < missing.seq and self.seq - since <= reach
        ):
            return
        try:
            record = self.game.record()
        except StoreError as exc:
            self._store_failed(exc)
            raise
        self.unreplayed = None
        running = self.gm.running()
        if running:
            self.gm.new_strategies()
        show = self.gm.observe if running else None
        before = snapshots.events_before(record, missing, show)
        if self.game_base + len(before) != missing.seq:  # pragma: no cover - a damaged store
            log.error("table %s: the replay does not number its events as stored", self.id)
            return
        self.game_events[:0] = [ev.present(None) for ev in before]
        room = reach - len(self.ring)
        if room > 0:
            numbered = [(self.game_base + 1 + i, ev) for i, ev in enumerate(before)]
            self.ring.extendleft(reversed(numbered[-room:]))

    # ------------------------------------------------------------ queries
    @property
    def config(self) -> ServerConfig:
        return self._config

    def players(self) -> list[str | None]:
        """Each seat's occupant: a name, ``bot:STRATEGY`` while a server bot plays it, or None."""
        bot = self.gm.running()
        return [
            s.name
            if s.name is not None
            else (self.gm.bot_name(i) if bot or self.gm.reserved(i) else None)
            for i, s in enumerate(self.seats)
        ]

    def summary(self) -> dict[str, Any]:
        """The table as the lobby lists it."""
        return {
            "table": wire.table_word(self.id),
            "ruleset": self.ruleset,
            "family": self.family,
            "seats": len(self.seats),
            "players": self.players(),
            "taken": sum(s.name is not None for s in self.seats),
            "spectators": len(self.spectators),
            "state": self.state,
            "game": self.game_no,
            "master": self.master,
            "options": self.options,
            "start_when_full": bool(self.settings.get("start_when_full")),
            **self.gm.summary_extra(),
        }

    def statistics(self) -> TableStatistics:
        members = len(self.spectators) + sum(s.member is not None for s in self.seats)
        return TableStatistics(self._inbox.statistics().current_buffer_used, self._actions, members)

    # ----------------------------------------------------------- the inbox
    async def submit(self, command: Command) -> None:
        """Queue a command; waits while the inbox is full (back-pressure on that client only)."""
        self._interrupt(command)
        try:
            await self._send.send(command)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            _refuse_closed(command, self.id)

    def submit_nowait(self, command: Command) -> bool:
        """Queue a command if there is room; False if the table is busy or gone."""
        try:
            self._send.send_nowait(command)
        except (trio.WouldBlock, trio.BrokenResourceError, trio.ClosedResourceError):
            return False
        self._interrupt(command)
        return True

    def _interrupt(self, command: object) -> None:
        """A close, or the game master's command, cancels a search bot's thought under
        way rather than wait behind it: the game may be over, paused or the seat another
        bot's by the time it ends. The bot thinks again if its turn is still there."""
        if self._thought is not None and (
            isinstance(command, Close)
            or (isinstance(command, MasterCommand) and self.gm.is_master(command.member))
        ):
            self._thought.cancel()

    # ------------------------------------------------------------ the loop
    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """The table's task: take commands one at a time; act for bots when their time comes."""
        self._changed_at = trio.current_time()
        task_status.started()
        with contextlib.suppress(StoreError):  # a prize owed stays held; the next start pays
            await self.gm.on_run()  # a restored game's clock; a prize still owed
        lifetime.update(self)  # a restored table: nobody is connected yet
        try:
            while self.state != CLOSED:
                command = await receive_before(self._inbox, self._deadline())
                try:
                    if command is TIMED_OUT:
                        if not self.frozen:
                            await self._on_deadline()
                    else:
                        await self._handle(command)
                except StoreError:  # refused and unchanged (``commit`` noted it)
                    self._refuse_unstored(command)
                # Not kept while waiting for the next: a member's last command (its Detach)
                # would keep the closed connection alive until this table heard again.
                del command
                lifetime.update(self)
        finally:
            self._refuse_the_rest()

    def _refuse_the_rest(self) -> None:
        """The table is closed (or failed): every request still queued, and every one
        sent from now on, gets its one reply, ``no_table``, instead of silence.

        Closing the send side first makes a sender blocked on a full inbox (and any
        later ``submit``) fail at once, and answer for itself; what was already
        queued is answered here."""
        self._send.close()
        while True:
            try:
                command = self._inbox.receive_nowait()
            except (trio.WouldBlock, trio.EndOfChannel, trio.ClosedResourceError):
                break
            _refuse_closed(command, self.id)
        self._inbox.close()

    def freeze(self) -> None:
        """Stop the game where it is, for a shutdown (see ``frozen``)."""
        self.frozen = True  # a deadline already being waited for finds it so
        if self._thought is not None:
            self._thought.cancel()  # a bot's thought under way makes no move

    async def commit(self, *writes: Any) -> None:
        """Make ``writes`` durable before what they record is acknowledged; shielded,
        so a cancellation (a shutdown) cannot leave a change done but not stored.

        ``StoreError`` if the store refused them: the caller changes nothing, and the
        table waits (``store_failing``) until a write of its own succeeds again."""
        try:
            with trio.CancelScope(shield=True):
                await self._store.commit(*writes)
        except StoreError as exc:
            self._store_failed(exc)
            raise
        if self.store_failing:
            self.store_failing, self._retry_at = False, math.inf
            log_event(log, "table.store_ok", table=self.id)

    def _store_failed(self, exc: StoreError) -> None:
        """The store refused a write (or a read the table needed): wait before retrying."""
        self._retry_at = trio.current_time() + self._config.store_retry_seconds
        if not self.store_failing:
            self.store_failing = True
            log_event(log, "table.store_failed", logging.WARNING, table=self.id, error=str(exc))

    def _refuse_unstored(self, command: object) -> None:
        """Tell whoever asked that nothing was done: the store could not keep it."""
        member = getattr(command, "member", None)
        if member is not None and not isinstance(command, Detach):
            member.deliver(
                wire.error(
                    getattr(command, "req", None),
                    "store_failed",
                    "the server could not store that: nothing changed; try again later",
                    self.id,
                )
            )

    def _deadline(self) -> float:
        """When the table must do something unasked: a bot's move, the turn clock of a
        player to act, or its own end (``server.tables.lifetime``). While the store refuses the
        table's writes, not before the next retry."""
        if self.frozen:
            return math.inf
        ends = lifetime.deadline(self)
        if self._bot_seat() is not None:
            due = self._changed_at + self._config.bot_delay_seconds
        else:
            due = self.gm.deadline()  # the turn clock of a player to act
        due = min(ends, due)
        return max(due, self._retry_at) if self.store_failing else due

    async def _on_deadline(self) -> None:
        if await lifetime.on_deadline(self):
            return
        self._fill_unreplayed()  # a restored game's bots are shown what they missed
        seat = self._bot_seat()
        if seat is not None:
            await self._bot_move(seat)
        elif (seat := await self.gm.timed_out()) is not None:  # a player ran out of time
            await self._bot_move(seat, timed_out=True)

    def _bot_seat(self) -> int | None:
        """The seat a server bot must move for now, if any: a free seat whose turn it is."""
        if self.state != PLAYING or self.game is None:
            return None
        seat = self.game.to_act
        if seat is None or (self.seats[seat].name is not None and not self.gm.is_away(seat)):
            return None
        return seat

    async def _handle(self, command: Command) -> None:
        decision = await self.gm.decide(command)  # the game master's commands
        if decision is not None:
            await self._carry_out(decision)
            return
        match command:
            case Act() if self.frozen:
                command.member.deliver(
                    wire.error(command.req, "shutdown", "the server is shutting down", self.id)
                )
            case Act():
                await self._act(command)
            case Join():
                await self._join(command)
            case Watch():
                self._watch(command)
            case Look():
                self._look(command)
            case Resume():
                self._resume(command)
            case Leave():
                await self._leave(command)
            case Detach():
                self._dropped(command.member)
            case Talk():
                await self._talk(command)
            case Start():
                await self._start_command(command)
            case Export():
                self._export(command)
            case Close():
                await self._close(command.reason)

    async def _carry_out(self, d: gamemaster.Decision) -> None:
        """Do what the game master decided (``gamemaster.Decision``), in its order."""
        if d.writes:
            await self.commit(*d.writes)
        match d.change:
            case gamemaster.NewState(state):
                self.state = state
                if state == PLAYING:  # resumed: a bot to act waits its delay from now
                    self._changed_at = trio.current_time()
            case gamemaster.FreeSeat(seat):
                member = self.seats[seat].member
                if member is not None:
                    member.deliver(
                        wire.notice(
                            f"the game master unseated you from table {self.id}", table=self.id
                        )
                    )
                    self.spectators.add(member)  # he may keep watching
                self.seats[seat] = Seat()
                self._changed_at = trio.current_time()
            case gamemaster.NewOptions(options, settings):
                self.options, self.settings = options, settings
            case gamemaster.NewMaster(name):
                self.master = name
            case gamemaster.AbandonGame():
                await self._abandon_running()
            case gamemaster.CloseForGood(reason):
                await self._close(reason)
        if d.then is not None:
            d.then()
        d.member.deliver(d.reply)
        for text in d.notices:
            msg = wire.notice(text, table=self.id)
            for m in self.members():
                m.deliver(msg)
        if d.snapshots:
            self._send_snapshots()

    # --------------------------------------------------------- messaging
    def members(self) -> list[Member]:
        """Everyone at the table: seated connections, then spectators."""
        out = [s.member for s in self.seats if s.member is not None]
        out.extend(self.spectators)
        return out

    def _seat_of(self, member: Member) -> int | None:
        for i, s in enumerate(self.seats):
            if s.member is member:
                return i
        return None

    def _legal(self, seat: int | None) -> list[str]:
        if seat is None or self.game is None or self.state != PLAYING:
            return []
        return [str(a) for a in self.game.legal_actions(seat)]

    def _snapshot(
        self, seat: int | None, req: int | None = None, *, legal: bool = True
    ) -> wire.Message:
        view = None if self.game is None else self.game.view(seat)
        return wire.snapshot(
            self.id,
            self.seq,
            seat,
            self.state,
            view,
            self._legal(seat) if legal else [],
            self.players(),
            self.master,
            req,
            self.gm.clock_left(),
        )

    def _turn(self, seat: int | None, clock: float | None) -> wire.Message:
        """Whose turn it is, ``seat``'s legal actions and its fresh view (``None``: a
        spectator's turn, the public view), so nobody needs to ask for a snapshot.
        ``clock``: the seconds left (``gm.clock_left()``, read once for a batch's turns)."""
        game = self.game
        to_act = None if game is None else game.to_act
        view = None if game is None else game.view(seat)
        return wire.turn(self.id, self.seq, seat, to_act, self._legal(seat), clock, view)

    def _catch_up(
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
        if since is not None:
            try:
                self._fill_unreplayed(since)  # a restored game's events before its snapshot
            except StoreError:  # not readable now: a snapshot serves as well
                since = None
        held = self.ring[0][0] if self.ring else self.seq + 1
        if since is not None and self.game_base <= since <= self.seq and held <= since + 1:
            # a spectate's reply, before the events it brings (a resume's is seated); all in
            # one delivery, so one write
            batch = [wire.ok(req, self.id)] if answer else []
            batch.extend(
                wire.event(self.id, n, ev.present(seat)) for n, ev in self.ring if n > since
            )
            batch.append(self._turn(seat, self.gm.clock_left()))
            member.deliver_many(batch)
        else:
            member.deliver(self._snapshot(seat, req))

    def _send_snapshots(self) -> None:
        """Everyone gets a fresh snapshot: after the seats changed, a start, an end."""
        for member, snapshot in self._snapshots().items():
            member.deliver(snapshot)

    def _snapshots(self, *, legal: bool = True) -> dict[Member, wire.Message]:
        """Each member's fresh snapshot, seats first; the spectators share one.

        ``legal=False`` (a start whose opening events and turn follow, in the same
        delivery) leaves the legal actions to that turn, so that a client acts once,
        on the turn."""
        out = {s.member: self._snapshot(i, legal=legal) for i, s in enumerate(self.seats)
               if s.member is not None}  # fmt: skip
        if self.spectators:
            public = self._snapshot(None)
            out.update(dict.fromkeys(self.spectators, public))
        return out

    def _record_events(self, events: list[Event]) -> list[tuple[int, Event, dict[str, Any]]]:
        """Number the events, keep them (the ring, and the public log as spectators see
        it); each with its number and that public presentation."""
        numbered = []
        for ev in events:
            self.seq += 1
            numbered.append((self.seq, ev, ev.present(None)))
        self.ring.extend((n, ev) for n, ev, _public in numbered)
        self.game_events.extend(public for _n, _ev, public in numbered)
        self.gm.observe(events)
        return numbered

    def _send_events(
        self,
        numbered: list[tuple[int, Event, dict[str, Any]]],
        ack: tuple[Member, wire.Message] | None = None,
        heads: dict[Member, wire.Message] | None = None,
        prelude: wire.Message | None = None,
    ) -> None:
        """Each seat its own view of each event, then its turn (with its view);
        spectators the public view of each, then a spectator's turn: one delivery
        (one write) per connection. ``ack``: a member and the reply to its request
        (the action's ``ok``), which heads its delivery, the first one made. ``heads``:
        a message to head each member's delivery (a start's snapshots). ``prelude``: one
        message that heads every delivery (the clock's notice of a move it made).

        Each message is made once per distinct view: an event's public presentation
        (the one the public log keeps) is one message, shared by the spectators and
        by every seat it shows nothing private to (so a connection encodes it once
        for all, ``server.transport.connection.SharedEncodings``); a seat shown more gets its
        own; each seat's turn, and the spectators' one, once per batch."""
        tid = self.id
        public = [wire.event(tid, n, shown) for n, _ev, shown in numbered]
        clock = self.gm.clock_left()  # one reading for every turn of the batch

        def seat_batch(i: int) -> list[wire.Message]:
            batch = [
                wire.event(tid, n, ev.present(i)) if i in ev.private else msg
                for (n, ev, _shown), msg in zip(numbered, public, strict=True)
            ]
            batch.append(self._turn(i, clock))
            return batch

        leads: dict[Member, list[wire.Message]] | None = None  # what heads each delivery
        if heads is not None:
            leads = {m: [h] for m, h in heads.items()}
        if prelude is not None:  # rare (a move the clock made): every delivery starts with it
            leads = {m: [*(leads or {}).get(m, ()), prelude] for m in self.members()}
        first = None
        if ack is not None:
            member, reply = ack
            first = self._seat_of(member)
            if first is None:
                member.deliver(reply)
            else:
                member.deliver_many([reply, *seat_batch(first)])
        for i, s in enumerate(self.seats):
            if s.member is not None and i != first:
                batch = seat_batch(i)
                s.member.deliver_many(batch if leads is None else [*leads[s.member], *batch])
        if self.spectators:
            public.append(self._turn(None, clock))
            for m in list(self.spectators):
                m.deliver_many(public if leads is None else [*leads[m], *public])

    # ------------------------------------------------------------- actions
    async def _act(self, c: Act) -> None:
        seat = self._seat_for_token(c.token)
        if seat is None:
            c.member.deliver(wire.error(c.req, "bad_token", NO_TOKEN, self.id))
            return
        if self.seats[seat].member is not c.member:  # one seat, one connection
            why = f"seat {seat} was resumed elsewhere; resume it here with its token to act"
            c.member.deliver(wire.error(c.req, "bad_token", why, self.id))
            return
        await self.gm.player_acted(seat)  # back from away, even if refused
        if self.state != PLAYING or self.game is None:
            c.member.deliver(wire.error(c.req, "bad_state", f"the table is {self.state}", self.id))
            return
        try:
            events = self.game.apply(seat, c.action)
        except engine.InvalidActionError as exc:
            c.member.deliver(wire.error(c.req, "bad_action", str(exc), self.id))
            return
        except engine.IllegalActionError as exc:
            c.member.deliver(wire.error(c.req, "illegal_action", exc.reason, self.id))
            return
        await self._accepted(seat, events, c)

    async def _bot_move(self, seat: int, *, timed_out: bool = False) -> None:
        """A server bot's move. A ``slow`` strategy (a search: most of a second a
        move) thinks away from the event loop (``server.tables.thinking``: a worker process),
        so that the server goes on serving every other table meanwhile; this table
        waits for it (its commands queue), so the game cannot change under the
        strategy. A close or a game master's command cancels the thought
        (``_interrupt``), as a shutdown's freeze does: no move is made, and the table
        takes its commands. A thought that fails (its worker died) plays the family's
        fast heuristic instead. A fast strategy (milliseconds) chooses at once, which
        costs less than a worker. ``timed_out``: the clock moves for a player who ran out
        of time, and says so ahead of the move's events. A move the store refused is
        played again when the table retries, not chosen again: while the disk is full, a
        retry costs no thought."""
        assert self.game is not None
        key = (self.game_no, self.game.actions_taken, seat)
        refused, self._unstored_move = self._unstored_move, None
        legal = self.game.legal_actions(seat)
        try:
            if refused is not None and refused[:3] == key and refused[3] in legal:
                action = refused[3]
            elif getattr(strategy := self.gm.strategy_for(seat), "slow", False):
                view = self.game.view(seat)
                scope = self._thought = trio.CancelScope()
                try:
                    with scope:
                        action = await self.thinker.choose(
                            self.family, strategy, view, legal, self._rng
                        )
                finally:
                    self._thought = None
                if scope.cancelled_caught or self.frozen:
                    return  # closed, moved on or shutting down while it thought
            else:
                action = strategy.choose(self.game.view(seat), legal, self._rng)
            events = self.game.apply(seat, action)
        except Exception:
            log.exception("table %s: the bot's choice failed; playing the first legal", self.id)
            action = legal[0]
            events = self.game.apply(seat, action)
        try:
            await self._accepted(seat, events, None, clock=timed_out)
        except StoreError:  # taken back: the retry plays it again
            self._unstored_move = (*key, action)
            raise

    async def _accepted(
        self, seat: int, events: list[Event], c: Act | None, *, clock: bool = False
    ) -> None:
        """An action the game took: store it, acknowledge it, then tell everyone (``clock``:
        the turn clock made it, which everyone is told first)."""
        assert self.game is not None
        last = self.game.last_action
        assert last is not None  # the game has just taken an action
        notation = last[1]  # the normalised notation the record holds
        writes: list[Any] = [
            ActionTaken(self.id, self.game_no, self.game.actions_taken - 1, seat, notation),
            *snapshots.due(  # with the action it follows: one transaction
                self._config.snapshot_every,
                self.id,
                self.game_no,
                self.game,
                self.seq + len(events),
            ),
        ]
        paid = None
        try:
            if self.game.over:  # the end and its payout: one transaction
                writes.append(GameEnded(self.id, self.game_no, list(self.game.scores), FINISHED))
                paid = await self.gm.commit_end(writes, FINISHED)
            else:
                await self.commit(*writes)  # an applied action is always made durable
        except StoreError:
            self._take_back()  # not stored, so not taken
            raise
        self._actions += 1
        self.gm.after_action(seat)  # the countdown follows the turn
        numbered = self._record_events(events)
        first = self.gm.clock_notice(seat, notation) if clock else None
        # the ok heads the actor's own events and turn: one write carries all three
        ack = None if c is None else (c.member, wire.ok(c.req, self.id))
        self._send_events(numbered, ack, prelude=first)
        if self.game.over:
            self.state, self.outcome = OVER, FINISHED
            self.gm.announce(paid)
            self._send_snapshots()
        self._changed_at = trio.current_time()

    def _take_back(self) -> None:
        """The game as stored: its last action, which the store refused, undone (the game
        is rebuilt from its record without it; nobody was told of it).

        A restored game's actions before its snapshot may have to be read for it: if the
        store cannot read them either, the game in memory is ahead of the store and is
        not to be trusted, so the table fails (the lobby takes it out; a restart brings
        it back as stored), instead of playing on from an action nobody stored."""
        assert self.game is not None
        try:
            record = self.game.record()
        except StoreError as exc:
            raise RuntimeError(f"table {self.id}: the refused action cannot be taken back") from exc
        record["actions"] = record["actions"][:-1]
        self.game = engine.replay(record)

    def _seat_for_token(self, token: str) -> int | None:
        if not isinstance(token, str) or not token:
            return None
        h = token_hash(token)
        for i, s in enumerate(self.seats):
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, h):
                return i
        return None

    # --------------------------------------------------------------- seats
    async def _join(self, c: Join) -> None:
        name = c.member.name
        err = None
        mine = [i for i, s in enumerate(self.seats) if s.name == name]
        free = [i for i, s in enumerate(self.seats) if s.name is None and not self.gm.reserved(i)]
        dealt = self.gm.running()  # one hand to a person from the deal on
        if name is None:
            err = ("need_name", "claim a name before taking a seat")
        elif mine:
            seat = mine[0]  # your name holds a seat here already: take it back, fresh token
        elif c.seat is None:
            if dealt:  # the seat this name was shown, else one it may be shown
                shown = self.witnesses.seat_for(c.member)
                free.sort(key=lambda i: i != shown)
                free = [i for i in free if self.witnesses.refusal(c.member, i, by_token=False)
                        is None] or free  # fmt: skip
            if not free:
                err = ("table_full", "every seat is taken")
            else:
                seat = free[0]
        elif not 0 <= c.seat < len(self.seats):
            err = ("no_seat", f"there is no seat {c.seat}")
        elif self.seats[c.seat].name is not None or self.gm.reserved(c.seat):
            err = ("seat_taken", f"seat {c.seat} is taken")
        else:
            seat = c.seat
        if err is None and dealt:
            why = self.witnesses.refusal(c.member, seat, by_token=False)
            if why is not None:
                err = ("other_hand", f"{why}; you may watch, or play in the next game")
        if err is not None:
            c.member.deliver(wire.error(c.req, *err, table=self.id))
            return
        token = new_token()
        th = token_hash(token)
        # whoever sits down is not away; once dealt, he is shown the seat's hand for good
        shown = [HandShown(self.id, self.game_no, seat, name)] if dealt else []
        writes = [SeatSet(self.id, seat, name, th), *shown, *self.gm.back_writes(seat)]
        await self.commit(*writes)
        self.gm.back(seat)
        old = self.seats[seat].member
        if old is not None and old is not c.member:
            old.deliver(
                wire.notice(f"your seat at table {self.id} was taken up elsewhere", table=self.id)
            )
        self._detach(c.member)
        came_back = bool(mine) and old is None  # his own seat, while he was gone
        self.seats[seat] = Seat(name, th, c.member)
        if dealt:
            self.witnesses.shown(c.member, seat)
        c.member.deliver(wire.seated(c.req, self.id, seat, token))
        if came_back:
            self._presence(seat, "back")
        self._changed_at = trio.current_time()
        if (
            self.settings.get("start_when_full")
            and self.state != PLAYING
            and all(s.name is not None for s in self.seats)
        ):
            await self._start()  # sends everyone a snapshot
        else:
            self._send_snapshots()

    def _watch(self, c: Watch) -> None:
        """``c.member`` watches the table from now on. A seated player who asks to watch
        his own table stays in his seat (he is not made a spectator of his own game,
        whose seat token would stop working): he is told so and shown his seat."""
        seat = self._seat_of(c.member)
        if seat is not None:
            text = f"you sit in seat {seat} here: this is your seat (leave first to watch)"
            c.member.deliver_many([wire.ok(c.req, self.id, text), self._snapshot(seat)])
            return
        came = c.member not in self.spectators
        self._detach(c.member)
        self.spectators.add(c.member)
        self._catch_up(c.member, None, c.since, c.req, answer=True)
        if came:
            self._watcher(c.member, "came")

    def _look(self, c: Look) -> None:
        """The table again, as ``c.member`` may see it: his seat's snapshot, or the
        spectators' (a person at ``nc`` who lost the position in his scrollback)."""
        seat = self._seat_of(c.member)
        if seat is None and c.member not in self.spectators:
            text = f"you are not at table {self.id}: watch {self.id} shows it, join sits you"
            c.member.deliver(wire.error(c.req, "not_member", text, self.id))
            return
        c.member.deliver(self._snapshot(seat, c.req))

    def _watcher(self, member: Member, what: str) -> None:
        """Tell everyone else at the table that ``member`` began (``came``) or stopped
        (``went``) watching. A name is announced coming, or going, at most once in
        ``watch_notice_seconds`` (spectators without a name share one allowance), so
        that watching and leaving in a loop cannot flood a table with notices."""
        name = member.name
        key = (what, "" if name is None else fold_name(name))
        now = trio.current_time()
        last = self._watch_told.get(key)
        if last is not None and now - last < self._config.watch_notice_seconds:
            return
        if len(self._watch_told) >= WATCH_TOLD_MAX:
            self._watch_told.clear()  # bounded: forget them all, the worst is a repeat
        self._watch_told[key] = now
        msg = wire.watcher(self.id, what, name, len(self.spectators))
        for m in self.members():
            if m is not member:
                m.deliver(msg)

    def _resume(self, c: Resume) -> None:
        seat = self._seat_for_token(c.token)
        if seat is None:
            c.member.deliver(wire.error(c.req, "bad_token", NO_TOKEN, self.id))
            return
        if self.gm.running():
            why = self.witnesses.refusal(c.member, seat, by_token=True)
            if why is not None:
                c.member.deliver(wire.error(c.req, "other_hand", why, self.id))
                return
            self.witnesses.shown(c.member, seat)
        old = self.seats[seat].member
        if old is not None and old is not c.member:
            old.deliver(
                wire.notice(f"your seat at table {self.id} was resumed elsewhere", table=self.id)
            )
        self._detach(c.member)
        came_back = old is None
        self.seats[seat].member = c.member
        c.member.deliver(wire.seated(c.req, self.id, seat, c.token))
        self._catch_up(c.member, seat, c.since)
        if came_back:
            self._presence(seat, "back")

    async def _leave(self, c: Leave) -> None:
        seat = self._seat_of(c.member)
        if seat is not None:
            # an empty seat is a bot's, not away
            freed = SeatSet(self.id, seat, None, None)
            await self.commit(freed, *self.gm.back_writes(seat))
            self._presence(seat, "left")  # once stored: a refused leave leaves him seated
            self.gm.back(seat)
            self.seats[seat] = Seat()
            self._changed_at = trio.current_time()
        elif c.member in self.spectators:
            self.spectators.discard(c.member)
            self._watcher(c.member, "went")
        else:
            c.member.deliver(wire.error(c.req, "no_seat", "you are not at this table", self.id))
            return
        c.member.deliver(wire.ok(c.req, self.id))
        if seat is not None and all(s.name is None for s in self.seats):
            if self.creator is None:  # a house table: abandon the game, wait for people
                await self._abandon()
            else:
                await self._close("everyone left")
                return
        self._send_snapshots()

    def _presence(self, seat: int, what: str) -> None:
        """Tell everyone at the table but the seat's own connection that its player
        ``left``, ``dropped`` or is ``back`` (not numbered: not part of the game)."""
        s = self.seats[seat]
        if s.name is None:
            return
        msg = wire.presence(self.id, seat, s.name, what)
        for m in self.members():
            if m is not s.member:
                m.deliver(msg)

    def _dropped(self, member: Member) -> None:
        """A connection closed: its seats stay (their clocks run) and the table is told."""
        gone = [i for i, s in enumerate(self.seats) if s.member is member]
        watched = member in self.spectators
        self._detach(member)
        for seat in gone:
            self._presence(seat, "dropped")
        if watched:
            self._watcher(member, "went")

    def _detach(self, member: Member) -> None:
        for s in self.seats:
            if s.member is member:
                s.member = None
        self.spectators.discard(member)

    # ---------------------------------------------------------------- talk
    async def _talk(self, c: Talk) -> None:
        name = c.member.name
        if name is None:
            c.member.deliver(wire.error(c.req, "need_name", "claim a name to talk", self.id))
            return
        if self._seat_of(c.member) is None and c.member not in self.spectators:
            c.member.deliver(
                wire.error(c.req, "not_allowed", "join or watch the table to talk", self.id)
            )
            return
        # stored before anyone hears it, as every write is: refused (store_failed) if not
        await self.commit(TalkSaid(self.id, name, c.text, now()))
        c.member.deliver(wire.ok(c.req, self.id))
        msg = wire.talk(self.id, name, c.text)
        for m in self.members():
            m.deliver(msg)

    # --------------------------------------------------------- game master
    async def _start_command(self, c: Start) -> None:
        name = c.member.name
        seated = self._seat_of(c.member) is not None
        if not (name is not None and (name == self.master or (self.master is None and seated))):
            c.member.deliver(
                wire.error(c.req, "not_master", "only the game master starts the game", self.id)
            )
            return
        if self.state == PLAYING:
            c.member.deliver(wire.error(c.req, "bad_state", "the game is already running", self.id))
            return
        await self._start(ack=c)

    def _start_rng(self, seed: int) -> None:
        self._rng = random.Random(f"{self.id}:{self.game_no}:{seed}")

    async def _start(self, seed: int | None = None, ack: Start | None = None) -> None:
        """A new game: empty seats are played by server bots (they stay free to join).

        The start takes a sequence number of its own, so a client that saw the
        last event of the previous game is still behind this one's snapshot.
        ``ack``, the request that asked for it, is answered ``ok`` once the start
        is stored, before the snapshots (a start the store refuses gets only
        ``store_failed``)."""
        seed = secrets.randbits(62) if seed is None else seed
        game = engine.new_game(self.ruleset, len(self.seats), seed, self.options)
        number, base = self.game_no + 1, self.seq + 1
        # the deal shows each seat's holder his hand: stored, so a restart still knows it
        shown = [HandShown(self.id, number, i, s.name) for i, s in enumerate(self.seats) if s.name]
        rated = [] if self.gm.profiles is None else [self.gm.profiles.dealt(self, number)]
        await self.commit(GameStarted(self.id, number, seed, None, None, base), *shown, *rated)
        if ack is not None:
            ack.member.deliver(wire.ok(ack.req, self.id))
        self.game, self.game_no, self.seq, self.game_base = game, number, base, base
        self.state, self.outcome = PLAYING, None
        self.ring.clear()
        self.game_events, self._final, self.unreplayed = [], None, None
        self._start_rng(seed)
        self.witnesses.clear()  # the deal shows each seat's holder his hand
        for i, s in enumerate(self.seats):
            if s.name is not None:
                self.witnesses.remember_name(s.name, i)
            if s.member is not None:
                self.witnesses.shown(s.member, i)
        self.gm.on_start()  # a fresh countdown, nobody away
        # The first deal's events are numbered after the start's snapshot and end with
        # each seat's turn, which (not the snapshot) then says what it may do.
        if game.opening_events:  # each member's snapshot heads its opening events: one write
            heads = self._snapshots(legal=False)
            self._send_events(self._record_events(game.opening_events), heads=heads)
        else:
            self._send_snapshots()
        self._changed_at = trio.current_time()
        if self.on_start is not None:
            self.on_start(self)

    async def _abandon(self) -> None:
        """End a running game as abandoned; its prize goes back in the same transaction."""
        if self.state == PLAYING and self.game is not None:
            ended = GameEnded(self.id, self.game_no, list(self.game.scores), ABANDONED)
            returned = await self.gm.commit_end([ended], ABANDONED)
            self.state, self.outcome = OVER, ABANDONED
            self.gm.announce(returned)

    def _export(self, c: Export) -> None:
        """A page of the current (or last) game's record (``server.core.records``): a running
        game's public log to its members, a finished game's full record to anyone."""
        game = self.game
        if game is None:
            c.member.deliver(wire.error(c.req, "no_record", "no game has started here", self.id))
            return
        size = self._config.record_page
        if self.gm.running():
            if not (c.member.operator or self.is_member(c.member)):
                text = "a running game's record is for the table's members (join or watch it)"
                c.member.deliver(wire.error(c.req, "not_member", text, self.id))
                return
            self._fill_unreplayed()  # a restored game's log before its snapshot
            page = records.public_page(
                game, self.options, self.game_events, c.start, size, c.budget
            )
        else:
            if self._final is None:
                self._final = game.record()
            page = records.full_page(self._final, c.start, size, c.budget)
        c.member.deliver(wire.record(c.req, self.id, page, self.game_no))

    def is_member(self, member: Member) -> bool:
        """Whether ``member`` is at this table: in a seat or watching."""
        return member in self.spectators or self._seat_of(member) is not None

    async def _abandon_running(self) -> None:
        """Abandon the running game, playing or paused (``_abandon`` ends a playing one)."""
        before, self.state = self.state, PLAYING
        try:
            await self._abandon()  # stored as abandoned, its prize returned, in one transaction
        finally:
            if self.state == PLAYING:  # the store refused it: as it was
                self.state = before

    async def abandon_game(self, reason: str) -> None:
        """Abandon the running game (its prize goes back) and tell everyone why."""
        if not self.gm.running():
            return
        await self._abandon_running()
        self.gm.clock.stop()
        msg = wire.notice(f"the game at table {self.id} was abandoned: {reason}", table=self.id)
        for m in self.members():
            m.deliver(msg)
        self._send_snapshots()

    async def close(self, reason: str) -> None:
        """Close the table for good (stored; a running game's prize goes back); everyone
        at it is told ``reason``."""
        await self._close(reason)

    async def _close(self, reason: str) -> None:
        """Close the table: an unfinished game ends abandoned, and whatever prize is held
        (for it, or for the next game) goes back, in the closing transaction."""
        writes: list[Any] = []
        if self.game is not None and self.state not in (OVER, WAITING):
            writes.append(GameEnded(self.id, self.game_no, list(self.game.scores), ABANDONED))
        writes.append(TableClosed(self.id))
        returned = await self.gm.commit_end(writes, None)
        self.state = CLOSED
        self.closed.set()
        self.gm.announce(returned)
        msg = wire.notice(f"table {self.id} closed: {reason}", table=self.id)
        for m in self.members():
            m.deliver(msg)
