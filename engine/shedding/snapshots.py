"""A shedding game's state as plain data for ``Game.snapshot``, and back.

The layout is the snapshot format (``SheddingGame.snapshot_format``): changing a
key or what it holds means bumping the format, so an older snapshot is refused
rather than misread. Kinds are stored as their words, cards as codes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.shedding.state import Awaiting, HandState, MatchState, Pending


def snapshot_state(state: HandState, match: MatchState) -> dict[str, Any]:
    """Every piece of state that actions change, as plain data sharing nothing."""
    pending = state.pending
    return {
        "total_scores": list(match.total_scores),
        "hand_scores": [list(h) for h in match.hand_scores],
        "hand_number": match.hand_number,
        "game_over": match.game_over,
        "deck_size": state.deck_size,
        "dealer": state.dealer,
        "hands": [list(h) for h in state.hands],
        "stock": list(state.stock),
        "pile": list(state.pile),
        "turn": state.turn,
        "direction": state.direction,
        "nominated": state.nominated,
        "pending": None if pending is None else pending.to_data(),
        "awaiting": None if state.awaiting is None else str(state.awaiting),
        "drawn": list(state.drawn),
        "after_suit": state.after_suit,
        "going_on": state.going_on,
        "finished": list(state.finished),
        "announced": sorted(state.announced),
        "owing": state.owing,
        "caller": state.caller,
        "misses": list(state.misses),
        "idle": state.idle,
        "turns": state.turns,
        "hand_over": state.hand_over,
        "hand_points": list(state.hand_points),
    }


def restore_state(data: Mapping[str, Any]) -> tuple[HandState, MatchState]:
    """The state ``snapshot_state`` gave (after a msgpack round trip: lists for tuples)."""
    pending = data["pending"]
    awaiting = data["awaiting"]
    match = MatchState(
        total_scores=list(data["total_scores"]),
        hand_scores=[list(h) for h in data["hand_scores"]],
        hand_number=data["hand_number"],
        game_over=bool(data["game_over"]),
    )
    state = HandState(
        dealer=data["dealer"],
        deck_size=data["deck_size"],
        hands=[list(h) for h in data["hands"]],
        stock=list(data["stock"]),
        pile=list(data["pile"]),
        turn=data["turn"],
        direction=data["direction"],
        nominated=data["nominated"],
        pending=None if pending is None else Pending.from_data(pending),
        awaiting=None if awaiting is None else Awaiting(awaiting),
        drawn=list(data["drawn"]),
        after_suit=data["after_suit"],
        going_on=bool(data["going_on"]),
        finished=list(data["finished"]),
        announced=set(data["announced"]),
        owing=data["owing"],
        caller=data["caller"],
        misses=list(data["misses"]),
        idle=data["idle"],
        turns=data["turns"],
        hand_over=bool(data["hand_over"]),
        hand_points=list(data["hand_points"]),
    )
    return state, match
