"""Where server bots think: a bounded pool of worker processes, or threads of the server.

Why processes. A search bot thinks for tens of milliseconds to most of a second a move,
in pure Python. In a thread of the server it holds the GIL while it thinks, so every
other table (and every person's act) waits behind it. In a worker process
(trio-parallel, the maintained trio way) it costs the server only the pickling of what
a thought needs, a few kilobytes.

What a thought needs. A strategy chooses from its seat's view, the legal actions and
the table's random generator; it also remembers what its seat was shown (the game
master briefs it with events, ``observe``), and that memory lives in the strategy
object. So a worker is sent the strategy (its parameters and memory, pickled), the view,
the legal actions and the generator, and sends back the action and the generator's new
state. The table keeps its own strategy object, which goes on observing; the worker's
copy is dropped, so each move's search starts from the strategy's memory alone, except
abbott's endgame solver table, which travels as its name and is found again in a worker
that thought for the same bot before (``SolverTable``: its work only speeds a solve up,
though a solve that would stop at its node limit may then finish). The
table's generator moves exactly as if the strategy had chosen in the server, so a seed
plays the same game either way (a test checks it).

- **Bounded**: at most ``bot_workers`` thoughts at once, one process each; the others
  wait their turn, which is where a busy server's bots slow down, not its tables.
- **Fair**: the turns go round the *owners* (``FairQueue``): a table's owner is the
  address its creator created it from (a house table, or one restored, owns itself),
  and a freed worker goes to the waiting owner served longest ago, first come first
  served among one owner's tables. So however many tables of search bots one address
  (or four) keeps thinking, another table's thought waits for the thoughts under way
  and at most one more of each owner who has waited longer, never for their queues. And
  a table where someone is (a seated player connected, or a watcher) goes before tables
  of bots alone, which nobody waits for. A table's owner and whether someone is there
  are ``OWNER`` and ``PEOPLE``, context variables the lobby sets in the table's task.
- **Lazy**: no process starts until a search bot first thinks; an idle worker exits
  after ``IDLE_SECONDS``.
- **Behind the tables**: a worker lowers its own scheduling priority (``NICENESS``), so
  on a busy machine the server's tables, where people wait for their replies, come first.
- **Cancelled**: a thought whose table closes, freezes for a shutdown or moves on is
  cancelled at once; its worker is killed and reaped (the next thought starts another).
- **Limited**: a thought that has had its worker for ``bot_think_seconds`` is cancelled
  (its worker killed) as a failed one: a strategy stuck in a loop never holds its table.
- **Failing**: a worker that dies, or a strategy that raises, is a ``ThoughtFailed``;
  the bot then plays ``fallback`` (the family's fast heuristic). It is logged once,
  then at most once a minute with the count since.
- **Shut down with the server**: ``open_thinker`` closes the pool when the server's
  tables have stopped.

``bot_thinking = "threads"`` keeps thinking in the server, in threads (the way before
the pool, for a tiny machine or a test): uncancellable, so a close or shutdown waits
for the thought under way (one move's thinking at most).
"""

from __future__ import annotations

import contextlib
import contextvars
import logging
import math
import os
import random
from collections import deque
from collections.abc import AsyncIterator, Callable, Hashable, Sequence
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any

import trio
import trio_parallel

from engine.actions import Action
from engine.strategies import Strategy, default_strategy
from engine.views import View
from server.core.config import ServerConfig
from server.core.logfmt import IntervalLog, log_event

log = logging.getLogger("switchboard.thinking")

PROCESSES, THREADS = "processes", "threads"
#: An idle worker process exits after this long (the next thought starts another).
IDLE_SECONDS = 600.0
#: How much a worker lowers its scheduling priority (``os.nice``): behind the tables.
NICENESS = 5
#: On shutdown, how long idle workers get to exit before they are killed.
GRACE_SECONDS = 5.0


#: Whose thoughts a task's thoughts are (``FairQueue``): the lobby sets it in each table's
#: task; a thought from a task that set none is everyone's (one shared owner).
OWNER: contextvars.ContextVar[Hashable] = contextvars.ContextVar("thinking_owner", default=None)
#: Whether someone is at the calling task's table now (its thoughts then go first); the
#: lobby sets it beside ``OWNER``. None: nobody is known to be.
PEOPLE: contextvars.ContextVar[Callable[[], bool] | None] = contextvars.ContextVar(
    "thinking_people", default=None
)


