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
def image_of(modules: list[list[bool]], pad: int = 4, scale: int = 4) -> memoryview:
    """``modules`` (True: dark) as a grey image, 4 pixels a module, a light margin."""
    height, width = (len(modules) + 2 * pad) * scale, (len(modules[0]) + 2 * pad) * scale
    pixels = bytearray(b"\xff" * height * width)
    for y, row in enumerate(modules):
        for x, dark in enumerate(row):
            if dark:
                for dy in range(scale):
                    start = ((y + pad) * scale + dy) * width + (x + pad) * scale
                    pixels[start : start + scale] = b"\x00" * scale
    return memoryview(bytes(pixels)).cast("B", shape=[height, width])


def decode(lines: list[str]) -> list[str]:
    """What a scanner reads from the drawing: the modules read back from the characters,
    rendered as an image, decoded by zxing-cpp."""
    zxingcpp = pytest.importorskip("zxingcpp")
    return [found.text for found in zxingcpp.read_barcodes(image_of(console.read_back(lines)))]


#: the 256-colour palette entries the console may use, as a terminal shows them
_PALETTE = {231: True, 232: False, 15: True, 0: False}  # True: light


def screen(lines: list[str], terminal_light: bool) -> list[list[bool]]:
    """What a terminal whose own background is light (or dark) shows of ``lines``: each
    half of each character cell as dark (True) or light, from the colours the line sets
    (``ESC[38;5;N`` ink, ``ESC[48;5;N`` ground), else the terminal's own, and a frame
    of the terminal's background around the drawing (what a phone's camera sees)."""
    ink_default, ground_default = not terminal_light, terminal_light  # light: dark ink
    rows: list[list[bool]] = []
    for line in lines:
        ink, ground = ink_default, ground_default
        sgr = re.match(r"\x1b\[([0-9;]*)m", line)
        if sgr:
            codes = [int(c) for c in sgr.group(1).split(";")]
            for k in range(len(codes) - 2):
                if codes[k] == 38 and codes[k + 1] == 5:
                    ink = _PALETTE[codes[k + 2]]
                if codes[k] == 48 and codes[k + 1] == 5:
                    ground = _PALETTE[codes[k + 2]]
        cells = console.plain(line)[: len(console.plain(lines[0]))]
        top = [ink if c in "█▀" else ground for c in cells]
        bottom = [ink if c in "█▄" else ground for c in cells]
        rows += [[not light for light in top], [not light for light in bottom]]
    width = len(rows[0]) + 8
    frame = [not terminal_light] * width
    framed = [frame] * 4 + [frame[:4] + row + frame[:4] for row in rows] + [frame] * 4
    return framed


def scanned(modules: list[list[bool]]) -> list[str]:
    zxingcpp = pytest.importorskip("zxingcpp")
    return [found.text for found in zxingcpp.read_barcodes(image_of(modules, pad=0))]


@pytest.mark.parametrize("address", ["192.168.1.20", "10.0.0.2", "255.255.255.254"])
def test_the_qr_code_decodes_to_the_join_url(address: str) -> None:
    url = console.join_url(address, 65535)
    for ansi in (True, False):
        lines = console.qr_lines(url, ansi=ansi)
        drawn = console.read_back(lines)
        assert console.trimmed(drawn) == console.qr_matrix(url)  # the library's matrix
        assert not any(drawn[0]) and not any(drawn[-1])  # a light quiet zone all round
        assert not any(row[0] or row[3] or row[-1] or row[-4] for row in drawn)
        assert decode(lines) == [url]
        assert len(lines) <= 16
        assert all(len(console.plain(line)) < 80 for line in lines)


@pytest.mark.parametrize("terminal_light", [True, False])
def test_the_coloured_code_reads_right_on_light_and_dark_terminals(terminal_light: bool) -> None:
    """Dark modules on a light ground, as phone scanners read them, whatever the theme:
    every line sets both colours, and the quiet zone is drawn light, not left to the
    terminal's background."""
    url = "http://192.168.1.20:7373/"
    lines = console.host_card(["192.168.1.20"], 7373, ansi=True)
    assert all(line.startswith("\x1b[38;5;231;48;5;232m") for line in lines)
    shown = screen(lines, terminal_light)
    assert scanned(shown) == [url]
    drawn = shown[4:-4]
    assert [row[4:-4] for row in drawn] == console.read_back(lines)  # light modules light
    # the plain drawing (no terminal) is right for a dark terminal only
    assert scanned(screen(console.qr_lines(url, ansi=False), terminal_light=False)) == [url]


def test_the_host_card_is_the_code_of_the_first_address_or_nothing_on_loopback() -> None:
    card = console.host_card(["192.168.1.20", "10.0.0.2"], 7373, ansi=False)
    assert decode(card) == ["http://192.168.1.20:7373/"]
    captions = [line[len(console.plain(card[0])) :].strip() for line in card]
    assert [c for c in captions if c] == [
        "scan to join from a phone:",
        "http://192.168.1.20:7373/",
    ]
    assert console.host_card([], 7373, ansi=False) == []


def test_serve_prints_the_card_in_colours_on_a_terminal(monkeypatch) -> None:
    monkeypatch.setattr("server.discovery.addresses.lan_addresses", lambda: ["192.0.2.7"])
    tty = Tty()
    serve.show_host_card(None, 7373, tty)
    out = tty.getvalue().splitlines()
    assert all(line.startswith("\x1b[38;5;231;48;5;232m") for line in out)
    assert decode(out) == ["http://192.0.2.7:7373/"]


@pytest.mark.parametrize(
    "found",
    [
        ["192.168.1.20"],
        ["192.168.1.20", "172.17.0.1"],
        ["192.168.178.120", "10.147.17.254", "172.17.0.1", "172.18.0.1"],
        ["255.255.255.254", "255.255.255.253", "255.255.255.252", "255.255.255.251"],
    ],
)
def test_the_whole_console_of_a_start_fits_80_by_24(monkeypatch, found: list[str]) -> None:
    """What a person at an 80x24 terminal sees when ``switchboard serve`` starts: the
    server's lines behind the time of day, then the QR code with its caption: at most 23
    lines (the 24th is for the LAN advertisement's line, which comes a moment later), none
    wider than 80 columns, for one, two and four addresses."""
    from pathlib import Path

    from server.app import announcement
    from server.core.config import ServerConfig

    monkeypatch.setattr("server.discovery.addresses.lan_addresses", lambda: list(found))
    config = ServerConfig(data_dir=Path.home() / ".local" / "share" / "switchboard")
    formatter = HumanFormatter()
    said = [formatter.format(record("%s", line)) for line in announcement(config, 65535)]
    tty = Tty()
    serve.show_host_card(None, 65535, tty)
    console_lines = said + tty.getvalue().splitlines()
    widths = [len(console.plain(line)) for line in console_lines]
    assert len(console_lines) <= 23, "\n".join(console_lines)
    assert max(widths) <= 80, "\n".join(console_lines)
    assert any(f"play {found[0]}:65535" in line for line in said)
    others = " ".join(said[5:]).replace(",", " ").split()
    assert [a for a in others if a[0].isdigit() and "." in a] == found[1:]


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
    assert re.fullmatch(r"\d\d:\d\d:\d\d listening on 127\.0\.0\.1 port \d+", lines[0])
    assert re.fullmatch(r"\d\d:\d\d:\d\d data in .*data", lines[1])
    assert not any("level=" in x for x in lines)
