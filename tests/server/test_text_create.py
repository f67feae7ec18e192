"""Text mode as a person at ``nc`` types it: create a table, then start it.

``create`` opens a table and makes its creator the game master; the next bare
``start`` must go to that new table, as it would after ``join``.
"""

from __future__ import annotations

import json

import trio
from conftest import Running


async def read_until(stream: trio.SocketStream, buf: bytearray, word: str) -> str:
    """Lines until one whose first word is ``word``; that line is returned."""
    with trio.fail_after(10):
        while True:
            while b"\n" in buf:
                line, _, rest = bytes(buf).partition(b"\n")
                buf[:] = rest
                text = line.decode()
                if text.split(" ", 1)[0] == word:
                    return text
                assert not text.startswith("error"), text
            data = await stream.receive_some(65536)
            assert data, "the server closed the connection"
            buf += data


async def test_start_after_create_starts_the_new_table(running: Running) -> None:
    stream = await trio.open_tcp_stream("127.0.0.1", running.port)
    buf = bytearray()
    await stream.send_all(b"name typist s3cret-typist\n")
    await read_until(stream, buf, "named")
    await stream.send_all(b"create kilodney 4\n")
    ok = await read_until(stream, buf, "ok")
    assert "table 1 is open" in ok
    # No table named: "start" means the table just created; bots take every seat.
    await stream.send_all(b"start\n")
    assert (await read_until(stream, buf, "ok")) == "ok table=1"
    await stream.send_all(b"tables\n")
    (table,) = json.loads((await read_until(stream, buf, "tables")).split(" ", 1)[1])
    assert table["table"] == "1" and table["game"] == 1
    assert table["state"] in ("playing", "over")
    await stream.aclose()
