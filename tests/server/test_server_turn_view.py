"""Every ``turn`` carries the receiver's fresh view, and a game's opening events (the first
deal, made before any action) are sent after its start, numbered like any other event."""

from __future__ import annotations

import random

import pytest
import trio
from e2e_client import Client

import engine
from protocol import messages as m

OPENING = [
    name for name in ("kilodney", "abbott") if name in engine.rulesets()
]  # families whose first deal makes events


async def _seated_game(running, ruleset: str, seats: int, text_seat: int | None = None):
    players = [
        await Client.connect(running.port, f"v{i}", text=(i == text_seat)) for i in range(seats)
    ]
    ok = await players[0].request(m.CreateTable(ruleset=ruleset, seats=seats))
    for i, p in enumerate(players):
        assert isinstance(await p.request(m.Join(table=ok.table, seat=i)), m.Seated)
    return players, ok.table


@pytest.mark.parametrize("ruleset", OPENING)
async def test_the_opening_events_follow_the_start_and_a_turn_says_what_to_do(running, ruleset):
    players, table = await _seated_game(running, ruleset, 4, text_seat=3)
    assert isinstance(await players[0].request(m.StartGame(table=table)), m.Ok)
    game = running.server.lobby.get(int(table)).game
    opening = game.opening_events
    assert opening
    for seat, p in enumerate(players):
        snap = await p.wait_for(lambda x: isinstance(x, m.Snapshot) and x.state == "playing")
        # the snapshot leaves the legal actions to the turn after the deal: one act, not two
        assert snap.legal == () and snap.view["viewer"] == seat
        base = snap.seq
        for n, ev in enumerate(opening, start=1):
            msg = await p.next()
            assert isinstance(msg, m.TableEvent), msg
            assert (msg.seq, msg.event) == (base + n, ev.present(seat))
        turn = await p.next()
        assert isinstance(turn, m.Turn) and turn.seq == base + len(opening)
        assert turn.seat == seat and turn.to_act == game.to_act
        assert turn.view == game.view(seat)
        assert turn.legal == tuple(str(a) for a in game.legal_actions(seat))
    # a late spectator (or a resume) from the start's seq gets the same events from the ring
    watcher = await Client.connect(running.port, "late")
    await watcher.send(m.Spectate(table=table, last_seq=base))
    for n, ev in enumerate(opening, start=1):
        msg = await watcher.wait_for(lambda x: isinstance(x, (m.TableEvent, m.Snapshot)))
        assert isinstance(msg, m.TableEvent) and msg.seq == base + n
        assert msg.event == ev.present(None)
    turn = await watcher.wait_for(lambda x: isinstance(x, m.Turn))
    assert turn.seat is None and turn.legal == () and turn.view["viewer"] is None
    for c in [*players, watcher]:
        await c.aclose()


async def test_each_turn_carries_the_receivers_view_as_of_its_seq(running):
    players, table = await _seated_game(running, "switch", 2, text_seat=1)
    watcher = await Client.connect(running.port, "watcher")
    assert isinstance(await watcher.request(m.Spectate(table=table)), m.Snapshot)
    assert isinstance(await players[0].request(m.StartGame(table=table)), m.Ok)
    async with trio.open_nursery() as nursery:
        for i, p in enumerate(players):
            nursery.start_soon(p.play, table, random.Random(i))
        await watcher.wait_for(lambda x: isinstance(x, m.Snapshot) and x.state == "over")
    game = running.server.lobby.get(int(table)).game
    # the views after each action, worked out again from the record
    rec = game.record()
    again = engine.new_game(rec["ruleset"], rec["seats"], rec["seed"], rec["options"])
    seq = running.store.state.tables[int(table)].game.seq + len(again.opening_events)
    views = {}
    if again.opening_events:  # the deal's events are followed by a turn of their own
        views[seq] = [again.view(0), again.view(1), again.view(None)]
    for seat, notation in rec["actions"]:
        seq += len(again.apply(seat, notation))
        views[seq] = [again.view(0), again.view(1), again.view(None)]
    for who, c in [(0, players[0]), (1, players[1]), (2, watcher)]:
        turns = [x for x in c.inbox if isinstance(x, m.Turn) and x.table == table]
        assert len(turns) == len(views) and len(rec["actions"]) > 0
        for t in turns:
            assert t.view == views[t.seq][who], (who, t.seq)
            assert t.seat == (None if who == 2 else who) and t.to_act == t.view["to_act"]
    assert game.last_action == rec["actions"][-1]
    for c in [*players, watcher]:
        await c.aclose()
