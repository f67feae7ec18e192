"""Records in pages: a long game's record comes in replies within the protocol's limits,
which join to the whole log; a running game's record is for its members; requests are
rate-limited per connection."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import trio
from e2e_client import TEST_CONFIG, Client

import engine
from protocol import messages as m
from protocol.errors import ProtocolError
from protocol.limits import Limits
from protocol.msgpack_codec import encode
from server.app import Server
from server.core.config import ServerConfig
from server.store.base import MemoryStore

#: A switch game to this target runs to some 15,000 events: more than one reply may
#: hold (``max_array``) under the old one-reply record.
LONG = {"target": 9000, "turn_seconds": 0}
LONG_SEED = 1  #: 14,820 actions with the default bots


async def serve(nursery: trio.Nursery, config: ServerConfig) -> Server:
    server = Server(config, MemoryStore())
    server.port = await nursery.start(server.serve)
    return server


@pytest.fixture
async def server(nursery: trio.Nursery) -> AsyncIterator[Server]:
    s = await serve(nursery, TEST_CONFIG.replace(record_burst=1000))  # the rate: its own test
    yield s
    s.shutdown()


async def bots_play(server: Server, c: Client, ruleset: str, options: dict) -> str:
    """A table of four server bots, started by ``c`` (its master), played to the end."""
    ok = await c.request(m.CreateTable(ruleset=ruleset, seats=4, options=options))
    assert isinstance(await c.request(m.StartGame(table=ok.table)), m.Ok)
    table = server.lobby.get(ok.table)
    with trio.fail_after(120):
        while table.state != "over":
            await trio.sleep(0.05)
    return ok.table


async def fetch_all(c: Client, table: str) -> list[m.Record]:
    """Every page of a table's record, following ``next``."""
    pages = [await c.request(m.GetRecord(table=table))]
    while isinstance(pages[-1], m.Record) and pages[-1].next is not None:
        pages.append(await c.request(m.GetRecord(table=table, start=pages[-1].next)))
    return pages


def within_limits(message: m.Message, limits: Limits) -> bool:
    """Whether a client with ``limits`` takes the message (its own decoder decides)."""
    from protocol.msgpack_codec import MsgpackDecoder

    data = encode(message)
    if len(data) - 4 > limits.max_frame:
        return False
    try:
        return len(MsgpackDecoder(limits).feed(data)) == 1
    except ProtocolError:
        return False


async def test_a_long_games_record_comes_in_pages_within_the_limits(server, monkeypatch):
    # a fixed seed (the bots' choices follow from it too): a game known to run long
    monkeypatch.setattr("server.tables.course.secrets.randbits", lambda bits: LONG_SEED)
    c = await Client.connect(server.port, "archivist")
    table = await bots_play(server, c, "switch", LONG)
    game = server.lobby.get(table).game
    whole = game.record()
    assert len(whole["actions"]) > Limits().max_array  # one reply could not hold it
    reader = await Client.connect(server.port)  # anyone, unnamed, at no table
    pages = await fetch_all(reader, table)
    assert all(isinstance(p, m.Record) and p.full for p in pages), pages[-1]
    assert len(pages) > 1
    for p in pages:
        assert within_limits(p, Limits())
        assert len(p.record["actions"]) <= TEST_CONFIG.record_page
        assert p.total == len(whole["actions"]) and p.game == pages[0].game
    joined = [a for p in pages for a in p.record["actions"]]
    assert joined == whole["actions"]
    rebuilt = {**pages[0].record, "actions": joined}
    assert engine.replay(rebuilt).view(None) == game.view(None)


async def test_a_running_games_public_log_pages_join_to_what_spectators_were_sent(nursery):
    server = await serve(nursery, TEST_CONFIG.replace(record_page=7))
    master = await Client.connect(server.port, "host")
    ok = await master.request(
        m.CreateTable(ruleset="kilodney", seats=4, options={"turn_seconds": 0})
    )
    await master.request(m.Join(table=ok.table, seat=0))
    watcher = await Client.connect(server.port, "fan")
    await watcher.request(m.Spectate(table=ok.table))
    await master.request(m.StartGame(table=ok.table))
    for _ in range(6):  # a few of the player's own moves; the bots move between them
        turn = await master.wait_for(
            lambda x: isinstance(x, m.Turn) and x.to_act == x.seat and x.legal
        )
        assert isinstance(await master.request(m.Act(table=ok.table, action=turn.legal[0])), m.Ok)
    await master.wait_for(lambda x: isinstance(x, m.Turn) and x.to_act == x.seat and x.legal)
    pages = await fetch_all(watcher, ok.table)
    assert len(pages) > 1 and not any(p.full for p in pages)
    assert all(len(p.record["events"]) <= 7 for p in pages)
    joined = [e for p in pages for e in p.record["events"]]
    seen = [x.event for x in watcher.inbox if isinstance(x, m.TableEvent)]
    assert joined == seen


async def test_a_running_games_record_is_refused_to_a_non_member(server):
    master = await Client.connect(server.port, "keeper")
    ok = await master.request(m.CreateTable(ruleset="switch", seats=2, options=LONG))
    await master.request(m.Join(table=ok.table, seat=0))
    await master.request(m.StartGame(table=ok.table))
    stranger = await Client.connect(server.port, "stranger")
    refused = await stranger.request(m.GetRecord(table=ok.table))
    assert isinstance(refused, m.Error) and refused.code == "not_member"
    assert isinstance(await master.request(m.GetRecord(table=ok.table)), m.Record)
    await stranger.request(m.Spectate(table=ok.table))  # watching makes him a member
    page = await stranger.request(m.GetRecord(table=ok.table))
    assert isinstance(page, m.Record) and not page.full


async def test_record_requests_are_rate_limited_per_connection(nursery):
    config = TEST_CONFIG.replace(record_burst=3, record_per_second=0.001)
    server = await serve(nursery, config)
    c = await Client.connect(server.port, "greedy")
    table = await bots_play(server, c, "switch", {"turn_seconds": 0})
    replies = [await c.request(m.GetRecord(table=table)) for _ in range(4)]
    assert [type(r) for r in replies] == [m.Record] * 3 + [m.Error]
    assert replies[-1].code == "rate_limited"
    other = await Client.connect(server.port)  # another connection has its own allowance
    assert isinstance(await other.request(m.GetRecord(table=table)), m.Record)


async def test_a_text_client_gets_each_page_as_one_line_within_max_line(server):
    master = await Client.connect(server.port, "scribe")
    ok = await master.request(
        m.CreateTable(ruleset="kilodney", seats=4, options={"turn_seconds": 0})
    )
    await master.request(m.Join(table=ok.table, seat=0))
    await master.request(m.StartGame(table=ok.table))
    for _ in range(12):  # his own moves; the bots move between them
        turn = await master.wait_for(
            lambda x: isinstance(x, m.Turn) and x.to_act == x.seat and x.legal
        )
        await master.request(m.Act(table=ok.table, action=turn.legal[0]))
    reader = await Client.connect(server.port, text=True)
    await reader.request(m.Spectate(table=ok.table))
    rec = await reader.record(ok.table)
    assert isinstance(rec, m.Record) and not rec.full
    seen = [x.event for x in master.inbox if isinstance(x, m.TableEvent)]
    assert len(rec.record["events"]) >= len(seen) > 0
    lines = bytes(reader.raw).split(b"\n")
    assert sum(line.startswith(b"record ") for line in lines) > 1  # it took several pages
    assert max(len(line) + 1 for line in lines) <= Limits().max_line
