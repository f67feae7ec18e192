"""What a person does with the web client, as the browser tests do it: open the page, take
a name, create a table with the form, tap legal actions until the game ends, read the log.

Elements are found as a person would find them, by what the page shows them as
(``button.act`` with its ``data-action``, a card's ``data-card``); the page's own state
(``window.switchboard``) is read only to know when to stop.
"""

from __future__ import annotations

import random
import time
from typing import Any

from conftest import wait_for

try:
    from selenium.common.exceptions import (
        ElementClickInterceptedException,
        ElementNotInteractableException,
        NoAlertPresentException,
        StaleElementReferenceException,
    )
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    MOVING: tuple[type[Exception], ...] = (
        StaleElementReferenceException,
        ElementClickInterceptedException,
        ElementNotInteractableException,
    )
except ImportError:  # no selenium: the fixtures skip the tests (fail them in CI) and say why
    MOVING = ()
    NoAlertPresentException = StaleElementReferenceException = Exception  # type: ignore[misc]


def visible(driver: Any, css: str) -> Any:
    found = [e for e in driver.find_elements(By.CSS_SELECTOR, css) if e.is_displayed()]
    return found[0] if found else None


def click(driver: Any, css: str, what: str = "") -> None:
    """Tap the element ``css`` once it shows (again, if the page redrew it under us)."""

    def tap() -> bool:
        target = visible(driver, css)
        if target is None:
            return False
        try:
            target.click()
        except MOVING:
            return False
        return True

    wait_for(tap, what=what or css)


def open_client(driver: Any, url: str) -> None:
    driver.get(url)
    wait_for(lambda: visible(driver, "#name-screen") or visible(driver, "#lobby"), what="the page")


def take_guest(driver: Any) -> str:
    driver.find_element(By.ID, "guest").click()
    return wait_for(lambda: visible(driver, "#me") and visible(driver, "#me").text, what="a name")


def take_name(driver: Any, name: str) -> None:
    box = driver.find_element(By.ID, "name-input")
    box.clear()
    box.send_keys(name)
    driver.find_element(By.ID, "claim").click()


def create_table(
    driver: Any, ruleset: str, seats: int, bots: int, options: dict[str, Any] | None = None
) -> str:
    """Fill the lobby's form and create; returns the table id once its board is on screen."""
    wait_for(lambda: visible(driver, "#create-ruleset"), what="the create form")
    Select(driver.find_element(By.ID, "create-ruleset")).select_by_value(ruleset)
    # the form is drawn again for the ruleset chosen: wait for that before filling it in
    chosen = 'return !window.switchboard.drawing && document.getElementById("create-ruleset").value'
    wait_for(lambda: driver.execute_script(chosen) == ruleset, what="the ruleset chosen")
    Select(driver.find_element(By.ID, "create-seats")).select_by_value(str(seats))
    Select(driver.find_element(By.ID, "create-bots")).select_by_value(str(bots))
    if options:
        opened = "return document.querySelector('#create-form details').open"
        if not driver.execute_script(opened):
            driver.find_element(By.CSS_SELECTOR, "#create-form details summary").click()
        for name, value in options.items():
            field = driver.find_element(By.ID, f"opt-{name}")
            if field.get_attribute("type") == "checkbox":
                if field.is_selected() != bool(value):
                    field.click()
            elif field.tag_name == "select":
                Select(field).select_by_value(str(value))
            else:
                field.clear()
                field.send_keys(str(value))
    driver.find_element(By.ID, "create-go").click()
    wait_for(lambda: visible(driver, "#table"), what="the table screen")
    return str(driver.execute_script("return window.switchboard.ui.current"))


def leave_table(driver: Any) -> None:
    """Leave the table on screen, back to the lobby; mid-game the page asks first (a bot
    takes the seat), and the answer is to leave."""
    click(driver, "#leave-btn")

    def left() -> bool:
        answer = visible(driver, "#leave-confirm")
        if answer is not None:
            try:
                answer.click()
            except MOVING:
                return False
        return visible(driver, "#lobby") is not None

    wait_for(left, what="back in the lobby")


