"""Search bots think in worker processes (``server.tables.thinking``), over a real server.

A game of search bots plays to its end through the pool; a thought is cancelled
(its worker killed) when the table closes, the game master ends or pauses the game,
or the server shuts down; a worker that crashes makes the bot play its fallback and
is logged once; a server with no search bot starts no process, and one that had
workers leaves none behind. The worker is a real child process each time; the
strategies below are small budgets or test doubles, so each test takes a second or
two (most of it a worker's start).
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import random
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
import trio
from e2e_client import TEST_CONFIG, Client, serving_server
from thinking_doubles import Crasher, Sleeper

import engine
import engine.strategies
from engine.strategies import get_strategy, register_strategy
from engine.strategies.shedding import SheddingSearch
from protocol import messages as m
from server.app import Server
from server.core.commands import Close
from server.core.config import ServerConfig
from server.store.base import MemoryStore
from server.tables import thinking
from server.tables.table import CLOSED, Table
from server.tables.thinking import PROCESSES, THREADS, Thinker

RULESET = "switch"  #: a shedding preset
FAMILY = engine.ruleset(RULESET).family
POOL = TEST_CONFIG.replace(bot_thinking=PROCESSES, bot_workers=1, close_grace_seconds=0.5)


@pytest.fixture
def strategies(tmp_path: Path) -> Iterator[Path]:
    """The test doubles, registered for the shedding family (and taken away after)."""
    register_strategy("tiny", FAMILY, lambda: SheddingSearch(iterations=24, depth=12))
    register_strategy("sleeper", FAMILY, lambda: Sleeper(tmp_path / "sleeper.pid"))
    register_strategy("crasher", FAMILY, lambda: Crasher(tmp_path / "crashes", 2))
    try:
        yield tmp_path
    finally:
        for name in ("tiny", "sleeper", "crasher"):
            engine.strategies._FACTORIES.pop((name, FAMILY), None)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


async def until(predicate: Any, timeout: float = 30) -> None:
    with trio.fail_after(timeout):  # a guard against a hang, not a measurement
        while not predicate():
            await trio.sleep(0.01)


@asynccontextmanager
async def bots_table(
    bots: list[str], config: ServerConfig = POOL
) -> AsyncIterator[tuple[Server, Client, str]]:
    """A server; ann's table of ``RULESET`` with ``bots`` seated at seats 1.., and ann at 0,
    the game started."""
    async with serving_server(Server(config, MemoryStore())) as (server, port):
        ann = await Client.connect(port, "ann")
        seats = len(bots) + 1
        made = await ann.request(
            m.CreateTable(ruleset=RULESET, seats=seats, options={"turn_seconds": 0})
        )
        table = made.table
        for seat, bot in enumerate(bots, start=1):
            assert isinstance(
                await ann.request(m.SeatBot(table=table, seat=seat, strategy=bot)), m.Ok
            )
        assert isinstance(await ann.request(m.Join(table=table, seat=0)), m.Seated)
        assert isinstance(await ann.request(m.StartGame(table=table)), m.Ok)
        yield server, ann, table


def table_of(server: Server, table: str) -> Table:
    found = server.lobby.get(table)
    assert found is not None
    return found


def thinker_of(server: Server) -> Thinker:
    assert server.lobby.thinker is not None
    return server.lobby.thinker


# --------------------------------------------------------------- playing
async def test_search_bots_play_a_whole_game_in_a_worker_process(strategies: Path) -> None:
    async with bots_table(["tiny", "tiny", "tiny"]) as (server, ann, table):
        final = await ann.play(table)
        assert final.state == "over"
        t, thinker = table_of(server, table), thinker_of(server)
        assert t.game is not None and t.game.over
        bot_moves = sum(seat != 0 for seat, _ in t.game.record()["actions"])
        # every bot move was thought in the pool, by one worker process (not this one)
        assert bot_moves > 0 and thinker.thoughts == bot_moves and thinker.failures == 0
        assert thinker.statistics()["workers"] == 1  # idle now, waiting for work
        assert len(multiprocessing.active_children()) == 1
    assert multiprocessing.active_children() == []  # it stopped with the server


async def play_slow_seats(thinker: Thinker, seed: int) -> tuple[list[Any], Any]:
    """A shedding game whose every seat is a small search thinking through ``thinker``
    (each remembering what its seat was shown); its actions and the generator's end."""
    game = engine.new_game(RULESET, 3, seed, {})
    bots = [get_strategy("search", FAMILY, iterations=24, depth=12) for _ in range(3)]

    def show(events: list[Any]) -> None:
        for seat, bot in enumerate(bots):
            for event in events:
                bot.observe(event.present(seat))  # type: ignore[attr-defined]

    show(game.opening_events)
    rng = random.Random(seed)
    while not game.over and game.actions_taken < 60:
        seat = game.to_act
        assert seat is not None
        legal = game.legal_actions(seat)
        show(
            game.apply(seat, await thinker.choose(FAMILY, bots[seat], game.view(seat), legal, rng))
        )
    return game.record()["actions"], rng.getstate()


async def test_a_worker_plays_as_the_server_would_for_the_same_seed() -> None:
    """The record holds the actions, so the pool must choose them as a thread did: the
    strategy's memory goes to the worker and the generator's state comes back."""
    async with thinking.open_thinker(POOL) as pool:
        in_workers = await play_slow_seats(pool, 11)
        assert pool.thoughts > 0 and pool.failures == 0
    in_threads = await play_slow_seats(Thinker(THREADS), 11)
    assert in_workers == in_threads


