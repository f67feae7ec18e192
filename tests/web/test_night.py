"""Game night in the browser: the turn alert on a hidden page, the keyboard focus kept
across another player's move, cards and the turn read aloud, Leave's question mid-game,
the settings kept, a table's invite link and its QR code, and the manifest."""

from __future__ import annotations

import re
from pathlib import Path

from conftest import wait_for
from mpclient import MsgpackPlayer
from selenium.webdriver.common.by import By
from webpage import click, create_table, open_client, table_state, take_guest, visible

from protocol.cards import RANK_NAMES, RANK_WORDS, SUIT_NAMES
from tests.server.test_http_invite import decoded

STATIC = Path(__file__).resolve().parents[2] / "web" / "static"
TURN_TITLE = "● Your turn — Switchboard"

#: spies on what the alert calls: the oscillator of Web Audio and the vibration
SPY = """
window.__tones = 0; window.__buzzes = [];
const make = AudioContext.prototype.createOscillator;
AudioContext.prototype.createOscillator = function () { window.__tones++; return make.call(this); };
navigator.vibrate = (pattern) => { window.__buzzes.push(pattern); return true; };
"""
#: the page hidden (another tab in front, the phone in a pocket), or seen again
HIDE = """
Object.defineProperty(document, "hidden", {configurable: true, get: () => arguments[0]});
document.dispatchEvent(new Event("visibilitychange"));
"""
ACT_FIRST = "const t = window.switchboard.table(); window.switchboard.act(t.legal[0]);"


def spoken(card: str) -> str:
    """A card as protocol/cards.py reads it aloud."""
    if card == "JK":
        return "joker"
    return f"{RANK_WORDS.get(card[0], card[0])} of {SUIT_NAMES[card[1]]}"


def two_at_a_table(server, driver) -> tuple[str, MsgpackPlayer]:
    """The browser's guest at a switch table of two with cy, the game started, no clock."""
    open_client(driver, server.url)
    take_guest(driver)
    table = create_table(driver, "switch", 2, 0, {"turn_seconds": 0})
    cy = MsgpackPlayer(server.port, "cy")
    cy.join(table)
    click(driver, "#start")
    wait_for(lambda: table_state(driver).get("state") == "playing", what="the deal")
    return table, cy


def until_cys_turn(driver) -> None:
    """Play our first legal action until the turn is cy's."""

    def step() -> bool:
        state = table_state(driver)
        if state.get("to_act") == 1:
            return True
        if state.get("to_act") == 0 and state.get("legal"):
            driver.execute_script(ACT_FIRST)
            wait_for(lambda: table_state(driver)["seq"] > state["seq"], what="our move")
        return False

    wait_for(step, what="cy's turn")


def test_the_turn_alert_on_a_hidden_page(server, browsers) -> None:
    driver = browsers()
    _table, cy = two_at_a_table(server, driver)
    try:
        until_cys_turn(driver)
        driver.execute_script(SPY)
        driver.execute_script(HIDE, True)
        assert driver.title == "Switchboard"
        cy.start_playing()  # cy moves: the turn comes to us
        wait_for(lambda: driver.execute_script("return window.__tones") > 0, what="the tone")
        assert driver.execute_script("return window.__buzzes") == [[120, 80, 120]]
        assert driver.title == TURN_TITLE
        icon = "return document.getElementById('favicon').getAttribute('href')"
        assert driver.execute_script(icon).endswith("/favicon-turn.svg")
        driver.execute_script(HIDE, False)  # seen again: the tab as it was
        assert driver.title == "Switchboard"
        assert driver.execute_script(icon).endswith("/favicon.svg")

        # the settings panel turns the sound off, and the browser keeps the choice
        click(driver, "#settings-btn")
        click(driver, "#setting-sound")
        kept = "return JSON.parse(localStorage.getItem('switchboard:settings'))"
        assert driver.execute_script(kept)["sound"] is False
        driver.refresh()
        wait_for(lambda: table_state(driver).get("state") == "playing", what="the table again")
        click(driver, "#settings-btn")
        box = wait_for(lambda: visible(driver, "#setting-sound"), what="the settings")
        assert not box.is_selected()
        assert driver.find_element(By.ID, "setting-vibrate").is_selected()
    finally:
        cy.close()


def test_focus_labels_and_the_live_region_across_a_move(server, browsers) -> None:
    driver = browsers((1280, 800))
    _table, cy = two_at_a_table(server, driver)
    try:
        until_cys_turn(driver)
        wait_for(
            lambda: (
                driver.find_element(By.ID, "turn-live").get_attribute("textContent")
                == "Waiting for cy…"  # the server's words (waiting_text)
            ),
            what="the live region on cy's turn",
        )
        # every card in the hand is labelled as it is read aloud
        labels = driver.execute_script(
            "return [...document.querySelectorAll('.hand .card')]"
            ".map((b) => [b.dataset.card, b.getAttribute('aria-label')])"
        )
        assert labels and all(label == spoken(card) for card, label in labels), labels
        card = labels[-1][0]
        driver.execute_script(
            f"document.querySelector('.hand .card[data-card=\"{card}\"]').focus()"
        )
        before = table_state(driver)["seq"]
        cy.start_playing()  # another player's move redraws the table
        wait_for(lambda: table_state(driver)["seq"] > before, what="cy's move")
        wait_for(lambda: table_state(driver).get("to_act") == 0, what="our turn")
        focused = driver.execute_script(
            "const a = document.activeElement;"
            "return [a.tagName, a.dataset.card || null, a.isConnected];"
        )
        assert focused == ["BUTTON", card, True], focused
        live = driver.find_element(By.ID, "turn-live").get_attribute("textContent")
        assert live.startswith("Your turn."), live
        must = table_state(driver)
        assert must["legal"]
    finally:
        cy.close()


