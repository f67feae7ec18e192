"""Robert Abbott's Switch: the ``abbott`` ruleset (see ``game.py``).

The package in rooms: ``board`` (squares and rook moves) and ``scoring`` (the
scoring table) are pure functions; ``table`` holds what is fixed at a table (house
rules, the board's names and actions), ``state`` what actions change (the hand and
the match, changed only through their methods), ``dealing`` the cut and a test's
fixed packs; ``legality`` says what a seat may do and why not, ``resolve`` what an
action does, ``views`` and ``snapshots`` turn the state into plain data and back;
``game`` wires them to the engine's ``Game`` contract.

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
