"""The game master's powers, the turn clock and the prize, as hooks on the table's loop.

A table (``server.table.Table``) owns a ``MasterState`` and calls the hooks
here at a few points of its loop; everything the game master may do, and
everything timed beyond a bot's move, lives in this module so the table
actor stays one readable loop:

- ``intercept(table, command)``: the game master's commands (``server.commands.MasterCommand``:
  pause, resume, seat or unseat a bot or player, set options, set a prize,
  hand the role on, end the game, close the table); ``start`` while paused resumes, as in the
  ``003`` source ("to resume a paused game, type !start");
- ``deadline(table)`` / ``on_deadline(table)``: the turn countdown of the seat
  to act; when it runs out the seat gets an automatic move from the default
  strategy, which sees only that seat's view; two in a row mark it away;
- ``player_acted`` / ``after_action`` / ``on_start``: keep the clock and the
  away state up to date;
- ``restore`` / ``on_run``: bring a table rebuilt after a restart back as the
  master left it (see "Restarts" below);
- ``commit_end(table, writes, outcome)`` stores a game's end (or a table's close)
  with its prize paid or returned, in one transaction; ``settle_owed`` settles at
  start whatever an older version's crash left owed.

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
likewise a bot the master seats mid-game is shown the game so far.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import trio

import engine
from engine.events import Event
from engine.strategies import Strategy, default_strategy, get_strategy, strategies
from protocol.fields import RUNNING, TableState
from server.clock import AwayTracker, TurnClock
from server.commands import (
    CloseTable,
    EndGame,
    HandOver,
    MasterCommand,
    PauseGame,
    ResumeGame,
    SeatBot,
    SetOptions,
    SetPrize,
    Start,
    Unseat,
)
from server.ledger import ChipError, Ledger, winning_seats
from server.logfmt import log_event
from server.profiles import RATED, Profiles, rated_setting
from server.store import ABANDONED, FINISHED, ChipsMoved

if TYPE_CHECKING:
    from server.commands import Member
    from server.table import Table

log = logging.getLogger("switchboard.gamemaster")

PAUSED = TableState.PAUSED


@dataclass(slots=True)
class MasterState:
    """What a table keeps for its game master, its clock and its prize."""

    clock: TurnClock = field(default_factory=lambda: TurnClock(0))
    away: AwayTracker = field(default_factory=AwayTracker)
    bots: dict[int, str] = field(default_factory=dict)  #: seat -> strategy name (reserved)
    #: seat -> (its bot's name, "" for the default; the strategy playing it). One
    #: instance a seat, made when the game starts so that it sees every event its
    #: seat is shown (a strategy may remember what was played).
    strategies: dict[int, tuple[str, Strategy]] = field(default_factory=dict)
    ledger: Ledger | None = None
    profiles: Profiles | None = None  #: the server's ratings (``server.profiles``)
    counter: Any = None  #: the server's ``ops.ActionCounter`` (actions/s in stats)
    timeouts: int = 0  #: automatic moves made for players who ran out of time


# ------------------------------------------------------------------ helpers
def _error(table: Table, c: MasterCommand, code: str, text: str) -> None:
    from server import wire

    c.member.deliver(wire.error(c.req, code, text, table.id))


def _ok(table: Table, c: MasterCommand, text: str) -> None:
    from server import wire

    c.member.deliver(wire.ok(c.req, table.id, text))


def wire_notice(text: str) -> Any:
    from server import wire

    return wire.notice(text)


def _notice_all(table: Table, text: str) -> None:
    msg = wire_notice(text)
    for m in table.members():
        m.deliver(msg)


def is_master(table: Table, member: Member) -> bool:
    """Whether ``member`` may use the game master's commands at ``table``."""
    name = member.name
    return bool(getattr(member, "operator", False)) or (
        name is not None and table.master is not None and name == table.master
    )


def running(table: Table) -> bool:
    """A game is under way (playing or paused)."""
    return table.game is not None and table.state in RUNNING


