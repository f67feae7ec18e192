"""Snapshots: a game restored from ``snapshot()`` after its first k actions, plus the
actions after k, is the game a full replay of the record gives, and plays on the same.

Over random games of every ruleset with house rules, random seats and seeds, and (in
the shedding presets that penalise them) blunders. Each snapshot goes through msgpack
first, as the store keeps it, and is taken from the live game mid-play, so a snapshot
that shared a list with the game would be caught changing as the game went on.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import msgpack
import pytest
from hypothesis import given
from hypothesis import strategies as st
from shedding_house import fitting

import engine
from engine.actions import Play
from engine.shedding import PRESETS
from engine.shedding.codes import CARD
from engine.shedding.game import SheddingGame

#: Actions played per random game at most: enough for several hands of every family.
LENGTH = 320
#: Caches a family may fill lazily: not state (a restored game rebuilds them on use).
CACHES = {"_listed"}


def state(game: engine.Game) -> dict[str, Any]:
    """Everything the game holds, its generator's state included; its actions as its record
    has them (a restored game holds those of its snapshot apart: ``Game._held``)."""
    kept = CACHES | {"rng", "_held", "_log"}
    out = {k: v for k, v in vars(game).items() if k not in kept}
    out["rng"] = game.rng.getstate()
    out["actions"] = game.record()["actions"]
    return out


def seen(game: engine.Game) -> list[Any]:
    """What anyone can ask of the game: each seat's and a spectator's view, each seat's
    legal actions, the record."""
    seats = range(game.seats)
    return [
        [game.view(s) for s in [*seats, None]],
        [[str(a) for a in game.legal_actions(s)] for s in seats],
        game.to_act,
        game.over,
        list(game.scores),
        game.record(),
    ]


def step(game: engine.Game, rng: random.Random) -> list[engine.Event]:
    """One random action: mostly the seat to act's legal move (a play, when it is a
    shedding game, four times in five, so hands end), sometimes another seat's (votes,
    concessions), now and then a wrong play of a held card (a blunder where the preset
    penalises it; refused, changing nothing, where not)."""
    seat = game.to_act
    assert seat is not None
    if isinstance(game, SheddingGame) and game.hands[seat] and rng.random() < 0.05:
        card = game.hands[seat][rng.randrange(len(game.hands[seat]))]
        try:
            return game.apply(seat, Play((CARD[card],)))
        except engine.IllegalActionError:
            pass
    if rng.random() < 0.05:
        other = rng.randrange(game.seats)
        if legal := game.legal_actions(other):
            return game.apply(other, rng.choice(legal))
    legal = game.legal_actions(seat)
    plays = [a for a in legal if isinstance(a, Play)]
    if isinstance(game, SheddingGame) and plays and rng.random() < 0.8:
        return game.apply(seat, rng.choice(plays))
    return game.apply(seat, rng.choice(legal))


def round_trip(snapshot: dict[str, Any]) -> dict[str, Any]:
    """The snapshot as the store gives it back."""
    return msgpack.unpackb(msgpack.packb(snapshot), strict_map_key=True)


def play(
    ruleset: str, seats: int, seed: int, options: dict[str, Any], at: int | None = None
) -> tuple[engine.Game, int, Any, list[list[engine.Event]]]:
    """A random game of up to ``LENGTH`` steps: the game, its steps, the snapshot taken
    live after ``at`` steps (and its bytes then), and each later step's events."""
    game = engine.new_game(ruleset, seats=seats, seed=seed, options=options)
    rng = random.Random(seed)
    length = rng.randrange(1, LENGTH)
    snapshot: Any = (None, None)
    after: list[list[engine.Event]] = []
    n = 0
    while True:
        if n == at:
            taken = game.snapshot()
            snapshot = (taken, msgpack.packb(taken))
        if n == length or game.over:
            return game, n, snapshot, after
        events = step(game, rng)
        n += 1
        if at is not None and n > at:
            after.append(events)


def check_restore(ruleset: str, seats: int, seed: int, options: dict[str, Any], cut: float) -> None:
    steps = play(ruleset, seats, seed, options)[1]
    game, _steps, (snapshot, kept), after = play(ruleset, seats, seed, options, int(cut * steps))
    assert msgpack.packb(snapshot) == kept, "the snapshot changed as the game went on"
    record = game.record()
    # at the cut itself: nothing after it to cover a piece of state the snapshot missed
    head = {**record, "actions": record["actions"][: snapshot["actions"]]}
    assert state(engine.restore(head, round_trip(snapshot))) == state(engine.replay(head))
    replayed = engine.replay(record)
    observed: list[list[engine.Event]] = []
    restored = engine.restore(record, round_trip(snapshot), observed.append)
    assert state(restored) == state(replayed) == state(game)
    assert seen(restored) == seen(replayed) == seen(game)
    assert observed == after
    # the same future: the same actions make the same events, deals included
    future = random.Random(seed + 1)
    while not restored.over and len(restored.record()["actions"]) < 2 * LENGTH:
        mark = future.getstate()
        expected = step(replayed, future)
        future.setstate(mark)
        assert step(restored, future) == expected
    assert state(restored) == state(replayed)
    assert seen(restored) == seen(replayed)


