"""``Game.copy()`` in every family: exact (the same state, views, legal actions and
record, and the same future: its generator continues where the original's is) and
independent (acting on the copy leaves the original as it was, and the other way round).

Positions come from random games of every ruleset, with the shedding house options
that add state of their own (go-on, the cards call, pick-ups laid together).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from shedding_house import fitting

import engine
from engine.actions import Play
from engine.game import Game
from engine.shedding import PRESETS

#: Attributes a family builds once per table and never changes: copies share them.
FIXED = {
    "abbott": {
        "_name_to_seat",
        "_squares",
        "_square_names",
        "_move_actions",
        "_ally_actions",
    },
    "shedding": set(),
    "kilodney": set(),
}

TABLES = (
    [("abbott", 2), ("abbott", 4)]
    + [("kilodney", n) for n in range(4, 10)]
    + [(preset, n) for preset, (_s, most, _d) in PRESETS.items() for n in (2, 4, most)]
)

HOUSE = [
    {},
    {"go_on": "J", "combos": "mixed"},
    {"cards_call": True, "pickup_together": True, "red_jacks_add": 3, "combos": "chain"},
    {"draw": "until", "play_drawn": False, "finish": "last_one", "jokers": 2},
]


def state(game: Game) -> dict[str, Any]:
    """Everything the contract shows of a game: every seat's view and legal actions,
    the spectator's view, the record."""
    seats = range(game.seats)
    return {
        "views": [game.view(s) for s in [*seats, None]],
        "legal": [[str(a) for a in game.legal_actions(s)] for s in seats],
        "record": game.record(),
        "to_act": game.to_act,
        "over": game.over,
        "scores": list(game.scores),
    }


def random_game(ruleset: str, seats: int, seed: int, steps: int, options: dict) -> Game:
    """A game ``steps`` random actions in (fewer if it ends), plays preferred so that
    hands move on."""
    game = engine.new_game(ruleset, seats=seats, seed=seed, options=options)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.over:
            break
        seat = game.to_act
        legal = game.legal_actions(seat)
        plays = [a for a in legal if isinstance(a, Play)]
        pick = plays if plays and rng.random() < 0.8 else legal
        game.apply(seat, pick[rng.randrange(len(pick))])
    return game


def options_for(ruleset: str, house: int) -> dict[str, Any]:
    return fitting(ruleset, HOUSE[house]) if ruleset in PRESETS else {}


def shared_containers(a: Game, b: Game) -> list[str]:
    """Attributes whose lists, dicts or sets (or the ones they hold) the two games share."""
    fixed = FIXED[a.family]
    shared = []
    for name, value in a.__dict__.items():
        other = b.__dict__[name]
        if name in fixed or not isinstance(value, list | dict | set):
            continue
        if value is other:
            shared.append(name)
            continue
        inner = value.values() if isinstance(value, dict) else value
        inner_b = other.values() if isinstance(other, dict) else other
        for x, y in zip(inner, inner_b, strict=False):
            if isinstance(x, list | dict | set) and x is y:
                shared.append(f"{name}[...]")
                break
    return shared


def play_both(a: Game, b: Game, seed: int, steps: int) -> None:
    """The same random actions on both games: the events and states must stay equal."""
    rng = random.Random(seed)
    for _ in range(steps):
        if a.over:
            break
        seat = a.to_act
        legal = a.legal_actions(seat)
        action = legal[rng.randrange(len(legal))]
        ea, eb = a.apply(seat, action), b.apply(seat, str(action))
        who = [*range(a.seats), None]
        assert [[e.present(s) for s in who] for e in ea] == [
            [e.present(s) for s in who] for e in eb
        ]
    assert state(a) == state(b)


@given(
    table=st.sampled_from(TABLES),
    seed=st.integers(0, 2**32),
    steps=st.integers(0, 120),
    house=st.integers(0, len(HOUSE) - 1),
)
def test_a_copy_is_exact_and_independent(
    table: tuple[str, int], seed: int, steps: int, house: int
) -> None:
    ruleset, seats = table
    game = random_game(ruleset, seats, seed, steps, options_for(ruleset, house))
    before = state(game)
    twin = game.copy()
    assert type(twin) is type(game)
    assert state(twin) == before
    assert shared_containers(game, twin) == []
    # independent: the copy plays on (a new hand's deal included), the original stands
    played, spare = game.copy(), game.copy()
    play_both(played, twin, seed + 1, 200)
    assert state(game) == before
    # exact: the original, played on, meets the same future as a copy
    play_both(game, spare, seed + 1, 200)
    assert state(game) == state(twin)


@pytest.mark.parametrize(("ruleset", "seats"), TABLES)
def test_a_copy_given_a_generator_deals_from_it(ruleset: str, seats: int) -> None:
    """A search's world: the copy's future deals come from the generator it is given."""
    game = random_game(ruleset, seats, 3, 10, {})
    one = game.copy(rng=random.Random(7))
    two = game.copy(rng=random.Random(7))
    assert state(one) == state(two) == state(game)
    assert one.rng is not two.rng and one.rng.getstate() == random.Random(7).getstate()
    play_both(one, two, 5, 300)


def test_copies_of_a_finished_game_and_of_a_fixed_deal() -> None:
    """A fixed deck is part of the record (and copied with it); a finished game copies too."""
    game = engine.new_game("kilodney", seats=4, seed=0, dealer=3, deck=None)
    fixed = engine.new_game(
        "switch", seats=2, seed=1, dealer=0, deck=[str(c) for c in engine.cards.make_deck()]
    )
    twin = fixed.copy()
    assert twin.record() == fixed.record() and twin.record()["deck"] is not fixed.record()["deck"]
    while not game.over:
        game.apply(game.to_act, game.legal_actions(game.to_act)[0])
    assert state(game.copy()) == state(game)
