"""Record export: the full record where nothing is hidden (abbott), the public event
log where the seed would reveal the hands."""

from __future__ import annotations

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


async def test_abbott_exports_the_full_record_to_players(running):
    c, table = await play_one(running, "abbott")
    rec = await c.request(m.GetRecord(table=table))
    assert isinstance(rec, m.Record) and rec.full
    replayed = engine.replay(rec.record)
    assert replayed.over and replayed.view(None) == running.server.lobby.get(table).game.view(None)


async def test_hidden_games_export_only_the_public_log_to_players(running):
    c, table = await play_one(running, "kilodney")
    rec = await c.request(m.GetRecord(table=table))
    assert isinstance(rec, m.Record) and not rec.full
    assert "seed" not in rec.record and "actions" not in rec.record
    seen = [x.event for x in c.inbox if isinstance(x, m.TableEvent) and x.table == table]
    game = running.server.lobby.get(table).game
    again = engine.new_game(game.ruleset, game.seats, game.seed, game.record()["options"])
    public = [e.present(None) for e in again.opening_events]
    for seat, notation in game.record()["actions"]:
        public.extend(e.present(None) for e in again.apply(seat, notation))
    assert rec.record["events"] == public and len(public) == len(seen)
