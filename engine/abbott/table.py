"""An abbott table's fixed part: its house rules and the board's lookups.

Everything here is settled when the table is made and never changes during the
game, so a game's copies share one ``TableRules`` (a search copies its worlds
thousands of times a move) and the modules that read the hand and act on it take
it beside the state.

>>> rules = TableRules.of(4, SCHEMA.resolve({}))
>>> rules.size, rules.target, rules.stall_limit, rules.names[1]
(6, 20, 12, 'West')
>>> rules.seat_named("1"), rules.seat_named("east"), rules.seat_named("nobody")
(1, 3, None)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.actions import Ally, Move
from engine.errors import OptionError
from engine.options import Option, OptionSchema

from .board import SEAT_NAMES, SIZES, START_SQUARES, square_index, square_name

#: Game score from which an alliance gives its holder the partner's moves.
POWER_SCORE = 16

SCHEMA = OptionSchema(
    [
        Option(
            "alliance_from_round",
            1,
            "first round in which a player may name a partner (the 001 table style uses 4)",
            minimum=1,
            maximum=100,
        ),
        Option(
            "end_when_decided",
            True,
            "end the hand as soon as nobody can beat or tie the leader, even taking every card",
        ),
        Option(
            "stall_limit",
            0,
            "turns in a row with no card taken that end the hand (0: three times the players)",
            minimum=0,
            maximum=1000,
        ),
        Option(
            "target",
            0,
            "game score that ends the game (0: 20 for four players, 40 for two)",
            minimum=0,
            maximum=1000,
        ),
    ]
)


@dataclass(frozen=True, slots=True)
class TableRules:
    """The table's size and house rules, and the board's names and actions built once."""

    seats: int
    size: int  # squares on a side
    cells: int  # squares on the board
    names: tuple[str, ...]  # the seats' compass names
    target: int  # the game score that wins
    stall_limit: int  # turns in a row with no card taken that end a hand
    alliance_from_round: int
    end_when_decided: bool
    #: A seat by its lower-case name or its number as text (``ally west``, ``ally 1``).
    name_to_seat: Mapping[str, int]
    starts: tuple[int, ...]  # each seat's start square
    squares: Mapping[str, int]  # a square's index by its name
    square_names: tuple[str, ...]  # a square's name by its index
    #: Actions are immutable values: each is built once and listed without allocating.
    move_actions: tuple[Move, ...]  # by square index
    ally_actions: tuple[Ally, ...]  # by seat

    @classmethod
    def of(cls, seats: int, options: Mapping[str, Any]) -> TableRules:
        """The rules of a table of ``seats`` with these (resolved) options."""
        if seats not in SIZES:
            raise OptionError("seats", f"abbott is for 2 or 4 players, not {seats}")
        size = SIZES[seats]
        names: tuple[str, ...] = SEAT_NAMES[seats]
        to_seat = {name.lower(): s for s, name in enumerate(names)}
        to_seat.update({str(s): s for s in range(seats)})
        square_names = tuple(square_name(i, size) for i in range(size * size))
        return cls(
            seats=seats,
            size=size,
            cells=size * size,
            names=names,
            target=options["target"] or (20 if seats == 4 else 40),
            stall_limit=options["stall_limit"] or 3 * seats,
            alliance_from_round=options["alliance_from_round"],
            end_when_decided=options["end_when_decided"],
            name_to_seat=to_seat,
            starts=tuple(square_index(s, size) for s in START_SQUARES[seats]),
            squares={name: i for i, name in enumerate(square_names)},
            square_names=square_names,
            move_actions=tuple(Move(name) for name in square_names),
            ally_actions=tuple(Ally(name.lower()) for name in names),
        )

    def seat_named(self, name: str) -> int | None:
        """The seat ``name`` names (its compass name in any case, or its number)."""
        return self.name_to_seat.get(name.lower())
