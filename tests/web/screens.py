"""Screenshots of the web client for docs/screens/: the lobby and each family's board, at
a phone's 390x844 and a desktop's 1280x800, mid-game against bots on a real server.

    python tests/web/screens.py [OUT_DIR]     (default: docs/screens)
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
            host = MsgpackPlayer(server.port, "maria")
            made = host.request({"type": "create_table", "ruleset": "irish", "seats": 4})
            host.join(made["table"])
            for size, label in ((PHONE, "phone"), (DESKTOP, "desktop")):
                shoot(server, out, size, label, host)
            host.close()
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
            click(driver, "#leave-btn")
            wait_for(lambda: visible(driver, "#lobby"), what="back in the lobby")
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
