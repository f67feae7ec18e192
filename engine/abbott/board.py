"""The abbott board: squares, start squares and rook moves that stop at pieces.

Kept apart from the game so that the geometry (which a bot, a hint and the
client also reason about) has one home and can be tested on its own. A square
is an index ``rank * size + file`` (``0`` is ``a1``, South's left corner).

>>> square_name(square_index("c4", 6), 6)
'c4'
>>> [square_name(s, 6) for s in rook_moves(0, 6, {0, 5, 30})]
['b1', 'c1', 'd1', 'e1', 'a2', 'a3', 'a4', 'a5']
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Final

FILES: Final = "abcdef"

#: Seat names, clockwise from South, by number of players.
SEAT_NAMES: Final = {4: ("South", "West", "North", "East"), 2: ("South", "North")}

#: Each seat's start square: the left end of the row (or column) nearest it.
START_SQUARES: Final = {4: ("a1", "a6", "f6", "f1"), 2: ("a1", "e5")}

#: Board size by number of players.
SIZES: Final = {4: 6, 2: 5}


def square_name(index: int, size: int) -> str:
    """``0 -> "a1"``: files left to right, ranks from South's side."""
    return f"{FILES[index % size]}{index // size + 1}"


def square_index(name: str, size: int) -> int:
    """``"c4" -> 20`` on a 6x6 board; ``ValueError`` if the square is off the board."""
    if len(name) != 2 or name[0] not in FILES[:size] or not name[1].isdigit():
        raise ValueError(f"{name!r} is not a square of the {size}x{size} board")
    rank = int(name[1])
    if not 1 <= rank <= size:
        raise ValueError(f"{name!r} is not a square of the {size}x{size} board")
    return FILES.index(name[0]) + (rank - 1) * size


def _ray_tables(size: int) -> list[tuple[tuple[int, ...], ...]]:
    """For each square, its four rook rays outward, nearest square first
    (right, left, up, down: the order ``rook_moves`` lists moves in)."""
    out = []
    for sq in range(size * size):
        f, r = sq % size, sq // size
        rays = (
            tuple(r * size + x for x in range(f + 1, size)),
            tuple(r * size + x for x in range(f - 1, -1, -1)),
            tuple(y * size + f for y in range(r + 1, size)),
            tuple(y * size + f for y in range(r - 1, -1, -1)),
        )
        out.append(tuple(ray for ray in rays if ray))
    return out


RAYS: Final = {size: _ray_tables(size) for size in SIZES.values()}


def rook_moves(square: int, size: int, pieces: Collection[int]) -> list[int]:
    """Every square a piece on ``square`` may move to: along its row or column,
    stopping before the first square that holds a piece (blanks are crossed).
    Listed right, left, up, down, nearest first."""
    out = []
    for ray in RAYS[size][square]:
        for sq in ray:
            if sq in pieces:
                break
            out.append(sq)
    return out


def has_move(square: int, size: int, pieces: Collection[int]) -> bool:
    """Whether the piece on ``square`` can move at all: a neighbour is free."""
    return any(ray[0] not in pieces for ray in RAYS[size][square])


def first_blocker(start: int, dest: int, size: int, pieces: Collection[int]) -> int | None:
    """The first square holding a piece on the straight path from ``start`` to
    ``dest`` (``dest`` included), or ``None`` if the path is clear. Both squares
    must share a row or a column."""
    if start // size == dest // size:
        step = 1 if dest > start else -1
    else:
        step = size if dest > start else -size
    sq = start
    while sq != dest:
        sq += step
        if sq in pieces:
            return sq
    return None


def in_line(a: int, b: int, size: int) -> bool:
    """Whether two squares share a row or a column."""
    return a // size == b // size or a % size == b % size
