"""Names and talk reach the page as text, never as HTML: a name or a talk line like
``<img src=x onerror=alert(1)>`` runs nothing and adds no element, for the person who
typed it and for everyone else at the table (another browser, a msgpack player)."""

from __future__ import annotations

from typing import Any

from conftest import wait_for
from mpclient import MsgpackPlayer
from webpage import (
    NoAlertPresentException,
    click,
    create_table,
    log_lines,
    open_client,
    say,
    take_guest,
    take_name,
    visible,
)

HOSTILE = "<img src=x onerror=alert(1)>"
SCRIPT = "<script>alert(2)</script>"


def injected(driver: Any) -> dict[str, int]:
    """Elements a hostile string would have made, had it been read as HTML."""
    return driver.execute_script(
        "return {img: document.querySelectorAll('img').length,"
        " script: document.querySelectorAll('script:not([src])').length,"
        " alerted: window.__alerted ? 1 : 0}"
    )


def no_alert(driver: Any) -> bool:
    try:
        driver.switch_to.alert  # noqa: B018 - raises when no alert is open
    except NoAlertPresentException:
        return True
    return False


def watch_for_alerts(driver: Any) -> None:
    driver.execute_script("window.alert = () => { window.__alerted = true; };")


def test_hostile_names_and_talk_are_shown_as_text(server, browsers) -> None:
    ann, bob = browsers(), browsers((1280, 800))
    open_client(ann, server.url)
    watch_for_alerts(ann)
    take_name(ann, HOSTILE)
    error = wait_for(lambda: visible(ann, "#name-error") and visible(ann, "#name-error").text,
                     what="the name refused")  # fmt: skip
    assert "onerror" not in error or HOSTILE in error  # if the name is quoted, it is as typed
    assert injected(ann) == {"img": 0, "script": 0, "alerted": 0}
    take_guest(ann)
    table = create_table(ann, "switch", 3, 0, {"turn_seconds": 0})

    eve = MsgpackPlayer(server.port, "eve")
    try:
        eve.join(table)
        open_client(bob, server.url)
        watch_for_alerts(bob)
        take_guest(bob)
        click(bob, f'[data-watch="{table}"]', what="watch the table")
        wait_for(lambda: visible(bob, "#table"), what="bob at the table")

        say(ann, HOSTILE)
        eve.say(SCRIPT)
        eve.say(HOSTILE)
        for driver in (ann, bob):
            for line in (HOSTILE, SCRIPT):
                wait_for(lambda d=driver, line=line: any(line in x for x in log_lines(d)),
                         what=f"the talk {line!r} as text")  # fmt: skip
            assert injected(driver) == {"img": 0, "script": 0, "alerted": 0}
            assert no_alert(driver)
    finally:
        eve.close()