def strategy_for(table: Table, seat: int) -> Strategy:
    """The strategy that plays ``seat`` when it has no player: the one the master seated
    there, else the family's default (also used for timeouts and away seats)."""
    gm = table.gm
    key = gm.bots.get(seat) or ""
    held = gm.strategies.get(seat)
    if held is None or held[0] != key:  # first use, or the master seated another bot
        strategy = _new_strategy(table, key)
        if held is not None and running(table):
            _brief(table, seat, strategy)  # a bot seated mid-game has seen nothing
        held = gm.strategies[seat] = (key, strategy)
    return held[1]


def _brief(table: Table, seat: int, strategy: Strategy) -> None:
    """Show a strategy seated mid-game every event of the game so far as ``seat`` was
    shown it, so it remembers what a player sitting there would. The table keeps only
    the last events, so the game is replayed from its record (milliseconds)."""
    show = getattr(strategy, "observe", None)
    if show is None or table.game is None:
        return

    def shown(events: list[Event]) -> None:
        for event in events:
            show(event.present(seat))

    engine.replay(table.game.record(), shown)


def _new_strategy(table: Table, name: str) -> Strategy:
    return get_strategy(name, table.family) if name else default_strategy(table.family)


def new_strategies(table: Table) -> None:
    """One fresh strategy a seat, made before the game's first events (a new game's,
    or a restored game's replay) so that each sees every event its seat is shown."""
    table.gm.strategies = {}
    for seat in range(len(table.seats)):
        strategy_for(table, seat)


def observe(table: Table, events: Sequence[Event]) -> None:
    """Show each seat's strategy the events as its seat sees them (``observe``),
    so a server bot remembers what a player at the table would."""
    for seat, (_key, strategy) in table.gm.strategies.items():
        show = getattr(strategy, "observe", None)
        if show is not None:
            for event in events:
                show(event.present(seat))


def bot_name(table: Table, seat: int) -> str:
    """How the lobby shows a bot-played seat: ``bot:STRATEGY``."""
    return f"bot:{strategy_for(table, seat).name}"


def reserved(table: Table, seat: int) -> bool:
    """Whether the master reserved ``seat`` for a bot (players cannot join it)."""
    return seat in table.gm.bots


def is_away(table: Table, seat: int) -> bool:
    return table.gm.away.is_away(seat)


def clock_left(table: Table) -> float | None:
    """Seconds left to the seat to act (None: no clock), for snapshots and turns."""
    if not running(table):
        return None
    left = table.gm.clock.remaining(trio.current_time())
    return None if left is None else round(left, 3)


def summary_extra(table: Table) -> dict[str, Any]:
    """What the game master adds to the lobby's summary of a table."""
    gm = table.gm
    prize = None if gm.ledger is None else gm.ledger.prize(table.id)
    return {
        "prize": 0 if prize is None else prize.amount,
        "away": sorted(gm.away.away),
        "turn_seconds": table.options.get("turn_seconds", engine.options.TURN_SECONDS.default),
        "ratings": gm.profiles.summary(table.family, table.players()) if gm.profiles else [],
        "rated": table.settings.get(RATED),  # None: rated when every seat is a person
    }


# -------------------------------------------------------------- the clock
def on_start(table: Table) -> None:
    """A new game has started: fresh strategies (before its first events), nobody
    away, a fresh clock."""
    assert table.game is not None
    table.gm.away.clear()
    new_strategies(table)
    _start_clock(table)


def _start_clock(table: Table) -> None:
    """A countdown with full time for the seat to act now."""
    assert table.game is not None
    gm = table.gm
    gm.clock = TurnClock(float(table.game.options.get("turn_seconds", 0) or 0))
    gm.clock.follow(table.game.to_act, trio.current_time())


def _away_write(table: Table, seat: int, away: bool) -> Any:
    from server.store import AwaySet

    return AwaySet(table.id, table.game_no, seat, away)


