"""The moves legal now laid out for a terminal: under every board and in the help.

The words are the server's: each ``turn`` and ``snapshot`` groups the legal actions
and labels them (``choices``) and says what the seat must answer (``must``), as
``protocol.legal`` composes them; against an older server, which sends neither, the
client composes them with the same functions. What is left here is layout: a flat
list cut at the screen's edge hid the best plays (a j28 hand has dozens of sets and
runs), so each group is wrapped over as many lines as it needs; nothing is ever cut.

>>> lines = legal_text(choices(["play 2H", "play 2H 2S", "draw"]), 40)
>>> print("\\n".join(lines))
You may play: 2H | 2H 2S
   or: draw
"""

from __future__ import annotations

from prompt_toolkit.formatted_text import StyleAndTextTuples

from engine.shedding.state import PendingKind
from engine.views import View, is_shedding
from protocol.legal import Choices, choices, must_text

__all__ = ["choices", "draw_count", "heading_text", "legal_lines", "legal_text", "must_text"]


def heading_text(heading: str) -> str:
    """A group's heading as the board writes it: ``You may play:``; a heading in lower
    case (``or``) goes on from the group above, indented under it."""
    return f"   {heading}:" if heading[:1].islower() else f"{heading}:"


def legal_text(groups: Choices, width: int) -> list[str]:
    """The grouped legal actions as plain lines no wider than ``width`` (the help's form).
    Lines break only between actions, never inside one: ``7C 7D`` stays on one line."""
    width = max(20, width)
    lines: list[str] = []
    for heading, items in groups:
        head = heading_text(heading)
        indent = " " * min(len(head) + 1, 14)
        line = head
        fresh = True  # nothing after the heading or indent yet
        for _action, label in items:
            sep = " " if fresh else " | "
            # (+ 2: room for the " |" that ends a broken line, saying more follows)
            if not fresh and len(line) + len(sep) + len(label) + 2 > width:
                lines.append(line + " |")
                line, sep = indent[:-1], " "
            line += sep + label
            fresh = False
        lines.append(line)
    return lines


def legal_lines(groups: Choices, width: int) -> list[StyleAndTextTuples]:
    """``legal_text`` as board lines, the headings in the turn's colour."""
    heads = [heading_text(heading) for heading, _items in groups]
    out: list[StyleAndTextTuples] = []
    for line in legal_text(groups, width):
        head = next((h for h in heads if line.startswith(h)), None)
        if head is None:
            out.append([("", line)])
        else:
            out.append([("class:turn", head), ("", line[len(head) :])])
    return out


def draw_count(view: View | None) -> int | None:
    """The cards a ``draw`` takes now when a pick-up is pending (so ``draw 4`` means it)."""
    if view is None or not is_shedding(view):
        return None
    pending = view.get("pending")
    if pending is not None and pending["kind"] == PendingKind.PICKUP:
        return pending["count"]
    return None
