"""The lobby as a newcomer first sees it: the tables, the form and the best rated of each
family, drawn without an error in the browser's console."""

from __future__ import annotations

from conftest import DESKTOP, wait_for
from webpage import open_client, take_guest, texts, visible


def test_the_lobby_shows_the_best_rated_and_draws_without_errors(server, browsers) -> None:
    driver = browsers(DESKTOP)
    open_client(driver, server.url)
    take_guest(driver)
    wait_for(lambda: visible(driver, "#create-form"), what="the lobby's form")
    box = wait_for(lambda: visible(driver, "#leaders"), what="the best rated")
    assert "Best rated" in box.text
    assert {"abbott", "shedding", "kilodney"} <= set(texts(driver, "#leaders h3"))
    errors = [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]
    assert not errors, errors
