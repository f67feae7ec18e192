"""The abbott board: the grid of cards with its four pieces, and every collection.

Squares are labelled like a chess board from South's side (files ``a``-``f``
left to right, ranks ``1``-``6`` bottom to top), so ``move c4`` reads straight
off the screen. Each square is four cells: the piece's letter (or a space),
the card (two cells, ``·`` when the square is blank) and a gap. In ASCII a card
is letters too, so a piece would run into the card under it (``S5S``): there a
square takes a fifth cell, a ``:`` between the piece and its card (``S:5S``).
Squares the viewer may move to now are marked ``+``, and under the grid each
collection is drawn with the cards of its best poker hand in bold and the hand named.

>>> from client.terminal.boards.common import BoardContext
>>> view = {"viewer": 0, "to_act": 0, "scores": [0, 0], "size": 5,
...         "grid": [["2C", None, "3D", "4H", "5S"]] + [["6C"] * 5] * 4,
...         "pieces": ["a1", "e5"], "collections": [["AS"], []],
...         "best": [{"category": "high card", "cards": ["AS"]}, None],
...         "seat_names": ["South", "North"], "turn_of": 0, "hand_number": 1,
...         "dealer": 1, "target": 40}
>>> from prompt_toolkit.formatted_text import fragment_list_to_text
>>> lines = fragment_list_to_text(render(view, BoardContext(ascii_only=True))).splitlines()
>>> for i in (2, 3, 5):
...     print(lines[i].rstrip())
 4   6C   6C   6C   6C   6C 4  To move: South
 3   6C   6C   6C   6C   6C 3  Stall 0/?
 1 S:2C    .   3D   4H   5S 1
"""

from __future__ import annotations

from prompt_toolkit.formatted_text import StyleAndTextTuples

from client.terminal.boards.common import BoardContext, lines_to_text, seat_style, you
from client.terminal.boards.legal import legal_lines
from engine.abbott.vocabulary import AbbottView
from protocol.cards import card_fragments, cards_fragments, rank_key
from protocol.describe import seat_words

FILES = "abcdef"
PIECE_STYLES = ("class:piece.s0", "class:piece.s1", "class:piece.s2", "class:piece.s3")


def seat_letter(view: AbbottView, seat: int) -> str:
    """``S``/``W``/``N``/``E``: the piece's letter is its seat's compass initial."""
    names = view.get("seat_names") or []
    return names[seat][0].upper() if seat < len(names) and names[seat] else str(seat)


def compass(view: AbbottView, seat: int | None) -> str:
    if seat is None:
        return "-"
    names = view.get("seat_names") or []
    return names[seat] if seat < len(names) else seat_words(seat)


def targets(ctx: BoardContext) -> set[str]:
    """Squares named by the legal ``move`` actions."""
    return {a.split()[1] for a in ctx.legal if a.startswith("move ") and len(a.split()) == 2}


def render(view: AbbottView, ctx: BoardContext) -> StyleAndTextTuples:
    """Draw the grid, the hand's state beside it, and the collections under it."""
    size = int(view.get("size") or len(view.get("grid") or []) or 6)
    grid = view.get("grid") or [[None] * size for _ in range(size)]
    pieces = {sq: seat for seat, sq in enumerate(view.get("pieces") or []) if sq}
    marks = targets(ctx)
    files = FILES[:size]
    cell = 5 if ctx.ascii_only else 4  # ASCII: a ":" between a piece and its card
    gap = 2 if ctx.ascii_only else 4  # (and less room before the side panel)
    row_width = 3 + cell * size + 1 + gap
    header_text = " " * cell + (" " * (cell - 1)).join(files)
    header: StyleAndTextTuples = [("class:label", header_text.ljust(row_width))]
    rows: list[StyleAndTextTuples] = []
    for r in range(size - 1, -1, -1):
        line: StyleAndTextTuples = [("class:label", f" {r + 1} ")]
        for f in range(size):
            square = f"{files[f]}{r + 1}"
            card = grid[r][f] if r < len(grid) and f < len(grid[r]) else None
            target = " class:square.target" if square in marks else ""
            if square in pieces:
                seat = pieces[square]
                line.append((PIECE_STYLES[seat % 4] + target, seat_letter(view, seat)))
            elif target:  # a mark that shows in any terminal, colours or not
                line.append(("class:square" + target, "+"))
            else:
                line.append(("class:square", " "))
            if ctx.ascii_only:
                line.append(("class:square", ":" if card and square in pieces else " "))
            if card:
                line.extend(card_fragments(card, ctx.ascii_only, target.strip()))
            else:
                line.append(("class:blank" + target, " ." if ctx.ascii_only else " ·"))
            line.append(("", " "))
        line.append(("class:label", f"{r + 1}"))
        line.append(("", " " * gap))
        rows.append(line)
    side = side_panel(view)
    drawn: list[StyleAndTextTuples] = [header + _side(side, 0)]
    for i, row in enumerate(rows, start=1):
        drawn.append(row + _side(side, i))
    drawn.append(header + _side(side, size + 1))
    drawn.extend(collection_lines(view, ctx))
    if ctx.legal and view.get("to_act") == view.get("viewer") and not view.get("over"):
        drawn.extend(legal_lines(ctx.groups(), ctx.width))
    return lines_to_text(drawn, ctx.width, ctx.ascii_only)


