"""The host's console: ``switchboard serve`` speaks to a person on a terminal (short
lines, the join URL as a QR code) and to a machine otherwise (logfmt, or JSON by flag)."""

from __future__ import annotations

import io
import json
import logging
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from server.core.logfmt import (
    HumanFormatter,
    JsonFormatter,
    KeyValueFormatter,
    configure,
    default_format,
    log_event,
)
from switchboard import console, serve


def record(msg: str, *args: object, level: int = logging.INFO) -> logging.LogRecord:
    return logging.LogRecord("switchboard.server", level, "", 0, msg, args, None)


# ---------------------------------------------------------------- the formats
def test_a_human_line_is_the_time_and_the_sentence() -> None:
    line = HumanFormatter().format(record("listening on %s port %d", "127.0.0.1", 7373))
    assert re.fullmatch(r"\d\d:\d\d:\d\d listening on 127\.0\.0\.1 port 7373", line), line
    warn = HumanFormatter(timestamps=False).format(record("disk\nfull", level=logging.WARNING))
    assert warn == "warning: disk\\nfull"  # still one line


def test_the_three_formats_carry_the_same_event() -> None:
    stream = io.StringIO()
    log = logging.getLogger("test.console.formats")
    handler = logging.StreamHandler(stream)
    log.addHandler(handler)
    log.propagate = False
    log.setLevel(logging.INFO)
    try:
        for formatter in (HumanFormatter(False), KeyValueFormatter(False), JsonFormatter(False)):
            handler.setFormatter(formatter)
            log_event(log, "table.created", table=7, creator="ann lee")
    finally:
        log.removeHandler(handler)
    human, logfmt, as_json = stream.getvalue().splitlines()
    assert human == 'table.created table=7 creator="ann lee"'
    assert logfmt == (
        'level=info logger=test.console.formats event=table.created table=7 creator="ann lee"'
    )
    assert json.loads(as_json) == {
        "level": "info",
        "logger": "test.console.formats",
        "event": "table.created",
        "table": 7,
        "creator": "ann lee",
    }


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_terminal_gets_human_lines_and_anything_else_logfmt() -> None:
    assert default_format(Tty()) == "human"
    assert default_format(io.StringIO()) == "logfmt"
    with pytest.raises(ValueError, match="not one of human, logfmt, json"):
        configure("info", io.StringIO(), fmt="xml")


# ------------------------------------------------------------- the QR code
def decode(lines: list[str]) -> list[str]:
    """What a scanner reads from the drawing: the modules read back from the characters,
    rendered as an image (4 pixels a module, a wide light margin), decoded by zxing-cpp."""
    zxingcpp = pytest.importorskip("zxingcpp")
    modules = console.read_back(lines)
    scale, pad = 4, 4
    size = (len(modules) + 2 * pad) * scale
    pixels = bytearray(b"\xff" * size * size)
    for y, row in enumerate(modules):
        for x, dark in enumerate(row):
            if dark:
                for dy in range(scale):
                    start = ((y + pad) * scale + dy) * size + (x + pad) * scale
                    pixels[start : start + scale] = b"\x00" * scale
    image = memoryview(bytes(pixels)).cast("B", shape=[size, size])
    return [found.text for found in zxingcpp.read_barcodes(image)]


@pytest.mark.parametrize("address", ["192.168.1.20", "10.0.0.2", "255.255.255.254"])
def test_the_qr_code_decodes_to_the_join_url(address: str) -> None:
    url = console.join_url(address, 7373)
    for ansi in (True, False):
        lines = console.qr_lines(url, ansi=ansi)
        assert console.read_back(lines) == console.qr_matrix(url)  # the library's matrix
        assert decode(lines) == [url]
        assert all(len(re.sub(r"\x1b\[[0-9;]*m", "", line)) < 80 for line in lines)


def test_the_host_card_is_the_url_and_its_code_or_nothing_on_loopback() -> None:
    card = console.host_card(["192.168.1.20", "10.0.0.2"], 7373, ansi=False)
    assert card[0] == "scan to join from a phone: http://192.168.1.20:7373/"
    assert decode(card[1:]) == ["http://192.168.1.20:7373/"]
    assert console.host_card([], 7373, ansi=False) == []


def test_serve_prints_the_card_in_colours_on_a_terminal(monkeypatch) -> None:
    monkeypatch.setattr("server.discovery.addresses.lan_addresses", lambda: ["192.0.2.7"])
    tty = Tty()
    serve.show_host_card(None, 7373, tty)
    out = tty.getvalue().splitlines()
    assert out[0] == "scan to join from a phone: http://192.0.2.7:7373/"
    assert all(line.startswith("\x1b[97;40m") for line in out[1:])
    assert decode(out[1:]) == ["http://192.0.2.7:7373/"]


# ------------------------------------------------------- a real serve process
def run_serve(tmp_path: Path, *flags: str) -> list[str]:
    """Start ``switchboard serve`` on loopback (stderr a pipe, not a terminal), stop it
    with SIGINT once it listens, and return its console lines."""
    cmd = [sys.executable, "-m", "switchboard", "serve", "--host", "127.0.0.1", "--port", "0"]
    cmd += ["--data", str(tmp_path / "data"), "--no-discovery", *flags]
    proc = subprocess.Popen(cmd, stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    lines: list[str] = []
    killer = threading.Timer(60, proc.kill)  # a hung server never hangs the test run
    killer.start()
    try:
        for line in proc.stderr:
            lines.append(line.rstrip("\n"))
            if "listening on" in line:
                proc.send_signal(signal.SIGINT)
        assert proc.wait() == 0, lines
    finally:
        killer.cancel()
        proc.kill()
    return lines


def test_serve_logs_logfmt_when_not_on_a_terminal(tmp_path: Path) -> None:
    lines = run_serve(tmp_path)
    assert lines and all(re.match(r"ts=\S+ level=\w+ logger=\S+ event=", x) for x in lines)


def test_serve_logs_json_by_flag(tmp_path: Path) -> None:
    lines = run_serve(tmp_path, "--log-format", "json")
    records = [json.loads(x) for x in lines]
    assert any(r["msg"].startswith("listening on 127.0.0.1 port ") for r in records)
    assert all({"ts", "level", "logger", "event"} <= set(r) for r in records)


def test_serve_logs_human_lines_by_flag(tmp_path: Path) -> None:
    lines = run_serve(tmp_path, "--log-format", "human")
    assert re.fullmatch(r"\d\d:\d\d:\d\d listening on 127\.0\.0\.1 port \d+; data in .*", lines[0])
    assert not any("level=" in x for x in lines)
