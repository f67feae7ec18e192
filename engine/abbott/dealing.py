"""Before a hand: the cut for the first dealer, and the packs a test's deck fixes.

>>> import random
>>> dealer, event = cut(random.Random(3), 4)
>>> event.kind, event.public["dealer"] == dealer
('cut', True)
"""

from __future__ import annotations

import random

from engine.abbott import vocabulary as v
from engine.cards import FULL_PACK, Card, shuffled
from engine.errors import OptionError
from engine.events import Event

#: Cards in a pack: a deck longer than this fixes one hand per whole pack.
PACK = 52


def split_deck(deck: list[Card] | None, size: int) -> list[list[Card]]:
    """The fixed packs, one per hand: ``deck`` fixes the first hand's grid from its
    front; a deck of several whole packs (104, 156, ... cards) fixes that many hands,
    so a test can script a whole game. Later hands shuffle."""
    if deck is None:
        return []
    cells = size * size
    if len(deck) <= PACK:
        packs = [deck]
    elif len(deck) % PACK == 0:
        packs = [deck[i : i + PACK] for i in range(0, len(deck), PACK)]
    else:
        raise OptionError(
            "deck", f"give up to 52 cards, or whole packs of 52; got {len(deck)} cards"
        )
    for k, pack in enumerate(packs, 1):
        if len(pack) < cells:
            raise OptionError("deck", f"the {size}x{size} grid needs {cells} cards")
        if any(c.is_joker for c in pack) or len(set(pack)) != len(pack):
            raise OptionError(
                "deck", f"pack {k} must hold distinct standard cards (no jokers, no repeats)"
            )
    return packs


def cut(rng: random.Random, seats: int) -> tuple[int, Event]:
    """Cut for the first dealer: lowest card deals (ace high); ties cut again."""
    pack = shuffled(FULL_PACK, rng)
    contenders = list(range(seats))
    rounds = []
    while True:
        if len(pack) < len(contenders):
            pack = shuffled(FULL_PACK, rng)
        draws = {s: pack.pop() for s in contenders}
        rounds.append([[s, str(c)] for s, c in draws.items()])
        low = min(c.value for c in draws.values())
        contenders = [s for s in contenders if draws[s].value == low]
        if len(contenders) == 1:
            dealer = contenders[0]
            cut: v.AbbottCutFields = {"seat": dealer, "dealer": dealer, "draws": rounds}
            return dealer, Event("cut", cut)
