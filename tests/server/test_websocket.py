"""The WebSocket codec, sans-I/O: frames in, messages out, three ways; control frames; the
limits; and what the client sees when it breaks them (an error, then a close frame)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from wsproto.connection import Connection, ConnectionType
from wsproto.events import CloseConnection, Pong, TextMessage

from protocol import messages as m
from protocol.errors import RemoteProtocolError
from protocol.json_codec import encode as json_encode
from protocol.limits import Limits
from server.core import wire
from server.transport.websocket import WebSocketCodec

# the message strategies the protocol's own tests draw from (tests/protocol)
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "protocol"))
from protocol_strategies import messages
from support import client_frame


def drain(codec: WebSocketCodec) -> list[m.Received]:
    out = []
    while (msg := codec.next_message()) is not None:
        out.append(msg)
    return out


def as_client_sees(data: bytes) -> list[object]:
    """What a real client (wsproto) reads from the server's bytes."""
    client = Connection(ConnectionType.CLIENT)
    client.receive_data(data)
    return list(client.events())


@settings(max_examples=60)
@given(messages())
def test_a_frame_decodes_whole_byte_by_byte_and_with_the_next_behind(msg):
    frame = client_frame(json_encode(msg))
    follower = client_frame(json_encode(m.Ping(id=4)))
    for chunks in (
        [frame],
        [frame[i : i + 1] for i in range(len(frame))],
        [frame + follower[: len(follower) // 2]],
    ):
        codec = WebSocketCodec()
        out = []
        for chunk in chunks:
            codec.receive_data(chunk)
            out += drain(codec)
        assert out == [msg]


def test_a_fragmented_message_is_one_message():
    text = json_encode(m.Say(table="t1", text="bonne chance é"))
    cut = text.encode()
    parts = [cut[:5], cut[5:20], cut[20:]]  # the é may be split between frames
    codec = WebSocketCodec()
    codec.receive_data(client_frame(parts[0], fin=False, opcode=1))
    codec.receive_data(client_frame(parts[1], fin=False, opcode=0))
    assert codec.next_message() is None and codec.buffered > 0
    codec.receive_data(client_frame(parts[2], fin=True, opcode=0))
    assert drain(codec) == [m.Say(table="t1", text="bonne chance é")]
    assert codec.buffered == 0


def test_a_ping_is_answered_with_its_payload_and_a_pong_is_ignored():
    codec = WebSocketCodec()
    codec.receive_data(client_frame(b"abc", opcode=9) + client_frame(b"x", opcode=10))
    assert drain(codec) == []
    (event,) = as_client_sees(codec.outgoing())
    assert event == Pong(payload=b"abc")
    assert codec.outgoing() == b""


def test_a_close_from_the_client_is_answered_and_ends_it():
    codec = WebSocketCodec()
    codec.receive_data(client_frame(b"\x03\xe8bye", opcode=8))
    assert codec.peer_closed
    (event,) = as_client_sees(codec.outgoing())
    assert isinstance(event, CloseConnection) and event.code == 1000
    assert codec.encode(m.Pong()) == b""  # no data frame after a close
    codec.receive_data(b"more")  # ignored
    assert drain(codec) == []


def encoded_failure(codec: WebSocketCodec, exc: RemoteProtocolError) -> list[object]:
    """What the client reads after the connection answers a fatal error."""
    return as_client_sees(codec.encode(m.Error.answering(exc)))


@pytest.mark.parametrize(
    ("data", "code", "close"),
    [
        (client_frame(b'{"type":"ping"}', opcode=2), "bad_frame", 1003),  # binary
        (client_frame(b"\xff\xfe", opcode=1), "bad_frame", 1007),  # not UTF-8
        (b"\x81\x02hi", "bad_frame", 1002),  # not masked
        (client_frame(b"x", opcode=3), "bad_frame", 1002),  # no such opcode
        (client_frame(b"x" * 126, opcode=9), "bad_frame", 1002),  # a control frame too big
        (client_frame("{nope"), "bad_frame", 1002),  # not JSON
        (client_frame('{"type":"ok","text":"' + "x" * 70_000 + '"}'), "too_large", 1009),
    ],
    # Named, not by their bytes: a client frame's mask is random, and every test process
    # (pytest-xdist's workers) must collect the same names.
    ids=[
        "binary",
        "not-utf8",
        "unmasked",
        "no-such-opcode",
        "big-control",
        "not-json",
        "too-large",
    ],
)
def test_a_bad_frame_is_fatal_and_the_client_is_told_why(data, code, close):
    codec = WebSocketCodec()
    with pytest.raises(RemoteProtocolError) as info:
        codec.receive_data(data)
        drain(codec)
    assert info.value.code == code and info.value.fatal
    events = encoded_failure(codec, info.value)
    assert isinstance(events[0], TextMessage)
    assert m.from_map(json.loads(events[0].data)).code == code
    assert isinstance(events[1], CloseConnection) and events[1].code == close
    with pytest.raises(RemoteProtocolError):
        codec.receive_data(client_frame('{"type":"ping"}'))


def test_an_oversized_frame_fails_before_it_is_whole():
    codec = WebSocketCodec(Limits(), max_frame_bytes=1000)
    frame = client_frame("x" * 5000)
    codec.receive_data(frame[:500])  # the header claims 5000; 500 is fine so far
    with pytest.raises(RemoteProtocolError) as info:
        codec.receive_data(frame[500:1200])
    assert info.value.code == "too_large"


def test_an_oversized_message_of_small_frames_fails():
    codec = WebSocketCodec(Limits(max_frame=1000), max_frame_bytes=1000)
    codec.receive_data(client_frame("x" * 600, fin=False, opcode=1))
    with pytest.raises(RemoteProtocolError) as info:
        codec.receive_data(client_frame("x" * 600, fin=False, opcode=0))
    assert info.value.code == "too_large"


def test_an_unknown_type_or_bad_field_keeps_the_connection():
    codec = WebSocketCodec()
    codec.receive_data(client_frame('{"type":"teleport","id":5}') + client_frame('{"id":6}'))
    unknown, invalid = drain(codec)
    assert unknown.error().code == "unknown_type" and invalid.error().code == "bad_message"
    assert not codec.failed


def test_a_goodbye_is_followed_by_the_close_frame():
    for code, close in (("quit", 1000), ("shutdown", 1001), ("slow_reader", 1008)):
        codec = WebSocketCodec()
        text, closing = as_client_sees(codec.encode(wire.goodbye(code, "bye")))
        assert '"goodbye"' in text.data
        assert closing.code == close and closing.reason == code
        assert codec.encode(m.Pong()) == b""


def test_the_end_of_the_stream_mid_message_is_an_error():
    codec = WebSocketCodec()
    codec.receive_data(client_frame("abc", fin=False, opcode=1))
    with pytest.raises(RemoteProtocolError):
        codec.receive_data(b"")
    quiet = WebSocketCodec()
    quiet.receive_data(b"")
    assert quiet.peer_closed


def test_one_message_object_is_framed_once_for_every_connection():
    event = m.TableEvent("t1", 7, {"kind": "play", "seat": 2, "cards": ["QH"]})
    a, b = WebSocketCodec(), WebSocketCodec()
    assert a.encode(event) is b.encode(event)
    (read,) = as_client_sees(a.encode(event))
    assert m.from_map(json.loads(read.data)) == event


def test_the_first_frames_read_with_the_handshake_are_not_lost():
    frame = client_frame(json_encode(m.Hello(id=1)))
    codec = WebSocketCodec(trailing=frame + frame[:3])
    assert drain(codec) == [m.Hello(id=1)]
    codec.receive_data(frame[3:])
    assert drain(codec) == [m.Hello(id=1)]


def test_pings_at_once_get_one_pong_and_a_flood_is_refused():
    codec = WebSocketCodec()
    codec.receive_data(b"".join(client_frame(b"p%d" % i, opcode=9) for i in range(3)))
    (event,) = as_client_sees(codec.outgoing())
    assert event == Pong(payload=b"p2")  # the latest only
    flood = WebSocketCodec()
    with pytest.raises(RemoteProtocolError) as info:
        flood.receive_data(b"".join(client_frame(b"x", opcode=9) for _ in range(17)))
    assert info.value.fatal
    assert encoded_failure(flood, info.value)[1].code == 1002  # bad_frame: 1002, as §18 says


def test_a_message_in_too_many_frames_is_refused():
    text = json_encode(m.Ping(id=1)).encode()
    ok = WebSocketCodec()
    pieces = [text[i : i + 1] for i in range(len(text))]  # 22 one-byte frames
    for i, piece in enumerate(pieces):
        last = i == len(pieces) - 1
        ok.receive_data(client_frame(piece, fin=last, opcode=0 if i else 1))
    assert drain(ok) == [m.Ping(id=1)]
    flood = WebSocketCodec()
    data = client_frame(b"", fin=False, opcode=1)
    data += b"".join(client_frame(b"", fin=False, opcode=0) for _ in range(64))
    with pytest.raises(RemoteProtocolError) as info:
        flood.receive_data(data)
    assert info.value.fatal


def test_a_tables_reply_is_the_json_of_the_whole_message():
    """Its listing is encoded once for every reply (``server.transport.shared_listing``);
    what the client reads is what the JSON codec makes of the message."""
    listing = ({"table": "1", "players": ["åsa", None]}, {"table": "2", "players": []})
    codec = WebSocketCodec()
    for rid in (5, 6):
        msg = m.Tables.trusted(tables=listing, id=rid)
        (event,) = as_client_sees(codec.encode(msg))
        assert isinstance(event, TextMessage) and event.data == json_encode(msg)
