"""What a board says must be readable: its words are drawn in a colour that stands out
from what is behind them. The shedding board's named suit ("Suit: ♦ diamonds", after an
ace or a jack) sits on a white pill inside the white-lettered felt; the board is drawn
here from a hand-made view, in the light scheme and the dark one, and each word's colour
is measured against the background it is drawn on (WCAG's contrast ratio)."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import DESKTOP, wait_for
from webpage import open_client

# Draws the shedding board of a watcher (no hand) with the suit arguments[0] named, and
# returns the named suit's text, its colour and the colour behind it.
DRAW_NAMED_SUIT = """
const [suit, done] = arguments;
import("./boards/shedding.js").then((board) => {
  const view = {family: "shedding", preset: "switch", hand_number: 1, pile_size: 3,
                stock: 20, direction: 1, top: "A" + suit, nominated: suit, hand: null,
                hand_sizes: [5, 5]};
  const ctx = {name: (seat) => `seat ${seat}`, mine: false, legal: [], selection: [],
               onCard: () => {}};
  const drawn = board.render(view, ctx);
  document.body.append(drawn);
  const fact = drawn.querySelector(".fact.suit");
  let behind = fact;
  while (behind && getComputedStyle(behind).backgroundColor === "rgba(0, 0, 0, 0)") {
    behind = behind.parentElement;
  }
  done({text: fact.textContent, color: getComputedStyle(fact).color,
        background: behind ? getComputedStyle(behind).backgroundColor : "rgb(255, 255, 255)"});
  drawn.remove();
}, (err) => done({error: String(err)}));
"""


def luminance(css: str) -> float:
    """The relative luminance of a computed ``rgb(r, g, b)`` colour."""
    inside = css[css.index("(") + 1 : css.index(")")]
    channels = [float(part) / 255 for part in inside.split(",")[:3]]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    """WCAG's contrast ratio of two colours, 1 (the same) to 21 (black on white)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_named_suit_stands_out_from_its_pill(server, browsers, scheme) -> None:
    driver = browsers(DESKTOP)
    driver.execute_cdp_cmd(
        "Emulation.setEmulatedMedia",
        {"features": [{"name": "prefers-color-scheme", "value": scheme}]},
    )
    open_client(driver, server.url)
    for suit, word in (("D", "diamonds"), ("H", "hearts"), ("C", "clubs"), ("S", "spades")):
        got: dict[str, Any] = wait_for(
            lambda suit=suit: driver.execute_async_script(DRAW_NAMED_SUIT, suit),
            what="the board drawn",
        )
        assert "error" not in got, got
        assert word in got["text"], got
        ratio = contrast(got["color"], got["background"])
        assert ratio >= 4.5, f"{scheme}: {got['text']!r} is {got['color']} on {got['background']}"
