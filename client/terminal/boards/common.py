"""What the three boards share: the drawing context and a few line helpers.

A board is a pure function from a view dict (the engine's ``Game.view``, as the
server sends it) and a ``BoardContext`` to formatted text. Pure, so that tests
can draw a board from any view without a terminal, and so that redrawing on
resize or on an event is only calling it again.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import dataclass, field

from prompt_toolkit.formatted_text import StyleAndTextTuples

from engine.views import View
from protocol import legal as said
from protocol.describe import seat_words
from protocol.legal import Choices


@dataclass(frozen=True)
class BoardContext:
    """How to draw: the players' names by seat, ASCII or not, the width, what is legal now."""

    names: Sequence[str | None] = ()
    ascii_only: bool = False
    width: int = 52
    legal: Sequence[str] = field(default_factory=tuple)
    #: the server's words for ``legal`` (a turn's ``choices`` and ``must``); no choices
    #: with legal actions: an older server's, composed alike (``groups``)
    choices: Choices = ()
    must: str | None = None

    def groups(self) -> Choices:
        """The legal actions grouped and labelled: the server's, or composed alike."""
        return self.choices or said.choices(self.legal)

    def name(self, seat: int) -> str:
        """The player's name at ``seat``, or ``seat N`` while it is empty."""
        if 0 <= seat < len(self.names) and self.names[seat]:
            return str(self.names[seat])
        return seat_words(seat)


def you(view: View, seat: int) -> str:
    """`` (you)`` after the viewer's own seat."""
    return " (you)" if view.get("viewer") == seat else ""


def seat_style(view: View, seat: int) -> str:
    """Style of a seat's name: whose turn it is stands out."""
    if view.get("to_act") == seat:
        return "class:seat.turn"
    if view.get("viewer") == seat:
        return "class:seat.me"
    return "class:seat"


def clip(fragments: StyleAndTextTuples, width: int, ascii_only: bool = False) -> StyleAndTextTuples:
    """Cut a line of formatted text to ``width`` cells, ending in ``…`` (``~``) when cut."""
    out: StyleAndTextTuples = []
    used = 0
    for style, text, *_ in fragments:
        if used + len(text) <= width:
            out.append((style, text))
            used += len(text)
            continue
        room = width - used - 1
        if room >= 0:
            out.append((style, text[:room]))
            out.append(("class:dim", "~" if ascii_only else "…"))
        break
    return out


def lines_to_text(
    lines: Sequence[StyleAndTextTuples], width: int, ascii_only: bool = False
) -> StyleAndTextTuples:
    """Join lines (each clipped to ``width``) with newlines into one formatted text."""
    out: StyleAndTextTuples = []
    for i, line in enumerate(lines):
        if i:
            out.append(("", "\n"))
        out.extend(clip(line, width, ascii_only))
    return out


def fragments_width(fragments: StyleAndTextTuples) -> int:
    """Cells taken by some formatted text (cards are one cell per character); for any of
    prompt_toolkit's fragments, with a mouse handler or not."""
    return sum(len(fragment[1]) for fragment in fragments)


def wrap_cards(
    prefix: StyleAndTextTuples, cards: Sequence[StyleAndTextTuples], width: int, indent: int
) -> list[StyleAndTextTuples]:
    """Lay cards (each its own fragments) after ``prefix``, wrapping to ``width`` cells with
    later lines indented by ``indent``; so a hand of 20 cards still fits in 80 columns."""
    lines: list[StyleAndTextTuples] = [list(prefix)]
    used = fragments_width(prefix)
    for card in cards:
        w = fragments_width(card) + 1
        if used + w > width and used > indent:
            lines.append([("", " " * indent)])
            used = indent
            if card[:1] == [("", " ")]:  # a suit's gap parts suits on a line, not lines
                card, w = card[1:], w - 1
        lines[-1].extend([("", " "), *card])
        used += w
    return lines


def columns(
    entries: Sequence[StyleAndTextTuples], width: int, max_rows: int = 4, ascii_only: bool = False
) -> list[StyleAndTextTuples]:
    """Entries in one column, or two side by side when there are more than ``max_rows``."""
    if len(entries) <= max_rows:
        return [list(e) for e in entries]
    half = (len(entries) + 1) // 2
    col = width // 2
    out: list[StyleAndTextTuples] = []
    for i in range(half):
        left = clip(list(entries[i]), col - 1, ascii_only)
        pad = col - fragments_width(left)
        line = [*left, ("", " " * pad)]
        if i + half < len(entries):
            line.extend(entries[i + half])
        out.append(line)
    return out


def wrap_words(text: str, width: int, indent: int = 2) -> list[str]:
    """Plain text wrapped at words to ``width``, later lines indented: a board line that
    says something a person must read is never cut off."""
    return textwrap.wrap(text, max(20, width), subsequent_indent=" " * indent) or [""]