def test_leave_asks_first_while_the_game_runs(server, browsers) -> None:
    driver = browsers()
    _table, cy = two_at_a_table(server, driver)
    try:
        # the four-colour deck, from the settings: clubs green, diamonds blue
        click(driver, "#settings-btn")
        click(driver, "#setting-fourColour")
        click(driver, "#dialog-close")
        colours = driver.execute_script(
            "return document.body.classList.contains('four-colour') &&"
            " [...document.querySelectorAll('.hand .card')]"
            ".map((b) => [b.dataset.suit, getComputedStyle(b).color])"
        )
        want = {"C": "rgb(27, 122, 58)", "D": "rgb(21, 101, 192)", "H": "rgb(198, 40, 40)"}
        assert colours and all(want.get(suit, colour) == colour for suit, colour in colours)
        click(driver, "#leave-btn")
        question = wait_for(lambda: visible(driver, "#leave-question"), what="the question")
        assert "a bot takes your seat" in question.text
        click(driver, "#leave-stay")
        assert visible(driver, "#table") and table_state(driver).get("seat") == 0
        click(driver, "#leave-btn")
        click(driver, "#leave-confirm")
        wait_for(lambda: visible(driver, "#lobby"), what="the lobby")
    finally:
        cy.close()


def test_an_invite_link_leads_to_the_table(server, browsers) -> None:
    ann, bob, cat = browsers(), browsers(), browsers()
    open_client(ann, server.url)
    take_guest(ann)
    table = create_table(ann, "switch", 2, 0, {"turn_seconds": 0})
    click(ann, "#invite-btn")
    link = wait_for(lambda: visible(ann, "#invite-link"), what="the invite").get_attribute("value")
    assert link == f"{server.url}t/{table}"
    wait_for(
        lambda: ann.execute_script("return document.getElementById('invite-qr').naturalWidth") > 0,
        what="the QR code shown",
    )
    svg = ann.execute_async_script(
        "fetch(document.getElementById('invite-qr').src).then((r) => r.text()).then(arguments[0])"
    )
    assert decoded(svg.encode()) == link
    # the manifest the page names is served as one
    kind = ann.execute_async_script(
        "fetch(document.querySelector('link[rel=manifest]').href)"
        ".then((r) => arguments[0](r.headers.get('content-type')))"
    )
    assert kind == "application/manifest+json"

    # bob opens the link: a name first, then the table's free seat
    bob.get(link)
    wait_for(lambda: visible(bob, "#name-screen"), what="the name step")
    take_guest(bob)
    wait_for(lambda: table_state(bob).get("seat") == 1, what="bob at the table")
    assert bob.execute_script("return window.switchboard.ui.current") == table
    assert bob.execute_script("return location.pathname") == "/"
    # cat comes by the link to a full table: she watches it
    cat.get(link)
    take_guest(cat)
    wait_for(lambda: visible(cat, "#table"), what="cat at the table")
    assert cat.execute_script("return window.switchboard.ui.current") == table
    assert table_state(cat).get("seat") is None
    # a waiting table is left without a question
    click(bob, "#leave-btn")
    wait_for(lambda: visible(bob, "#lobby"), what="bob in the lobby")
    assert not visible(bob, "#leave-question")


def test_the_card_names_are_the_servers() -> None:
    """cards.js's table of rank words is protocol/cards.py's (a digit is itself), so the
    browser reads a card aloud as the server writes it."""
    source = (STATIC / "cards.js").read_text(encoding="utf-8")
    table = re.search(r"export const RANK_WORDS = \{([^}]*)\}", source)
    assert table is not None
    browser = dict(re.findall(r'(\w+): "([^"]*)"', table.group(1)))
    assert browser == {rank: RANK_WORDS.get(rank, rank) for rank in RANK_NAMES}
    suits = re.search(r"export const SUIT_NAMES = \{([^}]*)\}", source)
    assert suits is not None
    assert dict(re.findall(r'(\w+): "([^"]*)"', suits.group(1))) == SUIT_NAMES


def _luminance(colour: str) -> float:
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    """WCAG's contrast ratio of two colours (#rrggbb)."""
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_the_joker_text_reads_at_four_and_a_half_to_one() -> None:
    css = (STATIC / "style.css").read_text(encoding="utf-8")
    light, dark = css.split("@media (prefers-color-scheme: dark)", 1)
    dark = dark.split("}", 1)[0]

    def var(block: str, name: str) -> str:
        found = re.search(rf"--{name}: (#[0-9a-fA-F]{{6}})", block)
        assert found is not None, name
        return found.group(1)

    for block in (light, dark):
        for ground in ("panel", "bg"):
            ratio = contrast(var(block, "joker"), var(block, ground))
            assert ratio >= 4.5, (ground, ratio)
    assert ".card-text.joker { color: var(--joker); }" in css
    on_felt = re.search(r"\.board \.card-text\.joker \{ color: (#[0-9a-f]{6}); \}", css)
    assert on_felt is not None
    for felt in (var(light, "felt"), var(dark, "felt")):
        assert contrast(on_felt.group(1), felt) >= 4.5
