"""Crad Kilodney's Switch: the ``kilodney`` ruleset (see ``game.py``).

>>> import engine
>>> engine.ruleset("kilodney").describe()["max_seats"]
9
"""

from __future__ import annotations

from engine.registry import register

from .game import (
    MAX_EXTRA_JOKERS,
    STANDARD_DECK,
    STANDARD_JOKERS,
    TARGET,
    Kilodney,
    deck_for_hands,
    default_extra_jokers,
    follows,
    hand_order,
    score_play,
)

register(
    "kilodney",
    Kilodney,
    "Crad Kilodney's Switch: the whole deck dealt; follow suit or face or be knocked out;"
    " first to 50",
)

__all__ = [
    "MAX_EXTRA_JOKERS",
    "STANDARD_DECK",
    "STANDARD_JOKERS",
    "TARGET",
    "Kilodney",
    "deck_for_hands",
    "default_extra_jokers",
    "follows",
    "hand_order",
    "score_play",
]
