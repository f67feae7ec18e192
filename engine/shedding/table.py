"""A table's power cards compiled to flat per-card arrays (cached per option set).

The rules machine asks "is this card wild?", "what stacks on it?" many times a
turn; answering from a tuple indexed by the card's int is the cheapest way
Python offers, and tables with the same options share one compiled copy.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.shedding.codes import CARD, JK, RANK, SUIT, code
from engine.shedding.powers import NAMES
from engine.shedding.rules import compile_powers

#: The options a compiled table depends on: the declared powers' and these.
_KEYS = (
    "pickup",
    "stack",
    "cancel",
    *NAMES,
    "together",
    "no_end",
    "pickup_together",
    "red_jacks_add",
)


@dataclass(frozen=True)
class PowerTable:
    """Per-card answers, each a tuple indexed by the card's int (0..52).

    Each declared power (``engine.shedding.powers``) is an attribute of its own besides
    the fields: ``pt.skip[card]``, set from ``flags`` as the table is made, so a new power
    needs no line here. (No slots, so that they can be; and no ``__getattr__`` at run
    time, which would slow every attribute read of the rules' inner loops: mypy alone
    sees one, typing them.)"""

    pickup: tuple[int, ...]
    #: each declared power's answer per card, by name (also an attribute: ``pt.skip``)
    flags: Mapping[str, tuple[bool, ...]]
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
    any_suit_run: bool  # whether any card takes its suit with it (Black Jack's red jack)
    any_cancel: bool  # whether any card cancels a pick-up
    #: ``follows[suit * 14 + rank + 1][c]``: whether card ``c`` may be laid on a pile
    #: asking for that suit (the top's or the nominated one) or the top's rank (-1 for
    #: a joker): the listing of every turn reads one row instead of testing each card.
    follows: tuple[tuple[bool, ...], ...]
    #: ``steps[prev][nxt]``: how ``nxt`` may follow ``prev`` in one play: ``KEEP`` (as a
    #: set, a chain or pick-up cards together: the run's direction stays), ``1`` or
    #: ``-1`` (a run, up or down: only along the run's direction) or ``None`` (it may
    #: not). The search for multi-card plays reads it instead of working it out per pair.
    steps: tuple[tuple[int | None, ...], ...]

    def __post_init__(self) -> None:
        for name, answers in self.flags.items():
            object.__setattr__(self, name, answers)

    if TYPE_CHECKING:

        def __getattr__(self, name: str) -> tuple[bool, ...]:
            """A declared power's answers per card (set by ``__post_init__``)."""
            ...


#: In ``PowerTable.steps``: the card follows as one of a set; the direction stays.
KEEP = 0

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
    flags = {name: tuple(name in p.effects for p in ps) for name in NAMES}
    wild = flags["wild"]
    sigs: dict[tuple[Any, ...], int] = {}
    sig = tuple(sigs.setdefault(p.signature(), len(sigs)) for p in ps)
    together_pickups = bool(options["pickup_together"]) and sum(p.pickup > 0 for p in ps) > 1
    chains = options["combos"] != "single" or together_pickups or any(p.together for p in ps)
    raises = tuple(p.pickup or p.adds for p in ps)
    together = tuple(p.together for p in ps)
    pickup = tuple(p.pickup for p in ps)
    steps = tuple(
        tuple(
            _step(options["combos"], together_pickups, pickup, together, sig, a, b)
            for b in range(len(CARD))
        )
        for a in range(len(CARD))
    )
    return PowerTable(
        pickup=pickup,
        flags=flags,
        together=together,
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
        any_multi=chains or any(flags["suit_run"]),
        any_chain=chains,
        any_suit_run=any(flags["suit_run"]),
        any_cancel=any(
            p.cancels is not None or p.cancels_every is not None or p.cancels_all for p in ps
        ),
        follows=tuple(
            tuple(wild[c] or SUIT[c] == s or RANK[c] == r for c in range(len(CARD)))
            for s in range(4)
            for r in range(-1, 13)
        ),
        steps=steps,
    )


def _step(
    combos: str,
    pickup_together: bool,
    pickup: tuple[int, ...],
    together: tuple[bool, ...],
    sig: tuple[int, ...],
    prev: int,
    nxt: int,
) -> int | None:
    """How ``nxt`` may follow ``prev`` in one play (``PowerTable.steps``)."""
    if prev == JK or nxt == JK:
        return None
    if pickup_together and pickup[prev] and pickup[nxt]:
        return KEEP  # Black Jack's house rule: "J 2 2 2 2"
    same_rank = RANK[nxt] == RANK[prev]
    if combos == "chain":
        return KEEP if SUIT[nxt] == SUIT[prev] or same_rank else None
    if same_rank and (
        combos in ("sets", "mixed") or (together[prev] and together[nxt] and sig[prev] == sig[nxt])
    ):
        return KEEP
    if combos in ("runs", "mixed") and SUIT[nxt] == SUIT[prev]:
        d = RANK[nxt] - RANK[prev]
        if d in (1, -1):
            return d
    return None


@dataclass(frozen=True, slots=True)
class TableRules:
    """Everything a table's options decide, read once when the game is made: the power
    table, and the options the rules read as they play (``options["combos"]`` on every
    card would be a dict lookup each time)."""

    pt: PowerTable
    seats: int
    decks: int
    hand_size: int
    #: whether a seat announces its last card
    announce: bool
    #: Black Jack's "cards" call: an announcement before going out with several cards
    cards_call: bool
    combos: str
    draw: int | str
    play_drawn: bool
    skip_chain: bool
    draw_when_able: bool
    start_power: bool
    jokers: int
    finish: str
    target: int
    last_penalty: int
    illegal_penalty: int
    end_penalty: int
    #: whether every play is one card and no cards call rides on it: the common
    #: table, whose ordinary turn ``legal_actions`` lists the short way
    one_card_plays: bool


def table_rules(options: dict[str, Any], seats: int) -> TableRules:
    """The rules of a table of ``seats`` with these (resolved) options."""
    big = seats > 4 and options["big_table_hand_size"]
    announce = bool(options["last_card"])
    cards_call = announce and bool(options["cards_call"])
    pt = power_table(options)
    return TableRules(
        pt=pt,
        seats=seats,
        decks=options["decks"] or (2 if seats > 5 else 1),
        hand_size=options["big_table_hand_size"] if big else options["hand_size"],
        announce=announce,
        cards_call=cards_call,
        combos=options["combos"],
        draw=options["draw"],
        play_drawn=bool(options["play_drawn"]),
        skip_chain=bool(options["skip_chain"]),
        draw_when_able=bool(options["draw_when_able"]),
        start_power=bool(options["start_power"]),
        jokers=options["jokers"],
        finish=options["finish"],
        target=options["target"],
        last_penalty=options["last_penalty"],
        illegal_penalty=options["illegal_penalty"],
        end_penalty=options["end_penalty"],
        one_card_plays=not pt.any_multi and not cards_call,
    )
