"""Each shedding power is declared once (``engine.shedding.powers``) and every place that
names a power is derived from its declaration: the option, the face's flag, the lookup
table, the cache key, the rulesets' payload, the words of a table's power, the rules
page and docs/rules.md."""

from __future__ import annotations

from pathlib import Path

import pytest
from powers_docs import RULES, section

import engine
from client.rules.powers import power_sentence
from engine.cards import Card
from engine.shedding import powers, rules, table
from engine.shedding.codes import code
from engine.shedding.powers import POWERS, Power
from protocol.rules import family_text

ROOT = Path(__file__).resolve().parents[2]
SHEDDING = [rs for rs in engine.all_rulesets() if rs.family == "shedding"]
NINE = Card.parse("9H")


def options_with(power: Power) -> dict[str, object]:
    """The ``switch`` options with nines carrying ``power`` (going on: nines nominate)."""
    given = {power.name: "9"}
    if power.name == "go_on":
        given["nominate"] = "9"
    return engine.ruleset("switch").schema.resolve(given)


@pytest.mark.parametrize("power", POWERS, ids=[p.name for p in POWERS])
def test_a_declared_power_reaches_every_place_that_names_it(power: Power) -> None:
    # the option, in every shedding ruleset, with its help and its words on the wire
    for rs in SHEDDING:
        described = {o["name"]: o for o in rs.describe()["options"]}
        assert described[power.name]["doc"] == power.doc
        assert described[power.name]["power"] == power.title
        assert described[power.name]["rule"] == power.rule
    resolved = options_with(power)
    assert resolved[power.name] == "9"
    # the face's flag, and the lookup the rules read (an attribute of its own)
    faces, _stack = rules.compile_powers(dict(resolved))
    assert power.name in faces[NINE].effects and faces[NINE].power
    assert power.name not in faces[Card.parse("6H")].effects
    pt = table.power_table(dict(resolved))
    assert getattr(pt, power.name)[code(NINE)] is True
    assert pt.flags[power.name] == getattr(pt, power.name)
    # the compiled table is cached by it: a table without it is another table
    plain = engine.ruleset("switch").schema.resolve({})
    assert power.name in table._KEYS
    assert getattr(table.power_table(dict(plain)), power.name)[code(NINE)] is False
    # a table's power in words, the rules page, docs/rules.md
    assert power_sentence(power.name, "9") == power.words.format(cards="a nine")
    assert f"- {power.brief}" in (family_text("shedding") or "")
    rules_md = RULES.read_text()
    assert power.markdown() in rules_md
    options_row = next(line for line in rules_md.splitlines() if "`skip_chain`" in line)
    assert f"`{power.name}`" in options_row


def test_the_declared_powers_are_the_faces_effects_in_order() -> None:
    assert rules.EFFECTS == powers.NAMES == tuple(p.name for p in POWERS)
    assert len(set(powers.NAMES)) == len(POWERS)
    assert not set(powers.NAMES) & {f for f in rules.Powers.__slots__ if f != "effects"}


def test_docs_rules_power_cards_are_generated_from_the_declarations() -> None:
    assert section(RULES.read_text()) == powers.markdown(), (
        "run: python tests/powers_docs.py --write"
    )


def test_a_selector_the_power_option_refuses_names_the_option() -> None:
    with pytest.raises(engine.OptionError, match="option 'swap'"):
        engine.ruleset("switch").schema.resolve({"swap": "Z"})
