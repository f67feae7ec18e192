"""The shedding search's inference from draws (``shedding_infer``, ``infer=1|2``).

A draw where the rules allow one only to a player who cannot play says what his
hand lacked. These tests play real games and hold the inference to the truth
(every constraint it states is met by the hand the seat really holds), and the
search's sampled worlds to the constraints and to every public fact.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import soak

import engine
from engine.actions import Action
from engine.cards import Card
from engine.shedding.codes import code
from engine.shedding.game import SheddingGame
from engine.strategies import get_strategy
from engine.strategies import shedding as shed
from engine.strategies.shedding_infer import DrawMemory, Groups, arrange

PRESETS = ["switch", "blackjack", "irish", "j28", "taketwo", "gamebot"]


def _meets(hand: list[int], groups: Groups) -> bool:
    """Whether ``hand`` has, group by group, enough cards outside each banned set
    (the groups nest: the first's cards count toward every later one)."""
    need = 0
    for banned, k in groups:
        need += k
        if sum(1 for c in hand if c not in banned) < need:
            return False
    return True


def _play(preset: str, seed: int, strategy: str, infer: int, check: Any, seats: int = 4) -> int:
    """Play a game of ``strategy`` players, every seat keeping a ``DrawMemory``; at each
    turn call ``check(game, seat, memory, lacks)`` for every seat's memory. Returns how
    many constraints were stated along the way."""
    game: Any = engine.new_game(preset, seats=seats, seed=seed)
    memories = [DrawMemory() for _ in range(seats)]
    players = [get_strategy(strategy, "shedding") for _ in range(seats)]
    for event in game.opening_events:
        for s in range(seats):
            memories[s].observe(event.present(s))
    rng = random.Random(seed)
    stated = 0
    for _ in range(3000):
        if game.over:
            break
        seat = game.to_act
        view = game.view(seat)
        for s, memory in enumerate(memories):
            lacks = memory.lacks(game.rules, view["hand_sizes"], infer)
            stated += sum(len(g) for g in lacks.values())
            check(game, s, memory, lacks)
        action = players[seat].choose(view, game.legal_actions(seat), rng)
        for event in game.apply(seat, action):
            for s in range(seats):
                memories[s].observe(event.present(s))
    return stated


def _truthful(game: Any, seat: int, memory: DrawMemory, lacks: dict[int, Groups]) -> None:
    for other, groups in lacks.items():
        assert _meets(game.state.hands[other], groups), (other, groups, game.state.hands[other])


@pytest.mark.parametrize("preset", PRESETS)
def test_what_draws_prove_is_true_whoever_plays(preset: str) -> None:
    """``infer=1`` states facts: random players (who draw only when the rules make
    them) never hold a card the inference says their draws excluded."""
    stated = sum(_play(preset, seed, "random", 1, _truthful) for seed in range(soak(3, 40)))
    if preset != "switch":  # switch lets a player draw when he could play: no facts
        assert stated > 0
    else:
        assert stated == 0


@pytest.mark.parametrize("preset", PRESETS)
def test_what_careful_players_show_is_true_of_the_heuristic(preset: str) -> None:
    """``infer=2`` adds what a careful player's pick-ups and kept cards show; the
    heuristic is such a player (it stacks and plays a drawn card whenever it can)."""
    stated = sum(_play(preset, seed, "heuristic", 2, _truthful) for seed in range(soak(3, 40)))
    assert stated > 0


def _irish_after_a_forced_draw() -> tuple[Any, dict[str, Any], shed.SheddingSearch]:
    """An irish game played by the heuristic until, at seat 0's turn, some other seat
    has drawn (unable to play) and still holds some of the cards he held then; with
    a search at seat 0 that saw every event."""
    for seed in range(200):
        game: Any = engine.new_game("irish", seats=4, seed=seed)
        search = shed.SheddingSearch(infer=1)
        heuristic = shed.SheddingHeuristic()
        for event in game.opening_events:
            search.observe(event.present(0))
        rng = random.Random(seed)
        for _ in range(400):
            if game.over:
                break
            seat = game.to_act
            view = game.view(seat)
            if seat == 0 and search.draws.lacks(game.rules, view["hand_sizes"], 1):
                return game, view, search
            action = heuristic.choose(view, game.legal_actions(seat), rng)
            for event in game.apply(seat, action):
                search.observe(event.present(0))
    raise AssertionError("no forced draw seen")


def _worlds(view: dict[str, Any], search: shed.SheddingSearch, infer: int) -> list[SheddingGame]:
    seen, unseen = shed.worlds_from(view, search.memory.pile_for(view))
    lacks = search.draws.lacks(seen.rules, view["hand_sizes"], infer)
    adapter = shed.SheddingAdapter(smart=True)
    rng = random.Random(5)
    return [adapter.world(view, (seen, unseen, lacks), rng) for _ in range(60)]


def test_a_sampled_world_never_deals_a_seat_what_his_draws_excluded() -> None:
    """Without the inference the worlds give the drawer cards he showed he lacked;
    with it, never, and each world still agrees with every public fact."""
    game, view, search = _irish_after_a_forced_draw()
    seen, _unseen = shed.worlds_from(view, search.memory.pile_for(view))
    lacks = search.draws.lacks(seen.rules, view["hand_sizes"], 1)
    assert lacks
    plain = _worlds(view, search, 0)
    assert any(
        not _meets(w.state.hands[s], groups) for w in plain for s, groups in lacks.items()
    ), "the plain worlds never broke the constraint: the test shows nothing"
    for world in _worlds(view, search, 1):
        for s, groups in lacks.items():
            assert _meets(world.state.hands[s], groups)
        _public_facts_hold(game, view, world)


def _public_facts_hold(game: Any, view: dict[str, Any], world: SheddingGame) -> None:
    """What the seat sees of ``world`` is what it sees of the real game."""
    assert world.view(view["viewer"]) == view
    deck = Counter(list(game.state.stock) + list(game.state.pile))
    for h in game.state.hands:
        deck.update(h)
    mine = Counter(list(world.state.stock) + list(world.state.pile))
    for h in world.state.hands:
        mine.update(h)
    assert mine == deck


@settings(max_examples=soak(15, 150), deadline=None)
@given(
    preset=st.sampled_from(PRESETS),
    seed=st.integers(0, 10**6),
    seats=st.integers(2, 4),
    infer=st.integers(1, 2),
)
def test_worlds_meet_every_constraint_over_random_games(
    preset: str, seed: int, seats: int, infer: int
) -> None:
    """Over random games, at every turn of seat 0: every world the search samples
    meets each stated constraint whenever the truth does, and shows seat 0 exactly
    the view it has."""
    adapter = shed.SheddingAdapter(smart=True)
    search = shed.SheddingSearch(infer=infer)
    rng = random.Random(seed)

    def check(game: Any, seat: int, memory: DrawMemory, lacks: dict[int, Groups]) -> None:
        if seat != 0 or game.to_act != 0 or rng.random() > 0.3:
            return
        view = game.view(0)
        seen, unseen = shed.worlds_from(view, search.memory.pile_for(view))
        world = adapter.world(view, (seen, unseen, lacks), rng)
        _public_facts_hold(game, view, world)
        for s, groups in lacks.items():
            if _meets(game.state.hands[s], groups):  # the truth is one such world
                assert _meets(world.state.hands[s], groups)

    game: Any = engine.new_game(preset, seats=seats, seed=seed)
    strategy = "random" if infer == 1 else "heuristic"
    players = [get_strategy(strategy, "shedding") for _ in range(seats)]
    for event in game.opening_events:
        search.observe(event.present(0))
    for _ in range(1500):
        if game.over:
            break
        seat = game.to_act
        view = game.view(seat)
        if seat == 0:
            lacks = search.draws.lacks(game.rules, view["hand_sizes"], infer)
            check(game, 0, search.draws, lacks)
        action: Action = players[seat].choose(view, game.legal_actions(seat), rng)
        for event in game.apply(seat, action):
            search.observe(event.present(0))


def test_arrange_leaves_the_cards_and_skips_what_cannot_be_met() -> None:
    """``arrange`` only reorders; a constraint the cards cannot meet is dropped, not
    forced (the others are still dealt from the rest)."""
    view = {"viewer": 0, "hand_sizes": [3, 2, 2, 1]}
    cards = list(range(10))
    banned = frozenset(range(9))  # only card 9 is allowed: seat 1 needs two
    out = arrange(view, cards, {1: [(banned, 2)], 2: [(frozenset({0, 1}), 2)]})
    assert sorted(out) == cards
    assert not {0, 1} & set(out[2:4])  # seat 2's hand (after seat 1's two cards)


def test_a_swap_forgets_what_either_hand_lacked() -> None:
    """After gamebot's swap the cards a draw spoke of are in the other hand: both
    seats' constraints go."""
    memory = DrawMemory()
    memory.observe({"kind": "deal", "hand_number": 1, "hand_sizes": [5, 5, 5], "top": "7H"})
    memory.observe({"kind": "draw", "seat": 1, "count": 1, "reason": "draw"})
    rules = engine.new_game("irish", seats=3, seed=0).rules
    assert memory.lacks(rules, [5, 6, 5], 1)
    memory.observe({"kind": "swap", "seat": 0, "with": 1})
    assert not memory.lacks(rules, [6, 5, 5], 1)


def test_the_drawers_hand_then_is_what_is_constrained() -> None:
    """At least ``size now - cards received since`` of his cards are from the draw:
    the drawn card counts only when it is known not to fit (another seat acted next
    at a table where a drawn card may be played)."""
    memory = DrawMemory()
    memory.observe({"kind": "deal", "hand_number": 1, "hand_sizes": [5, 5, 5], "top": "7H"})
    memory.observe({"kind": "draw", "seat": 1, "count": 1, "reason": "draw"})
    rules = engine.new_game("irish", seats=3, seed=0).rules
    (groups,) = memory.lacks(rules, [5, 6, 5], 1).values()
    assert [k for _, k in groups] == [5]
    banned = groups[0][0]
    assert code(Card.parse("2H")) in banned and code(Card.parse("7C")) in banned
    assert code(Card.parse("8C")) not in banned
    memory.observe({"kind": "play", "seat": 2, "cards": ["2H"]})  # seat 2 acts next
    (groups,) = memory.lacks(rules, [5, 6, 4], 1).values()
    assert [k for _, k in groups] == [5]  # irish: a drawn card is kept for later
    memory.observe({"kind": "draw", "seat": 1, "count": 2, "reason": "pick-up"})
    assert [k for _, k in memory.lacks(rules, [5, 8, 4], 1)[1]] == [5]
    # A careful player stacks a two when he can: at infer=2 the pick-up says so too.
    assert [k for _, k in memory.lacks(rules, [5, 8, 4], 2)[1]] == [5, 1]


def test_a_drawn_card_left_unplayed_did_not_fit_where_it_could_be_played() -> None:
    """At j28 a drawn card that fits waits for its player: when the next seat acts
    instead, the drawn card is constrained too; a pass keeps it (``infer=2`` only)."""
    rules = engine.new_game("j28", seats=3, seed=0).rules
    for then, infer, held in (("play", 1, 6), ("pass", 1, 5), ("pass", 2, 6)):
        memory = DrawMemory()
        memory.observe({"kind": "deal", "hand_number": 1, "hand_sizes": [5, 5, 5], "top": "7H"})
        memory.observe({"kind": "draw", "seat": 1, "count": 1, "reason": "draw"})
        if then == "play":
            memory.observe({"kind": "play", "seat": 2, "cards": ["8H"]})
        else:
            memory.observe({"kind": "pass", "seat": 1})
        (groups,) = memory.lacks(rules, [5, 6, 5], infer).values()
        assert [k for _, k in groups] == [held], (then, infer)
