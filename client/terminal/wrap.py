"""Styled text wrapped at words: the log's lines break between words, never inside one.

prompt_toolkit's ``Window(wrap_lines=True)`` breaks a line at the last cell that fits,
mid-word ("alice pla" / "ys 3♣"); ``textwrap`` breaks at words but knows no styles.
This wraps formatted text (``(style, text)`` fragments, a word's letters possibly in
several styles, as a name and the colon after it) at spaces, measuring cells the way
the terminal does (a wide character takes two), and indents the lines that continue
one, so each entry of the log still reads as one.

>>> lines = wrap_fragments([("bold", "bob"), ("", " plays 3C and is out")], 12)
>>> [fragment_text(line) for line in lines]
['bob plays 3C', '  and is out']
>>> [fragment_text(line) for line in wrap_fragments([("", "abcdefghijklmnop")], 6)]
['abcdef', '  ghij', '  klmn', '  op']
>>> [fragment_text(line) for line in wrap_fragments([("", "  1. ann 1612 (3 games)")], 12)]
['  1. ann', '  1612 (3', '  games)']
>>> [fragment_text(line) for line in wrap_fragments([("", "a b")], 10)]
['a b']
"""

from __future__ import annotations

import re

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.utils import get_cwidth

_SPACES = re.compile(r"(\s+)")

#: one unit: a word (its letters in one or more styles) or the spaces between words
_Unit = list[tuple[str, str]]


def fragment_text(fragments: StyleAndTextTuples) -> str:
    """The plain text of ``fragments``."""
    return "".join(f[1] for f in fragments)


def _units(fragments: StyleAndTextTuples) -> list[tuple[bool, _Unit]]:
    """``(is_space, pieces)`` in order: adjacent non-space text joins one word, whatever
    its styles."""
    out: list[tuple[bool, _Unit]] = []
    for fragment in fragments:
        style, text = fragment[0], fragment[1]
        for part in _SPACES.split(text):
            if not part:
                continue
            space = part.isspace()
            if out and out[-1][0] == space:
                out[-1][1].append((style, part))
            else:
                out.append((space, [(style, part)]))
    return out


def _width(unit: _Unit) -> int:
    return sum(get_cwidth(text) for _style, text in unit)


def _split_long(unit: _Unit, room: int) -> tuple[_Unit, _Unit]:
    """The first ``room`` cells of a word too long for any line, and the rest."""
    head: _Unit = []
    used = 0
    for i, (style, text) in enumerate(unit):
        for j, ch in enumerate(text):
            w = get_cwidth(ch)
            if used + w > room and (head or j):
                rest = [(style, text[j:]), *unit[i + 1 :]]
                if j:
                    head.append((style, text[:j]))
                return head, rest
            used += w
        head.append((style, text))
    return head, []


def wrap_fragments(
    fragments: StyleAndTextTuples, width: int, indent: int = 2
) -> list[StyleAndTextTuples]:
    """``fragments`` (one line) as lines at most ``width`` cells wide, broken at spaces;
    the lines after the first start with ``indent`` spaces. A word wider than a line is
    broken where it must be."""
    width = max(indent + 4, width)
    lines: list[StyleAndTextTuples] = [[]]
    used = 0
    fresh = True  # no word on this line yet
    pending_space: _Unit = []
    for space, unit in _units(fragments):
        if space:
            if len(lines) == 1 and fresh:  # the line's own indent is kept
                lines[0].extend(unit)
                used += _width(unit)
            elif not fresh:  # spaces after a word wait for the next word
                pending_space = unit
            continue
        gap = _width(pending_space)
        word = _width(unit)
        if not fresh and used + gap + word > width:
            lines.append([("", " " * indent)])
            used, gap, pending_space = indent, 0, []
        if pending_space:
            lines[-1].extend(pending_space)
            used += gap
            pending_space = []
        while used + word > width:  # a word longer than a whole line
            head, unit = _split_long(unit, width - used)
            lines[-1].extend(head)
            lines.append([("", " " * indent)])
            used = indent
            word = _width(unit)
        lines[-1].extend(unit)
        used += word
        fresh = False
    return lines
