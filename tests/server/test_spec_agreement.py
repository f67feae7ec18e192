"""Where a client written from docs/protocol.md alone found the server doing otherwise: each
case as the spec now says it, checked against the server."""

from __future__ import annotations

import pytest
import trio
from e2e_client import TEST_CONFIG, Client
from test_websocket_server import ws_connect
from wsproto.connection import Connection, ConnectionType
from wsproto.events import Ping, TextMessage

from protocol import messages as m
from protocol.errors import RemoteProtocolError
from server.app import Server
from server.store.base import MemoryStore
from server.transport.websocket import WebSocketCodec


def _frames(*texts: str) -> bytes:
    client = Connection(ConnectionType.CLIENT)
    return b"".join(client.send(TextMessage(data=t)) for t in texts)


def test_an_unknown_type_answered_before_a_malformed_message_does_not_close() -> None:
    """§18: an unknown type gets ``error unknown_type`` and the connection carries on; the
    malformed message after it, read at once, is what closes, with 1002 and its code."""
    codec = WebSocketCodec()
    codec.receive_data(_frames('{"type":"frobnicate","id":5}', '{"type": "hello",'))
    unknown = codec.next_message()
    assert isinstance(unknown, m.UnknownMessage)
    with pytest.raises(RemoteProtocolError) as failed:
        codec.next_message()
    first = codec.encode(unknown.error())  # encoded after the failure: still no close
    assert first.startswith(b"\x81") and b"\x88" not in first[:2] and b"unknown_type" in first
    last = codec.encode(m.Error.answering(failed.value))
    close = last[last.index(b"\x88") :]
    assert close[2:4] == (1002).to_bytes(2, "big") and close.endswith(b"bad_frame")


@pytest.mark.parametrize(
    "data",
    [
        b"".join(Connection(ConnectionType.CLIENT).send(Ping(b"%d" % i)) for i in range(17)),
        b"".join(
            Connection(ConnectionType.CLIENT).send(TextMessage(data="x", message_finished=False))
            for _ in range(65)
        ),
    ],
    ids=["17 pings in one read", "a message in 65 frames"],
)
def test_every_bad_frame_closes_with_1002(data: bytes) -> None:
    codec = WebSocketCodec()
    with pytest.raises(RemoteProtocolError) as failed:
        codec.receive_data(data)
    assert failed.value.code == "bad_frame"
    out = codec.encode(m.Error.answering(failed.value))
    assert out[out.index(b"\x88") + 2 : out.index(b"\x88") + 4] == (1002).to_bytes(2, "big")


async def test_over_a_websocket_the_errors_come_in_order_then_the_close(running) -> None:
    ws = await ws_connect(running.port)
    assert isinstance(await ws.request(m.Hello()), m.Welcome)
    codec = ws.codec
    data = codec.ws.send(TextMessage(data='{"type":"frobnicate","id":5}'))  # type: ignore[attr-defined]
    data += codec.ws.send(TextMessage(data='{"type": "hello",'))  # type: ignore[attr-defined]
    await ws.stream.send_all(data)
    got = []
    with trio.fail_after(10), pytest.raises(EOFError):
        while True:
            got.append(await ws.next())
    assert [(type(x), x.code) for x in got] == [(m.Error, "unknown_type"), (m.Error, "bad_frame")]
    assert codec.close.code == 1002 and codec.close.reason == "bad_frame"  # type: ignore[attr-defined]


async def test_the_seat_counts_a_ruleset_lists_are_those_a_table_may_have(nursery) -> None:
    server = Server(TEST_CONFIG.replace(tables_per_name=0), MemoryStore())
    ann = await Client.connect(await nursery.start(server.serve), "ann")
    rulesets = await ann.request(m.ListRulesets())
    assert isinstance(rulesets, m.Rulesets)
    listed = {rs["name"]: rs for rs in rulesets.rulesets}
    assert listed["abbott"]["seats"] == [2, 4]
    for name in ("abbott", "kilodney", "switch"):
        rs = listed[name]
        for seats in range(rs["min_seats"], rs["max_seats"] + 1):
            reply = await ann.request(m.CreateTable(ruleset=name, seats=seats))
            if seats in rs["seats"]:
                assert isinstance(reply, m.Ok), (name, seats, reply)
            else:
                assert isinstance(reply, m.Error) and reply.code == "bad_options", (name, seats)
    await ann.aclose()
    server.shutdown()


async def test_a_seat_resumed_before_a_name_is_claimed_takes_its_own_name(running) -> None:
    """§9: resume may come before claim_name. The seat stayed its name's, but the
    connection could then claim no name at all while it held it."""
    ann = await Client.connect(running.port, "ann")
    created = await ann.request(m.CreateTable(ruleset="switch", seats=2))
    assert isinstance(created, m.Ok)
    seated = await ann.request(m.Join(table=created.table, seat=0))
    assert isinstance(seated, m.Seated)
    await ann.aclose()
    back = await Client.connect(running.port)
    resumed = await back.request(m.Resume(table=created.table, token=seated.token, last_seq=0))
    assert isinstance(resumed, m.Seated)
    other = await back.request(m.ClaimName(name="bob", secret="pw"))
    assert isinstance(other, m.Error) and other.code == "not_allowed"  # not a second name
    own = await back.request(m.ClaimName(name="ANN", secret="pw"))
    assert isinstance(own, m.Named) and own.name == "ann"
    await back.aclose()
