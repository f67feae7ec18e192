"""HTTP on the game port, sans-I/O and under its timers: what is served, with which
headers, and what is refused."""

from __future__ import annotations

import base64
import hashlib

import h11
import pytest
import trio
import trio.testing

from server.transport.http import (
    HttpLimits,
    HttpServer,
    content_security_policy,
    origin_allowed,
    serve_http,
)
from server.transport.web import CONTENT_TYPES, Resource, rules_pages, site, static_files

INDEX = Resource.of(b"<!doctype html><title>t</title>", "text/html; charset=utf-8")
SCRIPT = Resource.of(b"export const x = 1;\n", "text/javascript; charset=utf-8")
SITE = {"/": INDEX, "/index.html": INDEX, "/app.js": SCRIPT}
KEY = "dGhlIHNhbXBsZSBub25jZQ=="  # RFC 6455's example key ...
ACCEPT = "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="  # ... and its answer


def request(target: str = "/", method: str = "GET", **headers: str) -> bytes:
    lines = [f"{method} {target} HTTP/1.1", "Host: 127.0.0.1:7373"]
    lines += [f"{name.replace('_', '-')}: {value}" for name, value in headers.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def ws_request(**headers: str) -> bytes:
    base = {
        "Upgrade": "websocket",
        "Connection": "keep-alive, Upgrade",
        "Sec_WebSocket_Key": KEY,
        "Sec_WebSocket_Version": "13",
    }
    return request("/ws", **{**base, **headers})


def responses(data: bytes) -> list[tuple[h11.Response, bytes]]:
    """The response in ``data`` (to a GET), parsed by a real h11 client."""
    client = h11.Connection(h11.CLIENT)
    client.send(h11.Request(method=b"GET", target="/", headers=[("host", "x")]))
    client.send(h11.EndOfMessage())
    client.receive_data(data)
    response = client.next_event()
    assert isinstance(response, h11.Response)
    body = b""
    while type(event := client.next_event()) is h11.Data:
        body += event.data
    assert type(event) is h11.EndOfMessage
    return [(response, body)]


def ask(server: HttpServer, data: bytes):
    server.receive_data(data)
    reply = server.next_reply()
    assert reply is not None
    return reply


def headers_of(response: h11.Response) -> dict[str, str]:
    return {k.decode(): v.decode() for k, v in response.headers}


def test_the_index_and_a_script_with_their_types_and_cache_headers():
    server = HttpServer(SITE)
    reply = ask(server, request("/"))
    ((response, body),) = responses(reply.data)
    assert response.status_code == 200 and body == INDEX.body
    h = headers_of(response)
    assert h["content-type"] == "text/html; charset=utf-8"
    assert h["etag"] == INDEX.etag and h["cache-control"] == "no-cache"
    assert not reply.close
    reply = ask(server, request("/app.js?v=2"))  # a query string names the same file
    ((response, body),) = responses(reply.data)
    assert body == SCRIPT.body
    assert headers_of(response)["content-type"] == "text/javascript; charset=utf-8"


def test_every_response_carries_the_security_headers():
    for data in (request("/"), request("/nope"), request("/", "POST")):
        ((response, _),) = responses(ask(HttpServer(SITE), data).data)
        h = headers_of(response)
        csp = h["content-security-policy"]
        assert "'unsafe-inline'" not in csp and "'unsafe-eval'" not in csp
        assert "script-src 'self'" in csp and "default-src 'self'" in csp
        assert "connect-src 'self' ws://127.0.0.1:7373 wss://127.0.0.1:7373" in csp
        assert "frame-ancestors 'none'" in csp
        assert h["x-content-type-options"] == "nosniff"
        assert h["referrer-policy"] == "no-referrer"
        assert h["x-frame-options"] == "DENY"


def test_a_host_header_that_is_not_a_host_stays_out_of_the_policy():
    assert "ws:" not in content_security_policy("a b; script-src *")
    assert "ws:" not in content_security_policy(None)
    assert "ws://[::1]:7373" in content_security_policy("[::1]:7373")


def test_unknown_paths_are_404_and_the_connection_is_kept():
    server = HttpServer(SITE)
    for target in (
        "/nope",
        "/../pyproject.toml",
        "/%2e%2e/server/app.py",
        "//etc/passwd",
        "/static/../../x",
        "/rules/chess",
        "/rules/",
        "*",
    ):
        reply = ask(server, request(target))
        ((response, _),) = responses(reply.data)
        assert response.status_code == 404, target
        assert not reply.close
    assert server.requests == 8


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "OPTIONS", "PATCH", "TRACE"])
def test_other_methods_are_405_and_closed(method):
    server = HttpServer(SITE)
    reply = ask(server, request("/", method, Content_Length="5") + b"hello")
    ((response, _),) = responses(reply.data)
    assert response.status_code == 405 and headers_of(response)["allow"] == "GET, HEAD"
    assert reply.close and server.done


