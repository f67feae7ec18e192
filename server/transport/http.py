"""HTTP/1.1 on the game port, sans-I/O: request bytes in, response bytes out (h11).

A connection whose first line is ``GET /path HTTP/1.x`` (``protocol.sniff``) is a browser,
or a script, asking for the web client. ``HttpServer`` is its whole protocol, with no
socket; ``serve_http`` is the shell that feeds it what the socket gives and writes what it
answers, under the timers of ``HttpLimits``.

What it serves, and nothing else:

- ``GET`` or ``HEAD`` of a path in the site's fixed table (``server.transport.web.site``:
  ``/``, the web client's files, ``/rules/FAMILY``), or of a table's invite
  (``server.transport.invite``: ``/t/ID`` is the page, ``/qr.svg?t=ID`` its link's QR
  code): ``200`` with the bytes, or ``304`` when the browser's ``If-None-Match`` names the
  current ``ETag``;
- ``GET /ws`` with a WebSocket handshake (RFC 6455) from an allowed ``Origin``: ``101``,
  and the connection becomes a WebSocket (``Reply.upgrade``);
- anything else is refused: another method ``405``, an unknown path ``404``, ``/ws``
  without a proper handshake ``426`` or ``400``, a cross-site ``Origin`` ``403``, a
  request with a body ``400``, a request line and headers over ``max_header_bytes``
  ``431``, bytes that are not HTTP/1.1 ``400`` (another version, HTTP/2's preface
  included, ``505``); a ``Host`` that is neither ``localhost``,
  an IP literal, the machine's own name nor one of ``http_hosts`` ``421``
  (``server.transport.proxied``: DNS rebinding); past its address's budget of requests
  (``http_address_*``, shared by all its connections) ``429``. Each refusal but ``404``
  closes the connection.

Each request is counted as from an address (``proxied.client_address``: the peer's,
``proxied:PEER`` for what came through a proxy on loopback, or the client a configured
proxy names), which the budget uses and a WebSocket's session takes (``Upgrade.address``):
loopback's trust goes only to the machine's own browser.

Every response carries the same security headers (``SECURITY_HEADERS`` and a
Content-Security-Policy that allows no inline script and lets pages connect only to this
server's own WebSocket), so a page served here runs only the scripts served here.

Keep-alive is bounded: after ``max_requests`` requests the last response says
``Connection: close``. The two timers (headers whole within ``header_seconds`` of a
request's first byte; at most ``idle_seconds`` between requests) are the shell's, which
asks ``awaiting_headers`` which one runs.

>>> from server.transport.web import Resource
>>> server = HttpServer({"/": Resource.of(b"<p>hi</p>", "text/html; charset=utf-8")})
>>> server.receive_data(b"GET / HTTP/1.1\\r\\nHost: 192.168.1.20:7373\\r\\n\\r\\n")
>>> reply = server.next_reply()
>>> reply.data.split(b"\\r\\n")[0], reply.data.endswith(b"<p>hi</p>"), reply.close
(b'HTTP/1.1 200 OK', True, False)
>>> server.receive_data(b"DELETE / HTTP/1.1\\r\\nHost: 192.168.1.20:7373\\r\\n\\r\\n")
>>> reply = server.next_reply()
>>> reply.data.split(b"\\r\\n")[0], reply.close
(b'HTTP/1.1 405 Method Not Allowed', True)
"""

from __future__ import annotations

import base64
import binascii
import functools
import math
import re
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from http import HTTPStatus
from urllib.parse import urlsplit

import h11
import trio
from wsproto.utilities import generate_accept_token

from server.core.limits import AddressBudget
from server.transport.invite import QR_PATH, invite_link, invite_table, qr_svg, qr_table
from server.transport.proxied import HttpPolicy, client_address, host_allowed
from server.transport.web import CONTENT_TYPES, Resource, page_path

#: No names besides localhost and IP literals, no proxies (``http_hosts``, ``http_proxies``).
OPEN_POLICY = HttpPolicy()
#: The path that upgrades to a WebSocket.
WS_PATH = "/ws"
#: The WebSocket subprotocol a client may ask for (it is answered only if asked).
WS_SUBPROTOCOL = "switchboard"

#: Sent with every response (with the Content-Security-Policy).
SECURITY_HEADERS: tuple[tuple[str, str], ...] = (
    ("x-content-type-options", "nosniff"),
    ("referrer-policy", "no-referrer"),
    ("x-frame-options", "DENY"),
    ("cross-origin-opener-policy", "same-origin"),
    ("cross-origin-resource-policy", "same-origin"),
)

