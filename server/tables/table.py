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
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import trio

import engine
from engine.events import Event
from engine.game import Game
from protocol.fields import TableState
from server.core import wire
from server.core.commands import (
    Act,
    Close,
    Command,
    MasterCommand,
    Member,
    Start,
)
from server.core.config import ServerConfig
from server.store import snapshots
from server.store.base import (
    ABANDONED,
    FINISHED,
    ActionTaken,
    GameEnded,
    GameStarted,
    HandShown,
    Store,
    StoredTable,
    StoreError,
    TableClosed,
)
from server.tables import events as announced
from server.tables import gamemaster, lifetime, thinking
from server.tables.bot_turns import BotTurns
from server.tables.delivery import Delivery, Numbered
from server.tables.inbox import Inbox
from server.tables.member_requests import NO_TOKEN, MemberRequests
from server.tables.restoring import Restoration
from server.tables.seating import Seat, Seating
from server.tables.store_gate import StoreGate

log = logging.getLogger("switchboard.table")

WAITING, PLAYING, OVER, CLOSED = (
    TableState.WAITING,
    TableState.PLAYING,
    TableState.OVER,
    TableState.CLOSED,
)
__all__ = ["CLOSED", "OVER", "PLAYING", "WAITING", "Seat", "Table", "TableStatistics"]


@dataclass(frozen=True, slots=True)
class TableStatistics:
    inbox_queued: int
    actions: int
    members: int


