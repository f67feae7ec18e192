"""Whom an HTTP request or a WebSocket is from: loopback's trust only for the machine's own
browser, never for a proxy's clients or a rebound name (DNS rebinding), and a budget of
requests per address shared by all its connections."""

from __future__ import annotations

import contextlib

import h11
import trio
from e2e_client import TEST_CONFIG, TIMEOUT, Client
from test_websocket_server import WebSocketCodec
from wsproto.events import Ping, TextMessage

from protocol import messages as m
from protocol.json_codec import encode as json_encode
from server.app import Server
from server.core.limits import AddressBudget
from server.store.base import MemoryStore
from server.transport.http import HttpServer
from server.transport.proxied import HttpPolicy, client_address, own_names
from server.transport.web import Resource

INDEX = Resource.of(b"<!doctype html><title>t</title>", "text/html; charset=utf-8")
SITE = {"/": INDEX}
KEY = "dGhlIHNhbXBsZSBub25jZQ=="


def request(target: str = "/", host: str | None = "127.0.0.1:7373", **headers: str) -> bytes:
    lines = [f"GET {target} HTTP/1.1"] + ([f"Host: {host}"] if host is not None else [])
    lines += [f"{name.replace('_', '-')}: {value}" for name, value in headers.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def ws_request(host: str = "127.0.0.1:7373", **headers: str) -> bytes:
    base = {"Upgrade": "websocket", "Connection": "Upgrade", "Sec_WebSocket_Key": KEY,
            "Sec_WebSocket_Version": "13"}  # fmt: skip
    return request("/ws", host, **{**base, **headers})


def status(server: HttpServer, data: bytes) -> int:
    server.receive_data(data)
    reply = server.next_reply()
    assert reply is not None
    return reply.status


def from_loopback(**kwargs: object) -> HttpServer:
    return HttpServer(SITE, peer="127.0.0.1", **kwargs)  # type: ignore[arg-type]


# ---------------------------------------------------------------- sans-I/O
def test_a_rebound_name_on_loopback_is_refused_page_and_websocket_alike() -> None:
    """A page of evil.example, its name re-pointed at 127.0.0.1, in the machine's own
    browser: its Origin matches its Host, so the Origin check passed it, with loopback's
    trust. Now the name itself is refused."""
    assert status(from_loopback(), request(host="evil.example:7373")) == 421
    rebound = ws_request("evil.example:7373", Origin="http://evil.example:7373")
    assert status(from_loopback(), rebound) == 421
    # the names a loopback request may give: localhost, an IP literal, http_hosts
    for host in ("localhost:7373", "127.0.0.1:7373", "[::1]:7373", "192.168.1.20:7373"):
        assert status(from_loopback(), request(host=host)) == 200, host
    policy = HttpPolicy.of(["Cards.Example"], [])
    assert status(from_loopback(policy=policy), request(host="cards.example")) == 200


def from_lan(**kwargs: object) -> HttpServer:
    return HttpServer(SITE, peer="192.168.1.30", **kwargs)  # type: ignore[arg-type]


def test_a_rebound_name_from_the_lan_is_refused_page_and_websocket_alike() -> None:
    """A page of evil.example, its name re-pointed at the server's LAN address, in a LAN
    visitor's browser: its Origin matches its Host, and the WebSocket played in the
    visitor's name. Every request must name the server as the server knows itself."""
    assert status(from_lan(), request(host="evil.example")) == 421
    rebound = ws_request("evil.example:7373", Origin="http://evil.example:7373")
    assert status(from_lan(), rebound) == 421
    assert status(from_lan(), request(host=None)) == 400  # HTTP/1.1 requires a Host
    short = own_names()[0]
    for host in (
        "192.168.1.20:7373",
        "[fe80::1]:7373",
        "localhost:7373",
        f"{short}:7373",
        f"{short}.local:7373",
        f"{short}-a1b2c3.local:7373",  # the name the LAN advertisement points at
    ):
        assert status(from_lan(), request(host=host)) == 200, host
    assert status(from_lan(), request(host=f"{short}-a1b2c3.evil.local")) == 421
    policy = HttpPolicy.of(["cards.example"], [])
    assert status(from_lan(policy=policy), request(host="cards.example")) == 200
    # the WebSocket's Origin must be the name it was asked by (or an allowed origin)
    own = ws_request("192.168.1.20:7373", Origin="http://192.168.1.20:7373")
    assert status(from_lan(), own) == 101
    other = ws_request("192.168.1.20:7373", Origin="http://evil.example")
    assert status(from_lan(), other) == 403


def upgraded_address(server: HttpServer, data: bytes) -> str:
    server.receive_data(data)
    reply = server.next_reply()
    assert reply is not None and reply.upgrade is not None, reply
    return reply.upgrade.address


def test_a_websocket_keeps_loopbacks_address_only_from_the_machines_own_browser() -> None:
    own = ws_request("localhost:7373", Origin="http://localhost:7373")
    assert upgraded_address(from_loopback(), own) == "127.0.0.1"
    assert upgraded_address(from_loopback(), ws_request("127.0.0.1:7373")) == "127.0.0.1"
    policy = HttpPolicy.of(["cards.example"], [])
    # behind a TLS proxy on this machine: the public name, or a forwarding header
    proxied = [
        (policy, ws_request("cards.example", Origin="https://cards.example")),
        (policy, ws_request("127.0.0.1:7373", X_Forwarded_For="203.0.113.9")),
        (policy, ws_request("localhost:7373", Forwarded="for=203.0.113.9")),
        # nginx's default Host (the upstream's) with an allowed Origin of the public site
        (policy, ws_request("127.0.0.1:7373", Origin="https://cards.example")),
    ]
    for policy, data in proxied:
        server = from_loopback(policy=policy, allowed_origins=["https://cards.example"])
        assert upgraded_address(server, data) == "proxied:127.0.0.1"


def test_a_configured_proxy_names_its_client_by_the_last_forwarded_address() -> None:
    policy = HttpPolicy.of(["cards.example"], ["127.0.0.1"])
    data = ws_request("cards.example", X_Forwarded_For="127.0.0.1, 203.0.113.9")
    assert upgraded_address(from_loopback(policy=policy), data) == "203.0.113.9"
    # without the header the client is unknown: never loopback's trust
    data = ws_request("localhost:7373")
    assert upgraded_address(from_loopback(policy=policy), data) == "proxied:127.0.0.1"


def test_http_requests_share_one_budget_per_address() -> None:
    """Pipelined requests on many connections of one address draw on one budget: past
    it, 429 and the connection closed; another address is not held up."""
    budget = AddressBudget(rate=0.0, burst=5)
    first = HttpServer(SITE, peer="10.0.0.5", budget=budget, clock=lambda: 0.0)
    first.receive_data(request() * 4)
    answered = []
    while (reply := first.next_reply()) is not None:
        answered.append(reply.status)
    assert answered == [200] * 4
    second = HttpServer(SITE, peer="10.0.0.5", budget=budget, clock=lambda: 0.0)
    second.receive_data(request() * 3)
    assert [second.next_reply().status, second.next_reply().status] == [200, 429]  # type: ignore[union-attr]
    assert second.done and second.next_reply() is None
    other = HttpServer(SITE, peer="10.0.0.6", budget=budget, clock=lambda: 0.0)
    assert status(other, request()) == 200


# ---------------------------------------------------------- end to end
async def open_from(source: str, port: int) -> trio.SocketStream:
    sock = trio.socket.socket()
    await sock.bind((source, 0))
    await sock.connect(("127.0.0.1", port))
    return trio.SocketStream(sock)


async def read_all(stream: trio.SocketStream) -> bytes:
    data = b""
    with trio.fail_after(TIMEOUT):
        while chunk := await stream.receive_some(65536):
            data += chunk
    return data


async def test_pipelined_requests_from_one_address_are_cut_off_at_its_budget(nursery) -> None:
    config = TEST_CONFIG.replace(trusted_addresses=(), http_address_burst=5,
                                 http_address_per_second=0.0)  # fmt: skip
    port = await nursery.start(Server(config, MemoryStore()).serve)
    stream = await open_from("127.0.0.2", port)
    await stream.send_all(b"GET /rules/abbott HTTP/1.1\r\nhost: localhost\r\n\r\n" * 100)
    data = await read_all(stream)
    assert data.count(b"HTTP/1.1 200 OK") == 5
    assert data.count(b"HTTP/1.1 429 Too Many Requests") == 1 and b"retry-after" in data
    again = await open_from("127.0.0.2", port)  # a new connection: the same budget
    await again.send_all(b"GET / HTTP/1.1\r\nhost: localhost\r\n\r\n")
    assert (await read_all(again)).startswith(b"HTTP/1.1 429")
    other = await open_from("127.0.0.3", port)
    await other.send_all(b"GET / HTTP/1.1\r\nhost: localhost\r\n\r\n")
    assert (await read_all(other)).startswith(b"HTTP/1.1 200")


async def test_a_loopback_alias_has_one_budget_with_or_without_a_forwarding_header(
    nursery,
) -> None:
    """127.0.0.2 is trusted by nothing: adding X-Forwarded-For made it proxied:127.0.0.2,
    a second address with budgets of its own. Only a trusted peer has a trust to lose."""
    policy = HttpPolicy.of([], [], trusted=["127.0.0.1"])
    forwarded = {"host": "localhost", "x-forwarded-for": "203.0.113.9"}
    assert client_address("127.0.0.2", forwarded, policy) == "127.0.0.2"
    assert client_address("127.0.0.1", forwarded, policy) == "proxied:127.0.0.1"
    config = TEST_CONFIG.replace(trusted_addresses=("127.0.0.1",), http_address_burst=4,
                                 http_address_per_second=0.0)  # fmt: skip
    port = await nursery.start(Server(config, MemoryStore()).serve)
    plain = b"GET / HTTP/1.1\r\nhost: localhost\r\nconnection: close\r\n\r\n"
    proxied = plain.replace(b"\r\n\r\n", b"\r\nx-forwarded-for: 203.0.113.9\r\n\r\n")
    statuses = []
    for data in (plain, proxied) * 3:
        stream = await open_from("127.0.0.2", port)
        await stream.send_all(data)
        statuses.append((await read_all(stream)).split(b"\r\n")[0])
        await stream.aclose()
    assert statuses.count(b"HTTP/1.1 200 OK") == 4, statuses
    assert statuses[4:] == [b"HTTP/1.1 429 Too Many Requests"] * 2


async def ws_client(port: int, host: str, **headers: str) -> Client:
    """A WebSocket client whose handshake says ``host`` and ``headers``, as a browser
    behind a proxy, or the machine's own, would."""
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    conn = h11.Connection(h11.CLIENT)
    fields = [("host", host), ("upgrade", "websocket"), ("connection", "Upgrade"),
              ("sec-websocket-key", KEY), ("sec-websocket-version", "13"),
              *((k.replace("_", "-"), v) for k, v in headers.items())]  # fmt: skip
    await stream.send_all(conn.send(h11.Request(method="GET", target="/ws", headers=fields)))
    with trio.fail_after(TIMEOUT):
        while (event := conn.next_event()) is h11.NEED_DATA:
            conn.receive_data(await stream.receive_some(65536))
    assert isinstance(event, h11.InformationalResponse) and event.status_code == 101, event
    client = Client(stream)
    client.codec = WebSocketCodec()  # type: ignore[assignment]
    if trailing := conn.trailing_data[0]:
        client.inbox.extend(client.codec.feed(bytes(trailing)))
    return client


async def test_a_browser_behind_a_proxy_on_loopback_gets_no_trust(nursery) -> None:
    """Behind the TLS proxy the docs recommend, every browser came from 127.0.0.1 and so
    skipped every rate and quota, and could skip the operator's admin_auth back-off."""
    config = TEST_CONFIG.replace(http_hosts=("cards.example",), commands_burst=4,
                                 commands_per_second=0.0, flood_drop_after=2,
                                 ws_allowed_origins=("https://cards.example",))  # fmt: skip
    server = Server(config, MemoryStore())
    port = await nursery.start(server.serve)
    proxied = await ws_client(port, "cards.example", Origin="https://cards.example",
                              X_Forwarded_For="203.0.113.9")  # fmt: skip
    own = await ws_client(port, f"127.0.0.1:{port}")
    for client in (proxied, own):
        assert isinstance(await client.request(m.Hello()), m.Welcome)
    peers = sorted(c.peer for c in server.connections)
    assert peers == ["127.0.0.1", "proxied:127.0.0.1"]
    # the proxied browser has the request rate of an address from the internet
    got = [await proxied.request(m.Ping()) for _ in range(4)]
    assert [type(x) for x in got] == [m.Pong] * 3 + [m.Error]
    assert all(isinstance(x, m.Pong) for x in [await own.request(m.Ping()) for _ in range(10)])


async def test_a_flood_of_websocket_pings_is_refused_then_dropped(nursery) -> None:
    """Control pings are requests to the session's rate: each costs one, and a flood is
    refused and then dropped as a flood of ping messages is (before, each read's pings
    got a pong at no cost, forever)."""
    config = TEST_CONFIG.replace(trusted_addresses=(), commands_burst=5,
                                 commands_per_second=0.0, flood_drop_after=3)  # fmt: skip
    port = await nursery.start(Server(config, MemoryStore()).serve)
    client = await ws_client(port, f"127.0.0.1:{port}")
    assert isinstance(await client.request(m.Hello()), m.Welcome)
    codec = client.codec
    assert isinstance(codec, WebSocketCodec)
    answers = []  # what each ping got: a pong, a refusal, or the goodbye
    for i in range(10):
        seen = (len(codec.pongs), len(client.inbox))
        await client.stream.send_all(codec.ws.send(Ping(payload=b"%d" % i)))
        try:
            with trio.fail_after(TIMEOUT):
                while (len(codec.pongs), len(client.inbox)) == seen:
                    await client._fill()
        except EOFError:
            break
        if len(codec.pongs) > seen[0]:
            answers.append("pong")
        else:
            answers.append(client.inbox[-1].type + " " + client.inbox[-1].code)
        if isinstance(client.inbox[-1], m.Goodbye):
            break
    # the burst of 5, less the hello; two refusals; the third is the drop
    assert answers == ["pong"] * 4 + ["error rate_limited"] * 2 + ["goodbye rate_limited"]
    with trio.fail_after(TIMEOUT), contextlib.suppress(EOFError):
        while True:
            await client._fill()
    assert codec.close is not None
    assert codec.close.code == 1013  # try again later (after the cool-off)
    assert codec.close.reason == "rate_limited"


async def test_each_frame_of_a_fragmented_message_is_charged_as_a_request(nursery) -> None:
    """A message in 64 frames was charged as one request, and cost the server three
    times the CPU of the same messages whole: now each frame past the first is a request
    too, so fragmenting buys no more than the rate."""
    config = TEST_CONFIG.replace(trusted_addresses=(), commands_burst=10,
                                 commands_per_second=0.0, flood_drop_after=50)  # fmt: skip
    port = await nursery.start(Server(config, MemoryStore()).serve)
    client = await ws_client(port, f"127.0.0.1:{port}")
    assert isinstance(await client.request(m.Hello()), m.Welcome)  # 1 of the 10
    codec = client.codec
    assert isinstance(codec, WebSocketCodec)

    async def fragmented_ping(req: int, frames: int) -> list[m.Message]:
        text = json_encode(m.Ping(id=req))
        size = len(text)
        cut = [text[i * size // frames : (i + 1) * size // frames] for i in range(frames)]
        data = b"".join(
            codec.ws.send(TextMessage(data=part, message_finished=i == frames - 1))
            for i, part in enumerate(cut)
        )
        await client.stream.send_all(data)
        with trio.fail_after(TIMEOUT):
            while not any(getattr(x, "id", None) == req for x in client.inbox):
                await client._fill()
        return list(client.inbox)

    got = await fragmented_ping(7, 8)  # 8 of the 10: answered
    assert any(isinstance(x, m.Pong) and x.id == 7 for x in got)
    client.inbox.clear()
    got = await fragmented_ping(8, 8)  # 8 more: past the burst
    assert not any(isinstance(x, m.Pong) for x in got)
    assert [x.code for x in got if isinstance(x, m.Error)].count("rate_limited") >= 2


async def test_proxied_websockets_are_counted_as_their_address(nursery) -> None:
    """``connections_per_address`` holds for what comes through a proxy too: counted as
    ``proxied:127.0.0.1`` (the socket's own loopback address is trusted, so uncounted),
    and let go when the connection ends."""
    config = TEST_CONFIG.replace(http_hosts=("cards.example",), connections_per_address=1)
    server = Server(config, MemoryStore())
    port = await nursery.start(server.serve)
    first = await ws_client(port, "cards.example")
    assert isinstance(await first.request(m.Hello()), m.Welcome)
    # refused before the upgrade, saying why and when to try again
    second = await trio.open_tcp_stream("127.0.0.1", port)
    await second.send_all(ws_request("cards.example"))
    refused = await read_all(second)
    assert refused.startswith(b"HTTP/1.1 503 Service Unavailable\r\n"), refused
    assert b"retry-after: 5\r\n" in refused and b"connections open" in refused
    assert b"101" not in refused.split(b"\r\n")[0]
    await first.aclose()
    with trio.fail_after(TIMEOUT):
        while server.connections:
            await trio.sleep(0.01)
    third = await ws_client(port, "cards.example")
    assert isinstance(await third.request(m.Hello()), m.Welcome)
