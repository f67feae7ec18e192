"""Every view and every event of every family matches its declared vocabulary exactly,
and the spec's family sections are the declarations themselves."""

from __future__ import annotations

import ast
import contextlib
import random
import typing
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shedding_house import fitting
from vocabulary_docs import SPEC, stale, vocabularies

import engine
from engine.abbott import vocabulary as abbott
from engine.errors import IllegalActionError
from engine.events import Event
from engine.kilodney import vocabulary as kilodney
from engine.shedding import PRESETS
from engine.shedding import vocabulary as shedding
from engine.vocabulary import Vocabulary

#: Every ruleset, at the seat counts each plays at.
TABLES = [("abbott", 4), ("abbott", 2), ("kilodney", 4), ("kilodney", 9)]
TABLES += [(preset, seats) for preset in PRESETS for seats in (2, 4)]

#: House rules that make events of their own, on for some of the shedding games.
HOUSE = {
    "jokers": 2,
    "combos": "chain",
    "pickup_together": True,
    "cards_call": True,
    "play_drawn": True,
}


def _play(game: engine.Game, rng: random.Random) -> list[Event]:
    """One random legal action; now and then first a random play of a card in hand,
    which is refused or (where the preset penalises it) a blunder."""
    seat = game.to_act
    events: list[Event] = []
    hand = game.view(seat).get("hand")
    if hand and rng.random() < 0.05:
        with contextlib.suppress(IllegalActionError):
            events += game.apply(seat, f"play {rng.choice(hand)}")
        if game.over:
            return events
    return events + game.apply(game.to_act, rng.choice(game.legal_actions(game.to_act)))


def _new(name: str, seats: int, seed: int) -> engine.Game:
    house = fitting(name, HOUSE) if name in PRESETS and seed % 2 else {}
    return engine.new_game(name, seats=seats, seed=seed, options=house)


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
    game = _new(name, seats, seed)
    vocabulary = type(game).vocabulary
    assert _problems(vocabulary, game, list(game.opening_events)) == []
    rng = random.Random(seed)
    for _ in range(moves):
        if game.over:
            break
        events = _play(game, rng)
        assert _problems(vocabulary, game, events) == []


def test_every_declared_event_kind_happens() -> None:
    """No declaration is dead: each kind turns up in a few whole random games."""
    seen: dict[str, set[str]] = {}
    for name, seats in TABLES:
        family = engine.ruleset(name).family
        kinds = seen.setdefault(family, set())
        for seed in range(12 if name in PRESETS else 40):
            game = _new(name, seats, seed)
            kinds |= {e.kind for e in game.opening_events}
            rng = random.Random(seed)
            while not game.over:
                kinds |= {e.kind for e in _play(game, rng)}
    for name, _seats in TABLES:
        vocabulary = engine.ruleset(name).game_class.vocabulary
        assert {e.kind for e in vocabulary.events} == seen[vocabulary.family], name


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
    assert set(vocabularies()) == {"abbott", "kilodney", "shedding"}
    assert stale(SPEC.read_text()) == [], "run: python tests/vocabulary_docs.py --write"


#: Each family's TypedDicts, which mypy checks readers against.
TYPED = [
    (abbott.VOCABULARY, abbott.AbbottView, abbott.AbbottEvent),
    (kilodney.VOCABULARY, kilodney.KilodneyView, kilodney.KilodneyEvent),
    (shedding.VOCABULARY, shedding.SheddingView, shedding.SheddingEvent),
]


def _keys(typed: typing.Any) -> tuple[set[str], set[str]]:
    return set(typed.__required_keys__), set(typed.__optional_keys__)


def _declared(fields: typing.Any, private: typing.Any = ()) -> tuple[set[str], set[str]]:
    """The keys a declaration makes required and optional (a private field is shown to
    some seats only, so a presented event may lack it)."""
    required = {f.name for f in fields if not f.optional}
    return required, {f.name for f in fields if f.optional} | {f.name for f in private}


@pytest.mark.parametrize(("vocabulary", "view", "events"), TYPED, ids=[t[0].family for t in TYPED])
def test_each_typed_view_and_event_holds_the_declared_keys(vocabulary, view, events) -> None:
    """The TypedDicts and the vocabularies cannot drift: the same keys, required alike."""
    assert typing.get_args(view.__annotations__["family"]) == (vocabulary.family,)
    assert _keys(view) == _declared(vocabulary.view_fields)
    by_kind = {typing.get_args(t.__annotations__["kind"])[0]: t for t in typing.get_args(events)}
    assert set(by_kind) == {e.kind for e in vocabulary.events}
    for kind in vocabulary.events:
        required, optional = _keys(by_kind[kind.kind])
        assert (required - {"kind"}, optional) == _declared(kind.public, kind.private), kind.kind


#: Where views and events are read: the strategies, text mode and the terminal client.
READERS = ["engine/strategies", "protocol", "client", "switchboard"]


def _keys_read(tree: ast.AST, names: tuple[str, ...]) -> list[tuple[int, str]]:
    """Every literal key read off something called one of ``names`` (``view["top"]``,
    ``view.get("top")``, ``t.view.get("top")``), with its line."""

    def is_read(node: ast.AST) -> bool:
        return (isinstance(node, ast.Name) and node.id in names) or (
            isinstance(node, ast.Attribute) and node.attr in names
        )

    out = []
    for node in ast.walk(tree):
        key = None
        if isinstance(node, ast.Subscript) and is_read(node.value):
            key = node.slice
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "get"
            and is_read(node.func.value)
            and node.args
        ):
            key = node.args[0]
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            out.append((node.lineno, key.value))
    return out


def _stray(names: tuple[str, ...], declared: set[str]) -> list[str]:
    root = Path(__file__).resolve().parents[2]
    paths = [p for r in READERS for p in sorted((root / r).rglob("*.py"))]
    return [
        f"{path.relative_to(root)}:{line} {key}"
        for path in paths
        for line, key in _keys_read(ast.parse(path.read_text(encoding="utf-8")), names)
        if key not in declared
    ]


def test_readers_read_only_declared_keys() -> None:
    """mypy checks a key read with ``view["key"]`` against the family's TypedDict, but a
    ``view.get("key")`` with any key passes it (the typing spec allows ``get`` of a key a
    TypedDict lacks), and the client reads with ``get`` so a view from an older server
    that lacks a newer key still draws. So every literal key a reader reads off a view or
    an event is checked here against the declarations: a misspelt one fails."""
    views = {f.name for v, _, _ in TYPED for f in v.view_fields}
    assert _stray(("view", "root"), views) == []
    fields = {f.name for v, _, _ in TYPED for e in v.events for f in e.public + e.private}
    assert _stray(("ev", "event"), fields | {"kind"}) == []
