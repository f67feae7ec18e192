"""Every view and every event of every family matches its declared vocabulary exactly,
and the spec's family sections are the declarations themselves."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from vocabulary_docs import SPEC, stale, vocabularies

import engine
from engine.events import Event
from engine.vocabulary import Vocabulary

#: A ruleset per family, at the seat counts each plays at.
TABLES = [("abbott", 4), ("abbott", 2), ("kilodney", 4), ("kilodney", 9)]


def _problems(vocabulary: Vocabulary, game: engine.Game, events: list[Event]) -> list[str]:
    out = []
    for seat in [*range(game.seats), None]:
        out += vocabulary.check_view(game.view(seat))
    for event in events:
        out += vocabulary.check_event(event)
    return out


@settings(max_examples=25, deadline=None)
@given(table=st.sampled_from(TABLES), seed=st.integers(0, 2**32), moves=st.integers(0, 400))
def test_views_and_events_match_their_declaration(table, seed, moves) -> None:
    name, seats = table
    game = engine.new_game(name, seats=seats, seed=seed)
    vocabulary = type(game).vocabulary
    assert _problems(vocabulary, game, list(game.opening_events)) == []
    rng = random.Random(seed)
    for _ in range(moves):
        if game.over:
            break
        seat = game.to_act
        events = game.apply(seat, rng.choice(game.legal_actions(seat)))
        assert _problems(vocabulary, game, events) == []


def test_every_declared_event_kind_happens() -> None:
    """No declaration is dead: each kind turns up in a few whole random games."""
    seen: dict[str, set[str]] = {}
    for name, seats in TABLES:
        kinds = seen.setdefault(name, set())
        for seed in range(40):
            game = engine.new_game(name, seats=seats, seed=seed)
            kinds |= {e.kind for e in game.opening_events}
            rng = random.Random(seed)
            while not game.over:
                seat = game.to_act
                kinds |= {e.kind for e in game.apply(seat, rng.choice(game.legal_actions(seat)))}
    for name, kinds in seen.items():
        declared = {e.kind for e in engine.ruleset(name).game_class.vocabulary.events}
        assert declared == kinds, name


def test_a_stray_key_is_caught() -> None:
    vocabulary = engine.ruleset("kilodney").game_class.vocabulary
    game = engine.new_game("kilodney", seats=4, seed=1)
    assert vocabulary.check_view({**game.view(0), "deck": []}) == ["undeclared view key deck"]
    view = game.view(0)
    del view["top"]
    assert vocabulary.check_view(view) == ["missing view key top"]
    deal = game.opening_events[0]
    leaky = Event(deal.kind, {**deal.public, "cards": ["AS"]}, deal.private)
    assert vocabulary.check_event(leaky) == ["undeclared deal event key cards"]


def test_the_spec_holds_each_family_declaration() -> None:
    assert set(vocabularies()) >= {"abbott", "kilodney"}
    assert stale(SPEC.read_text()) == [], "run: python tests/vocabulary_docs.py --write"