#: A Host header that may go into the policy as it is: a name or address and a port.
_HOST = re.compile(r"(?:[A-Za-z0-9.\-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\])(?::[0-9]{1,5})?")


@functools.lru_cache(maxsize=256)  # one a name the server is asked by: a handful
def content_security_policy(host: str | None) -> str:
    """The policy of every page: scripts, styles and everything else only from this server,
    no inline script or style, no plugins, never framed; connections only to this server,
    including its WebSocket (``ws:``/``wss:`` of the host the page was loaded from; a browser
    that follows CSP level 3 counts those under ``'self'`` anyway).

    >>> "'unsafe-inline'" in content_security_policy("h:1")
    False
    >>> content_security_policy("evil\\r\\nx").count("ws:")
    0
    """
    connect = "'self'"
    if host is not None and _HOST.fullmatch(host):
        connect += f" ws://{host} wss://{host}"
    return (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        f"connect-src {connect}; object-src 'none'; base-uri 'none'; form-action 'self'; "
        "frame-ancestors 'none'"
    )


@dataclass(frozen=True, slots=True)
class HttpLimits:
    """How much one HTTP connection may ask of the server (``ServerConfig``'s ``http_*``)."""

    #: bytes of a request line and its headers; more is refused with 431 (h11's
    #: ``max_incomplete_event_size``)
    max_header_bytes: int = 8192
    header_seconds: float = 10.0  #: a request's headers whole after its first byte
    idle_seconds: float = 15.0  #: a kept-alive connection waits this long for a request
    max_requests: int = 100  #: requests on one connection; the last is answered and closed


@dataclass(frozen=True, slots=True)
class Upgrade:
    """A WebSocket handshake accepted: what the client sent after its request (the first
    WebSocket frames, already read) for the WebSocket to take over."""

    trailing: bytes
    origin: str | None
    subprotocol: str | None
    address: str = "?"  #: whom the session is from (``proxied.client_address``)


@dataclass(frozen=True, slots=True)
class Reply:
    """What to write, and what then: close the connection, or become a WebSocket."""

    data: bytes
    close: bool = False
    upgrade: Upgrade | None = None
    status: int = 0  #: the response's status (0: none was sent)


def origin_allowed(origin: str | None, host: str | None, allowed: Iterable[str] = ()) -> bool:
    """Whether a WebSocket handshake from ``origin`` may proceed on a request to ``host``.

    A browser always sends ``Origin`` with a WebSocket handshake, so a page of another site
    is recognised by it (cross-site WebSocket hijacking): it must name the host the
    request was sent to (scheme ``http`` or ``https``, default ports alike) or be one of
    ``allowed`` (the operator's ``ws_allowed_origins``; ``*`` allows every origin). A
    handshake without ``Origin`` is not from a browser (a bot, a script) and is allowed: no
    browser can be made to send one.

    >>> origin_allowed("http://192.168.1.20:7373", "192.168.1.20:7373")
    True
    >>> origin_allowed("https://Game.Example", "game.example:443")
    True
    >>> origin_allowed("http://evil.example", "192.168.1.20:7373")
    False
    >>> origin_allowed("null", "h:1"), origin_allowed(None, "h:1")
    (False, True)
    >>> origin_allowed("https://lan.example", "h:1", ["https://lan.example"])
    True
    """
    if origin is None:
        return True
    allowed = set(allowed)
    if "*" in allowed or origin.rstrip("/").lower() in {a.rstrip("/").lower() for a in allowed}:
        return True
    if host is None:
        return False
    try:
        parts = urlsplit(origin)
        port = parts.port
    except ValueError:
        return False
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return False
    default = 80 if parts.scheme == "http" else 443
    name = parts.hostname.lower()
    if ":" in name:
        name = f"[{name}]"
    want = name if port in (None, default) else f"{name}:{port}"
    host = host.lower()
    if host.endswith(f":{default}"):
        host = host[: -len(f":{default}")]
    return host == want


def _tokens(value: bytes | None) -> set[str]:
    """The comma-separated tokens of a header, lowercased."""
    if value is None:
        return set()
    return {t.strip().lower() for t in value.decode("latin-1").split(",")}