# ------------------------------------------------------------ cancelling
CANCELS = {
    "master closes": lambda table: m.CloseTable(table=table),
    "master ends the game": lambda table: m.EndGame(table=table),
    "master pauses": lambda table: m.PauseGame(table=table),
}


@pytest.mark.parametrize("how", [*CANCELS, "operator closes"])
async def test_a_thought_is_cancelled_when_the_game_moves_on(strategies: Path, how: str) -> None:
    """A bot thinking (for ever) in a worker: the table takes the command at once, the
    bot makes no move, and the worker that was thinking is killed and reaped."""
    pid_file = strategies / "sleeper.pid"
    async with bots_table(["sleeper"]) as (server, ann, table):
        t = table_of(server, table)
        assert t.game is not None
        while t.game.to_act == 0:  # ann plays until the bot is to act (a draw may not do)
            before = t.game.actions_taken
            await ann.send(m.Act(table=table, action=str(t.game.legal_actions(0)[0])))
            await until(lambda n=before: t.game.actions_taken > n)  # type: ignore[union-attr]
        await until(pid_file.exists)  # the bot thinks, in a worker
        pid, taken = int(pid_file.read_text()), t.game.actions_taken
        assert pid != os.getpid() and alive(pid)
        if how == "operator closes":
            await t.submit(Close("closed by an operator"))
            await until(t.closed.is_set)
        else:
            reply = await ann.request(CANCELS[how](table))
            assert isinstance(reply, m.Ok), reply
        assert t.game.actions_taken == taken  # no move: the thought was dropped
        assert t.state == {"master ends the game": "over", "master pauses": "paused"}.get(
            how, CLOSED
        )
        assert not alive(pid)
        assert thinker_of(server).statistics()["workers"] == 0


async def test_a_shutdown_mid_thought_leaves_no_child_process(strategies: Path) -> None:
    pid_file = strategies / "sleeper.pid"
    async with bots_table(["sleeper", "sleeper", "sleeper"]) as (server, ann, table):
        t = table_of(server, table)
        while not pid_file.exists():  # ann plays until a bot thinks
            if t.game is not None and t.game.to_act == 0:
                await ann.send(m.Act(table=table, action=str(t.game.legal_actions(0)[0])))
            await trio.sleep(0.01)
        pid = int(pid_file.read_text())
        assert alive(pid)
    # serving_server shut the server down: the game froze, the thought was cancelled
    assert not alive(pid)
    assert multiprocessing.active_children() == []


async def test_a_server_without_search_bots_starts_no_process() -> None:
    async with bots_table(["heuristic", "random", "heuristic"]) as (server, ann, table):
        await ann.play(table)
        assert thinker_of(server).statistics() == {"workers": 0, "thoughts": 0, "failures": 0}
        assert multiprocessing.active_children() == []


# --------------------------------------------------------------- failing
async def test_a_crashing_worker_makes_the_bot_play_its_fallback_and_is_logged_once(
    strategies: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The worker dies in its first two thoughts: the bot plays the family's heuristic
    each time, the game goes on to its end, and the log says so in one line."""
    caplog.set_level(logging.WARNING, logger="switchboard.thinking")
    async with bots_table(["crasher"]) as (server, ann, table):
        final = await ann.play(table)
        assert final.state == "over"
        thinker = thinker_of(server)
        assert thinker.failures == 2 and thinker.thoughts > 0
    lines = [r for r in caplog.records if getattr(r, "sb_event", None) == "bot.thought_failed"]
    assert len(lines) == 1, lines
    assert "BrokenWorker" in str(lines[0].sb_fields["error"])  # type: ignore[attr-defined]


async def test_a_thought_over_its_time_is_cancelled_and_the_bot_plays_its_fallback(
    strategies: Path,
) -> None:
    """A bot stuck in its thought (it would sleep ten minutes) does not hold its table:
    after ``bot_think_seconds`` its worker is killed and the bot plays the heuristic."""
    pid_file = strategies / "sleeper.pid"
    limited = POOL.replace(bot_think_seconds=0.5)
    async with bots_table(["sleeper"], limited) as (server, ann, table):
        t, thinker = table_of(server, table), thinker_of(server)
        assert t.game is not None
        with trio.fail_after(30):  # a guard against a hang, not a measurement
            while not pid_file.exists():  # ann plays until the bot thinks
                if t.game.to_act == 0:
                    await ann.request(m.Act(table=table, action=str(t.game.legal_actions(0)[0])))
                await trio.sleep(0.01)
        pid = int(pid_file.read_text())
        moved = sum(seat == 1 for seat, _ in t.game.record()["actions"])
        await until(lambda: sum(seat == 1 for seat, _ in t.game.record()["actions"]) > moved)  # type: ignore[union-attr]
        assert thinker.failures >= 1 and not alive(pid)  # the limit passed: the bot moved anyway
        assert "no move within 0.5 s" in thinker._last_error


def test_bot_thinking_is_processes_or_threads() -> None:
    with pytest.raises(ValueError, match="bot_thinking"):
        Thinker("fibers")
    assert ServerConfig().bot_thinking == PROCESSES and ServerConfig().bot_workers == 0
