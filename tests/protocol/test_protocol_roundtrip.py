"""Every message type round-trips through both codecs, and every frame or line
decodes the same fed whole, one byte at a time, or with the next one's first
bytes behind it (the h11 test_io pattern)."""

from __future__ import annotations

import msgpack
import pytest
from hypothesis import given
from hypothesis import strategies as st
from protocol_strategies import ALL_CLASSES, message_strategy, messages

from protocol import messages as m
from protocol.commands import format_command, parse_command
from protocol.msgpack_codec import HEADER, MsgpackDecoder, encode
from protocol.text_codec import ClientTextCodec, ServerTextCodec, format_lines, parse_line


def three_ways(make_decoder, data: bytes, follower: bytes) -> list[list[object]]:
    """Decode ``data`` whole, byte by byte, and with ``follower``'s first bytes behind."""
    results = []
    for chunks in (
        [data],
        [data[i : i + 1] for i in range(len(data))],
        [data + follower[: max(1, len(follower) // 2)]],
    ):
        decoder = make_decoder()
        out = []
        for chunk in chunks:
            decoder.receive_data(chunk)
            while (msg := decoder.next_message()) is not None:
                out.append(msg)
        results.append(out)
    return results


@pytest.mark.parametrize("cls", ALL_CLASSES, ids=lambda c: c.type)
@given(data=st.data())
def test_msgpack_round_trip_every_type(cls, data):
    msg = data.draw(message_strategy(cls))
    frame = encode(msg)
    follower = encode(m.Ping(id=1))
    for out in three_ways(MsgpackDecoder, frame, follower):
        assert out == [msg]


@pytest.mark.parametrize("cls", ALL_CLASSES, ids=lambda c: c.type)
@given(data=st.data())
def test_msgpack_frame_is_the_message_map_packed(cls, data):
    """The encoder's own map maker writes the very bytes of ``to_map``, in its order."""
    msg = data.draw(message_strategy(cls))
    body = msgpack.packb(msg.to_map(), use_bin_type=True)
    assert encode(msg) == HEADER.pack(len(body)) + body


@pytest.mark.parametrize("cls", ALL_CLASSES, ids=lambda c: c.type)
@given(data=st.data())
def test_text_round_trip_every_type(cls, data):
    msg = data.draw(message_strategy(cls, text=True))
    if m.SENDER[cls] != m.CLIENT:
        # Server -> client: a line the client codec reads back.
        lines = format_lines(msg)
        assert len(lines) == 1 and "\n" not in lines[0]
        assert parse_line(lines[0]) == msg
        payload = (lines[0] + "\n").encode()
        for out in three_ways(ClientTextCodec, payload, b"pong\n"):
            assert out == [msg]
    if m.SENDER[cls] != m.SERVER:
        # Client -> server: a command line the server codec reads back.
        table = data.draw(st.none() | st.just(getattr(msg, "table", None)))
        line = format_command(msg, table=table)
        assert parse_command(line, table=table) == msg
        payload = (format_command(msg) + "\n").encode()

        def server_codec() -> ServerTextCodec:
            codec = ServerTextCodec()
            codec.receive_data(b"hello\n")
            assert codec.next_message() == m.Hello(client="text")
            return codec

        for out in three_ways(server_codec, payload, b"ping\n"):
            assert out == [msg]


@given(messages())
def test_a_stream_of_frames_decodes_in_order(msg):
    stream = encode(m.Ping(id=0)) + encode(msg) + encode(m.Pong(id=2))
    decoder = MsgpackDecoder()
    assert decoder.feed(stream[:7]) == []
    assert decoder.feed(stream[7:]) == [m.Ping(id=0), msg, m.Pong(id=2)]


def test_multi_line_help_goes_out_one_line_each():
    lines = format_lines(m.HelpText(lines=("a", "b c"), topic="join", id=3))
    assert lines == ["help #3 topic=join a", "help #3 topic=join b c"]
    assert [parse_line(line).lines for line in lines] == [("a",), ("b c",)]


def test_text_lines_people_read():
    assert format_lines(m.Talk(table="t1", name="ann", text="good luck")) == [
        "talk t1 ann: good luck"
    ]
    assert format_lines(m.Error(code="bad_command", text="unknown command 'jion'")) == [
        "error bad_command unknown command 'jion'"
    ]
    assert format_lines(m.Ok(table="t3", text="created", id=4)) == ["ok #4 table=t3 created"]
    assert format_lines(m.TableEvent("t1", 7, {"kind": "play", "seat": 2, "cards": ["QH"]})) == [
        'event t1 7 play {"seat":2,"cards":["QH"]}'
    ]
    turn = m.Turn("t1", 7, seat=2, to_act=2, legal=("play QH", "draw"), clock=60)
    assert format_lines(turn) == ["turn t1 7 2 2 clock=60 legal: play QH | draw"]
    assert format_lines(m.Turn("t1", 8, seat=0)) == ["turn t1 8 0 - legal:"]
    assert format_lines(m.Welcome(version=1, server="Switchboard 0.1")) == [
        "welcome 1 switchboard Switchboard 0.1"
    ]


def test_text_that_looks_like_a_key_is_not_taken_for_one():
    for msg in (
        m.Ok(text="table=t9 is not mine"),
        m.Ok(text="#12 is an id"),
        m.Error(code="x", text="supported=1 nope"),
        m.Notice(text="shutdown_in=3"),
    ):
        (line,) = format_lines(msg)
        assert parse_line(line) == msg, line


def test_unknown_fields_are_ignored():
    data = encode(m.Join(table="t1", seat=2))
    decoder = MsgpackDecoder()
    from protocol.msgpack_codec import encode_map

    extra = encode_map({"type": "join", "table": "t1", "seat": 2, "colour": "blue", "v2": [1]})
    assert decoder.feed(extra + data) == [m.Join(table="t1", seat=2)] * 2
