"""The game master's commands: what he decides (``MasterCommands.decide``) and how the
table carries it out (``carry_out``).

Deciding reads the table through its ``GameMaster`` (``server.tables.gamemaster``) and
never writes the table's state: for each command it returns a ``Decision`` (the store
writes, the change to the table, the reply, the notices), and the table's loop carries
it out, in that order. The commands (``server.core.commands.MasterCommand``): pause,
resume, seat or unseat a bot or player, set options, set a prize, hand the role on, end
the game, close the table; ``start`` while paused resumes, as in the ``003`` source ("to
resume a paused game, type !start").

Only the game master (or an operator) may use these commands; anyone else
gets ``not_master``. Rulings where the sources are silent:

- Paused, nobody acts (players get ``bad_state``), bots wait, the clock keeps
  its time left, talk goes on. A paused game stays paused across a restart.
- ``seat_bot`` reserves an empty seat for a server bot of the given strategy
  (players can no longer join it); ``unseat`` empties a seat: a player loses
  it (his token stops working) and a running game gives it to a bot.
- Options and the prize can change only while no game runs.
- ``hand_over`` needs a name that is at the table (seated or watching).
- ``end_game`` abandons a running game: it is scored as it stands, nobody
  wins, and the prize goes back to whoever put it up.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import trio

import engine
from engine.strategies import default_strategy, strategies
from protocol.describe import master_words, seat_words
from protocol.fields import TableState
from server.core import wire
from server.core.commands import (
    CloseTable,
    EndGame,
    HandOver,
    MasterCommand,
    Member,
    PauseGame,
    ResumeGame,
    SeatBot,
    SetOptions,
    SetPrize,
    Start,
    Unseat,
)
from server.core.logfmt import log_event
from server.players.ledger import ChipError
from server.store.base import BotReserved, MasterSet, OptionsSet, PauseSet, SeatSet
from server.tables import course
from server.tables import events as announced
from server.tables.gamemaster import PAUSED, GameMaster
from server.tables.settings import RATED, rated_setting

log = logging.getLogger("switchboard.gamemaster")


# ------------------------------------------------------------ decisions
@dataclass(frozen=True, slots=True)
class NewState:
    """The table is now ``state`` (paused, or playing again)."""

    state: TableState


@dataclass(frozen=True, slots=True)
class FreeSeat:
    """The seat's player is unseated: told so, he keeps watching; the seat is empty."""

    seat: int


@dataclass(frozen=True, slots=True)
class NewOptions:
    options: dict[str, Any]
    settings: dict[str, Any]


@dataclass(frozen=True, slots=True)
class NewMaster:
    name: str


@dataclass(frozen=True, slots=True)
class AbandonGame:
    """End the running game as abandoned (stored with its prize returned)."""


@dataclass(frozen=True, slots=True)
class CloseForGood:
    """Close the table, telling everyone ``reason``."""

    reason: str


Change = NewState | FreeSeat | NewOptions | NewMaster | AbandonGame | CloseForGood


@dataclass(frozen=True, slots=True)
class Decision:
    """What the table does for a game-master command, in this order: commit ``writes``
    (refused: nothing else happens); make ``change``; let the game master update his own
    state (``then``); send ``reply`` to ``member``; tell everyone at the table each of
    ``notices``; send everyone a fresh snapshot if ``snapshots``."""

    member: Member
    reply: wire.Message
    writes: tuple[Any, ...] = ()
    change: Change | None = None
    then: Callable[[], None] | None = None
    notices: tuple[str, ...] = ()
    snapshots: bool = False