def test_head_has_the_headers_of_get_and_no_body():
    reply = ask(HttpServer(SITE), request("/", "HEAD"))
    assert reply.data.endswith(b"\r\n\r\n")
    assert f"content-length: {len(INDEX.body)}".encode() in reply.data
    assert INDEX.body not in reply.data


def test_an_unchanged_file_is_304_without_its_bytes():
    reply = ask(HttpServer(SITE), request("/app.js", If_None_Match=f'"x", {SCRIPT.etag}'))
    assert reply.data.startswith(b"HTTP/1.1 304 Not Modified\r\n")
    assert SCRIPT.body not in reply.data and SCRIPT.etag.encode() in reply.data
    reply = ask(HttpServer(SITE), request("/app.js", If_None_Match='"stale"'))
    assert reply.data.startswith(b"HTTP/1.1 200 OK\r\n")


def test_a_get_with_a_body_is_refused_and_closed():
    reply = ask(HttpServer(SITE), request("/", Content_Length="3") + b"abc")
    assert reply.data.startswith(b"HTTP/1.1 400 ") and reply.close
    reply = ask(HttpServer(SITE), request("/", Transfer_Encoding="chunked"))
    assert reply.data.startswith(b"HTTP/1.1 400 ") and reply.close


def test_headers_over_the_limit_are_431_before_they_end():
    server = HttpServer(SITE, HttpLimits(max_header_bytes=1024))
    server.receive_data(b"GET / HTTP/1.1\r\nHost: x\r\nX-Pad: " + b"a" * 2000)
    reply = server.next_reply()
    assert reply is not None and reply.data.startswith(b"HTTP/1.1 431 ") and reply.close
    # whole in one read, they are refused all the same
    server = HttpServer(SITE, HttpLimits(max_header_bytes=1024))
    reply = ask(server, request("/", X_Pad="a" * 2000))
    assert reply.status == 431 and reply.close
    # just under the limit is served
    server = HttpServer(SITE, HttpLimits(max_header_bytes=1024))
    assert ask(server, request("/", X_Pad="a" * 900)).status == 200


def test_bytes_that_are_not_http_are_400_and_closed():
    server = HttpServer(SITE)
    server.receive_data(b"GET / HTTP/1.1\r\nno colon here\r\n\r\n")
    reply = server.next_reply()
    assert reply is not None and reply.data.startswith(b"HTTP/1.1 400 ") and reply.close
    assert server.next_reply() is None


def test_keep_alive_serves_pipelined_requests_and_is_bounded():
    server = HttpServer(SITE, HttpLimits(max_requests=3))
    server.receive_data(request("/") + request("/app.js") + request("/nope") + request("/"))
    statuses = []
    while (reply := server.next_reply()) is not None:
        statuses.append((reply.status, reply.close))
    assert statuses == [(200, False), (200, False), (404, True)]


def test_the_last_response_says_connection_close():
    server = HttpServer(SITE, HttpLimits(max_requests=1))
    reply = ask(server, request("/"))
    assert reply.close and b"\r\nconnection: close\r\n" in reply.data


def test_a_client_that_asks_to_close_is_closed():
    reply = ask(HttpServer(SITE), request("/", Connection="close"))
    assert reply.close and reply.status == 200


def test_the_header_timer_runs_only_while_a_request_is_partial():
    server = HttpServer(SITE)
    assert not server.awaiting_headers
    server.receive_data(b"GET / HT")
    assert server.awaiting_headers and server.next_reply() is None
    server.receive_data(b"TP/1.1\r\nHost: 192.168.1.20\r\n\r\n")
    assert server.next_reply().status == 200
    assert not server.awaiting_headers


# ------------------------------------------------------------- the WebSocket handshake
def test_the_websocket_handshake_answers_101_with_the_accept_token():
    server = HttpServer(SITE)
    frames = b"\x81\x85abcdefghi"
    reply = ask(server, ws_request(Origin="http://127.0.0.1:7373") + frames)
    assert reply.status == 101 and reply.upgrade is not None
    assert reply.data.startswith(b"HTTP/1.1 101 Switching Protocols\r\n")
    assert f"sec-websocket-accept: {ACCEPT}".encode() in reply.data
    assert reply.upgrade.trailing == frames  # the first frames, already read, go on
    assert reply.upgrade.subprotocol is None
    assert (
        base64.b64encode(
            hashlib.sha1((KEY + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").encode()).digest()
        ).decode()
        == ACCEPT
    )


def test_the_subprotocol_is_answered_only_when_asked_for():
    reply = ask(HttpServer(SITE), ws_request(Sec_WebSocket_Protocol="chat, switchboard"))
    assert reply.upgrade.subprotocol == "switchboard"
    assert b"sec-websocket-protocol: switchboard\r\n" in reply.data


@pytest.mark.parametrize(
    "origin",
    [
        "http://evil.example",
        "http://127.0.0.1:7374",
        "https://127.0.0.1:7373x",
        "null",
        "file://",
        "http://127.0.0.1.evil.example:7373",
    ],
)
def test_a_cross_site_origin_is_refused_with_403(origin):
    server = HttpServer(SITE)
    reply = ask(server, ws_request(Origin=origin))
    assert reply.status == 403 and reply.close and reply.upgrade is None


def test_an_origin_the_operator_allows_is_let_in():
    server = HttpServer(SITE, allowed_origins=["https://cards.example"])
    assert ask(server, ws_request(Origin="https://cards.example")).status == 101
    assert ask(HttpServer(SITE, allowed_origins=["*"]), ws_request(Origin="http://x")).upgrade


def test_origin_rule():
    assert origin_allowed("http://h:80", "h")
    assert origin_allowed("http://h", "h:80")
    assert not origin_allowed("https://h", "h:80")
    assert origin_allowed("http://[::1]:7373", "[::1]:7373")
    assert not origin_allowed("http://h:99999", "h:99999")  # not a port
    assert not origin_allowed("http://h", None)


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        ({"Upgrade": "h2c"}, 426),
        ({"Connection": "keep-alive"}, 426),
        ({"Sec_WebSocket_Version": "8"}, 426),
        ({"Sec_WebSocket_Key": "c2hvcnQ="}, 400),
        ({"Sec_WebSocket_Key": "not base64!!"}, 400),
    ],
)
def test_a_broken_handshake_is_refused(headers, status):
    reply = ask(HttpServer(SITE), ws_request(**headers))
    assert reply.status == status and reply.close and reply.upgrade is None


