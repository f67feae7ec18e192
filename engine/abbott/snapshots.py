"""An abbott game's state as plain data for ``Game.snapshot``, and back.

The layout is the snapshot format (``Abbott.snapshot_format``): changing a key or
what it holds means bumping the format, so an older snapshot is refused rather
than misread. Cards are stored as their faces, squares as indexes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.cards import FULL_PACK, format_cards

from .state import HandState, MatchState, actor_of

#: Each card by its face, for reading snapshots (``Card.parse`` reads what people type).
_FACES = {str(c): c for c in FULL_PACK}


def snapshot_state(state: HandState, match: MatchState) -> dict[str, Any]:
    """Every piece of state that actions change, as plain data sharing nothing."""
    return {
        "scores": list(match.scores),
        "hand_scores": [list(h) for h in match.hand_scores],
        "winner": match.winner,
        "over": match.over,
        "packs": [format_cards(p) for p in match.packs],
        "dealer": match.dealer,
        "hand_number": match.hand_number,
        "grid": [None if c is None else str(c) for c in state.grid],
        "grid_bits": list(state.grid_bits),
        "grid_mask": state.grid_mask,
        "unused": format_cards(state.unused),
        "pieces": list(state.pieces),
        "collections": [format_cards(c) for c in state.collections],
        "masks": list(state.masks),
        "values": list(state.values),
        "turn": state.turn,
        "turns_taken": list(state.turns_taken),
        "alliance": None if state.alliance is None else list(state.alliance),
        "power": state.power,
        "proxy": None if state.proxy is None else list(state.proxy),
        "votes": list(state.votes),
        "conceded": list(state.conceded),
        "stall": state.stall,
    }


def _pair(value: Any) -> tuple[int, int] | None:
    return None if value is None else (value[0], value[1])


def restore_state(data: Mapping[str, Any]) -> tuple[HandState, MatchState]:
    """The state ``snapshot_state`` gave (after a msgpack round trip: lists for tuples)."""
    match = MatchState(
        scores=list(data["scores"]),
        hand_scores=[list(h) for h in data["hand_scores"]],
        winner=data["winner"],
        over=bool(data["over"]),
        packs=[[_FACES[c] for c in p] for p in data["packs"]],
        dealer=data["dealer"],
        hand_number=data["hand_number"],
    )
    proxy = _pair(data["proxy"])
    return HandState(
        grid=[None if c is None else _FACES[c] for c in data["grid"]],
        grid_bits=list(data["grid_bits"]),
        grid_mask=data["grid_mask"],
        unused=[_FACES[c] for c in data["unused"]],
        pieces=list(data["pieces"]),
        collections=[[_FACES[c] for c in cards] for cards in data["collections"]],
        masks=list(data["masks"]),
        values=list(data["values"]),
        turn=data["turn"],
        turns_taken=list(data["turns_taken"]),
        alliance=_pair(data["alliance"]),
        power=data["power"],
        proxy=proxy,
        actor=actor_of(data["turn"], proxy),
        votes=list(data["votes"]),
        conceded=list(data["conceded"]),
        stall=data["stall"],
    ), match
