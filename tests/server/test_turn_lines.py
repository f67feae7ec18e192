"""A batch's turns share their table's lines (``wire.TurnLines``): whom the table waits
for and what the pile asks are composed once an action for every seat and the
spectators (``Delivery.turn_lines``), and each turn says what it said when its lines were
composed for it alone (``wire.turn``)."""

from __future__ import annotations

import random
from typing import Any

import pytest

import engine
from engine.game import Game
from protocol import messages as m
from protocol.fields import TableState
from protocol.table_lines import PILE_FIELDS, follow_line, pile_text
from server.core import wire
from server.tables.delivery import Delivery
from server.tables.seating import Seating

PLAYERS = ["ann", "bot:random", None, "di"]


class Stage:
    """A table playing ``game`` as delivery reads it."""

    ruleset = "switch"
    state = TableState.PLAYING
    master = None

    def __init__(self, game: Game[Any]) -> None:
        self.game = game
        self.players_now = list(PLAYERS)

    def players(self) -> list[str | None]:
        return list(self.players_now)

    def clock_left(self) -> float:
        return 30.0


def _table(game: Game[Any]) -> tuple[Delivery, Stage, Seating]:
    seating = Seating(1, 4, by_address=False, watch_notice_seconds=0)
    stage = Stage(game)
    return Delivery(1, 16, seating, stage, lambda events: None), stage, seating  # type: ignore[arg-type]


@pytest.mark.parametrize(("ruleset", "seed"), [("switch", 3), ("kilodney", 5), ("abbott", 7)])
def test_each_turn_of_a_batch_says_its_own_lines(ruleset: str, seed: int) -> None:
    game = engine.new_game(ruleset, 4, seed=seed)
    delivery, _stage, _seating = _table(game)
    names = delivery.names()
    rng = random.Random(seed)
    piles = set()
    played = 0
    for _ in range(150):
        if game.over:
            break
        to_act = game.to_act
        lines = delivery.turn_lines()  # one for the batch, as ``send_events`` makes it
        public = game.view(None)
        for seat in (*range(4), None):
            view = game.view(seat)
            for field in PILE_FIELDS.get(view["family"], ()):  # public: every view agrees
                assert view[field] == public[field]  # type: ignore[literal-required]
            for clock in (30.0, None):
                turn = delivery.turn(seat, clock, lines)
                legal = delivery.legal(seat)
                assert isinstance(turn, m.Turn)
                assert turn == wire.turn(1, delivery.seq, seat, to_act, legal, clock, view, names)
                assert turn.waiting == wire.waiting(seat, to_act, names)
                assert turn.pending_text == pile_text(view)
                assert turn.clock_warning == (wire.warning(seat, to_act, clock) if legal else None)
                piles.add(turn.pending_text)
        movers = [s for s in range(4) if game.legal_actions(s)]
        mover = to_act if to_act in movers else rng.choice(movers)
        game.apply(mover, rng.choice(game.legal_actions(mover)))
        played += 1
    assert played > 20
    if ruleset != "abbott":  # a family with a pile said more than one thing of it
        assert len(piles) > 2


def test_the_waiting_line_names_the_seats_holder_of_now() -> None:
    game = engine.new_game("kilodney", 4, seed=2)
    delivery, stage, seating = _table(game)
    to_act = game.to_act
    assert to_act is not None
    stage.players_now[to_act] = "bot:random"
    seating.changes += 1
    before = delivery.turn_lines().waiting
    assert before == f"Waiting for bot {to_act + 1}…"
    stage.players_now[to_act] = "zoe"
    seating.changes += 1  # the seat changed hands
    assert delivery.turn_lines().waiting == "Waiting for zoe…"
    other = (to_act + 1) % 4
    assert delivery.turn(other, None).waiting == "Waiting for zoe…"
    assert delivery.turn(to_act, None).waiting is None


def test_a_kept_follow_line_is_the_one_composed() -> None:
    for top in ("KS", "8H", "TD", "AC", "8H"):
        view = {"family": "kilodney", "top": top, "running": True, "over": False}
        assert follow_line(view) == pile_text(view)
    assert follow_line({"top": "8H", "running": True}) == (
        "Follow: ♥ hearts or an 8, or play a joker"
    )
    assert follow_line({"top": "KS", "running": True}) == (
        "Follow: ♠ spades or a king, or play a joker"
    )
