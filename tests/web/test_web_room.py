"""The room in the browser, as the terminal client shows it: who is online (with how many
more tables the server left out), shouts heard and sent, watchers coming and going at a
table, a table's notice filed by its ``table`` field, and a bot named by its seat."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from conftest import DESKTOP, Server, serving, wait_for
from mpclient import MsgpackPlayer
from webpage import click, log_lines, open_client, take_guest, texts, visible

try:
    from selenium.webdriver.common.by import By
except ImportError:  # the fixtures skip (or fail in CI) and say why
    By = None  # type: ignore[assignment,misc]


def _table_with_bots(player: MsgpackPlayer, ruleset: str, seats: int) -> str:
    """A table ``player`` made and sits at, the other seats bots, its game running."""
    made = player.request({"type": "create_table", "ruleset": ruleset, "seats": seats})
    assert made["type"] == "ok", made
    table = str(made["table"])
    player.join(table)
    started = player.request({"type": "start_game", "table": table})
    assert started["type"] == "ok", started
    return table


def _watch(driver, table: str) -> None:
    click(driver, "#lobby-btn")
    click(driver, f'[data-watch="{table}"]', what=f"table {table} in the lobby")
    wait_for(lambda: visible(driver, "#seats"), what="the table's seats")


def test_a_watched_table_names_bots_by_seat_counts_watchers_and_files_its_notices(
    server, browsers
) -> None:
    cy = MsgpackPlayer(server.port, "cy")
    dee = None
    try:
        table = _table_with_bots(cy, "abbott", 2)
        driver = browsers(DESKTOP)
        open_client(driver, server.url)
        take_guest(driver)
        wait_for(lambda: visible(driver, f'[data-watch="{table}"]'), what="the table listed")
        card = driver.find_element(By.CSS_SELECTOR, f'.table-card[data-table="{table}"]')
        assert "bot 2 (" in card.text and "(bot)" not in card.text, card.text
        _watch(driver, table)
        seats = " ".join(texts(driver, "#seats li.seat"))
        assert "bot 2" in seats and "(bot)" not in seats and "West" not in seats, seats

        dee = MsgpackPlayer(server.port, "dee")
        assert dee.request({"type": "spectate", "table": table})["type"] != "error"
        came = "dee came to watch (2 watchers)"
        wait_for(lambda: came in log_lines(driver), what="dee's coming in the log")
        assert wait_for(lambda: visible(driver, "#watching")).text == "2 watchers"

        ended = cy.request({"type": "end_game", "table": table})
        assert ended["type"] == "ok", ended
        notice = cy.wait(lambda m: m.get("type") == "notice" and m.get("table") == table)
        assert "at table" not in notice["text"]  # only the field says where it belongs
        wait_for(lambda: notice["text"] in log_lines(driver), what="the notice in the log")
    finally:
        cy.close()
        if dee is not None:
            dee.close()


def test_who_lists_where_people_are_and_how_many_tables_more(server, browsers) -> None:
    eve = MsgpackPlayer(server.port, "eve")
    try:
        for _ in range(10):  # the server lists 8 of a name's tables and counts the rest
            made = eve.request({"type": "create_table", "ruleset": "switch", "seats": 2})
            assert made["type"] == "ok", made
            eve.join(str(made["table"]))
        driver = browsers()
        open_client(driver, server.url)
        take_guest(driver)
        row = wait_for(lambda: visible(driver, '#people li[data-name="eve"]'), what="eve online")
        assert "and 2 tables more" in row.text, row.text
        assert "seated at table" in row.text, row.text
        # the line above the list, in the server's words (the terminal client shows them too)
        wait_for(
            lambda: visible(driver, "#online-text").text == "2 people online",
            what="how many are online",
        )
    finally:
        eve.close()


def test_shouts_are_heard_in_the_lobby_and_at_a_table_and_sent_from_the_lobby(
    server, browsers
) -> None:
    fay = MsgpackPlayer(server.port, "fay")
    try:
        table = _table_with_bots(fay, "switch", 2)
        driver = browsers()
        open_client(driver, server.url)
        me = take_guest(driver)
        box = wait_for(lambda: visible(driver, "#shout"), what="the shout line")
        box.send_keys("anyone for kilodney?")
        click(driver, "#shout-go")
        heard = fay.wait(lambda m: m.get("type") == "shouted")
        assert heard["name"] == me and heard["text"] == "anyone for kilodney?"
        wait_for(lambda: f"{me}: anyone for kilodney?" in texts(driver, "#shouts li"))

        _watch(driver, table)
        assert fay.request({"type": "shout", "text": "switch at my table"})["type"] == "ok"
        line = wait_for(lambda: visible(driver, "#shout-line"), what="the shout at the table")
        assert line.text == "fay shouts: switch at my table"
        click(driver, "#lobby-btn")
        wait_for(lambda: "fay: switch at my table" in texts(driver, "#shouts li"))
    finally:
        fay.close()


@pytest.fixture(scope="module")
def quiet_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with serving(tmp_path_factory.mktemp("quiet"), "shout = false\n") as srv:
        yield srv


def test_a_server_without_shouts_takes_the_shout_line_away(quiet_server, browsers) -> None:
    driver = browsers()
    open_client(driver, quiet_server.url)
    take_guest(driver)
    wait_for(lambda: visible(driver, "#shout"), what="the shout line").send_keys("hello?")
    click(driver, "#shout-go")
    wait_for(lambda: visible(driver, "#shouts-off"), what="shouts are off")
    assert visible(driver, "#shout-form") is None


def test_a_right_to_left_name_is_isolated_wherever_the_page_shows_it(server, browsers) -> None:
    """Before, a Hebrew name ran together with the words and digits beside it in the
    lobby (the bidi algorithm reordered "master <name> · 0 watching" and "<name>: 12")."""
    dana = "\u05d3\u05e0\u05d4"
    player = MsgpackPlayer(server.port, dana)
    try:
        table = _table_with_bots(player, "switch", 2)
        driver = browsers()
        open_client(driver, server.url)
        take_guest(driver)
        card = f'.table-card[data-table="{table}"]'
        wait_for(lambda: visible(driver, card), what=f"table {table} in the lobby")

        def isolated(where: str) -> list[str]:
            return [e.text for e in driver.find_elements(By.CSS_SELECTOR, f"{where} bdi")]

        wait_for(lambda: isolated(card).count(dana) >= 2, what="the seat and the master in <bdi>")
        assert player.request({"type": "shout", "text": "12 34"})["type"] == "ok"
        wait_for(lambda: dana in isolated("#shouts"), what="the shout's name in <bdi>")
        _watch(driver, table)
        wait_for(lambda: dana in isolated("#seats"), what="the seat's name in <bdi>")
    finally:
        player.close()
