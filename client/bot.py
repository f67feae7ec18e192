"""The bot runner: a named strategy playing at a server, through the same
connection library as the terminal client (the server cannot tell them apart).

A bot creates tables or joins them, plays every game there to its end (as
game master it starts the next one, up to ``games``), and closes cleanly.
Reconnecting is the connection's job (``client.connection``): after a drop
it resumes each seat with its token and the events missed arrive in order,
so the bot simply carries on from the state it is handed.

The strategy sees what a seat sees and nothing else: the view in the latest
snapshot and the events presented to its seat (passed to ``observe`` if the
strategy has it). A ``turn`` message carries the legal actions but not the
view, so when the board lags the events the connection fetches a fresh
snapshot and the bot acts once that has arrived.
"""

from __future__ import annotations

import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import trio

from client.arena import Entrant
from client.connection import ConnectionLost, ServerError, connect
from engine.actions import Action
from engine.strategies import Strategy
from protocol import fields
from protocol import messages as m

log = logging.getLogger(__name__)

#: Refusals that say nothing about the move, only about the moment: the same act is sent
#: again after a pause. Every other refusal (an illegal or stale act) waits for the next
#: turn or snapshot, which the server sends whenever the position changes.
RETRY_CODES = frozenset({"rate_limited", "internal"})
#: Pauses before each resend of a refused act; they outlast the server's flood penalty
#: (2 s by default) while sending far fewer requests than its drop threshold.
RETRY_PAUSES = (0.25, 0.5, 1.0, 2.0, 4.0)


@dataclass
class BotConfig:
    """What a bot does: where, as whom, with what, at which tables."""

    host: str = "127.0.0.1"
    port: int = 7373
    name: str = "bot"
    secret: str | None = None
    strategy: str = "heuristic"
    join: Sequence[tuple[str, int | None]] = ()
    create: str | None = None  # a ruleset to open tables of
    seats: int = 2
    options: dict[str, Any] = field(default_factory=dict)
    tables: int = 1
    games: int = 1  # games per table the bot starts (as master) and plays
    start: bool = True
    seed: int = 0


@dataclass
class GameResult:
    """One finished game as the bot saw it."""

    table: str
    seat: int
    scores: list[int]
    finished: list[int]
    won: bool


@dataclass
class BotReport:
    """What the bot did: its games and the time its strategy took a move."""

    games: list[GameResult] = field(default_factory=list)
    move_seconds: list[float] = field(default_factory=list)
    reconnects: int = 0
    errors: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "games": [vars(g) for g in self.games],
            "move_seconds": self.move_seconds,
            "reconnects": self.reconnects,
            "errors": self.errors,
        }


class _Table:
    """The bot's own bookkeeping at one table."""

    def __init__(self, name: str, master: bool) -> None:
        self.name = name
        self.master = master
        self.games_started = 0
        self.games_done = 0
        self.strategy: Strategy | None = None
        self.rng: random.Random | None = None
        self.acted_seq: int | None = None
        self.playing = False
        self.done = False


async def patiently(
    request: Callable[[], Awaitable[Any]],
    still_wanted: Callable[[], bool] = lambda: True,
    report: BotReport | None = None,
) -> bool:
    """Send ``request()``; while the server refuses it for the moment only
    (``RETRY_CODES``), pause and send it again, as long as ``still_wanted()``.

    True once it is accepted, False if it stopped being wanted; any other
    refusal, or the last one, raises ``ServerError``."""
    for pause in RETRY_PAUSES:
        try:
            await request()
            return True
        except ServerError as exc:
            if exc.code not in RETRY_CODES:
                raise
            if report is not None:
                report.errors.append(f"{exc} (sent again in {pause} s)")
        await trio.sleep(pause)
        if not still_wanted():
            return False
    await request()
    return True


