"""A finished game's replay worked out on the server (``get_replay``): every step's board
for a client that cannot run the engine, any game over read from the store by its table
and number (not only a table's last one), a running game refused; and the analysis kept
once, so a second asker costs the store no second write."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import trio
from conftest import Running
from e2e_client import TEST_CONFIG, Client, serving_server

import engine
from engine.strategies import get_strategy
from protocol import messages as m
from server.app import Server
from server.core import replays
from server.store.base import (
    ActionTaken,
    AnalysisKept,
    GameEnded,
    GameStarted,
    MemoryStore,
    OptionsSet,
    TableCreated,
    Write,
)
from server.store.sqlite import SQLiteStore
from server.transport.web import page_path

CONFIG = TEST_CONFIG.replace(
    bot_thinking="threads",
    analysis_worlds=2,
    trusted_addresses=(),
    commands_per_second=1000.0,
    commands_burst=10_000,
)


class CountingStore(MemoryStore):
    """A memory store that counts the analyses written to it."""

    def __init__(self) -> None:
        super().__init__()
        self.kept = 0

    def submit_nowait(self, *writes: Write) -> None:
        self.kept += sum(isinstance(w, AnalysisKept) for w in writes)
        super().submit_nowait(*writes)


@pytest.fixture
async def served(nursery: trio.Nursery) -> AsyncIterator[Running]:
    store = CountingStore()
    server = Server(CONFIG, store)
    port = await nursery.start(server.serve)
    yield Running(server, port, store, nursery)
    server.shutdown()


async def play_one(c: Client, table: str) -> None:
    await c.request(m.StartGame(table=table))
    with trio.fail_after(60):
        await c.play(table)


async def replay_of(
    c: Client, table: str, game: int
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Every page of a replay joined: its record's head and all its steps."""
    steps: list[dict[str, Any]] = []
    start: int | None = 0
    head: dict[str, Any] = {}
    while start is not None:
        page = await c.request(m.GetReplay(table=table, game=game, start=start))
        assert isinstance(page, m.Replay), page
        head = dict(page.record)
        steps += page.steps
        start = page.next
    return head, steps


async def test_a_finished_game_replays_step_by_step_to_its_end(served: Running) -> None:
    ann = await Client.connect(served.port, "ann")
    made = await ann.request(m.CreateTable(ruleset="switch", seats=2))
    table = made.table
    await ann.request(m.Join(table=table, seat=0))
    await play_one(ann, table)
    head, steps = await replay_of(ann, table, 1)
    record = await ann.request(m.GetRecord(table=table))
    assert isinstance(record, m.Record)
    actions = record.record["actions"]
    assert [s["step"] for s in steps] == list(range(len(actions) + 1))
    assert [s["action"] for s in steps[1:]] == actions
    assert steps[0]["action"] is None and not steps[0]["view"]["over"]
    assert steps[-1]["view"]["over"]
    assert head["seed"] == record.record["seed"] and head["names"][0] == "ann"
    assert all(len(s["hands"]) == 2 for s in steps)  # the game is over: every hand shown
    assert any(s["said"] for s in steps[1:])
    # the head and the steps' actions are the record `switchboard replay FILE` reads
    saved = {**head, "actions": [s["action"] for s in steps[1:]]}
    assert engine.replay(saved).record()["actions"] == actions
    # a later game at the table: the first is still there, read from the store
    await play_one(ann, table)
    again_head, again = await replay_of(ann, table, 1)
    assert again == steps and again_head == head


async def test_a_running_game_and_a_missing_one_are_refused(served: Running) -> None:
    ann = await Client.connect(served.port, "ann")
    made = await ann.request(m.CreateTable(ruleset="switch", seats=2))
    none = await ann.request(m.GetReplay(table=made.table, game=1))
    assert isinstance(none, m.Error) and none.code == "no_record"
    await ann.request(m.Join(table=made.table, seat=0))
    await ann.request(m.StartGame(table=made.table))
    running = await ann.request(m.GetReplay(table=made.table, game=1))
    assert isinstance(running, m.Error) and running.code == "bad_state", running
    bad = await ann.request(m.GetReplay(table="nine", game=1))
    assert isinstance(bad, m.Error) and bad.code == "no_table"


async def test_a_second_analyse_costs_the_store_nothing(served: Running) -> None:
    ann = await Client.connect(served.port, "ann")
    made = await ann.request(m.CreateTable(ruleset="switch", seats=2))
    await ann.request(m.Join(table=made.table, seat=0))
    await play_one(ann, made.table)
    assert isinstance(await ann.request(m.Analyse(table=made.table)), m.Ok)
    done = await ann.wait_for(lambda x: isinstance(x, m.Analysis), timeout=120)
    store = served.store
    assert isinstance(store, CountingStore) and store.kept == 1
    again = await ann.request(m.Analyse(table=made.table))
    assert isinstance(again, m.Analysis) and isinstance(done, m.Analysis)
    assert again.analysis == done.analysis
    assert store.kept == 1 and served.server.lobby.analyses.started == 1


