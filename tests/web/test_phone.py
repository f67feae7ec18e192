"""A phone is a first-class screen: at 390x844 every touch target is at least 44 px each
way, the text is at least 16 px, and nothing runs off the side (no sideways scrolling),
in the lobby (its house rules open) and on each family's board; at 1280x800 too."""

from __future__ import annotations

import random
from typing import Any

import pytest
from conftest import DESKTOP, PHONE, wait_for
from webpage import (
    click,
    create_table,
    leave_table,
    open_client,
    settle,
    table_state,
    take_guest,
    tap_something,
)

MEASURE = """
const small = [];
for (const e of document.querySelectorAll('button, select, input, summary, a[href]')) {
  const r = e.getBoundingClientRect();
  if (r.width === 0 && r.height === 0) continue;  // not shown
  if (e.closest('[hidden], dialog:not([open])')) continue;
  const name = e.id || e.className || e.tagName;
  if (r.width < 44 || r.height < 44) small.push(`${name} ${r.width | 0}x${r.height | 0}`);
}
return {
  small,
  wide: document.documentElement.scrollWidth - window.innerWidth,
  font: parseFloat(getComputedStyle(document.body).fontSize),
  viewport: document.querySelector('meta[name=viewport]').content,
};
"""


def measure(driver: Any) -> dict[str, Any]:
    return driver.execute_script(MEASURE)


def check(driver: Any, where: str) -> None:
    got = measure(driver)
    assert got["small"] == [], f"{where}: touch targets under 44 px: {got['small']}"
    assert got["wide"] <= 0, f"{where}: {got['wide']} px run off the side"
    assert got["font"] >= 16, f"{where}: text of {got['font']} px"
    assert "width=device-width" in got["viewport"]


BOARDS = [("switch", 4, 3), ("abbott", 4, 3), ("kilodney", 6, 5)]


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_every_screen_fits_and_every_target_is_big_enough(server, browsers, size) -> None:
    driver = browsers(size)
    open_client(driver, server.url)
    check(driver, "the name screen")
    take_guest(driver)
    click(driver, "#create-form details summary")
    check(driver, "the lobby")
    rng = random.Random(4)
    for ruleset, seats, bots in BOARDS:
        click(driver, "#lobby-btn")
        create_table(driver, ruleset, seats, bots, {"turn_seconds": 0})
        wait_for(lambda: table_state(driver).get("to_act") == 0, what="our turn")
        wait_for(lambda: table_state(driver).get("legal"), what="our moves")
        check(driver, f"the {ruleset} board")
        before = table_state(driver)["seq"]
        wait_for(lambda: tap_something(driver, rng), what="a tap")
        settle(driver, before)
        click(driver, "#rules-btn")
        wait_for(lambda: driver.execute_script("return document.getElementById('dialog').open"))
        check(driver, f"the {ruleset} rules")
        click(driver, "#dialog-close")
        leave_table(driver)


NEWEST = """
const log = [...document.querySelectorAll('#log li')];
if (!log.length) return null;
const text = log[log.length - 1].textContent;
const talk = document.getElementById('talk-form').getBoundingClientRect();
const found = [];
for (const e of document.querySelectorAll('#table li')) {
  if (e.textContent !== text) continue;
  const r = e.getBoundingClientRect();
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  const at = document.elementFromPoint(x, y);
  found.push({
    where: e.parentElement.id,
    inside: r.top >= 0 && r.left >= 0
      && r.bottom <= window.innerHeight && r.right <= window.innerWidth,
    above_talk: r.bottom <= talk.top,
    uncovered: at !== null && e.contains(at),
    font: parseFloat(getComputedStyle(e).fontSize),
  });
}
return {text, found, scrolled: window.scrollY};
"""


def test_a_phone_shows_what_just_happened_without_scrolling(server, browsers) -> None:
    """Five seats fill a phone's screen with seats and board; the newest log line is still
    on it, above the talk bar, while the page is at its top."""
    driver = browsers(PHONE)
    open_client(driver, server.url)
    take_guest(driver)
    create_table(driver, "switch", 5, 4, {"turn_seconds": 0})
    rng = random.Random(3)
    taps = 0
    while taps < 3:  # a few moves of ours, and the bots' in between
        wait_for(lambda: table_state(driver).get("to_act") == 0, what="our turn")
        before = table_state(driver).get("seq")
        if tap_something(driver, rng):
            taps += 1
            settle(driver, before)
    wait_for(lambda: table_state(driver).get("to_act") == 0, what="our turn again")
    wait_for(lambda: table_state(driver).get("legal"), what="our moves")
    driver.execute_script("window.scrollTo(0, 0)")

    def newest_on_screen() -> dict[str, Any] | None:
        got = driver.execute_script(NEWEST)
        if not got or got["scrolled"] != 0:
            return None
        seen = [f for f in got["found"] if f["inside"] and f["above_talk"] and f["uncovered"]]
        return got if seen else None

    got = wait_for(newest_on_screen, timeout=10, what="the newest log line on screen")
    shown = [f for f in got["found"] if f["inside"] and f["uncovered"]]
    assert all(f["font"] >= 16 for f in shown), got
    check(driver, "the five-seat switch board")
