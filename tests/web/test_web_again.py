"""The end of a game in the browser: "Play again" for every seated player, the master's
"New game" kept across a reload, and a new table that waits for people."""

from __future__ import annotations

from conftest import wait_for
from mpclient import MsgpackPlayer
from webpage import click, create_table, open_client, table_state, take_guest, texts, visible

TITLE = "return document.getElementById('table-title').textContent"
START = "return (document.getElementById('start') || {}).textContent || ''"


def end_the_game(driver, table: str) -> None:
    """The master ends the game (as abandoned): the table is over, as after its last move."""
    driver.execute_script("window.switchboard.tableRequest('end_game', arguments[0])", table)
    wait_for(lambda: table_state(driver).get("state") == "over", what="the game over")


def test_after_a_reload_the_master_of_a_finished_game_still_has_new_game(server, browsers) -> None:
    driver = browsers()
    open_client(driver, server.url)
    take_guest(driver)
    table = create_table(driver, "switch", 2, 1, {"turn_seconds": 0})  # starts at once
    wait_for(lambda: table_state(driver).get("state") == "playing", what="the deal")
    end_the_game(driver, table)
    wait_for(lambda: driver.execute_script(START) == "New game", what="New game")
    # A phone's page in a pocket keeps what it last wrote while playing (its timers are
    # frozen, and a tab it discards writes nothing as it goes): the kept seat says playing.
    driver.execute_script(
        "const app = window.switchboard; app.persistNow(); app.persistNow = () => {};"
        "const key = Object.keys(localStorage).find((k) => k.endsWith(':seats'));"
        "const seats = JSON.parse(localStorage.getItem(key));"
        "seats[arguments[0]].state = 'playing';"
        "localStorage.setItem(key, JSON.stringify(seats));",
        table,
    )
    driver.refresh()
    wait_for(lambda: visible(driver, "#table"), what="the table again")
    wait_for(lambda: driver.execute_script(START) == "New game", what="New game after the reload")
    assert "· over" in driver.execute_script(TITLE)
    assert table_state(driver)["state"] == "over"


def test_a_new_table_waits_for_people_and_names_its_game(server, browsers) -> None:
    driver = browsers()
    open_client(driver, server.url)
    take_guest(driver)
    wait_for(lambda: visible(driver, "#create-bots"), what="the create form")
    bots = "return document.getElementById('create-bots').value"
    assert driver.execute_script(bots) == "0"
    click(driver, "#create-go")  # every default: switch, no bots
    wait_for(lambda: visible(driver, "#table"), what="the table")
    wait_for(lambda: visible(driver, "#start"), what="the master's start")
    assert table_state(driver)["state"] == "waiting"
    wait_for(lambda: "· switch" in driver.execute_script(TITLE), what="the game in the title")
    click(driver, "#rules-btn")
    wait_for(lambda: visible(driver, "#rules-text"), what="the rules of a waiting table")
    assert "shedding" in driver.execute_script(
        "return document.getElementById('dialog-title').textContent"
    )


def test_both_play_again_then_one_does_and_the_others_seat_goes_to_a_bot(server, browsers) -> None:
    driver = browsers()
    open_client(driver, server.url)
    take_guest(driver)
    table = create_table(driver, "switch", 3, 0, {"turn_seconds": 0})
    cy = MsgpackPlayer(server.port, "cy-again")
    try:
        assert cy.join(table) == 1
        driver.execute_script(
            "window.switchboard.tableRequest('seat_bot', arguments[0], {seat: 2})", table
        )
        click(driver, "#start")
        wait_for(lambda: table_state(driver).get("state") == "playing", what="the deal")
        end_the_game(driver, table)

        # both ask: the next game starts with both seated
        click(driver, "#play-again")
        told = cy.wait(lambda x: x.get("type") == "notice" and "again" in x.get("text", ""))
        assert "1 of 2 ready" in told["text"]
        wait_for(lambda: visible(driver, "#play-again[aria-pressed='true']"), what="asked")
        assert cy.request({"type": "again", "table": table})["type"] == "ok"
        wait_for(lambda: table_state(driver).get("state") == "playing", what="the next game")
        players = "return window.switchboard.table().players"
        assert driver.execute_script(players)[1] == "cy-again"

        # only the master asks, and starts with the others' seats to a bot
        end_the_game(driver, table)
        mark = len(cy.received)
        click(driver, "#play-again")
        wait_for(lambda: visible(driver, "#again-absent"), what="the choice for the others")
        driver.execute_script("document.getElementById('again-absent').value = 'bot'")
        click(driver, "#start")
        wait_for(lambda: table_state(driver).get("state") == "playing", what="the third game")
        cy.wait(lambda x: x.get("type") == "notice" and "unseated" in x.get("text", ""), start=mark)
        wait_for(
            lambda: str(driver.execute_script(players)[1]).startswith("bot:"), what="a bot there"
        )
        wait_for(
            lambda: not any("cy-again" in line for line in texts(driver, "#seats .who")),
            what="the seat strip without cy",
        )
    finally:
        cy.close()
