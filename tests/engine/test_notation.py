"""Cards and actions: the shared notation parses what people type and prints round-trip."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.actions import (
    VERBS,
    Action,
    Ally,
    Concede,
    Draw,
    Last,
    Move,
    Nominate,
    Pass,
    Play,
    Vote,
)
from engine.cards import FULL_PACK, JOKER, Card, make_deck, parse_cards, parse_suit
from engine.errors import InvalidActionError


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("QH", "QH"),
        ("qh", "QH"),
        ("10D", "TD"),
        ("10♦", "TD"),
        ("t♠", "TS"),
        ("A♣", "AC"),
        ("JK", "JK"),
        ("joker", "JK"),
        (" 2c ", "2C"),
    ],
)
def test_card_parsing_accepts_what_people_type(text: str, card: str) -> None:
    assert str(Card.parse(text)) == card


@pytest.mark.parametrize("text", ["", "Q", "1H", "QX", "11H", "HQ", "QHH", "♥"])
def test_card_parsing_refuses_nonsense_quoting_the_input(text: str) -> None:
    with pytest.raises(InvalidActionError) as err:
        Card.parse(text)
    assert repr(text) in str(err.value)


def test_every_card_round_trips_and_repr_rebuilds_it() -> None:
    for card in [*FULL_PACK, JOKER]:
        assert Card.parse(str(card)) == card
        assert eval(repr(card), {"Card": Card}) == card


def test_pretty_uses_symbols_unless_ascii_is_asked() -> None:
    assert Card.parse("QH").pretty() == "Q♥"
    assert Card.parse("QH").pretty(ascii_only=True) == "QH"
    assert JOKER.pretty() == "JK"


def test_decks_have_the_right_cards() -> None:
    assert len(set(make_deck())) == 52
    assert len(make_deck(packs=2, jokers=2)) == 106
    assert make_deck(jokers=1)[-1].is_joker
    assert [c.value for c in parse_cards("2C AH JK")] == [2, 14, 0]


def test_suits_parse_by_name_letter_or_symbol() -> None:
    assert {parse_suit(s) for s in ("hearts", "heart", "H", "h", "♥")} == {"H"}
    with pytest.raises(InvalidActionError):
        parse_suit("stars")


EXAMPLES = [
    ("move c4", Move("c4")),
    ("ally west", Ally("west")),
    ("ally 2", Ally("2")),
    ("play QH", Play((Card.parse("QH"),))),
    ("play 7H 7D", Play((Card.parse("7H"), Card.parse("7D")))),
    ("play 7H last", Play((Card.parse("7H"),), last=True)),
    ("draw", Draw()),
    ("pass", Pass()),
    ("suit hearts", Nominate("H")),
    ("last", Last()),
    ("concede", Concede()),
    ("vote end", Vote("end")),
]


@pytest.mark.parametrize(("text", "action"), EXAMPLES)
def test_design_notation_parses_and_prints_round_trip(text: str, action: Action) -> None:
    assert Action.parse(text) == action
    assert str(action) == text
    namespace = {c.__name__: c for c in (Move, Ally, Play, Draw, Pass, Nominate, Last)}
    namespace.update(Concede=Concede, Vote=Vote, Card=Card)
    assert eval(repr(action), namespace) == action


def test_every_verb_has_an_example() -> None:
    assert {text.split()[0] for text, _ in EXAMPLES} == set(VERBS)


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        ("mvoe c4", "expected move SQUARE"),
        ("move", "a square a1..f6"),
        ("move z9", "a square a1..f6"),
        ("play", "play CARD"),
        ("play 7H ZZ", "not a card"),
        ("draw 2", "takes nothing"),
        ("suit stars", "not a suit"),
        ("vote maybe", "vote end"),
        ("", "empty action"),
    ],
)
def test_typos_say_what_was_expected(text: str, hint: str) -> None:
    with pytest.raises(InvalidActionError) as err:
        Action.parse(text)
    assert hint in str(err.value)
    assert isinstance(err.value, ValueError)


card_texts = st.sampled_from([str(c) for c in [*FULL_PACK, JOKER]])


@given(st.lists(card_texts, min_size=1, max_size=6), st.booleans())
def test_any_play_round_trips(cards: list[str], last: bool) -> None:
    text = " ".join(["play", *cards, *(["last"] if last else [])])
    action = Action.parse(text.lower())
    assert str(action) == text
    assert Action.parse(str(action)) == action


@given(st.text(max_size=30))
def test_any_text_parses_or_raises_invalid_action(text: str) -> None:
    try:
        action = Action.parse(text)
    except InvalidActionError:
        return
    assert Action.parse(str(action)) == action
