"""Kilodney's search: its fast playouts obey the engine's rules, and its worlds
respect what a knock-out tells."""

from __future__ import annotations

import random
from typing import Any

from support import soak

import engine
from engine.cards import Card
from engine.strategies import get_strategy
from engine.strategies import kilodney as kil


def race_of(game: Any) -> kil.Race:
    """The fast playout state of a real game, every hand in view."""
    return kil.Race(
        [[kil._code(c) for c in h] for h in game.hands],
        list(game.in_hand),
        list(game.scores),
        kil._code(game.top) if game.top is not None else kil.NO_TOP,
        game.running,
        game.leader if game.leader is not None else 0,
        game.turn,
        game.target,
    )


def test_fast_playouts_follow_the_engine() -> None:
    """Play random games on the engine and on a ``Race`` side by side: after every
    play the scores, who is in the hand and whose turn it is agree, and the
    race ends exactly when the hand (or the game) does."""
    rng = random.Random(11)
    checked = 0
    for seed in range(soak(30, 400)):
        seats = 4 + seed % 6
        game: Any = engine.new_game("kilodney", seats=seats, seed=seed, options={"target": 30})
        race = race_of(game)
        hand_number = game.hand_number
        while not game.over:
            seat = game.to_act
            assert race.turn == seat
            action = rng.choice(game.legal_actions(seat))
            legal = game.legal_actions(seat)
            assert sorted({kil._code(a.cards[0]) for a in legal}) == sorted(
                {c for c in race.hands[seat] if not race.running or kil._follows(c, race.top)}
            )
            game.apply(seat, action)
            done = race.play(kil._code(action.cards[0]))
            assert race.scores == game.scores
            if game.over:
                assert done and race.winner == game.winner
                break
            if game.hand_number != hand_number:
                assert done and race.winner is None
                hand_number = game.hand_number
                race = race_of(game)
                continue
            assert done is None
            assert race.in_hand == game.in_hand
            checked += 1
    assert checked > 100


def test_a_knocked_out_hand_is_dealt_no_card_that_follows() -> None:
    view = {
        "viewer": 0,
        "hand_sizes": [3, 4, 2, 5],
        "knocked_out": [1],
    }
    pool = [
        kil._code(Card.parse(t))
        for t in ["2C", "3C", "4C", "5C", "9H", "TH", "JH", "QS", "KS", "AS", "JK"]
    ]
    knock = kil._code(Card.parse("7C"))
    for seed in range(50):
        hands = kil.sample_hands(view, pool, {1: knock}, random.Random(seed))
        assert len(hands[1]) == 4 and not any(kil._follows(c, knock) for c in hands[1])
        assert sorted(hands[1] + hands[2] + hands[3]) == sorted(pool)


def test_search_respects_its_budget_knobs() -> None:
    """A search with ``margin`` 0 never searches, so it plays the heuristic's move."""
    game = engine.new_game("kilodney", seats=4, seed=3)
    heuristic = get_strategy("heuristic", "kilodney")
    quick = get_strategy("search", "kilodney", margin=0)
    for _ in range(40):
        seat = game.to_act
        view, legal = game.view(seat), game.legal_actions(seat)
        a = heuristic.choose(view, legal, random.Random(1))
        assert quick.choose(view, legal, random.Random(1)) == a
        game.apply(seat, a)
