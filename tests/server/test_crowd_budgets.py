"""Budgets per address: every connection of one address draws on one budget for the
replies that cost the server's loop real work (profiles, history and top; record pages;
the lobby's listing), so 64 connections from a host get no more than its budget; another
address has its own, and trusted addresses have none.

Clients connect over loopback from 127.0.0.2 and up (another address each, on this
machine alone) to a server on 127.0.0.1, which trusts 127.0.0.1 only."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import trio
from e2e_client import TEST_CONFIG, Client, serving_server

from protocol import messages as m
from server.app import Server
from server.core.config import ServerConfig
from server.store.base import MemoryStore

CONFIG = TEST_CONFIG.replace(trusted_addresses=("127.0.0.1",), close_grace_seconds=0.5)


async def connect_from(address: str, port: int, name: str) -> Client:
    """A client whose connection comes from ``address`` (a loopback one)."""
    sock = trio.socket.socket()
    await sock.bind((address, 0))
    await sock.connect(("127.0.0.1", port))
    client = Client(trio.SocketStream(sock))
    assert isinstance(await client.request(m.Hello()), m.Welcome)
    assert isinstance(await client.request(m.ClaimName(name=name, secret="pw")), m.Named)
    return client


@asynccontextmanager
async def serving(**settings: Any) -> AsyncIterator[int]:
    config: ServerConfig = CONFIG.replace(**settings)
    async with serving_server(Server(config, MemoryStore())) as (_server, port):
        yield port


async def answered(clients: list[Client], ask: Any, each: int) -> list[int]:
    """How many of ``each`` requests (``ask()`` makes one) each client got answered
    without ``rate_limited``."""
    counts = []
    for client in clients:
        n = 0
        for _ in range(each):
            reply = await client.request(ask())
            if isinstance(reply, m.Error):
                assert reply.code == "rate_limited", reply
            else:
                n += 1
        counts.append(n)
    return counts


async def test_profile_requests_share_one_budget_per_address() -> None:
    async with serving(profile_address_burst=6, profile_address_per_second=0.01) as port:
        crowd = [await connect_from("127.0.0.2", port, f"c{i}") for i in range(3)]
        ask = lambda: m.GetProfile(name="c0")  # noqa: E731
        assert await answered(crowd, ask, 3) == [3, 3, 0]  # six for the whole address
        other = await connect_from("127.0.0.3", port, "other")
        assert await answered([other], ask, 3) == [3]  # its own budget
        host = await Client.connect(port, "host")  # trusted: none
        assert await answered([host], ask, 10) == [10]
        refused = await crowd[0].request(m.GetHistory(name="c0"))  # history draws on it too
        assert isinstance(refused, m.Error) and "from your address" in refused.text


async def finished_table(port: int) -> str:
    """A table whose game four server bots played out, made by the (trusted) host."""
    host = await Client.connect(port, "maker")
    made = await host.request(m.CreateTable(ruleset="switch", seats=4, options={"turn_seconds": 0}))
    for seat in range(4):
        assert isinstance(await host.request(m.SeatBot(table=made.table, seat=seat)), m.Ok)
    assert isinstance(await host.request(m.StartGame(table=made.table)), m.Ok)
    with trio.fail_after(30):  # a guard against a hang, not a measurement
        while not getattr(await host.request(m.GetRecord(table=made.table)), "full", False):
            await trio.sleep(0.05)
    return str(made.table)


async def test_record_pages_share_one_budget_per_address() -> None:
    async with serving(record_address_burst=6, record_address_per_second=0.01) as port:
        table = await finished_table(port)
        crowd = [await connect_from("127.0.0.2", port, f"c{i}") for i in range(3)]
        ask = lambda: m.GetRecord(table=table)  # noqa: E731
        assert await answered(crowd, ask, 3) == [3, 3, 0]
        assert await answered([await connect_from("127.0.0.3", port, "other")], ask, 3) == [3]
        assert await answered([await Client.connect(port, "host")], ask, 10) == [10]


async def test_lobby_listings_share_one_budget_per_address_charged_by_size() -> None:
    settings = {"lobby_address_burst": 6, "lobby_address_per_second": 0.01,
                "tables_per_name": 0, "lobby_page": 300}  # fmt: skip
    async with serving(**settings) as port:
        crowd = [await connect_from("127.0.0.2", port, f"c{i}") for i in range(3)]
        assert await answered(crowd, m.ListTables, 3) == [3, 3, 0]
        host = await Client.connect(port, "host")
        assert await answered([host], m.ListTables, 10) == [10]  # trusted: no address budget
        assert await answered([host], m.ListTables, 1) == [0]  # but its connection's own
        maker = await Client.connect(port, "maker")
        for _ in range(250):  # a listing of 250 tables costs three tokens
            await maker.request(m.CreateTable(ruleset="switch", seats=4))
        other = await connect_from("127.0.0.3", port, "other")
        assert await answered([other], m.ListTables, 3) == [2]
        # a page is charged for what it holds: 50 of the 250 tables, one token
        page = lambda: m.ListTables(count=50)  # noqa: E731
        assert await answered([await connect_from("127.0.0.4", port, "fourth")], page, 6) == [6]
