"""Strategies: legal, fair (blind to hidden cards), deterministic, and better than chance.

The search strategies run at a tiny budget here; their strength is measured by
the arena (``bench/arena.py``), never asserted on timing.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from support import soak

import engine
from engine.abbott.game import Abbott
from engine.game import Game
from engine.kilodney.game import Kilodney, hand_order
from engine.strategies import default_strategy, get_strategy, strategies
from engine.strategies import kilodney as kil
from engine.strategies import shedding as shed
from engine.strategies.abbott_solver import cards_left, solve

SHEDDING = ["switch", "blackjack", "irish", "j28", "taketwo", "gamebot"]
TABLES = [("abbott", 2), ("abbott", 4), ("kilodney", 4), ("kilodney", 6)] + [
    (p, 4) for p in SHEDDING
]
TINY = {"iterations": 3, "depth": 6}


def make(name: str, family: str) -> Any:
    return get_strategy(name, family, **(TINY if name == "search" else {}))


def play(ruleset: str, seats: int, seed: int, names: list[str], max_actions: int = 3000) -> Game:
    """Play with ``names[s]`` in seat ``s``; every choice must be legal."""
    game = engine.new_game(ruleset, seats=seats, seed=seed)
    players = [make(n, game.family) for n in names]
    rngs = [random.Random(seed * 31 + s) for s in range(seats)]
    for event in getattr(game, "opening_events", []):
        for s, p in enumerate(players):
            if hasattr(p, "observe"):
                p.observe(event.present(s))
    for _ in range(max_actions):
        if game.over:
            break
        seat = game.to_act
        legal = game.legal_actions(seat)
        action = players[seat].choose(game.view(seat), legal, rngs[seat])
        assert action in legal, f"{names[seat]} chose {action} not in {legal}"
        for event in game.apply(seat, action):
            for s, p in enumerate(players):
                if hasattr(p, "observe"):
                    p.observe(event.present(s))
    return game


def test_every_family_has_the_three_strategies_and_heuristic_is_default() -> None:
    for family in ("abbott", "shedding", "kilodney"):
        assert {"random", "heuristic", "search"} <= set(strategies(family))
        assert default_strategy(family).name == "heuristic"


@pytest.mark.parametrize(("ruleset", "seats"), TABLES)
@pytest.mark.parametrize("name", ["heuristic", "random"])
def test_fast_strategies_play_whole_games_legally(ruleset: str, seats: int, name: str) -> None:
    for seed in range(soak(3, 300)):
        game = play(ruleset, seats, seed, [name] * seats)
        assert game.over


@pytest.mark.slow
@pytest.mark.parametrize(("ruleset", "seats"), TABLES)
def test_search_plays_legally(ruleset: str, seats: int) -> None:
    names = (["search", "heuristic", "random"] * 3)[:seats]
    for seed in range(soak(1, 40)):
        # A stretch of a game is enough to meet most states; long soaks play it out.
        play(ruleset, seats, seed, names, max_actions=soak(80, 100_000))


@pytest.mark.parametrize("name", ["heuristic", "search"])
@pytest.mark.parametrize("ruleset", ["abbott", "kilodney", "switch"])
def test_choices_are_deterministic_given_the_seed(ruleset: str, name: str) -> None:
    game = engine.new_game(ruleset, seats=4, seed=9)
    for _ in range(5):
        seat = game.to_act
        view, legal = game.view(seat), game.legal_actions(seat)
        a = make(name, game.family).choose(view, legal, random.Random(4))
        b = make(name, game.family).choose(copy.deepcopy(view), legal, random.Random(4))
        assert a == b
        game.apply(seat, a)


# ------------------------------------------------------- hidden information
def rehide(game: Game, seat: int, rng: random.Random) -> Game:
    """The same game with every card ``seat`` cannot see dealt differently."""
    other: Any = copy.deepcopy(game)
    if game.family == "kilodney":
        hidden = [s for s in range(game.seats) if s != seat]
        cards = [c for s in hidden for c in other.hands[s]]
        rng.shuffle(cards)
        for s in hidden:
            size = len(other.hands[s])
            other.hands[s], cards = cards[:size], cards[size:]
    else:
        hidden = [s for s in range(game.seats) if s != seat]
        under = other.pile[:-1]
        cards = [c for s in hidden for c in other.hands[s]] + other.stock + under
        rng.shuffle(cards)
        for s in hidden:
            size = len(other.hands[s])
            other.hands[s], cards = cards[:size], cards[size:]
        other.stock, cards = cards[: len(other.stock)], cards[len(other.stock) :]
        other.pile = cards + other.pile[-1:]
    return other


@pytest.mark.parametrize("name", ["heuristic", "search"])
@pytest.mark.parametrize(("ruleset", "seats"), [("kilodney", 5), ("switch", 4), ("blackjack", 3)])
def test_decisions_ignore_hidden_cards(ruleset: str, seats: int, name: str) -> None:
    rng = random.Random(2)
    checked = 0
    for seed in range(soak(4, 60)):
        game = engine.new_game(ruleset, seats=seats, seed=seed)
        walker = get_strategy("random", game.family)
        for _ in range(rng.randrange(1, 30)):
            if game.over:
                break
            seat = game.to_act
            game.apply(seat, walker.choose(game.view(seat), game.legal_actions(seat), rng))
        if game.over:
            continue
        seat = game.to_act
        twin = rehide(game, seat, rng)
        view, twin_view = game.view(seat), twin.view(seat)
        assert view == twin_view  # the visible part is the same ...
        assert [game.view(s)["hand"] for s in range(seats) if s != seat] != [
            twin.view(s)["hand"] for s in range(seats) if s != seat
        ] or all(not game.view(s)["hand"] for s in range(seats) if s != seat)
        legal = game.legal_actions(seat)
        assert legal == twin.legal_actions(seat)
        a = make(name, game.family).choose(view, legal, random.Random(seed))
        b = make(name, game.family).choose(twin_view, legal, random.Random(seed))
        assert a == b  # ... so the decision is the same
        checked += 1
    assert checked >= 2


# -------------------------------------------- worlds are consistent with views
def views_walk(
    ruleset: str, seats: int, seed: int, steps: int, options: dict[str, Any] | None = None
) -> Game:
    game = engine.new_game(ruleset, seats=seats, seed=seed, options=options or {})
    rng = random.Random(seed)
    h = get_strategy("heuristic", game.family)
    for _ in range(steps):
        if game.over:
            break
        seat = game.to_act
        game.apply(seat, h.choose(game.view(seat), game.legal_actions(seat), rng))
    return game


@pytest.mark.parametrize("seats", [2, 4])
def test_abbott_world_is_the_viewed_state(seats: int) -> None:
    for seed in range(soak(6, 100)):
        game = views_walk("abbott", seats, seed, 3 + 5 * seed)
        if game.over:
            continue
        seat = game.to_act
        view = game.view(seat)
        world = Abbott.from_view(view)
        assert world.view(seat) == view
        assert world.legal_actions(seat) == game.legal_actions(seat)


def test_kilodney_worlds_agree_with_the_view() -> None:
    rng = random.Random(5)
    for seed in range(soak(6, 100)):
        game = views_walk("kilodney", 5, seed, 4 + 7 * seed)
        if game.over:
            continue
        seat = game.to_act
        view = game.view(seat)
        seen = Kilodney.from_view(view, None)
        world = kil.KilodneyAdapter().world(view, (seen, kil.unseen_cards(view, None)), rng)
        wv = world.view(seat)
        for key in ("hand", "hand_sizes", "top", "running", "in_hand", "scores", "to_act"):
            assert wv[key] == view[key], key
        assert world.legal_actions(seat) == game.legal_actions(seat)
        # every hand kept as the engine keeps one (by suit, jokers last: a seat holding
        # two jokers then has one joker play, as at the real table)
        for s, hand in enumerate(world.hands):
            assert hand == sorted(hand, key=hand_order), s


@pytest.mark.parametrize("preset", SHEDDING)
def test_shedding_worlds_agree_with_the_view(preset: str) -> None:
    rng = random.Random(6)
    for seed in range(soak(4, 60)):
        game = views_walk(preset, 4, seed, 2 + 3 * seed)
        if not game.over:
            assert_world_agrees(game, rng)


@pytest.mark.parametrize(
    "options",
    [
        {"jokers": 2, "play_drawn": True, "draw_when_able": False},
        {"hand_size": 5, "decks": 2, "pickup": "2:2 JB:5", "stack": "2>2"},
    ],
)
def test_shedding_worlds_follow_the_tables_house_rules(options: dict[str, Any]) -> None:
    """The view carries the table's options, so a world has its jokers, its
    packs and its powers: the same legal actions as the real game."""
    rng = random.Random(8)
    for seed in range(soak(6, 60)):
        game = views_walk("switch", 4, seed, 1 + 3 * seed, options)
        if game.over:
            continue
        assert game.view(game.to_act)["options"] == options  # none of them is a default
        assert_world_agrees(game, rng)


def assert_world_agrees(game: Game, rng: random.Random) -> None:
    """A world the shedding search samples shows its seat what the real game does."""
    seat = game.to_act
    view = game.view(seat)
    search = shed.SheddingSearch(**TINY)
    memory = shed.worlds_from(view, search.memory.pile_for(view))
    world = shed.SheddingAdapter().world(view, memory, rng)
    wv = world.view(seat)
    for key in ("hand", "hand_sizes", "top", "pile_size", "stock", "pending", "nominated"):
        assert wv[key] == view[key], key
    assert {str(a) for a in world.legal_actions(seat)} == {str(a) for a in game.legal_actions(seat)}


# ------------------------------------------------------------------ strength
def test_abbott_search_keeps_the_solved_win() -> None:
    found = 0
    rng = random.Random(3)
    for seed in range(40):
        game = engine.new_game("abbott", seats=2, seed=seed)
        walker = get_strategy("heuristic", "abbott")
        while not game.over and found < 3:
            seat = game.to_act
            view, legal = game.view(seat), game.legal_actions(seat)
            if cards_left(view) <= 7:
                result = solve(view)
                if result.winner == seat and len(result.winning_moves) < len(result.outcomes):
                    search = get_strategy("search", "abbott", **TINY, node_limit=2_000_000)
                    choice = search.choose(view, legal, random.Random(1))
                    assert str(choice) in result.winning_moves
                    found += 1
                    break
            game.apply(seat, walker.choose(view, legal, rng))
        if found >= 3:
            break
    assert found >= 1


@pytest.mark.parametrize(("ruleset", "seats", "games"), [("abbott", 2, 10), ("kilodney", 4, 12)])
def test_heuristic_beats_random(ruleset: str, seats: int, games: int) -> None:
    from client.bots.arena import run_arena

    result = run_arena(ruleset, ["heuristic", "random"], games=games, seats=seats, seed=1)
    assert result.standings["heuristic"].wins > 2 * result.standings["random"].wins
