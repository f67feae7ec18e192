"""A board folded from a public event log, for replaying a game that is still running (its
record is then the events a spectator saw, not the seed and actions that rebuild it).

Everything a spectator's board shows can be followed from the events: abbott is public
(the deal lays the grid, moves and takes change it); in the shedding and kilodney games the
pile's top and every hand's size follow from the deal, the plays and the draws. Hands stay
hidden, as they were to the spectator. The view it makes has the keys the boards read.

>>> fold = PublicBoard("kilodney", 2)
>>> fold.apply({"kind": "deal", "dealer": 1, "hand_number": 1, "hand_sizes": [3, 3]})
>>> fold.apply({"kind": "play", "seat": 0, "card": "7S", "stop": False})
>>> v = fold.view()
>>> v["top"], v["hand_sizes"], v["running"]
('7S', [2, 3], True)
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

COMPASS = {4: ["South", "West", "North", "East"], 2: ["South", "North"]}


class PublicBoard:
    """The spectator's board of one game, moved on event by event."""

    def __init__(self, ruleset: str, seats: int, family: str | None = None) -> None:
        import engine

        self.family = family or engine.ruleset(ruleset).family
        self.v: dict[str, Any] = {
            "ruleset": ruleset,
            "preset": ruleset,
            "family": self.family,
            "seats": seats,
            "viewer": None,
            "to_act": None,
            "scores": [0] * seats,
            "hand": None,
            "hand_sizes": [0] * seats,
        }
        self.dealt = False
        if self.family == "abbott":
            self.v |= {
                "seat_names": COMPASS.get(seats, []),
                "collections": [[] for _ in range(seats)],
            }

    def apply(self, ev: dict[str, Any]) -> None:
        """Fold one event in (kinds the board does not show change nothing)."""
        kind, v, seat = ev.get("kind"), self.v, ev.get("seat")
        if kind == "deal":
            self._deal(ev)
        elif kind in _BY_SEAT and isinstance(seat, int):
            _BY_SEAT[kind](v, seat, ev)
        elif kind == "nominate":
            v["nominated"] = ev.get("suit")
        elif kind in ("hand_end", "game_end") and isinstance(ev.get("scores"), list):
            v["scores"] = list(ev["scores"])
            v["over"] = kind == "game_end"

    def _deal(self, ev: dict[str, Any]) -> None:
        v = self.v
        self.dealt = True
        for key in ("dealer", "hand_number", "hand_sizes", "top", "grid", "first"):
            if key in ev:
                v[key] = copy.deepcopy(ev[key])
        if "grid" in ev:
            v["size"] = len(ev["grid"])
            v["pieces"] = list(ev.get("pieces") or [])
            v["collections"] = [[] for _ in range(v["seats"])]
        v["to_act"] = None  # whose turn is not in every event: no marker rather than a stale one
        v["running"] = False
        v["in_hand"] = [True] * v["seats"]
        v["knocked_out"], v["finished"] = [], []

    def view(self) -> dict[str, Any] | None:
        """The board as it stands (``None`` before the deal: nothing to draw)."""
        return copy.deepcopy(self.v) if self.dealt else None


def _move(v: dict[str, Any], seat: int, ev: dict[str, Any]) -> None:
    if "pieces" in v:
        v["pieces"][seat] = ev.get("to")


def _take(v: dict[str, Any], seat: int, ev: dict[str, Any]) -> None:
    if "grid" not in v:
        return
    square = str(ev.get("square", ""))
    if len(square) == 2:
        file, rank = "abcdef".index(square[0]), int(square[1]) - 1
        v["grid"][rank][file] = None
    v["collections"][seat].append(ev.get("card"))


def _play(v: dict[str, Any], seat: int, ev: dict[str, Any]) -> None:
    cards = ev.get("cards") or ([ev["card"]] if ev.get("card") else [])
    if cards:
        v["top"] = cards[-1]
        v["hand_sizes"][seat] = max(0, v["hand_sizes"][seat] - len(cards))
    v["running"] = not ev.get("stop")
    v["leader"] = seat
    v["nominated"] = None  # a play answers a named suit
    if isinstance(ev.get("score"), int):  # kilodney: the player's running total
        v["scores"][seat] = ev["score"]


def _draw(v: dict[str, Any], seat: int, ev: dict[str, Any]) -> None:
    v["hand_sizes"][seat] += int(ev.get("count") or 0)


def _knockout(v: dict[str, Any], seat: int, ev: dict[str, Any]) -> None:
    v["knocked_out"].append(seat)
    v["in_hand"][seat] = False
    v["running"] = False


def _out(v: dict[str, Any], seat: int, ev: dict[str, Any]) -> None:
    v["finished"].append(seat)


#: The events a seat makes, and what each changes on the public board.
_BY_SEAT: dict[str, Callable[[dict[str, Any], int, dict[str, Any]], None]] = {
    "move": _move,
    "take": _take,
    "play": _play,
    "draw": _draw,
    "knockout": _knockout,
    "out": _out,
}
