"""A phone is a first-class screen: at 390x844 every touch target is at least 44 px each
way, the text is at least 16 px, and nothing runs off the side (no sideways scrolling),
in the lobby (its house rules open) and on each family's board; at 1280x800 too."""

from __future__ import annotations

import random
from typing import Any

import pytest
from conftest import DESKTOP, PHONE, wait_for
from webpage import click, create_table, open_client, settle, table_state, take_guest, tap_something

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
        click(driver, "#leave-btn")
