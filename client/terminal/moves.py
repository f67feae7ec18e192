"""What a typed move means before it goes to the server.

Two things a person types that the engine's notation alone would get wrong:

- ``draw 4`` when the board says a pick-up of 4 is pending: the board's words
  invite it, so it means ``draw`` (which takes the 4). Any other count is left
  as typed, so the server explains it.
- A play that parses but is not legal, at a table whose rules penalise an
  illegal play (the ``illegal_penalty`` option, read from the table and its
  ruleset, never from a list of preset names): the engine would take it as a
  blunder and make the player draw. A person is asked to confirm it first.

>>> from engine.views import as_view
>>> pickup = as_view({"family": "shedding", "pending": {"kind": "pickup", "count": 4}})
>>> draw_alias("draw 4", pickup), draw_alias("draw 3", pickup)
('draw', 'draw 3')
>>> same_action("play 7h 7d", "play 7H 7D last")
True
>>> square_problem("move f6", as_view({"family": "abbott", "size": 5}))
'there is no square f6 on this board: its squares are a1..e5, such as c3'
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from client.net.state import ClientState, TableState
from client.terminal.boards.legal import draw_count
from engine.actions import Action, Play
from engine.errors import InvalidActionError
from engine.views import View, hand_of, is_abbott, is_shedding
from protocol.commands import SHORT_VERBS, bare_action, command_words


def spelled_out(line: str) -> str:
    """A short form as the server reads it, so the client checks what will be sent: ``p
    7h 7d`` and a bare ``7h 7d`` are ``play 7H 7D``, a bare ``c4`` is ``move c4``
    (``protocol.commands``'s short forms); any other line as typed."""
    words = line.split()
    if not words:
        return line
    first = words[0].lower()
    if first in SHORT_VERBS and len(words) > 1:
        return (
            spelled_out(" ".join(words[1:]))
            if SHORT_VERBS[first] == "play"
            else (f"{SHORT_VERBS[first]} {' '.join(words[1:])}")
        )
    if first in command_words():
        return line
    return bare_action(line) or line


def draw_alias(line: str, view: View | None) -> str:
    """``draw N`` as ``draw`` when ``N`` is the pending pick-up's count."""
    words = line.split()
    count = draw_count(view)
    if count is not None and len(words) == 2 and words[0].lower() == "draw":
        return "draw" if words[1] == str(count) else line
    return line


def square_problem(line: str, view: View | None) -> str | None:
    """Why ``move SQUARE`` names no square of this abbott board (the 2-player board is
    5x5: a1..e5), or ``None``. The engine's own parse error can only name the largest
    board's squares, so the client says it with the board in front of it."""
    words = line.split()
    if not view or not is_abbott(view) or len(words) < 1 or words[0].lower() != "move":
        return None
    size = int(view.get("size") or 6)
    last = "abcdef"[size - 1] + str(size)
    middle = "abcdef"[size // 2] + str(size // 2 + 1)
    square = words[1].lower() if len(words) == 2 else ""
    ok = len(square) == 2 and square[0] in "abcdef"[:size] and square[1:].isdigit()
    if ok and 1 <= int(square[1:]) <= size:
        return None
    what = f"there is no square {words[1]} on this board" if square else "say one square"
    return f"{what}: its squares are a1..{last}, such as {middle}"


def _parsed(text: str) -> Action | None:
    try:
        return Action.parse(text)
    except InvalidActionError:
        return None


def _bare(action: Action) -> str:
    """The action's notation without a ``last`` announcement (it never makes a play
    legal or not: a play that leaves one card may announce it or not)."""
    words = str(action).split()
    return " ".join(w for w in words if w != "last")


def same_action(typed: str, listed: str) -> bool:
    """Whether ``typed`` is the legal action ``listed`` (case and ``last`` aside)."""
    a, b = _parsed(typed), _parsed(listed)
    return a is not None and b is not None and _bare(a) == _bare(b)


def table_option(state: ClientState, t: TableState, name: str) -> Any:
    """An option's value at ``t``: the table's own setting, else its ruleset's default
    (both from the server's table and ruleset lists); ``None`` when neither says."""
    view = t.view
    preset = view.get("preset") if view and is_shedding(view) else None
    ruleset = preset or (view.get("ruleset") if view else None)
    for info in state.lobby:
        if info["table"] == t.table:
            options = info["options"]
            if name in options:
                return options[name]
            ruleset = ruleset or info["ruleset"]
    for rs in state.rulesets:
        if rs["name"] == ruleset:
            for option in rs["options"]:
                if option["name"] == name:
                    return option["default"]
    return None


def blunder_penalty(state: ClientState, t: TableState, line: str) -> int:
    """Cards the table would make us draw for ``line`` (0: it is legal, or refused
    outright, or not a play of cards we hold on our turn)."""
    if not t.my_turn or t.view is None:
        return 0
    action = _parsed(line)
    if not isinstance(action, Play):
        return 0
    if any(same_action(line, legal) for legal in t.legal):
        return 0
    hand = Counter(str(c) for c in (hand_of(t.view) or []))
    if Counter(str(c) for c in action.cards) - hand:
        return 0  # the server refuses a card we do not hold; no penalty
    penalty = table_option(state, t, "illegal_penalty")
    return int(penalty) if isinstance(penalty, int) and penalty > 0 else 0
