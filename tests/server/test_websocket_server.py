"""End to end over real loopback sockets: the game port serves the web client over HTTP,
and a WebSocket client (wsproto over a trio socket) plays as any other client does."""

from __future__ import annotations

import json
import secrets

import h11
import pytest
import trio
from e2e_client import TIMEOUT, Client
from wsproto.connection import Connection, ConnectionType
from wsproto.events import CloseConnection, Ping, Pong, TextMessage

from protocol import messages as m
from protocol.json_codec import encode as json_encode
from protocol.msgpack_codec import encode_map


class WebSocketCodec:
    """A client's side of the WebSocket binding, in the shape ``Client`` uses."""

    def __init__(self) -> None:
        self.ws = Connection(ConnectionType.CLIENT)
        self.parts: list[str] = []
        self.close: CloseConnection | None = None
        self.pongs: list[bytes] = []

    def feed(self, data: bytes) -> list[m.Received]:
        self.ws.receive_data(data)
        out = []
        for event in self.ws.events():
            if isinstance(event, TextMessage):
                self.parts.append(event.data)
                if event.message_finished:
                    out.append(m.from_map(json.loads("".join(self.parts))))
                    self.parts = []
            elif isinstance(event, CloseConnection):
                self.close = event
            elif isinstance(event, Pong):
                self.pongs.append(event.payload)
        return out

    def encode(self, message: m.Message) -> bytes:
        return self.ws.send(TextMessage(data=json_encode(message)))


async def http_exchange(
    port: int, target: str, headers: list[tuple[str, str]] | None = None
) -> tuple[trio.SocketStream, h11.Response | h11.InformationalResponse, bytes, bytes]:
    """Send one GET; the response, its body, and what came after it (WebSocket frames)."""
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    conn = h11.Connection(h11.CLIENT)
    all_headers = [("host", f"127.0.0.1:{port}"), *(headers or [])]
    await stream.send_all(conn.send(h11.Request(method="GET", target=target, headers=all_headers)))
    await stream.send_all(conn.send(h11.EndOfMessage()))
    body = b""
    response = None
    with trio.fail_after(TIMEOUT):
        while True:
            event = conn.next_event()
            if event is h11.NEED_DATA:
                data = await stream.receive_some(65536)
                conn.receive_data(data)
                continue
            if isinstance(event, (h11.Response, h11.InformationalResponse)):
                response = event
                if event.status_code == 101:
                    break
            elif isinstance(event, h11.Data):
                body += event.data
            elif isinstance(event, (h11.EndOfMessage, h11.ConnectionClosed)) or event is h11.PAUSED:
                break
    assert response is not None
    trailing = conn.trailing_data[0] if response.status_code == 101 else b""
    return stream, response, body, bytes(trailing)


def handshake(port: int, origin: str | None) -> list[tuple[str, str]]:
    headers = [
        ("upgrade", "websocket"),
        ("connection", "Upgrade"),
        ("sec-websocket-key", "dGhlIHNhbXBsZSBub25jZQ=="),
        ("sec-websocket-version", "13"),
    ]
    if origin is not None:
        headers.append(("origin", origin))
    return headers


async def ws_connect(port: int, origin: str | None = "same") -> Client:
    if origin == "same":
        origin = f"http://127.0.0.1:{port}"
    stream, response, _, trailing = await http_exchange(port, "/ws", handshake(port, origin))
    assert response.status_code == 101, response
    client = Client(stream)
    client.codec = WebSocketCodec()  # type: ignore[assignment]
    if trailing:
        client.inbox.extend(client.codec.feed(trailing))
    return client


async def test_the_game_port_serves_the_page_with_its_policy(running):
    stream, response, body, _ = await http_exchange(running.port, "/rules/abbott")
    assert response.status_code == 200 and body.startswith(b"abbott: ")
    headers = dict(response.headers)
    assert b"'unsafe-inline'" not in headers[b"content-security-policy"]
    assert headers[b"x-content-type-options"] == b"nosniff"
    await stream.aclose()
    stream, response, _, _ = await http_exchange(running.port, "/no/such/file")
    assert response.status_code == 404
    await stream.aclose()


async def test_a_websocket_client_says_hello_claims_a_guest_name_and_plays_to_an_ok(running):
    client = await ws_connect(running.port)
    welcome = await client.request(m.Hello(client="web test"))
    assert isinstance(welcome, m.Welcome) and welcome.version == 1
    guest = f"guest-{secrets.token_hex(3)}"
    named = await client.request(m.ClaimName(name=guest, secret=secrets.token_urlsafe(12)))
    assert named == m.Named(name=guest, id=named.id)
    ok = await client.request(m.CreateTable(ruleset="switch", seats=3))
    assert isinstance(ok, m.Ok), ok
    seated = await client.request(m.Join(table=ok.table, seat=0))
    assert isinstance(seated, m.Seated), seated
    started = await client.request(m.StartGame(table=ok.table))
    assert isinstance(started, m.Ok), started  # the other seats are the server's bots
    acted = 0
    while acted < 3:
        msg = await client.next()
        if isinstance(msg, m.Turn) and msg.to_act == msg.seat and msg.legal:
            reply = await client.request(m.Act(table=ok.table, action=msg.legal[0]))
            assert isinstance(reply, m.Ok), reply
            acted += 1
        elif isinstance(msg, m.Snapshot) and msg.state == "over":
            break
    assert acted >= 1
    assert any(isinstance(x, m.TableEvent) for x in client.inbox)
    await client.aclose()


