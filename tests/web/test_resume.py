"""A reload mid-game (or a dropped Wi-Fi) puts the player back in the seat, with the log
caught up: what was there before, and what happened while the page was gone."""

from __future__ import annotations

import random

from conftest import wait_for
from mpclient import MsgpackPlayer
from webpage import (
    click,
    create_table,
    event_seqs,
    game_over,
    log_lines,
    open_client,
    play_to_end,
    say,
    settle,
    table_state,
    take_guest,
    tap_something,
    visible,
)


def test_a_reload_mid_game_gives_the_seat_back_with_the_log_caught_up(server, browsers) -> None:
    driver = browsers()
    open_client(driver, server.url)
    name = take_guest(driver)
    table = create_table(driver, "switch", 2, 0, {"turn_seconds": 0})
    cy = MsgpackPlayer(server.port, "cy2")
    try:
        cy.join(table)
        click(driver, "#start")
        wait_for(lambda: table_state(driver).get("state") == "playing", what="the deal")
        cy.start_playing()
        rng = random.Random(3)
        # a few turns each
        while cy.acted < 3:
            if table_state(driver).get("to_act") == 0:
                before = table_state(driver).get("seq")
                if tap_something(driver, rng):
                    settle(driver, before)
        say(driver, "before the reload")
        wait_for(lambda: f"{name}: before the reload" in log_lines(driver), what="the talk")

        # the Wi-Fi drops when it is the browser's turn to wait: its seat stays, the other
        # player plays on meanwhile, and then the page is reloaded
        cy.playing.clear()
        while (state := table_state(driver)).get("to_act") != 1:  # play until cy is to act
            if state.get("to_act") == 0 and tap_something(driver, rng):
                settle(driver, state.get("seq"))
        kept = driver.execute_script(
            "return JSON.parse(localStorage.getItem(`switchboard@${location.host}:seats`))"
        )
        assert kept[table]["seat"] == 0 and kept[table]["token"]
        lines_before = log_lines(driver)
        seq_before = table_state(driver)["seq"]
        driver.execute_script("window.switchboard.conn.stop()")
        wait_for(
            lambda: any(m.get("what") == "dropped" for m in cy.seen("presence")), what="the drop"
        )
        mark = len(cy.received)
        cy.start_playing()  # cy plays while the browser is gone
        missed = cy.wait(lambda m: m.get("type") == "event", start=mark)["seq"]
        assert missed > seq_before
        cy.playing.clear()

        driver.refresh()
        wait_for(lambda: visible(driver, "#table"), what="the table again, without asking")
        wait_for(lambda: table_state(driver).get("seq", 0) >= missed, what="the missed events")
        assert table_state(driver)["seat"] == 0
        lines_after = log_lines(driver)
        assert lines_after[: len(lines_before)] == lines_before, "the log from before is kept"
        seqs = event_seqs(driver)
        assert missed in seqs, "the event played while the page was gone is in the log"
        assert seqs == list(range(seqs[0], seqs[-1] + 1)), "no gap, no duplicate"
        wait_for(lambda: any(m.get("what") == "back" for m in cy.seen("presence")), what="back")

        # and the seat is ours to play: the game goes on to its end
        cy.start_playing()
        play_to_end(driver)
        assert game_over(driver)
    finally:
        cy.close()


def test_a_silent_dead_connection_is_noticed_and_the_seat_resumed(server, browsers) -> None:
    """A phone whose Wi-Fi went away may never hear that its socket is dead: nothing
    arrives and nothing it sends gets through. The page's ping goes unanswered, so it
    drops the socket, connects again and resumes its seat."""
    driver = browsers()
    open_client(driver, server.url)
    take_guest(driver)
    table = create_table(driver, "switch", 2, 0, {"turn_seconds": 0})
    cy = MsgpackPlayer(server.port, "cy4")
    try:
        cy.join(table)
        click(driver, "#start")
        wait_for(lambda: table_state(driver).get("state") == "playing", what="the deal")
        seq = table_state(driver)["seq"]
        # the socket goes silent both ways, and stays open
        driver.execute_script(
            "const ws = window.switchboard.conn.ws;"
            "ws.send = () => {}; ws.onmessage = () => {};"
            "window.switchboard.conn.heartbeat();"
        )
        status = "return document.getElementById('status').textContent"
        wait_for(lambda: "offline" in driver.execute_script(status), what="the silence noticed")
        wait_for(lambda: driver.execute_script(status) == "", what="connected again")
        wait_for(lambda: any(m.get("what") == "back" for m in cy.seen("presence")), what="back")
        assert table_state(driver)["seat"] == 0
        assert table_state(driver)["seq"] >= seq
        cy.start_playing()
        play_to_end(driver)
    finally:
        cy.close()
