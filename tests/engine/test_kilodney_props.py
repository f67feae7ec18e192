"""Kilodney invariants over many random games, 4 to 9 players.

Each game is played to its end by random legal plays, and after every action:
no card is created or lost; no presented event or view, msgpack-encoded as it
goes on the wire, for any seat or a spectator, names a card of a knocked-out or
stranded hand; an illegal action changes nothing. At the end, replaying the
record gives the identical game, and the game ended the moment someone reached
the target.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import msgpack
import pytest
from hypothesis import given
from hypothesis import strategies as st
from support import soak

import engine
from engine.events import Event
from engine.kilodney import Kilodney

MAX_ACTIONS = 20_000


def viewers(game: Kilodney) -> list[int | None]:
    return [*range(game.seats), None]


def wire(obj: object) -> bytes:
    return msgpack.packb(obj)


def names(card: str) -> bytes:
    """How a card appears in msgpack: a 2-byte fixstr."""
    return b"\xa2" + card.encode()


def all_views(game: Kilodney) -> list[bytes]:
    return [wire(game.view(v)) for v in viewers(game)]


@dataclass
class HandWatch:
    """What every viewer was shown during one hand, and which cards went face down when."""

    shown: list[tuple[int | None, int, bytes]] = field(default_factory=list)
    hidden: list[tuple[int, list[str], int]] = field(default_factory=list)

    def show(self, game: Kilodney, step: int, events: list[Event]) -> None:
        for v in viewers(game):
            self.shown.extend((v, step, wire(e.present(v))) for e in events)

    def show_views(self, game: Kilodney, step: int) -> None:
        self.shown.extend((v, step, b) for v, b in zip(viewers(game), all_views(game), strict=True))

    def check(self) -> None:
        for owner, cards, since in self.hidden:
            secret = [names(c) for c in cards if c != "JK"]  # jokers are alike: count only
            for viewer, step, data in self.shown:
                if viewer != owner or step >= since:
                    leaked = [c for c in secret if c in data]
                    assert not leaked, (owner, viewer, step, leaked, msgpack.unpackb(data))


def try_illegal(game: Kilodney, rng: random.Random) -> None:
    """An illegal action of some kind is refused and changes nothing at all."""
    seat = game.to_act
    assert seat is not None
    hand = {str(c) for c in game.hands[seat]}
    top = game.top if game.running else None
    options = ["draw", "play " + rng.choice(sorted(hand)) + " last"]
    other = rng.choice([s for s in range(game.seats) if s != seat])
    if game.hands[other]:
        options.append((other, f"play {game.hands[other][0]}"))
    missing = [str(c) for c in game._full_deck() if str(c) not in hand]
    if missing:
        options.append("play " + rng.choice(missing))
    if top is not None:
        stuck = [c for c in sorted(hand) if c != "JK" and c[0] != top.rank and c[1] != top.suit]
        if stuck:
            options.append("play " + rng.choice(stuck))
    choice = rng.choice(options)
    actor, action = choice if isinstance(choice, tuple) else (seat, choice)
    before = all_views(game), game.record()
    with pytest.raises(engine.IllegalActionError):
        game.apply(actor, action)
    assert (all_views(game), game.record()) == before


def play_checked(seats: int, seed: int, extra: int | None, deep: bool) -> Kilodney:
    """Play one random game to its end, checking the invariants as it goes."""
    options = {} if extra is None else {"extra_jokers": extra}
    game = engine.new_game("kilodney", seats=seats, seed=seed, options=options)
    assert isinstance(game, Kilodney)
    rng = random.Random(seed)
    deck = sorted(str(c) for c in game._full_deck())
    watch = HandWatch()
    if deep:
        watch.show(game, 0, game.opening_events)
        watch.show_views(game, 0)
    plays_this_hand = 0
    step = 0
    while not game.over:
        step += 1
        assert step < MAX_ACTIONS, "the game does not end"
        assert max(game.scores) < game.target
        seat = game.to_act
        assert seat is not None and game.in_hand[seat]
        if sum(game.in_hand) == 1:
            # The last player replies: the rotation never breaks, so he holds one card.
            assert game.running and len(game.hands[seat]) == 1
        if deep and rng.random() < 0.1:
            try_illegal(game, rng)
        before = [[str(c) for c in h] for h in game.hands]
        legal = game.legal_actions(seat)
        assert legal, "the player to act always has a play (knock-outs are automatic)"
        action = legal[rng.randrange(len(legal))]
        events = game.apply(seat, action)
        plays_this_hand += 1
        assert plays_this_hand <= len(deck)
        kinds = [e.kind for e in events]
        cut = next((i + 1 for i, k in enumerate(kinds) if k in ("hand_end", "game_end")), None)
        this_hand = events if cut is None else events[:cut]
        for e in this_hand:
            if e.kind == "knockout":
                owner = e.public["seat"]
                assert len(before[owner]) == e.public["count"]
                watch.hidden.append((owner, before[owner], step))
            if e.kind == "hand_end":
                for entry in e.public["stranded"]:
                    owner = entry["seat"]
                    cards = list(before[owner])
                    if owner == seat:
                        cards.remove(str(action.cards[0]))
                    assert len(cards) == entry["count"] > 0
                    watch.hidden.append((owner, cards, step))
        # No card created or lost.
        assert sorted([str(c) for h in game.hands for c in h] + [str(c) for c in game.pile]) == deck
        for s in range(seats):
            assert game.in_hand[s] <= bool(game.hands[s])
            if s in game.knocked_out or s in game.stranded:
                assert game.view(s)["hand"] == []
        if deep:
            watch.show(game, step, this_hand)
            if cut is None or game.over:
                watch.show_views(game, step)
        if cut is not None:
            if deep:
                watch.check()
                watch = HandWatch()
                watch.show(game, step, events[cut:])
                watch.show_views(game, step)
            plays_this_hand = 0
    assert game.to_act is None and game.winner is not None
    assert game.scores[game.winner] >= game.target
    assert sorted(game.scores)[-2] < game.target
    if deep:
        watch.check()
        again = engine.replay(game.record())
        assert all_views(again) == all_views(game) and again.record() == game.record()
    return game


@given(
    seats=st.integers(4, 9),
    seed=st.integers(0, 2**31 - 1),
    extra=st.sampled_from([None, 0, 1, 2]),
)
def test_random_games_keep_every_invariant(seats: int, seed: int, extra: int | None) -> None:
    play_checked(seats, seed, extra, deep=True)


@pytest.mark.slow
def test_soak_every_game_reaches_the_target() -> None:
    hands = 0
    for i in range(soak(120, 5000)):
        game = play_checked(4 + i % 6, 10_000 + i, None, deep=False)
        hands += game.hand_number
    assert hands >= soak(120, 5000)


def test_replay_matches_mid_game() -> None:
    for seed in range(soak(10, 200)):
        game = engine.new_game("kilodney", seats=4 + seed % 6, seed=seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(1, 300)):
            if game.over:
                break
            legal = game.legal_actions(game.to_act)
            game.apply(game.to_act, legal[rng.randrange(len(legal))])
        again = engine.replay(game.record())
        assert all_views(again) == all_views(game) and again.record() == game.record()