async def test_a_cross_site_origin_is_refused(running):
    headers = handshake(running.port, "http://evil.example")
    stream, response, body, _ = await http_exchange(running.port, "/ws", headers)
    assert response.status_code == 403 and b"other sites" in body
    with trio.fail_after(TIMEOUT):
        assert await stream.receive_some(100) == b""  # and closed
    # a client with no Origin (a bot, a script) is let in
    bot = await ws_connect(running.port, origin=None)
    assert isinstance(await bot.request(m.Hello()), m.Welcome)
    await bot.aclose()


async def test_an_oversized_frame_closes_only_that_connection(running):
    other = await ws_connect(running.port)
    assert isinstance(await other.request(m.Hello()), m.Welcome)
    big = await ws_connect(running.port)
    assert isinstance(await big.request(m.Hello()), m.Welcome)
    codec = big.codec
    assert isinstance(codec, WebSocketCodec)
    huge = codec.ws.send(TextMessage(data='{"type":"say","table":"1","text":"' + "x" * 70_000))
    with pytest.raises(EOFError):
        await big.stream.send_all(huge)
        while True:
            await big.next()
    error = next(x for x in big.inbox if isinstance(x, m.Error))
    assert error.code == "too_large"
    assert codec.close is not None and codec.close.code == 1009
    assert isinstance(await other.request(m.Ping()), m.Pong)  # the other carries on
    await other.stream.send_all(other.codec.ws.send(Ping(b"hi")))  # type: ignore[attr-defined]
    assert isinstance(await other.request(m.Ping()), m.Pong)
    assert other.codec.pongs == [b"hi"]  # type: ignore[attr-defined]
    await other.aclose()


async def test_malformed_json_gets_the_error_malformed_msgpack_gets(running):
    ws = await ws_connect(running.port)
    await ws.stream.send_all(ws.codec.ws.send(TextMessage(data='{"type": "hello",')))  # type: ignore[attr-defined]
    tcp = await Client.connect(running.port)
    await tcp.stream.send_all(b"\x00\x00\x00\x01\xc1")
    replies = []
    for client in (ws, tcp):
        error = await client.wait_for(lambda x: isinstance(x, m.Error))
        replies.append(error.code)
        with pytest.raises(EOFError):
            while True:
                await client.next()
    assert replies == ["bad_frame", "bad_frame"]
    assert ws.codec.close.code == 1002  # type: ignore[attr-defined]


async def test_a_websocket_is_counted_like_any_connection(running):
    before = running.server.statistics()["connections"]
    client = await ws_connect(running.port)
    assert isinstance(await client.request(m.Hello()), m.Welcome)
    assert running.server.statistics()["connections"] == before + 1
    kinds = [c.statistics()["codec"] for c in running.server.connections]
    assert "websocket" in kinds
    await client.aclose()


async def test_an_unknown_type_keeps_the_websocket(running):
    client = await ws_connect(running.port)
    assert isinstance(await client.request(m.Hello()), m.Welcome)
    frame = client.codec.ws.send(TextMessage(data='{"type":"teleport","id":77}'))  # type: ignore[attr-defined]
    await client.stream.send_all(frame)
    error = await client.wait_for(lambda x: isinstance(x, m.Error))
    assert (error.code, error.id) == ("unknown_type", 77)
    assert isinstance(await client.request(m.Ping()), m.Pong)
    assert encode_map  # the msgpack twin of these tests lives in test_limits_server.py
    await client.aclose()


def documented_exchange() -> list[tuple[str, dict]]:
    """docs/protocol.md section 18's example: (">" or "<", the JSON object) in order."""
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text()
    section = doc[doc.index("## 18. The WebSocket binding") :]
    block = section[section.index("An example exchange") :].split("```")[1]
    return [(line[0], json.loads(line[2:])) for line in block.strip().splitlines()]


def shown(expected: dict, got: m.Received) -> bool:
    """``got`` is the message the doc shows: its type and every field the doc gives a
    value that does not vary ("..." for the token; the deal's seq and legal vary)."""
    if not isinstance(got, m.Message) or got.type != expected["type"]:
        return False
    data = got.to_map()
    return all(
        data.get(k) == v for k, v in expected.items() if v != "..." and k not in ("seq", "legal")
    )


