"""The end of a game in the terminal: each hand's points for each player, the game's
total and each rated player's rating change (``+12``/``-8``), as the browser's end screen
shows them, in a table that fits the board's side of an 80-column screen.

The hands are the ``hand_end`` events of the table's log since the game before (as the
browser reads them: ``web/static/state.js``'s ``gameHands``); a hand's points are its
``points`` (abbott, shedding) or ``hand_points`` (kilodney).

>>> from client.net.state import TableState
>>> t = TableState(table="1", players=("ann", "bob"))
>>> for n, pts in ((1, [5, -3]), (2, [0, 7])):
...     _ = t.add("event", {"kind": "hand_end", "hand_number": n, "points": pts})
>>> t.view = {"scores": [5, 4]}
>>> t.rated = ({"seat": 0, "name": "ann", "before": 1500, "after": 1512},)
>>> print("\\n".join(end_lines(t, 55)))
hand           1     2   total   rating
ann           +5     0       5      +12
bob           -3    +7       4
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from client.net.state import LogLine, TableState
from protocol.describe import BOT, seat_name

NAME = 10  #: the width of the players' column
HAND = 6  #: the width of a hand's column
TOTAL = 8  #: the width of the game's total
RATING = 9  #: the width of the rating change


def game_hands(log: Iterable[LogLine]) -> list[Mapping[str, Any]]:
    """The ``hand_end`` events of the log's last game, in order."""
    out: list[Mapping[str, Any]] = []
    ended = False
    for line in reversed(list(log)):
        if line.kind != "event":
            continue
        kind = line.data.get("kind")
        if kind == "game_end":
            if ended or out:
                break  # the game before
            ended = True
        elif kind == "hand_end":
            hand = line.data.get("hand_number")
            first = out[0].get("hand_number") if out else None
            if isinstance(hand, int) and isinstance(first, int) and hand >= first:
                break  # a hand's number only grows within one game
            out.insert(0, line.data)
    return out


def with_last_hand(
    hands: list[Mapping[str, Any]], scores: Sequence[Any], count: int
) -> list[Mapping[str, Any]]:
    """``hands`` and, when the game ended in the middle of a hand (kilodney ends the moment
    a player reaches the target), that last hand: what the total has beyond the hands.

    >>> last = with_last_hand([{"hand_number": 1, "points": [3, 1]}], [5, 1], 2)[-1]
    >>> last["hand_number"], last["points"]
    (2, [2, 0])
    """
    if not hands or not all(isinstance(s, int) for s in scores) or len(scores) < count:
        return hands
    done = [0] * count
    for hand in hands:
        for seat in range(count):
            got = _points(hand, seat)
            done[seat] += int(got) if got.lstrip("+-").isdigit() else 0
    rest = [int(scores[seat]) - done[seat] for seat in range(count)]
    if not any(rest):
        return hands
    number = hands[-1].get("hand_number")
    after = number + 1 if isinstance(number, int) else len(hands) + 1
    return [*hands, {"hand_number": after, "points": rest}]


def _signed(n: Any) -> str:
    return f"+{n}" if isinstance(n, int) and n > 0 else str(n)


def _points(hand: Mapping[str, Any], seat: int) -> str:
    points = hand.get("points")
    if not isinstance(points, list):
        points = hand.get("hand_points")
    if not isinstance(points, list) or seat >= len(points):
        return ""
    return _signed(points[seat])


def end_lines(t: TableState, width: int) -> list[str]:
    """The table of a finished game's scores, a line a player under a heading; as many
    of the last hands as ``width`` has room for (the heading says how many are left out),
    none when the game had one hand (its total says it)."""
    scores: Sequence[Any] = (t.view.get("scores") if t.view else None) or []
    names = t.names
    count = max(len(scores), len(names))
    hands = with_last_hand(game_hands(t.log), scores, count)
    if len(hands) < 2:
        hands = []
    changes = {c.get("seat"): c for c in t.rated if isinstance(c, Mapping)}
    rating = RATING if changes else 0
    room = max(0, (width - NAME - TOTAL - rating) // HAND)
    shown = hands[-room:] if room else []
    left_out = len(hands) - len(shown)
    head = "hand" if not left_out else f"hands {left_out + 1}-"
    line = f"{head:<{NAME}}" + "".join(
        f"{h.get('hand_number', i + 1)!s:>{HAND}}" for i, h in enumerate(shown, left_out)
    )
    line += f"{'total':>{TOTAL}}" + (f"{'rating':>{RATING}}" if rating else "")
    out = [line]
    for seat in range(count):
        # a seat empty now was played by a server bot (every seat of a game is played),
        # named as the server's log names it
        name = (names[seat] if seat < len(names) else None) or str(seat_name(BOT, seat))
        row = f"{name[: NAME - 1]:<{NAME}}" + "".join(f"{_points(h, seat):>{HAND}}" for h in shown)
        row += f"{scores[seat] if seat < len(scores) else '':>{TOTAL}}"
        change = changes.get(seat)
        if change is not None:
            row += f"{_signed(int(change['after']) - int(change['before'])):>{RATING}}"
        out.append(row.rstrip())
    return out
