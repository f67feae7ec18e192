"""A create's checks read the lobby's counts of who holds its tables (by creator name and
address, kept as tables open and close), not every table: the counts agree with a walk
over the tables, and the limits they enforce still hold (tests/server/test_table_quotas.py
and test_crowd_lobby.py hold them over the wire and under a crowd)."""

from __future__ import annotations

import trio
from support import settle

from server.core.commands import Close
from server.core.config import ServerConfig
from server.store.base import MemoryStore, StoredState
from server.tables.lobby import Lobby
from server.tables.supply import Supply

CONFIG = ServerConfig(
    host="127.0.0.1",
    port=0,
    scrypt_n=2,
    bot_thinking="threads",
    trusted_addresses=("127.0.0.1",),
    max_tables=40,
    tables_reserve=4,
    tables_per_address=0,
    empty_table_seconds=600.0,
)


async def test_the_counts_agree_with_every_table_and_no_create_walks_them(nursery) -> None:
    lobby = Lobby(CONFIG, MemoryStore(), StoredState())
    await nursery.start(lobby.run)
    made = []
    for i in range(12):
        address = ["10.0.0.1", "10.0.0.2", "10.0.0.3", "127.0.0.1"][i % 4]
        name = ["ann", "bob"][i % 2]
        made.append(await lobby.create("switch", 4, {}, name, address=address))
    await lobby.create("switch", 2, {}, None, address=None)  # the house's: never counted
    for table in made[:3]:
        await table.submit(Close("done"))
    await settle()
    walked = Supply(CONFIG, lobby.tables.values)  # counts by walking every table
    assert lobby.supply._holdings() == walked._holdings()
    assert lobby.supply._holdings()[0] == 6  # 9 open, 3 of them the trusted address's
    assert lobby.holdings.of_name("ANN") == 4 and lobby.holdings.of_address("10.0.0.1") == 2

    def walk() -> list[object]:
        raise AssertionError("a create walked every table")

    lobby.supply._tables = walk
    assert lobby.supply.refuse("10.0.0.9") is None  # a newcomer, on a server with room
    assert lobby.supply.refuse("10.0.0.2") is None
    with trio.fail_after(5):
        await lobby.create("switch", 4, {}, "cy", address="10.0.0.9")
    assert lobby.holdings.of_address("10.0.0.9") == 1