def won(view: dict[str, Any], seat: int) -> bool:
    """Whether ``seat`` won the finished game shown by ``view``: the highest score
    alone, or (when scores tie) first in the finishing order."""
    scores = list(view.get("scores") or [])
    if not scores:
        return False
    best = max(scores)
    top = [s for s, v in enumerate(scores) if v == best]
    if len(top) == 1:
        return top[0] == seat
    finished = [s for s in view.get("finished") or [] if s in top]
    return bool(finished) and finished[0] == seat


async def run_bot(
    config: BotConfig, *, on_move: Callable[[str, str], None] | None = None
) -> BotReport:
    """Play as ``config`` says until every table's games are over; the report."""
    entrant = Entrant.parse(config.strategy)
    report = BotReport()
    secret = config.secret or secrets.token_urlsafe(16)
    tables: dict[str, _Table] = {}
    async with connect(
        config.host, config.port, name=config.name, secret=secret, reconnect=True
    ) as conn:
        for _ in range(config.tables if config.create else 0):
            reply = await conn.request(
                m.CreateTable(ruleset=config.create, seats=config.seats, options=config.options)
            )
            tables[reply.table] = _Table(reply.table, master=True)
            await conn.join(reply.table, 0)
        for table, seat in config.join:
            await conn.join(table, seat)
            tables[table] = _Table(table, master=False)
        for t in tables.values():
            if t.master and config.start:
                await patiently(partial(conn.request, m.StartGame(table=t.name)))
                t.games_started = 1

        async def step(t: _Table) -> None:
            ts = conn.state.tables.get(t.name)
            if ts is None or ts.seat is None or ts.view is None:
                return
            if ts.state == fields.TableState.PLAYING and not t.playing:
                t.playing = True
                family = ts.view.get("family")
                t.strategy = entrant.make(str(family))
                t.rng = random.Random(f"{config.seed}:{t.name}:{t.games_done}")
                t.acted_seq = None
            if ts.state == fields.TableState.OVER and t.playing:
                t.playing = False
                t.games_done += 1
                report.games.append(
                    GameResult(
                        t.name,
                        ts.seat,
                        list(ts.view.get("scores") or []),
                        list(ts.view.get("finished") or []),
                        won(ts.view, ts.seat),
                    )
                )
                t.done = t.games_done >= config.games
                if t.master and config.start and not t.done:
                    t.games_started += 1
                    await patiently(partial(conn.request, m.StartGame(table=t.name)))
                return
            if not (t.playing and ts.my_turn and ts.stale == 0 and t.acted_seq != ts.seq):
                return
            assert t.strategy is not None and t.rng is not None
            legal = [Action.parse(a) for a in ts.legal]
            start = time.perf_counter()
            action = t.strategy.choose(dict(ts.view, to_act=ts.to_act), legal, t.rng)
            report.move_seconds.append(time.perf_counter() - start)
            t.acted_seq = ts.seq
            await send_act(t, str(action))

        async def send_act(t: _Table, action: str) -> None:
            def still_my_turn() -> bool:
                ts = conn.state.tables.get(t.name)
                return ts is not None and ts.my_turn and ts.seq == t.acted_seq

            try:
                sent = await patiently(partial(conn.act, t.name, action), still_my_turn, report)
            except ServerError as exc:  # stale or illegal: the next snapshot or turn decides
                report.errors.append(f"{t.name}: {action}: {exc}")
            except ConnectionLost:
                t.acted_seq = None  # resumed: act again on the resumed state
            else:
                if sent and on_move is not None:
                    on_move(t.name, action)

        for t in tables.values():
            await step(t)
        async for msg in conn.events():
            table = getattr(msg, "table", None)
            t = tables.get(table) if table is not None else None
            if t is not None and isinstance(msg, m.TableEvent) and t.strategy is not None:
                observe = getattr(t.strategy, "observe", None)
                if observe is not None:
                    observe(dict(msg.event))
            for each in [t] if t is not None else list(tables.values()):
                await step(each)
            if tables and all(x.done for x in tables.values()):
                break
        report.reconnects = max(0, conn.connects - 1)
    return report
