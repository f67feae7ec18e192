"""A table's invite on the game port: ``/t/ID`` serves the page, ``/qr.svg?t=ID`` the QR
code of the link for the name the browser asked by, and nothing else looks like one."""

from __future__ import annotations

import json
import re

import pytest

from server.transport.http import HttpServer
from server.transport.proxied import HttpPolicy
from server.transport.web import site
from tests.server.test_http import SITE, ask, headers_of, request, responses


def get(server: HttpServer, target: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    ((response, body),) = responses(ask(server, request(target, **headers)).data)
    return response.status_code, headers_of(response), body


def decoded(svg: bytes) -> str:
    """What a scanner reads off the SVG: its modules (the ``qrcode`` path image draws each
    dark one as ``Mx,yH...``) drawn as pixels, 4 a module, and decoded by zxing-cpp."""
    zxingcpp = pytest.importorskip("zxingcpp")
    found = re.search(rb'viewBox="0 0 (\d+) (\d+)"', svg)
    assert found is not None, svg[:200]
    size, scale = int(found.group(1)), 4
    dark = {(int(x), int(y)) for x, y in re.findall(rb"M(\d+),(\d+)H", svg)}
    side = size * scale
    pixels = bytes(
        0 if (x // scale, y // scale) in dark else 255 for y in range(side) for x in range(side)
    )
    image = memoryview(pixels).cast("B", shape=[side, side])
    return "".join(code.text for code in zxingcpp.read_barcodes(image))


def test_an_invite_path_serves_the_page():
    status, h, body = get(HttpServer(SITE), "/t/7")
    assert status == 200 and body == SITE["/"].body
    assert h["content-type"] == "text/html; charset=utf-8"


def test_only_a_table_id_is_an_invite():
    for target in ("/t/", "/t/07", "/t/7/", "/t/7/app.js", "/t/x", "/t/1234567890", "/t/..%2f"):
        assert get(HttpServer(SITE), target)[0] == 404, target


def test_the_qr_code_is_the_link_the_browser_used():
    status, h, body = get(HttpServer(SITE), "/qr.svg?t=12")
    assert status == 200 and h["content-type"] == "image/svg+xml"
    assert decoded(body) == "http://127.0.0.1:7373/t/12"


def test_https_only_when_a_configured_proxy_says_so():
    proxied = HttpPolicy.of([], ["10.0.0.5"])
    server = HttpServer(SITE, peer="10.0.0.5", policy=proxied)
    body = get(server, "/qr.svg?t=3", X_Forwarded_Proto="https", X_Forwarded_For="1.2.3.4")[2]
    assert decoded(body) == "https://127.0.0.1:7373/t/3"
    # anyone else saying so is not believed
    body = get(HttpServer(SITE, peer="10.0.0.9"), "/qr.svg?t=3", X_Forwarded_Proto="https")[2]
    assert decoded(body) == "http://127.0.0.1:7373/t/3"


def test_a_qr_code_of_anything_else_is_refused():
    for target in ("/qr.svg", "/qr.svg?t=", "/qr.svg?t=0", "/qr.svg?t=1&t=2", "/qr.svg?u=1"):
        assert get(HttpServer(SITE), target)[0] == 404, target


def test_the_manifest_is_served_as_a_manifest():
    pages = site()
    manifest = pages["/manifest.webmanifest"]
    assert manifest.content_type == "application/manifest+json"
    data = json.loads(manifest.body)
    assert data["name"] == "Switchboard" and data["display"] == "standalone"
    for icon in data["icons"]:
        assert icon["src"] in pages, icon
        assert pages[icon["src"]].content_type == icon["type"]