def test_plain_get_of_the_websocket_path_says_upgrade():
    reply = ask(HttpServer(SITE), request("/ws"))
    assert reply.status == 426 and b"upgrade: websocket" in reply.data


# ---------------------------------------------------------------------- the site
def test_the_rules_pages_are_the_terminal_clients_texts_said_for_a_tap():
    """One text a family, shared with the terminal client; where the terminal's says
    type, the page's says tap (``protocol.rules.WORDINGS``), and neither says the other's."""
    from protocol.rules import FAMILIES, family_text

    pages = rules_pages()
    for family in FAMILIES:
        page = pages[f"/rules/{family}"]
        assert page.body.decode() == family_text(family, "tapped")
        assert page.content_type == "text/plain; charset=utf-8"
    kilodney = pages["/rules/kilodney"].body.decode()
    assert "nothing to tap" in kilodney and "nothing to type" not in kilodney
    assert "nothing to type" in (family_text("kilodney") or "")
    abbott = pages["/rules/abbott"].body.decode()
    assert "marked +" not in abbott and "marked +" in (family_text("abbott") or "")
    for text in [*(p.body.decode() for p in pages.values()), *map(family_text, FAMILIES)]:
        assert "{" not in (text or "").replace("{powers}", ""), "a wording left unsaid"


def test_the_site_serves_only_the_packages_files_with_known_types():
    files = static_files()
    for path, resource in files.items():
        assert ".." not in path and path.startswith("/")
        assert resource.content_type in CONTENT_TYPES.values()
    if "/index.html" in files:
        assert files["/"] is files["/index.html"]
    assert set(rules_pages()) <= set(site())


# --------------------------------------------------------------------- the shell
async def _serve(limits: HttpLimits, first: bytes = b""):
    client, server_side = trio.testing.memory_stream_pair()
    results = []

    async def run():
        server = HttpServer(SITE, limits)
        results.append(await serve_http(server_side, server, first, trio.current_time()))
        await server_side.aclose()

    return client, results, run


async def _read_until_closed(stream) -> bytes:
    data = b""
    while chunk := await stream.receive_some(65536):
        data += chunk
    return data


async def test_a_request_whose_headers_never_end_is_closed_after_header_seconds(autojump_clock):
    limits = HttpLimits(header_seconds=10, idle_seconds=100)
    client, results, run = await _serve(limits, b"GET / HT")
    async with trio.open_nursery() as nursery:
        nursery.start_soon(run)
        start = trio.current_time()
        for _ in range(5):  # a drip resets nothing
            await trio.sleep(1)
            await client.send_all(b"T")
        assert await _read_until_closed(client) == b""
        assert trio.current_time() - start == pytest.approx(10)
    assert results == [None]


async def test_a_kept_alive_connection_is_closed_after_idle_seconds(autojump_clock):
    limits = HttpLimits(header_seconds=5, idle_seconds=15)
    client, _results, run = await _serve(limits, request("/"))
    async with trio.open_nursery() as nursery:
        nursery.start_soon(run)
        start = trio.current_time()
        data = await _read_until_closed(client)
        assert trio.current_time() - start == pytest.approx(15)
    assert data.startswith(b"HTTP/1.1 200 OK") and data.endswith(INDEX.body)


async def test_the_shell_hands_over_an_upgrade(autojump_clock):
    client, results, run = await _serve(HttpLimits(), ws_request() + b"\x81")
    async with trio.open_nursery() as nursery:
        nursery.start_soon(run)
        data = await _read_until_closed(client)
    assert data.startswith(b"HTTP/1.1 101 ")
    assert results[0].trailing == b"\x81"
