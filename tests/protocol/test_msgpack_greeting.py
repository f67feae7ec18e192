"""A client's msgpack decoder skips the server's text greeting, which reaches a client
that was slow to say hello (docs/protocol.md, "The opening": "A client that waits longer
before its first byte gets the greeting before anything else, and skips it")."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st
from protocol_strategies import messages

from protocol import messages as m
from protocol.errors import RemoteProtocolError
from protocol.msgpack_codec import MAX_GREETING, MsgpackDecoder, encode
from server.transport.framing import TextFraming

GREETING = TextFraming.greeting or b""


def decode_in_pieces(data: bytes, cuts: list[int]) -> list[m.Message]:
    decoder = MsgpackDecoder(skip_greeting=True)
    out: list[m.Message] = []
    edges = sorted({0, len(data), *(c for c in cuts if 0 < c < len(data))})
    for start, end in itertools.pairwise(edges):
        decoder.receive_data(data[start:end])
        while (msg := decoder.next_message()) is not None:
            out.append(msg)
    return out


@given(messages(), st.lists(st.integers(min_value=0, max_value=400), max_size=6))
def test_the_greeting_is_skipped_however_the_bytes_are_cut(
    message: m.Message, cuts: list[int]
) -> None:
    frames = encode(message) + encode(m.Ping(id=7))
    assert decode_in_pieces(GREETING + frames, cuts) == [message, m.Ping(id=7)]


@given(messages(), st.lists(st.integers(min_value=0, max_value=400), max_size=6))
def test_a_stream_without_a_greeting_decodes_as_before(message: m.Message, cuts: list[int]) -> None:
    assert decode_in_pieces(encode(message), cuts) == [message]


def test_only_the_first_line_is_skipped() -> None:
    """A second line of text is no greeting: the stream is broken and said so."""
    decoder = MsgpackDecoder(skip_greeting=True)
    decoder.receive_data(GREETING)
    with pytest.raises(RemoteProtocolError):
        decoder.receive_data(b"more text\n" + encode(m.Ping(id=1)))
        decoder.next_message()


def test_an_endless_line_is_refused_not_held() -> None:
    decoder = MsgpackDecoder(skip_greeting=True)
    decoder.receive_data(b"S" * MAX_GREETING)
    with pytest.raises(RemoteProtocolError):
        decoder.receive_data(b"x")


def test_a_server_decoder_skips_nothing() -> None:
    """The server's own decoder never looks for a greeting: a text byte first is an error
    there (a server never receives one on a msgpack connection: sniffing saw 0x00)."""
    decoder = MsgpackDecoder()
    with pytest.raises(RemoteProtocolError):
        decoder.receive_data(GREETING + encode(m.Ping(id=1)))
        decoder.next_message()
