"""Every event the three families make reads as a sentence in the log (none falls through
to the raw ``kind key=value`` form), in plain English: no "1 cards", no "turn(s)"."""

from __future__ import annotations

import random
import re

import pytest
from prompt_toolkit.formatted_text import fragment_list_to_text

import engine
from engine.abbott.vocabulary import VOCABULARY as ABBOTT
from engine.kilodney.vocabulary import VOCABULARY as KILODNEY
from engine.shedding.vocabulary import VOCABULARY as SHEDDING
from protocol.describe import SENTENCES, describe_event

NAMES = ["ann", "bob", "cy", "di"]


def events_of(ruleset: str, seats: int, seed: int) -> list[dict]:
    """Every event of a random game, as seat 0 and a spectator are shown them."""
    game = engine.new_game(ruleset, seats=seats, seed=seed)
    rng = random.Random(seed)
    out = [e.present(s) for e in game.opening_events for s in (0, None)]
    while not game.over:
        seat = game.to_act
        legal = game.legal_actions(seat)
        action = rng.choice(legal)
        for e in game.apply(seat, action):
            out += [e.present(0), e.present(None)]
    return out


def line(ev: dict) -> str:
    return fragment_list_to_text(describe_event(ev, NAMES, ascii_only=True))


def check(text: str) -> None:
    assert text.isascii(), text
    assert "=" not in text and "(s)" not in text, text
    assert not re.search(r"\b1 (cards|turns)\b", text), text
    assert not re.search(r"\ba [A8]\b", text), text


@pytest.mark.parametrize(
    ("ruleset", "seats"),
    [(r.name, 4) for r in engine.all_rulesets()],
)
def test_every_event_of_every_ruleset_is_a_sentence(ruleset: str, seats: int) -> None:
    for seed in range(2):
        for ev in events_of(ruleset, seats, seed):
            assert ev["kind"] in SENTENCES, ev
            check(line(ev))


def test_every_declared_event_kind_has_a_sentence() -> None:
    for vocabulary in (ABBOTT, KILODNEY, SHEDDING):
        for kind in vocabulary.events:
            assert kind.kind in SENTENCES, kind.kind


def test_the_cut_a_blunder_and_plurals_read_as_sentences() -> None:
    """Before: "cut dealer=2", "seat 0: blunder cards=['7H'] why=...", "misses 2 turn(s)"."""
    assert line({"kind": "cut", "seat": 2, "dealer": 2, "draws": []}) == "The cut: cy deals first"
    blunder = {"kind": "blunder", "seat": 0, "cards": ["7H"], "why": "7H does not match KS"}
    assert line(blunder) == "ann blunders with 7H (7H does not match KS)"
    assert line({"kind": "miss", "seat": 1, "turns": 2}) == "bob misses 2 turns"
    assert line({"kind": "miss", "seat": 1, "turns": 1}) == "bob misses 1 turn"
    assert line({"kind": "draw", "seat": 1, "count": 1, "reason": "draw"}) == "bob draws 1 card"
    assert line({"kind": "knockout", "seat": 1, "by": 0, "count": 1}) == (
        "bob is knocked out (1 card to ann)"
    )
