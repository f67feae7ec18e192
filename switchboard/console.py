"""What ``switchboard serve`` shows the person hosting: the way in, as a QR code.

At a game night half the room holds only a phone. The server's console already says
what to type (``friends connect with: ...``); below it, a QR code of the URL a browser
opens lets a phone join by scanning the host's screen. The code is made by ``qrcode``
(the maintained pure-Python encoder) and drawn here with half-block characters, two rows
of modules a line, so a code of an IPv4 address's URL fits in 16 lines of a terminal and
the whole console of ``switchboard serve`` in 80x24 (``tests/test_serve_console.py``).

Phone scanners read dark modules on a light ground, and a terminal may be light or dark.
So on a terminal every line of the code sets both its colours, white (256-colour 231) and
near black (232), two the common themes leave alone (base16 themes redefine 16 to 21),
and the code carries its own light quiet zone: it reads the same whatever the terminal's
theme. Without a terminal (``--log-format human`` into a file) it is plain text, its light
modules drawn as the characters' ink: right for a terminal with a dark background, the
common default.

>>> lines = qr_lines("http://192.168.1.20:7373/", ansi=False)
>>> len(lines), {len(line) for line in lines}
(16, {33})
>>> trimmed(read_back(lines)) == qr_matrix("http://192.168.1.20:7373/")
True
"""

from __future__ import annotations

from collections.abc import Sequence

#: The light quiet zone drawn around the code, in modules: the standard's four at the
#: sides (columns are cheap); three above and four below, so a version 2 code (the URL of
#: any IPv4 address) takes 16 lines. Phone scanners read a zone of two.
QUIET_SIDE, QUIET_TOP, QUIET_BOTTOM = 4, 3, 4

#: (top light, bottom light) -> the character drawn: the light modules are its ink.
_HALF = {(True, True): "█", (True, False): "▀", (False, True): "▄", (False, False): " "}
#: white ink (the light modules) on a near-black ground (the dark ones), both set
_ANSI_ON, _ANSI_OFF = "\x1b[38;5;231;48;5;232m", "\x1b[0m"


def qr_matrix(text: str) -> list[list[bool]]:
    """The QR code of ``text`` as rows of modules, True for dark, without a quiet zone:
    the library's own matrix (error correction M, the smallest version that holds it)."""
    import qrcode
    from qrcode.constants import ERROR_CORRECT_M

    code = qrcode.QRCode(error_correction=ERROR_CORRECT_M, border=0)
    code.add_data(text)
    code.make(fit=True)
    return [list(row) for row in code.get_matrix()]


def qr_lines(text: str, *, ansi: bool) -> list[str]:
    """The QR code of ``text`` in its quiet zone as lines of half blocks (light modules as
    ink); ``ansi`` sets both colours of every line, so any terminal theme shows it right."""
    code = qr_matrix(text)
    width = len(code[0]) + 2 * QUIET_SIDE
    light = [False] * width
    rows = [light] * QUIET_TOP
    rows += [[False] * QUIET_SIDE + row + [False] * QUIET_SIDE for row in code]
    rows += [light] * (QUIET_BOTTOM if len(rows) % 2 == 0 else QUIET_BOTTOM + 1)
    rows = rows[: len(rows) - len(rows) % 2]
    lines = []
    for top, bottom in zip(rows[0::2], rows[1::2], strict=True):
        line = "".join(_HALF[(not t, not b)] for t, b in zip(top, bottom, strict=True))
        lines.append(f"{_ANSI_ON}{line}{_ANSI_OFF}" if ansi else line)
    return lines


def plain(line: str) -> str:
    """``line`` without the colours ``qr_lines`` put in it."""
    return line.replace(_ANSI_ON, "").replace(_ANSI_OFF, "")


def read_back(lines: Sequence[str]) -> list[list[bool]]:
    """The modules ``qr_lines`` drew, quiet zone included (colours ignored, and whatever
    follows the drawing on a line): how a test checks the drawing module for module."""
    rows: list[list[bool]] = []
    lookup = {char: halves for halves, char in _HALF.items()}
    width = min((len(plain(line)) for line in lines), default=0)  # the captions beside it
    for line in lines:
        halves = [lookup[c] for c in plain(line)[:width]]
        rows.append([not top for top, _ in halves])
        rows.append([not bottom for _, bottom in halves])
    return rows


def trimmed(modules: list[list[bool]]) -> list[list[bool]]:
    """``modules`` without the light rows and columns around the code (its quiet zone)."""
    rows = [i for i, row in enumerate(modules) if any(row)]
    cols = [j for j in range(len(modules[0])) if any(row[j] for row in modules)]
    if not rows:
        return []
    return [row[cols[0] : cols[-1] + 1] for row in modules[rows[0] : rows[-1] + 1]]


def join_url(address: str, port: int) -> str:
    """The URL a browser opens to join the server at ``address`` and ``port``.

    >>> join_url("192.168.1.20", 7373), join_url("fd00::7", 80)
    ('http://192.168.1.20:7373/', 'http://[fd00::7]:80/')
    """
    host = f"[{address}]" if ":" in address else address
    return f"http://{host}:{port}/"


def host_card(addresses: Sequence[str], port: int, *, ansi: bool) -> list[str]:
    """The lines printed for the host once the server listens: a QR code of the first
    address's URL (``server.discovery.addresses`` puts the best one first) with what it is
    beside it, or nothing when no other machine can reach the server (it listens on
    loopback only).

    >>> card = host_card(["192.168.1.20"], 7373, ansi=False)
    >>> len(card), max(len(line) for line in card)
    (16, 61)
    >>> [line[33:] for line in card[7:9]]
    ['  scan to join from a phone:', '  http://192.168.1.20:7373/']
    """
    if not addresses:
        return []
    url = join_url(addresses[0], port)
    lines = qr_lines(url, ansi=ansi)
    middle = len(lines) // 2 - 1
    lines[middle] += "  scan to join from a phone:"
    lines[middle + 1] += f"  {url}"
    return lines
