"""A recorded corpus of random abbott games, replayed digest by digest.

The corpus (``abbott_corpus.json.gz`` beside this file) holds the records of random
games at both boards (4 players on 6x6, 2 on 5x5) and random house rules, some with
the cut for the first dealer, some with a fixed deck of one or two packs, each with
a short digest per action of everything a player or program could observe after it:
every seat's view and the spectator's, the events as each seat sees them, every
seat's legal actions, how a probing action is normalised, judged and explained
(legal or not), and now and then a snapshot, a copy, a game restored from the
snapshot, a world rebuilt from a view and the card bit under every square. Replaying
the records and checking every digest proves that a change to the engine's insides
kept its behaviour, action by action, where the property tests prove only that the
invariants hold.

A change that is meant to change behaviour regenerates it, deliberately::

    PYTHONPATH=. python tests/engine/test_abbott_corpus.py

from the checkout's root: a script's own folder comes first on its path, so without
``PYTHONPATH`` the engine it records would be the installed checkout's, not this one's.

The games are played by a driver that mostly moves (often to take the best card in
reach), sometimes names a partner (by compass name or seat number), and now and
then has any seat vote to end the hand or concede, or try an action that may well
be illegal (a refused try is not in the record).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import digest_corpus
import pytest

import engine
from engine.abbott import SIZES, square_name
from engine.actions import Action, Move, as_action
from engine.cards import FULL_PACK, shuffled

CORPUS = Path(__file__).resolve().parent / "abbott_corpus.json.gz"
#: Games at each table size (4 players on the 6x6 board, 2 on the 5x5).
GAMES_PER_SIZE = 100
#: Every this many actions a snapshot, a copy, a restore and a rebuilt world join the digest.
SNAPSHOT_EVERY = 23
#: What the probe tries after each action, in turn, for one seat in turn: moves on and
#: off the board, partners by name and number (and nonsense), the votes and concession.
PROBES = (
    *(square_name(i, 6) for i in range(36)),
    *(f"ally {p}" for p in ("south", "West", "north", "east", "0", "1", "2", "3", "5", "x")),
    "vote end",
    "concede",
    "pass",
)


def _options(rng: random.Random) -> dict[str, Any]:
    options = {
        "alliance_from_round": rng.choice([1, 1, 2, 4, None]),
        "end_when_decided": rng.choice([True, False, None]),
        "stall_limit": rng.choice([0, 3, 8, None, None]),
        "target": rng.choice([0, 10, 30, None, None]),
    }
    return {k: v for k, v in options.items() if v is not None}


def _probe(game: engine.Game, n: int) -> list[Any]:
    """How the game takes one action it may or may not allow, chosen by ``n``."""
    text = PROBES[n % len(PROBES)]
    seat = n % game.seats
    parsed = as_action(text if " " in text or text in ("concede", "pass") else f"move {text}")
    action = game.normalize(seat, parsed)
    legal = game.is_legal(seat, action)
    return [seat, str(action), legal, None if legal else game.explain(seat, action)]


def _observed(game: engine.Game, events: list[engine.Event], n: int) -> bytes:
    """Everything observable after an action, as canonical bytes."""
    seats = [*range(game.seats), None]
    seen: dict[str, Any] = {
        "views": [game.view(s) for s in seats],
        "events": [[e.kind, [e.present(s) for s in seats]] for e in events],
        "legal": [[str(a) for a in game.legal_actions(s)] for s in range(game.seats)],
        "probe": None if game.over else _probe(game, n),
    }
    if n % SNAPSHOT_EVERY == 0:
        snap = game.snapshot()
        seen["snapshot"] = {**snap, "rng": None, "rng_digest": repr(snap["rng"])}
        restored = engine.restore(game.record(), snap)
        twin = game.copy()
        seen["again"] = [restored.view(None), twin.view(None), twin.record() == game.record()]
        size = game.view(None)["size"]
        seen["bits"] = [game.grid_bit(square_name(i, size)) for i in range(size * size)]  # type: ignore[attr-defined]
        if not game.over:
            seat = game.to_act
            assert seat is not None
            world = type(game).from_view(game.view(seat))
            seen["world"] = [world.view(seat), [str(a) for a in world.legal_actions(seat)]]
    return json.dumps(seen, sort_keys=True, separators=(",", ":"), default=repr).encode()


def _choose(game: engine.Game, rng: random.Random) -> tuple[int, Action | str]:
    """A seat and what it tries: usually the mover's move, sometimes anything."""
    seat = game.to_act
    assert seat is not None
    roll = rng.random()
    if roll < 0.02:
        return rng.randrange(game.seats), rng.choice(["vote end", "concede"])
    if roll < 0.05:
        text = PROBES[rng.randrange(len(PROBES))]
        return seat, text if " " in text or text in ("concede", "pass") else f"move {text}"
    legal = game.legal_actions(seat)
    allies = [a for a in legal if a.verb == "ally"]
    if allies and roll < 0.3:
        partner = rng.randrange(game.seats)
        return seat, rng.choice([f"ally {partner}", str(allies[rng.randrange(len(allies))])])
    moves = [a for a in legal if isinstance(a, Move)]
    if moves and roll < 0.6:
        return seat, max(moves, key=lambda m: game.grid_bit(m.square))  # type: ignore[attr-defined]
    if moves and roll < 0.97:
        return seat, moves[rng.randrange(len(moves))]
    return seat, legal[rng.randrange(len(legal))]


