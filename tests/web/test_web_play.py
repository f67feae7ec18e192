"""A newcomer opens the URL, takes a guest name, creates a table with bots from the
lobby's form and plays a whole game to its end by tapping legal actions: one test per
family (switch for shedding, abbott, kilodney). House rules keep each game short, and
the turn clock is off so a slow machine never lets the clock play for the person."""

from __future__ import annotations

import pytest
from conftest import wait_for
from selenium.webdriver.common.by import By
from webpage import (
    create_table,
    event_seqs,
    game_over,
    log_lines,
    open_client,
    play_to_end,
    table_state,
    take_guest,
    texts,
    visible,
)

GAMES = [
    # ruleset, seats, bots, house rules
    ("switch", 2, 1, {"hand_size": 3, "turn_seconds": 0}),
    ("abbott", 2, 1, {"target": 1, "turn_seconds": 0}),
    ("kilodney", 4, 3, {"target": 8, "turn_seconds": 0}),
]


@pytest.mark.parametrize(("ruleset", "seats", "bots", "options"), GAMES, ids=[g[0] for g in GAMES])
def test_a_newcomer_plays_a_whole_game(server, browsers, ruleset, seats, bots, options) -> None:
    driver = browsers()
    open_client(driver, server.url)
    assert visible(driver, "#name-screen"), "a first visit asks for a name"
    name = take_guest(driver)
    assert name.startswith("guest-")
    create_table(driver, ruleset, seats, bots, options)
    wait_for(lambda: table_state(driver).get("state") == "playing", what="the deal")
    assert table_state(driver)["seat"] == 0
    seats_shown = texts(driver, "#seats li.seat")
    assert len(seats_shown) == seats
    assert "(you, game master)" in seats_shown[0]
    taps = play_to_end(driver)
    assert taps > 0, "the person played"
    assert game_over(driver)
    (result,) = texts(driver, "#result")
    assert result.startswith("Game over")
    assert name in result  # the scores name every player
    lines = log_lines(driver)
    assert any(line.startswith("Game over") for line in lines)
    seqs = event_seqs(driver)
    assert seqs == sorted(set(seqs)), "each event once, in order"
    assert not driver.find_elements(By.CSS_SELECTOR, "#actions button.act")
