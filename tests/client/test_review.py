"""`review` and `follow` in the terminal client: the board at the step led or followed is
drawn into the table's log from the finished game's record."""

from __future__ import annotations

import asyncio

from harness import Driver, run_client


def test_leading_a_review_draws_the_step_and_following_says_it(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("SWITCHBOARD_CONFIG_DIR", str(tmp_path))
    seen: dict[str, str] = {}

    async def script(d: Driver) -> None:
        await d.until(lambda: d.table is not None and d.table.my_turn, what="my turn")
        for _ in range(2):
            await d.until(lambda: d.table.my_turn, what="my turn again")
            before = d.table.seq
            d.line(d.table.legal[0])
            await d.until(lambda b=before: d.table.seq > b, what="my move taken")
        d.line("end")
        await d.until(lambda: d.table.state == "over", what="the game ended")
        d.line("review 2")
        await d.until(
            lambda: any("step 2/" in ln.data.get("text", "") for ln in d.table.log),
            timeout=20,
            what="the board at step 2 in the log",
        )
        d.line("follow ann")
        await d.until(lambda: d.table.following == "ann", what="following myself")
        d.line("review 3")
        await d.until(
            lambda: any("(3 of " in ln.data.get("text", "") for ln in d.table.log),
            timeout=20,
            what="the step said",
        )
        seen["log"] = "\n".join(ln.data.get("text", "") for ln in d.table.log if ln.kind == "note")
        d.line("follow")
        await d.until(lambda: d.table.following is None, what="stepped away")
        d.line("quit")

    assert asyncio.run(run_client(script, game="switch", seats=2, name="ann"), debug=False) == 0
    assert "ann leads the review of game 1: step 2: " in seen["log"], seen["log"]


def test_the_board_of_a_step_is_on_screen_without_a_key_pressed(tmp_path, monkeypatch) -> None:
    """The board of a step comes after the record's pages were fetched, with no message
    behind it: the client redraws once it is in the log (it waited for the next key)."""
    monkeypatch.setenv("SWITCHBOARD_CONFIG_DIR", str(tmp_path))
    drawn: list[bool] = []
    redrawn: list[bool] = []
    header: list[str] = []

    async def script(d: Driver) -> None:
        await d.until(lambda: d.table is not None and d.table.my_turn, what="my turn")
        before = d.table.seq
        d.line(d.table.legal[0])
        await d.until(lambda: d.table.seq > before, what="my move taken")
        d.line("end")
        await d.until(lambda: d.table.state == "over", what="the game ended")
        invalidate = d.app.application.invalidate

        def counted() -> None:
            drawn.append(any("step 1/" in ln.data.get("text", "") for ln in d.table.log))
            invalidate()

        d.app.application.invalidate = counted  # type: ignore[method-assign]
        d.line("review 1")
        await d.until(
            lambda: any("step 1/" in ln.data.get("text", "") for ln in d.table.log),
            timeout=20,
            what="the board at step 1 in the log",
        )
        await asyncio.sleep(0.5)
        redrawn.append(True in drawn)  # before a key is pressed again
        # drawn as the rest of the screen is: card symbols, unless the client is --ascii
        header.extend(ln.data.get("text", "") for ln in d.table.log if "hand 1" in str(ln.data))
        d.line("quit")

    assert asyncio.run(run_client(script, game="switch", seats=2, name="ann"), debug=False) == 0
    assert redrawn == [True], "the screen was not redrawn once the board was in the log"
    assert "switch · hand 1 · dealer" in "\n".join(header), header
