"""The table's lines that are not events, composed once (``protocol.table_lines``): the
grammar a board's line once got wrong ("play a 8 or miss 1 turn(s)"), and each line as
the server sends it on its message (``server.core.wire``)."""

from __future__ import annotations

import engine
from engine.shedding.state import PendingKind
from protocol import messages as m
from protocol.payloads import Person
from protocol.table_lines import (
    START_WAITING,
    clock_warning_text,
    online_text,
    pending_words,
    pile_text,
    presence_text,
    result_text,
    waiting_text,
    watcher_text,
    where_text,
)
from server.core import wire


def _miss(count: int, rank: str) -> dict[str, object]:
    return {"kind": PendingKind.MISS, "count": count, "cards": [], "rank": rank}


def test_a_miss_is_said_with_its_article_and_its_plural() -> None:
    """Before (the view's words, shown by the browser): "play a 8 or miss 1 turn(s)"."""
    assert pending_words(_miss(1, "8")) == "play an 8 or miss 1 turn"
    assert pending_words(_miss(2, "8")) == "play an 8 or miss 2 turns"
    assert pending_words(_miss(1, "A")) == "play an ace or miss 1 turn"
    assert pending_words(_miss(3, "K")) == "play a king or miss 3 turns"
    view = {"family": "shedding", "pending": _miss(2, "T")}
    assert pile_text(view) == "Pending: play a 10 or miss 2 turns"


def test_the_engines_own_words_for_a_miss_have_no_slip() -> None:
    """The view's ``awaiting`` (text mode's and the terminal's fallback) once read
    "play a 8 or miss 1 turn(s)"."""
    for seed in range(300):
        game = engine.new_game("j28", 2, seed=seed)
        for _ in range(200):
            if game.over or game.to_act is None:
                break
            view = game.view(game.to_act)
            pending = view.get("pending")
            if pending and pending["kind"] == PendingKind.MISS:
                said = view["awaiting"]
                assert "turn(s)" not in said and " a 8" not in said and " a A" not in said, said
                count = pending["count"]
                assert said.endswith(f"miss {count} turn{'' if count == 1 else 's'}"), said
                return
            seat = game.to_act
            game.apply(seat, str(game.legal_actions(seat)[-1]))
    raise AssertionError("no j28 game reached a miss")


def test_kilodney_says_what_follows_and_shedding_what_is_pending() -> None:
    assert pile_text({"family": "kilodney", "top": "8H", "running": True, "over": False}) == (
        "Follow: ♥ hearts or an 8, or play a joker"
    )
    assert pile_text({"family": "kilodney", "top": None, "running": False}) == "Lead any card"
    assert pile_text({"family": "kilodney", "top": "8H", "over": True}) is None
    assert pile_text({"family": "shedding", "pending": None}) is None
    assert pile_text({"family": "abbott"}) is None


def test_presence_and_watcher_lines_depend_on_whether_a_game_runs() -> None:
    assert presence_text("ann", "dropped", playing=True) == (
        "ann dropped out (the seat stays theirs; their clock runs)"
    )
    assert presence_text("ann", "dropped", playing=False) == "ann dropped out"
    assert presence_text("ann", "back", playing=True) == "ann is back"
    assert watcher_text("cy", "came", 1) == "cy came to watch (1 watcher)"
    assert watcher_text(None, "went", 0) == "someone with no name stopped watching (0 watchers)"


def test_the_server_sends_each_line_on_its_message() -> None:
    msg = wire.presence(3, 1, "ann", "left", playing=True)
    assert isinstance(msg, m.Presence) and msg.text == presence_text("ann", "left", playing=True)
    msg = wire.watcher(3, "came", "cy", 2)
    assert isinstance(msg, m.Watcher) and msg.text == "cy came to watch (2 watchers)"
    game = engine.new_game("kilodney", 4, seed=4)
    to_act = game.to_act
    assert to_act is not None
    names = ["ann", "bot 1", "cy", "di"]
    other = (to_act + 1) % 4
    theirs = wire.turn(3, 5, other, to_act, [], 30.0, game.view(other), names)
    assert isinstance(theirs, m.Turn)
    assert theirs.waiting == waiting_text(names[to_act]) == f"Waiting for {names[to_act]}…"
    assert theirs.pending_text == pile_text(game.view(other)) and theirs.pending_text
    assert theirs.clock_warning is None  # not his clock
    legal = [str(a) for a in game.legal_actions(to_act)]
    mine = wire.turn(3, 5, to_act, to_act, legal, 30.0, game.view(to_act), names)
    assert isinstance(mine, m.Turn) and mine.waiting is None
    assert mine.clock_warning == clock_warning_text()
    unclocked = wire.turn(3, 5, to_act, to_act, legal, None, game.view(to_act), names)
    assert isinstance(unclocked, m.Turn) and unclocked.clock_warning is None


def test_a_finished_games_snapshot_says_how_it_ended() -> None:
    view = {"family": "abbott", "ruleset": "abbott", "over": True, "winner": 1, "scores": [2, 7]}
    snap = wire.snapshot(3, 9, None, "over", view, [], ["ann", "bob"], None, names=["ann", "bob"])  # type: ignore[arg-type]
    assert isinstance(snap, m.Snapshot)
    assert (
        snap.result_text
        == result_text(view, ["ann", "bob"])
        == ("Game over: bob wins · scores ann 2, bob 7")
    )
    assert snap.waiting is None
    running = {**view, "over": False, "to_act": 0}
    snap = wire.snapshot(
        3, 9, 1, "playing", running, [], ["ann", "bob"], None, names=["ann", "bob"]
    )  # type: ignore[arg-type]
    assert isinstance(snap, m.Snapshot)
    assert snap.result_text is None and snap.waiting == "Waiting for ann…"


def test_a_table_before_its_first_deal_says_it_waits_for_the_game() -> None:
    """The page and the terminal client each wrote their own ("...start." and "...start...")."""
    snap = wire.snapshot(3, 0, 0, "waiting", None, [], ["ann", None], "ann", names=["ann", None])
    assert isinstance(snap, m.Snapshot) and snap.waiting == START_WAITING
    assert snap.pending_text is None and snap.result_text is None


def test_where_a_person_is_said_once_for_every_client() -> None:
    """The terminal client said a seat at a finished table was "waiting" (the page did not)."""
    from client.terminal.players import whereabouts

    person: Person = {
        "name": "ann",
        "state": "seated",
        "idle": 0,
        "tables": [{"table": "7", "seat": 0, "state": "over"}],
    }
    assert where_text(person) == "seated at table 7, game over"
    assert whereabouts(person) == "seated at table 7, game over"
    assert whereabouts({**person, "where": "told so"}) == "told so"  # the server's words


def test_how_many_are_online_one_line_for_every_client() -> None:
    """The page said "and N more online" and "N connections with no name yet" on lines of
    its own; the terminal client and text mode said it their own way."""
    assert online_text(1, 0, 1) == "1 person online"
    assert online_text(0, 2, 0) == "0 people online, and 2 connections with no name yet"
    assert (
        online_text(5, 1, 2)
        == "5 people online (2 of them listed), and 1 connection with no name yet"
    )