def _side(side: list[StyleAndTextTuples], i: int) -> StyleAndTextTuples:
    return side[i] if i < len(side) else []


def side_panel(view: AbbottView) -> list[StyleAndTextTuples]:
    """The hand's state, a line per fact, drawn beside the grid."""
    out: list[StyleAndTextTuples] = [
        [("class:title", f"Hand {view.get('hand_number', 1)}"), ("", f" to {view.get('target')}")],
        [("", "Dealer "), ("", compass(view, view.get("dealer")))],
    ]
    if view.get("over"):
        out.append([("class:turn", "Game over")])
    else:
        out.append([("", "To move: "), ("class:turn", compass(view, view.get("to_act")))])
        turn_of = view.get("turn_of")
        if turn_of is not None and turn_of != view.get("to_act"):
            out.append([("", "  (for "), ("", compass(view, turn_of)), ("", ")")])
    alliance = view.get("alliance")
    if alliance:
        chooser, partner = alliance.get("chooser"), alliance.get("partner")
        pair = f"{compass(view, chooser)}+{compass(view, partner)}"
        if len(pair) <= 14:
            out.append([("", "Allies "), ("class:ally", pair)])
        else:
            out.append([("", "Allies "), ("class:ally", f"{compass(view, chooser)}+")])
            out.append([("", "       "), ("class:ally", compass(view, partner))])
    elif (view.get("seats") or len(view.get("pieces") or [])) == 4:
        out.append([("class:dim", "No alliance yet")])
    if view.get("power") is not None:
        out.append([("", "Power: "), ("class:ally", compass(view, view["power"]))])
    out.append([("", f"Stall {view.get('stall', 0)}/{view.get('stall_limit', '?')}")])
    votes = view.get("votes") or []
    if votes:
        out.append([("", "End votes: " + " ".join(seat_letter(view, s) for s in votes))])
    conceded = view.get("conceded") or []
    if conceded:
        out.append([("", "Conceded: " + " ".join(seat_letter(view, s) for s in conceded))])
    return out


def collection_lines(view: AbbottView, ctx: BoardContext) -> list[StyleAndTextTuples]:
    """One line per seat: piece letter, name, score, best hand named, then the collection
    with the best hand's cards first and bold."""
    lines: list[StyleAndTextTuples] = []
    collections = view.get("collections") or []
    best = view.get("best") or []
    scores = view.get("scores") or []
    for seat in range(int(view.get("seats") or len(collections))):
        cards = list(collections[seat]) if seat < len(collections) else []
        b = best[seat] if seat < len(best) and best[seat] else None
        best_cards = list((b.get("cards") if b else None) or [])
        rest = sorted(cards, key=rank_key, reverse=True)
        for c in best_cards:
            if c in rest:
                rest.remove(c)
        score = scores[seat] if seat < len(scores) else 0
        line: StyleAndTextTuples = [
            (PIECE_STYLES[seat % 4], seat_letter(view, seat)),
            (seat_style(view, seat), f" {(ctx.name(seat)[:11] + you(view, seat)):<16}"),
            ("class:score", f"{score:>3}  "),
        ]
        if not cards:
            line.append(("class:dim", "no cards"))
        else:
            line.append(("class:category", (b.get("category") if b else None) or ""))
            line.append(("", ": "))
            line.extend(cards_fragments(best_cards, ctx.ascii_only, highlight=best_cards))
            if rest:
                line.append(("", " + " if best_cards else ""))
                line.extend(cards_fragments(rest, ctx.ascii_only))
        lines.append(line)
    return lines
