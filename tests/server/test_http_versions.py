"""What is not HTTP/1.x, and a request line that comes in many segments, is answered as
HTTP, not in text mode (a browser or a proxy trying HTTP/2 got text-mode sentences)."""

from __future__ import annotations

import trio


async def _answer(port: int, *segments: bytes) -> bytes:
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    for segment in segments:
        await stream.send_all(segment)
        await trio.sleep(0.05)  # each its own segment, as over a LAN
    data = b""
    with trio.fail_after(10):
        try:
            while chunk := await stream.receive_some(65536):
                data += chunk
        except trio.BrokenResourceError:
            pass
    await stream.aclose()
    return data


async def test_http2s_preface_gets_an_http_refusal(running) -> None:
    data = await _answer(running.port, b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n")
    assert data.startswith(b"HTTP/1.1 505 HTTP Version Not Supported\r\n"), data[:80]


async def test_a_long_request_line_in_segments_is_http(running) -> None:
    path = b"/rules/abbott?" + b"x" * 5000
    line = b"GET " + path + b" HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    segments = [line[i : i + 1448] for i in range(0, len(line), 1448)]
    data = await _answer(running.port, *segments)
    assert data.startswith(b"HTTP/1.1 200 OK"), data[:80]
    too_long = b"GET /" + b"x" * 9000 + b" HTTP/1.1\r\n"
    data = await _answer(running.port, *[too_long[i : i + 1448] for i in range(0, 9000, 1448)])
    assert data.startswith(b"HTTP/1.1 431"), data[:80]
