"""docs/protocol.md is the spec: its examples must be messages the code accepts,
and it must name every message type and error code."""

from __future__ import annotations

import json
import re
from pathlib import Path

from protocol import messages as m
from protocol.errors import CODES
from protocol.msgpack_codec import MsgpackDecoder, encode
from protocol.state import Session, State
from protocol.text_codec import BY_WORD, ServerTextCodec, TextFormat, parse_line

DOC = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text()


def block(language: str) -> list[str]:
    match = re.search(rf"```{language}\n(.*?)```", DOC, re.S)
    assert match, language
    return [line for line in match.group(1).splitlines() if line and not line.startswith("//")]


def msgpack_session() -> list[tuple[str, m.Message]]:
    out = []
    for line in block("msgpack-session"):
        who, text = line.split(" ", 1)
        msg = m.from_map(json.loads(text))
        assert isinstance(msg, m.Message), (line, msg)
        out.append((who, msg))
    return out


def test_every_type_and_code_is_documented():
    for type_name in m.TYPES:
        assert f"| `{type_name}` |" in DOC, type_name
    for code in CODES:
        assert f"| `{code}` |" in DOC, code


def test_the_msgpack_session_is_valid_in_order():
    server, client = Session(m.SERVER), Session(m.CLIENT)
    session = msgpack_session()
    assert session[0][1].type == "hello" and session[-1][1].type == "goodbye"
    for who, msg in session:
        sender, receiver = (client, server) if who == "C" else (server, client)
        sender.send(msg)
        assert receiver.receive(msg) is None, msg
        assert MsgpackDecoder().feed(encode(msg)) == [msg]
    assert server.state is State.CLOSED
    events = [msg for _, msg in session if isinstance(msg, m.TableEvent)]
    assert [e.seq for e in events] == list(range(2, 2 + len(events)))
    assert events[0].event["kind"] == "deal"  # the opening event follows the start


def test_the_text_session_is_commands_then_lines_in_both_formats():
    """The person's lines are commands the codec reads; the server's lines start with a
    line word; after ``format json`` each reads back as a message (the replay against a
    real server, tests/server/test_spec_examples.py, checks the words themselves)."""
    codec = ServerTextCodec()
    formats = []
    json_lines = 0
    for line in block("text-session"):
        if line.startswith("> "):
            codec.receive_data(line[2:].encode() + b"\n")
            while (msg := codec.next_message()) is not None:
                assert not isinstance(msg, (m.InvalidMessage, m.UnknownMessage)), line
                if isinstance(msg, TextFormat):
                    formats.append(msg.format)
            continue
        if line.startswith("<   ") and formats[-1:] != ["json"]:
            continue  # a sentence over 80 columns goes on, indented (section 4)
        word = line[2:].split(" ", 1)[0]
        assert word in BY_WORD, line
        if word == "seated":  # the server's codec learns the current table from it
            codec.table = line.split()[2]
        if formats[-1:] == ["json"]:
            assert isinstance(parse_line(line[2:]), m.Message), line
            json_lines += 1
        else:
            assert " · " in line or line[2:] == word, line  # a sentence, or the bare word
    assert formats == ["json"] and json_lines >= 4


def test_the_hello_frame_bytes_shown():
    section = DOC[DOC.index("## 3. msgpack framing") : DOC.index("## 4. Text framing")]
    dump = re.search(r"```\n(.*?)```", section, re.S).group(1)
    hex_tokens = []
    for line in dump.splitlines():
        for token in line.split():
            if not re.fullmatch("[0-9a-f]{2}", token):
                break  # the note after the bytes
            hex_tokens.append(token)
    shown = bytes.fromhex(" ".join(hex_tokens))
    hello = msgpack_session()[0][1]
    assert shown == encode(hello)