def back_writes(table: Table, seat: int) -> list[Any]:
    """The store write that says ``seat`` is no longer away, if it is (else none).

    For the table's own seat changes (a join, a leave): commit them with the seat's
    change, then call ``back``."""
    return [_away_write(table, seat, False)] if is_away(table, seat) else []


def back(table: Table, seat: int) -> None:
    """``seat`` is no longer away (its store write is committed: ``back_writes``)."""
    if table.gm.away.acted(seat):
        log_event(log, "table.back", table=table.id, seat=seat)


async def player_acted(table: Table, seat: int) -> None:
    """A seat's player sent an action himself (accepted or not): he is back."""
    writes = back_writes(table, seat)
    if writes:
        await table.commit(*writes)
    back(table, seat)


def after_action(table: Table, seat: int) -> None:
    """An action by ``seat`` was applied: bring the countdown up to date."""
    if table.gm.counter is not None:
        table.gm.counter.total += 1
    if table.game is not None:
        table.gm.clock.follow(table.game.to_act, trio.current_time(), actor=seat)


def deadline(table: Table) -> float:
    """When the countdown of a player to act runs out (inf: nothing to wait for)."""
    if table.state != TableState.PLAYING or table.game is None:
        return float("inf")
    seat = table.game.to_act
    if seat is None or table.seats[seat].name is None or is_away(table, seat):
        return float("inf")  # a bot's seat: the table's own bot deadline covers it
    d = table.gm.clock.deadline
    return float("inf") if d is None else d


async def on_deadline(table: Table) -> None:
    """The player to act ran out of time: an automatic move; twice in a row, away."""
    if table.state != TableState.PLAYING or table.game is None:
        return
    gm = table.gm
    seat = table.game.to_act
    if seat is None or not gm.clock.expired(trio.current_time()) or seat != gm.clock.seat:
        return
    gm.timeouts += 1
    now_away = gm.away.timed_out(seat)
    name = table.seats[seat].name
    log_event(log, "table.timeout", table=table.id, seat=seat, name=name, away=now_away)
    if now_away:
        await table.commit(_away_write(table, seat, True))  # away survives a restart
        _notice_all(
            table, f"{name} is away at table {table.id}: seat {seat} plays by itself until they act"
        )
        member = table.seats[seat].member
        if member is not None:
            member.deliver(wire_notice(f"you are away at table {table.id}: act to come back"))
    before = table.game.actions_taken
    await table._bot_move(seat)
    last = table.game.last_action if table.game is not None else None
    if last is not None and table.game is not None and table.game.actions_taken > before:
        # The clock speaks: nobody should read a move he did not make as his own.
        _notice_all(
            table, f"time's up at table {table.id}: the clock made {name}'s move: {last[1]}"
        )


# ----------------------------------------------------------------- prizes
def winners(table: Table) -> list[str | None]:
    """The names on the winning seats of the finished game (None: a bot's seat)."""
    assert table.game is not None
    seats = getattr(table.game, "winners", None)
    if not isinstance(seats, list | tuple) or not seats:
        seats = winning_seats(list(table.game.scores))
    return [None if reserved(table, s) else table.seats[s].name for s in seats]


async def commit_end(table: Table, writes: list[Any], outcome: str | None) -> ChipsMoved | None:
    """Commit ``writes`` (a game's end, a table's close) with what they do to the prize,
    as one transaction: a finished game's prize paid to its winners, an abandoned
    game's returned (``outcome`` ABANDONED), or, when the table closes (None), whatever
    is held returned. The move made, if any (for ``announce``). A finished game's
    result and ratings (``server.profiles``) are in the same transaction."""
    if table.gm.profiles is None:
        return await _commit_end(table, writes, outcome)
    async with table.gm.profiles.ending(table, outcome) as rated:
        return await _commit_end(table, [*writes, *rated], outcome)


