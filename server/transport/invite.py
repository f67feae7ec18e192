"""A table's invite on the game port: ``/t/ID`` is the web client's page opened at table
ID, and ``/qr.svg?t=ID`` the QR code of that link, so a host sends a friend straight to a
seat (shown, or scanned off the host's phone).

Both are answered by what is asked alone, never by a file: ``/t/ID`` serves the page of
``/`` (the page reads the table from its own address), and the code is drawn for the link
the browser itself used: the request's ``Host`` (which the HTTP side has already checked
against the names the server answers to), ``https`` when a configured proxy says the
browser came over it (``X-Forwarded-Proto``). A table id is digits, 1 to 9 of them, not
starting with 0, like the ids the server gives; any other path is not an invite (``404``).

>>> invite_table("/t/7"), invite_table("/t/07"), invite_table("/t/7/x"), invite_table("/t/")
('7', None, None, None)
>>> qr_table("t=12"), qr_table("t=12&t=3"), qr_table("t=x"), qr_table("")
('12', None, None, None)
>>> invite_link("192.168.1.20:7373", "7")
'http://192.168.1.20:7373/t/7'
"""

from __future__ import annotations

import functools
import re
from urllib.parse import parse_qs

#: An invite's path: ``/t/`` and a table id as the server makes them.
_INVITE = re.compile(r"/t/([1-9][0-9]{0,8})")
_TABLE_ID = re.compile(r"[1-9][0-9]{0,8}")
#: The path of a table's QR code (its table in the query: ``?t=ID``).
QR_PATH = "/qr.svg"
#: A Host header fit to go into a link as it is: a name or address and a port.
_HOST = re.compile(r"(?:[A-Za-z0-9.\-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\])(?::[0-9]{1,5})?")


def invite_table(path: str) -> str | None:
    """The table an invite's path names (``/t/7`` -> ``7``), or None if it is none."""
    found = _INVITE.fullmatch(path)
    return found.group(1) if found else None


def qr_table(query: str) -> str | None:
    """The table of a QR code's query (``t=7``): one ``t``, a table id; else None."""
    try:
        values = parse_qs(query, strict_parsing=True, max_num_fields=4).get("t", [])
    except ValueError:
        return None
    if len(values) != 1 or not _TABLE_ID.fullmatch(values[0]):
        return None
    return values[0]


def invite_link(host: str, table: str, scheme: str = "http") -> str | None:
    """The link to ``table`` on the server the browser reached as ``host`` (None for a
    Host that is not a plain name or address with a port)."""
    if not _HOST.fullmatch(host):
        return None
    return f"{scheme}://{host}/t/{table}"


@functools.lru_cache(maxsize=128)  # a handful of tables, asked by a handful of names
def qr_svg(text: str) -> bytes:
    """The QR code of ``text`` as an SVG image (error correction M, a quiet zone of four
    modules, black on white whatever the page's colours, so every scanner reads it): the
    ``qrcode`` package's own SVG path image."""
    import qrcode
    from qrcode.constants import ERROR_CORRECT_M
    from qrcode.image.svg import SvgPathFillImage

    code = qrcode.QRCode(error_correction=ERROR_CORRECT_M, border=4, box_size=10)
    code.add_data(text)
    code.make(fit=True)
    image = code.make_image(image_factory=SvgPathFillImage)
    return bytes(image.to_string(encoding="unicode").encode())
