"""Looking back at a finished game in the browser: its replay from the end screen (to the
end and back, by keys and buttons), the analysis's marks with the better move, the game's
link opening the same replay in another browser (whose Analyse gets the kept analysis at
once), the hint on one's turn against bots, and a review that a watcher follows step for
step, steps away from and comes back to.

The person plays a short switch game against a bot and draws whenever he may (a draw
where a play was open is the kind of move the analysis marks). A deal the bot wins in a
few moves may hold no mistake worth a mark (about one in eight): then the table plays
again and the next game is analysed."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import DESKTOP, Server, serving, wait_for
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from webpage import (
    MOVING,
    click,
    create_table,
    game_over,
    open_client,
    settle,
    table_state,
    take_guest,
    tap_something,
    texts,
    visible,
)

OPTIONS = {"hand_size": 4, "turn_seconds": 0}
DRAW = '#actions button.act[data-action^="draw"]'


#: Games the test may play before one holds a mark: the server's analysis budget for an
#: address (every browser here is 127.0.0.1) is raised to cover them.
TRIES = 5


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The browsers' server, an address allowed as many analyses at once as the tries."""
    with serving(tmp_path_factory.mktemp("web"), f"analysis_address_burst = {TRIES}\n") as srv:
        yield srv


def analysed_marks(driver: Any) -> list[int]:
    """Ask for the analysis of the game in the replay; the steps it marks."""
    click(driver, "#analyse")
    wait_for(lambda: visible(driver, "#analysis-summary"), timeout=180, what="the analysis")
    return list(driver.execute_script("return window.switchboard.lookback.model.markedSteps()"))


def play_badly_to_end(driver: Any, timeout: float = 240.0) -> None:
    """Tap legal actions until the game is over, drawing whenever a draw is offered."""
    rng = random.Random(3)

    def step() -> bool:
        if game_over(driver):
            return True
        before = table_state(driver).get("seq")
        try:
            draws = driver.find_elements(By.CSS_SELECTOR, DRAW)
            if draws:
                draws[0].click()
            elif not tap_something(driver, rng):
                return False
        except MOVING:
            return False
        settle(driver, before)
        return False

    wait_for(step, timeout=timeout, what="the end of the game")


def at(driver: Any) -> tuple[int, int]:
    """The replay's step on screen and its last step."""
    (line,) = texts(driver, "#replay-at")
    words = line.split()  # "step N of M"
    return int(words[1]), int(words[3])


def state(driver: Any) -> Any:
    """What the page's review knows (said when a step does not come)."""
    return driver.execute_script(
        "const l = window.switchboard.lookback;"
        "return {following: l.following, away: l.away, leading: l.leading,"
        " leaders: [...(l.leaders.get(l.model && l.model.table) || new Map())]}"
    )


def press(driver: Any, key: str) -> None:
    driver.find_element(By.TAG_NAME, "body").send_keys(key)