async def _commit_end(table: Table, writes: list[Any], outcome: str | None) -> ChipsMoved | None:
    ledger = table.gm.ledger
    if ledger is None:
        await table.commit(*writes)
        return None
    game = table.game_no
    if outcome == FINISHED:
        who = winners(table)
        return await ledger.commit(lambda: ledger.payout(table.id, game, who), *writes,
                                   commit=table.commit)  # fmt: skip
    number = game if outcome == ABANDONED else None
    return await ledger.commit(lambda: ledger.refund(table.id, number), *writes,
                               commit=table.commit)  # fmt: skip


def announce(table: Table, txn: ChipsMoved | None) -> None:
    """Tell the table (and the log) where a prize went, once it is durable."""
    if txn is None:
        return
    gains = {a: d for a, d in txn.postings if not a.startswith("@") and d > 0}
    if txn.reason == "prize won":
        log_event(log, "table.prize_paid", table=table.id, game=txn.game, shares=gains)
        text = ", ".join(f"{who} {chips}" for who, chips in gains.items())
        _notice_all(table, f"prize paid: {text}")
    else:
        amount = sum(gains.values())
        log_event(log, "table.prize_returned", table=table.id, game=txn.game, chips=amount)
        _notice_all(table, f"the prize of {amount} chips went back to the game master")


async def settle_owed(table: Table) -> None:
    """At start: settle a prize a crash left held for a game that had ended.

    Only a prize held for the table's last game is settled, and as that game's stored
    end says (finished: paid; abandoned: returned); a prize for a game not yet
    started waits for it. (Since a game's end and its payout are one transaction this
    finds nothing on data this version wrote.) A prize kept by an older version
    names no game: it is for the running game, or, if none runs, for the next one, so
    a restart never pays a finished game with a prize set after it ended."""
    ledger = table.gm.ledger
    if ledger is None:
        return
    prize = ledger.prize(table.id)
    if prize is None:
        return
    if prize.game is None:
        ledger.place(table.id, table.game_no if running(table) else table.game_no + 1)
        prize = ledger.prize(table.id)
        assert prize is not None
    if table.game is None or table.state != TableState.OVER or prize.game != table.game_no:
        return
    announce(table, await commit_end(table, [], table.outcome))


def restore(table: Table, paused: bool, away: set[int]) -> None:
    """What ``Table.restore`` calls after the replay (the bots were set before it,
    by ``reserve``): an unfinished game's pause and away seats."""
    if running(table):
        if paused:
            table.state = PAUSED
        table.gm.away.away = set(away)


def reserve(table: Table, bots: dict[int, str]) -> None:
    """A restored table's bot reservations: before the replay, so that each seat's
    strategy (``new_strategies``) is the one the master chose. A strategy this
    version no longer has (after an upgrade) keeps the seat reserved for the default
    one: the table comes back rather than failing to restore."""
    known = strategies(table.family)
    table.gm.bots = {}
    for seat, name in bots.items():
        if name not in known:
            log.warning("table %s seat %s: no strategy %r now; the default plays it",
                        table.id, seat, name)  # fmt: skip
            name = default_strategy(table.family).name
        table.gm.bots[seat] = name


async def on_run(table: Table) -> None:
    """The table's task started (new, or rebuilt after a restart).

    A rebuilt game's turn starts with full time (nobody knows how long the
    server was down); a paused one keeps that full time until it is resumed."""
    if running(table):
        if not table.gm.strategies:  # restored without a replay (cannot happen today)
            new_strategies(table)
        _start_clock(table)
        if table.state == PAUSED:
            table.gm.clock.pause(trio.current_time())
    await settle_owed(table)


