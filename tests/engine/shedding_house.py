"""The sources' house variants, fitted to a preset for tests that try them everywhere.

A house variant with nothing to act on at a table (red jacks adding to black jacks
that do not pick up, a cards call without the last-card rule) is refused by name;
tests that turn the variants on at random keep only those the preset takes.
"""

from __future__ import annotations

from typing import Any

import engine

HOUSE_VARIANTS = ("red_jacks_add", "pickup_together", "cards_call")


def fitting(preset: str, options: dict[str, Any]) -> dict[str, Any]:
    """``options`` less the house variants that ``preset`` refuses with them."""
    out = dict(options)
    schema = engine.ruleset(preset).schema
    while True:
        try:
            schema.resolve(out)
        except engine.OptionError as exc:
            if exc.option not in HOUSE_VARIANTS or exc.option not in out:
                raise
            del out[exc.option]
        else:
            return out