def _writes(table: int, options: dict[str, Any] | None = None) -> list[Write]:
    """A 3-player switch game at a new table, from its creation to its end; dealt with
    ``options`` (the table's too), or, when None, stored as before a game's own were kept."""
    game = engine.new_game("switch", 3, 7, options)
    bot, rng = get_strategy("heuristic", game.family), __import__("random").Random(7)
    dealer, deck = game.record()["dealer"], game.record()["deck"]
    writes: list[Write] = [
        TableCreated(table, "switch", 3, dict(options or {}), None, {}),
        GameStarted(table, 1, 7, dealer, deck, 0, None if options is None else dict(options)),
    ]
    while not game.over:
        seat = game.to_act
        notation = str(bot.choose(game.view(seat), game.legal_actions(seat), rng))
        writes.append(ActionTaken(table, 1, game.actions_taken, seat, notation))
        game.apply(seat, notation)
    writes.append(GameEnded(table, 1, list(game.scores)))
    return writes


async def test_both_stores_find_a_finished_game_by_its_number(tmp_path: Path) -> None:
    memory, disk = MemoryStore(), SQLiteStore(tmp_path / "store.db")
    memory.load(), disk.load()
    writes = _writes(1)
    for store in (memory, disk):
        await store.commit(*writes[:-1])
        assert await store.finished_game(1, 1) is None  # running: its deal is secret
        await store.commit(writes[-1])
    kept, read = await memory.finished_game(1, 1), await disk.finished_game(1, 1)
    await disk.aclose()
    assert kept is not None and read is not None and kept.record == read.record
    assert engine.replay(read.record).over
    assert await memory.finished_game(1, 2) is None


async def test_a_game_is_read_with_the_options_it_was_dealt_with(tmp_path: Path) -> None:
    """The table's options changed after the game: both stores still give the game's
    own; a game stored before those were kept is given its table's, as before."""
    memory, disk = MemoryStore(), SQLiteStore(tmp_path / "store.db")
    memory.load(), disk.load()
    dealt = _writes(1, {"hand_size": 5})
    old = _writes(2)
    for store in (memory, disk):
        await store.commit(*dealt, OptionsSet(1, {"hand_size": 3}, {}), *old)
    for store in (memory, disk):
        kept, before = await store.finished_game(1, 1), await store.finished_game(2, 1)
        assert kept is not None and kept.record["options"] == {"hand_size": 5}, store
        assert engine.replay(kept.record).over
        assert before is not None and before.record["options"] == {}
    await disk.aclose()


def test_a_page_stays_within_its_budget_and_moves_on() -> None:
    game = engine.new_game("abbott", 2, 3)
    rng = __import__("random").Random(3)
    while not game.over:
        seat = game.to_act
        game.apply(seat, str(rng.choice(game.legal_actions(seat))))
    record = game.record()
    small = replays.page(record, ["ann", "bot:search"], 0, budget=1)
    assert [s["step"] for s in small.steps] == [0] and small.next == 1  # one, at least
    page = replays.page(record, ["ann", "bot:search"], 5, size=3)
    assert [s["step"] for s in page.steps] == [5, 6, 7] and page.next == 8
    assert page.record["names"] == ["ann", "bot 2"] and "actions" not in page.record
    last = replays.page(record, [], page.total)
    assert last.next is None and last.steps[-1]["view"]["over"]


def test_a_game_link_serves_the_page() -> None:
    assert page_path("/g/4-2") == "/index.html"
    assert page_path("/g/4") == "/g/4" and page_path("/g/../x") == "/g/../x"


async def test_a_replay_survives_the_tables_options_changing(tmp_path: Path) -> None:
    """A game keeps the options it was dealt with: after the game master changes the
    table's, its replay is the game as played (not refused), before and after a restart,
    and the table's last game still comes back on the new options."""
    config = CONFIG.replace(data_dir=tmp_path, close_grace_seconds=0.5)

    def over(msg: m.Received) -> bool:
        return isinstance(msg, m.Snapshot) and msg.state == "over"

    async with serving_server(Server(config)) as (_server, port):
        ann = await Client.connect(port, "ann")
        made = await ann.request(m.CreateTable(ruleset="switch", seats=2,
                                               options={"hand_size": 5}))  # fmt: skip
        table = made.table
        await ann.request(m.Join(table=table, seat=0))
        await play_one(ann, table)
        _head, played = await replay_of(ann, table, 1)
        changed = await ann.request(m.SetOptions(table=table, options={"hand_size": 3}))
        assert isinstance(changed, m.Ok), changed
        await ann.wait_for(over)  # the table's snapshot on the new options: not game 2's end
        head, steps = await replay_of(ann, table, 1)
        assert head["options"]["hand_size"] == 5 and steps == played
        assert [len(h) for h in steps[0]["hands"]] == [5, 5]  # the deal as it was
        await play_one(ann, table)  # game 2, dealt with 3 cards
        changed = await ann.request(m.SetOptions(table=table, options={"hand_size": 7}))
        assert isinstance(changed, m.Ok), changed
    async with serving_server(Server(config)) as (_server, port):
        ann = await Client.connect(port, "ann")
        _head, again = await replay_of(ann, table, 1)
        assert again == played
        head, second = await replay_of(ann, table, 2)
        assert head["options"]["hand_size"] == 3 and [len(h) for h in second[0]["hands"]] == [3, 3]
        record = await ann.request(m.GetRecord(table=table))  # the last game, restored
        assert isinstance(record, m.Record), record
        assert record.record["options"]["hand_size"] == 3
