"""The after-game analysis and the hint, worked out on the server for the people at a table.

Why here and not in each client: a phone cannot judge a hundred decisions, and everyone
at a table wants the same marks. So a finished game is analysed once
(``engine.analysis``, unchanged), the result is kept in the store (``AnalysisKept``)
and every later asker is sent it at once, at no cost.

The work runs where the bots think (``Thinker.work``), a chunk of decisions at a time,
each chunk waiting for its turn in the fair queue as one more owner (the asker's
address), in the background: a table where people wait for a bot's move goes first,
and does not wait for the chunks under way either (it takes a worker more while they
run), so the analyses fill the workers' idle time rather than the players' turns. Two
bounds keep it so: ``analysis_running`` analyses at once, server-wide (the next asker is
refused until one ends), and ``analysis_address_burst``/``analysis_address_per_hour``
analyses started by one address (a cached answer, or joining one under way, costs
nothing).

While one runs, its asker and everyone at the table are sent ``analysis_progress`` after
each chunk, then ``analysis``. A game still running is refused: its deal is secret.

A ``hint`` is the same judge for the decision open now (``engine.analysis.advise_at``),
given only to a seated person on his turn in a game against bots (at a table with other
people it would be an engine at one player's elbow), as urgent work, and within its own
per-address budget.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import trio

from engine.analysis import Decision, Settings, advise_at, as_json, decision_points, hint_text
from protocol import messages as m
from protocol.fields import RUNNING
from server.core import wire
from server.core.config import ServerConfig
from server.core.limits import AddressBudget
from server.store.base import AnalysisKept, Store, StoreError
from server.tables.thinking import Thinker, ThoughtFailed

if TYPE_CHECKING:
    from server.core.commands import Member
    from server.tables.table import Table

log = logging.getLogger("switchboard.analysis")

#: Decisions judged in one piece of work: enough to pay for replaying the record, few
#: enough that a worker is free again within seconds.
CHUNK = 6


class Refused(Exception):
    """An ask the desk will not take: ``code`` (a wire error code) and why."""

    def __init__(self, code: str, text: str) -> None:
        super().__init__(text)
        self.code = code


@dataclass(slots=True)
class Job:
    """One analysis under way: who asked (each told of its progress and its end)."""

    table: int
    game: int
    listeners: list[Member] = field(default_factory=list)
    done: int = 0
    total: int = 0


def judge_chunk(record: dict[str, Any], indexes: list[int], settings: Settings) -> list[Decision]:
    """A worker's piece: the decisions at ``indexes`` judged (``engine.analysis``)."""
    from engine.analysis import analyse

    return analyse(record, indexes, settings)


def hint_at(record: dict[str, Any], seat: int) -> Decision:
    """A worker's hint for ``seat`` of a running game (``engine.analysis.advise_at``)."""
    return advise_at(record, seat)