class HttpServer:
    """One HTTP/1.1 connection's server side, sans-I/O."""

    def __init__(
        self,
        site: Mapping[str, Resource],
        limits: HttpLimits = HttpLimits(),
        allowed_origins: Iterable[str] = (),
        peer: str = "?",
        policy: HttpPolicy = OPEN_POLICY,
        budget: AddressBudget | None = None,
        clock: Callable[[], float] = time.monotonic,
        admit: Callable[[str], tuple[str, str, int] | None] | None = None,
    ) -> None:
        self.site = site
        self.limits = limits
        self.allowed_origins = tuple(allowed_origins)
        self.peer = peer  #: the socket's peer address
        self.policy = policy
        self.budget = budget  #: requests per address, shared by its connections (or none)
        self.clock = clock
        self.address = peer  #: whom the last request is counted as from
        #: counts a WebSocket's connection under an address other than the peer's (its
        #: client behind a proxy): None if admitted, else why not (a goodbye's code, its
        #: words, the seconds to wait), which refuses the handshake with 503
        self.admit = admit
        self.admitted: str | None = None  #: the address ``admit`` counted the upgrade under
        self._conn = h11.Connection(h11.SERVER, max_incomplete_event_size=limits.max_header_bytes)
        self._request: h11.Request | None = None
        self._refusal: Reply | None = None  #: decided on a request's headers, sent at once
        self._started = False  #: bytes of a request whose headers are not all here
        self.requests = 0  #: requests answered
        self.done = False  #: a reply said close (or upgrade): nothing more is parsed

    @property
    def awaiting_headers(self) -> bool:
        """True while part of a request has arrived and its headers are not yet whole (the
        header timer runs); False between requests (the idle timer runs)."""
        return self._started

    def receive_data(self, data: bytes) -> None:
        """Bytes from the client; ``b""`` when it closed its side."""
        if data and self._request is None:
            self._started = True
        self._conn.receive_data(data)

    def next_reply(self) -> Reply | None:
        """The next response to write, or ``None`` until more bytes arrive."""
        if self.done:
            return None
        conn = self._conn
        while True:
            try:
                event = conn.next_event()
            except h11.RemoteProtocolError as exc:
                status = exc.error_status_hint if exc.error_status_hint >= 400 else 400
                why = "request headers too large" if status == 431 else "not an HTTP/1.1 request"
                return self._refuse(status, why)
            if event is h11.NEED_DATA:
                return None
            if type(event) is h11.Request:
                self._request = event
                self._started = False
                refusal = self._check_request(event)
                if refusal is not None:
                    return refusal
            elif type(event) is h11.EndOfMessage:
                return self._answer()
            elif type(event) is h11.ConnectionClosed or event is h11.PAUSED:
                self.done = True
                return Reply(b"", close=True)
            # h11.Data cannot come: a request with a body is refused on its headers

    # --------------------------------------------------------------- answers
    def _check_request(self, request: h11.Request) -> Reply | None:
        """A refusal decided on the request line and headers alone (closing: the body, if
        any, is never read), or None."""
        # h11 checks its limit only while a request is incomplete: one that came whole in a
        # single read is measured here (its line and headers as they were sent, but for
        # spaces around the colons)
        size = len(request.method) + len(request.target) + 11
        size += sum(len(name) + len(value) + 4 for name, value in request.headers.raw_items())
        if size > self.limits.max_header_bytes:
            return self._refuse(431, "request headers too large")
        headers = {
            name.decode("latin-1"): value.decode("latin-1") for name, value in request.headers
        }
        if request.http_version not in (b"1.0", b"1.1"):  # HTTP/2's preface, say
            return self._refuse(505, "this port speaks HTTP/1.1")
        if not host_allowed(headers.get("host"), self.policy.hosts):
            return self._refuse(421, "this server does not answer to that name")
        self.address = client_address(self.peer, headers, self.policy)
        budget = self.budget
        if budget is not None and not budget.take(self.address, now := self.clock()):
            wait = math.ceil(min(budget.wait_time(self.address, now), 3600.0))
            why = f"too many requests from your address; wait {wait} s"
            return self._refuse(429, why, [("retry-after", str(wait))])
        if request.method not in (b"GET", b"HEAD"):
            return self._refuse(405, "only GET and HEAD are served", [("allow", "GET, HEAD")])
        for name, value in request.headers:
            if name == b"transfer-encoding" or (name == b"content-length" and value != b"0"):
                return self._refuse(400, "a GET carries no body")
        return None

    def _answer(self) -> Reply:
        request = self._request
        assert request is not None
        self._request = None
        path, _, query = request.target.decode("latin-1").partition("?")
        if path == WS_PATH:
            return self._upgrade(request)
        resource = self.site.get(page_path(path)) or self._invite(request, path, query)
        if resource is None:
            return self._respond(404, b"not found\n", "text/plain; charset=utf-8", request)
        headers = [("etag", resource.etag), ("cache-control", "no-cache")]
        wanted = _header(request, b"if-none-match")
        if wanted is not None and resource.etag in {t.strip() for t in wanted.split(",")}:
            return self._respond(304, b"", None, request, headers)
        return self._respond(200, resource.body, resource.content_type, request, headers)

    def _invite(self, request: h11.Request, path: str, query: str) -> Resource | None:
        """A table's invite (``server.transport.invite``): its page, or its link's QR
        code for the name the browser asked by; None for any other path."""
        if invite_table(path) is not None:
            return self.site.get("/")
        table = qr_table(query) if path == QR_PATH else None
        host = _header(request, b"host")
        if table is None or host is None:
            return None
        forwarded = (
            _header(request, b"x-forwarded-proto") if self.peer in self.policy.proxies else None
        )
        scheme = (
            "https" if forwarded is not None and forwarded.strip().lower() == "https" else "http"
        )
        link = invite_link(host, table, scheme)
        return None if link is None else _qr_resource(link)

    def _upgrade(self, request: h11.Request) -> Reply:
        """The WebSocket handshake (RFC 6455 section 4.2), or its refusal."""
        if request.method != b"GET":
            return self._refuse(405, "a WebSocket opens with GET", [("allow", "GET")])
        headers = request.headers
        get = {name: value for name, value in headers}
        if "websocket" not in _tokens(get.get(b"upgrade")) or "upgrade" not in _tokens(
            get.get(b"connection")
        ):
            return self._refuse(426, "this path is a WebSocket", [("upgrade", "websocket")])
        if get.get(b"sec-websocket-version") != b"13":
            return self._refuse(426, "WebSocket version 13 only", [("sec-websocket-version", "13")])
        key = get.get(b"sec-websocket-key", b"")
        try:
            valid_key = len(base64.b64decode(key, validate=True)) == 16
        except (binascii.Error, ValueError):
            valid_key = False
        if not valid_key:
            return self._refuse(400, "a WebSocket key is 16 bytes in base64")
        origin = _header(request, b"origin")
        if not origin_allowed(origin, _header(request, b"host"), self.allowed_origins):
            return self._refuse(403, "this server's WebSocket is not open to other sites")
        if self.admit is not None and self.address != self.peer:
            refused = self.admit(self.address)
            if refused is not None:
                _code, why, retry = refused
                text = f"{why}; try again in {retry} s"
                return self._refuse(503, text, [("retry-after", str(retry))])
            self.admitted = self.address
        reply_headers: list[tuple[str, str]] = [
            ("upgrade", "websocket"),
            ("connection", "Upgrade"),
            ("sec-websocket-accept", generate_accept_token(key).decode("ascii")),
        ]
        offered = _tokens(get.get(b"sec-websocket-protocol"))
        subprotocol = WS_SUBPROTOCOL if WS_SUBPROTOCOL in offered else None
        if subprotocol is not None:
            reply_headers.append(("sec-websocket-protocol", subprotocol))
        data = self._conn.send(
            h11.InformationalResponse(
                status_code=101, headers=reply_headers, reason=b"Switching Protocols"
            )
        )
        self.requests += 1
        self.done = True
        trailing, _closed = self._conn.trailing_data
        assert data is not None
        upgrade = Upgrade(bytes(trailing), origin, subprotocol, self.address)
        return Reply(data, upgrade=upgrade, status=101)

    def _refuse(self, status: int, why: str, extra: list[tuple[str, str]] | None = None) -> Reply:
        """A refusal, and the connection closed after it."""
        body = f"{status} {HTTPStatus(status).phrase}: {why}\n".encode()
        headers = [*(extra or []), ("connection", "close")]
        if self._conn.our_state not in (h11.IDLE, h11.SEND_RESPONSE):
            self.done = True
            return Reply(b"", close=True)
        reply = self._respond(status, body, "text/plain; charset=utf-8", self._request, headers)
        self.done = True
        return Reply(reply.data, close=True, status=status)

    def _respond(
        self,
        status: int,
        body: bytes,
        content_type: str | None,
        request: h11.Request | None,
        headers: list[tuple[str, str]] | None = None,
    ) -> Reply:
        self.requests += 1
        out = list(headers or [])
        if content_type is not None:
            out.append(("content-type", content_type))
        if status != 304:
            out.append(("content-length", str(len(body))))
        host = None if request is None else _header(request, b"host")
        out.append(("content-security-policy", content_security_policy(host)))
        out.extend(SECURITY_HEADERS)
        close = self.requests >= self.limits.max_requests or _wants_close(request)
        if close and not any(name == "connection" for name, _ in out):
            out.append(("connection", "close"))
        phrase = HTTPStatus(status).phrase
        lines = [f"HTTP/1.1 {status} {phrase}\r\n", *(f"{n}: {v}\r\n" for n, v in out), "\r\n"]
        data = "".join(lines).encode("latin-1")
        head = request is not None and request.method == b"HEAD"
        if body and not head and status != 304:
            data += body
        if close:
            self.done = True
            return Reply(data, close=True, status=status)
        self._next_cycle()
        return Reply(data, status=status)

    def _next_cycle(self) -> None:
        """Ready for the next request on a kept-alive connection: a new h11 connection
        given what the client sent after this request (pipelined requests). Why not
        h11's own ``send`` and ``start_next_cycle``: its checks of every header of
        every response, headers that are ours and the same each time, were half the
        CPU of serving a file (the response is written here instead, as h11 would)."""
        trailing, closed = self._conn.trailing_data
        self._conn = conn = h11.Connection(
            h11.SERVER, max_incomplete_event_size=self.limits.max_header_bytes
        )
        if trailing:
            conn.receive_data(bytes(trailing))
        if closed:
            conn.receive_data(b"")