async def test_the_documented_exchange_runs_as_shown(running):
    client = await ws_connect(running.port, origin=None)
    turn: m.Turn | None = None
    for direction, obj in documented_exchange():
        if direction == ">":
            if obj["type"] == "act":
                assert turn is not None
                obj = {**obj, "action": turn.legal[0]}
            await client.send(m.from_map(obj))  # type: ignore[arg-type]
            continue
        got = await client.wait_for(lambda x, obj=obj: shown(obj, x))
        if isinstance(got, m.Turn):
            turn = got


async def test_a_websocket_that_never_reads_is_dropped_and_the_table_plays_on(nursery):
    """The same as over msgpack (test_server_connections.py): a browser tab that stops
    reading fills its queue and is dropped; the table and everyone else play on."""
    import socket

    from e2e_client import TEST_CONFIG
    from support import client_frame

    from server.app import Server
    from server.store.base import MemoryStore

    server = Server(TEST_CONFIG.replace(send_queue=16), MemoryStore())
    port = await nursery.start(server.serve)
    player = await Client.connect(port, "player")
    ok = await player.request(m.CreateTable(ruleset="kilodney", seats=4))
    table = ok.table
    await player.request(m.Join(table=table, seat=0))
    watcher = await Client.connect(port, "watcher")
    await watcher.request(m.Spectate(table=table))
    # ``lazy`` opens a WebSocket, says hello, watches, and never reads (a small window)
    sock = trio.socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    await sock.connect(("127.0.0.1", port))
    lazy = trio.SocketStream(sock)
    upgrade = b"".join(f"{k}: {v}\r\n".encode() for k, v in handshake(port, None))
    await lazy.send_all(
        b"GET /ws HTTP/1.1\r\nhost: 127.0.0.1\r\n" + upgrade + b"\r\n"
        + client_frame(json_encode(m.Hello()))
        + client_frame(json_encode(m.Spectate(table=table)))
    )  # fmt: skip
    with trio.fail_after(TIMEOUT):
        while server.lobby.get(table).statistics().members < 3:
            await trio.sleep(0.01)
    assert "websocket" in [c.statistics()["codec"] for c in server.connections]
    await player.request(m.StartGame(table=table))
    async with trio.open_nursery() as inner:
        inner.start_soon(player.play, table)
        over = await watcher.wait_for(lambda x: isinstance(x, m.Snapshot) and x.state == "over")
    assert over.view["over"]
    names = sorted(c.name or "-" for c in server.connections)
    assert names == ["player", "watcher"]
    assert [c.name for c in server.lobby.get(table).spectators] == ["watcher"]
    await lazy.aclose()


async def test_the_http_and_websocket_settings_reach_the_port(nursery):
    """Each setting of the HTTP side, set low on a real server, is what the port holds to."""
    from e2e_client import TEST_CONFIG

    from server.app import Server
    from server.store.base import MemoryStore

    config = TEST_CONFIG.replace(
        http_max_header_bytes=2048,
        http_max_requests=2,
        ws_max_frame_bytes=1000,
        ws_allowed_origins=("https://cards.example",),
    )
    server = Server(config, MemoryStore())
    port = await nursery.start(server.serve)
    # a request line and headers over 2048 bytes
    stream, response, _, _ = await http_exchange(port, "/", [("x-pad", "a" * 2100)])
    assert response.status_code == 431
    await stream.aclose()
    # two requests a connection: the second is answered and the connection closed
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    get = b"GET /rules/abbott HTTP/1.1\r\nhost: localhost\r\n\r\n"
    await stream.send_all(get * 3)
    data = b""
    with trio.fail_after(TIMEOUT):
        while chunk := await stream.receive_some(65536):
            data += chunk
    assert data.count(b"HTTP/1.1 200 OK") == 2 and b"connection: close" in data
    # an origin the operator allows
    client = await ws_connect(port, origin="https://cards.example")
    assert isinstance(await client.request(m.Hello()), m.Welcome)
    # a frame over 1000 bytes, though the message limit (64 KiB) would take it
    codec = client.codec
    assert isinstance(codec, WebSocketCodec)
    await client.stream.send_all(codec.ws.send(TextMessage(data="x" * 1200)))
    error = await client.wait_for(lambda x: isinstance(x, m.Error))
    assert error.code == "too_large"
    with pytest.raises(EOFError):
        while True:
            await client.next()
    assert codec.close is not None and codec.close.code == 1009


async def test_a_client_that_closes_is_answered_and_let_go(running):
    client = await ws_connect(running.port)
    assert isinstance(await client.request(m.Hello()), m.Welcome)
    codec = client.codec
    assert isinstance(codec, WebSocketCodec)
    await client.stream.send_all(codec.ws.send(CloseConnection(code=1000, reason="bye")))
    with pytest.raises(EOFError):  # the server answers the close, then closes the stream
        while True:
            await client.next()
    assert codec.close is not None and codec.close.code == 1000
    with trio.fail_after(TIMEOUT):
        while any(c.statistics()["codec"] == "websocket" for c in running.server.connections):
            await trio.sleep(0.01)
