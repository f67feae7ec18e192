"""Tables have an end: a table nobody is at closes after a grace (and stays closed after a
restart), a game nobody plays is abandoned (its prize returned), and the game master closes
his table with a reason everyone at it is told.

The table runs in-process with fake members under trio's ``autojump_clock``, so the
minutes of grace take no real time and every timing is exact.
"""

from __future__ import annotations

from typing import Any

import trio
import trio.testing
from support import Member, keep_chips, settle

from protocol import messages as m
from server.core.commands import CloseTable, Detach, Join, SetPrize, Start, Watch
from server.core.config import ServerConfig
from server.players.ledger import Ledger
from server.store.base import MemoryStore, SeatSet, TableCreated
from server.tables.table import CLOSED, OVER, PLAYING, Table

GRACE, ABSENT = 60.0, 100.0
CONFIG = ServerConfig(
    host="127.0.0.1", port=0, scrypt_n=2, empty_table_seconds=GRACE, absent_game_seconds=ABSENT
)
OPTIONS = {"turn_seconds": 0, "target": 500}  # no clock: a game waits for its player for ever


async def new_table(nursery: trio.Nursery, store: MemoryStore, ledger: Ledger | None = None):
    await store.commit(TableCreated(1, "switch", 4, dict(OPTIONS), "ann", {}))
    table = Table(1, "switch", 4, dict(OPTIONS), config=CONFIG, store=store, creator="ann")
    keep_chips(table, ledger)
    await nursery.start(table.run)
    return table


async def send(table: Table, command: Any) -> None:
    await table.submit(command)
    await settle()


async def test_a_table_nobody_is_at_closes_after_the_grace(nursery, autojump_clock):
    store = MemoryStore()
    table = await new_table(nursery, store)  # its creator never sits down
    await trio.sleep(GRACE - 1)
    assert table.state != CLOSED
    await trio.sleep(2)
    assert table.state == CLOSED
    assert 1 not in store.load().tables  # stored: a restart does not bring it back


async def test_a_watcher_keeps_a_table_open_and_a_creator_who_left_does_not(
    nursery, autojump_clock
):
    table = await new_table(nursery, MemoryStore())
    ann, fan = Member("ann"), Member("fan")
    await send(table, Join(ann, 1, 0))
    await send(table, Watch(fan, 2))
    await send(table, Detach(ann))  # she holds seat 0 but her connection is gone
    await trio.sleep(10 * GRACE)
    assert table.state != CLOSED  # someone is watching
    await send(table, Detach(fan))
    await trio.sleep(GRACE + 1)
    assert table.state == CLOSED


async def test_a_restored_table_nobody_comes_back_to_closes_after_the_grace(
    nursery, autojump_clock
):
    store = MemoryStore()
    await store.commit(TableCreated(1, "switch", 4, dict(OPTIONS), "ann", {}))
    await store.commit(SeatSet(1, 0, "ann", b"x" * 32))
    table = Table.restore(store.load().tables[1], config=CONFIG, store=store)
    await nursery.start(table.run)
    await trio.sleep(GRACE + 1)
    assert table.state == CLOSED and 1 not in store.load().tables


async def test_a_game_nobody_plays_is_abandoned_and_its_prize_returned(nursery, autojump_clock):
    store = MemoryStore()
    ledger = Ledger(store)
    await ledger.open_account("ann")
    table = await new_table(nursery, store, ledger)
    ann, fan = Member("ann"), Member("fan")
    await send(table, Join(ann, 1, 0))
    await send(table, SetPrize(ann, 2, chips=250))
    assert ledger.balance("ann") == 750
    await send(table, Start(ann, 3))
    await send(table, Watch(fan, 4))
    await trio.sleep(10 * ABSENT)
    assert table.state == PLAYING  # ann is here: nothing happens however long she thinks
    await send(table, Detach(ann))
    await trio.sleep(ABSENT - 1)
    assert table.state == PLAYING
    await trio.sleep(2)
    assert table.state == OVER and store.load().tables[1].game.over
    assert ledger.balance("ann") == 1000 and ledger.prize(1) is None
    assert any("abandoned" in text for text in fan.notices())
    again = Table.restore(store.load().tables[1], config=CONFIG, store=store)
    assert again.state == OVER  # a restart does not bring the abandoned game back to life
    await send(table, Detach(fan))  # now nobody is at it: it closes one grace later
    await trio.sleep(GRACE + 1)
    assert table.state == CLOSED


async def test_the_game_master_closes_his_table_with_a_reason(nursery, autojump_clock):
    store = MemoryStore()
    ledger = Ledger(store)
    await ledger.open_account("ann")
    table = await new_table(nursery, store, ledger)
    ann, bob, fan = Member("ann"), Member("bob"), Member("fan")
    await send(table, Join(ann, 1, 0))
    await send(table, Join(bob, 2, 1))
    await send(table, Watch(fan, 3))
    await send(table, SetPrize(ann, 4, chips=100))
    await send(table, Start(ann, 5))
    await send(table, CloseTable(bob, 6, reason="mine now"))
    refused = next(x for x in bob.got if getattr(x, "id", None) == 6)
    assert isinstance(refused, m.Error) and refused.code == "not_master"
    assert table.state == PLAYING
    await send(table, CloseTable(ann, 7, reason="time for bed"))
    assert isinstance(next(x for x in ann.got if getattr(x, "id", None) == 7), m.Ok)
    assert table.state == CLOSED and 1 not in store.load().tables
    for member in (ann, bob, fan):
        assert any("time for bed" in text for text in member.notices()), member.name
    assert ledger.balance("ann") == 1000  # the running game's prize went back
