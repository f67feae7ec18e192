"""A page of text framed over the screen: the help, a game's rules, a long reply.

A page is read, not typed into: it is wrapped at words to the box it is drawn in
(whatever the terminal's size, nothing runs past the frame), it scrolls when it is
taller than the screen, and it says how to close it. The screen shows one page at a
time; ``ClientApp`` owns which, this module what one looks like.

>>> words = ["one two three four five six seven eight nine ten eleven twelve"]
>>> page = Page("Rules", lambda width: wrap_page(words, width), "Esc closes")
>>> page.window(40, 10)
(['one two three four five six seven eight', 'nine ten eleven twelve'], ['Esc closes'])
>>> page.window(20, 3)  # one line of room: the rest is a scroll away
(['one two three four'], ['Up/Down/PgUp/PgDn', 'scroll, Esc closes'])
>>> page.scroll(5)
>>> page.window(20, 3)
(['twelve'], ['Up/Down/PgUp/PgDn', 'scroll, Esc closes'])
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable
from dataclasses import dataclass

_HELP_COLUMN = re.compile(r"^(\s*\S.*?\s{2,})\S")
_BULLET = re.compile(r"^(\s*)(- )?")


def wrap_page(lines: list[str], width: int) -> list[str]:
    """Lines wrapped at words to ``width``. A paragraph wraps flush left; a list item
    (``- ...``) or an indented line continues under its own text; a ``name   what it
    does`` line continues under its description, so the columns still read as a table.

    >>> wrap_page(["  play CARD   follow the suit or the face"], 30)
    ['  play CARD   follow the suit', '              or the face']
    >>> wrap_page(["- skip: the next player misses his turn"], 24)
    ['- skip: the next player', '  misses his turn']
    >>> wrap_page(["A paragraph of words, wrapped flush left."], 20)
    ['A paragraph of', 'words, wrapped flush', 'left.']
    """
    out: list[str] = []
    for line in lines:
        if len(line) <= width:
            out.append(line)
            continue
        column = _HELP_COLUMN.match(line)
        if column and len(column.group(1)) < width // 2:
            hang = len(column.group(1))
        else:
            lead = _BULLET.match(line)
            indent, bullet = (lead.group(1), lead.group(2)) if lead else ("", None)
            hang = len(indent) + (2 if indent or bullet else 0)
            hang = hang if hang < width // 2 else 2
        out += textwrap.wrap(
            line,
            width,
            subsequent_indent=" " * hang,
            break_on_hyphens=False,
            drop_whitespace=True,
        )
    return out


@dataclass
class Page:
    """One page: its frame's title, its lines for a width (drawn afresh each time, so a
    help that lists the legal moves follows the game), the way to close it, and its
    first line shown."""

    title: str
    lines: Callable[[int], list[str]]
    #: how to close it, its last line ("": the page's own text says so, and only how to
    #: scroll it is added, when it scrolls)
    closes: str
    top: int = 0

    def scroll(self, step: int) -> None:
        """Move down ``step`` lines (up when negative); ``window`` keeps it in bounds."""
        self.top = max(0, self.top + step)

    def window(self, width: int, rows: int) -> tuple[list[str], list[str]]:
        """What shows in a box ``width`` wide with ``rows`` lines inside its frame: as many
        of the page's lines as fit from ``top``, and the lines that say how to scroll it (if
        it is longer) and close it."""
        width = max(10, width)
        lines = self.lines(width)
        closes = [self.closes] if self.closes else []
        if len(lines) > rows - len(wrap_page(closes, width)):
            closes = [", ".join(["Up/Down/PgUp/PgDn scroll", *closes])]
        hint = wrap_page(closes, width)
        room = max(1, rows - len(hint))
        self.top = max(0, min(self.top, len(lines) - room))
        return lines[self.top : self.top + room], hint
