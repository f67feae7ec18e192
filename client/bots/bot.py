"""The bot runner: a named strategy playing at a server, through the same
connection library as the terminal client (the server cannot tell them apart).

A bot creates tables or joins them, plays every game there to its end (as
game master it starts the next one, up to ``games``), and closes cleanly.
Reconnecting is the connection's job (``client.net.connection``): after a drop
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

from client.bots.arena import Entrant
from client.net.connection import Connection, ConnectionLost, ServerError, connect
from engine.actions import Action
from engine.strategies import Strategy
from engine.views import View, is_shedding
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


def won(view: View, seat: int) -> bool:
    """Whether ``seat`` won the finished game shown by ``view``: the highest score
    alone, or (when scores tie) first in the finishing order."""
    scores = list(view.get("scores") or [])
    if not scores:
        return False
    best = max(scores)
    top = [s for s, v in enumerate(scores) if v == best]
    if len(top) == 1:
        return top[0] == seat
    order = (view.get("finished") if is_shedding(view) else None) or []
    finished = [s for s in order if s in top]
    return bool(finished) and finished[0] == seat


async def run_bot(
    config: BotConfig, *, on_move: Callable[[str, str], None] | None = None
) -> BotReport:
    """Play as ``config`` says until every table's games are over; the report."""
    secret = config.secret or secrets.token_urlsafe(16)
    async with connect(
        config.host, config.port, name=config.name, secret=secret, reconnect=True
    ) as conn:
        run = _BotRun(config, conn, on_move)
        await run.sit_down()
        await run.play()
        run.report.reconnects = max(0, conn.connects - 1)
    return run.report


class _BotRun:
    """One bot's evening: the tables it created or joined, each game's strategy, the
    report. ``step`` looks at one table after each message and acts when it is its turn."""

    def __init__(
        self, config: BotConfig, conn: Connection, on_move: Callable[[str, str], None] | None
    ) -> None:
        self.config = config
        self.conn = conn
        self.on_move = on_move
        self.entrant = Entrant.parse(config.strategy)
        self.report = BotReport()
        self.tables: dict[str, _Table] = {}

    async def sit_down(self) -> None:
        """Create the tables asked for (seat 0 at each), join the others, and start the
        games the bot is master of."""
        config, conn = self.config, self.conn
        for _ in range(config.tables if config.create else 0):
            reply = await conn.request(
                m.CreateTable(
                    ruleset=str(config.create), seats=config.seats, options=config.options
                )
            )
            self.tables[reply.table] = _Table(reply.table, master=True)
            await conn.join(reply.table, 0)
        for table, seat in config.join:
            await conn.join(table, seat)
            self.tables[table] = _Table(table, master=False)
        for t in self.tables.values():
            if t.master and config.start:
                await patiently(partial(conn.request, m.StartGame(table=t.name)))
                t.games_started = 1

    async def play(self) -> None:
        """Until every table has played its games (or the connection ends)."""
        tables = self.tables
        for each in tables.values():
            await self.step(each)
        async for msg in self.conn.events():
            table = getattr(msg, "table", None)
            t = tables.get(table) if isinstance(table, str) else None
            if t is not None and isinstance(msg, m.TableEvent) and t.strategy is not None:
                observe = getattr(t.strategy, "observe", None)
                if observe is not None:
                    observe(dict(msg.event))
            for each in [t] if t is not None else list(tables.values()):
                await self.step(each)
            if tables and all(x.done for x in tables.values()):
                break

    async def step(self, t: _Table) -> None:
        ts = self.conn.state.tables.get(t.name)
        if ts is None or ts.seat is None or ts.view is None:
            return
        if ts.state == fields.TableState.PLAYING and not t.playing:
            self._begin(t, ts.view["family"])
        if ts.state == fields.TableState.OVER and t.playing:
            await self._finish(t, ts.view, ts.seat)
            return
        if not (t.playing and ts.my_turn and ts.stale == 0 and t.acted_seq != ts.seq):
            return
        assert t.strategy is not None and t.rng is not None
        legal = [Action.parse(a) for a in ts.legal]
        start = time.perf_counter()
        view = ts.view.copy()
        view["to_act"] = ts.to_act
        action = t.strategy.choose(view, legal, t.rng)
        self.report.move_seconds.append(time.perf_counter() - start)
        t.acted_seq = ts.seq
        await self.send_act(t, str(action))

    def _begin(self, t: _Table, family: str) -> None:
        """A game began: a fresh strategy, and a random source of its own."""
        t.playing = True
        t.strategy = self.entrant.make(family)
        t.rng = random.Random(f"{self.config.seed}:{t.name}:{t.games_done}")
        t.acted_seq = None

    async def _finish(self, t: _Table, view: View, seat: int) -> None:
        """A game ended: its result in the report, and the next game started if wanted."""
        config = self.config
        t.playing = False
        t.games_done += 1
        scores = list(view.get("scores") or [])
        finished = list((view.get("finished") if is_shedding(view) else None) or [])
        self.report.games.append(GameResult(t.name, seat, scores, finished, won(view, seat)))
        t.done = t.games_done >= config.games
        if t.master and config.start and not t.done:
            t.games_started += 1
            await patiently(partial(self.conn.request, m.StartGame(table=t.name)))

    async def send_act(self, t: _Table, action: str) -> None:
        def still_my_turn() -> bool:
            ts = self.conn.state.tables.get(t.name)
            return ts is not None and ts.my_turn and ts.seq == t.acted_seq

        report = self.report
        try:
            sent = await patiently(partial(self.conn.act, t.name, action), still_my_turn, report)
        except ServerError as exc:  # stale or illegal: the next snapshot or turn decides
            report.errors.append(f"{t.name}: {action}: {exc}")
        except ConnectionLost:
            t.acted_seq = None  # resumed: act again on the resumed state
        else:
            if sent and self.on_move is not None:
                self.on_move(t.name, action)