# --------------------------------------------------------------- commands
async def intercept(table: Table, command: object) -> bool:
    """Handle ``command`` if it is the game master's; True if it was handled here."""
    if isinstance(command, Start) and table.state == PAUSED:
        c: MasterCommand = ResumeGame(command.member, command.req)
    elif isinstance(command, MasterCommand):
        c = command
    else:
        return False
    if not is_master(table, c.member):
        who = table.master or "nobody"
        _error(table, c, "not_master", f"only the game master ({who}) may {c.verb}")
        return True
    log_event(log, "table.master", table=table.id, verb=c.verb, by=c.member.name)
    await _HANDLERS[type(c)](table, c)  # type: ignore[operator]
    return True


async def _pause(table: Table, c: PauseGame) -> None:
    if table.state != TableState.PLAYING:
        _error(table, c, "bad_state", f"the table is {table.state}: nothing to pause")
        return
    await _commit_pause(table, True)
    table.state = PAUSED
    table.gm.clock.pause(trio.current_time())
    _ok(table, c, "paused")
    _notice_all(table, f"{c.member.name} paused the game")
    table._send_snapshots()


async def _resume(table: Table, c: ResumeGame) -> None:
    if table.state != PAUSED:
        _error(table, c, "bad_state", f"the table is {table.state}, not paused")
        return
    await _commit_pause(table, False)
    table.state = TableState.PLAYING
    table.gm.clock.resume(trio.current_time())
    table._changed_at = trio.current_time()
    _ok(table, c, "resumed")
    _notice_all(table, f"{c.member.name} resumed the game")
    table._send_snapshots()


async def _commit_pause(table: Table, paused: bool) -> None:
    from server.store import PauseSet

    await table.commit(PauseSet(table.id, table.game_no, paused))


async def _commit_bot(table: Table, seat: int, strategy: str | None) -> None:
    from server.store import BotReserved

    await table.commit(BotReserved(table.id, seat, strategy))


def _seat_arg(table: Table, c: SeatBot | Unseat) -> int | None:
    seat = c.seat
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(table.seats):
        _error(table, c, "no_seat", f"there is no seat {seat!r}")
        return None
    return seat


async def _seat_bot(table: Table, c: SeatBot) -> None:
    seat = _seat_arg(table, c)
    if seat is None:
        return
    if table.seats[seat].name is not None:
        _error(table, c, "seat_taken", f"{table.seats[seat].name} holds seat {seat}; unseat first")
        return
    name = c.strategy
    if name is not None:
        known = strategies(table.family)
        if name not in known:
            _error(table, c, "bad_options", f"no strategy {name!r}; known: {', '.join(known)}")
            return
    else:
        name = default_strategy(table.family).name
    await _commit_bot(table, seat, name)
    table.gm.bots[seat] = name
    _ok(table, c, f"seat {seat}: bot {name}")
    table._send_snapshots()


async def _unseat(table: Table, c: Unseat) -> None:
    from server.store import SeatSet
    from server.table import Seat

    seat = _seat_arg(table, c)
    if seat is None:
        return
    holder = table.seats[seat]
    if seat in table.gm.bots:  # a reserved seat never holds a player (join refuses it)
        await _commit_bot(table, seat, None)
        del table.gm.bots[seat]
        if holder.name is None:
            _ok(table, c, f"seat {seat} is free")
            table._send_snapshots()
            return
    if holder.name is None:
        _error(table, c, "no_seat", f"seat {seat} is already empty")
        return
    await table.commit(SeatSet(table.id, seat, None, None), *back_writes(table, seat))
    from server import wire

    if holder.member is not None:
        holder.member.deliver(wire.notice(f"the game master unseated you from table {table.id}"))
        table.spectators.add(holder.member)  # he may keep watching
    table.seats[seat] = Seat()
    back(table, seat)
    table._changed_at = trio.current_time()
    _ok(table, c, f"{holder.name} unseated from seat {seat}")
    table._send_snapshots()


