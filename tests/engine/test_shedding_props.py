"""Properties of the shedding engine over many random games, every preset, 2-8 seats.

Each game is played by a driver that mostly plays a legal card (so hands end in
a sensible number of turns) and, along the way, tries illegal actions. After
every action the invariants below must hold; at the end the record replays to
the identical game.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import msgpack
import pytest
from hypothesis import given
from hypothesis import strategies as st
from shedding_house import fitting
from support import soak

import engine
from engine.actions import Draw, Play
from engine.cards import make_deck
from engine.shedding import PRESETS
from engine.shedding.codes import CARD, TEXT, code
from engine.shedding.game import HAND_TURN_LIMIT, SheddingGame

CASES = [
    (preset, seats)
    for preset, (_summary, max_seats, _defaults) in PRESETS.items()
    for seats in range(2, max_seats + 1)
]


def all_views(game: SheddingGame) -> list[dict[str, Any]]:
    return [game.view(s) for s in [*range(game.seats), None]]


def check_cards(game: SheddingGame) -> None:
    """No card created or lost: hands + stock + pile is the deck."""
    held = Counter(c for h in game.hands for c in h) + Counter(game.stock) + Counter(game.pile)
    deck = make_deck(game.decks, game.options["jokers"])
    assert held == Counter(code(c) for c in deck)


def hidden_from(game: SheddingGame, seat: int | None) -> set[str]:
    """Faces ``seat`` may not see: in other hands or the stock, and not visible to it."""
    secret = {TEXT[c] for s, h in enumerate(game.hands) if s != seat for c in h}
    secret |= {TEXT[c] for c in game.stock}
    seen = {TEXT[c] for c in game.pile}
    if seat is not None:
        seen |= {TEXT[c] for c in game.hands[seat]}
    return secret - seen


def _faces(value: Any) -> set[str]:
    """Every string in a nest of primitives."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*map(_faces, value.values())) if value else set()
    if isinstance(value, list | tuple):
        return set().union(*map(_faces, value)) if value else set()
    return set()


def check_privacy(game: SheddingGame, events: list[engine.Event]) -> None:
    """No view of any seat or a spectator carries a card hidden from it, and no event
    shows one seat's private cards to another (checked on the msgpack bytes)."""
    for seat in [*range(game.seats), None]:
        blob = msgpack.packb(game.view(seat))
        for face in hidden_from(game, seat):
            assert b"\xa2" + face.encode() not in blob, (seat, face)
        for e in events:
            shown = _faces(e.public.get("top")) | _faces(e.public.get("cards"))
            own = _faces(e.private.get(seat, {})) | (shown if e.kind != "draw" else set())
            secret = _faces({t: v for t, v in e.private.items() if t != seat}) - own
            blob = msgpack.packb(e.present(seat))
            for face in secret:
                assert b"\xa2" + face.encode() not in blob, (seat, e.kind, face)


def illegal_tries(game: SheddingGame, rng: random.Random) -> None:
    """An illegal action is refused and changes nothing (unless the preset penalises it)."""
    seat = game.to_act
    assert seat is not None
    other = (seat + 1 + rng.randrange(game.seats - 1)) % game.seats
    before = all_views(game)
    log = list(game.record()["actions"])
    with pytest.raises(engine.IllegalActionError):
        game.apply(other, Draw())
    hand = game.hands[seat]
    if hand:
        card = hand[rng.randrange(len(hand))]
        play = Play((CARD[card],))
        if not game.is_legal(seat, play):
            penalised = game.options["illegal_penalty"] or game.options["end_penalty"]
            if not penalised:
                with pytest.raises(engine.IllegalActionError):
                    game.apply(seat, play)
                assert game.explain(seat, play) != "that is legal"
    assert all_views(game) == before and game.record()["actions"] == log


