"""What else the table offers a person: the rules of the table's game, finger and top,
keys on a desktop, the turn clock's 10-second warning, who is here or away, and a
claimed name kept by the browser."""

from __future__ import annotations

import random
import re

from conftest import DESKTOP, wait_for
from mpclient import MsgpackPlayer
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from webpage import (
    click,
    create_table,
    event_lines,
    event_seqs,
    log_lines,
    open_client,
    settle,
    table_state,
    take_guest,
    take_name,
    tap_something,
    texts,
    visible,
)

from protocol.rules import family_text


def test_rules_finger_and_top(server, browsers) -> None:
    driver = browsers()
    open_client(driver, server.url)
    name = take_guest(driver)
    create_table(driver, "switch", 2, 1, {"turn_seconds": 0})
    click(driver, "#rules-btn")
    rules = wait_for(lambda: visible(driver, "#rules-text"), what="the rules")
    first = family_text("shedding").splitlines()[0]
    assert rules.text.startswith(first)
    house = visible(driver, ".house-rules").text  # the table's own rules, in the server's words
    assert "no clock" in house and "turn_seconds" not in house, house
    click(driver, "#dialog-close")
    click(driver, "#players-btn")
    box = wait_for(lambda: visible(driver, "#finger-name"), what="the players page")
    box.send_keys(name)
    click(driver, "#finger-go")
    profile = wait_for(lambda: visible(driver, "#profile"), what="the profile")
    assert profile.text.startswith(name)
    lines = profile.text.splitlines()  # the server's lines (the terminal client's too)
    assert lines[1].startswith("no games finished") and lines[2] == "not rated yet", lines
    assert "Your secret" in profile.text  # his own: the secret, to use the name elsewhere
    click(driver, "#top-go")
    top = wait_for(lambda: visible(driver, "#top"), what="the leaderboard")
    assert top.text.startswith("Best rated: shedding")


def test_keys_play_and_talk_on_a_desktop(server, browsers) -> None:
    driver = browsers(DESKTOP)
    open_client(driver, server.url)
    name = take_guest(driver)
    create_table(driver, "switch", 2, 1, {"turn_seconds": 0})
    wait_for(lambda: table_state(driver).get("to_act") == 0 and table_state(driver)["legal"])
    # the action the key 1 is shown on, whatever the deal made it (a play, a draw, a pass)
    first = driver.execute_script(
        "return [...document.querySelectorAll('#actions button.act')]"
        ".find((b) => b.querySelector('kbd')?.textContent === '1').dataset.action"
    )
    before = table_state(driver)["seq"]
    body = driver.find_element(By.TAG_NAME, "body")
    body.send_keys("1")
    wait_for(lambda: table_state(driver)["seq"] > before, what="the key's action")

    # the key's move is the first of ours logged after it (the deal may have logged our
    # name before: a skip, a pick-up to answer)
    def ours() -> list[str]:
        return [text for seq, text in event_lines(driver) if seq > before and text.startswith(name)]

    mine = wait_for(ours, what="our move")
    said = {"play": " plays ", "draw": " draws ", "suit": " names ", "last": " last card",
            "pass": " passes", "concede": " concedes", "vote": " votes"}  # fmt: skip
    assert said[first.split()[0]] in mine[0], (first, mine)

    # Enter lays the cards selected
    def select_a_card() -> bool:
        state = table_state(driver)
        if state.get("to_act") != 0 or not state.get("legal"):
            return False
        cards = driver.find_elements(By.CSS_SELECTOR, ".hand .card.playable")
        if not cards:  # nothing to lay (draw, name a suit...): the first move, and try again
            body.send_keys("1")
            settle(driver, state["seq"])
            return False
        chosen = cards[0].get_attribute("data-card")
        cards[0].click()
        return chosen

    card = wait_for(select_a_card, what="a card to lay")
    wait_for(lambda: texts(driver, ".selection .chosen") != ["none"], what="the selection")
    before = table_state(driver)["seq"]
    ActionChains(driver).send_keys(Keys.ENTER).perform()  # to whatever has the focus
    wait_for(lambda: table_state(driver)["seq"] > before, what="Enter's play")
    wait_for(lambda: any(line.startswith(f"{name} plays") for line in log_lines(driver)[-6:]))
    assert card not in (table_state(driver).get("hand") or [])
    body.send_keys("t")
    assert driver.switch_to.active_element.get_attribute("id") == "talk"
    driver.switch_to.active_element.send_keys("typed, not tapped\n")
    wait_for(lambda: f"{name}: typed, not tapped" in log_lines(driver), what="the talk")