cut_st = st.floats(0.0, 1.0)
seed_st = st.integers(0, 2**32)


@given(
    seats=st.sampled_from([2, 4]),
    seed=seed_st,
    cut=cut_st,
    options=st.fixed_dictionaries(
        {},
        optional={
            "alliance_from_round": st.integers(1, 5),
            "end_when_decided": st.booleans(),
            "stall_limit": st.integers(0, 8),
            "target": st.sampled_from([0, 5, 20]),
        },
    ),
)
def test_abbott_restores_as_it_replays(
    seats: int, seed: int, cut: float, options: dict[str, Any]
) -> None:
    check_restore("abbott", seats, seed, options, cut)


@given(
    seats=st.integers(4, 9),
    seed=seed_st,
    cut=cut_st,
    options=st.fixed_dictionaries(
        {},
        optional={"extra_jokers": st.sampled_from([None, 0, 1, 2]), "target": st.integers(5, 50)},
    ),
)
def test_kilodney_restores_as_it_replays(
    seats: int, seed: int, cut: float, options: dict[str, Any]
) -> None:
    check_restore("kilodney", seats, seed, options, cut)


@given(
    preset=st.sampled_from(sorted(PRESETS)),
    seats=st.integers(2, 8),
    seed=seed_st,
    cut=cut_st,
    options=st.fixed_dictionaries(
        {},
        optional={
            "jokers": st.integers(0, 2),
            "combos": st.sampled_from(["single", "sets", "runs", "mixed", "chain"]),
            "draw": st.sampled_from([1, 2, "until"]),
            "play_drawn": st.booleans(),
            "finish": st.sampled_from(["first", "last_one"]),
            "target": st.sampled_from([0, 50, 200]),
            "illegal_penalty": st.integers(0, 2),
            "go_on": st.sampled_from(["", "J", "A J"]),
            "pickup_together": st.booleans(),
            "red_jacks_add": st.sampled_from([0, 3]),
            "cards_call": st.booleans(),
            "skip_chain": st.booleans(),
        },
    ),
)
def test_shedding_restores_as_it_replays(
    preset: str, seats: int, seed: int, cut: float, options: dict[str, Any]
) -> None:
    check_restore(preset, min(seats, PRESETS[preset][1]), seed, fitting(preset, options), cut)


def test_a_snapshot_is_plain_data() -> None:
    """msgpack takes it as it is, and it holds no action log (the record has that)."""
    for ruleset in engine.rulesets():
        game = engine.new_game(ruleset, seats=4, seed=3)
        for _ in range(5):
            game.apply(game.to_act, game.legal_actions(game.to_act)[0])
        snapshot = game.snapshot()
        assert round_trip(snapshot) == snapshot
        assert snapshot["actions"] == 5 and "seed" not in snapshot


@pytest.mark.parametrize(
    ("change", "why"),
    [
        (lambda s: s.update(format=s["format"] + 1), "format"),
        (lambda s: s.update(ruleset="kilodney"), "another game"),
        (lambda s: s.update(actions=9), "follows"),
        (lambda s: s["state"].pop("turn"), "damaged"),
        (lambda s: s.update(rng=[3, b"short", None]), "damaged"),
        (lambda s: s.update(state=None), "damaged"),
    ],
)
def test_a_snapshot_of_another_format_or_game_or_damaged_is_refused(change: Any, why: str) -> None:
    game = engine.new_game("switch", seats=3, seed=5)
    for _ in range(4):
        game.apply(game.to_act, game.legal_actions(game.to_act)[0])
    snapshot = round_trip(game.snapshot())
    change(snapshot)
    with pytest.raises(engine.SnapshotError, match=why):
        engine.restore(game.record(), snapshot)
    assert isinstance(engine.SnapshotError("x"), ValueError)


class Unread(Sequence[Any]):
    """A record's actions up to a snapshot that counts how often they are read (as a
    server's store reads them lazily): its slice up to the snapshot is itself."""

    def __init__(self, actions: list[Any], held: int) -> None:
        self.actions, self.held, self.reads = actions, held, 0

    def __len__(self) -> int:
        return len(self.actions)

    def __getitem__(self, index: Any) -> Any:
        if index == slice(None, self.held):
            return Unread(self.actions[: self.held], self.held)
        self.reads += 1
        return self.actions[index]


def test_a_restore_keeps_the_actions_its_snapshot_holds_unread_until_the_record_is_asked(
) -> None:  # fmt: skip
    game = engine.new_game("kilodney", seats=4, seed=6)
    rng = random.Random(6)
    for _ in range(20):
        step(game, rng)
    snapshot = round_trip(game.snapshot())
    for _ in range(5):
        step(game, rng)
    record = game.record()
    actions = Unread(record["actions"], 20)
    restored = engine.restore({**record, "actions": actions}, snapshot)
    held = restored._held
    assert isinstance(held, Unread) and held.reads == 0
    twin = restored.copy()
    assert (restored.actions_taken, twin.actions_taken) == (25, 25)
    assert restored.snapshot() == game.snapshot() and held.reads == 0
    assert restored.record() == twin.record() == record and held.reads > 0
    bare = engine.restore({**record, "actions": record["actions"][:20]}, snapshot)
    assert bare.last_action == game.record()["actions"][19] and bare.actions_taken == 20
