"""Robert Abbott's Switch: the ``abbott`` ruleset (see ``game.py``).

>>> import engine
>>> engine.ruleset("abbott").describe()["max_seats"]
4
"""

from __future__ import annotations

from engine.registry import register

from .board import SEAT_NAMES, SIZES, START_SQUARES, rook_moves, square_index, square_name
from .game import Abbott
from .scoring import game_winner, hand_points, hand_winner

register(
    "abbott",
    Abbott,
    "Robert Abbott's Switch: rook-moving pieces take face-up cards from a grid;"
    " one alliance per hand; best poker hand scores; 4 players (6x6) or 2 (5x5)",
)

__all__ = [
    "SEAT_NAMES",
    "SIZES",
    "START_SQUARES",
    "Abbott",
    "game_winner",
    "hand_points",
    "hand_winner",
    "rook_moves",
    "square_index",
    "square_name",
]
