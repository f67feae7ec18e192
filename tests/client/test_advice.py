"""`hint` and `analyze` in the client: the search's advice in a game against bots, and the
after-game analysis of a finished game, put in the table's log."""

from __future__ import annotations

import asyncio
import random
import re

from harness import Driver, run_client

import engine
from client.bots.advice import compute_hint, hint_refusal, shown_events
from client.net.state import LogLine, TableState
from engine.actions import Draw, Play
from engine.strategies import get_strategy


def position_to_go_out() -> tuple[dict, list[dict], list[str], str]:
    """A shedding position where the seat to act can go out or draw: its view, the events
    it was shown, its legal actions, and the play that goes out."""
    for seed in range(40):
        game = engine.new_game("switch", 3, seed)
        rng = random.Random(seed)
        bot = get_strategy("heuristic", "shedding")
        shown: list[list[dict]] = [[ev.present(s) for ev in game.opening_events] for s in range(3)]
        while not game.over:
            seat = game.to_act
            view, legal = game.view(seat), game.legal_actions(seat)
            out = [a for a in legal if isinstance(a, Play) and len(a.cards) == len(view["hand"])]
            if out and any(isinstance(a, Draw) for a in legal):
                return view, shown[seat], [str(a) for a in legal], str(out[0])
            for ev in game.apply(seat, bot.choose(view, legal, rng)):
                for s in range(3):
                    shown[s].append(ev.present(s))
    raise AssertionError("no position to go out in 40 games")


def test_the_hint_is_to_go_out_rather_than_draw() -> None:
    view, shown, legal, going_out = position_to_go_out()
    text = compute_hint(view, shown, legal)
    assert text.startswith(f"hint: {going_out} (expected score"), text


def test_a_hint_is_refused_off_turn_to_spectators_and_with_people_at_the_table() -> None:
    view = {"family": "shedding", "to_act": 0}
    t = TableState("1", seat=0, state="playing", view=view, legal=("draw",), to_act=0)
    t.players = ("ann", "bot:heuristic")
    assert hint_refusal(t) is None
    t.players = ("ann", "bob")
    assert "against bots" in (hint_refusal(t) or "")
    t.players = ("ann", "bot:heuristic")
    t.to_act = 1
    assert "your turn" in (hint_refusal(t) or "")
    t.to_act, t.seat = 0, None
    assert "player" in (hint_refusal(t) or "")
    assert hint_refusal(None) is not None


def test_the_events_shown_are_read_from_the_log_in_order() -> None:
    t = TableState("1")
    t.log.extend(
        [
            LogLine("event", {"kind": "b"}, seq=2),
            LogLine("talk", {"name": "x", "text": "hi"}),
            LogLine("event", {"kind": "a"}, seq=1),
        ]
    )
    assert shown_events(t) == [{"kind": "a"}, {"kind": "b"}]


def test_hint_on_my_turn_then_analyze_after_the_game_ends(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("SWITCHBOARD_CONFIG_DIR", str(tmp_path))
    seen: dict[str, str] = {}

    async def script(d: Driver) -> None:
        await d.until(lambda: d.table is not None and d.table.my_turn, what="my turn")
        assert len(d.table.players) == 2  # --seats is the local table's size
        d.line("analyze")
        await d.until_screen("not over yet")
        legal = set(d.table.legal)
        d.line("hint")
        screen = await d.until_screen("hint: ")
        seen["hint"] = screen
        advice = re.search(r"hint: (.+?) \(", screen)
        assert advice is not None and advice.group(1) in legal, screen
        for _ in range(3):  # play a few moves, then end the game as its master
            await d.until(lambda: d.table.my_turn, what="my turn again")
            before = d.table.seq
            d.line(d.table.legal[0])
            await d.until(lambda b=before: d.table.seq > b, what="my move taken")
        d.line("end")
        await d.until(lambda: d.table.state == "over", what="the game ended")
        d.line("analyze")
        await d.until(
            lambda: any("Analysis: switch" in ln.data.get("text", "") for ln in d.table.log),
            timeout=60,
            what="the analysis in the log",
        )
        seen["log"] = "\n".join(ln.data.get("text", "") for ln in d.table.log if ln.kind == "note")
        d.line("quit")

    assert asyncio.run(run_client(script, game="switch", seats=2, name="ann"), debug=False) == 0
    assert "accuracy" in seen["log"] and "ann" in seen["log"]
