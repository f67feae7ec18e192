"""What ``switchboard serve`` shows the person hosting: the way in, as a QR code.

At a game night half the room holds only a phone. The server's console already says
what to type (``friends connect with: ...``); beside it, a QR code of the URL a
browser opens lets a phone join by scanning the host's screen. The code is made by
``qrcode`` (the maintained pure-Python encoder) and drawn here with half-block
characters, two rows of modules a line, so a code fits in 15 to 17 lines of a
terminal.

The code's light modules are drawn as the character's ink and its dark ones as the
background, so on a terminal the drawing is wrapped in ANSI colours (white ink on
black) that make it read right whatever the terminal's own theme; without a terminal
it is plain text for a terminal with a dark background, the common default.

>>> lines = qr_lines("http://192.168.1.20:7373/", ansi=False)
>>> len(lines), {len(line) for line in lines}
(15, {29})
>>> read_back(lines) == qr_matrix("http://192.168.1.20:7373/")
True
"""

from __future__ import annotations

from collections.abc import Sequence

#: Light modules of the quiet zone around the code. The standard asks for four; phone
#: scanners read two (the terminal's dark frame beyond them is no mark), and every
#: module saved is a line of the host's screen.
BORDER = 2

#: (top light, bottom light) -> the character drawn.
_HALF = {(True, True): "█", (True, False): "▀", (False, True): "▄", (False, False): " "}
_ANSI_ON, _ANSI_OFF = "\x1b[97;40m", "\x1b[0m"


def qr_matrix(text: str) -> list[list[bool]]:
    """The QR code of ``text`` as rows of modules, True for dark, with the quiet zone:
    the library's own matrix (error correction M, the smallest version that holds it)."""
    import qrcode
    from qrcode.constants import ERROR_CORRECT_M

    code = qrcode.QRCode(error_correction=ERROR_CORRECT_M, border=BORDER)
    code.add_data(text)
    code.make(fit=True)
    return [list(row) for row in code.get_matrix()]


def qr_lines(text: str, *, ansi: bool) -> list[str]:
    """The QR code of ``text`` as lines of half blocks (light modules as ink); ``ansi``
    wraps each line in white-on-black so any terminal theme shows it the right way."""
    matrix = qr_matrix(text)
    width = len(matrix[0])
    if len(matrix) % 2:
        matrix.append([False] * width)  # an odd last row: its lower half is background
    lines = []
    for top, bottom in zip(matrix[0::2], matrix[1::2], strict=True):
        line = "".join(_HALF[(not t, not b)] for t, b in zip(top, bottom, strict=True))
        lines.append(f"{_ANSI_ON}{line}{_ANSI_OFF}" if ansi else line)
    return lines


def read_back(lines: Sequence[str]) -> list[list[bool]]:
    """The modules ``qr_lines`` drew (ANSI colours ignored): how a test checks that the
    drawing is the library's code, module for module."""
    rows: list[list[bool]] = []
    lookup = {char: halves for halves, char in _HALF.items()}
    for line in lines:
        plain = line.replace(_ANSI_ON, "").replace(_ANSI_OFF, "")
        halves = [lookup[c] for c in plain]
        rows.append([not top for top, _ in halves])
        rows.append([not bottom for _, bottom in halves])
    # a code is square: the row added for an odd height is background, not part of it
    return rows[: len(rows[0])]


def join_url(address: str, port: int) -> str:
    """The URL a browser opens to join the server at ``address`` and ``port``.

    >>> join_url("192.168.1.20", 7373), join_url("fd00::7", 80)
    ('http://192.168.1.20:7373/', 'http://[fd00::7]:80/')
    """
    host = f"[{address}]" if ":" in address else address
    return f"http://{host}:{port}/"


def host_card(addresses: Sequence[str], port: int, *, ansi: bool) -> list[str]:
    """The lines printed for the host once the server listens: a QR code of the first
    address's URL and what it is, or nothing when no other machine can reach the server
    (it listens on loopback only)."""
    if not addresses:
        return []
    url = join_url(addresses[0], port)
    return [f"scan to join from a phone: {url}", *qr_lines(url, ansi=ansi)]
