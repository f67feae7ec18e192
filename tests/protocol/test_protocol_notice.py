"""``notice`` carries an optional ``table``: through every codec, and ignored by a
reader that does not know it (the field is new; old clients skip unknown fields)."""

from __future__ import annotations

from protocol import json_codec
from protocol import messages as m
from protocol.msgpack_codec import MsgpackDecoder, encode, encode_map
from protocol.text_codec import format_lines, parse_line


def test_a_notice_names_its_table_in_every_codec() -> None:
    notice = m.Notice(text="time's up at table 3: the clock made ann's move: draw", table="3")
    assert MsgpackDecoder().feed(encode(notice)) == [notice]
    (line,) = format_lines(notice)
    assert line == "notice table=3 time's up at table 3: the clock made ann's move: draw"
    assert parse_line(line) == notice
    assert json_codec.decode(json_codec.encode(notice)) == notice


def test_a_server_wide_notice_names_no_table() -> None:
    notice = m.Notice(text="the server shuts down in 60 s", shutdown_in=60)
    assert notice.table is None
    assert format_lines(notice) == ["notice shutdown_in=60 the server shuts down in 60 s"]
    # A reader of the first version: the map without the new field reads the same.
    old = encode_map({"type": "notice", "text": "maintenance at noon"})
    assert MsgpackDecoder().feed(old) == [m.Notice(text="maintenance at noon")]
