"""A game replayed in full though a snapshot was due (none stored, one without a digest,
a damaged one) has its snapshot stored, digested, once its table runs: a game that ended
before it had a usable snapshot was replayed in full at every start, forever."""

from __future__ import annotations

import dataclasses

import pytest
import trio
import trio.testing
from e2e_client import serving_server
from test_snapshot_restore import CONFIG, check_same, play

from server.app import Server
from server.store.base import MemoryStore
from server.tables.table import OVER, Table


@pytest.mark.parametrize("actions", [None, 30])  # a game that ended; one that runs
async def test_a_game_replayed_in_full_is_stored_digested_after_the_replay(
    actions: int | None, autojump_clock: trio.testing.MockClock
) -> None:
    store = MemoryStore()
    await play(store, 1, "kilodney", 4, actions)
    g = store.state.tables[1].game
    assert g is not None and g.snapshot is not None
    if actions is None:
        assert g.over
    g.snapshot = dataclasses.replace(g.snapshot, digest=None)  # as an older version kept it
    first = Table.restore(store.state.tables[1], config=CONFIG, store=store)
    assert first.replayed_because is not None and "no digest" in first.replayed_because
    async with serving_server(Server(CONFIG.replace(bot_delay_seconds=3600.0), store)) as (
        server,
        _port,
    ):
        table = server.lobby.tables[1]
        assert table.replayed_because is not None  # this start replayed it all
        with trio.fail_after(5):
            while g.snapshot is None or g.snapshot.digest is None:
                await trio.sleep(0.01)
        assert (table.state == OVER) == (actions is None)
    again = Table.restore(store.state.tables[1], config=CONFIG, store=store)
    assert again.replayed_because is None  # the next start restores from the snapshot
    check_same(again, first)
