"""The engine contract itself, checked on a tiny game so it holds for every family.

The toy game: seats take turns drawing from a seeded pile; ``pass`` ends the
game once everyone has drawn twice. It is small enough that every guarantee
of ``Game.apply``/``record``/``replay`` can be seen plainly.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import engine
from engine import registry
from engine.actions import Action, Draw, Pass
from engine.cards import Card, make_deck, shuffled
from engine.events import Event
from engine.game import Game
from engine.options import Option, OptionSchema
from engine.vocabulary import CommonView


class ToyGame(Game):
    family = "toy"
    min_seats = 2
    max_seats = 3
    schema = OptionSchema([Option("rounds", 2, "draws each", minimum=1, maximum=5)])

    def _setup(self, dealer: int | None, deck: list[Card] | None) -> None:
        self.pile = deck if deck is not None else shuffled(make_deck(), self.rng)
        self.hands: list[list[Card]] = [[] for _ in range(self.seats)]
        self.turn = 0 if dealer is None else (dealer + 1) % self.seats
        self.done = False

    @property
    def to_act(self) -> int | None:
        return None if self.done else self.turn

    @property
    def over(self) -> bool:
        return self.done

    @property
    def scores(self) -> list[int]:
        return [sum(c.value for c in h) for h in self.hands]

    def legal_actions(self, seat: int) -> list[Action]:
        if self.done or seat != self.turn:
            return []
        if all(len(h) >= self.options["rounds"] for h in self.hands):
            return [Pass()]
        return [Draw()]

    def _apply(self, seat: int, action: Action) -> list[Event]:
        if isinstance(action, Pass):
            self.done = True
            return [Event("end", {"scores": self.scores})]
        card = self.pile.pop(0)
        self.hands[seat].append(card)
        self.turn = (seat + 1) % self.seats
        return [Event("draw", {"seat": seat, "count": 1}, {seat: {"cards": [str(card)]}})]

    def _view(self, seat: int | None, common: CommonView) -> Any:
        return {
            "ruleset": common["ruleset"],
            "family": self.family,
            **common,
            "hand": None if seat is None else [str(c) for c in self.hands[seat]],
            "sizes": [len(h) for h in self.hands],
        }


@pytest.fixture
def toy() -> Iterator[str]:
    registry.register("toy", ToyGame, "a test game")
    yield "toy"
    registry._RULESETS.pop("toy")


def views(game: Game) -> list[dict[str, Any]]:
    return [game.view(s) for s in [*range(game.seats), None]]


def play_out(game: Game) -> None:
    while not game.over:
        game.apply(game.to_act, game.legal_actions(game.to_act)[0])


def test_new_game_validates_seats_options_and_dealer(toy: str) -> None:
    assert toy in engine.rulesets()
    with pytest.raises(engine.OptionError, match="2 to 3 seats"):
        engine.new_game(toy, seats=4)
    with pytest.raises(engine.OptionError, match="'rounds'"):
        engine.new_game(toy, seats=2, options={"rounds": 9})
    with pytest.raises(engine.OptionError, match="unknown option"):
        engine.new_game(toy, seats=2, options={"roundz": 1})
    with pytest.raises(engine.OptionError, match="no seat 5"):
        engine.new_game(toy, seats=2, dealer=5)
    with pytest.raises(engine.OptionError, match="unknown ruleset"):
        engine.new_game("no-such-game", seats=2)
    game = engine.new_game(toy, seats=2, options={"turn_seconds": 0})
    assert game.options == {"rounds": 2, "turn_seconds": 0}


def test_illegal_action_raises_with_reason_and_changes_nothing(toy: str) -> None:
    game = engine.new_game(toy, seats=3, seed=4)
    before = views(game)
    with pytest.raises(engine.IllegalActionError, match="not your turn") as err:
        game.apply(1, "draw")
    assert err.value.seat == 1 and err.value.reason == "it is not your turn"
    with pytest.raises(engine.IllegalActionError, match="no seat 7"):
        game.apply(7, "draw")
    with pytest.raises(engine.InvalidActionError):
        game.apply(0, "drwa")
    assert views(game) == before and game.record()["actions"] == []


def test_events_show_the_drawn_card_only_to_the_drawer(toy: str) -> None:
    game = engine.new_game(toy, seats=2, deck=["QH", "2C"] + [str(c) for c in make_deck()[2:]])
    (event,) = game.apply(0, "draw")
    assert event.present(0)["cards"] == ["QH"]
    assert "cards" not in event.present(1) and "cards" not in event.present(None)
    assert game.view(None)["hand"] is None and game.view(0)["hand"] == ["QH"]


def test_record_replays_to_the_identical_state(toy: str) -> None:
    for seed in range(5):
        game = engine.new_game(toy, seats=3, seed=seed, options={"rounds": 3})
        for _ in range(4):
            game.apply(game.to_act, "draw")
        again = engine.replay(game.record())
        assert views(again) == views(game) and again.record() == game.record()
        play_out(game)
        assert game.over and game.to_act is None
        assert views(engine.replay(game.record())) == views(game)
        with pytest.raises(engine.IllegalActionError, match="over"):
            game.apply(0, "draw")


def test_replay_shows_the_events_the_game_made(toy: str) -> None:
    """``replay(record, observe)`` hands over the very events, in order, that the
    game made: the opening ones, then each action's."""
    game = engine.new_game(toy, seats=3, seed=4, options={"rounds": 3})
    made = [e.present(1) for e in game.opening_events]
    for _ in range(5):
        made += [e.present(1) for e in game.apply(game.to_act, "draw")]
    shown: list = []
    engine.replay(game.record(), lambda events: shown.extend(e.present(1) for e in events))
    assert shown == made and len(made) > len(game.opening_events)


def test_same_seed_same_game_other_seed_other_game(toy: str) -> None:
    a, b, c = (engine.new_game(toy, seats=2, seed=s) for s in (1, 1, 2))
    for g in (a, b, c):
        play_out(g)
    assert a.view(0) == b.view(0) and a.view(0) != c.view(0)


def test_view_has_the_common_keys_for_every_seat(toy: str) -> None:
    game = engine.new_game(toy, seats=2)
    v = game.view(1)
    assert {k: v[k] for k in ("ruleset", "family", "seats", "viewer", "to_act", "over")} == {
        "ruleset": "toy",
        "family": "toy",
        "seats": 2,
        "viewer": 1,
        "to_act": 0,
        "over": False,
    }
    with pytest.raises(ValueError):
        game.view(2)
