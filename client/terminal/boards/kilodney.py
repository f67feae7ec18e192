"""The kilodney board: the pile top and what must follow it, who is still in the hand
(and who was knocked out), every hand's size and score, and the viewer's hand.

Knocked-out and stranded hands show their count only: the view never carries
their cards, and neither does the screen.

>>> from client.terminal.boards.common import BoardContext
>>> from prompt_toolkit.formatted_text import fragment_list_to_text
>>> view = {"viewer": 1, "to_act": 1, "seats": 4, "scores": [3, 0, 1, -1],
...         "hand": ["7S", "JK", "KH"], "hand_sizes": [5, 3, 9, 0], "top": "KS",
...         "running": True, "in_hand": [True, True, False, False], "knocked_out": [2],
...         "dealer": 3, "hand_number": 2, "target": 50, "leader": 0}
>>> ctx = BoardContext(names=["ann", "bob", "cy", "di"], ascii_only=True)
>>> print(fragment_list_to_text(render(view, ctx)))
kilodney - hand 2 - to 50 - dealer di
Pile  KS  played by ann
Follow: S spades or a king, or play a joker
  ann              5 cards         score 3
> bob (you)        3 cards         score 0
  cy              knocked out (9)  score 1
  di              out              score -1
Your hand (3):  KH  7S  JK
"""

from __future__ import annotations

import re

from prompt_toolkit.formatted_text import StyleAndTextTuples

from client.terminal.boards.common import BoardContext, columns, lines_to_text, seat_style, you
from client.terminal.boards.legal import legal_lines
from client.terminal.boards.shedding import hand_lines
from engine.kilodney.vocabulary import KilodneyView
from protocol.cards import SUIT_SYMBOLS, card_fragments, suit_style
from protocol.table_lines import follow_line

#: A suit's glyph to its letter (the letter is its style's name, and ASCII's glyph)
_GLYPHS = {glyph: suit for suit, glyph in SUIT_SYMBOLS.items()}


def render(view: KilodneyView, ctx: BoardContext) -> StyleAndTextTuples:
    """Draw the table from ``view`` (see views.md) for the viewer in ``ctx``."""
    a = ctx.ascii_only
    dot = " - " if a else " · "
    lines: list[StyleAndTextTuples] = []
    head = f"kilodney{dot}hand {view.get('hand_number', 1)}{dot}to {view.get('target', 50)}"
    if view.get("dealer") is not None:
        head += f"{dot}dealer {ctx.name(view['dealer'])}"
    lines.append([("class:title", head)])
    top = view.get("top")
    pile: StyleAndTextTuples = [("", "Pile  ")]
    pile += card_fragments(top, a, "class:top") if top else [("class:dim", "--")]
    leader = view.get("leader")
    if top and leader is not None:
        pile.append(("", f"  played by {ctx.name(leader)}"))
    lines.append(pile)
    follow = follow_line(view)  # the server's words: what must follow, or "Lead any card"
    if follow:
        lines.append(suit_fragments(follow, a))
    many = len(view.get("hand_sizes") or []) > 5
    lines.extend(columns(seat_entries(view, ctx, compact=many), ctx.width, 5, ctx.ascii_only))
    lines.extend(hand_lines(view, ctx))
    if ctx.legal and view.get("to_act") == view.get("viewer"):
        lines.extend(legal_lines(ctx.groups(), ctx.width))
    return lines_to_text(lines, ctx.width, ctx.ascii_only)


def suit_fragments(text: str, ascii_only: bool) -> StyleAndTextTuples:
    """A line of the server's words with each suit's glyph in its colour (its letter in
    ASCII mode).

    >>> suit_fragments("Follow: ♠ spades", True)
    [('', 'Follow: '), ('class:card.black', 'S'), ('', ' spades')]
    """
    out: StyleAndTextTuples = []
    for part in re.split("([♣♦♥♠])", text):
        suit = _GLYPHS.get(part)
        if suit is not None:
            out.append((suit_style(suit), suit if ascii_only else part))
        elif part:
            out.append(("", part))
    return out


def seat_entries(
    view: KilodneyView, ctx: BoardContext, compact: bool = False
) -> list[StyleAndTextTuples]:
    """One entry per seat: still in (with its card count), knocked out or out, and score.
    ``compact`` entries (25 cells) fit two columns when many seats play."""
    sizes = view.get("hand_sizes") or []
    in_hand = view.get("in_hand") or [True] * len(sizes)
    knocked = set(view.get("knocked_out") or [])
    scores = view.get("scores") or []
    entries: list[StyleAndTextTuples] = []
    for seat, size in enumerate(sizes):
        turn = view.get("to_act") == seat
        marker = (">" if ctx.ascii_only else "▶") if turn else " "
        if compact:
            label = f"{ctx.name(seat)[:8] + ('*' if view.get('viewer') == seat else ''):<10}"
        else:
            label = f"{ctx.name(seat)[:10] + you(view, seat):<16}"
        entry: StyleAndTextTuples = [
            ("class:turn" if turn else "", marker + " "),
            (seat_style(view, seat), label),
        ]
        if seat in knocked:
            status = f"KO ({size})" if compact else f"knocked out ({size})"
            entry.append(("class:dim", f"{status:<17}"[: 8 if compact else 17]))
        elif not seat_in(in_hand, seat):
            status = "out" + (f" ({size})" if size else "")
            entry.append(("class:dim", f"{status:<8}" if compact else f"{status:<17}"))
        else:
            entry.append(
                (
                    "class:count",
                    f"{size:>2} {'card ' if size == 1 else 'cards'}{'' if compact else ' ' * 9}",
                )
            )
        score = scores[seat] if seat < len(scores) else 0
        entry.append(("class:score", f"{score:>3}pt" if compact else f"score {score}"))
        entries.append(entry)
    return entries


def seat_in(in_hand: list[bool], seat: int) -> bool:
    return bool(in_hand[seat]) if seat < len(in_hand) else True
