"""Screenshots of the web client for docs/screens/: the lobby and each family's board, at
a phone's 390x844 and a desktop's 1280x800, mid-game against bots on a real server; and at
phone size the settings panel and a table's invite with its QR code.

    python tests/web/screens.py [OUT_DIR] [night]     (default: docs/screens; night: only
                                                       the settings and the invite)
"""

from __future__ import annotations

import random
import sys
import tempfile
from pathlib import Path

from conftest import DESKTOP, PHONE, Server, make_driver, wait_for
from mpclient import MsgpackPlayer
from webpage import (
    click,
    create_table,
    leave_table,
    open_client,
    say,
    settle,
    table_state,
    take_name,
    tap_something,
    visible,
)

BOARDS = [
    ("switch", 4, 3, {"turn_seconds": 90}),
    ("abbott", 4, 3, {"turn_seconds": 90}),
    ("kilodney", 5, 4, {"turn_seconds": 90}),
]


def main() -> None:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/screens")
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp))
        try:
            # a lobby with something in it: a waiting table and one being played
            if sys.argv[2:] == ["night"]:
                night(server, out)
                return
            host = MsgpackPlayer(server.port, "maria")
            made = host.request({"type": "create_table", "ruleset": "irish", "seats": 4})
            host.join(made["table"])
            for size, label in ((PHONE, "phone"), (DESKTOP, "desktop")):
                shoot(server, out, size, label, host)
            host.close()
            night(server, out)
        finally:
            server.stop()


def shoot(
    server: Server, out: Path, size: tuple[int, int], label: str, host: MsgpackPlayer
) -> None:
    driver = make_driver(size)
    try:
        open_client(driver, server.url)
        take_name(driver, f"ann-{label}")
        wait_for(lambda: visible(driver, "#create-form"), what="the lobby")
        wait_for(lambda: visible(driver, ".table-card"), what="the tables")
        wait_for(lambda: visible(driver, '#people li[data-name="maria"]'), what="who is online")
        host.request({"type": "shout", "text": "irish at my table, anyone?"})
        wait_for(lambda: visible(driver, "#shouts li"), what="the shout")
        driver.save_screenshot(str(out / f"lobby-{label}.png"))
        rng = random.Random(5)
        for ruleset, seats, bots, options in BOARDS:
            click(driver, "#lobby-btn")
            create_table(driver, ruleset, seats, bots, options)
            wait_for(lambda: table_state(driver).get("state") == "playing", what="the deal")
            taps = 0
            while taps < 4:  # a few moves in, with the log filling
                before = table_state(driver).get("seq")
                wait_for(lambda: table_state(driver).get("to_act") == 0, what="our turn")
                if tap_something(driver, rng):
                    taps += 1
                    settle(driver, before)
            say(driver, "good luck, all")
            wait_for(lambda: table_state(driver).get("to_act") == 0, what="our turn")
            wait_for(lambda: visible(driver, "#actions button.act"), what="the actions")
            driver.execute_script(
                "window.scrollTo(0, 0); document.getElementById('table-main').scrollTop = 0"
            )
            driver.save_screenshot(str(out / f"{ruleset}-{label}.png"))
            leave_table(driver)
    finally:
        driver.quit()


def night(server: Server, out: Path) -> None:
    """The settings panel and a waiting table's invite, at a phone's size."""
    driver = make_driver(PHONE)
    try:
        open_client(driver, server.url)
        take_name(driver, "ann")
        create_table(driver, "switch", 4, 0, {"turn_seconds": 60})
        click(driver, "#settings-btn")
        wait_for(lambda: visible(driver, "#settings"), what="the settings")
        driver.save_screenshot(str(out / "settings-phone.png"))
        click(driver, "#dialog-close")
        click(driver, "#invite-btn")
        wait_for(
            lambda: driver.execute_script(
                "return document.getElementById('invite-qr').naturalWidth"
            ),
            what="the QR code",
        )
        driver.save_screenshot(str(out / "invite-phone.png"))
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
