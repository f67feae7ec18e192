"""Limits are enforced before memory is committed, and any bytes on the wire get
the protocol's own error, never another exception (h11's fuzz invariant)."""

from __future__ import annotations

import contextlib
import json
import random
import struct

import msgpack
import pytest
from hypothesis import given
from hypothesis import strategies as st
from protocol_strategies import messages
from support import soak

from protocol import messages as m
from protocol.commands import CommandError, parse_command
from protocol.errors import ProtocolError, RemoteProtocolError
from protocol.limits import Limits
from protocol.msgpack_codec import MsgpackDecoder, encode, encode_map
from protocol.text_codec import ClientTextCodec, ServerTextCodec, format_lines, parse_line

SMALL = Limits(max_frame=256, max_depth=4, max_str=40, max_array=8, max_map=8, max_line=80)
RECEIVED = (m.Message, m.UnknownMessage, m.InvalidMessage)


def frame_of(obj: object) -> bytes:
    body = msgpack.packb(obj, use_bin_type=True)
    return struct.pack(">I", len(body)) + body


# ------------------------------------------------------------ msgpack limits
def test_a_frame_claiming_4_gib_fails_on_its_header():
    decoder = MsgpackDecoder()
    decoder.receive_data(b"\xff\xff")  # half a header: nothing to judge yet
    with pytest.raises(RemoteProtocolError) as info:
        decoder.receive_data(b"\xff\xff")
    assert info.value.code == "too_large" and info.value.fatal
    assert decoder.buffered == 0


def test_the_frame_limit_is_exact():
    limits = Limits(max_frame=64)
    body = msgpack.packb({"type": "ok", "text": "x" * 48})
    assert len(body) == 64
    assert MsgpackDecoder(limits).feed(struct.pack(">I", 64) + body) == [m.Ok(text="x" * 48)]
    with pytest.raises(RemoteProtocolError):
        MsgpackDecoder(limits).receive_data(struct.pack(">I", 65))


@pytest.mark.parametrize(
    ("obj", "code"),
    [
        ({"type": "ok", "text": "x" * 41}, "too_large"),  # max_str 40
        ({"type": "rulesets", "rulesets": [{}] * 9}, "too_large"),  # max_array 8
        ({"type": "stats", "stats": {str(i): i for i in range(9)}}, "too_large"),  # max_map 8
        ({"type": "stats", "stats": {"b": b"x"}}, "too_large"),  # max_bin 0
        ({"type": "stats", "stats": {"a": [[[1]]]}}, "too_deep"),  # depth 5 > 4
        ([1, 2], "bad_frame"),  # not a map
        ({1: 2}, "bad_frame"),  # a key that is not a string
    ],
)
def test_limits_and_shape(obj, code):
    decoder = MsgpackDecoder(SMALL)
    decoder.receive_data(frame_of(obj))
    with pytest.raises(RemoteProtocolError) as info:
        decoder.next_message()
    assert info.value.code == code and info.value.fatal


def test_depth_at_the_limit_is_fine():
    obj = {"type": "stats", "stats": {"a": [[]]}}  # map, map, list, list: 4
    assert MsgpackDecoder(SMALL).feed(frame_of(obj)) == [m.Stats(stats={"a": [[]]})]


def test_a_failed_decoder_is_never_used_again():
    decoder = MsgpackDecoder()
    good = encode(m.Ping(id=1))
    decoder.receive_data(b"\x00\x00\x00\x01\xc1" + good)  # 0xc1 is never valid msgpack
    with pytest.raises(RemoteProtocolError):
        decoder.next_message()
    assert decoder.failed
    for call in (lambda: decoder.next_message(), lambda: decoder.receive_data(good)):
        with pytest.raises(RemoteProtocolError):
            call()


def test_end_of_stream_mid_frame_is_an_error_and_between_frames_is_not():
    decoder = MsgpackDecoder()
    frame = encode(m.Ping(id=1))
    assert decoder.feed(frame) == [m.Ping(id=1)]
    decoder.receive_data(b"")
    truncated = MsgpackDecoder()
    truncated.receive_data(frame[:-1])
    with pytest.raises(RemoteProtocolError):
        truncated.receive_data(b"")


def test_empty_frame_is_refused():
    with pytest.raises(RemoteProtocolError):
        MsgpackDecoder().receive_data(b"\x00\x00\x00\x00")


