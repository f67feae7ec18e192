"""The rules one key away: `rules` and F2 show the table's game and its options, from text
packaged with the client (so a wheel or an editable install both carry it)."""

from __future__ import annotations

import asyncio
import fnmatch
import tomllib
from pathlib import Path

import pytest
from harness import Driver, run_client

import engine
from client.page import wrap_page
from client.rules import FAMILIES, family_text, rules_lines
from protocol.powers import power_sentence

F2 = "\x1bOQ"
ROOT = Path(__file__).resolve().parents[2]


def test_every_family_has_packaged_rules_that_the_wheel_carries() -> None:
    """Each family's text loads through importlib.resources, and pyproject's package data
    names every file under protocol/rules (what setuptools puts in a wheel)."""
    assert {rs.family for rs in engine.all_rulesets()} <= set(FAMILIES)
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = data["tool"]["setuptools"]["package-data"]["protocol"]
    for family in FAMILIES:
        assert len(family_text(family) or "") > 500, family
        name = f"rules/{family}.txt"
        assert any(fnmatch.fnmatch(name, p) for p in patterns), (name, patterns)


@pytest.mark.parametrize("ruleset", [rs.name for rs in engine.all_rulesets()])
def test_the_rules_page_names_the_commands_and_the_options(ruleset: str) -> None:
    rs = engine.ruleset(ruleset)
    described = rs.describe()
    lines = rules_lines(rs.family, ruleset, described["options"], {}, rs.summary)
    text = "\n".join(lines)
    verb = {"abbott": "move c4", "shedding": "play QH", "kilodney": "play QH"}[rs.family]
    assert verb in text
    assert f"OPTIONS of {ruleset} at this table" in text
    assert "turn_seconds = 60" in text


def test_f2_and_rules_show_the_tables_game_and_scroll() -> None:
    """Before: `help rules` said "no command 'rules'" and no key showed any rules."""

    async def script(d: Driver) -> None:
        await d.until(lambda: d.table is not None and d.table.view, what="the board")
        d.keys(F2)
        screen = await d.until_screen("Escape or F2 closes the rules")
        assert "Crad Kilodney" in screen and "play QH" in screen, screen
        first = screen
        d.keys("\x1b[B" * 5)  # Down: the page scrolls
        await d.until(lambda: d.screen() != first, what="the page to scroll")
        d.keys(F2)
        await d.until(lambda: "closes the rules" not in d.screen(), what="the rules to close")
        d.line("rules abbott")
        screen = await d.until_screen("Robert Abbott")
        assert "move c4" in screen
        d.keys("\x1b")
        await d.until(lambda: "closes the rules" not in d.screen(), what="the rules to close")
        d.line("help rules")
        await d.until_screen("rules [GAME]: the rules of the table's game")
        d.line("quit")

    assert asyncio.run(run_client(script, game="kilodney", name="ann")) == 0


def test_powers_read_as_sentences_not_option_syntax() -> None:
    """Before: blackjack's page said `cancel = JR>JB 2*, A>*   what cancels a pick-up...`."""
    rs = engine.ruleset("blackjack")
    text = "\n".join(rules_lines(rs.family, "blackjack", rs.describe()["options"], {}))
    assert "JR>JB" not in text and "2:2" not in text, text
    assert (
        "  cancel: a red jack laid on a pick-up cancels one black jack in it and every two in"
        " it; an ace laid on a pick-up cancels all of it"
    ) in text
    assert "  pickup: a two makes the next player pick up 2, a black jack 5" in text
    assert "  cover: a queen must be covered by its player with another play, or he draws" in text
    assert "red_jacks_add" not in text  # a power that is off is not listed


@pytest.mark.parametrize("ruleset", [rs.name for rs in engine.all_rulesets()])
def test_every_presets_powers_are_words(ruleset: str) -> None:
    rs = engine.ruleset(ruleset)
    lines = rules_lines(rs.family, ruleset, rs.describe()["options"], {}, rs.summary)
    for option in rs.describe()["options"]:
        said = power_sentence(option["name"], option["default"])
        if said not in (None, "none"):
            assert f"  {option['name']}: {said}" in lines
            assert " = " not in said and ">" not in said and ":" not in said, said


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("width", [40, 78, 118])
def test_the_rules_wrap_to_the_box_flush_and_whole(family: str, width: int) -> None:
    """Before: the texts were wrapped at ~100 columns and wrapped again into ragged lines
    ("...by rank:" / "  `play QH`. Where the" / "table allows it, ...")."""
    text = family_text(family) or ""
    paragraphs = [p for p in text.split("\n") if p and not p.startswith("- ")]
    assert all(len(p) > 60 for p in paragraphs[1:]), "one paragraph a line"
    wrapped = wrap_page(text.splitlines(), width)
    assert all(len(line) <= width for line in wrapped)
    for paragraph in paragraphs[1:]:
        rows = wrap_page([paragraph], width)
        assert all(not row.startswith(" ") for row in rows), rows  # flush, not ragged
        assert " ".join(rows) == paragraph