def check_shortcut(game: SheddingGame) -> None:
    """The fast listing of legal actions is exactly the long one, for every seat."""
    for seat in range(game.seats):
        fast = game.legal_actions(seat)
        game._fast = False
        try:
            slow = game.legal_actions(seat)
        finally:
            del game._fast
        assert fast == slow
        assert all(game._reason(seat, a) is None for a in slow)


def driver_choice(game: SheddingGame, rng: random.Random) -> engine.Action:
    seat = game.to_act
    legal = game.legal_actions(seat)
    plays = [a for a in legal if isinstance(a, Play)]
    if plays and rng.random() < 0.8:
        return plays[rng.randrange(len(plays))]
    return legal[rng.randrange(len(legal))]


def play_checked(preset: str, seats: int, seed: int, options: dict[str, Any] | None = None) -> int:
    """Play one game with every check after every action; return its length."""
    game = engine.new_game(preset, seats=seats, seed=seed, options=options or {})
    assert isinstance(game, SheddingGame)
    rng = random.Random(seed)
    check_cards(game)
    check_privacy(game, game.opening_events)
    bound = 4 * HAND_TURN_LIMIT * (1 + (options or {}).get("target", 0) // 25)
    n = 0
    while not game.over:
        assert n < bound, "the game did not end"
        if rng.random() < 0.1:
            illegal_tries(game, rng)
        seat = game.to_act
        check_shortcut(game)
        events = game.apply(seat, driver_choice(game, rng))
        n += 1
        check_cards(game)
        if n % 3 == 0 or any(e.kind in ("draw", "swap", "deal") for e in events):
            check_privacy(game, events)
    assert game.to_act is None and game.legal_actions(0) == []
    again = engine.replay(game.record())
    assert all_views(again) == all_views(game) and again.record() == game.record()
    return n


@pytest.mark.slow
@pytest.mark.parametrize(("preset", "seats"), CASES)
def test_random_games_keep_every_invariant(preset: str, seats: int) -> None:
    for seed in range(soak(3, 30)):
        play_checked(preset, seats, seed)


@given(
    preset=st.sampled_from(sorted(PRESETS)),
    seats=st.integers(2, 8),
    seed=st.integers(0, 2**32),
    jokers=st.integers(0, 2),
    combos=st.sampled_from(["single", "sets", "runs", "mixed", "chain"]),
    draw=st.sampled_from([1, 2, "until"]),
    play_drawn=st.booleans(),
    finish=st.sampled_from(["first", "last_one"]),
    house=st.fixed_dictionaries(
        {
            "go_on": st.sampled_from(["", "J", "A J"]),
            "pickup_together": st.booleans(),
            "red_jacks_add": st.sampled_from([0, 3]),
            "cards_call": st.booleans(),
        }
    ),
)
def test_any_table_options_keep_every_invariant(
    preset: str,
    seats: int,
    seed: int,
    jokers: int,
    combos: str,
    draw: Any,
    play_drawn: bool,
    finish: str,
    house: dict[str, Any],
) -> None:
    seats = min(seats, PRESETS[preset][1])
    options = {
        "jokers": jokers,
        "combos": combos,
        "draw": draw,
        "play_drawn": play_drawn,
        "finish": finish,
        **house,  # the sources' house variants, off in every preset
    }
    play_checked(preset, seats, seed, fitting(preset, options))


def test_a_match_of_several_hands_keeps_every_invariant() -> None:
    for seed in range(soak(2, 10)):
        play_checked("blackjack", 4, seed, {"target": 100})


def test_random_strategy_games_end() -> None:
    """Uniform random play (the bench's driver) ends too, thanks to the turn limit."""
    for preset in PRESETS:
        game = engine.new_game(preset, seats=4, seed=1)
        rng = random.Random(1)
        n = 0
        while not game.over:
            legal = game.legal_actions(game.to_act)
            game.apply(game.to_act, legal[rng.randrange(len(legal))])
            n += 1
            assert n <= 3 * HAND_TURN_LIMIT
