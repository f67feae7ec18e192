"""Switchboard's rules engine: pure, deterministic, no I/O.

>>> import engine
>>> "abbott" in engine.rulesets()
True
"""

from __future__ import annotations

import importlib
import importlib.util

from engine.actions import Action
from engine.cards import JOKER, Card, make_deck, parse_cards
from engine.errors import IllegalActionError, InvalidActionError, OptionError, SnapshotError
from engine.events import Event
from engine.game import Game
from engine.options import Option, OptionSchema
from engine.registry import (
    Ruleset,
    all_rulesets,
    new_game,
    register,
    replay,
    restore,
    ruleset,
)

# The families register themselves on import. A family module that is not in
# the tree yet is skipped; one that is there but broken raises as usual.
_MODULES = ("engine.poker", "engine.abbott", "engine.shedding", "engine.kilodney")
for _name in _MODULES:
    if importlib.util.find_spec(_name) is not None:
        globals()[_name.rsplit(".", 1)[1]] = importlib.import_module(_name)


def rulesets() -> list[str]:
    """Every ruleset name a table can be created with."""
    return [rs.name for rs in all_rulesets()]


__all__ = [
    "JOKER",
    "Action",
    "Card",
    "Event",
    "Game",
    "IllegalActionError",
    "InvalidActionError",
    "Option",
    "OptionError",
    "OptionSchema",
    "Ruleset",
    "SnapshotError",
    "all_rulesets",
    "make_deck",
    "new_game",
    "parse_cards",
    "register",
    "replay",
    "restore",
    "ruleset",
    "rulesets",
]
