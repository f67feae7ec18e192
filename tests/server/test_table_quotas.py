"""Tables have owners: open tables are limited per name and per address (a stable code),
the game master closes his own table over the wire, and an operator lists tables and
closes them in bulk: every empty one, or every one of a name."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import trio
from e2e_client import Client

from protocol import messages as m
from server.app import Server
from server.core.config import ServerConfig

#: Nobody trusted: the tests connect from 127.0.0.1 like everyone.
CONFIG = ServerConfig(
    host="127.0.0.1",
    port=0,
    scrypt_n=2,
    trusted_addresses=(),
    tables_per_name=2,
    tables_per_address=4,
    operator_secret="opsecret",
)


@pytest.fixture
async def server(nursery: trio.Nursery) -> AsyncIterator[Server]:
    s = Server(CONFIG)
    s.port = await nursery.start(s.serve)
    yield s
    s.shutdown()


async def create(c: Client) -> m.Received:
    return await c.request(m.CreateTable(ruleset="switch", seats=4))


async def test_open_tables_are_limited_per_name_and_per_address(server):
    ann = await Client.connect(server.port, "ann")
    bob = await Client.connect(server.port, "bob")
    carl = await Client.connect(server.port, "carl")
    made = [await create(ann), await create(ann)]
    assert all(isinstance(r, m.Ok) for r in made)
    third = await create(ann)
    assert isinstance(third, m.Error) and third.code == "too_many_tables"
    assert "limit is 2" in third.text
    for _ in range(2):  # a new name...
        assert isinstance(await create(bob), m.Ok)
    fifth = await create(carl)  # ...and another, from the same address, which has 4 open
    assert isinstance(fifth, m.Error) and fifth.code == "too_many_tables"
    assert "address" in fifth.text
    closed = await ann.request(m.CloseTable(table=made[0].table, reason="done"))
    assert isinstance(closed, m.Ok)
    with trio.fail_after(5):  # a closed table no longer counts
        while isinstance(await create(carl), m.Error):
            await trio.sleep(0.01)


async def test_the_game_master_closes_his_table_over_the_wire(server):
    ann = await Client.connect(server.port, "ann")
    bob = await Client.connect(server.port, "bob")
    table = (await create(ann)).table
    await bob.request(m.Spectate(table=table))
    refused = await bob.request(m.CloseTable(table=table))
    assert isinstance(refused, m.Error) and refused.code == "not_master"
    assert isinstance(await ann.request(m.CloseTable(table=table, reason="see you")), m.Ok)
    told = await bob.wait_for(lambda x: isinstance(x, m.Notice))
    assert "closed" in told.text and "see you" in told.text
    with trio.fail_after(5):
        while server.lobby.get(table) is not None:
            await trio.sleep(0.01)
    gone = await bob.request(m.Join(table=table))
    assert isinstance(gone, m.Error) and gone.code == "no_table"


async def test_the_operator_lists_tables_and_closes_them_in_bulk(server):
    ann = await Client.connect(server.port, "ann")
    bob = await Client.connect(server.port, "bob")
    carl = await Client.connect(server.port, "carl")
    empty = [(await create(ann)).table, (await create(ann)).table]
    held = (await create(bob)).table
    await bob.request(m.Join(table=held, seat=0))
    other = (await create(carl)).table
    await carl.request(m.Spectate(table=other))
    op = await Client.connect(server.port)
    assert isinstance(await op.request(m.AdminAuth(secret="opsecret")), m.Ok)
    listed = {t["table"]: t for t in (await op.request(m.AdminTables())).tables}
    assert listed[empty[0]]["creator"] == "ann" and not listed[empty[0]]["present"]
    assert listed[held]["present"] and listed[other]["present"]
    nothing = await op.request(m.AdminCloseTables())
    assert isinstance(nothing, m.Error) and nothing.code == "bad_message"
    done = await op.request(m.AdminCloseTables(empty=True, reason="tidying up"))
    assert isinstance(done, m.Ok) and "closed 2" in done.text
    again = await op.request(m.AdminCloseTables(creator="ann"))  # closed already: none left
    assert isinstance(again, m.Ok) and "closed 0" in again.text
    done = await op.request(m.AdminCloseTables(creator="BOB", reason="squatting"))
    assert isinstance(done, m.Ok) and "closed 1" in done.text
    told = await bob.wait_for(lambda x: isinstance(x, m.Notice))
    assert "squatting" in told.text
    with trio.fail_after(5):
        while len(server.lobby.tables) > 1:
            await trio.sleep(0.01)
    assert list(server.lobby.tables) == [int(other)]
