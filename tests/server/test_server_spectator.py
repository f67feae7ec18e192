"""A spectator never receives a hidden card: every byte sent to it over whole games,
decoded afresh, is exactly the public view the engine gives ``None``."""

from __future__ import annotations

from typing import Any

import pytest
import trio
from e2e_client import Client

import engine
from protocol import messages as m
from protocol.msgpack_codec import MsgpackDecoder

HIDDEN = [name for name in engine.rulesets() if engine.ruleset(name).game_class.hidden_information]


def public_history(store: Any, table: int) -> tuple[dict[int, Any], dict[int, Any]]:
    """By replaying the stored record: each event as a spectator may see it, by seq,
    and the spectator's view of the game after each seq where the game rested."""
    stored = store.state.tables[table]
    g = stored.game
    game = engine.new_game(stored.ruleset, stored.seats, g.seed, stored.options)
    seq = g.seq
    events, views = {}, {seq: game.view(None)}  # the start's snapshot shows the dealt board
    for ev in game.opening_events:  # the first deal, numbered right after the start
        seq += 1
        events[seq] = ev.present(None)
    views[seq] = game.view(None)
    for seat, notation in g.actions:
        for ev in game.apply(seat, notation):
            seq += 1
            events[seq] = ev.present(None)
        views[seq] = game.view(None)
    return events, views


@pytest.mark.parametrize("ruleset", HIDDEN)
async def test_a_spectator_sees_only_the_public_view(running, ruleset):
    player = await Client.connect(running.port, "player")
    ok = await player.request(m.CreateTable(ruleset=ruleset, seats=4))
    table = ok.table
    await player.request(m.Join(table=table, seat=0))
    spectator = await Client.connect(running.port, "spectator")
    await spectator.request(m.Spectate(table=table))
    await player.request(m.StartGame(table=table))
    async with trio.open_nursery() as nursery:
        nursery.start_soon(player.play, table)
        await spectator.wait_for(lambda x: isinstance(x, m.Snapshot) and x.state == "over")

    events, views = public_history(running.store, int(table))
    checked_events = checked_views = checked_turns = 0
    for msg in MsgpackDecoder().feed(bytes(spectator.raw)):  # every byte, decoded afresh
        assert isinstance(msg, (m.Welcome, m.Named, m.Snapshot, m.TableEvent, m.Turn)), msg
        if isinstance(msg, m.TableEvent):
            assert msg.event == events[msg.seq]
            checked_events += 1
        elif isinstance(msg, m.Turn):  # a spectator's turn: the public view, nothing to do
            assert msg.seat is None and msg.legal == ()
            assert msg.view == views[msg.seq]
            assert msg.view["hand"] is None
            assert msg.to_act == msg.view["to_act"]
            checked_turns += 1
        elif isinstance(msg, m.Snapshot) and msg.state != "waiting":
            assert msg.seat is None and msg.legal == ()
            assert msg.view == views[msg.seq]
            assert msg.view["hand"] is None
            checked_views += 1
    assert checked_events == len(events) > 0 and checked_views >= 2
    assert checked_turns >= len(set(views)) - 1  # one after each batch (the start has none)
