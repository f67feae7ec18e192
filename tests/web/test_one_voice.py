"""One voice: the browser shows, word for word, what protocol composes for every event and
turn, the words the terminal client and text mode show for the same events and turns
(``protocol.describe.describe_text`` for an event, ``protocol.legal.must`` and ``choices``
for a turn, ``protocol.table_lines`` for the lines that are not events: whom the table
waits for, what the pile asks, who came and went, how a game found over ended). Live
games of every family are played from the page and each screen is read against the
composition; j28's "miss of 1 turn" (which the browser once said as "1 turns")
comes from a game the engine plays to it, told to the page as the server tells it.
"""

from __future__ import annotations

import random
import re
import time
from typing import Any

import pytest
from conftest import DESKTOP, wait_for
from webpage import create_table, open_client, settle, table_state, take_guest, tap_something

import engine
from protocol.describe import BOT, describe_text, seat_name
from protocol.legal import choices, must
from protocol.table_lines import pile_text, presence_text, result_text, waiting_text, watcher_text
from server.core import wire

#: Everything the page shows of the table on screen, and what it knows to show it from,
#: read at one moment (the page redraws on every message).
READ = """
const app = window.switchboard;
const t = app.table();
if (!t || app.drawing) return null;
const label = (b) =>
  [...b.childNodes].filter((n) => n.nodeName !== "KBD").map((n) => n.textContent).join("");
return {
  players: t.playedBy.length ? t.playedBy : t.players, seat: t.seat, view: t.view,
  legal: t.legal, mine: t.seat !== null && t.toAct === t.seat && t.legal.length > 0,
  events: t.log.filter((l) => l.kind === "event").map((l) => [l.seq, l.ev]),
  lines: [...document.querySelectorAll("#log li.event")]
    .map((e) => [+e.dataset.seq, e.textContent]),
  must: document.getElementById("must")?.textContent ?? null,
  waiting: document.querySelector("#actions .waiting")?.textContent ?? null,
  pile: document.getElementById("pile-line")?.textContent ?? null,
  groups: [...document.querySelectorAll("#actions .action-row:not(.selection)")].map((row) => [
    row.querySelector(".heading").textContent,
    [...row.querySelectorAll("button.act")].map((b) => [b.dataset.action, label(b)]),
  ]),
};
"""

#: A card as the page draws it on a button (``10♦``, ``Joker``) back to its notation.
GLYPHS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}


def notation(shown: str) -> str:
    def card(m: re.Match[str]) -> str:
        return ("T" if m[1] == "10" else m[1]) + GLYPHS[m[2]]

    shown = re.sub(r"(10|[2-9JQKA])([♣♦♥♠])", card, shown)
    return shown.replace("Joker", "JK")


def check_words(screen: dict[str, Any]) -> tuple[int, str | None]:
    """Assert that what the page shows is protocol's composition; returns how many event
    lines were read and the must line shown (if any)."""
    names = [seat_name(BOT if p is None else p, i) for i, p in enumerate(screen["players"])]
    events = {seq: ev for seq, ev in screen["events"]}
    for seq, line in screen["lines"]:
        assert line == describe_text(events[seq], names), (seq, events[seq])
    view = screen["view"] or {}
    if screen["waiting"] is not None:
        assert screen["waiting"] == waiting_text(names[view["to_act"]]), view.get("to_act")
    if screen["pile"] is not None:
        assert screen["pile"] == pile_text(view), view
    if screen["mine"]:
        view, legal = screen["view"], screen["legal"]
        assert screen["must"] == must(view, legal), (view.get("pending"), legal)
        expected = [[h, [[a, label] for a, label in items]] for h, items in choices(legal)]
        shown = [[h, [[a, notation(label)] for a, label in items]] for h, items in screen["groups"]]
        assert shown == expected, legal
    return len(screen["lines"]), screen["must"]


def read(driver: Any) -> dict[str, Any]:
    return wait_for(lambda: driver.execute_script(READ), what="the table drawn")


def shown_at(driver: Any, messages: list[dict[str, Any]], table: str) -> dict[str, Any]:
    """The page fed ``messages`` (the server's, as maps) and opened at ``table``: the
    table as drawn (``read``), its players ann and a random bot."""
    driver.execute_script(
        "for (const m of arguments[0]) window.switchboard.onMessage(m);"
        "window.switchboard.open(arguments[1]);",
        messages,
        table,
    )
    screen = read(driver)
    screen["players"] = ["ann", "bot:random"]
    return screen


@pytest.mark.parametrize(
    ("ruleset", "seats"), [("j28", 2), ("abbott", 2), ("kilodney", 4)], ids=str
)
def test_a_live_game_shows_protocols_words(server, browsers, ruleset: str, seats: int) -> None:
    driver = browsers(DESKTOP)
    open_client(driver, server.url)
    take_guest(driver)
    create_table(driver, ruleset, seats, seats - 1, {"turn_seconds": 0})
    rng = random.Random(7)
    read_lines = turns = taps = 0
    end = time.monotonic() + 120  # a bound for a hang, not a measure
    while taps < 30 and time.monotonic() < end:
        screen = read(driver)
        lines, _must = check_words(screen)
        read_lines = max(read_lines, lines)
        turns += screen["mine"]
        if table_state(driver).get("over"):
            break
        before = table_state(driver).get("seq")
        if tap_something(driver, rng):
            taps += 1
            settle(driver, before)
        else:  # not our turn, or the page redrew under the tap: look again soon
            time.sleep(0.2)
    assert read_lines >= 5 and turns >= 3, (read_lines, turns)


