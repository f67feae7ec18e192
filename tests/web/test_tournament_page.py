"""A tournament's page in a phone-size browser: the host's form creates one (every setting
the wire takes), the host enters from its page, pauses and comes back, starts it (the page
sits down at round 1's table by itself), sees the round's clock counting down, pauses the
whole tournament (the clock stands still) and resumes it, ends it early, and reads the
podium with the winner named; every screen of it fits a phone, its targets big enough."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import Server, serving, wait_for
from test_phone import check
from webpage import click, open_client, take_name, visible

try:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select
except ImportError:  # the fixtures skip (or, in CI, fail) and say why
    pass


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The browsers' server, a round's tables starting half a second after its seating
    (not the default 10: the test waits for the round's clock)."""
    with serving(tmp_path_factory.mktemp("web"), "tournament_countdown_seconds = 0.5\n") as srv:
        yield srv


def page_text(driver: Any, css: str) -> str:
    return str(driver.execute_script(
        "const e = document.querySelector(arguments[0]); return e ? e.textContent : '';", css
    ))  # fmt: skip


def created(server: Any, host: str) -> dict[str, Any]:
    """The settings a tournament hosted by ``host`` was stored with (its log's first entry)."""
    data = server.proc.args[server.proc.args.index("--data") + 1]
    conn = sqlite3.connect(f"file:{data}/switchboard.sqlite3?mode=ro", uri=True)
    try:
        rows = conn.execute("SELECT data FROM tournament_log WHERE kind = 'created'").fetchall()
    finally:
        conn.close()
    return next(d for (raw,) in rows if (d := json.loads(raw))["host"] == host)


def test_the_host_form_carries_every_setting_the_wire_takes(server: Any, browsers: Any) -> None:
    """The arena's wait, round 1 by rating, the pairs kept apart and the tables' house
    rules, set on a phone, are the hosted tournament's."""
    driver = browsers()
    open_client(driver, server.url)
    take_name(driver, "organiser")
    click(driver, "#tour-create summary", "the host's form")
    Select(driver.find_element(By.ID, "tour-format")).select_by_value("arena")
    assert visible(driver, "#tour-wait") and not visible(driver, "#tour-rounds")
    Select(driver.find_element(By.ID, "tour-ruleset")).select_by_value("kilodney")
    driver.find_element(By.ID, "tour-wait").send_keys("40")
    Select(driver.find_element(By.ID, "tour-strength")).select_by_value("strength")
    driver.find_element(By.ID, "tour-apart").send_keys("ann bob\ncy+dee")
    click(driver, "#tour-rules summary", "the tables' house rules")
    target = driver.find_element(By.ID, "tour-opt-target")  # kilodney's own option
    target.send_keys("300")
    labelled = driver.execute_script(
        "return [...document.querySelectorAll('#tour-form input, #tour-form select,"
        " #tour-form textarea')].filter(i => !i.labels || !i.labels.length).map(i => i.id)"
    )
    assert labelled == []  # every input has its label
    check(driver, "the host's form with every setting")
    click(driver, "#tour-go")
    wait_for(lambda: visible(driver, "#tour-enter"), what="the new tournament's page")
    data = created(server, "organiser")
    assert data["format"] == "arena" and data["ruleset"] == "kilodney"
    assert data["wait_seconds"] == 40 and data["by_strength"] is True
    assert data["forbidden"] == [["ann", "bob"], ["cy", "dee"]]
    assert data["options"]["target"] == 300


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
    # the host pauses the whole tournament: the round says so, its clock stands still
    click(driver, "#tour-hold")
    wait_for(lambda: page_text(driver, "#tour-round").endswith("paused"), what="paused")
    assert page_text(driver, "#tour-hold") == "Resume tournament"
    still = page_text(driver, "#tour-clock")
    time.sleep(1.5)
    assert page_text(driver, "#tour-clock") == still
    click(driver, "#tour-hold")  # resumed: it counts down again
    wait_for(lambda: page_text(driver, "#tour-hold") == "Pause tournament", what="resumed")
    wait_for(lambda: page_text(driver, "#tour-clock") not in ("", still), what="ticking again")
    driver.execute_script("window.confirm = () => true")
    click(driver, "#tour-end")
    wait_for(lambda: visible(driver, "#podium"), what="the podium")
    assert page_text(driver, "#tour-winner") == "hostess"
    assert page_text(driver, "#standings tbody tr td") == "1"
    assert page_text(driver, "#tour-clock") == ""  # no round runs any more
    driver.execute_script("document.querySelector('.tiebreaks').open = true")
    check(driver, "the podium and the tiebreaks")
