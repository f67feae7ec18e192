"""The JSON codec: every message type round-trips, its object has exactly the fields of the
msgpack map, and what a peer sends gets the same message or the same error whichever of
the two codecs carried it."""

from __future__ import annotations

import json
import struct

import msgpack
import pytest
from hypothesis import given
from hypothesis import strategies as st
from protocol_strategies import ALL_CLASSES, message_strategy, messages

from protocol import messages as m
from protocol.errors import LocalProtocolError, RemoteProtocolError
from protocol.json_codec import JsonDecoder, encode, encode_map
from protocol.limits import Limits
from protocol.msgpack_codec import MsgpackDecoder

SMALL = Limits(max_frame=4096, max_depth=4, max_str=40, max_array=8, max_map=8)


def msgpack_frame(obj: object) -> bytes:
    body = msgpack.packb(obj, use_bin_type=True)
    return struct.pack(">I", len(body)) + body


def outcome_msgpack(obj: object, limits: Limits) -> object:
    """What a server makes of ``obj`` sent as a msgpack frame: the message, or the code."""
    try:
        (out,) = MsgpackDecoder(limits).feed(msgpack_frame(obj))
    except RemoteProtocolError as exc:
        return ("error", exc.code, exc.fatal)
    return out


def outcome_json(text: str, limits: Limits) -> object:
    try:
        return JsonDecoder(limits).decode(text)
    except RemoteProtocolError as exc:
        return ("error", exc.code, exc.fatal)


