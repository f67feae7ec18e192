"""The lobby a page at a time in the browser: the pager says which tables it shows of how
many, Next and Previous move through the server's pages, and each end's button is off."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from conftest import DESKTOP, Server, serving, wait_for
from mpclient import MsgpackPlayer
from webpage import click, open_client, take_guest, texts

PAGE, TABLES = 3, 8  #: a page of three tables, eight tables open: pages of 3, 3 and 2


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with serving(tmp_path_factory.mktemp("pages"), f"lobby_page = {PAGE}\n") as srv:
        host = MsgpackPlayer(srv.port, "hana")
        for _ in range(TABLES):
            made = host.request({"type": "create_table", "ruleset": "switch", "seats": 4})
            assert made["type"] == "ok", made
        yield srv


def _pager(driver) -> str:  # type: ignore[no-untyped-def]
    found = texts(driver, ".lobby-pager span")
    return found[0] if found else ""


def _shown(driver, text: str) -> None:  # type: ignore[no-untyped-def]
    seen: list[str] = []

    def says() -> bool:
        seen.append(_pager(driver))
        return seen[-1] == text

    try:
        wait_for(says, what=f"the pager to say {text!r}")
    except AssertionError:
        raise AssertionError(f"the pager said {seen[-3:]!r}, not {text!r}") from None


def _enabled(driver, page: str) -> bool:  # type: ignore[no-untyped-def]
    return bool(
        driver.execute_script(
            "const b = document.querySelector(`.lobby-pager [data-page='${arguments[0]}']`);"
            "return b !== null && !b.disabled;",
            page,
        )
    )


def _cards(driver) -> list[str]:  # type: ignore[no-untyped-def]
    return texts(driver, "#tables > li")


def test_next_and_previous_walk_the_lobbys_pages(server: Server, browsers) -> None:  # type: ignore[no-untyped-def]
    driver = browsers(DESKTOP)
    open_client(driver, server.url)
    take_guest(driver)
    pages = []
    _shown(driver, f"Tables 1–3 of {TABLES}")
    assert not _enabled(driver, "previous") and _enabled(driver, "next")
    pages.append(_cards(driver))
    click(driver, ".lobby-pager [data-page='next']", "Next")
    _shown(driver, f"Tables 4–6 of {TABLES}")
    assert _enabled(driver, "previous") and _enabled(driver, "next")
    pages.append(_cards(driver))
    click(driver, ".lobby-pager [data-page='next']", "Next")
    _shown(driver, f"Tables 7–8 of {TABLES}")
    assert _enabled(driver, "previous") and not _enabled(driver, "next")
    pages.append(_cards(driver))
    assert [len(p) for p in pages] == [3, 3, 2], pages
    assert len(set().union(*pages)) == TABLES, pages  # every table once, on one page
    click(driver, ".lobby-pager [data-page='previous']", "Previous")
    _shown(driver, f"Tables 4–6 of {TABLES}")
    assert _cards(driver) == pages[1]
    errors = [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]
    assert not errors, errors