@functools.lru_cache(maxsize=128)
def _qr_resource(link: str) -> Resource:
    return Resource.of(qr_svg(link), CONTENT_TYPES[".svg"])


def _wants_close(request: h11.Request | None) -> bool:
    """Whether the connection closes after the response to ``request`` (as h11 decides:
    ``Connection: close``, or HTTP/1.0, which keeps nothing alive here; no request: a
    refusal of bytes that were none)."""
    if request is None or request.http_version != b"1.1":
        return True
    return "close" in _tokens(_header_bytes(request, b"connection"))


def _header_bytes(request: h11.Request, name: bytes) -> bytes | None:
    for key, value in request.headers:
        if key == name:
            return value
    return None


def _header(request: h11.Request, name: bytes) -> str | None:
    for key, value in request.headers:
        if key == name:
            return value.decode("latin-1")
    return None


#: What a socket raises when the peer is gone.
_TRANSPORT_ERRORS = (trio.BrokenResourceError, trio.ClosedResourceError, OSError)


async def serve_http(
    stream: trio.abc.Stream, server: HttpServer, first: bytes, began: float
) -> Upgrade | None:
    """Serve HTTP requests on ``stream`` until the connection should close (``None``) or
    becomes a WebSocket (the ``Upgrade``). ``first`` is what was read to sniff the
    connection, ``began`` when it was accepted (the first request's header timer runs
    from then).

    The timers: a request's headers must be whole ``header_seconds`` after its first byte;
    between requests the connection waits at most ``idle_seconds``; a response the client
    does not read within ``idle_seconds`` ends the connection. Whichever fires, the
    connection is closed without a word (a browser opens another)."""
    limits = server.limits
    server.receive_data(first)
    request_began = began
    try:
        while True:
            while (reply := server.next_reply()) is not None:
                if reply.data:
                    with trio.move_on_after(limits.idle_seconds) as sending:
                        await stream.send_all(reply.data)
                    if sending.cancelled_caught:
                        return None
                if reply.upgrade is not None:
                    return reply.upgrade
                if reply.close:
                    return None
            if server.done:
                return None
            waiting_headers = server.awaiting_headers
            if waiting_headers:
                deadline = request_began + limits.header_seconds
            else:
                deadline = trio.current_time() + limits.idle_seconds
            with trio.move_on_at(deadline):
                data = await stream.receive_some(65536)
                if not waiting_headers:
                    request_began = trio.current_time()
                server.receive_data(bytes(data))
                continue
            return None  # a timer fired
    except _TRANSPORT_ERRORS:
        return None
