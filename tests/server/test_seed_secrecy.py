"""The seed stays secret until the game is over, in every family: a mid-game record, as
anyone at the table may get it, holds no seed, no deck and nothing a replay could deal the
next hand from; the finished record publishes the seed and replays the game exactly."""

from __future__ import annotations

import json

import pytest
import trio
from e2e_client import Client

import engine
from protocol import messages as m

FAMILIES = ["abbott", "switch", "kilodney"]  # abbott, a shedding preset, kilodney


def predicts_the_deals(record: dict, live: engine.Game) -> bool:
    """Whether ``record`` rebuilds the live game's shuffler: then every later deal is known."""
    try:
        rebuilt = engine.replay(record)
    except (KeyError, TypeError, ValueError):
        return False  # not enough to rebuild the game at all
    return rebuilt.rng.getstate() == live.rng.getstate()


async def start(running, ruleset: str, name: str) -> tuple[Client, str]:
    c = await Client.connect(running.port, name)
    ok = await c.request(m.CreateTable(ruleset=ruleset, seats=4, options={"turn_seconds": 0}))
    await c.request(m.Join(table=ok.table, seat=0))
    await c.request(m.StartGame(table=ok.table))
    return c, ok.table


async def my_moves(c: Client, table: str, n: int) -> None:
    for _ in range(n):
        turn = await c.wait_for(lambda x: isinstance(x, m.Turn) and x.to_act == x.seat and x.legal)
        assert isinstance(await c.request(m.Act(table=table, action=turn.legal[0])), m.Ok)


@pytest.mark.parametrize("ruleset", FAMILIES)
async def test_a_mid_game_record_gives_no_seed_and_predicts_no_deal(running, ruleset):
    player, table = await start(running, ruleset, f"sec_{ruleset}")
    await my_moves(player, table, 3)
    live = running.server.lobby.get(table).game
    assert not live.over
    watcher = await Client.connect(running.port, f"peek_{ruleset}")  # anyone may watch
    await watcher.request(m.Spectate(table=table))
    for asker in (watcher, player):
        page = await asker.request(m.GetRecord(table=table))
        assert isinstance(page, m.Record) and not page.full
        rec = dict(page.record)
        assert not {"seed", "deck", "dealer", "actions"} & rec.keys()
        assert str(live.seed) not in json.dumps(rec)
        assert not predicts_the_deals(rec, live)


@pytest.mark.parametrize("ruleset", FAMILIES)
async def test_the_finished_record_publishes_the_seed_and_replays_exactly(running, ruleset):
    player, table = await start(running, ruleset, f"fin_{ruleset}")
    with trio.fail_after(60):
        await player.play(table)
    live = running.server.lobby.get(table).game
    stranger = await Client.connect(running.port)  # at no table, no name
    page = await stranger.record(table)
    assert isinstance(page, m.Record) and page.full
    assert page.record["seed"] == live.seed
    replayed = engine.replay(page.record)
    assert replayed.over and replayed.view(None) == live.view(None)
    for seat in range(4):
        assert replayed.view(seat) == live.view(seat)


async def test_each_game_deals_from_a_fresh_seed(running):
    player, table = await start(running, "switch", "twice")
    with trio.fail_after(60):
        await player.play(table)
    first = (await player.record(table)).record["seed"]
    await player.request(m.StartGame(table=table))
    await my_moves(player, table, 1)
    live = running.server.lobby.get(table).game
    assert live.seed != first and not live.over
    page = await player.request(m.GetRecord(table=table))
    assert "seed" not in page.record and str(live.seed) not in json.dumps(page.record)
