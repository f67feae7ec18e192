"""The moves legal now, grouped and worded for a person, and what he must answer now.

The server sends the legal actions as notation (``play 7H 7D``, ``draw``,
``suit hearts``, ``move c4``). A flat list of them hid the best plays (a j28 hand
has dozens of sets and runs), so they are grouped by what they do (plays,
squares, suits, partners, the rest) and each gets a label, what a person types
after the group's verb (``7H 7D`` under "You may play"). The server sends this
grouping with every turn and snapshot (``choices``), and the sentence saying what
the seat must answer (``must``), so every client shows the same words; a client
of an older server composes them here, the same way.

What a player *must* answer (a pick-up, a suit to name, a drawn card) is said
from the legal actions themselves, so the words never offer a move the server
would refuse.

>>> choices(["play 2H", "play 2H 2S", "draw"])
(('You may play', (('play 2H', '2H'), ('play 2H 2S', '2H 2S'))), ('or', (('draw', 'draw'),)))
>>> choices(["draw", "pass"])
(('You may', (('draw', 'draw'), ('pass', 'pass'))),)
>>> from engine.shedding.vocabulary import with_kinds
>>> must_text(with_kinds({"pending": {"kind": "pickup", "count": 4, "cards": ["2S"]}}),
...           ["play 2H", "draw"])
'You must answer the pick-up of 4: play one of these, or draw (you take 4)'
>>> must_text(with_kinds({"pending": {"kind": "miss", "count": 1, "cards": ["8S"]}}), ["pass"])
'You must pass'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from operator import itemgetter
from typing import Any, cast

from engine.shedding.state import Awaiting, PendingKind
from engine.shedding.vocabulary import SheddingView
from engine.views import View, is_shedding
from protocol.words import plural

#: (group, heading, verb stripped from each label): the order the groups are shown in.
GROUPS: tuple[tuple[str, str, str], ...] = (
    ("play", "You may play", "play "),
    ("move", "Move to", "move "),
    ("suit", "Name a suit", ""),
    ("ally", "Ally with", "ally "),
    ("other", "or", ""),
    ("announce", "Announce", ""),
)
#: The heading of the other moves when nothing comes before them.
OTHER_FIRST = "You may"

#: Groups of legal actions as the wire carries them: ``(heading, ((action, label), ...))``.
Choices = tuple[tuple[str, tuple[tuple[str, str], ...]], ...]

_VERBS = {"play": "play", "move": "move", "suit": "suit", "ally": "ally", "last": "announce"}


def group_of(action: str) -> str:
    """Which group an action belongs to, by its verb."""
    verb = action.partition(" ")[0]
    return _VERBS.get(verb) or _VERBS.get(verb.lower(), "other")


def choices(legal: Sequence[str]) -> Choices:
    """``(heading, [(action, label), ...])`` per non-empty group, in ``GROUPS`` order:
    every legal action exactly once, its label what is typed after the heading's verb
    (``7H 7D`` under "You may play"). Made for every turn that offers moves: each
    action's group and label are worked out once and kept (``_PARTS``), and looked up
    without a Python call per action (``map``); the usual case, every action of one
    group (a hand's plays), is one set and one tuple."""
    if not legal:
        return ()
    kept = list(map(_PARTS.get, legal))
    if None in kept:  # an action not seen before (or since ``_PARTS`` started again)
        parts = [part or _part(action) for action, part in zip(legal, kept, strict=True)]
    else:
        parts = cast(list[_Part], kept)
    groups = set(map(_group_of, parts))
    if len(groups) == 1:  # one group: it comes first, so the other moves' are "You may"
        return ((_ALONE[groups.pop()], tuple(map(_pair_of, parts))),)
    by_group: dict[str, list[tuple[str, str]]] = {}
    for group, pair in parts:
        by_group.setdefault(group, []).append(pair)
    out: list[tuple[str, tuple[tuple[str, str], ...]]] = []
    for group, heading, _strip in GROUPS:
        pairs = by_group.get(group)
        if pairs:
            out.append((OTHER_FIRST if group == "other" and not out else heading, tuple(pairs)))
    return tuple(out)


_GROUP = {group: (heading, strip) for group, heading, strip in GROUPS}
#: Each group's heading when it is the only one (the other moves': "You may").
_ALONE = {group: OTHER_FIRST if group == "other" else heading for group, heading, _s in GROUPS}
#: An action's group and its ``(action, label)`` pair.
_Part = tuple[str, tuple[str, str]]
_group_of: Callable[[_Part], str] = itemgetter(0)
_pair_of: Callable[[_Part], tuple[str, str]] = itemgetter(1)
#: Each action seen, with its group and its ``(action, label)`` pair: a game offers the
#: same few actions turn after turn (``play 7H``, ``draw``), so each is worded once.
_PARTS: dict[str, _Part] = {}
#: How many actions ``_PARTS`` keeps before it starts again (a shedding hand's sets and
#: runs are many, but a game's are far fewer)
_PARTS_KEPT = 4096


def _part(action: str) -> _Part:
    """``action``'s group and its ``(action, label)`` pair, kept for the next turn."""
    group = group_of(action)
    strip = _GROUP[group][1]
    cut = len(strip)
    pair = (action, action[cut:] if cut and action.startswith(strip) else action)
    if len(_PARTS) >= _PARTS_KEPT:
        _PARTS.clear()
    _PARTS[action] = (group, pair)
    return group, pair


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


def must(view: Mapping[str, Any] | None, legal: Sequence[str]) -> str | None:
    """``must_text`` for any family's view (a wire payload): only a shedding game owes
    answers (a pick-up, a suit, a drawn card); ``None`` with no view or another family.
    (Only the seat to act is asked: the server says it only with legal actions.)"""
    if not view or view.get("family") != "shedding":  # the usual answer, asked at once
        return None
    shown = cast(View, view)
    return must_text(shown, legal) if is_shedding(shown) else None