async def _set_options(table: Table, c: SetOptions) -> None:
    from server.store import OptionsSet

    if running(table):
        _error(table, c, "bad_state", "options change only while no game runs")
        return
    given = c.options
    if not isinstance(given, dict):
        _error(table, c, "bad_options", "options must be a map of name to value")
        return
    options = {**table.options, **given}
    settings = dict(table.settings)
    if "start_when_full" in options:
        swf = options.pop("start_when_full")
        if not isinstance(swf, bool):
            _error(table, c, "bad_options", "option 'start_when_full': true or false")
            return
        settings["start_when_full"] = swf
    try:
        if (rated := rated_setting(options)) is not None:
            settings[RATED] = rated
    except ValueError as exc:
        _error(table, c, "bad_options", str(exc))
        return
    try:
        engine.new_game(table.ruleset, len(table.seats), 0, options)
    except engine.OptionError as exc:
        _error(table, c, "bad_options", str(exc))
        return
    await table.commit(OptionsSet(table.id, options, settings))
    table.options, table.settings = options, settings
    _ok(table, c, "options set")
    table._send_snapshots()


async def _set_prize(table: Table, c: SetPrize) -> None:
    ledger = table.gm.ledger
    if ledger is None:
        _error(table, c, "bad_state", "this server keeps no chips")
        return
    if running(table):
        _error(table, c, "bad_state", "a prize is set before the game starts")
        return
    funder = c.member.name
    if funder is None:
        _error(table, c, "need_name", "claim a name first")
        return
    await ledger.commit(lambda: ledger.welcome(funder), commit=table.commit)  # an old name
    game = table.game_no + 1  # for the next game: none runs now
    chips = c.chips
    try:
        await ledger.commit(lambda: ledger.prize_change(table.id, game, funder, chips),
                            commit=table.commit)  # fmt: skip
    except ChipError as exc:
        _error(table, c, "no_chips", str(exc))
        return
    prize = ledger.prize(table.id)
    amount = 0 if prize is None else prize.amount
    _ok(table, c, f"prize {amount}; your balance {ledger.balance(funder)}")
    _notice_all(table, f"{funder} put up a prize of {amount} chips" if amount else "no prize")
    table._send_snapshots()


async def _hand_over(table: Table, c: HandOver) -> None:
    from server.store import MasterSet

    target = c.name
    present = {m.name for m in table.members() if m.name is not None}
    present.update(s.name for s in table.seats if s.name is not None)
    match = next(
        (n for n in present if isinstance(target, str) and n.lower() == target.lower()), None
    )
    if match is None:
        _error(table, c, "bad_name", f"{target!r} is not at this table")
        return
    await table.commit(MasterSet(table.id, match))
    table.master = match
    _ok(table, c, f"{match} is the game master")
    _notice_all(table, f"{match} is now the game master")
    table._send_snapshots()


async def _end_game(table: Table, c: EndGame) -> None:
    if not running(table):
        _error(table, c, "bad_state", f"the table is {table.state}: no game to end")
        return
    # so the table's abandon sees a running game
    before, table.state = table.state, TableState.PLAYING
    try:
        await table._abandon()  # stored as abandoned, its prize returned, in one transaction
    finally:
        if table.state == TableState.PLAYING:  # the store refused it: as it was
            table.state = before
    table.gm.clock.stop()
    _ok(table, c, "game ended")
    _notice_all(table, f"{c.member.name} ended the game")
    table._send_snapshots()


async def _close_table(table: Table, c: CloseTable) -> None:
    """Close the table for good: a running game is abandoned (its prize goes back), and
    everyone at it is told why."""
    reason = c.reason.strip()
    why = f"{c.member.name} closed it" + (f": {reason}" if reason else "")
    await table.close(why)
    _ok(table, c, "closed")


_HANDLERS = {
    PauseGame: _pause,
    ResumeGame: _resume,
    SeatBot: _seat_bot,
    Unseat: _unseat,
    SetOptions: _set_options,
    SetPrize: _set_prize,
    HandOver: _hand_over,
    EndGame: _end_game,
    CloseTable: _close_table,
}
