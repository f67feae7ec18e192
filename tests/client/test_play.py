"""The terminal client driven like a person: keys in through a pipe, the screen read as text,
against a real server on loopback with server bots at the other seats."""

from __future__ import annotations

import asyncio

import pytest
from harness import CTRL_D, F1, Driver, run_client


async def play_my_turns(d: Driver, until_kind: str = "hand_end", turns: int = 400) -> None:
    """Type the first legal action whenever it is our turn, until an event of ``until_kind``."""

    def finished() -> bool:
        t = d.table
        return t is not None and any(
            e.kind == "event" and e.data.get("kind") in (until_kind, "game_end") for e in t.log
        )

    for _ in range(turns):
        await d.until(lambda: finished() or (d.table and d.table.my_turn), 20, "our turn")
        if finished():
            return
        t = d.table
        action = t.legal[0]
        seq = t.seq
        d.line(action)
        await d.until(lambda s=seq: finished() or d.table.seq > s, 20, f"{action} to be played")
    raise AssertionError("the hand did not end")


#: What a person must be able to read off each family's board at the start.
BOARD_MARKS = {
    "abbott": ["a   b   c   d   e   f", " 6 ", " 1 ", "ann (you)", "Hand 1"],
    "switch": ["Your hand (7)", "Pile", "Stock", "Hands:"],
    "kilodney": ["Your hand (", "kilodney", "cards", "score"],
}


@pytest.mark.parametrize("game", ["abbott", "switch", "kilodney"])
def test_play_a_hand(game: str) -> None:
    async def script(d: Driver) -> None:
        await d.until(lambda: d.table is not None and d.table.view, what="the board")
        screen = d.screen()
        for mark in BOARD_MARKS[game]:
            assert mark in screen, screen
        await play_my_turns(d)

        # The bots move at once (no delay here), and their moves of the next hand can push
        # the end's line out of an 80x24 log before it is looked for: a taller terminal
        # keeps it on screen.
        def ended() -> bool:
            screen = d.screen(120, 60)
            return "Hand over" in screen or "Game over" in screen

        await d.until(ended, 10, "end")
        d.line("'good game all")
        await d.until_screen("good game all")
        d.keys(F1)
        await d.until_screen("Help")
        d.keys(CTRL_D)

    assert asyncio.run(run_client(script, game=game, name="ann")) == 0


@pytest.mark.parametrize("game", ["abbott", "blackjack", "kilodney"])
def test_ascii_mode_draws_plain_ascii(game: str) -> None:
    """--ascii (or a terminal without the symbols): QH, not Q♥, and ASCII lines."""

    async def script(d: Driver) -> None:
        await d.until(lambda: d.table is not None and d.table.view, what="the board")
        screen = d.screen()
        assert screen.isascii(), screen
        d.keys(F1)  # the help's frame is ASCII too
        screen = await d.until_screen("Escape or F1 closes this help")
        assert screen.isascii() and "+-" in screen and "| " in screen, screen
        d.keys(F1)
        d.keys(CTRL_D)

    assert asyncio.run(run_client(script, game=game, name="ann", ascii_only=True)) == 0


def test_a_private_game_has_no_clock_unless_asked() -> None:
    """Before, the practice table had the 60-second clock, which played for you unasked."""

    def run(**kwargs: object) -> float | None:
        seen: list[float | None] = []

        async def script(d: Driver) -> None:
            await d.until(lambda: d.table is not None and d.table.my_turn, what="my turn")
            seen.append(d.table.clock_left())
            d.keys(CTRL_D)

        assert asyncio.run(run_client(script, game="switch", name="ann", **kwargs)) == 0
        return seen[0]

    assert run() is None
    left = run(clock=30)
    assert left is not None and left <= 30