def test_unknown_type_and_bad_field_keep_the_connection():
    decoder = MsgpackDecoder()
    out = decoder.feed(
        encode_map({"type": "teleport", "id": 5})
        + encode_map({"type": "join", "table": "a b", "id": 6})
        + encode_map({"type": "act", "table": "t1", "action": "mvoe c4", "id": 7})
        + encode_map({"type": "seated", "table": "t1", "id": 8})
        + encode(m.Ping(id=9))
    )
    assert out[0] == m.UnknownMessage("teleport", 5)
    assert out[0].error().code == "unknown_type" and out[0].error().id == 5
    assert isinstance(out[1], m.InvalidMessage) and out[1].error().code == "bad_message"
    assert out[1].id == 6
    assert out[2].error().code == "bad_action" and out[2].id == 7
    assert "missing field 'seat'" in out[3].text
    assert out[4] == m.Ping(id=9)
    assert not decoder.failed


# --------------------------------------------------------------- text limits
def test_a_line_over_the_limit_is_fatal_before_its_newline():
    codec = ServerTextCodec(SMALL)
    codec.receive_data(b"x" * 79)
    with pytest.raises(RemoteProtocolError) as info:
        codec.receive_data(b"x")
    assert info.value.code == "too_large"
    assert codec.reader.buffered == 0
    with pytest.raises(RemoteProtocolError):
        codec.next_message()


def test_a_line_at_the_limit_is_fine():
    codec = ServerTextCodec(SMALL)
    line = b"say " + b"x" * 74 + b"\r\n"  # 80 bytes with CRLF
    assert len(line) == 80
    codec.receive_data(b"at t1 " + b"#1\n")  # a bad command is an error reply, not fatal
    codec.receive_data(line)
    assert isinstance(codec.next_message(), m.Hello)
    assert isinstance(codec.next_message(), m.InvalidMessage)
    bad = codec.next_message()
    assert bad.code == "bad_command" and "no current table" in bad.text


def test_text_mode_keeps_going_after_bad_lines():
    codec = ServerTextCodec()
    codec.receive_data(b"jion t1\n\xff\xfe\n\n   \njoin t1\n")
    out = []
    while (msg := codec.next_message()) is not None:
        out.append(msg)
    assert out[0] == m.Hello(client="text")
    assert out[1].error().text == "unknown command 'jion'; did you mean 'join'?"
    assert out[2].code == "bad_command" and "UTF-8" in out[2].text
    assert out[3] == m.Join(table="t1")


def test_text_mode_tracks_the_current_table_from_what_it_sends():
    codec = ServerTextCodec()
    codec.receive_data(b"hello 1\n")
    assert codec.next_message() == m.Hello(versions=(1,), client="text")
    codec.encode(m.Seated(table="t4", seat=1, token="tok"))
    codec.receive_data(b"#3 play qh\nat t5 say hi\n")
    assert codec.next_message() == m.Act(table="t4", action="play QH", id=3)
    assert codec.next_message() == m.Say(table="t5", text="hi")
    # A script sends "join" and "start" together: start goes to the joined table
    # although the seated reply has not been encoded yet.
    codec.receive_data(b"join 9\nstart\nwatch 8\nsay hi\n")
    assert [codec.next_message() for _ in range(4)] == [
        m.Join(table="9"),
        m.StartGame(table="9"),
        m.Spectate(table="8"),
        m.Say(table="8", text="hi"),
    ]


# ---------------------------------------------------------------------- fuzz
def _drain(decoder, data: bytes, chunk: int, limits: Limits, slack: int) -> None:
    """Feed ``data`` in chunks; only protocol errors, bounded buffers."""
    try:
        for i in range(0, len(data), chunk):
            piece = data[i : i + chunk]
            decoder.receive_data(piece)
            held = decoder.buffered if hasattr(decoder, "buffered") else decoder.reader.buffered
            assert held <= slack + len(piece)
            while (msg := decoder.next_message()) is not None:
                assert isinstance(msg, RECEIVED)
        decoder.receive_data(b"")
        while decoder.next_message() is not None:
            pass
    except ProtocolError:
        pass


@given(st.binary(max_size=600), st.integers(1, 64))
def test_fuzz_msgpack_decoder_any_bytes(data, chunk):
    _drain(MsgpackDecoder(SMALL), data, chunk, SMALL, SMALL.max_frame + 4)


msgpack_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(1 << 63), (1 << 64) - 1)
    | st.floats()
    | st.text(max_size=50)
    | st.binary(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=10)
        | st.dictionaries(st.text(max_size=5) | st.integers(0, 3), inner, max_size=10)
    ),
    max_leaves=30,
)


FIELD_NAMES = sorted({name for cls in m.TYPES.values() for name, _r, _d in cls._wire})


@given(
    st.dictionaries(st.sampled_from([*FIELD_NAMES, "type", "x"]), msgpack_values, max_size=8),
    st.sampled_from(list(m.TYPES)),
)
def test_fuzz_msgpack_maps_of_any_values(obj, type_name):
    """Any value in any field of any type: a message, or an error reply, never a crash."""
    obj.setdefault("type", type_name)
    assert isinstance(m.from_map(obj), RECEIVED)
    try:
        out = MsgpackDecoder(SMALL).feed(frame_of(obj))
    except ProtocolError:
        return
    assert len(out) == 1 and isinstance(out[0], RECEIVED)


