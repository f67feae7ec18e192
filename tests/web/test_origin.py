"""A page served from elsewhere cannot open the game's WebSocket (cross-site WebSocket
hijacking): the server refuses a foreign ``Origin`` with 403, so a hostile page a player
visits cannot play or talk in his name. The game's own page can."""

from __future__ import annotations

import base64
import contextlib
import functools
import http.server
import os
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from webpage import open_client

OPEN_SOCKET = """
const done = arguments[arguments.length - 1];
const ws = new WebSocket(arguments[0]);
ws.onopen = () => { ws.close(); done("open"); };
ws.onerror = () => done("refused");
"""


def handshake(port: int, origin: str) -> str:
    """The status line the server answers a WebSocket upgrade from ``origin`` with."""
    key = base64.b64encode(os.urandom(16)).decode()
    request = (
        f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
        f"Origin: {origin}\r\n\r\n"
    )
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(request.encode())
        return sock.recv(4096).split(b"\r\n", 1)[0].decode()


def test_a_foreign_origin_gets_403(server) -> None:
    assert handshake(server.port, "http://evil.example").split()[1] == "403"
    assert handshake(server.port, f"http://127.0.0.1:{server.port}").split()[1] == "101"


@pytest.fixture
def elsewhere(tmp_path: Path) -> Iterator[str]:
    """Another site on loopback (``localhost`` on another port): a page a player visits."""
    (tmp_path / "index.html").write_text("<!doctype html><title>elsewhere</title>")
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(tmp_path))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"http://localhost:{httpd.server_address[1]}/"
    finally:
        with contextlib.suppress(Exception):
            httpd.shutdown()


def test_a_page_served_elsewhere_cannot_open_the_socket(server, browsers, elsewhere) -> None:
    driver = browsers()
    ws_url = f"ws://127.0.0.1:{server.port}/ws"
    driver.get(elsewhere)
    assert driver.execute_async_script(OPEN_SOCKET, ws_url) == "refused"
    open_client(driver, server.url)
    assert driver.execute_async_script(OPEN_SOCKET, ws_url) == "open"