# ------------------------------------------------------------ deciding
class MasterCommands:
    """What the game master of one table decides (``Table.commands``)."""

    def __init__(self, gm: GameMaster) -> None:
        self.gm = gm
        self.table = gm.table

    async def decide(self, command: object) -> Decision | None:
        """What the table does for ``command`` if it is the game master's (None: it is not).

        Deciding changes nothing but a prize (a chip move commits under the ledger's
        lock); the rest is done by the table, through the returned decision."""
        if isinstance(command, Start) and self.table.state == PAUSED:
            c: MasterCommand = ResumeGame(command.member, command.req)
        elif isinstance(command, MasterCommand):
            c = command
        else:
            return None
        if not self.gm.is_master(c.member):
            who = self.table.master or "nobody"
            return self._error(c, "not_master", f"only the game master ({who}) may {c.verb}")
        log_event(log, "table.master", table=self.table.id, verb=c.verb, by=c.member.name)
        match c:
            case PauseGame():
                return self._pause(c)
            case ResumeGame():
                return self._resume(c)
            case SeatBot():
                return self._seat_bot(c)
            case Unseat():
                return self._unseat(c)
            case SetOptions():
                return self._set_options(c)
            case SetPrize():
                return await self._set_prize(c)
            case HandOver():
                return self._hand_over(c)
            case EndGame():
                return self._end_game(c)
            case CloseTable():
                return self._close(c)

    def _error(self, c: MasterCommand, code: str, text: str) -> Decision:
        return Decision(c.member, wire.error(c.req, code, text, self.table.id))

    def _ok(self, c: MasterCommand, text: str, **more: Any) -> Decision:
        return Decision(c.member, wire.ok(c.req, self.table.id, text), **more)

    def _pause(self, c: PauseGame) -> Decision:
        table = self.table
        if table.state != TableState.PLAYING:
            return self._error(c, "bad_state", f"the table is {table.state}: nothing to pause")
        return self._ok(
            c, "paused",
            writes=(PauseSet(table.id, table.game_no, True),),
            change=NewState(PAUSED),
            then=lambda: self.gm.clock.pause(trio.current_time()),
            notices=(f"{_who(c)} paused the game",),
            snapshots=True,
        )  # fmt: skip

    def _resume(self, c: ResumeGame) -> Decision:
        table = self.table
        if table.state != PAUSED:
            return self._error(c, "bad_state", f"the table is {table.state}, not paused")
        return self._ok(
            c, "resumed",
            writes=(PauseSet(table.id, table.game_no, False),),
            change=NewState(TableState.PLAYING),
            then=lambda: self.gm.clock.resume(trio.current_time()),
            notices=(f"{_who(c)} resumed the game",),
            snapshots=True,
        )  # fmt: skip

    def _no_seat(self, c: SeatBot | Unseat) -> Decision | None:
        seat = c.seat
        if (
            isinstance(seat, bool)
            or not isinstance(seat, int)
            or not 0 <= seat < len(self.table.seats)
        ):
            return self._error(c, "no_seat", f"there is no {seat_words(seat)}")
        return None

    def _seat_bot(self, c: SeatBot) -> Decision:
        if (refused := self._no_seat(c)) is not None:
            return refused
        seat, holder = c.seat, self.table.seats[c.seat].name
        if holder is not None:
            return self._error(c, "seat_taken", f"{holder} holds {seat_words(seat)}; unseat first")
        name = c.strategy
        if name is not None:
            known = strategies(self.table.family)
            if name not in known:
                return self._error(
                    c, "bad_options", f"no strategy {name!r}; known: {', '.join(known)}"
                )
        else:
            name = default_strategy(self.table.family).name

        def reserve() -> None:
            self.gm.bots[seat] = name
            self.gm.strategy_for(seat)  # made now, between actions: mid-game, shown the game

        return self._ok(
            c, f"{seat_words(seat)}: bot {name}",
            writes=(BotReserved(self.table.id, seat, name),), then=reserve, snapshots=True,
        )  # fmt: skip

    def _unseat(self, c: Unseat) -> Decision:
        if (refused := self._no_seat(c)) is not None:
            return refused
        table, seat = self.table, c.seat
        holder = table.seats[seat].name
        writes: list[Any] = []
        if seat in self.gm.bots:  # a reserved seat never holds a player (join refuses it)
            writes.append(BotReserved(table.id, seat, None))
        elif holder is None:
            return self._error(c, "no_seat", f"{seat_words(seat)} is already empty")

        def unreserve() -> None:
            self.gm.bots.pop(seat, None)
            if holder is not None:
                self.gm.back(seat)

        if holder is None:
            return self._ok(
                c,
                f"{seat_words(seat)} is free",
                writes=tuple(writes),
                then=unreserve,
                snapshots=True,
            )
        writes += [SeatSet(table.id, seat, None, None), *self.gm.back_writes(seat)]
        return self._ok(
            c, f"{holder} unseated from {seat_words(seat)}",
            writes=tuple(writes), change=FreeSeat(seat), then=unreserve, snapshots=True,
        )  # fmt: skip

    def _set_options(self, c: SetOptions) -> Decision:
        table = self.table
        if self.gm.running():
            return self._error(c, "bad_state", "options change only while no game runs")
        given = c.options
        if not isinstance(given, dict):
            return self._error(c, "bad_options", "options must be a map of name to value")
        options = {**table.options, **given}
        settings = dict(table.settings)
        if "start_when_full" in options:
            swf = options.pop("start_when_full")
            if not isinstance(swf, bool):
                return self._error(c, "bad_options", "option 'start_when_full': true or false")
            settings["start_when_full"] = swf
        try:
            if (rated := rated_setting(options)) is not None:
                settings[RATED] = rated
        except ValueError as exc:
            return self._error(c, "bad_options", str(exc))
        try:
            engine.new_game(table.ruleset, len(table.seats), 0, options)
        except engine.OptionError as exc:
            return self._error(c, "bad_options", str(exc))
        return self._ok(
            c, "options set",
            writes=(OptionsSet(table.id, options, settings),),
            change=NewOptions(options, settings),
            snapshots=True,
        )  # fmt: skip

    async def _set_prize(self, c: SetPrize) -> Decision:
        stakes = self.gm.stakes
        if stakes is None:
            return self._error(c, "bad_state", "this server keeps no chips")
        if self.gm.running():
            return self._error(c, "bad_state", "a prize is set before the game starts")
        funder = c.member.name
        if funder is None:
            return self._error(c, "need_name", "claim a name first")
        try:
            reply, notice = await stakes.put_up(self.table, funder, c.chips)
        except ChipError as exc:
            return self._error(c, "no_chips", str(exc))
        return self._ok(c, reply, notices=(notice,), snapshots=True)

    def _hand_over(self, c: HandOver) -> Decision:
        table, target = self.table, c.name
        present = {m.name for m in table.members() if m.name is not None}
        present.update(s.name for s in table.seats if s.name is not None)
        match = next(
            (n for n in present if isinstance(target, str) and n.lower() == target.lower()), None
        )
        if match is None:
            return self._error(c, "bad_name", f"{target!r} is not at this table")
        return self._ok(
            c, f"{match} is the game master",
            writes=(MasterSet(table.id, match),),
            change=NewMaster(match),
            notices=(f"{match} is now the game master",),
            snapshots=True,
        )  # fmt: skip

    def _end_game(self, c: EndGame) -> Decision:
        if not self.gm.running():
            return self._error(c, "bad_state", f"the table is {self.table.state}: no game to end")
        return self._ok(
            c, "game ended",
            change=AbandonGame(),  # stored as abandoned, its prize returned, in one transaction
            then=self.gm.clock.stop,
            notices=(f"{c.member.name} ended the game",),
            snapshots=True,
        )  # fmt: skip

    def _close(self, c: CloseTable) -> Decision:
        """Close the table for good: a running game is abandoned (its prize goes back), and
        everyone at it is told why."""
        reason = c.reason.strip()
        why = f"{c.member.name} closed it" + (f": {reason}" if reason else "")
        return self._ok(c, "closed", change=CloseForGood(why))