class Table:
    """One table. Build with ``Table(...)`` or ``Table.restore(stored, ...)``; run ``run()``.

    The actor: it owns the game and applies one command at a time. What it keeps is
    split among collaborators it owns, each with its own job: ``seating`` (who is at
    the table), ``out`` (the numbered events and what each member is sent, a
    ``Delivery``), ``gate`` (its way to the store), ``bots`` (a server bot's move),
    ``gm`` (the game master: his commands, the clock, the prize), ``inbox`` (the
    commands queued for it), ``restoration`` (a game rebuilt after a restart) and
    ``requests`` (a member's requests: to sit, watch, resume, leave, talk ...)."""

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
        creator_address: str | None = None,
        thinker: thinking.Thinker = thinking.IN_THREADS,
        on_start: Callable[[Table], None] | None = None,
        events: announced.TableEvents | None = None,
        stakes: gamemaster.Staking | None = None,
    ) -> None:
        self.id = id
        self.ruleset = ruleset
        self.family = engine.ruleset(ruleset).family
        self.options = dict(options)
        self.settings = dict(settings or {})
        self.creator = creator
        self.creator_address = creator_address  #: where it was created from (not stored)
        self.master = creator
        self.game: Game | None = None
        self.game_no = 0
        self.state = WAITING
        #: how the current (last) game ended: ``FINISHED``, ``ABANDONED``, or None (it runs)
        self.outcome: str | None = None
        self._final: dict[str, Any] | None = None  #: the finished game's record, made once
        self._config = config
        self.inbox = Inbox(id, config.table_inbox, self._interrupt)
        self._rng = random.Random()
        self._changed_at = 0.0
        self._actions = 0
        self._counter: Any = None  #: the server's ``ops.ActionCounter`` (actions/s in stats)
        #: Called (without waiting) when a game starts: the lobby opens a new house table.
        self._on_start = on_start
        self.seating = Seating(id, seats, by_address=config.one_hand_per_address,
                               watch_notice_seconds=config.watch_notice_seconds)  # fmt: skip
        #: Who hears what happens here (``server.tables.events``): the prize, the ratings ...
        self.events = events if events is not None else announced.TableEvents()
        self.gm = gamemaster.GameMaster(self, stakes)  #: his commands, clock, away seats
        self.out = Delivery(id, config.event_ring, self.seating, self, self.gm.observe)
        self.gate = StoreGate(id, store, config.store_retry_seconds)
        self.bots = BotTurns(id, self.family, thinker)
        self.restoration = Restoration(id, self.out, self.gm, self.gate)
        self.requests = MemberRequests(self)
        #: The server is shutting down: no bot or clock moves and no act is taken, so the
        #: game stays where it was when the players were told (they resume it there).
        self.frozen = False
        self.closed = trio.Event()  #: set once the close is stored (an operator waits on it)

    # -------------------------------------------------------- restoring
    @classmethod
    def restore(
        cls, stored: StoredTable, *, config: ServerConfig, store: Store, **wiring: Any
    ) -> Table:
        """Rebuild a table from the store: seats, master, and the game replayed action by action
        (which also refills the event ring with the very events, and numbers, first sent).
        ``wiring``: what ``Table`` takes beside the stored (its thinker, ``on_start``).

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
            **wiring,
        )
        t._restore(stored, config.snapshot_every)
        return t

    def _restore(self, stored: StoredTable, snapshot_every: int) -> None:
        self.master = stored.master
        for i, (name, th) in enumerate(zip(stored.seat_names, stored.token_hashes, strict=True)):
            self.seating.hold(i, name, th)
        self.gm.reserve(stored.bots)
        g = stored.game
        if g is None:
            return
        self.game_no = g.number
        self._start_rng(g.seed)
        self.game = game = self.restoration.replay(stored, snapshot_every)
        if g.over or game.over:
            self.state = OVER
            # rows ended before the outcome was kept: the replay tells which it was
            self.outcome = g.outcome or (FINISHED if game.over else ABANDONED)
        else:
            self.state = PLAYING
        self.state = self.gm.restore(g.paused, g.away)
        self.seating.remember_shown(g.shown)

    def fill_unreplayed(self, since: int | None = None) -> None:
        """Make what a restore from a snapshot skipped (``Restoration.fill``)."""
        self.restoration.fill(self.game, since)

    def final_record(self) -> dict[str, Any]:
        """The finished game's record, made once."""
        assert self.game is not None
        if self._final is None:
            self._final = self.game.record()
        return self._final

    # ------------------------------------------------------------ queries
    @property
    def config(self) -> ServerConfig:
        return self._config

    @property
    def seats(self) -> list[Seat]:
        return self.seating.seats

    @property
    def spectators(self) -> set[Member]:
        return self.seating.spectators

    @property
    def seq(self) -> int:
        return self.out.seq

    @property
    def empty_since(self) -> float | None:
        return lifetime.empty_since(self)

    @property
    def store_failing(self) -> bool:
        return self.gate.failing

    @property
    def replayed_because(self) -> str | None:
        return self.restoration.replayed_because

    def clock_left(self) -> float | None:
        """Seconds left to the seat to act (None: no clock)."""
        return self.gm.clock_left()

    def players(self) -> list[str | None]:
        """Each seat's occupant: a name, ``bot:STRATEGY`` while a server bot plays it, or None."""
        return self.gm.occupants()

    def statistics(self) -> TableStatistics:
        members = len(self.seating.members())
        return TableStatistics(self.inbox.queued(), self._actions, members)

    def members(self) -> list[Member]:
        """Everyone at the table: seated connections, then spectators."""
        return self.seating.members()

    def notice_all(self, text: str) -> None:
        """Tell everyone at the table ``text``."""
        self.seating.notice_all(text)

    def attach(
        self,
        *,
        events: announced.TableEvents | None = None,
        stakes: gamemaster.Staking | None = None,
        counter: Any = None,
    ) -> None:
        """What the server gives a table as its task starts: who hears its events, the
        prizes its game master may put up, the counter of every table's actions."""
        if events is not None:
            self.events = events
        if stakes is not None:
            self.gm.stakes = stakes
        if counter is not None:
            self._counter = counter

    # ----------------------------------------------------------- the inbox
    async def submit(self, command: Command) -> None:
        """Queue a command; waits while the inbox is full (back-pressure on that client only)."""
        await self.inbox.submit(command)

    def submit_nowait(self, command: Command) -> bool:
        """Queue a command if there is room; False if the table is busy or gone."""
        return self.inbox.submit_nowait(command)

    def _interrupt(self, command: object) -> None:
        """A close, or the game master's command, cancels a search bot's thought under
        way rather than wait behind it: the game may be over, paused or the seat another
        bot's by the time it ends. The bot thinks again if its turn is still there."""
        if self.bots.thinking() and (
            isinstance(command, Close)
            or (isinstance(command, MasterCommand) and self.gm.is_master(command.member))
        ):
            self.bots.cancel()

    # ------------------------------------------------------------ the loop
    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """The table's task: take commands one at a time; act for bots when their time comes."""
        self._changed_at = trio.current_time()
        task_status.started()
        with contextlib.suppress(StoreError):  # a prize owed stays held; the next start pays
            await self.gm.on_run()  # a restored game's clock
            if self.gm.stakes is not None:  # a prize still owed
                self.notices(await self.gm.stakes.settle_owed(self))
        lifetime.update(self)  # a restored table: nobody is connected yet
        try:
            while self.state != CLOSED:
                command = await self.inbox.next(self._deadline())
                try:
                    if command is None:  # its deadline came first
                        if not self.frozen:
                            await self._on_deadline()
                    else:
                        await self._handle(command)
                except StoreError:  # refused and unchanged (``commit`` noted it)
                    self.gate.refuse(command)
                # Not kept while waiting for the next: a member's last command (its Detach)
                # would keep the closed connection alive until this table heard again.
                del command
                lifetime.update(self)
        finally:
            self.inbox.refuse_the_rest()

    def freeze(self) -> None:
        """Stop the game where it is, for a shutdown (see ``frozen``)."""
        self.frozen = True  # a deadline already being waited for finds it so
        self.bots.cancel()  # a bot's thought under way makes no move

    async def commit(self, *writes: Any) -> None:
        """Make ``writes`` durable before what they record is acknowledged
        (``StoreGate.commit``: ``StoreError`` if refused, and nothing changed)."""
        await self.gate.commit(*writes)

    def touched(self) -> None:
        """The seats or the game changed: a bot to act waits its delay from now."""
        self._changed_at = trio.current_time()

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
        gate = self.gate
        return max(due, gate.retry_at) if gate.failing else due

    async def _on_deadline(self) -> None:
        if await lifetime.on_deadline(self):
            return
        self.fill_unreplayed()  # a restored game's bots are shown what they missed
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
        if seat is None or (
            self.seating.seats[seat].name is not None and not self.gm.is_away(seat)
        ):
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
            case Close():
                await self.close(command.reason)
            case _:
                await self.requests.handle(command)

    async def _carry_out(self, d: gamemaster.Decision) -> None:
        """Do what the game master decided (``gamemaster.Decision``), in its order."""
        if d.writes:
            await self.commit(*d.writes)
        match d.change:
            case gamemaster.NewState(state):
                self.state = state
                if state == PLAYING:  # resumed: a bot to act waits its delay from now
                    self.touched()
            case gamemaster.FreeSeat(seat):
                was = self.seating.seats[seat].name
                self.seating.unseat(seat)  # told so, he may keep watching
                self.touched()
                self.events.announce(announced.SeatChanged(self.id, seat, None, was))
            case gamemaster.NewOptions(options, settings):
                self.options, self.settings = options, settings
            case gamemaster.NewMaster(name):
                self.master = name
            case gamemaster.AbandonGame():
                await self._abandon_running()
            case gamemaster.CloseForGood(reason):
                await self.close(reason)
        if d.then is not None:
            d.then()
        d.member.deliver(d.reply)
        for text in d.notices:
            self.seating.notice_all(text)
        if d.snapshots:
            self.out.send_snapshots()

    # ------------------------------------------------------------- actions
    async def _act(self, c: Act) -> None:
        seating = self.seating
        seat = seating.seat_for_token(c.token)
        if seat is None:
            c.member.deliver(wire.error(c.req, "bad_token", NO_TOKEN, self.id))
            return
        if seating.seats[seat].member is not c.member:  # one seat, one connection
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
        """A server bot's move (``server.tables.bot_turns``). ``timed_out``: the clock
        moves for a player who ran out of time, and says so ahead of the move's events."""
        game = self.game
        assert game is not None
        key = (self.game_no, game.actions_taken, seat)
        played = await self.bots.play(
            game, key, lambda: self.gm.strategy_for(seat), self._rng, lambda: self.frozen
        )
        if played is None:
            return  # closed, moved on or shutting down while it thought
        action, events = played
        try:
            await self._accepted(seat, events, None, clock=timed_out)
        except StoreError:  # taken back: the retry plays it again
            self.bots.unstored(key, action)
            raise

    async def _accepted(
        self, seat: int, events: list[Event], c: Act | None, *, clock: bool = False
    ) -> None:
        """An action the game took: store it, acknowledge it, then tell everyone (``clock``:
        the turn clock made it, which everyone is told first)."""
        game = self.game
        assert game is not None
        last = game.last_action
        assert last is not None  # the game has just taken an action
        notation = last[1]  # the normalised notation the record holds
        out = self.out
        writes: list[Any] = [
            ActionTaken(self.id, self.game_no, game.actions_taken - 1, seat, notation),
            *snapshots.due(  # with the action it follows: one transaction
                self._config.snapshot_every, self.id, self.game_no, game, out.seq + len(events)
            ),
        ]
        txn = None
        try:
            if game.over:  # the end and what its subscribers store of it: one transaction
                writes.append(GameEnded(self.id, self.game_no, list(game.scores), FINISHED))
                txn = await self.events.commit([self.ended(FINISHED)], writes, self.gate.commit)
            else:
                await self.gate.commit(*writes)  # an applied action is always made durable
        except StoreError:
            self.game = self.restoration.take_back(game)  # not stored, so not taken
            raise
        self._actions += 1
        if self._counter is not None:
            self._counter.total += 1
        self.gm.after_action(seat)  # the countdown follows the turn
        numbered: list[Numbered] = out.record(events)
        first = self.gm.clock_notice(seat, notation) if clock else None
        # the ok heads the actor's own events and turn: one write carries all three
        ack = None if c is None else (c.member, wire.ok(c.req, self.id))
        out.send_events(numbered, ack, prelude=first)
        hands = announced.hands_ended(self.id, self.game_no, events)
        if hands:
            self.events.announce(*hands)
        if txn is not None:
            self.state, self.outcome = OVER, FINISHED
            self.told(txn)
            out.send_snapshots()
        self._changed_at = trio.current_time()

    # ----------------------------------------------------------- announcing
    def ended(self, outcome: str) -> announced.GameEnded:
        """The running game's end as ``outcome`` says, as the table announces it."""
        assert self.game is not None
        people = [s.name for s in self.seating.seats]
        return announced.game_ended(self.id, self.game_no, self.ruleset, self.family,
                                    self.game, outcome, self.players(), people)  # fmt: skip

    def told(self, txn: announced.Transaction) -> None:
        """A transaction of table events is durable: everyone at the table is told what
        its subscribers have to say (where a prize went), then they hear its events."""
        self.notices(txn.notices)
        self.events.announce(*txn.events)

    def notices(self, texts: list[str]) -> None:
        for text in texts:
            self.seating.notice_all(text)

    # --------------------------------------------------------- game master
    def _start_rng(self, seed: int) -> None:
        self._rng = random.Random(f"{self.id}:{self.game_no}:{seed}")

    async def start(self, seed: int | None = None, ack: Start | None = None) -> None:
        """A new game: empty seats are played by server bots (they stay free to join).

        The start takes a sequence number of its own, so a client that saw the
        last event of the previous game is still behind this one's snapshot.
        ``ack``, the request that asked for it, is answered ``ok`` once the start
        is stored, before the snapshots (a start the store refuses gets only
        ``store_failed``)."""
        seed = secrets.randbits(62) if seed is None else seed
        seats = self.seating.seats
        game = engine.new_game(self.ruleset, len(seats), seed, self.options)
        number, base = self.game_no + 1, self.out.seq + 1
        # the deal shows each seat's holder his hand: stored, so a restart still knows it
        shown = [HandShown(self.id, number, i, s.name) for i, s in enumerate(seats) if s.name]
        people = [s.name for s in seats]
        dealt = announced.GameStarted(self.id, number, self.ruleset, self.family,
                                      tuple(p or self.gm.bot_name(i) for i, p in enumerate(people)),
                                      tuple(people), dict(self.settings))  # fmt: skip
        stored = GameStarted(self.id, number, seed, None, None, base)
        txn = await self.events.commit([dealt], [stored, *shown], self.commit)
        if ack is not None:
            ack.member.deliver(wire.ok(ack.req, self.id))
        self.game, self.game_no = game, number
        self.out.new_game(base)
        self.state, self.outcome = PLAYING, None
        self._final = None
        self.restoration.forget()
        self._start_rng(seed)
        self.seating.remember_deal()  # the deal shows each seat's holder his hand
        self.gm.on_start()  # a fresh countdown, nobody away
        # The first deal's events are numbered after the start's snapshot and end with
        # each seat's turn, which (not the snapshot) then says what it may do.
        if game.opening_events:  # each member's snapshot heads its opening events: one write
            heads = self.out.snapshots(legal=False)
            self.out.send_events(self.out.record(game.opening_events), heads=heads)
        else:
            self.out.send_snapshots()
        self.touched()
        self.told(txn)
        if self._on_start is not None:
            self._on_start(self)

    async def abandon(self) -> None:
        """End a running game as abandoned; its prize goes back in the same transaction."""
        if self.state == PLAYING and self.game is not None:
            stored = GameEnded(self.id, self.game_no, list(self.game.scores), ABANDONED)
            txn = await self.events.commit([self.ended(ABANDONED)], [stored], self.commit)
            self.state, self.outcome = OVER, ABANDONED
            self.told(txn)

    async def _abandon_running(self) -> None:
        """Abandon the running game, playing or paused (``abandon`` ends a playing one)."""
        before, self.state = self.state, PLAYING
        try:
            await self.abandon()  # stored as abandoned, its prize returned, in one transaction
        finally:
            if self.state == PLAYING:  # the store refused it: as it was
                self.state = before

    async def abandon_game(self, reason: str) -> None:
        """Abandon the running game (its prize goes back) and tell everyone why."""
        if not self.gm.running():
            return
        await self._abandon_running()
        self.gm.clock.stop()
        self.seating.notice_all(f"the game at table {self.id} was abandoned: {reason}")
        self.out.send_snapshots()

    async def close(self, reason: str) -> None:
        """Close the table for good: an unfinished game ends abandoned, and whatever prize
        is held (for it, or for the next game) goes back, in the closing transaction;
        everyone at it is told ``reason``."""
        writes: list[Any] = []
        said: list[announced.TableEvent] = []
        if self.game is not None and self.state not in (OVER, WAITING):
            writes.append(GameEnded(self.id, self.game_no, list(self.game.scores), ABANDONED))
            said.append(self.ended(ABANDONED))
        writes.append(TableClosed(self.id))
        said.append(announced.TableClosed(self.id, self.game_no))
        txn = await self.events.commit(said, writes, self.commit)
        self.state = CLOSED
        self.closed.set()
        self.told(txn)
        self.seating.notice_all(f"table {self.id} closed: {reason}")
