"""The shedding board: the pile top, the suit to follow, what is pending, the direction,
every hand's size, and the viewer's own hand with its playable cards marked.

>>> from client.terminal.boards.common import BoardContext
>>> from prompt_toolkit.formatted_text import fragment_list_to_text
>>> view = {"preset": "switch", "viewer": 0, "to_act": 0, "seats": 2, "scores": [0, 0],
...         "hand": ["QH", "2C", "8H"], "hand_sizes": [3, 1], "top": "QS", "pile_size": 4,
...         "nominated": None, "stock": 40, "pending": {"kind": "pickup", "count": 2},
...         "direction": 1, "finished": [], "dealer": 1, "announced": [1],
...         "hand_number": 1, "target": 0, "awaiting": None}
>>> ctx = BoardContext(names=["ann", "bob"], ascii_only=True, legal=["play 2C", "draw"])
>>> print(fragment_list_to_text(render(view, ctx)))
switch - hand 1 - dealer bob
Pile  QS  (4 cards)   Stock 40
Pending: pick up 2
Direction: clockwise
Hands: > ann (you) 3, bob 1 last card
Your hand (3):  2C  8H QH
You must answer the pick-up of 2: play one of these,
  or draw (you take 2)
You may play: 2C
   or: draw
"""

from __future__ import annotations

from prompt_toolkit.formatted_text import StyleAndTextTuples

from client.terminal.boards.common import (
    BoardContext,
    fragments_width,
    lines_to_text,
    seat_style,
    wrap_cards,
    wrap_words,
    you,
)
from client.terminal.boards.legal import legal_lines, must_text
from engine.kilodney.vocabulary import KilodneyView
from engine.shedding.vocabulary import SheddingView
from protocol.cards import card_fragments, sort_cards, suit_style, suit_text
from protocol.table_lines import pending_line
from protocol.words import plural


def playable(ctx: BoardContext) -> list[str]:
    """Cards that begin some legal ``play`` action now (highlighted in the hand)."""
    out: list[str] = []
    for action in ctx.legal:
        words = action.split()
        if words and words[0] == "play":
            out.extend(w.upper() for w in words[1:] if w.lower() != "last")
    return out


def hand_lines(view: SheddingView | KilodneyView, ctx: BoardContext) -> list[StyleAndTextTuples]:
    """The viewer's hand sorted, a gap between suits, its playable cards marked, wrapped to
    the width; a spectator (no ``hand`` in the view) is told the hands are hidden. Shared
    with the kilodney board, whose hand line is the same."""
    hand = view.get("hand")
    if hand is None:
        return [[("class:dim", "(spectating: hands are hidden)")]]
    marks = playable(ctx)
    cards: list[StyleAndTextTuples] = []
    suit = None
    for c in sort_cards(hand):
        gap: StyleAndTextTuples = [("", " ")] if suit is not None and c[-1] != suit else []
        suit = c[-1]
        style = "class:playable" if c in marks else ""
        cards.append([*gap, *card_fragments(c, ctx.ascii_only, style)])
    prefix: StyleAndTextTuples = [("", f"Your hand ({len(hand)}): ")]
    return wrap_cards(prefix, cards, ctx.width, 2)


def render(view: SheddingView, ctx: BoardContext) -> StyleAndTextTuples:
    """Draw the table from ``view`` (see views.md) for the viewer in ``ctx``."""
    a = ctx.ascii_only
    lines: list[StyleAndTextTuples] = []
    dot = " - " if a else " · "
    name = view.get("preset") or view.get("ruleset", "shedding")
    head = f"{name}{dot}hand {view.get('hand_number', 1)}"
    if view.get("target"):
        head += f"{dot}to {view['target']}"
    if view.get("dealer") is not None:
        head += f"{dot}dealer {ctx.name(view['dealer'])}"
    lines.append([("class:title", head)])
    top = view.get("top")
    pile: StyleAndTextTuples = [("", "Pile  ")]
    pile += card_fragments(top, a, "class:top") if top else [("class:dim", "--")]
    pile.append(
        ("", f"  ({plural(view.get('pile_size', 0), 'card')})   Stock {view.get('stock', 0)}")
    )
    lines.append(pile)
    suit = view.get("nominated")
    if suit:
        lines.append([("", "Suit to follow: "), (suit_style(suit), suit_text(suit, a))])
    pending = pending_line(view)  # the server's words: "Pending: pick up 2"
    if pending:
        label, _, words = pending.partition(": ")
        lines.append([("", f"{label}: "), ("class:warn", words)])
    clockwise = view.get("direction", 1) == 1
    arrow = "" if a else (" ↻" if clockwise else " ↺")
    lines.append([("", f"Direction:{arrow} {'clockwise' if clockwise else 'anticlockwise'}")])
    lines.extend(hand_size_lines(view, ctx))
    gone = went_out(view)
    if gone:
        lines.append([("", "Out: " + ", ".join(ctx.name(s) for s in gone))])
    lines.extend(hand_lines(view, ctx))
    if view.get("to_act") == view.get("viewer") and (ctx.legal or view.get("awaiting")):
        must = ctx.must if ctx.choices else must_text(view, ctx.legal)  # the server's words
        if must is None and view.get("awaiting"):
            must = f"You must: {view['awaiting']}"
        if must:
            lines.extend([("class:turn", part)] for part in wrap_words(must, ctx.width))
        if not must or set(ctx.legal) - {"draw", "pass"}:  # else the must line said it all
            lines.extend(legal_lines(ctx.groups(), ctx.width))
    return lines_to_text(lines, ctx.width, ctx.ascii_only)


def went_out(view: SheddingView) -> list[int]:
    """The seats that went out, in order. At the end of a hand the view's ``finished``
    ranks every seat, those still holding cards included; only an empty hand is out."""
    sizes = view.get("hand_sizes") or []
    return [s for s in view.get("finished") or [] if s < len(sizes) and sizes[s] == 0]


def hand_size_lines(view: SheddingView, ctx: BoardContext) -> list[StyleAndTextTuples]:
    """Every seat's hand size on as few lines as fit, whose turn marked with ``>``."""
    sizes = view.get("hand_sizes") or []
    announced = set(view.get("announced") or [])
    finished = set(went_out(view))
    entries: list[StyleAndTextTuples] = []
    for seat, size in enumerate(sizes):
        marker = ">" if ctx.ascii_only else "▶"
        entry: StyleAndTextTuples = []
        if view.get("to_act") == seat:
            entry.append(("class:turn", marker + " "))
        entry.append((seat_style(view, seat), f"{ctx.name(seat)}{you(view, seat)}"))
        if seat in finished:
            entry.append(("class:dim", " out"))
        else:
            entry.append(("class:count", f" {size}"))
        if seat in announced and seat not in finished:
            entry.append(("class:warn", " last card"))
        entries.append(entry)
    lines: list[StyleAndTextTuples] = [[("", "Hands:")]]
    for entry in entries:
        w = fragments_width(entry)
        used = fragments_width(lines[-1])
        if used + w + 3 > ctx.width and used > 7:
            lines.append([("", "      ")])
        elif len(lines[-1]) > 1:
            lines[-1].append(("class:dim", "," if ctx.ascii_only else " ·"))
        lines[-1].extend([("", " "), *entry])
    return lines
