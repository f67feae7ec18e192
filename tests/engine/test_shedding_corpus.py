"""A recorded corpus of random shedding games, replayed digest by digest.

The corpus (``shedding_corpus.json.gz`` beside this file) holds the records of
random games of every preset at random table sizes and house rules, each with a
short digest per action of everything a player or program could observe after
it: every seat's view and the spectator's, the events as each seat sees them, the
legal actions of the seat to act, and now and then a snapshot and a world rebuilt
from a view. Replaying the records and checking every digest proves that a change
to the engine's insides kept its behaviour, action by action, where the property
tests prove only that the invariants hold.

A change that is meant to change behaviour regenerates it, deliberately::

    PYTHONPATH=. python tests/engine/test_shedding_corpus.py

from the checkout's root: a script's own folder comes first on its path, so without
``PYTHONPATH`` the engine it records would be the installed checkout's, not this one's.

The games are played by a driver that mostly lays a listed card, sometimes
another listed action, and sometimes a card of its hand whether or not it is
legal (a refused try is not in the record; a penalised blunder is).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import digest_corpus
import pytest
from shedding_house import fitting

import engine
from engine.actions import Action, Play
from engine.cards import Card

CORPUS = Path(__file__).resolve().parent / "shedding_corpus.json.gz"
PRESETS = ("switch", "blackjack", "irish", "j28", "taketwo", "gamebot")
GAMES_PER_PRESET = 50
#: Every this many actions a snapshot and a world rebuilt from the view join the digest.
SNAPSHOT_EVERY = 29


def _options(preset: str, rng: random.Random) -> dict[str, Any]:
    options = {
        "jokers": rng.choice([0, 0, 1, 2]),
        "combos": rng.choice(["single", "sets", "runs", "mixed", "chain", None]),
        "draw": rng.choice([1, 1, 2, "until", None]),
        "play_drawn": rng.choice([True, False, None]),
        "finish": rng.choice(["first", "last_one", None]),
        "go_on": rng.choice(["", "J", "A J", None]),
        "pickup_together": rng.choice([True, False, None]),
        "red_jacks_add": rng.choice([0, 3, None]),
        "cards_call": rng.choice([True, False, None]),
        "target": rng.choice([0, 0, 0, 50]),
    }
    return fitting(preset, {k: v for k, v in options.items() if v is not None})


def _observed(game: engine.Game, events: list[engine.Event], n: int) -> bytes:
    """Everything observable after an action, as canonical bytes."""
    seats = [*range(game.seats), None]
    seen: dict[str, Any] = {
        "views": [game.view(s) for s in seats],
        "events": [[e.kind, [e.present(s) for s in seats]] for e in events],
    }
    if game.to_act is not None:
        seen["legal"] = [str(a) for a in game.legal_actions(game.to_act)]
    if n % SNAPSHOT_EVERY == 0 and not game.over:
        snap = game.snapshot()
        seen["snapshot"] = {**snap, "rng": None, "rng_digest": repr(snap["rng"])}
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        world = type(game).from_view(view)
        seen["world"] = [world.view(seat), [str(a) for a in world.legal_actions(seat)]]
    return json.dumps(seen, sort_keys=True, separators=(",", ":"), default=repr).encode()


def _choose(game: engine.Game, rng: random.Random) -> Action:
    seat = game.to_act
    assert seat is not None
    legal = game.legal_actions(seat)
    roll = rng.random()
    hand = game.view(seat)["hand"]
    if roll < 0.08 and hand:
        k = min(len(hand), rng.choice([1, 1, 2, 3]))
        return Play(tuple(Card.parse(t) for t in rng.sample(hand, k)))
    plays = [a for a in legal if isinstance(a, Play)]
    if plays and roll < 0.8:
        return plays[rng.randrange(len(plays))]
    return legal[rng.randrange(len(legal))]


def _digests(record: dict[str, Any]) -> tuple[list[bytes], str]:
    """Replay ``record`` and digest what is observable after each action."""
    game = engine.new_game(
        record["ruleset"], seats=record["seats"], seed=record["seed"], options=record["options"]
    )
    return digest_corpus.digests(game, record["actions"], _observed)


def _play(preset: str, seed: int) -> dict[str, Any]:
    rng = random.Random(f"{preset} {seed}")
    max_seats = engine.ruleset(preset).max_seats
    game = engine.new_game(
        preset, seats=rng.randint(2, max_seats), seed=seed, options=_options(preset, rng)
    )
    while not game.over:
        seat = game.to_act
        assert seat is not None
        try:
            game.apply(seat, _choose(game, rng))
        except engine.IllegalActionError:
            continue
    return game.record()


def write_corpus() -> None:
    records = (_play(preset, seed) for preset in PRESETS for seed in range(GAMES_PER_PRESET))
    digest_corpus.write(CORPUS, records, _digests)


def test_the_corpus_covers_every_preset() -> None:
    games = digest_corpus.read(CORPUS)
    assert {g["record"]["ruleset"] for g in games} == set(PRESETS)
    assert len(games) == len(PRESETS) * GAMES_PER_PRESET


#: The corpus is replayed in parts, so that parallel test workers share it.
PARTS = 8


@pytest.mark.parametrize("part", range(PARTS))
def test_every_recorded_game_replays_to_the_same_digests(part: int) -> None:
    games = list(enumerate(digest_corpus.read(CORPUS)))
    for number, entry in games[part::PARTS]:
        record = entry["record"]
        first, same_chain = digest_corpus.first_difference(entry, _digests)
        assert first is None, (
            f"game {number} ({record['ruleset']}, {record['seats']} seats, seed"
            f" {record['seed']}) differs after action {first}: {record['actions'][first]}"
        )
        assert same_chain, f"game {number} differs in its opening or its chain"


def test_the_check_finds_a_changed_game() -> None:
    """The digests notice a game that went another way: one action changed."""
    entry = digest_corpus.read(CORPUS)[0]
    record = entry["record"]
    game = engine.new_game(
        record["ruleset"], seats=record["seats"], seed=record["seed"], options=record["options"]
    )
    for k, (seat, text) in enumerate(record["actions"]):
        legal = [str(a) for a in game.legal_actions(seat)]
        other = next((a for a in legal if a != text), None)
        if other is not None:
            changed = {**record, "actions": [*record["actions"][:k], [seat, other]]}
            short, _ = _digests(changed)
            assert short[k] != digest_corpus.split(entry["digests"])[k]
            return
        game.apply(seat, text)
    raise AssertionError("no action had another legal choice")


if __name__ == "__main__":
    write_corpus()
