"""The terminal client's tournaments: the pages (pure), and a whole short tournament typed
at the client: hosted, entered, started; the client sits at its round's table by itself;
the host ends it early and the page drawn from the server's pushes names the winner."""

from __future__ import annotations

import asyncio
import dataclasses
import threading
import time
from collections.abc import Awaitable, Callable

import trio
from harness import Driver, run_client

from client.terminal.tournament import Desk, tournament_page, tournaments_page
from protocol import messages as m

SUMMARY = {"tournament": 3, "format": "swiss", "ruleset": "switch", "host": "ann",
           "players": 2, "round": 2, "rounds": 3, "state": "playing", "time_left": 75,
           "winner": None}  # fmt: skip
ANN = {"rank": 1, "name": "ann", "points": 1.5, "exact": "3/2", "opponents": 0.5,
       "firsts": 1, "score": 12, "games": 2, "paused": False, "withdrawn": False}  # fmt: skip
BOB = {**ANN, "rank": 2, "name": "bob", "exact": "1/2", "paused": True}


def test_the_page_of_a_tournament_lines_up_its_standings() -> None:
    msg = m.Tournament(
        tournament=3,
        summary=SUMMARY,
        standings=(ANN, BOB),
        tables=({"index": 0, "table": "9", "players": ["ann", "bot"], "over": False},),
        tiebreaks=(
            {"name": "points", "how": "the share beaten"},
            {"name": "opponents", "how": "their average"},
        ),
    )
    lines = tournament_page(msg)  # text mode's words, less the word naming the message
    assert lines[0] == "switch, swiss, playing · round 2 of 3, 1:15 left · 2 players · host ann"
    assert lines[1].startswith("1. ann 3/2 points · opponents 0.5")
    assert lines[2].startswith("2. bob (paused) 1/2 points")
    assert lines[3] == "ranked by points: the share beaten; opponents: their average"
    assert lines[4] == "table 9: ann, bot · join 9"
    over = dataclasses.replace(
        msg, summary={**SUMMARY, "state": "over", "winner": "ann", "time_left": None}
    )
    assert " · ann won · " in tournament_page(over)[0]
    assert tournaments_page(m.Tournaments(tournaments=()))[0].startswith("none yet")


def test_a_push_redraws_the_page_on_screen_and_says_the_winner_once() -> None:
    shown: list[tuple[str, list[str]]] = []
    said: list[str] = []
    title = ["Tournament 3"]

    async def sit(table: str) -> None:
        said.append(f"sat at {table}")

    desk = Desk(
        lambda t, ls: None, lambda t, ls: shown.append((t, ls)), lambda: title[0], sit, said.append
    )
    msg = m.Tournament(tournament=3, summary=SUMMARY, standings=(ANN, BOB))
    desk.pushed(msg)
    assert shown and shown[-1][0] == "Tournament 3"
    title[0] = ""
    over = dataclasses.replace(msg, summary={**SUMMARY, "winner": "ann", "state": "over"})
    desk.pushed(over)
    desk.pushed(over)
    assert len(shown) == 1  # the page was closed: not drawn again
    assert said == ["tournament 3 is over: ann wins the night"]
    trio.run(desk.told, m.YourTable(tournament=3, round=3, table="12", seat=0))
    assert said[-2:] == ["your table for round 3 is 12 (seat 1)", "sat at 12"]


async def host_and_enter(d: Driver) -> None:
    """From the lobby, type a one-round tournament of two seats open, then enter it."""
    await d.until_screen("lobby")
    d.line("host switch rounds=1 minutes=5 seats=2")
    await d.until_screen("tournament 1 is open")
    d.line("enter 1")
    await d.until_screen("you are in tournament 1")


def test_a_tournament_typed_at_the_terminal_client() -> None:
    async def script(d: Driver) -> None:
        await host_and_enter(d)
        d.line("tournaments")
        await d.until_screen("Tournaments")
        assert "enter 1 to play" in d.screen()
        d.keys("\x1b")
        d.line("tournament 1")
        await d.until_screen("Tournament 1")
        assert "waiting · 1 round" in d.screen() and "ann" in d.screen()
        d.keys("\x1b")
        d.line("tournament 1 start")  # round 1 is seated: the client sits down by itself
        await d.until(lambda: d.app.current is not None, what="sat at the round's table")
        await d.until(lambda: d.table is not None and d.table.seat is not None, what="a seat")
        d.line("standings")
        await d.until_screen("Tournament 1")
        assert "round 1 of 1" in d.screen()
        d.keys("\x1b")
        d.line("tournament 1 end")  # scored as it stands; the push names the winner
        await d.until_screen("wins the night", timeout=20)
        d.line("standings 1")  # over: it is no longer the one we play in
        await d.until(lambda: "over · round 1 of 1" in d.screen(), what="the final standings")
        assert "1." in d.screen() and "ann" in d.screen()
        d.keys("\x04")

    played_at_a_server(script)


def played_at_a_server(script: Callable[[Driver], Awaitable[None]]) -> None:
    """Run the terminal client as ann under ``script`` against a server of its own (a
    thread), its rounds' tables starting at once."""
    ports: list[int] = []
    stop = threading.Event()

    def serve() -> None:
        async def main() -> None:
            from server.app import Server
            from server.core.config import ServerConfig

            async with trio.open_nursery() as nursery:
                config = ServerConfig(
                    host="127.0.0.1",
                    port=0,
                    scrypt_n=2**4,
                    bot_delay_seconds=0.02,
                    tournament_countdown_seconds=0.0,
                )
                server = Server(config)
                ports.append(await nursery.start(server.serve))
                await trio.to_thread.run_sync(stop.wait, abandon_on_cancel=True)
                server.shutdown()

        trio.run(main)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 10
        while not ports and time.monotonic() < deadline:
            time.sleep(0.01)
        code = asyncio.run(run_client(script, address=("127.0.0.1", ports[0]), name="ann"))
        assert code == 0
    finally:
        stop.set()
        thread.join(10)


def test_the_tournament_page_pauses_and_comes_back_by_its_keys() -> None:
    """F5 sits out (as ``sitout N``), F6 is back (``enter N``); the host's F7 pauses the
    whole tournament and F8 resumes it; the page's key line names them."""
    f5, f6, f7, f8 = "\x1b[15~", "\x1b[17~", "\x1b[18~", "\x1b[19~"

    async def script(d: Driver) -> None:
        await host_and_enter(d)
        d.line("tournament 1")
        await d.until_screen("Tournament 1")
        assert "F5 pause · F6 back · F7 host: pause all · F8 resume all" in d.screen()
        assert "ann (paused)" not in d.screen()
        d.keys(f5)  # the push draws the page again
        await d.until_screen("ann (paused)")
        d.keys(f6)
        await d.until(lambda: "ann (paused)" not in d.screen(), what="back")
        d.keys(f7)
        await d.until_screen("paused by its host")
        d.keys(f8)
        await d.until(lambda: "paused by its host" not in d.screen(), what="resumed")
        d.keys("\x1b")  # closed, the keys type nothing
        await d.until(lambda: "Tournament 1" not in d.screen(), what="the page closed")
        said = d.screen().count("you sit out")
        d.keys(f5)
        await asyncio.sleep(0.3)
        assert d.screen().count("you sit out") == said
        d.keys("\x04")

    played_at_a_server(script)
