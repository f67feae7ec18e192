"""Text mode as a person at ``nc`` types it, without reading the docs.

``create`` opens a table, makes its creator the game master and seats him (as the
terminal client does); the next bare ``start`` goes to that new table. ``name dave``
without a secret makes dave a guest. Lines are sentences after a stable first word,
until ``format json``.
"""

from __future__ import annotations

import json

import trio
from conftest import Running


async def read_until(stream: trio.SocketStream, buf: bytearray, word: str) -> str:
    """Lines until one whose first word is ``word``; that sentence is returned, its
    continuation lines (a sentence over 80 columns goes on in lines indented by two
    spaces, written with it) joined to it."""
    with trio.fail_after(10):
        while True:
            while b"\n" in buf:
                line, _, rest = bytes(buf).partition(b"\n")
                buf[:] = rest
                text = line.decode()
                if text.split(" ", 1)[0] == word:
                    while buf.startswith(b"  ") and b"\n" in buf:
                        more, _, rest = bytes(buf).partition(b"\n")
                        buf[:] = rest
                        text += " " + more.decode().strip()
                    return text
                assert not text.startswith("error"), text
            data = await stream.receive_some(65536)
            assert data, "the server closed the connection"
            buf += data


async def typist(running: Running, *lines: str) -> tuple[trio.SocketStream, bytearray]:
    stream = await trio.open_tcp_stream("127.0.0.1", running.port)
    await stream.send_all("".join(line + "\n" for line in lines).encode())
    return stream, bytearray()


async def test_create_seats_its_creator_and_start_deals_him_in(running: Running) -> None:
    stream, buf = await typist(running, "name typist s3cret-typist", "create switch 2")
    await read_until(stream, buf, "named")
    assert "table 1 is open" in await read_until(stream, buf, "ok")
    seated = await read_until(stream, buf, "seated")
    assert seated.startswith("seated 1 · you sit in seat 1 at table 1")
    view = await read_until(stream, buf, "view")
    assert "seats: typist (you, game master), empty" in view
    assert "type start to deal" in view
    # No table named: "start" means the table just created; a bot takes the other seat,
    # and the creator plays (before, he only watched a bots' game).
    await stream.send_all(b"start\n")
    assert (await read_until(stream, buf, "ok")) == "ok"
    started = await read_until(stream, buf, "view")
    assert "typist (you, game master), bot 2 (" in started and "your hand" in started
    await stream.send_all(b"tables\n")
    tables = await read_until(stream, buf, "tables")
    assert tables.startswith("tables 1 · switch, playing · 2 seats: typist, bot 2 ("), tables
    await stream.aclose()


async def test_a_turn_is_a_sentence_with_every_legal_move(running: Running) -> None:
    stream, buf = await typist(
        running, "name ann s3cret-ann", "create switch 2 turn_seconds=0", "start"
    )
    with trio.fail_after(10):
        # The deal's view says our turn when it is ours first (no turn line repeats it);
        # else our turn comes as a turn line.
        line = await read_until(stream, buf, "view")
        while "playing" not in line:  # the table's view before the deal
            line = await read_until(stream, buf, "view")
        while "your turn" not in line:
            line = await read_until(stream, buf, "turn")
    assert line.startswith(("turn 1 · your turn · top ", "view 1 · table 1, switch, playing"))
    assert " · your turn · top " in line
    assert "your hand " in line and "you may: " in line
    assert line.rstrip().endswith("draw") and "{" not in line, line
    await stream.aclose()


async def test_name_without_a_secret_is_a_guest_told_his_secret_once(running: Running) -> None:
    stream, buf = await typist(running, "name dave")
    named = await read_until(stream, buf, "named")
    assert named.startswith("named · you are dave, a guest. Your secret is ")
    secret = named.split("Your secret is ")[1].split()[0]
    assert named.endswith(f"type: name dave {secret}")
    await stream.aclose()
    # Later, from another connection: the line he was shown claims the name again.
    again, buf = await typist(running, f"name dave {secret}")
    assert (await read_until(again, buf, "named")) == "named · you are dave"
    await again.aclose()
    # Someone else typing "name dave" is told the name is taken, and what to do.
    other, buf = await typist(running, "name dave")
    with trio.fail_after(10):
        while b"\nerror" not in b"\n" + bytes(buf) or not buf.endswith(b"\n"):
            buf += await other.receive_some(65536)
    error = await read_until(other, buf, "error")
    assert "choose another with name NEWNAME" in error, error
    await other.aclose()


async def test_format_json_switches_the_lines_and_format_text_back(running: Running) -> None:
    stream, buf = await typist(running, "tables", "format json", "tables", "format text", "tables")
    assert (await read_until(stream, buf, "tables")).startswith("tables · no tables yet")
    assert (await read_until(stream, buf, "ok")) == "ok server lines are JSON, for programs now"
    assert (await read_until(stream, buf, "tables")) == "tables []"
    assert (await read_until(stream, buf, "ok")) == "ok · server lines are sentences now"
    assert (await read_until(stream, buf, "tables")).startswith("tables · no tables yet")
    await stream.send_all(b"format xml\n")
    with trio.fail_after(10):
        while b"\n" not in buf:
            buf += await stream.receive_some(65536)
    assert bytes(buf).decode().startswith("error bad_command · usage: format text")
    await stream.aclose()


async def test_errors_name_the_commands_a_person_types(running: Running) -> None:
    stream, buf = await typist(running, "create switch 2")
    with trio.fail_after(10):
        while b"error" not in buf:
            buf += await stream.receive_some(65536)
    error = bytes(buf).decode().splitlines()[-1]
    assert error.startswith("error need_name · claim a name first (name YOURNAME)"), error
    assert "'create'" in error and "create_table" not in error
    await stream.aclose()


async def test_a_json_script_still_reads_every_field(running: Running) -> None:
    stream, buf = await typist(running, "format json", "name bot1 s3cret-bot", "create switch 2")
    assert (await read_until(stream, buf, "welcome")).startswith("welcome 1 switchboard")
    assert (await read_until(stream, buf, "seated")).startswith("seated 1 0 ")
    await stream.send_all(b"start\ntables\n")
    (table,) = json.loads((await read_until(stream, buf, "tables")).split(" ", 1)[1])
    assert table["table"] == "1" and table["players"][0] == "bot1"
    await stream.aclose()
