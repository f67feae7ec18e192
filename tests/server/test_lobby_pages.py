"""The lobby a page at a time: ``list_tables`` answers with at most ``lobby_page`` tables,
the ones waiting for players first, with the page's place, the next page's and the
tables in all; each page is built and encoded once until a table changes, so what a
crowd of askers costs grows with a page, not with the lobby. Text mode's ``tables``
says which tables a page shows and how to see the next ones."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import trio
from e2e_client import TEST_CONFIG, Client, serving_server

from protocol import messages as m
from protocol.limits import DEFAULT_LIMITS
from protocol.text_codec import ServerTextCodec
from server.app import Server
from server.core.config import ServerConfig
from server.store.base import MemoryStore, StoredState
from server.tables.lobby import Lobby
from server.transport.framing import SharedEncodings, TextFraming
from server.transport.shared_listing import json_tables

CONFIG = TEST_CONFIG.replace(trusted_addresses=("127.0.0.1",), tables_per_name=0, lobby_page=5)


@asynccontextmanager
async def serving(**settings: Any) -> AsyncIterator[int]:
    config: ServerConfig = CONFIG.replace(**settings)
    async with serving_server(Server(config, MemoryStore())) as (_server, port):
        yield port


async def playing_table(host: Client) -> str:
    """A two-seat table whose game waits for the host's move (no clock): playing."""
    made = await host.request(m.CreateTable(ruleset="switch", seats=2, options={"turn_seconds": 0}))
    assert isinstance(made, m.Ok), made
    assert isinstance(await host.request(m.Join(table=made.table, seat=0)), m.Seated)
    assert isinstance(await host.request(m.StartGame(table=made.table)), m.Ok)
    return str(made.table)


async def page(client: Client, **asked: Any) -> m.Tables:
    reply = await client.request(m.ListTables(**asked))
    assert isinstance(reply, m.Tables), reply
    return reply


async def test_the_lobby_comes_a_page_at_a_time_the_waiting_tables_first() -> None:
    async with serving() as port:
        host = await Client.connect(port, "host")
        playing = await playing_table(host)  # the oldest table, but not waiting
        for _ in range(11):
            assert isinstance(await host.request(m.CreateTable(ruleset="switch", seats=4)), m.Ok)
        first = await page(host)
        assert (len(first.tables), first.start, first.next, first.total) == (5, 0, 5, 12)
        assert all(t["state"] == "waiting" for t in first.tables)
        last = await page(host, start=first.next + 5)
        assert (len(last.tables), last.start, last.next, last.total) == (2, 10, None, 12)
        assert last.tables[-1]["table"] == playing  # the tables playing after the waiting
        listed = [
            t["table"] for start in (0, 5, 10) for t in (await page(host, start=start)).tables
        ]
        assert len(set(listed)) == 12  # every table on one page, once
        assert len((await page(host, count=100)).tables) == 5  # never more than a page
        few = await page(host, start=3, count=2)
        assert (len(few.tables), few.next) == (2, 5)
        past = await page(host, start=50)
        assert (past.tables, past.next, past.total) == ((), None, 12)


async def test_a_page_is_one_tuple_until_a_table_changes(nursery) -> None:
    lobby = Lobby(CONFIG, MemoryStore(), StoredState())
    await nursery.start(lobby.run)
    for _ in range(8):
        await lobby.create("switch", 4, {"turn_seconds": 0}, "ann", address=None)
    one, total = lobby.page(0, 5)
    assert total == 8 and lobby.page(0, 5)[0] is one  # shared: built and encoded once
    assert lobby.page(5, 5)[0] is lobby.page(5, 5)[0]
    await lobby.create("switch", 2, {}, "bob", address=None)
    again, total = lobby.page(0, 5)
    assert total == 9 and again is not one
    assert all(a is b for a, b in zip(again, one, strict=True))  # the summaries kept


def test_a_pages_bytes_are_the_codecs_own_and_made_once() -> None:
    listing = tuple({"table": str(i), "seats": 4, "players": [None] * 4} for i in range(3))
    reply = m.Tables.trusted(tables=listing, start=6, next=9, total=20, id=3)
    plain = m.Tables(tables=listing, start=6, next=9, total=20, id=3)
    from protocol.json_codec import encode as json_encode
    from protocol.msgpack_codec import encode as msgpack_encode

    assert SharedEncodings().encode(reply) == msgpack_encode(plain)
    assert json_tables(reply) == json_encode(plain).encode()


def test_text_mode_says_which_tables_a_page_shows_and_how_to_see_more() -> None:
    listing = tuple(
        {"table": str(i), "ruleset": "switch", "state": "waiting", "seats": 2, "taken": 0,
         "players": [None, None], "master": None, "spectators": 0}
        for i in (1, 2)
    )  # fmt: skip
    codec = ServerTextCodec(DEFAULT_LIMITS)
    codec.format = "text"
    lines = codec.encode(m.Tables(tables=listing, start=0, next=2, total=7)).decode()
    assert lines.splitlines()[-1] == (
        "tables · tables 1 to 2 of 7, waiting ones first: tables 2 shows the next"
    )
    last = codec.encode(m.Tables(tables=listing, start=5, total=7)).decode()
    assert last.splitlines()[-1].endswith(
        "tables 6 to 7 of 7, waiting ones first: tables 0 shows the first"
    )
    whole = codec.encode(m.Tables(tables=listing, total=2)).decode()
    assert len(whole.splitlines()) == 2  # the whole lobby: no line about pages
    for fmt in ("text", "json"):  # the shared bytes say it as the codec does
        framing = TextFraming(DEFAULT_LIMITS)
        framing._codec.format = codec.format = fmt
        for msg in (m.Tables.trusted(tables=listing, start=2, next=4, total=9, id=8),
                    m.Tables.trusted(tables=listing, total=2)):  # fmt: skip
            assert framing.encode(msg) == codec.encode(msg)
    assert codec.encode(m.Tables(tables=listing, start=2, next=4, total=9, id=8)).startswith(
        b"tables #8 start=2 next=4 total=9 ["
    )


async def test_text_mode_tables_shows_a_page_and_the_next() -> None:
    async with serving() as port:
        host = await Client.connect(port, "host")
        for _ in range(7):
            assert isinstance(await host.request(m.CreateTable(ruleset="switch", seats=4)), m.Ok)
        stream = await trio.open_tcp_stream("127.0.0.1", port)
        got = b""

        async def said(line: bytes, until: bytes) -> str:
            nonlocal got
            got = b""
            await stream.send_all(line)
            with trio.fail_after(10):  # a guard against a hang, not a measurement
                while until not in got:
                    got += await stream.receive_some(65536)
            return got.decode()

        await said(b"name visitor pw1234\n", b"named")
        first = await said(b"tables\n", b"shows the next")
        assert first.count("join ") == 5 and "tables 1 to 5 of 7" in first
        rest = await said(b"tables 5\n", b"shows the first")
        assert rest.count("join ") == 2 and "tables 6 to 7 of 7" in rest
        await stream.aclose()
