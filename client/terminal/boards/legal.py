"""The moves legal now, grouped and worded for a person: under every board and in the help.

The server sends the legal actions as notation (``play 7H 7D``, ``draw``,
``suit hearts``, ``move c4``). A flat list of them cut at the screen's edge
hid the best plays (a j28 hand has dozens of sets and runs), so they are
grouped by what they do (plays, squares, partners, suits, the rest) and each
group is wrapped over as many lines as it needs; nothing is ever cut.

What a player *must* answer (a pick-up, a suit to name, a drawn card) is said
with the commands that answer it, worked out from the legal actions
themselves, so the words can never offer a move the server would refuse.

>>> lines = legal_text(["play 2H", "play 2H 2S", "draw"], 40)
>>> print("\\n".join(lines))
You may play: 2H | 2H 2S
   or: draw
>>> from engine.shedding.vocabulary import with_kinds
>>> must_text(with_kinds({"pending": {"kind": "pickup", "count": 4, "cards": ["2S"]}}),
...           ["play 2H", "draw"])
'You must answer the pick-up of 4: play one of these, or draw (you take 4)'
"""

from __future__ import annotations

from collections.abc import Sequence

from prompt_toolkit.formatted_text import StyleAndTextTuples

from engine.shedding.state import Awaiting, PendingKind
from engine.shedding.vocabulary import SheddingView
from engine.views import View, is_shedding
from protocol.words import plural

#: (group, heading, verb stripped from each item): the order the groups are shown in.
GROUPS: tuple[tuple[str, str, str], ...] = (
    ("play", "You may play:", "play "),
    ("move", "Move to:", "move "),
    ("suit", "Name a suit:", ""),
    ("ally", "Ally with:", "ally "),
    ("other", "   or:", ""),
    ("announce", "Announce:", ""),
)


def group_of(action: str) -> str:
    """Which group an action belongs to, by its verb."""
    verb = action.split()[0].lower() if action.split() else ""
    if verb in ("play", "move", "suit", "ally"):
        return verb
    if verb == "last":
        return "announce"
    return "other"


def grouped(legal: Sequence[str]) -> list[tuple[str, list[str]]]:
    """``(heading, items)`` per non-empty group, in ``GROUPS`` order, each item as typed
    after the heading's verb (``7H 7D`` under "You may play:")."""
    by_group: dict[str, list[str]] = {}
    for action in legal:
        by_group.setdefault(group_of(action), []).append(action)
    out: list[tuple[str, list[str]]] = []
    for group, heading, strip in GROUPS:
        items = by_group.get(group)
        if not items:
            continue
        if group == "other" and len(out) == 0:
            heading = "You may:"
        shown = [a[len(strip) :] if strip and a.startswith(strip) else a for a in items]
        out.append((heading, shown))
    return out


def legal_text(legal: Sequence[str], width: int) -> list[str]:
    """The grouped legal actions as plain lines no wider than ``width`` (the help's form).
    Lines break only between actions, never inside one: ``7C 7D`` stays on one line."""
    width = max(20, width)
    lines: list[str] = []
    for heading, items in grouped(legal):
        indent = " " * min(len(heading) + 1, 14)
        line = heading
        fresh = True  # nothing after the heading or indent yet
        for item in items:
            sep = " " if fresh else " | "
            # (+ 2: room for the " |" that ends a broken line, saying more follows)
            if not fresh and len(line) + len(sep) + len(item) + 2 > width:
                lines.append(line + " |")
                line, sep = indent[:-1], " "
            line += sep + item
            fresh = False
        lines.append(line)
    return lines


def legal_lines(legal: Sequence[str], width: int) -> list[StyleAndTextTuples]:
    """``legal_text`` as board lines, the headings in the turn's colour."""
    out: list[StyleAndTextTuples] = []
    for line in legal_text(legal, width):
        for heading, _items in grouped(legal):
            if line.startswith(heading):
                out.append([("class:turn", heading), ("", line[len(heading) :])])
                break
        else:
            out.append([("", line)])
    return out


def _plays(legal: Sequence[str]) -> list[str]:
    return [a for a in legal if group_of(a) == "play"]


def must_text(view: SheddingView, legal: Sequence[str]) -> str | None:
    """What the player must answer now, naming the commands that answer it; ``None``
    when nothing is owed (an ordinary turn)."""
    pending = view.get("pending")
    kind = None if pending is None else pending["kind"]
    count = None if pending is None else pending.get("count")
    plays = _plays(legal)
    can_draw = "draw" in legal
    can_pass = "pass" in legal
    if any(a.startswith("suit ") for a in legal):
        return "You must name the suit to follow, e.g. suit hearts"
    drew = view.get("awaiting_kind") == Awaiting.DRAWN  # the view's kind, not its English
    passed_on = (PendingKind.SKIP, PendingKind.MISS)
    if drew or (view.get("drawn") and can_pass and kind not in passed_on):
        return "You must play the card you drew, or pass" if plays else "You must pass"
    if kind == PendingKind.PICKUP:
        take = f"draw (you take {count})"
        if not plays:
            if not can_draw:
                return f"You must answer the pick-up of {count}"
            return f"You must take the pick-up of {count}: {take}"
        return f"You must answer the pick-up of {count}: play one of these, or {take}"
    if kind in passed_on:
        what = "skip" if kind == PendingKind.SKIP else f"miss of {plural(count, 'turn')}"
        if plays:
            return f"You must pass the {what} on with one of these plays, or pass"
        return "You must pass" if can_pass else None
    if kind == PendingKind.COVER:
        if plays:
            return "You must cover the card with one of these plays" + (
                ", or draw" if can_draw else ""
            )
        return "You must draw: nothing covers the card" if can_draw else None
    return None


def draw_count(view: View | None) -> int | None:
    """The cards a ``draw`` takes now when a pick-up is pending (so ``draw 4`` means it)."""
    if view is None or not is_shedding(view):
        return None
    pending = view.get("pending")
    if pending is not None and pending["kind"] == PendingKind.PICKUP:
        return pending["count"]
    return None