class FairQueue:
    """``slots`` places, given round the owners who wait for one.

    Why not ``trio.CapacityLimiter``: it serves waiters first come, first served, so
    an owner who queues thirty thoughts makes everyone behind him wait for all thirty.
    Here a freed place goes to the waiting owner who was last given one longest ago
    (an owner never given one first of all; among those, the first to wait), his
    oldest waiter taking it. So a newcomer waits for the places in use to free, and
    then for at most one place given to each owner who has waited longer since his
    own last one: never for another owner's queue. Waiters marked ``urgent`` (a table
    where people wait for the move) go before all others, in the same order among
    themselves.

    Work marked ``background`` (an after-game analysis's chunks) holds a place like any
    other against the waiters that are not urgent, but an urgent waiter does not count
    it: he waits only for the places held by other work, and takes one more when every
    place is held in the background (a worker process more, while the background holds
    its places). So a person waiting for his bot's move never waits for an analysis's
    chunk, whose seconds would be his; at most ``2 * slots`` places are in use then.

    A waiter cancelled while it waits leaves the line.
    """

    def __init__(self, slots: int) -> None:
        if slots < 1:
            raise ValueError("a fair queue needs at least one place")
        self.slots = slots
        self._held = 0  #: places held, in the foreground and the background
        self._background = 0  #: of those, held by background work
        #: owner -> his waiters (each: its event, urgent, background), oldest first; the
        #: dict's order: who waited first
        self._waiting: dict[Hashable, deque[tuple[trio.Event, bool, bool]]] = {}
        #: owner -> when he was last given a place (a count of places given); kept for
        #: owners waiting and the latest ``MEMORY`` others, so it stays bounded
        self._last: dict[Hashable, int] = {}
        self._given = 0

    #: Owners remembered beside those waiting (the least recently served forgotten first).
    MEMORY = 10_000

    def statistics(self) -> dict[str, int]:
        """Places in use, and waiters and owners waiting."""
        return {
            "borrowed": self._held,
            "waiting": sum(len(line) for line in self._waiting.values()),
            "owners_waiting": len(self._waiting),
        }

    @contextlib.asynccontextmanager
    async def place(
        self, owner: Hashable, urgent: bool = False, background: bool = False
    ) -> AsyncIterator[None]:
        """Hold one place for the block (waiting for ``owner``'s turn first)."""
        await self.acquire(owner, urgent, background)
        try:
            yield
        finally:
            self.release(background)

    def _room(self, urgent: bool) -> bool:
        """Whether a place is open to a waiter: to an urgent one, any but those held in
        the foreground."""
        held = self._held - self._background if urgent else self._held
        return held < self.slots

    async def acquire(
        self, owner: Hashable, urgent: bool = False, background: bool = False
    ) -> None:
        """Wait for ``owner``'s turn at a place, and take it."""
        ahead = any(u for line in self._waiting.values() for _r, u, _b in line)
        if self._room(urgent) and not (ahead if urgent else self._waiting):
            self._take(owner, background)
            await trio.lowlevel.checkpoint()
            return
        ready = trio.Event()
        entry = (ready, urgent, background)
        self._waiting.setdefault(owner, deque()).append(entry)
        try:
            await ready.wait()
        except BaseException:
            if ready.is_set():  # given a place it will not take: pass it on
                self.release(background)
            else:
                line = self._waiting[owner]
                line.remove(entry)
                if not line:
                    del self._waiting[owner]
            raise

    def release(self, background: bool = False) -> None:
        """Give a place back, then give places to the waiters whose turn it is while
        there is room for them."""
        self._held -= 1
        self._background -= background
        while self._waiting:
            last = self._last
            urgent = [o for o, line in self._waiting.items() if any(e[1] for e in line)]
            if not self._room(bool(urgent)):
                return
            owner = min(urgent or self._waiting, key=lambda o: last.get(o, -1))  # first come
            line = self._waiting[owner]
            entry = next(e for e in line if e[1]) if urgent else line[0]
            line.remove(entry)
            if not line:
                del self._waiting[owner]
            self._take(owner, entry[2])
            entry[0].set()

    def _take(self, owner: Hashable, background: bool) -> None:
        self._held += 1
        self._background += background
        self._given += 1
        self._last.pop(owner, None)
        self._last[owner] = self._given  # last in the dict: the most recently served
        if len(self._last) > self.MEMORY + len(self._waiting):
            for old in list(self._last)[: len(self._last) - self.MEMORY]:
                if old not in self._waiting:
                    del self._last[old]


