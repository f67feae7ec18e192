"""msgpack decoders share one unpacker: an idle connection's decoder costs bytes, not
the 41 KiB of an Unpacker of its own, and the sharing never mixes two streams."""

from __future__ import annotations

import struct
import tracemalloc

import pytest

from protocol import messages as m
from protocol.errors import RemoteProtocolError
from protocol.msgpack_codec import MsgpackDecoder, encode


def test_a_decoder_that_has_decoded_a_message_holds_no_unpacker_of_its_own() -> None:
    hello = encode(m.Hello(id=1))
    MsgpackDecoder().feed(hello)  # the shared unpacker exists before we measure
    tracemalloc.start()
    try:
        before = tracemalloc.take_snapshot()
        decoders = [MsgpackDecoder() for _ in range(200)]
        for decoder in decoders:
            assert decoder.feed(hello) == [m.Hello(id=1)]
        after = tracemalloc.take_snapshot()
    finally:
        tracemalloc.stop()
    grown = sum(s.size_diff for s in after.compare_to(before, "filename"))
    per_decoder = grown / len(decoders)
    assert per_decoder < 4096, f"{per_decoder:.0f} bytes per decoder"


@pytest.mark.parametrize(
    "broken",
    [
        struct.pack(">I", 3) + b"\xc1\xc1\xc1",  # not msgpack
        struct.pack(">I", 2) + b"\x81\xa1",  # a map cut short
        struct.pack(">I", 1) + b"\x90",  # an array, not a map
    ],
)
def test_a_broken_frame_in_one_stream_does_not_touch_another(broken: bytes) -> None:
    ok = MsgpackDecoder()
    frame = encode(m.Act(table="7", action="draw", id=3))
    assert ok.feed(frame[:9]) == []  # half a frame waits in its own buffer
    other = MsgpackDecoder()
    with pytest.raises(RemoteProtocolError):
        other.feed(broken)
    extra = struct.pack(">I", 3) + b"\x80\xc0\xc0"  # a map, then bytes after it
    with pytest.raises(RemoteProtocolError):
        MsgpackDecoder().feed(extra)
    assert ok.feed(frame[9:] + encode(m.Ping(id=4))) == [
        m.Act(table="7", action="draw", id=3),
        m.Ping(id=4),
    ]