@given(st.sampled_from(list(m.TYPES.values())), st.data())
def test_fuzz_every_field_with_any_value(cls, data):
    """Each field of each type in turn gets an arbitrary value."""
    fields = {name: data.draw(msgpack_values) for name, _r, _d in cls._wire}
    assert isinstance(m.from_map({"type": cls.type, **fields}), RECEIVED)


@pytest.mark.parametrize("depth", [15, 16, 3000])
def test_deep_json_in_text_is_an_error_not_a_crash(depth):
    deep = "[" * depth + "]" * depth
    reply = parse_line('stats {"a":' + deep + "}")
    assert isinstance(reply, m.InvalidMessage) and reply.code == "too_deep"
    assert parse_line('stats {"a":' + "[" * 14 + "]" * 14 + "}") == m.Stats(
        stats={"a": json.loads("[" * 14 + "]" * 14)}
    )
    with pytest.raises(CommandError, match="nests"):
        parse_command("create abbott 4 a=" + deep)
    codec = ServerTextCodec(Limits(max_line=10_000))
    codec.receive_data(b"hello\ncreate abbott 4 a=" + deep.encode()[:9000] + b"\n")
    assert codec.next_message() == m.Hello(client="text")
    assert isinstance(codec.next_message(), m.InvalidMessage)


@given(messages(), st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 255)), max_size=8))
def test_fuzz_mutated_frames(msg, mutations):
    data = bytearray(encode(msg) + encode(m.Ping(id=1)))
    for pos, byte in mutations:
        data[pos % len(data)] = byte
    _drain(MsgpackDecoder(), bytes(data), 7, Limits(), Limits().max_frame + 4)


@given(st.binary(max_size=400), st.integers(1, 64))
def test_fuzz_text_decoders_any_bytes(data, chunk):
    _drain(ServerTextCodec(SMALL), data, chunk, SMALL, SMALL.max_line)
    _drain(ClientTextCodec(SMALL), data, chunk, SMALL, SMALL.max_line)


@given(messages(text=True), st.lists(st.tuples(st.integers(0, 10_000), st.text(max_size=3))))
def test_fuzz_mutated_lines(msg, mutations):
    line = "\n".join(format_lines(msg)) if m.SENDER[type(msg)] != m.CLIENT else "ping"
    for pos, text in mutations:
        pos %= len(line) + 1
        line = line[:pos] + text + line[pos + 1 :]
    for one in line.split("\n"):
        assert isinstance(parse_line(one), RECEIVED)
    codec = ServerTextCodec()
    _drain(codec, line.encode("utf-8", "replace"), 5, Limits(), Limits().max_line)


@given(st.text(max_size=80), st.none() | st.just("t1"))
def test_fuzz_the_command_parser(line, table):
    with contextlib.suppress(CommandError):
        assert isinstance(parse_command(line, table), m.Message)


@pytest.mark.slow
def test_mutation_soak():
    """Many random mutations of real frames and lines (longer with SWITCHBOARD_SOAK=long)."""
    rng = random.Random(6)
    seeds = [
        encode(m.TableEvent("t1", 3, {"kind": "play", "seat": 1, "cards": ["QH"]})),
        encode(m.Snapshot("t1", 9, "playing", {"grid": [["QH", None]] * 6}, seat=2)),
        encode(m.Hello()),
        encode(m.Act("t1", "play 7H 7D")),
    ]
    lines = [b"turn t1 7 2 2 clock=60 legal: play QH | draw\n", b"join t1 2\nplay qh\n"]
    for _ in range(soak(1_500, 200_000)):
        base = bytearray(rng.choice(seeds) + rng.choice(seeds))
        for _ in range(rng.randint(1, 4)):
            op = rng.randrange(3)
            pos = rng.randrange(len(base))
            if op == 0:
                base[pos] = rng.randrange(256)
            elif op == 1:
                base[pos:pos] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 4)))
            else:
                del base[pos : pos + rng.randint(1, 4)]
        _drain(MsgpackDecoder(), bytes(base), rng.randint(1, 50), Limits(), (1 << 20) + 4)
        text = bytearray(rng.choice(lines))
        text[rng.randrange(len(text))] = rng.randrange(256)
        _drain(ServerTextCodec(), bytes(text), rng.randint(1, 9), Limits(), 4096)
        _drain(ClientTextCodec(), bytes(text), rng.randint(1, 9), Limits(), 4096)
