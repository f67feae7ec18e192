"""The game master: his bots, his turn clock and the away state, as one object a table owns.

A table (``server.tables.table.Table``) owns a ``GameMaster`` (``table.gm``) and calls it
at a few points of its loop; everything timed beyond a bot's move lives here so that the
table actor stays one readable loop. The game master reads the table through ``Hosting``
(a protocol: this module does not import the table) and writes nothing of it. His
commands, and the ``Decision`` the table carries out for each, are
``server.tables.master_commands``.

- ``deadline()`` / ``timed_out()``: the turn countdown of the seat to act; when it
  runs out the table makes the seat's move with the default strategy, which sees
  only that seat's view; two in a row mark it away;
- ``player_acted`` / ``after_action`` / ``on_start``: keep the clock and the
  away state up to date;
- ``strategy_for`` / ``observe`` / ``bot_name``: the strategy that plays each seat a
  server bot plays (the one he reserved there, or the default), and what it is shown;
- ``reserve`` / ``restore`` / ``on_run``: bring a table rebuilt after a restart back as
  the master left it (see "Restarts" below).

The prize he may put up, paid or returned with the game's end, is kept by the server's
``server.tables.prize.Prizes`` (given to the table as its ``Staking``, a protocol: this
module does not import it); he sets it through ``Staking.put_up``.

Restarts. Everything the master set up is a store write made durable before
it is acknowledged (``BotReserved``, ``PauseSet``, ``AwaySet``, beside
``SeatSet`` and ``MasterSet``), so a restarted server brings each table back as
the master left it: the bots he chose, the pause, the away seats. The clock
cannot be kept (the server was down for an unknown time): after a restart the
turn to act starts with full time, paused or not (a paused game keeps that
full time until it is resumed). The count of timeouts *towards* away (one so
far) is not kept: only the away flag itself. Each bot's strategy is made
before the replay and is shown every replayed event its seat was shown, so
a bot that remembers the cards played remembers them after a restart too;
likewise a bot the master seats mid-game is shown the game so far, and so is
the strategy of a seat a person holds, when it is first needed (the clock
plays for him, or he leaves): until then it is shown nothing, which spares
every action a presentation of its events per such seat.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any, Protocol, TypedDict

import trio

import engine
from engine.events import Event
from engine.game import Game
from engine.strategies import Strategy, default_strategy, get_strategy, strategies
from protocol.describe import isolated, seat_words
from protocol.fields import RUNNING, TableState
from protocol.words import action_words
from server.core import wire
from server.core.commands import (
    Member,
)
from server.core.logfmt import log_event
from server.store.base import (
    AwaySet,
)
from server.tables.clock import AwayTracker, TurnClock

log = logging.getLogger("switchboard.gamemaster")

PAUSED = TableState.PAUSED


class MasterPart(TypedDict):
    """The game master's part of a table's summary (``server.tables.listing``)."""

    away: list[int]
    turn_seconds: int


class Held(Protocol):
    """A seat as the game master reads it."""

    @property
    def name(self) -> str | None: ...

    @property
    def member(self) -> Member | None: ...


class Hosting(Protocol):
    """A table as its game master sees it (``server.tables.table.Table``): what he reads,
    a notice to everyone at it, and the commit that makes a store write durable (his
    clock's away mark is stored before it is told). He changes nothing of it himself:
    his commands return a ``Decision`` that the table carries out."""

    @property
    def id(self) -> int: ...

    @property
    def ruleset(self) -> str: ...

    @property
    def family(self) -> str: ...

    @property
    def options(self) -> dict[str, Any]: ...

    @property
    def settings(self) -> dict[str, Any]: ...

    @property
    def master(self) -> str | None: ...

    @property
    def game(self) -> Game | None: ...

    @property
    def game_no(self) -> int: ...

    @property
    def state(self) -> TableState: ...

    @property
    def seats(self) -> Sequence[Held]: ...

    def members(self) -> list[Member]: ...

    def notice_all(self, text: str) -> None: ...

    async def commit(self, *writes: Any) -> None: ...


class Staking(Protocol):
    """The server's prizes as a table sees them (``server.tables.prize.Prizes``)."""

    def amount(self, table: int) -> int: ...

    async def put_up(self, table: Any, funder: str, chips: Any) -> tuple[str, str]: ...

    async def settle_owed(self, table: Any) -> list[str]: ...


# ---------------------------------------------------------- the master
class GameMaster:
    """What a table keeps for its game master, its clock and its prize, and what he
    decides. One per table (``Table.gm``)."""

    def __init__(self, table: Hosting, stakes: Staking | None = None) -> None:
        self.table = table
        #: the server's prizes (None: it keeps no chips): he sets his while no game runs
        self.stakes = stakes
        self.clock = TurnClock(0)
        self.away = AwayTracker()
        self._went_away: int | None = None  #: a seat the last timeout made away, untold
        self.bots: dict[int, str] = {}  #: seat -> strategy name (reserved)
        #: seat -> (its bot's name, "" for the default; the strategy playing it). One
        #: instance a seat, made when the game starts so that it sees every event its
        #: seat is shown (a strategy may remember what was played).
        self.strategies: dict[int, tuple[str, Strategy]] = {}
        #: Seats whose strategy has been shown nothing yet: a person held the seat when
        #: the game began, and his strategy is needed only if the clock plays for him or
        #: he leaves. Showing it every event meanwhile cost each action a presentation
        #: per seat; instead ``strategy_for`` briefs it by a replay when first needed.
        self._behind: set[int] = set()
        self.timeouts = 0  #: automatic moves made for players who ran out of time

    # ------------------------------------------------------------ queries
    def is_master(self, member: Member) -> bool:
        """Whether ``member`` may use the game master's commands at this table."""
        name, master = member.name, self.table.master
        return bool(getattr(member, "operator", False)) or (
            name is not None and master is not None and name == master
        )

    def running(self) -> bool:
        """A game is under way (playing or paused)."""
        return self.table.game is not None and self.table.state in RUNNING

    def strategy_for(self, seat: int) -> Strategy:
        """The strategy that plays ``seat`` when it has no player: the one the master seated
        there, else the family's default (also used for timeouts and away seats)."""
        key = self.bots.get(seat) or ""
        held = self.strategies.get(seat)
        # first use, the master seated another bot, or a person's seat first needed
        if held is None or held[0] != key or seat in self._behind:
            strategy = self._new_strategy(key)
            if self.running():
                self._brief(seat, strategy)  # it has seen nothing of the game so far
            held = self.strategies[seat] = (key, strategy)
            self._behind.discard(seat)
        return held[1]

    def _brief(self, seat: int, strategy: Strategy) -> None:
        """Show a strategy seated mid-game (or a person's seat's, first needed) every event
        of the game so far as ``seat`` was shown it, so it remembers what a player sitting
        there would. The table keeps only
        the last events, so the game is replayed from its record (milliseconds)."""
        show = getattr(strategy, "observe", None)
        game = self.table.game
        if show is None or game is None:
            return

        def shown(events: list[Event]) -> None:
            for event in events:
                show(event.present(seat))

        engine.replay(game.record(), shown)

    def _new_strategy(self, name: str) -> Strategy:
        family = self.table.family
        return get_strategy(name, family) if name else default_strategy(family)

    def new_strategies(self) -> None:
        """One fresh strategy a seat, made before the game's first events (a new game's,
        or a restored game's replay) so that each sees every event its seat is shown;
        a seat a person holds is left behind (``_behind``), briefed when first needed."""
        self.strategies = {}
        for seat in range(len(self.table.seats)):
            key = self.bots.get(seat) or ""
            self.strategies[seat] = (key, self._new_strategy(key))
        self._behind = {seat for seat, held in enumerate(self.table.seats) if held.name}

    def observe(self, events: Sequence[Event]) -> None:
        """Show each seat's strategy the events as its seat sees them (``observe``),
        so a server bot remembers what a player at the table would (a person's seat's
        strategy is briefed instead, when first needed: ``strategy_for``)."""
        behind = self._behind
        for seat, (_key, strategy) in self.strategies.items():
            show = getattr(strategy, "observe", None)
            if show is not None and seat not in behind:
                for event in events:
                    show(event.present(seat))

    def bot_name(self, seat: int) -> str:
        """How the lobby shows a bot-played seat: ``bot:STRATEGY``. Naming never makes or
        briefs the strategy that plays (``strategy_for`` does, when it is needed): the
        lobby may ask while an action is applied but not yet shown, and a replay then
        would show the strategy that action, which ``observe`` shows it again."""
        key = self.bots.get(seat) or ""
        held = self.strategies.get(seat)
        strategy = held[1] if held is not None and held[0] == key else self._new_strategy(key)
        return f"bot:{strategy.name}"

    def occupants(self) -> list[str | None]:
        """Each seat's occupant: a name, ``bot:STRATEGY`` while a server bot plays it (or
        the master reserved it for one), or None."""
        bot = self.running()
        return [
            s.name if s.name is not None
            else (self.bot_name(i) if bot or self.reserved(i) else None)
            for i, s in enumerate(self.table.seats)
        ]  # fmt: skip

    def reserved(self, seat: int) -> bool:
        """Whether the master reserved ``seat`` for a bot (players cannot join it)."""
        return seat in self.bots

    def is_away(self, seat: int) -> bool:
        return self.away.is_away(seat)

    def clock_left(self) -> float | None:
        """Seconds left to the seat to act (None: no clock, or the seat is away and the
        server plays it at once), for snapshots and turns."""
        if not self.running():
            return None
        seat = self.table.game.to_act if self.table.game is not None else None
        if seat is not None and self.is_away(seat):
            return None
        left = self.clock.remaining(trio.current_time())
        return None if left is None else round(left, 3)

    def summary_extra(self) -> MasterPart:
        """What the game master adds to the lobby's summary of a table."""
        default = engine.options.TURN_SECONDS.default
        return {
            "away": sorted(self.away.away),
            "turn_seconds": self.table.options.get("turn_seconds", default),
        }

    # ---------------------------------------------------------- the clock
    def on_start(self) -> None:
        """A new game has started: fresh strategies (before its first events), nobody
        away, a fresh clock."""
        assert self.table.game is not None
        self.away.clear()
        self.new_strategies()
        self._start_clock()

    def _start_clock(self) -> None:
        """A countdown with full time for the seat to act now."""
        game = self.table.game
        assert game is not None
        self.clock = TurnClock(float(game.options.get("turn_seconds", 0) or 0))
        self.clock.follow(game.to_act, trio.current_time())

    def _away_write(self, seat: int, away: bool) -> AwaySet:
        return AwaySet(self.table.id, self.table.game_no, seat, away)

    def back_writes(self, seat: int) -> list[Any]:
        """The store write that says ``seat`` is no longer away, if it is (else none).

        For the table's own seat changes (a join, a leave): commit them with the seat's
        change, then call ``back``."""
        return [self._away_write(seat, False)] if self.is_away(seat) else []

    def back(self, seat: int) -> None:
        """``seat`` is no longer away (its store write is committed: ``back_writes``)."""
        if self.away.acted(seat):
            log_event(log, "table.back", table=self.table.id, seat=seat)

    async def player_acted(self, seat: int) -> bool:
        """A seat's player sent an action himself (accepted or not): he is back (True if
        he was away)."""
        writes = self.back_writes(seat)
        if writes:
            await self.table.commit(*writes)
        self.back(seat)
        return bool(writes)

    def after_action(self, seat: int) -> None:
        """An action by ``seat`` was applied: bring the countdown up to date."""
        if self.table.game is not None:
            self.clock.follow(self.table.game.to_act, trio.current_time(), actor=seat)

    def deadline(self) -> float:
        """When the countdown of a player to act runs out (inf: nothing to wait for)."""
        table = self.table
        if table.state != TableState.PLAYING or table.game is None:
            return float("inf")
        seat = table.game.to_act
        if seat is None or table.seats[seat].name is None or self.is_away(seat):
            return float("inf")  # a bot's seat: the table's own bot deadline covers it
        d = self.clock.deadline
        return float("inf") if d is None else d

    async def timed_out(self) -> int | None:
        """The player to act ran out of time: the seat the table must now move for
        (None: he has not, after all); twice in a row, he is away (stored first).
        The table makes the move and heads its events with ``clock_notice``."""
        table = self.table
        if table.state != TableState.PLAYING or table.game is None:
            return None
        seat = table.game.to_act
        if seat is None or not self.clock.expired(trio.current_time()) or seat != self.clock.seat:
            return None
        self.timeouts += 1
        now_away = self.away.timed_out(seat)
        name = table.seats[seat].name
        log_event(log, "table.timeout", table=table.id, seat=seat, name=name, away=now_away)
        if now_away:
            await table.commit(self._away_write(seat, True))  # away survives a restart
            self._went_away = seat  # told after the clock's notice (``clock_notices``)
        return seat

    def clock_notices(self, seat: int, notation: str) -> list[wire.Message]:
        """What the table says when it moved for ``seat`` because its time ran out: the
        clock speaks, so that nobody reads a move he did not make as his own; then, if
        that timeout made the seat away, that it is. Sent ahead of the move's events, so
        that the log reads the cause before the move, and the move before its effect."""
        table = self.table
        name = isolated(str(table.seats[seat].name))  # it goes into sentences
        said = [wire.notice(
            f"time's up at table {table.id}: the clock {action_words(notation)} for {name}",
            table=table.id,
        )]  # fmt: skip
        if self._went_away == seat:
            said.append(wire.notice(
                f"{name} is away at table {table.id}: {seat_words(seat)} plays by itself until they"
                " come back", table=table.id))  # fmt: skip
        return said

    def tell_away(self) -> None:
        """After the move that made a seat away: tell its player how to come back."""
        seat, self._went_away = self._went_away, None
        member = None if seat is None else self.table.seats[seat].member
        if member is not None:
            tid = self.table.id
            member.deliver(wire.notice(
                f"you are away at table {tid}: the server plays your seat, and offers you no"
                f" actions, until you come back (join the table again: 'back {tid}')",
                table=tid))  # fmt: skip

    # ----------------------------------------------------------- restarts
    def reserve(self, bots: dict[int, str]) -> None:
        """A restored table's bot reservations: before the replay, so that each seat's
        strategy (``new_strategies``) is the one the master chose. A strategy this
        version no longer has (after an upgrade) keeps the seat reserved for the default
        one: the table comes back rather than failing to restore."""
        known = strategies(self.table.family)
        self.bots = {}
        for seat, name in bots.items():
            if name not in known:
                log.warning("table %s seat %s: no strategy %r now; the default plays it",
                            self.table.id, seat, name)  # fmt: skip
                name = default_strategy(self.table.family).name
            self.bots[seat] = name

    def restore(self, paused: bool, away: set[int]) -> TableState:
        """After ``Table.restore``'s replay (the bots were set before it, by ``reserve``):
        an unfinished game's away seats; the state the table is in (paused, if it was)."""
        if not self.running():
            return self.table.state
        self.away.away = set(away)
        return PAUSED if paused else self.table.state

    async def on_run(self) -> None:
        """The table's task started (new, or rebuilt after a restart).

        A rebuilt game's turn starts with full time (nobody knows how long the
        server was down); a paused one keeps that full time until it is resumed."""
        if self.running():
            if not self.strategies:  # restored without a replay (cannot happen today)
                self.new_strategies()
            self._start_clock()
            if self.table.state == PAUSED:
                self.clock.pause(trio.current_time())
