"""End to end over real loopback sockets: people create, join, talk and play whole games,
and each connection sees exactly what its seat (or a spectator) may see."""

from __future__ import annotations

import random
from typing import Any

import pytest
import trio
from e2e_client import Client

import engine
from protocol import messages as m

FAMILIES = [("abbott", 4), ("switch", 4), ("kilodney", 4)]
REGISTERED = [p for p in FAMILIES if p[0] in engine.rulesets()]


def expected_events(store: Any, table: int, seat: int | None) -> dict[int, dict[str, Any]]:
    """Every event of the table's current game as ``seat`` must see it, by seq,
    worked out independently by replaying the stored record."""
    stored = store.state.tables[table]
    g = stored.game
    game = engine.new_game(stored.ruleset, stored.seats, g.seed, stored.options)
    out = {}
    seq = g.seq
    batches = [game.opening_events]  # the first deal, numbered right after the start
    batches.extend(game.apply(s, notation) for s, notation in g.actions)
    for batch in batches:
        for ev in batch:
            seq += 1
            out[seq] = ev.present(seat)
    return out


def events_seen(client: Client, table: str) -> dict[int, dict[str, Any]]:
    return {
        msg.seq: msg.event
        for msg in client.inbox
        if isinstance(msg, m.TableEvent) and msg.table == table
    }


@pytest.mark.parametrize(("ruleset", "seats"), REGISTERED)
async def test_four_people_and_a_spectator_play_a_whole_game(running, ruleset, seats):
    # the last player speaks text mode, like a person at nc; the rest msgpack
    players = [
        await Client.connect(running.port, f"p{i}", text=(i == seats - 1)) for i in range(seats)
    ]
    watcher = await Client.connect(running.port, "watcher")
    ok = await players[0].request(m.CreateTable(ruleset=ruleset, seats=seats))
    assert isinstance(ok, m.Ok), ok
    table = ok.table
    for i, p in enumerate(players):
        seated = await p.request(m.Join(table=table, seat=i))
        assert isinstance(seated, m.Seated) and seated.seat == i, seated
    snap = await watcher.request(m.Spectate(table=table))
    assert isinstance(snap, m.Snapshot) and snap.seat is None

    said = await players[1].request(m.Say(table=table, text="good luck\u202e  all"))
    assert isinstance(said, m.Ok)
    refused = await players[2].request(m.StartGame(table=table))
    assert isinstance(refused, m.Error) and refused.code == "not_master"
    assert isinstance(await players[0].request(m.StartGame(table=table)), m.Ok)

    finals = []
    async with trio.open_nursery() as nursery:

        async def play(i: int) -> None:
            finals.append((i, await players[i].play(table, random.Random(i))))

        async def watch() -> None:  # a spectator must keep reading, or it is dropped
            over = await watcher.wait_for(lambda x: isinstance(x, m.Snapshot) and x.state == "over")
            assert over.view["over"] is True

        for i in range(seats):
            nursery.start_soon(play, i)
        nursery.start_soon(watch)

    store = running.store
    tid = int(table)
    for i, final in finals:
        assert final.view["viewer"] == i and final.view["over"]
        assert events_seen(players[i], table) == expected_events(store, tid, i)
    assert events_seen(watcher, table) == expected_events(store, tid, None)
    assert len(expected_events(store, tid, None)) > 4
    # talk reached everyone at the table, spectator included, cleaned of control characters
    for c in [*players, watcher]:
        talk = [x for x in c.inbox if isinstance(x, m.Talk)]
        assert [(t.name, t.text) for t in talk] == [("p1", "good luck all")]
    for c in [*players, watcher]:
        await c.aclose()


async def test_the_lobby_lists_tables_and_refuses_bad_options(running):
    c = await Client.connect(running.port, "ann")
    bad = await c.request(m.CreateTable(ruleset="abbott", seats=4, options={"targte": 3}))
    assert isinstance(bad, m.Error) and bad.code == "bad_options" and "targte" in bad.text
    bad = await c.request(m.CreateTable(ruleset="abbott", seats=9))
    assert isinstance(bad, m.Error) and bad.code == "bad_options"
    ok = await c.request(m.CreateTable(ruleset="abbott", seats=4))
    await c.request(m.Join(table=ok.table))
    listing = await c.request(m.ListTables())
    (row,) = listing.tables
    assert row["table"] == ok.table and row["family"] == "abbott" and row["taken"] == 1
    assert row["players"] == ["ann", None, None, None] and row["state"] == "waiting"
    rulesets = await c.request(m.ListRulesets())
    assert {r["name"] for r in rulesets.rulesets} == set(engine.rulesets())
    anon = await Client.connect(running.port)
    refused = await anon.request(m.CreateTable(ruleset="abbott", seats=4))
    assert isinstance(refused, m.Error) and refused.code == "need_name"
    missing = await anon.request(m.Spectate(table="99"))
    assert isinstance(missing, m.Error) and missing.code == "no_table"
