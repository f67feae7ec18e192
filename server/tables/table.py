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

What the layers above need to hear (a game started or ended, a hand ended, a seat changed
hands, the table closed) the table announces through ``events`` (``server.tables.events``),
once it is durable; the prize, the ratings and the lobby's listing are subscribers, and
the table imports none of them. A game's start and end are ``server.tables.course``'s.

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
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import trio

import engine
from engine.described import GameRecord
from engine.events import Event
from engine.game import Game
from protocol.fields import RUNNING, TableState
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
    ActionTaken,
    Store,
    StoredTable,
    StoreError,
)
from server.tables import course, gamemaster, lifetime, master_commands, restoring, thinking
from server.tables import events as announced
from server.tables.bot_turns import BotTurns
from server.tables.delivery import Delivery, Numbered
from server.tables.inbox import Inbox
from server.tables.member_requests import MemberRequests
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
    ``gm`` (the game master: his bots, the clock), ``commands`` (what he decides),
    ``events`` (who hears what happens here), ``inbox`` (the
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
        self._final: GameRecord | None = None  #: the finished game's record, made once
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
        self.seating.running = lambda: self.state in RUNNING
        #: Who hears what happens here (``server.tables.events``): the prize, the ratings ...
        self.events = events if events is not None else announced.TableEvents()
        self.gm = gamemaster.GameMaster(self, stakes)  #: his bots, clock, away seats
        self.commands = master_commands.MasterCommands(self.gm)  #: what he decides
        self.out = Delivery(id, config.event_ring, self.seating, self, self.gm.observe,
                            self.gm.is_away)  # fmt: skip
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
        """Rebuild a table from the store (``restoring.rebuild``: seats, master, what the
        game master set up, and the game replayed). ``wiring``: what ``Table`` takes
        beside the stored (its thinker, ``on_start``, its events, its stakes)."""
        t = cls(stored.id, stored.ruleset, stored.seats, stored.options, config=config,
                store=store, creator=stored.creator, settings=stored.settings,
                **wiring)  # fmt: skip
        t._restore(stored, config.snapshot_every)
        return t

    def _restore(self, stored: StoredTable, snapshot_every: int) -> None:
        self.master = stored.master
        restoring.seat(self, stored)  # the seats' holders, the bots the master reserved
        g = stored.game
        if g is None:
            return
        self.game_no = g.number
        self.start_rng(g.seed)
        self.game = game = self.restoration.replay(stored, snapshot_every)
        self.state, self.outcome = restoring.ending(g, game)
        self.state = self.gm.restore(g.paused, g.away)
        self.seating.remember_shown(g.shown)

    def fill_unreplayed(self, since: int | None = None) -> None:
        """Make what a restore from a snapshot skipped (``Restoration.fill``)."""
        self.restoration.fill(self.game, since)

    def final_record(self) -> GameRecord:
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

    def attach(self, *, counter: Any = None) -> None:
        """What the server gives a table as its task starts: the counter of every
        table's actions (``ops.ActionCounter``)."""
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
            await self.restoration.seal(self.game, self.game_no)  # a replay's snapshot
            await self.gm.on_run()  # a restored game's clock
            if self.gm.stakes is not None:  # a prize still owed
                course.notices(self, await self.gm.stakes.settle_owed(self))
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
        decision = await self.commands.decide(command)  # the game master's commands
        if decision is not None:
            await master_commands.carry_out(self, decision)
            return
        match command:
            case Act() if self.frozen:
                command.member.deliver(
                    wire.error(command.req, "shutdown", "the server is shutting down", self.id)
                )
            case Act():
                if (taken := await self.requests.act(command)) is not None:
                    await self._accepted(*taken, command)
            case Close():
                await self.close(command.reason)
            case _:
                await self.requests.handle(command)

    # ------------------------------------------------------------- actions
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
                txn = await course.finishing(self, writes, self.gate.commit)
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
        first = self.gm.clock_notices(seat, notation) if clock else ()
        # the ok heads the actor's own events and turn: one write carries all three
        ack = None if c is None else (c.member, wire.ok(c.req, self.id))
        out.send_events(numbered, ack, prelude=first)
        self.gm.tell_away()
        hands = announced.hands_ended(self.id, self.game_no, events)
        if hands:
            self.events.announce(*hands)
        if txn is not None:
            course.finished(self, txn)
        self._changed_at = trio.current_time()

    # ------------------------------------------------------------ its course
    def start_rng(self, seed: int) -> None:
        """The bots' randomness for the game dealt from ``seed`` (the same after a restart)."""
        self._rng = random.Random(f"{self.id}:{self.game_no}:{seed}")

    async def start(self, seed: int | None = None, ack: Start | None = None) -> None:
        """A new game (``course.start``), stored before ``ack`` is answered."""
        await course.start(self, seed, ack)
        if self._on_start is not None:
            self._on_start(self)

    def over(self, outcome: str) -> None:
        """The game is over as ``outcome`` says (stored: ``course``)."""
        self.state, self.outcome = OVER, outcome

    def shut(self) -> None:
        """The table's close is stored (``course.close``)."""
        self.state = CLOSED
        self.closed.set()

    def take(self, change: master_commands.NewState | master_commands.NewOptions
             | master_commands.NewMaster) -> None:  # fmt: skip
        """A change the game master decided to the table's own (``carry_out``)."""
        match change:
            case master_commands.NewState(state):
                self.state = state
                if state == PLAYING:  # resumed: a bot to act waits its delay from now
                    self.touched()
            case master_commands.NewOptions(options, settings):
                self.options, self.settings = options, settings
            case master_commands.NewMaster(name):
                self.master = name

    def begin(self, game: Game, number: int, base: int, seed: int) -> None:
        """Game ``number`` is stored as started (its first event numbered ``base``)."""
        self.game, self.game_no = game, number
        self.out.new_game(base)
        self.state, self.outcome = PLAYING, None
        self._final = None
        self.restoration.forget()
        self.start_rng(seed)

    async def abandon(self) -> None:
        """End a running game as abandoned (``course.abandon``)."""
        await course.abandon(self)

    async def abandon_game(self, reason: str) -> None:
        """Abandon the running game and tell everyone why (``course.abandon_game``)."""
        await course.abandon_game(self, reason)

    async def close(self, reason: str) -> None:
        """Close the table for good, telling everyone ``reason`` (``course.close``)."""
        await course.close(self, reason)
