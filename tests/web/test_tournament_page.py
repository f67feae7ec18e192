"""A tournament's page in a phone-size browser: the host's form creates one, the host
enters from its page, pauses and comes back, starts it (the page sits down at round 1's
table by itself), sees the round's clock counting down, ends it early, and reads the
podium with the winner named; every screen of it fits a phone, its targets big enough."""

from __future__ import annotations

from typing import Any

from conftest import wait_for
from test_phone import check
from webpage import click, open_client, take_name, visible

try:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select
except ImportError:  # the fixtures skip (or, in CI, fail) and say why
    pass


def page_text(driver: Any, css: str) -> str:
    return str(driver.execute_script(
        "const e = document.querySelector(arguments[0]); return e ? e.textContent : '';", css
    ))  # fmt: skip


def test_host_a_tournament_from_a_phone(server: Any, browsers: Any) -> None:
    driver = browsers()
    open_client(driver, server.url)
    take_name(driver, "hostess")
    click(driver, "#tour-create summary", "the host's form")
    Select(driver.find_element(By.ID, "tour-ruleset")).select_by_value("switch")
    for field, value in (("tour-rounds", "1"), ("tour-minutes", "2"), ("tour-seats", "2")):
        box = driver.find_element(By.ID, field)
        box.clear()
        box.send_keys(value)
    assert driver.find_element(By.ID, "tour-bots").is_selected()  # bots fill, by default
    check(driver, "the lobby with the host's form open")  # a phone first: fits, big targets
    click(driver, "#tour-go")
    wait_for(lambda: visible(driver, "#tour-enter"), what="the new tournament's page")
    number = int(driver.execute_script("return window.switchboard.tour.current"))
    assert visible(driver, "#tour-start") and visible(driver, "#tour-end")  # the host's
    check(driver, "the tournament's page")
    click(driver, "#tour-enter")
    click(driver, "#tour-pause")  # sits out, shown paused ...
    wait_for(lambda: "paused" in page_text(driver, "#standings tr.me"), what="paused")
    click(driver, "#tour-resume")  # ... and is back
    wait_for(lambda: visible(driver, "#tour-pause"), what="back")
    assert "paused" not in page_text(driver, "#standings tr.me")
    click(driver, "#tour-start")
    # round 1 is seated: the page sits down at its table by itself
    wait_for(lambda: visible(driver, "#table"), what="the round's table")
    table = driver.execute_script("return window.switchboard.ui.current")
    assert driver.execute_script("return window.switchboard.table().seat") is not None
    click(driver, "#lobby-btn")
    card = f'[data-tournament="{number}"]'
    wait_for(lambda: "Round 1 of 1" in page_text(driver, card), what="the card's round")
    click(driver, f'[data-open="{number}"]')
    wait_for(lambda: page_text(driver, "#tour-clock").startswith(("1:", "2:0")), what="clock")
    first = page_text(driver, "#tour-clock")
    wait_for(lambda: page_text(driver, "#tour-clock") not in ("", first), what="ticking")
    assert f"Table {table}" in page_text(driver, ".tour-tables")
    driver.execute_script("window.confirm = () => true")
    click(driver, "#tour-end")
    wait_for(lambda: visible(driver, "#podium"), what="the podium")
    assert page_text(driver, "#tour-winner") == "hostess"
    assert page_text(driver, "#standings tbody tr td") == "1"
    assert page_text(driver, "#tour-clock") == ""  # no round runs any more
    driver.execute_script("document.querySelector('.tiebreaks').open = true")
    check(driver, "the podium and the tiebreaks")