def _j28_to_a_miss() -> tuple[list[tuple[str, dict[str, Any]]], dict[str, Any], list[str]]:
    """A j28 game the engine plays (both seats at random) until seat 0 faces a miss of one
    turn it may pass on: each event as seat 0 is shown it, with its text as the server
    composes it; then seat 0's view and legal actions."""
    names = ("ann", "bot 2")
    for seed in range(200):
        game = engine.new_game("j28", 2, seed=seed)
        told = [(describe_text(e.present(0), names), e.present(0)) for e in game.opening_events]
        rng = random.Random(seed)
        while not game.over:
            seat = game.to_act
            assert seat is not None
            legal = [str(a) for a in game.legal_actions(seat)]
            view = game.view(seat)
            said = must(view, legal)
            if seat == 0 and said is not None and "miss of 1 turn on" in said:
                return told, view, legal
            for e in game.apply(seat, rng.choice(legal)):
                told.append((describe_text(e.present(0), names), e.present(0)))
    raise AssertionError("no j28 game reached a miss of one turn")


def test_j28s_miss_of_one_turn_is_said_as_the_server_says_it(server, browsers) -> None:
    told, view, legal = _j28_to_a_miss()
    said = must(view, legal)
    assert said == "You must pass the miss of 1 turn on with one of these plays, or pass"
    driver = browsers(DESKTOP)
    open_client(driver, server.url)
    take_guest(driver)
    table = "j28-miss"  # told to the page only: the server knows no such table
    messages: list[dict[str, Any]] = [
        {"type": "snapshot", "table": table, "seq": 0, "state": "playing", "view": view,
         "seat": 0, "players": ["ann", "bot:random"], "pending_text": pile_text(view)},
        *({"type": "event", "table": table, "seq": i, "event": ev, "text": text}
          for i, (text, ev) in enumerate(told, 1)),
        {"type": "turn", "table": table, "seq": len(told), "seat": 0, "to_act": 0,
         "legal": legal, "view": view, "must": said,
         "choices": [[h, [list(item) for item in items]] for h, items in choices(legal)],
         "pending_text": pile_text(view)},
    ]  # fmt: skip
    screen = shown_at(driver, messages, table)
    lines, shown_must = check_words(screen)
    assert lines == len(told)
    assert shown_must == said
    assert [line for _seq, line in screen["lines"]] == [text for text, _ev in told]


def test_the_lines_that_are_not_events_are_shown_as_the_server_sends_them(server, browsers) -> None:
    """Whom the table waits for, what the pile asks, who dropped out, came back or came to
    watch, and how a game found over ended: each the server's line (built here by the
    server's own ``wire``), shown word for word; the page once wrote each itself."""
    _told, view, legal = _j28_to_a_miss()
    names = ["ann", "bot 2"]  # seat 1's bot, counted from 1 as people read it
    driver = browsers(DESKTOP)
    open_client(driver, server.url)
    take_guest(driver)
    table = "j28-lines"  # told to the page only: the server knows no such table
    theirs = {**view, "to_act": 1}
    sent = [
        wire.snapshot(0, 0, 0, "playing", view, legal, ["ann", "bot:random"], None, names=names),
        wire.presence(0, 1, "cy3", "dropped", playing=True),
        wire.presence(0, 1, "cy3", "back", playing=True),
        wire.watcher(0, "came", "dee", 2),
        wire.turn(0, 1, 0, 1, [], None, theirs, names),  # type: ignore[arg-type]
    ]
    messages = [{**msg.to_map(), "table": table} for msg in sent]
    screen = shown_at(driver, messages, table)
    check_words(screen)
    assert screen["pile"] == pile_text(view) and "play an 8 or miss 1 turn" in screen["pile"]
    assert screen["waiting"] == "Waiting for bot 2…"
    people = driver.execute_script(
        "return [...document.querySelectorAll('#log li.presence, #log li.watcher')]"
        ".map((e) => e.textContent);"
    )
    assert people == [
        presence_text("cy3", "dropped", playing=True),
        presence_text("cy3", "back", playing=True),
        watcher_text("dee", "came", 2),
    ]
    over = {**view, "over": True, "to_act": None}
    end = wire.snapshot(0, 2, 0, "over", over, [], ["ann", "bot:random"], None, names=names)
    driver.execute_script(
        "window.switchboard.onMessage(arguments[0]);", {**end.to_map(), "table": table}
    )
    heading = wait_for(
        lambda: driver.execute_script("return document.querySelector('#result h3')?.textContent;"),
        what="the result's heading",
    )
    assert heading == result_text(over, names, ended=True)
