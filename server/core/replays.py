"""A finished game's replay as the browser draws it: the board at every step, worked out
here because a browser cannot run the engine.

Step ``N`` is the position after the record's ``N``th action (step 0: the deal), as
``engine.replay`` rebuilds it. Each step carries the action that led to it, the public
view then (``game.view(None)``), each seat's hand then (the game is over: its full
record, seed included, is public, so the hands are too; empty in a family that deals
none) and the sentences of the step's events as a spectator was told them
(``protocol.describe``), naming the seats as the game's result named them.

A page holds at most ``PAGE`` steps, and no more than fit in ``budget`` bytes of JSON
(at least one step, so a reader always moves on); ``next`` says where the following page
starts. Each page replays the record from the deal to its last step: the cost is the
engine's replay of one game (milliseconds), bounded by the record requests' rate.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.events import Event
from engine.registry import record_start
from protocol.describe import describe_text, seat_name, seat_words
from protocol.table_lines import pile_text

#: Steps in one ``replay`` reply at most.
PAGE = 40

#: Bytes of JSON a page's steps may take at most (within the protocol's ``max_frame``,
#: 1 MiB by default, with room for the record's head).
BUDGET = 512 * 1024

#: Bytes left for what surrounds a page's JSON on its line or frame.
HEADROOM = 256


@dataclass(frozen=True, slots=True)
class ReplayPage:
    """One reply's worth of a replay."""

    record: dict[str, Any]  #: the record but its actions, with ``names``
    steps: list[dict[str, Any]]
    start: int
    next: int | None  #: where the next page starts; None: this is the last
    total: int  #: the record's actions (steps 0 to ``total``)


def shown_names(players: Sequence[str | None], seats: int) -> list[str]:
    """Each seat's name as a replay shows it (a bot by its seat, as the log names it).

    >>> shown_names(["ann", "bot:search"], 2)
    ['ann', 'bot 2']
    >>> shown_names([], 2)
    ['seat 1', 'seat 2']
    """
    out = []
    for seat in range(seats):
        player = players[seat] if seat < len(players) else None
        out.append(seat_name(player, seat) or seat_words(seat))
    return out


def _plain(value: Any) -> Any:
    """A view or event as JSON primitives (an engine's str enums as their words)."""
    return json.loads(json.dumps(value))


def _step(game: Any, number: int, action: list[Any] | None, events: list[Event],
          names: Sequence[str | None]) -> dict[str, Any]:  # fmt: skip
    view = _plain(game.view(None))
    hands = []
    if "hand" in game.view(0):
        hands = [list(game.view(seat).get("hand") or []) for seat in range(game.seats)]
    said = [describe_text(_plain(e.present(None)), names) for e in events]
    step = {"step": number, "action": action, "view": view, "hands": hands, "said": said}
    pile = pile_text(view)  # what the pile asks then, as the table's board said it
    if pile is not None:
        step["pile"] = pile
    return step


def page(
    record: Mapping[str, Any],
    players: Sequence[str | None],
    start: int,
    size: int = PAGE,
    budget: int = BUDGET,
) -> ReplayPage:
    """Steps ``start`` .. ``start + size`` of the replay of a finished game's ``record``
    (``players``: its seats' occupants as its result kept them), within ``budget``."""
    actions = list(record.get("actions") or [])
    total = len(actions)
    start = max(0, min(start, total))
    end = min(total, start + max(1, size) - 1)
    names = shown_names(players, int(record["seats"]))
    head = {k: v for k, v in record.items() if k != "actions"}
    head["names"] = names
    game = record_start(record)
    steps: list[dict[str, Any]] = []
    room = budget - len(json.dumps(head)) - HEADROOM
    if start == 0:
        steps.append(_step(game, 0, None, list(game.opening_events), names))
        room -= len(json.dumps(steps[-1])) + 1
    for number, (seat, notation) in enumerate(actions[:end], start=1):
        events = game.apply(seat, notation)
        if number < start:
            continue
        step = _step(game, number, [seat, notation], events, names)
        room -= len(json.dumps(step)) + 1
        if room < 0 and steps:
            break
        steps.append(step)
    last = steps[-1]["step"] if steps else start
    return ReplayPage(head, steps, start, last + 1 if last < total else None, total)