def table_state(driver: Any) -> dict[str, Any]:
    """The table on screen as the page knows it (seq, seat, state, whether it is over)."""
    return driver.execute_script(
        "const t = window.switchboard.table(); if (!t) return {};"
        "return {seq: t.seq, seat: t.seat, state: t.state, over: !!(t.view && t.view.over),"
        " legal: t.legal, to_act: t.toAct, family: t.view && t.view.family,"
        " hand: t.view && t.view.hand};"
    )


def game_over(driver: Any) -> bool:
    s = table_state(driver)
    return bool(s.get("over")) and visible(driver, "#result.game") is not None


def tap_something(driver: Any, rng: random.Random) -> bool:
    """Tap one legal thing on the screen, the ways a person would: an action button, a
    reachable square (abbott), a playable card (selected with a tap, then Play). True when
    something was tapped."""
    try:
        buttons = driver.find_elements(By.CSS_SELECTOR, "#actions button.act")
        if not buttons:
            return False
        family = table_state(driver).get("family")
        roll = rng.random()
        if family == "abbott" and roll < 0.5:
            squares = driver.find_elements(By.CSS_SELECTOR, ".grid button.square.target")
            if squares:
                rng.choice(squares).click()
                return True
        if family == "kilodney" and roll < 0.5:
            cards = driver.find_elements(By.CSS_SELECTOR, ".hand .card.playable")
            if cards:
                rng.choice(cards).click()
                driver.find_element(By.ID, "play-selected").click()
                return True
        if family == "shedding" and roll < 0.5:
            plays = [b for b in buttons if b.get_attribute("data-action").startswith("play ")]
            if plays:
                cards = rng.choice(plays).get_attribute("data-action").split()[1:]
                for card in cards:
                    if card != "last":
                        css = f'.hand .card[data-card="{card}"]'
                        driver.find_element(By.CSS_SELECTOR, css).click()
                driver.find_element(By.ID, "play-selected").click()
                return True
        forward = ("play", "move", "suit", "last")
        plays = [b for b in buttons if b.get_attribute("data-action").split()[0] in forward]
        (plays[0] if plays and roll < 0.9 else rng.choice(buttons)).click()
        return True
    except MOVING:
        return False


def settle(driver: Any, before: Any, wait: float = 5.0) -> None:
    """Wait (up to ``wait`` seconds, not failing) for a tap's answer: the table moved on,
    or nothing is left to tap; so the same button is not tapped twice."""
    end = time.monotonic() + wait
    while time.monotonic() < end:
        try:
            if table_state(driver).get("seq") != before or not driver.find_elements(
                By.CSS_SELECTOR, "#actions button.act"
            ):
                return
        except StaleElementReferenceException:
            pass
        time.sleep(0.05)


def play_to_end(driver: Any, seed: int = 1, timeout: float = 240.0) -> int:
    """Tap legal actions until the game is over; returns how many taps it took."""
    rng = random.Random(seed)
    taps = 0

    def step() -> bool:
        nonlocal taps
        if game_over(driver):
            return True
        before = table_state(driver).get("seq")
        if tap_something(driver, rng):
            taps += 1
            # the tap is answered before anything else is tapped
            settle(driver, before)
        return False

    wait_for(step, timeout=timeout, what="the end of the game")
    return taps


def texts(driver: Any, css: str) -> list[str]:
    """The text of every element matching ``css``, read at one moment (the page redraws
    on every message, so elements found one by one may be gone by the next read)."""
    return driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map((e) => e.textContent)", css
    )


def log_lines(driver: Any) -> list[str]:
    return texts(driver, "#log li")


def event_seqs(driver: Any) -> list[int]:
    return driver.execute_script(
        "return [...document.querySelectorAll('#log li.event')].map((e) => +e.dataset.seq)"
    )


def event_lines(driver: Any) -> list[tuple[int, str]]:
    """Each event line of the log as (seq, text), read at one moment."""
    pairs = driver.execute_script(
        "return [...document.querySelectorAll('#log li.event')]"
        ".map((e) => [+e.dataset.seq, e.textContent])"
    )
    return [(int(seq), str(text)) for seq, text in pairs]


def say(driver: Any, text: str) -> None:
    box = driver.find_element(By.ID, "talk")
    box.clear()
    box.send_keys(text)
    driver.find_element(By.CSS_SELECTOR, "#talk-form button[type=submit]").click()