class ThoughtFailed(Exception):
    """A bot's thought gave no action: its worker died, or the strategy raised."""


def pool_size(workers: int, cores: int | None = None) -> int:
    """Worker processes for ``bot_workers = workers``: 0 means one fewer than the
    cores this process may run on, at least one (the rest is the server's).

    >>> pool_size(3), pool_size(0, cores=8), pool_size(0, cores=2), pool_size(0, cores=1)
    (3, 7, 1, 1)
    """
    if workers > 0:
        return workers
    if cores is None:
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
        cores = cores or os.cpu_count() or 1
    return max(1, cores - 1)


def think(
    strategy: Strategy, view: View, legal: Sequence[Action], rng: random.Random
) -> tuple[Action, Any]:
    """One thought, in a worker: the action, and the generator's state after it."""
    action = strategy.choose(view, legal, rng)
    return action, rng.getstate()


def _worker_init() -> None:
    """Run once in each new worker: behind the server's tables for the CPU."""
    with contextlib.suppress(AttributeError, OSError):  # no nice (Windows): as it is
        os.nice(NICENESS)


def fallback(family: str, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
    """The move of a bot whose thought failed: the family's default strategy (a fast
    heuristic, milliseconds), else the first legal action."""
    strategy = default_strategy(family)
    if not getattr(strategy, "slow", False):
        try:
            return strategy.choose(view, legal, rng)
        except Exception:
            log.exception("the fallback strategy failed too; the first legal action is played")
    return legal[0]


class Thinker:
    """Where slow strategies choose: ``choose`` is the one call a table makes.

    Build with ``open_thinker(config)`` (a server's) or ``Thinker(THREADS)`` (a table
    on its own, in a test)."""

    def __init__(self, mode: str = THREADS, workers: int = 1, think_seconds: float = 0) -> None:
        if mode not in (PROCESSES, THREADS):
            raise ValueError(f"bot_thinking must be {PROCESSES!r} or {THREADS!r}, not {mode!r}")
        self.mode = mode
        self.workers = pool_size(workers)
        self.think_seconds = think_seconds  #: a process thought's limit (0: none)
        self._unbounded = trio.CapacityLimiter(math.inf)  #: ours (``_queue``) bounds them
        self.thoughts = 0  #: thoughts finished (with an action)
        self.failures = 0  #: thoughts that failed (``ThoughtFailed``)
        self._queue: FairQueue | None = None  #: made with the context
        self._context: Any = None  #: the trio-parallel worker context, once opened
        self._stack = AsyncExitStack()
        self._closed = False
        self._failed_log = IntervalLog(60.0, self._log_failures)
        self._last_error = ""

    async def choose(
        self,
        family: str,
        strategy: Strategy,
        view: View,
        legal: Sequence[Action],
        rng: random.Random,
        *,
        owner: Hashable = None,
    ) -> Action:
        """``strategy``'s choice, thought away from the event loop; ``rng`` moves as if
        it had chosen here. A thought that fails (``ThoughtFailed``: the worker died,
        the strategy raised) gives the ``fallback`` of ``family`` instead. Cancellable:
        a process thought's worker is killed. It waits for a worker in ``owner``'s turn
        (by default the calling task's ``OWNER``; first if its ``PEOPLE`` says so)."""
        if owner is None:
            owner = OWNER.get()
        people = PEOPLE.get()
        try:
            return await self._choose(strategy, view, legal, rng, owner, people)
        except ThoughtFailed:
            return fallback(family, view, legal, rng)

    async def _choose(
        self,
        strategy: Strategy,
        view: View,
        legal: Sequence[Action],
        rng: random.Random,
        owner: Hashable = None,
        people: Callable[[], bool] | None = None,
    ) -> Action:
        """``choose`` without the fallback: ``ThoughtFailed`` if no action came."""
        try:
            if self.mode == THREADS:
                action = await trio.to_thread.run_sync(strategy.choose, view, legal, rng)
            else:
                context, queue = await self._open()
                urgent = people is not None and people()
                async with queue.place(owner, urgent):  # a worker is ours: the limit starts
                    if context.statistics().idle_workers == 0:  # start one, outside the limit
                        await context.run_sync(bool, kill_on_cancel=True, limiter=self._unbounded)
                    with trio.move_on_after(self.think_seconds or math.inf) as late:
                        action, state = await context.run_sync(
                            think, strategy, view, legal, rng, kill_on_cancel=True,
                            limiter=self._unbounded,
                        )  # fmt: skip
                if late.cancelled_caught:  # its worker was killed
                    raise TimeoutError(f"no move within {self.think_seconds:g} s")
                rng.setstate(state)
        except Exception as exc:
            self.failures += 1
            self._last_error = f"{type(exc).__name__}: {exc}"
            self._failed_log.event(trio.current_time())
            raise ThoughtFailed(self._last_error) from exc
        self.thoughts += 1
        return action

    async def work(
        self,
        fn: Callable[..., Any],
        *args: Any,
        owner: Hashable,
        urgent: bool = False,
        background: bool = False,
    ) -> Any:
        """``fn(*args)`` (picklable, pure) run where bots think, in ``owner``'s turn of the
        fair queue (``urgent``: before tables nobody waits at; ``background``: never in the
        way of those, ``FairQueue``): the after-game analysis's chunks and a player's hint.
        Cancellable (a process's worker is killed); no time limit; an exception in ``fn``,
        or a dead worker, comes out as ``ThoughtFailed``."""
        try:
            if self.mode == THREADS:
                return await trio.to_thread.run_sync(fn, *args)
            context, queue = await self._open()
            async with queue.place(owner, urgent, background):
                return await context.run_sync(
                    fn, *args, kill_on_cancel=True, limiter=self._unbounded
                )
        except Exception as exc:
            raise ThoughtFailed(f"{type(exc).__name__}: {exc}") from exc

    async def _open(self) -> tuple[Any, FairQueue]:
        """The worker context and its bound, made at the first thought (the context
        starts each process when a thought first needs it)."""
        if self._closed:
            raise ThoughtFailed("the server is shutting down")
        if self._context is None or self._queue is None:
            self._queue = FairQueue(self.workers)
            self._context = await self._stack.enter_async_context(
                trio_parallel.open_worker_context(
                    idle_timeout=IDLE_SECONDS, init=_worker_init, grace_period=GRACE_SECONDS
                )
            )
        return self._context, self._queue

    def statistics(self) -> dict[str, int]:
        """Worker processes alive (idle or thinking), and thoughts so far."""
        stats = None if self._context is None else self._context.statistics()
        alive = 0 if stats is None else stats.idle_workers + stats.running_workers
        return {"workers": alive, "thoughts": self.thoughts, "failures": self.failures}

    async def aclose(self) -> None:
        """Stop the workers (the tables have stopped: no thought is under way)."""
        self._closed = True
        with trio.CancelScope(shield=True):
            try:
                await self._stack.aclose()
            except trio_parallel.BrokenWorkerError as exc:  # killed after the grace
                log_event(log, "bot.workers_killed", logging.WARNING, error=str(exc))

    def _log_failures(self, count: int) -> None:
        log_event(log, "bot.thought_failed", logging.WARNING, count=count, mode=self.mode,
                  error=self._last_error, then="the bot played its fallback")  # fmt: skip


@asynccontextmanager
async def open_thinker(config: ServerConfig) -> AsyncIterator[Thinker]:
    """The server's thinker, per ``bot_thinking`` and ``bot_workers``; its workers stop
    when the block ends."""
    thinker = Thinker(config.bot_thinking, config.bot_workers, config.bot_think_seconds)
    try:
        yield thinker
    finally:
        await thinker.aclose()


#: The thinker of a table that runs outside a server (a test's): threads, as before.
IN_THREADS = Thinker(THREADS)
