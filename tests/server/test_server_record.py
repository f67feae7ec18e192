"""Record export: no record before the first game; a finished game's full record, which
replays it (the running game's public log: ``test_record_pages``, ``test_seed_secrecy``)."""

from __future__ import annotations

import pytest
import trio
from e2e_client import Client

import engine
from protocol import messages as m


async def play_one(running, ruleset: str) -> tuple[Client, str]:
    c = await Client.connect(running.port, f"rec_{ruleset}")
    ok = await c.request(m.CreateTable(ruleset=ruleset, seats=4))
    await c.request(m.Join(table=ok.table, seat=0))
    none = await c.request(m.GetRecord(table=ok.table))
    assert isinstance(none, m.Error) and none.code == "no_record"
    await c.request(m.StartGame(table=ok.table))
    with trio.fail_after(30):
        await c.play(ok.table)
    return c, ok.table


@pytest.mark.parametrize("ruleset", ["abbott", "kilodney"])
async def test_a_finished_game_exports_the_full_record_to_players(running, ruleset):
    c, table = await play_one(running, ruleset)
    rec = await c.record(table)
    assert isinstance(rec, m.Record) and rec.full
    replayed = engine.replay(rec.record)
    assert replayed.over and replayed.view(None) == running.server.lobby.get(table).game.view(None)