def test_the_clock_warns_at_ten_seconds(server, browsers) -> None:
    driver = browsers()
    open_client(driver, server.url)
    take_guest(driver)
    create_table(driver, "switch", 2, 1, {"turn_seconds": 12})
    wait_for(lambda: table_state(driver).get("to_act") == 0, what="our turn")
    clock = wait_for(lambda: visible(driver, "#clock.warn"), timeout=15, what="the warning")
    assert re.fullmatch(r"0:[01]\d", clock.text), clock.text
    assert any("10 seconds left" in line for line in log_lines(driver))


def test_who_is_here_away_and_back(server, browsers) -> None:
    driver = browsers()
    open_client(driver, server.url)
    take_guest(driver)
    table = create_table(driver, "switch", 2, 0, {"turn_seconds": 0})
    cy = MsgpackPlayer(server.port, "cy3")
    token = None
    try:
        cy.join(table)
        token = cy.seen("seated")[-1]["token"]
        click(driver, "#start")
        wait_for(lambda: table_state(driver).get("state") == "playing", what="the deal")
        status = 'return document.querySelector("#seats li[data-seat=\\"1\\"]").dataset.status'
        assert driver.execute_script(status) == "here"
        cy.close()
        wait_for(
            lambda: driver.execute_script(status) == "away",
            what=f"cy away {log_lines(driver)} {texts(driver, '#seats li')}",
        )
        # the terminal client's words: the seat is held while the game runs
        held = "cy3 dropped out (the seat stays theirs; their clock runs)"
        assert held in log_lines(driver)
        cy = MsgpackPlayer(server.port, "cy3")
        seq = cy.request({"type": "resume", "table": table, "token": token, "last_seq": 0})
        assert seq["type"] == "seated"
        wait_for(lambda: driver.execute_script(status) == "here", what="cy back")
        assert any(line.startswith("cy3 is back") for line in log_lines(driver))
    finally:
        cy.close()


def test_a_claimed_name_is_kept_by_the_browser(server, browsers) -> None:
    driver = browsers()
    open_client(driver, server.url)
    take_name(driver, "zoe")
    wait_for(lambda: visible(driver, "#me") and visible(driver, "#me").text == "zoe")
    secrets = driver.execute_script(
        "return JSON.parse(localStorage.getItem(`switchboard@${location.host}:secrets`))"
    )
    assert len(secrets["zoe"]) >= 32  # made by the browser's random source
    driver.refresh()
    wait_for(lambda: visible(driver, "#lobby"), what="the lobby, without asking for a name")
    assert texts(driver, "#me") == ["zoe"]
    # zoe may come in under another name, and back to hers with the secret kept
    click(driver, "#me")
    click(driver, "#other-name")
    wait_for(lambda: visible(driver, "#name-screen"), what="the name screen")
    assert take_guest(driver).startswith("guest-")
    click(driver, "#me")
    click(driver, "#other-name")
    take_name(driver, "zoe")
    wait_for(lambda: visible(driver, "#me") and visible(driver, "#me").text == "zoe")
    # another browser cannot take the name without its secret
    other = browsers()
    open_client(other, server.url)
    take_name(other, "zoe")
    error = wait_for(lambda: visible(other, "#name-error") and visible(other, "#name-error").text)
    assert "belongs to someone else" in error


def test_watching_mid_game_shows_how_the_board_came_about(server, browsers) -> None:
    ann, bob = browsers(), browsers()
    open_client(ann, server.url)
    take_guest(ann)
    table = create_table(ann, "switch", 2, 1, {"turn_seconds": 0})
    rng = random.Random(2)
    while table_state(ann).get("seq", 0) < 8:
        state = table_state(ann)
        if state.get("to_act") == 0 and tap_something(ann, rng):
            settle(ann, state.get("seq"))
    open_client(bob, server.url)
    take_guest(bob)
    click(bob, f'[data-watch="{table}"]')
    wait_for(lambda: visible(bob, "#table"), what="bob watching")
    # the deal, long before bob came, is in his log, and every event after it in order
    first = wait_for(lambda: event_seqs(bob) and event_seqs(bob)[0], what="the old events")
    assert first <= 2
    seqs = event_seqs(bob)
    assert seqs == list(range(seqs[0], seqs[-1] + 1))
    assert log_lines(bob)[0].startswith("Hand 1:")
