"""The lobby's ways to start a game without a master: start_when_full and house tables;
and a restart on the same store brings tables and seats back."""

from __future__ import annotations

import trio
from e2e_client import TEST_CONFIG, Client

from protocol import messages as m
from server.app import Server
from server.store.base import MemoryStore


async def test_a_table_can_start_when_full(running):
    clients = [await Client.connect(running.port, f"s{i}") for i in range(4)]
    ok = await clients[0].request(
        m.CreateTable(ruleset="kilodney", seats=4, options={"start_when_full": True})
    )
    for c in clients:
        await c.request(m.Join(table=ok.table))
    for c in clients:  # nobody said start
        snap = await c.wait_for(lambda x: isinstance(x, m.Snapshot) and x.state == "playing")
        assert snap.view["hand"] is not None
    bad = await clients[0].request(
        m.CreateTable(ruleset="kilodney", seats=4, options={"start_when_full": "yes"})
    )
    assert isinstance(bad, m.Error) and bad.code == "bad_options"


async def test_house_tables_are_always_open(nursery):
    server = Server(TEST_CONFIG.replace(open_tables=("switch",)), MemoryStore())
    port = await nursery.start(server.serve)
    c = await Client.connect(port, "first")
    (row,) = (await c.request(m.ListTables())).tables
    assert row["master"] is None and row["start_when_full"] and row["state"] == "waiting"
    players = [c] + [await Client.connect(port, f"p{i}") for i in range(3)]
    for p in players:
        await p.request(m.Join(table=row["table"]))
    await c.wait_for(lambda x: isinstance(x, m.Snapshot) and x.state == "playing")
    with trio.fail_after(5):  # the full one plays; a fresh one waits for the next people
        while len(server.lobby.tables) < 2:
            await trio.sleep(0.01)
    states = sorted(t["state"] for t in (await c.request(m.ListTables())).tables)
    assert states == ["playing", "waiting"]
    server.shutdown()


async def test_a_restart_brings_back_tables_and_seats(nursery):
    store = MemoryStore()
    first = Server(TEST_CONFIG, store)
    port = await nursery.start(first.serve)
    c = await Client.connect(port, "keeper")
    ok = await c.request(m.CreateTable(ruleset="switch", seats=3))
    seated = await c.request(m.Join(table=ok.table, seat=1))
    await c.request(m.StartGame(table=ok.table))
    before = await c.wait_for(lambda x: isinstance(x, (m.Turn, m.Snapshot)) and x.legal)
    first.shutdown()
    await c.wait_for(lambda x: isinstance(x, m.Goodbye))

    second = Server(TEST_CONFIG, store)
    port = await nursery.start(second.serve)
    back = await Client.connect(port, "keeper")
    resumed = await back.request(m.Resume(table=ok.table, token=seated.token, last_seq=0))
    assert isinstance(resumed, m.Seated) and resumed.seat == 1
    # seq 0 is before this game's start: a snapshot, exactly where the game stood
    snap = await back.wait_for(lambda x: isinstance(x, (m.Snapshot, m.TableEvent, m.Turn)))
    assert isinstance(snap, m.Snapshot) and snap.state == "playing"
    assert snap.seq == before.seq and snap.legal == before.legal
    second.shutdown()


async def test_a_table_whose_game_fails_is_taken_out_and_the_others_play_on(running):
    a = await Client.connect(running.port, "alpha")
    broken = await a.request(m.CreateTable(ruleset="kilodney", seats=4))
    fine = await a.request(m.CreateTable(ruleset="kilodney", seats=4))
    await a.request(m.Join(table=broken.table, seat=0))
    await a.request(m.StartGame(table=broken.table))
    table = running.server.lobby.get(broken.table)

    def boom(seat, action):
        raise RuntimeError("a bug in a family")

    table.game.apply = boom  # the next action, a bot's or ours, hits the bug
    await a.send(m.Act(table=broken.table, action="draw", id=77))
    notice = await a.wait_for(lambda x: isinstance(x, m.Notice))
    assert "failed" in notice.text
    assert running.server.lobby.get(broken.table) is None
    assert isinstance(await a.request(m.Join(table=fine.table, seat=0)), m.Seated)
