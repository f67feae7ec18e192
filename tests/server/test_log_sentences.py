"""A host reads the server's console as sentences: every event the server logs with
``log_event`` has one, found by scanning the source, so a new event cannot slip in raw."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest

from server.core.logfmt import SENTENCES, HumanFormatter, sentence

SERVER = Path(__file__).resolve().parents[2] / "server"
CALL = re.compile(r"log_event\(\s*\w+\s*,\s*\"([^\"]+)\"((?:[^()]|\([^()]*\))*)\)", re.S)


def logged_events() -> dict[str, set[str]]:
    """Every event name ``log_event`` is called with under server/, with its field names
    (logfmt.py itself left out: its docstrings' examples are not the server's events)."""
    found: dict[str, set[str]] = {}
    for path in SERVER.rglob("*.py"):
        if path.name == "logfmt.py":
            continue
        for name, args in CALL.findall(path.read_text(encoding="utf-8")):
            found.setdefault(name, set()).update(re.findall(r"(\w+)=", args))
    return found


def test_the_scan_finds_the_server_events() -> None:
    events = logged_events()
    assert "table.finished_closed" in events and "admin.auth_failed" in events
    assert len(events) >= 20


@pytest.mark.parametrize("event", sorted(logged_events()))
def test_every_logged_event_reads_as_a_sentence(event: str) -> None:
    assert event in SENTENCES, f"{event} has no sentence in server.core.logfmt.SENTENCES"
    fields = {name: 1 for name in logged_events()[event]}
    text = sentence(event, fields)
    assert not text.startswith(event) and "=" not in text, text


def test_the_console_line_for_a_closed_table() -> None:
    record = logging.LogRecord("server.tables.lifetime", logging.INFO, "", 0, "", (), None)
    record.sb_event = "table.finished_closed"
    record.sb_fields = {"table": 1}
    line = HumanFormatter(timestamps=False).format(record)
    assert line == "table 1 closed: its game is over and nobody is seated"


def test_fields_read_as_words() -> None:
    assert sentence("table.prize_paid", {"table": 2, "game": 5, "shares": {"ann": 30}}) == (
        "table 2: prize paid to ann 30"
    )
    assert sentence("table.crowded_closed", {"tables": 1}).startswith("1 empty table closed")
    assert sentence("table.crowded_closed", {"tables": 3}).startswith("3 empty tables closed")
    away = sentence("table.timeout", {"table": 1, "seat": 0, "name": "ann", "away": True})
    assert away.endswith("the seat now plays by itself")


def test_an_event_missing_a_field_still_prints_everything_it_has() -> None:
    assert sentence("table.back", {"table": 4}) == "table.back table=4"