class AnalysisDesk:
    """The server's analyses under way, their bounds, and the hint's budget."""

    def __init__(
        self, config: ServerConfig, store: Store, thinker: Callable[[], Thinker | None]
    ) -> None:
        self.config = config
        self.store = store
        self._thinker = thinker
        self.running: dict[tuple[int, int], Job] = {}
        trusted = tuple(config.trusted_addresses)
        self.budget = AddressBudget(config.analysis_address_per_hour / 3600.0,
                                    config.analysis_address_burst, trusted)  # fmt: skip
        self.hints = AddressBudget(config.hint_address_per_minute / 60.0,
                                   config.hint_address_burst, trusted)  # fmt: skip
        self.started = 0  #: analyses started (work done), for tests and statistics
        self.settings = Settings(worlds=config.analysis_worlds)

    # ------------------------------------------------------------ analysis
    async def ask(
        self, member: Member, peer: str, table: Table, game: int | None, nursery: trio.Nursery
    ) -> m.Analysis | None:
        """An ask for the analysis of ``table``'s game ``game`` (None: its last): the
        ``analysis`` at once if it is kept, else None once the work is under way
        (``member`` is told of its progress); ``Refused`` if it cannot be."""
        number = table.game_no if game is None else game
        if table.game is None or not 1 <= number <= table.game_no:
            raise Refused("no_record", f"table {table.id} has no game {number}")
        kept = await self.store.analysis(table.id, number)
        if kept is not None:
            return m.Analysis(wire.table_word(table.id), number, json.loads(kept))
        if number != table.game_no:
            text = f"game {number} was not analysed; only the table's last game can be now"
            raise Refused("no_record", text)
        if table.state in RUNNING:
            raise Refused("bad_state", "the game is still running: analyse it once it is over")
        job = self.running.get((table.id, number))
        if job is not None:  # under way: one more listener, no more work
            if member not in job.listeners:
                job.listeners.append(member)
            return None
        self._admit(peer)
        record = dict(table.final_record(), names=list(table.players()))
        job = self.running[(table.id, number)] = Job(table.id, number, [member])
        self.started += 1
        nursery.start_soon(self._run, job, record, table, ("analysis", peer))
        return None

    def _admit(self, peer: str) -> None:
        """Refuse a new analysis over the server's cap or the address's budget."""
        cap = self.config.analysis_running
        if cap <= 0:
            raise Refused("not_allowed", "analysis is off on this server")
        if len(self.running) >= cap:
            text = f"the server is analysing {len(self.running)} games already; ask again soon"
            raise Refused("rate_limited", text)
        now = trio.current_time()
        if not self.budget.take(peer, now):
            wait = self.budget.wait_time(peer, now)
            text = f"too many analyses asked for from your address; wait {wait:.0f} s"
            raise Refused("rate_limited", text)

    async def _run(self, job: Job, record: dict[str, Any], table: Table, owner: Hashable) -> None:
        try:
            result = await self._judge(job, record, table, owner)
            await self.store.commit(AnalysisKept(job.table, job.game, json.dumps(result)))
        except (ThoughtFailed, StoreError) as exc:
            log.warning("analysis of table %s game %s failed: %s", job.table, job.game, exc)
            error = wire.error(None, "internal", "the analysis failed", job.table)
            self._tell(job, table, error)
            return
        finally:  # kept (or failed) before it stops counting: a next asker starts no work
            del self.running[(job.table, job.game)]
        self._tell(job, table, m.Analysis(wire.table_word(job.table), job.game, result))

    async def _judge(
        self, job: Job, record: dict[str, Any], table: Table, owner: Hashable
    ) -> dict[str, Any]:
        thinker = self._thinker()
        if thinker is None:
            raise ThoughtFailed("the server's thinking has stopped")
        points: list[int] = await thinker.work(
            decision_points, record, owner=owner, background=True
        )
        job.total = len(points)
        decisions: list[Decision] = []
        for start in range(0, len(points), CHUNK):
            chunk = points[start : start + CHUNK]
            decisions += await thinker.work(
                judge_chunk, record, chunk, self.settings, owner=owner, background=True
            )
            job.done = len(decisions)
            word = wire.table_word(job.table)
            self._tell(job, table, m.AnalysisProgress(word, job.game, job.done, job.total))
        return as_json(record, decisions, self.settings)

    @staticmethod
    def _tell(job: Job, table: Table, message: m.Message) -> None:
        """``message`` to the askers and everyone at the table, once each."""
        told: list[Member] = []
        for member in [*job.listeners, *table.members()]:
            if not any(member is t for t in told):
                told.append(member)
                member.deliver(message)

    # ------------------------------------------------------------ hints
    async def hint(self, member: Member, peer: str, table: Table) -> m.Hinted:
        """The advice for ``member``'s decision now at ``table``; ``Refused`` if none."""
        seat = table.seating.seat_of(member)
        game = table.game
        if seat is None:
            raise Refused("no_seat", "hint: only for a player, on his own turn")
        if _people_beside(table.players(), seat):  # whoever's turn it is: never here
            text = "hint: only in a game against bots (with people at the table it is cheating)"
            raise Refused("not_allowed", text)
        if game is None or table.state not in RUNNING or game.to_act != seat:
            raise Refused("bad_state", "hint: only on your turn")
        legal = [str(a) for a in game.legal_actions(seat)]
        word = wire.table_word(table.id)
        if len(legal) == 1:
            return m.Hinted(word, legal[0], text=f"hint: {legal[0]} (the only legal move)")
        now = trio.current_time()
        if not self.hints.take(peer, now):
            raise Refused("rate_limited", "too many hints asked for from your address")
        thinker = self._thinker()
        if thinker is None:
            raise Refused("shutdown", "the server is shutting down")
        try:
            decision: Decision = await thinker.work(
                hint_at, game.record(), seat, owner=("hint", peer), urgent=True
            )
        except ThoughtFailed as exc:
            raise Refused("internal", "the hint failed") from exc
        text = hint_text(decision, len(legal))
        return m.Hinted(word, decision.best, values=decision.values, exact=decision.exact,
                        text=text)  # fmt: skip


def _people_beside(players: Sequence[str | None], seat: int) -> bool:
    """Whether a person holds a seat other than ``seat`` (a bot's is ``bot:...``)."""
    return any(p and not p.startswith("bot:") for i, p in enumerate(players) if i != seat)
