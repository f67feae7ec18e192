"""Events in words: one line of the table's log for each thing that happened.

The server sends each event as the engine presented it to this seat (a dict
with ``kind`` and fields; see ``engine.events``). Kinds a person reads often
get a sentence; any other kind (a new family, a new table event) still gets a
readable line of its fields, so nothing is silently dropped.

>>> from prompt_toolkit.formatted_text import fragment_list_to_text as text
>>> names = ["ann", "bob"]
>>> text(describe_event({"kind": "play", "seat": 1, "cards": ["QH", "QS"]}, names, True))
'bob plays QH QS'
>>> text(describe_event({"kind": "draw", "seat": 0, "count": 2, "cards": ["2C", "3C"]}, names))
'ann draws 2: 2♣ 3♣'
>>> text(describe_event({"kind": "wobble", "seat": 0, "size": 3}, names))
'ann: wobble size=3'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from prompt_toolkit.formatted_text import StyleAndTextTuples

from client.cards import SUIT_NAMES, cards_fragments

Names = Sequence[str | None]


def _name(names: Names, seat: Any) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names) and names[seat]:
        return str(names[seat])
    return f"seat {seat}"


def _cards(ev: dict[str, Any], ascii_only: bool) -> StyleAndTextTuples:
    cards = ev.get("cards")
    if cards is None and ev.get("card"):
        cards = [ev["card"]]
    return cards_fragments(list(cards or []), ascii_only)


def describe_event(
    ev: dict[str, Any], names: Names, ascii_only: bool = False
) -> StyleAndTextTuples:
    """One line for ``ev`` (an engine event as presented to us)."""
    kind = str(ev.get("kind", "?"))
    who = _name(names, ev.get("seat"))
    out: StyleAndTextTuples = []
    if kind == "play":
        out = [("class:log.seat", who), ("", " plays "), *_cards(ev, ascii_only)]
        if ev.get("last"):
            out.append(("class:warn", " (last card!)"))
        if ev.get("points"):
            out.append(("class:score", f" ({ev['points']:+d})"))
        if ev.get("left"):
            out.append(("", " and is out"))
    elif kind == "draw":
        out = [("class:log.seat", who), ("", f" draws {ev.get('count', '')}".rstrip())]
        if ev.get("cards"):
            out += [("", ": "), *_cards(ev, ascii_only)]
    elif kind == "move":
        square = ev.get("square") or ev.get("to") or ""
        out = [("class:log.seat", who), ("", f" moves to {square}")]
        if ev.get("card"):
            out += [("", ", takes "), *_cards({"card": ev["card"]}, ascii_only)]
    elif kind == "take":
        out = [("class:log.seat", who), ("", " takes "), *_cards(ev, ascii_only)]
    elif kind == "ally":
        partner = _name(names, ev.get("partner"))
        out = [("class:log.seat", who), ("", " allies with "), ("class:log.seat", partner)]
    elif kind == "nominate":
        suit = str(ev.get("suit", ""))
        out = [("class:log.seat", who), ("", f" names {SUIT_NAMES.get(suit, suit)}")]
    elif kind == "knockout":
        by = _name(names, ev.get("by"))
        out = [
            ("class:log.seat", who),
            ("", f" is knocked out ({ev.get('count', '?')} cards to "),
            ("class:log.seat", by),
            ("", ")"),
        ]
    elif kind == "last":
        out = [("class:log.seat", who), ("class:warn", ": last card!")]
    elif kind == "deal":
        hand = ev.get("hand_number")
        out = [("class:log.event", f"Hand {hand}: " if hand else "New hand: ")]
        if ev.get("dealer") is not None:
            out.append(("", f"{_name(names, ev['dealer'])} deals"))
    elif kind in ("hand_end", "game_end"):
        title = "Hand over" if kind == "hand_end" else "Game over"
        out = [("class:log.event", title)]
        winner = ev.get("winner", ev.get("seat") if kind == "game_end" else None)
        if winner is not None:
            out.append(("", f": {_name(names, winner)} wins"))
        if ev.get("scores") is not None:
            scores = ", ".join(f"{_name(names, s)} {v}" for s, v in enumerate(ev["scores"]))
            out.append(("class:score", f"{' -' if ascii_only else ' ·'} scores {scores}"))
    elif kind in ("skip", "miss", "pass", "reverse", "cancel", "out", "concede", "vote"):
        words = {
            "skip": " is skipped",
            "miss": f" misses {ev.get('turns', 1)} turn(s)",
            "pass": " passes",
            "reverse": " reverses the direction",
            "cancel": " cancels the pick-up",
            "out": " is out",
            "concede": " concedes",
            "vote": " votes to end the hand",
        }
        out = [("class:log.seat", who), ("", words[kind])]
    else:
        rest = " ".join(
            f"{k}={v}" for k, v in ev.items() if k not in ("kind", "seat") and len(str(v)) < 40
        )
        out = [("class:log.seat", who), ("", f": {kind}" + (f" {rest}" if rest else ""))]
        if ev.get("seat") is None:
            out = [("class:log.event", kind + (f" {rest}" if rest else ""))]
    return out
