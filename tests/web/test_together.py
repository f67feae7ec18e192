"""Two browsers and a msgpack player at one table: each sees the others' plays and talk,
and they play the game to its end together."""

from __future__ import annotations

import random

from conftest import wait_for
from mpclient import MsgpackPlayer
from webpage import (
    click,
    create_table,
    game_over,
    log_lines,
    open_client,
    say,
    settle,
    table_state,
    take_guest,
    tap_something,
    texts,
)


def test_two_browsers_and_a_msgpack_player_share_a_table(server, browsers) -> None:
    ann, bob = browsers(), browsers((1280, 800))
    open_client(ann, server.url)
    ann_name = take_guest(ann)
    table = create_table(ann, "switch", 3, 0, {"hand_size": 4, "turn_seconds": 0})

    open_client(bob, server.url)
    bob_name = take_guest(bob)
    click(bob, f'[data-join="{table}"]', what="the table in the lobby")
    wait_for(lambda: table_state(bob).get("seat") == 1, what="bob seated")

    cy = MsgpackPlayer(server.port, "cy")
    try:
        assert cy.join(table) == 2
        # everyone sees everyone seated before the start
        for driver in (ann, bob):
            seated = lambda d=driver: "cy" in " ".join(texts(d, "#seats li.seat"))  # noqa: E731
            wait_for(seated, what="cy seated")
        click(ann, "#start")
        wait_for(lambda: table_state(ann).get("state") == "playing", what="the deal")

        say(ann, "good luck from ann")
        say(bob, "and from bob")
        cy.say("cy says hi")
        for driver in (ann, bob):
            talk = (
                f"{ann_name}: good luck from ann",
                f"{bob_name}: and from bob",
                "cy: cy says hi",
            )
            for line in talk:
                wait_for(lambda d=driver, line=line: line in log_lines(d), what=f"talk {line!r}")
            wait_for(lambda d=driver: "cy: cy says hi" in log_lines(d), what="cy's talk")
        wait_for(lambda: any(m["name"] == bob_name for m in cy.seen("talk")), what="cy hears bob")

        cy.start_playing()
        rng = random.Random(7)

        def round_of_taps() -> bool:
            for driver in (ann, bob):
                if game_over(driver):
                    continue
                before = table_state(driver).get("seq")
                if tap_something(driver, rng):
                    settle(driver, before)
            return game_over(ann) and game_over(bob)

        wait_for(round_of_taps, timeout=240, what="the end of the game")
        # each saw the others' plays (a play, a draw, whatever each did) in the log
        for driver, others in ((ann, (bob_name, "cy")), (bob, (ann_name, "cy"))):
            lines = log_lines(driver)
            for other in others:
                assert any(line.startswith(f"{other} ") for line in lines), (other, lines)
        plays = [m for m in cy.seen("event") if m["event"].get("seat") in (0, 1)]
        assert plays, "the msgpack player saw the browsers' actions"
        assert cy.acted > 0
        # cy goes once the game is over: no game runs, so nothing holds his seat for him
        cy.close()
        for driver in (ann, bob):
            wait_for(lambda d=driver: "cy dropped out" in log_lines(d), what="cy gone")
    finally:
        cy.close()