def _start(seats: int, seed: int, rng: random.Random) -> engine.Game:
    dealer = rng.choice([None, rng.randrange(seats)])
    deck = None
    roll = rng.random()
    if roll < 0.1:
        cells = SIZES[seats] ** 2
        deck = shuffled(FULL_PACK, rng)[: rng.randint(cells, 52)]
    elif roll < 0.2:
        deck = shuffled(FULL_PACK, rng) + shuffled(FULL_PACK, rng)
    return engine.new_game(
        "abbott", seats=seats, seed=seed, options=_options(rng), dealer=dealer, deck=deck
    )


def _play(seats: int, seed: int) -> dict[str, Any]:
    rng = random.Random(f"abbott {seats} {seed}")
    game = _start(seats, seed, rng)
    while not game.over:
        seat, action = _choose(game, rng)
        try:
            game.apply(seat, action)
        except (engine.IllegalActionError, engine.InvalidActionError):
            continue
    return game.record()


def _digests(record: dict[str, Any]) -> tuple[list[bytes], str]:
    """Replay ``record`` and digest what is observable after each action."""
    game = engine.registry.record_start(record)
    return digest_corpus.digests(game, record["actions"], _observed)


def write_corpus() -> None:
    records = (_play(seats, seed) for seats in sorted(SIZES) for seed in range(GAMES_PER_SIZE))
    digest_corpus.write(CORPUS, records, _digests)


def test_the_corpus_covers_both_boards_and_every_kind_of_action() -> None:
    games = digest_corpus.read(CORPUS)
    assert sorted(g["record"]["seats"] for g in games) == [2] * 100 + [4] * 100
    verbs = {text.split()[0] for g in games for _, text in g["record"]["actions"]}
    assert verbs == {"move", "ally", "vote", "concede"}
    assert any(g["record"]["deck"] and len(g["record"]["deck"]) == 104 for g in games)
    assert any(g["record"]["dealer"] is None for g in games)


#: The corpus is replayed in parts, so that parallel test workers share it.
PARTS = 8


@pytest.mark.parametrize("part", range(PARTS))
def test_every_recorded_game_replays_to_the_same_digests(part: int) -> None:
    games = list(enumerate(digest_corpus.read(CORPUS)))
    for number, entry in games[part::PARTS]:
        record = entry["record"]
        first, same_chain = digest_corpus.first_difference(entry, _digests)
        assert first is None, (
            f"game {number} ({record['seats']} seats, seed {record['seed']})"
            f" differs after action {first}: {record['actions'][first]}"
        )
        assert same_chain, f"game {number} differs in its opening or its chain"


def test_the_check_finds_a_changed_game() -> None:
    """The digests notice a game that went another way: one action changed."""
    entry = digest_corpus.read(CORPUS)[0]
    record = entry["record"]
    game = engine.registry.record_start(record)
    for k, (seat, text) in enumerate(record["actions"]):
        legal = [str(a) for a in game.legal_actions(seat)]
        other = next((a for a in legal if a != text and a.startswith("move")), None)
        if other is not None:
            changed = {**record, "actions": [*record["actions"][:k], [seat, other]]}
            short, _ = _digests(changed)
            assert short[k] != digest_corpus.split(entry["digests"])[k]
            return
        game.apply(seat, text)
    raise AssertionError("no action had another legal choice")


if __name__ == "__main__":
    write_corpus()
