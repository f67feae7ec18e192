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


def _walk(seed: int, chooser: Any, moves: int) -> list[tuple[dict[str, Any], list[Any]]]:
    """Play ``moves`` of a 4-seat game with ``chooser`` in every seat (each with
    its own memory of the events) and return what each mover was shown."""
    game = engine.new_game("kilodney", seats=4, seed=seed)
    players = [chooser() for _ in range(4)]
    for event in game.opening_events:
        for s, p in enumerate(players):
            p.observe(event.present(s))
    shown = []
    rng = random.Random(seed)
    for _ in range(moves):
        if game.over:
            break
        seat = game.to_act
        view, legal = game.view(seat), game.legal_actions(seat)
        action = players[seat].choose(view, legal, rng)
        assert action in legal
        shown.append((view, legal))
        for event in game.apply(seat, action):
            for s, p in enumerate(players):
                p.observe(event.present(s))
    return shown


def test_careless_playouts_and_pruning_play_only_legal_cards() -> None:
    """``noise`` and ``model`` play other seats at random in the playouts,
    ``infer`` deals jokered seats no following card and ``prune`` drops clearly
    worse challengers; none may ever produce an illegal card."""
    for seed in range(soak(3, 30)):
        _walk(
            seed,
            lambda: get_strategy(
                "search", "kilodney", iterations=60, noise=0.5, prune=1, margin=9, infer=1, model=1
            ),
            soak(120, 2000),
        )


def test_pruning_spends_at_most_the_budget_and_less_on_clear_decisions(monkeypatch: Any) -> None:
    """Without pruning a search plays exactly its budget out (in whole worlds);
    with it, never more, and less when challengers fall clearly behind."""
    calls: list[int] = []
    real = kil.race_value

    def counting(*args: Any) -> float:
        calls[-1] += 1
        return real(*args)

    monkeypatch.setattr(kil, "race_value", counting)
    spent = {0.0: 0, 1.0: 0}
    searched = 0
    for view, legal in _walk(5, kil.KilodneyHeuristic, 200):
        if len(legal) < 3:
            continue
        rated = sorted(kil.rate_plays(view, legal, None), key=lambda wp: -wp[0])
        for prune in spent:
            search = kil.KilodneySearch(iterations=240, prune=prune)
            ranked = [p for _, p in rated][: search.candidates]
            calls.append(0)
            search._search(view, ranked, None, random.Random(1))
            k = len(ranked)
            if prune == 0.0:
                assert calls[-1] == k * max(2, 240 // k)
            else:
                assert calls[-1] <= max(2 * k, 240)
            spent[prune] += calls[-1]
        searched += 1
    assert searched > 20
    assert spent[1.0] < 0.8 * spent[0.0]


def test_memory_proves_a_loose_joker_only_by_a_card_that_would_have_followed() -> None:
    """A joker stopped with on 7H is loose once the same player later plays a
    heart or a seven (he held it all along); a club proves nothing."""
    memory = kil.KilodneyMemory()

    def play(seat: int, card: str) -> None:
        memory.observe({"kind": "play", "seat": seat, "card": card})

    memory.observe({"kind": "deal", "hand_number": 1})
    play(0, "7H")
    play(1, "JK")
    play(2, "3C")  # a lead after the joker
    play(3, "4C")
    play(1, "5C")  # follows the clubs, not the 7H: nothing proved
    assert memory.loose[1] == 0
    play(2, "5D")
    play(1, "9D")  # nor this
    assert memory.loose[1] == 0
    memory.observe({"kind": "knockout", "seat": 2, "card": "9D"})
    play(1, "KH")  # a heart: he could have followed the 7H instead of the joker
    assert memory.loose[1] == 1 and memory.plays[1] == 4
    play(1, "QH")  # one joker proves one loose play, not more
    assert memory.loose[1] == 1
    assert memory.careless(1) > memory.careless(0) > memory.careless(2)


def test_the_careless_model_plays_only_careless_seats_at_random(monkeypatch: Any) -> None:
    """With ``model=1`` the playouts play a seat at random only if his loose
    jokers make him look careless; the others keep the knock-out rollout."""
    turns: list[int] = []
    real = kil.Race.any_card

    def spy(self: kil.Race, rng: random.Random) -> int:
        turns.append(self.turn)
        return real(self, rng)

    monkeypatch.setattr(kil.Race, "any_card", spy)
    searched = 0
    for view, legal in _walk(4, kil.KilodneyHeuristic, 40):
        if len(legal) < 2:
            continue
        careless = (view["viewer"] + 2) % 4
        search = kil.KilodneySearch(iterations=60, margin=99, model=1)
        for s in range(4):
            search.memory.plays[s] = 400  # hundreds of careful plays: surely careful
        search.memory.plays[careless], search.memory.loose[careless] = 80, 8
        turns.clear()
        search.choose(view, legal, random.Random(3))
        assert set(turns) <= {careless}
        searched += bool(turns)
    assert searched > 5


def test_a_seat_that_stopped_with_a_joker_is_dealt_nothing_that_followed() -> None:
    """``voids``: a careful seat that stopped 7C with a joker held no club and no
    seven (jokers allowed); without the rule the same pool deals him some."""
    view = {"viewer": 0, "hand_sizes": [3, 4, 3, 4], "knocked_out": []}
    texts = ["2C", "3C", "7H", "7D", "9H", "TH", "JH", "QS", "KS", "AS", "JK"]
    pool = [kil._code(Card.parse(t)) for t in texts]
    seven = kil._code(Card.parse("7C"))
    unconstrained = 0
    for seed in range(60):
        hands = kil.sample_hands(view, pool, {}, random.Random(seed), {3: [seven]})
        assert len(hands[3]) == 4
        assert not any(c != kil.JK and kil._follows(c, seven) for c in hands[3])
        assert sorted(hands[1] + hands[2] + hands[3]) == sorted(pool)
        free = kil.sample_hands(view, pool, {}, random.Random(seed))
        unconstrained += any(c != kil.JK and kil._follows(c, seven) for c in free[3])
    assert unconstrained > 30


def test_memory_keeps_the_jokered_cards_a_seat_has_not_disproved() -> None:
    memory = kil.KilodneyMemory()
    memory.observe({"kind": "deal", "hand_number": 2})
    for seat, card in [(0, "7H"), (1, "JK"), (2, "3C"), (3, "3D"), (0, "JK"), (1, "5S")]:
        memory.observe({"kind": "play", "seat": seat, "card": card})
    view = {"viewer": 2, "hand_sizes": [5, 5, 5, 5], "hand_number": 2}
    code = kil._code
    assert memory.voids_for(view) == {1: [code(Card.parse("7H"))], 0: [code(Card.parse("3D"))]}
    memory.observe({"kind": "play", "seat": 1, "card": "7S"})  # a seven: he could follow
    assert memory.voids_for(view) == {0: [code(Card.parse("3D"))]}
    assert memory.loose[1] == 1