def lists(value: object) -> object:
    """``value`` with tuples made lists, as any wire carries them."""
    if isinstance(value, dict):
        return {k: lists(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [lists(v) for v in value]
    return value


@pytest.mark.parametrize("cls", ALL_CLASSES, ids=lambda c: c.type)
@given(data=st.data())
def test_every_type_round_trips_with_the_msgpack_fields(cls, data):
    msg = data.draw(message_strategy(cls))
    text = encode(msg)
    assert json.loads(text) == lists(msg.to_map())
    assert msgpack.unpackb(msgpack.packb(msg.to_map()), raw=False) == json.loads(text)
    assert JsonDecoder().decode(text) == msg


@given(messages())
def test_a_stream_of_messages_decodes_in_order(msg):
    decoder = JsonDecoder()
    texts = [encode(m.Ping(id=0)), encode(msg), encode(m.Pong(id=2))]
    assert decoder.feed(texts) == [m.Ping(id=0), msg, m.Pong(id=2)]


def test_the_json_people_read():
    assert encode(m.Hello(versions=(1,), client="web", id=1)) == (
        '{"type":"hello","versions":[1],"protocol":"switchboard","client":"web","id":1}'
    )
    assert encode(m.Talk(table="3", name="ann", text="bonne chance é")) == (
        '{"type":"talk","table":"3","name":"ann","text":"bonne chance é"}'
    )
    turn = m.Turn("t1", 7, seat=2, to_act=2, legal=("play QH", "draw"), clock=60)
    assert json.loads(encode(turn)) == {
        "type": "turn",
        "table": "t1",
        "seq": 7,
        "seat": 2,
        "to_act": 2,
        "legal": ["play QH", "draw"],
        "clock": 60,
    }


def test_unknown_fields_are_ignored_and_null_is_the_default():
    decoder = JsonDecoder()
    text = '{"type":"join","table":"t1","seat":null,"colour":"blue","v2":[1]}'
    assert decoder.decode(text) == m.Join(table="t1")


def test_unknown_type_and_bad_field_keep_the_connection():
    decoder = JsonDecoder()
    out = decoder.feed(
        [
            '{"type":"teleport","id":5}',
            '{"type":"join","table":"a b","id":6}',
            '{"type":"act","table":"t1","action":"mvoe c4","id":7}',
            '{"type":"seated","table":"t1","id":8}',
            '{"type":"ping","id":9}',
        ]
    )
    assert out[0] == m.UnknownMessage("teleport", 5)
    assert out[1].error().code == "bad_message" and out[1].id == 6
    assert out[2].error().code == "bad_action" and out[2].id == 7
    assert "missing field 'seat'" in out[3].text
    assert out[4] == m.Ping(id=9)
    assert not decoder.failed


def test_a_type_that_is_not_a_string_is_a_bad_message_not_a_crash():
    for text in ('{"type":1,"id":3}', '{"id":3}', '{"type":null}'):
        out = JsonDecoder().decode(text)
        assert isinstance(out, m.InvalidMessage) and out.error().code == "bad_message"


@pytest.mark.parametrize(
    "obj",
    [
        {"type": "ok", "text": "x" * 41},  # max_str 40
        {"type": "ok", "text": "é" * 21},  # 42 bytes of UTF-8 in 21 characters
        {"type": "ok", "x" * 41: 1},  # a key is a string too
        {"type": "rulesets", "rulesets": [{}] * 9},  # max_array 8
        {"type": "stats", "stats": {str(i): i for i in range(9)}},  # max_map 8
        {"type": "stats", "stats": {"a": [[[1]]]}},  # depth 5 > 4
        {"type": "stats", "stats": {"a": [[["y" * 50]]]}},  # too large beats too deep
        {"type": "stats", "stats": {"a": [[]]}},  # depth 4: fine
        {"type": "ok", "text": "x" * 40},  # at the limit: fine
        {"type": "ping", "id": 1 << 40},  # a bad id: an error reply, kept
    ],
)
def test_limits_give_the_msgpack_codes(obj):
    expected = outcome_msgpack(obj, SMALL)
    assert outcome_json(json.dumps(obj), SMALL) == expected
    assert outcome_json(json.dumps(obj, ensure_ascii=False), SMALL) == expected


@pytest.mark.parametrize(
    "text",
    [
        "",
        "null",
        "[1, 2]",
        '"ping"',
        '{"type":"ping"',  # cut short
        '{"type":"ping"} {"type":"ping"}',  # two messages in one
        "{'type':'ping'}",  # not JSON
        '{"type":"stats","stats":{"a":NaN}}',
        '{"type":"stats","stats":{"a":Infinity}}',
        '{"type":"stats","stats":{"a":1e400}}',  # no double holds it
        '{"type":"stats","stats":{"a":18446744073709551616}}',  # 2^64: no msgpack integer
        '{"type":"stats","stats":{"a":-9223372036854775809}}',
        '{"type":"stats","stats":{"a":"\\ud800"}}',  # a lone surrogate is no character
        '{"type":"stats","stats":{"\\udfff":1}}',
        '{"type":"stats","stats":{"a":' + "1" * 5000 + "}}",
    ],
)
def test_malformed_json_is_a_fatal_bad_frame(text):
    decoder = JsonDecoder()
    with pytest.raises(RemoteProtocolError) as info:
        decoder.decode(text)
    assert info.value.code == "bad_frame" and info.value.fatal
    assert m.Error.answering(info.value).code == "bad_frame"


def test_malformed_msgpack_gets_the_same_error():
    """What a client that sends garbage sees is the same on either binding."""
    decoder = MsgpackDecoder()
    decoder.receive_data(b"\x00\x00\x00\x01\xc1")  # 0xc1 is never valid msgpack
    with pytest.raises(RemoteProtocolError) as via_msgpack:
        decoder.next_message()
    with pytest.raises(RemoteProtocolError) as via_json:
        JsonDecoder().decode("{nope")
    for exc in (via_msgpack.value, via_json.value):
        assert (exc.code, exc.fatal) == ("bad_frame", True)


def test_the_integer_range_is_msgpacks():
    top, bottom = (1 << 64) - 1, -(1 << 63)
    text = json.dumps({"type": "stats", "stats": {"a": top, "b": bottom}})
    assert JsonDecoder().decode(text) == m.Stats(stats={"a": top, "b": bottom})


def test_a_surrogate_pair_is_one_character_and_fine():
    text = '{"type":"ok","text":"\\ud83c\\udca1"}'
    assert JsonDecoder().decode(text) == m.Ok(text="\U0001f0a1")


def test_the_message_size_is_checked_in_utf8_bytes_before_parsing():
    limits = Limits(max_frame=64)
    body = '{"type":"ok","text":"' + "x" * 41 + '"}'
    assert len(body.encode()) == 64
    assert JsonDecoder(limits).decode(body) == m.Ok(text="x" * 41)
    over = '{"type":"ok","text":"' + "x" * 40 + 'é"}'  # 64 characters, 65 bytes
    with pytest.raises(RemoteProtocolError) as info:
        JsonDecoder(limits).decode(over)
    assert info.value.code == "too_large"
    # A huge text is refused on its length alone: it is never parsed.
    with pytest.raises(RemoteProtocolError) as info:
        JsonDecoder(limits).decode("[" * 10_000_000)
    assert info.value.code == "too_large"


def test_deep_nesting_is_too_deep_not_a_crash():
    for depth in (15, 3000, 60_000):
        text = '{"type":"stats","stats":{"a":' + "[" * depth + "]" * depth + "}}"
        with pytest.raises(RemoteProtocolError) as info:
            JsonDecoder(Limits(max_str=1 << 20)).decode(text)
        assert info.value.code == "too_deep", depth


def test_a_failed_decoder_is_never_used_again():
    decoder = JsonDecoder()
    with pytest.raises(RemoteProtocolError):
        decoder.decode("{")
    assert decoder.failed
    with pytest.raises(RemoteProtocolError, match="already failed"):
        decoder.decode('{"type":"ping"}')


def test_encoding_refuses_what_json_cannot_carry():
    for bad in ({"type": "x", "b": b"bytes"}, {"type": "x", "f": float("nan")}):
        with pytest.raises(LocalProtocolError):
            encode_map(bad)
    with pytest.raises(LocalProtocolError, match="over the limit"):
        encode(m.Ok(text="x" * 100), Limits(max_frame=64))
    with pytest.raises(LocalProtocolError):
        encode({"type": "ping"})  # type: ignore[arg-type]
