"""A table's power cards compiled to flat per-card arrays (cached per option set).

The rules machine asks "is this card wild?", "what stacks on it?" many times a
turn; answering from a tuple indexed by the card's int is the cheapest way
Python offers, and tables with the same options share one compiled copy.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.shedding.codes import CARD, RANK, SUIT, code
from engine.shedding.rules import compile_powers

_KEYS = (
    "pickup",
    "stack",
    "cancel",
    "skip",
    "miss",
    "reverse",
    "wild",
    "nominate",
    "go_on",
    "cover",
    "suit_run",
    "swap",
    "together",
    "no_end",
    "pickup_together",
    "red_jacks_add",
)


@dataclass(frozen=True, slots=True)
class PowerTable:
    """Per-card answers, each a tuple indexed by the card's int (0..52)."""

    pickup: tuple[int, ...]
    wild: tuple[bool, ...]
    nominate: tuple[bool, ...]
    go_on: tuple[bool, ...]
    skip: tuple[bool, ...]
    miss: tuple[bool, ...]
    reverse: tuple[bool, ...]
    cover: tuple[bool, ...]
    suit_run: tuple[bool, ...]
    swap: tuple[bool, ...]
    together: tuple[bool, ...]
    no_end: tuple[bool, ...]
    power: tuple[bool, ...]
    points: tuple[int, ...]
    sig: tuple[int, ...]  # cards with equal sig do the same thing
    cancels: tuple[frozenset[int] | None, ...]
    cancels_every: tuple[frozenset[int] | None, ...]
    cancels_all: tuple[bool, ...]
    #: what laying it on a waiting pick-up adds: its own pick-up, or a red jack's ``adds``
    raises: tuple[int, ...]
    pickup_together: bool  # pick-up cards may be laid together in any mix (J 2 2 2 2)
    #: what may be stacked on a pending pick-up topped by it: the cards that the table's
    #: stacking rules allow on it and that raise the pick-up
    stack_on: tuple[frozenset[int], ...]
    any_multi: bool  # whether any multi-card play can exist at this table
    any_chain: bool  # whether any card may follow another as a set, run or together
    any_cancel: bool  # whether any card cancels a pick-up
    #: ``follows[suit * 14 + rank + 1][c]``: whether card ``c`` may be laid on a pile
    #: asking for that suit (the top's or the nominated one) or the top's rank (-1 for
    #: a joker): the listing of every turn reads one row instead of testing each card.
    follows: tuple[tuple[bool, ...], ...]


_CACHE: dict[tuple[Any, ...], PowerTable] = {}


def power_table(options: dict[str, Any]) -> PowerTable:
    """The compiled table for these options."""
    key = (*(options[k] for k in _KEYS), options["combos"])
    table = _CACHE.get(key)
    if table is None:
        table = _compile(options)
        if len(_CACHE) < 1000:
            _CACHE[key] = table
    return table


def _compile(options: dict[str, Any]) -> PowerTable:
    powers, stack = compile_powers(options)
    ps = [powers[c] for c in CARD]
    wild = tuple(p.wild for p in ps)
    sigs: dict[tuple[Any, ...], int] = {}
    sig = tuple(sigs.setdefault(p.signature(), len(sigs)) for p in ps)
    together_pickups = bool(options["pickup_together"]) and sum(p.pickup > 0 for p in ps) > 1
    chains = options["combos"] != "single" or together_pickups or any(p.together for p in ps)
    raises = tuple(p.pickup or p.adds for p in ps)
    return PowerTable(
        pickup=tuple(p.pickup for p in ps),
        wild=wild,
        nominate=tuple(p.nominate for p in ps),
        go_on=tuple(p.go_on for p in ps),
        skip=tuple(p.skip for p in ps),
        miss=tuple(p.miss for p in ps),
        reverse=tuple(p.reverse for p in ps),
        cover=tuple(p.cover for p in ps),
        suit_run=tuple(p.suit_run for p in ps),
        swap=tuple(p.swap for p in ps),
        together=tuple(p.together for p in ps),
        no_end=tuple(p.no_end for p in ps),
        power=tuple(p.power for p in ps),
        points=tuple(p.points for p in ps),
        sig=sig,
        cancels=tuple(
            None if p.cancels is None else frozenset(code(c) for c in p.cancels) for p in ps
        ),
        cancels_every=tuple(
            None if p.cancels_every is None else frozenset(code(c) for c in p.cancels_every)
            for p in ps
        ),
        cancels_all=tuple(p.cancels_all for p in ps),
        raises=raises,
        pickup_together=together_pickups,
        stack_on=tuple(
            frozenset(code(x) for x in stack.get(c, ()) if raises[code(x)]) for c in CARD
        ),
        any_multi=chains or any(p.suit_run for p in ps),
        any_chain=chains,
        any_cancel=any(
            p.cancels is not None or p.cancels_every is not None or p.cancels_all for p in ps
        ),
        follows=tuple(
            tuple(wild[c] or SUIT[c] == s or RANK[c] == r for c in range(len(CARD)))
            for s in range(4)
            for r in range(-1, 13)
        ),
    )
