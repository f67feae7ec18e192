"""The tournament replies in the terminal client: ``tournaments`` and ``standings`` open a
page of their lines, as ``who`` and ``top`` do (they showed nothing)."""

from __future__ import annotations

import asyncio

from harness import Driver, run_client


def test_tournaments_and_standings_show_their_lines(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("SWITCHBOARD_CONFIG_DIR", str(tmp_path))
    screens: list[str] = []

    async def script(d: Driver) -> None:
        await d.until(lambda: d.table is not None, what="the table")
        d.line("tournaments")
        screens.append(await d.until_screen("none yet: host RULESET opens one"))
        d.keys("\x1b")  # Escape closes the page
        d.line("host switch rounds=2")
        await d.until_screen("tournament 1 is open")
        d.line("tournaments")
        screens.append(await d.until_screen("switch, swiss, waiting"))
        d.keys("\x1b")
        d.line("enter 1")
        await d.until_screen("you are in tournament 1")
        d.line("standings 1")
        screens.append(await d.until_screen("ranked by"))
        d.keys("\x1b")
        d.line("quit")

    assert asyncio.run(run_client(script, game="switch", seats=2, name="ann"), debug=False) == 0
    assert "#" not in screens[1] and "1 · switch, swiss, waiting · 2 rounds" in screens[1]
    assert "1. ann 0 points" in screens[2], screens[2]
