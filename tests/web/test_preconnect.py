"""A browser opens connections before it has a request for them (Chromium preconnects the
sockets it expects a page to need) and sends the request when the page asks, which may be
seconds later. Such a socket must get an HTTP answer and nothing else: any bytes the server
writes before the request (a text greeting for a person at nc, were silence greeted) are read
by the browser as the start of the response, which it refuses (ERR_INVALID_HTTP_RESPONSE), and
a file of the web client fails to load: a page that never comes up. So the server greets only a
person who presses Enter, and the browser tests run with Chromium's preconnecting on."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator

import pytest
from conftest import Server


@pytest.fixture(scope="module")
def plain_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("preconnect"))
    try:
        yield srv
    finally:
        srv.stop()


def first_bytes(port: int, silent_for: float) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        time.sleep(silent_for)  # the preconnected socket waits for the page to need it
        sock.sendall(f"GET /app.js HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
        return sock.recv(12)


def test_a_request_at_once_is_answered_in_http(plain_server: Server) -> None:
    assert first_bytes(plain_server.port, 0).startswith(b"HTTP/1.1 200")


def test_a_preconnected_socket_used_later_is_answered_in_http(plain_server: Server) -> None:
    assert first_bytes(plain_server.port, 1.0).startswith(b"HTTP/1.1 200")
