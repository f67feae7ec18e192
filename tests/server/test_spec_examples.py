"""The spec's example session is replayed against a real server, so it cannot go stale.

docs/protocol.md section 14 holds a fenced ``msgpack-session`` block: ``C`` lines are
frames a client sends, ``S`` lines the frames the server answers with (each a map
written as JSON), ``//`` lines notes. This test sends every ``C`` frame to a fresh
in-process server, reads as many frames as the ``S`` lines that follow it, and
compares them field by field. A value written ``"..."`` in an ``S`` line varies
from run to run (a seat's token): it must be present, and may be anything. The
game's seed is fixed, as the example says, so its deal and the bot's moves are
the example's. Section 15's ``text-session`` block is the same session typed at
``nc`` (``>`` lines typed, ``<`` lines the server's), compared word by word, a word
``...`` varying.
"""

from __future__ import annotations

import json
import re
import struct
from pathlib import Path
from typing import Any

import msgpack
import pytest
import trio
from e2e_client import TEST_CONFIG

from server.app import Server
from server.store.base import MemoryStore

SPEC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
#: The example's game seed (section 14 says so).
EXAMPLE_SEED = 1
#: A value the spec marks as varying.
VARIES = "..."


def example_lines() -> list[tuple[str, str]]:
    """The ``(>, line)`` and ``(<, line)`` lines of the spec's ``text-session`` block."""
    found = re.search(r"```text-session\n(.*?)\n```", SPEC.read_text(encoding="utf-8"), re.S)
    assert found, "docs/protocol.md has no text-session block"
    out = []
    for line in found.group(1).splitlines():
        side, _, body = line.partition(" ")
        assert side in (">", "<"), f"a line of the text example is neither > nor <: {line!r}"
        out.append((side, body))
    return out


def line_differences(expected: str, got: str) -> list[str]:
    """Word by word (``...`` matches any one word)."""
    want, have = expected.split(" "), got.split(" ")
    if len(want) != len(have) or any(w not in (VARIES, h) for w, h in zip(want, have, strict=True)):
        return [f"spec {expected!r}, server {got!r}"]
    return []


def example_frames(kind: str = "msgpack-session") -> list[tuple[str, dict[str, Any]]]:
    """The ``(C or S, map)`` lines of the spec's ``kind`` block, notes left out."""
    found = re.search(rf"```{kind}\n(.*?)\n```", SPEC.read_text(encoding="utf-8"), re.S)
    assert found, f"docs/protocol.md has no {kind} block"
    lines = []
    for line in found.group(1).splitlines():
        if not line.strip() or line.startswith("//"):
            continue
        side, _, body = line.partition(" ")
        assert side in ("C", "S"), f"a line of the example is neither C, S nor //: {line!r}"
        lines.append((side, json.loads(body)))
    return lines


def differences(expected: Any, got: Any, where: str = "") -> list[str]:
    """Where ``got`` differs from ``expected``, field by field (``"..."`` matches anything
    present)."""
    if expected == VARIES:
        return []
    if isinstance(expected, dict) and isinstance(got, dict):
        out = [f"{where}.{k}: missing" for k in expected if k not in got]
        out += [f"{where}.{k}: not in the spec ({got[k]!r})" for k in got if k not in expected]
        for k in expected.keys() & got.keys():
            out += differences(expected[k], got[k], f"{where}.{k}")
        return out
    if isinstance(expected, list) and isinstance(got, list) and len(expected) == len(got):
        return [
            d
            for i, (e, g) in enumerate(zip(expected, got, strict=True))
            for d in differences(e, g, f"{where}[{i}]")
        ]
    return [] if expected == got else [f"{where}: spec {expected!r}, server {got!r}"]


async def _frame(stream: trio.SocketStream, buf: bytearray) -> dict[str, Any]:
    while True:
        if len(buf) >= 4:
            (n,) = struct.unpack(">I", bytes(buf[:4]))
            if len(buf) >= 4 + n:
                body = bytes(buf[4 : 4 + n])
                del buf[: 4 + n]
                return msgpack.unpackb(body)
        data = await stream.receive_some(65536)
        assert data, "the server closed the connection before the example's end"
        buf += data


async def replay(port: int, lines: list[tuple[str, dict[str, Any]]]) -> list[str]:
    """Send each C frame and compare the S frames that follow; every difference found."""
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    buf = bytearray()
    problems: list[str] = []
    with trio.fail_after(20):
        for n, (side, frame) in enumerate(lines):
            if side == "C":
                body = msgpack.packb(frame)
                await stream.send_all(struct.pack(">I", len(body)) + body)
            else:
                got = await _frame(stream, buf)
                problems += differences(frame, got, f"line {n} ({frame.get('type')})")
    return problems


async def replay_text(port: int, lines: list[tuple[str, str]]) -> list[str]:
    """Type each ``>`` line and compare each ``<`` line the server sends."""
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    buf = b""
    problems: list[str] = []
    with trio.fail_after(20):
        for side, body in lines:
            if side == ">":
                await stream.send_all(body.encode() + b"\n")
                continue
            while b"\n" not in buf:
                data = await stream.receive_some(65536)
                assert data, "the server closed the connection before the example's end"
                buf += data
            got, buf = buf.split(b"\n", 1)
            problems += line_differences(body, got.decode())
    return problems


@pytest.fixture
async def seeded_server(nursery, monkeypatch):
    monkeypatch.setattr("server.tables.course.secrets.randbits", lambda bits: EXAMPLE_SEED)
    server = Server(TEST_CONFIG, MemoryStore())
    port = await nursery.start(server.serve)
    yield port
    server.shutdown()


async def test_the_msgpack_example_session_is_what_the_server_says(seeded_server):
    lines = example_frames()
    assert sum(side == "C" for side, _ in lines) >= 5
    assert await replay(seeded_server, lines) == []


def test_a_difference_is_found_and_a_varying_value_is_not():
    assert differences({"a": 1, "t": VARIES}, {"a": 1, "t": "x7"}) == []
    assert differences({"a": 1}, {"a": 2}) == [".a: spec 1, server 2"]
    assert differences({"a": 1}, {"a": 1, "b": []}) == [".b: not in the spec ([])"]
    assert differences({"t": VARIES}, {}) == [".t: missing"]


async def test_the_text_example_session_is_what_the_server_says(seeded_server):
    lines = example_lines()
    assert sum(side == ">" for side, _ in lines) >= 5
    assert await replay_text(seeded_server, lines) == []


def test_a_text_difference_is_found_and_a_varying_word_is_not():
    assert line_differences("seated 1 0 ...", "seated 1 0 k7Qx") == []
    assert line_differences("ok table=1", "ok table=2") != []
    assert line_differences("ok", "ok table=1") != []