# ------------------------------------------------------------ carrying out
class Carrying(course.Coursed, Protocol):
    """A table as it carries out a decision (``server.tables.table.Table``)."""

    def take(self, change: NewState | NewOptions | NewMaster) -> None: ...

    async def close(self, reason: str) -> None: ...


async def carry_out(t: Carrying, d: Decision) -> None:
    """Do what the game master decided (``Decision``), in its order."""
    if d.writes:
        await t.commit(*d.writes)
    match d.change:
        case NewState() | NewOptions() | NewMaster():
            t.take(d.change)  # the table's own state, which it changes itself
        case FreeSeat(seat):
            was = t.seating.seats[seat].name
            t.seating.unseat(seat)  # told so, he may keep watching
            t.touched()
            t.events.announce(announced.SeatChanged(t.id, seat, None, was))
        case AbandonGame():
            await course.abandon(t, paused=True)
        case CloseForGood(reason):
            await t.close(reason)
    if d.then is not None:
        d.then()
    d.member.deliver(d.reply)
    for text in d.notices:
        t.seating.notice_all(text)
    if d.snapshots:
        t.out.send_snapshots()


def _who(c: MasterCommand) -> str:
    """The master who gave a command as the table's notice names him (a tournament's
    steward as ``tournament 3``)."""
    return master_words(c.member.name or "")