def test_replay_analysis_and_the_games_link(server, browsers) -> None:
    driver = browsers(DESKTOP)
    open_client(driver, server.url)
    take_guest(driver)
    table = create_table(driver, "switch", 2, 1, OPTIONS)
    wait_for(lambda: table_state(driver).get("state") == "playing", what="the deal")
    # a hint on the person's turn, in a game against a bot
    wait_for(lambda: visible(driver, "#hint"), timeout=60, what="the hint button on my turn")
    notes = len(texts(driver, "#log li"))
    click(driver, "#hint")
    wait_for(lambda: len(texts(driver, "#log li")) > notes, what="the hint's line")
    play_badly_to_end(driver)

    # the replay, from the end screen: to the end and back
    click(driver, "#replay-open")
    wait_for(lambda: visible(driver, "#replay-body"), what="the replay")
    wait_for(lambda: at(driver)[1] > 0, what="the steps")
    step, last = at(driver)
    assert step == 0 and visible(driver, "#replay-body .board")
    press(driver, Keys.END)
    wait_for(lambda: at(driver) == (last, last), what="the last step")
    assert "Game over" in " ".join(texts(driver, "#replay-said p")) or last > 0
    press(driver, Keys.HOME)
    wait_for(lambda: at(driver) == (0, last), what="the first step")
    click(driver, "#replay-next")
    wait_for(lambda: at(driver) == (1, last), what="one step on")
    press(driver, Keys.ARROW_RIGHT)
    wait_for(lambda: at(driver) == (2, last), what="the arrow key's step")
    press(driver, Keys.ARROW_LEFT)
    wait_for(lambda: at(driver) == (1, last), what="the arrow key's step back")

    # the analysis: progress, then the summary and the marks at their steps
    marked = analysed_marks(driver)
    for _ in range(TRIES - 1):
        if marked:
            break
        click(driver, "#replay-close")  # a deal with nothing to mark: play again
        wait_for(lambda: visible(driver, "#play-again"), what="Play again")
        click(driver, "#play-again")
        wait_for(lambda: not game_over(driver), what="the next deal")
        play_badly_to_end(driver)
        click(driver, "#replay-open")
        wait_for(lambda: visible(driver, "#replay-body") and at(driver)[1] > 0, what="replay")
        last = at(driver)[1]
        marked = analysed_marks(driver)
    assert marked, f"drawing where a play was open is marked in one of {TRIES} games"
    first = marked[0]
    click(driver, f'#replay-marks button[data-step="{first}"]')
    wait_for(lambda: at(driver)[0] == first, what="the marked step")
    (sign,) = texts(driver, "#replay-mark")
    assert sign in ("??", "?", "?!")
    (better,) = texts(driver, "#replay-better")
    assert "better:" in better
    game = driver.execute_script("return window.switchboard.lookback.model.game")
    assert driver.current_url.endswith(f"/g/{table}-{game}")

    # the same replay from the player's own page (finger): his last games
    click(driver, "#replay-close")
    wait_for(lambda: visible(driver, "#table"), what="back at the table")
    click(driver, "#me")
    click(driver, "#profile button.replay-game", "a last game's Replay")
    wait_for(lambda: visible(driver, "#replay-body") and at(driver)[1] == last, what="replay")

    # the game's link, in a browser with no name yet: the same game
    stranger = browsers(DESKTOP)
    stranger.get(f"{server.url}g/{table}-{game}")
    wait_for(lambda: visible(stranger, "#replay-body"), what="the linked replay")
    wait_for(lambda: at(stranger)[1] == last, what="the linked replay's steps")
    assert texts(stranger, "#replay-title") == texts(driver, "#replay-title")
    assert not visible(stranger, "#analyse")  # asking for an analysis takes a name
    # ... and in a named one, whose Analyse gets the kept analysis at once
    other = browsers(DESKTOP)
    open_client(other, server.url)
    take_guest(other)
    other.get(f"{server.url}g/{table}-{game}")
    wait_for(lambda: visible(other, "#replay-body"), what="the linked replay, named")
    wait_for(lambda: at(other)[1] == last, what="the linked replay's steps, named")
    click(other, "#analyse")
    wait_for(lambda: visible(other, "#analysis-summary"), what="the kept analysis")
    assert other.execute_script("return window.switchboard.lookback.progress.size") == 0
    assert other.execute_script("return window.switchboard.lookback.model.markedSteps()") == marked


def test_a_watcher_follows_the_review_step_for_step(server, browsers) -> None:
    lead = browsers(DESKTOP)
    open_client(lead, server.url)
    leader = take_guest(lead)
    table = create_table(lead, "switch", 2, 1, OPTIONS)
    watcher = browsers(DESKTOP)
    open_client(watcher, server.url)
    take_guest(watcher)
    click(watcher, f'button[data-watch="{table}"]', "the watch button")
    wait_for(lambda: visible(watcher, "#table"), what="the watched table")
    play_badly_to_end(lead)
    wait_for(lambda: table_state(watcher).get("state") == "over", what="the end, watched")

    click(lead, "#review-lead")
    wait_for(lambda: visible(lead, "#review-status"), what="leading")
    click(watcher, f'#lookback button.follow[data-leader="{leader}"]', "the follow button")
    wait_for(lambda: visible(watcher, "#replay-body"), what="the follower's replay")
    wait_for(lambda: at(watcher)[1] > 2, what="the follower's steps")
    for n in range(1, 4):
        press(lead, Keys.ARROW_RIGHT)
        wait_for(lambda n=n: at(lead)[0] == n, what=f"the leader at step {n}")
        try:
            wait_for(lambda n=n: at(watcher)[0] == n, what=f"the follower at step {n}")
        except AssertionError as exc:
            raise AssertionError(f"{exc}; the follower's review: {state(watcher)}") from None
    assert at(watcher)[0] == 3
    # the watcher steps away, the leader goes on; back to the leader, at his step
    press(watcher, Keys.HOME)
    wait_for(lambda: at(watcher)[0] == 0, what="stepped away")
    press(lead, Keys.END)
    last = at(lead)[1]
    wait_for(lambda: at(lead)[0] == last, what="the leader at the end")
    assert at(watcher)[0] == 0
    click(watcher, f'#review-box button.follow[data-leader="{leader}"]', "back to the leader")
    wait_for(lambda: at(watcher)[0] == last, what="the follower back at the leader's step")
    # talk goes on beside the review
    box = watcher.find_element(By.ID, "replay-talk")
    box.send_keys("nice game")
    watcher.find_element(By.CSS_SELECTOR, ".replay-talk button[type=submit]").click()
    wait_for(lambda: "nice game" in " ".join(texts(lead, "#replay-log li")), what="talk")
