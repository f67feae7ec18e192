"""Which binding the first bytes say: msgpack, text, HTTP, wait for more, or refuse."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from protocol.messages import Hello
from protocol.msgpack_codec import encode
from protocol.sniff import HTTP, MAX_REQUEST_LINE, MSGPACK, TEXT, WAIT, sniff, strip_blanks


@pytest.mark.parametrize(
    "first",
    [
        b"GET / HTTP/1.1\r\n",
        b"GET /ws?x=1 HTTP/1.1\n",
        b"HEAD /index.html HTTP/1.0\r\nHost: x\r\n",
        b"OPTIONS * HTTP/1.1\r\n",
        b"M-SEARCH * HTTP/1.1\r\n",
        # HTTP/2's preface and other versions: HTTP, for the HTTP server to refuse as
        # HTTP (they were answered in text mode)
        b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
        b"GET / HTTP/2\r\n",
        # a request line past MAX_REQUEST_LINE, not yet whole (a long URL over several
        # segments): HTTP, which refuses it as too long, not text
        b"GET /" + b"a" * MAX_REQUEST_LINE,
    ],
)
def test_a_request_line_is_http(first: bytes) -> None:
    assert sniff(first) == HTTP


@pytest.mark.parametrize(
    "first",
    [
        b"hello\n",
        b"name ann s3cret\n",
        b"get ready\n",  # a word HTTP also has, but no request line
        b"say GET / HTTP/1.1\n",
        b"name ann s3cret",  # the third word is no HTTP version: text already
        b"x" * MAX_REQUEST_LINE,  # no line end within a request line's length
    ],
)
def test_other_lines_are_text(first: bytes) -> None:
    assert sniff(first) == TEXT


@pytest.mark.parametrize(
    "first",
    [
        b"G",
        b"GET",
        b"GET /",
        b"GET /ws HT",
        b"GET / HTTP/1.1\r",
        b"PRI * HTTP/2",
        b"PRI * HTTP/2.0\r",
    ],
)
def test_a_line_that_may_still_be_a_request_line_waits(first: bytes) -> None:
    assert sniff(first) == WAIT
    assert sniff(first, whole=True) == TEXT  # no more will come: a letter means text


def test_msgpack_and_refusals() -> None:
    assert sniff(encode(Hello(id=1))) == MSGPACK
    assert sniff(b"\xff") is None and sniff(b"{") is None and sniff(b"1") is None
    assert sniff(b"") == WAIT and sniff(b"", whole=True) is None


def test_blanks_before_the_first_byte_are_stripped() -> None:
    assert strip_blanks(b"\r\n \t\n  help\n") == b"help\n"
    assert strip_blanks(b" \n\n") == b""
    assert strip_blanks(encode(Hello(id=1))) == encode(Hello(id=1))  # 0x00 is no blank


@given(st.binary(max_size=200), st.booleans())
def test_any_bytes_get_an_answer(first: bytes, whole: bool) -> None:
    answer = sniff(first, whole=whole)
    assert answer in (MSGPACK, TEXT, HTTP, WAIT, None)
    if whole:
        assert answer != WAIT
