"""The shedding family (Switch and its house versions): one engine, many presets.

Each preset of docs/rules.md is registered as its own ruleset: a name for a set of
option defaults that a table may still override.

>>> import engine
>>> [p for p in engine.rulesets() if p in PRESETS]
['switch', 'blackjack', 'irish', 'j28', 'taketwo', 'gamebot']
>>> game = engine.new_game("switch", seats=2, seed=1)
>>> game.view(None)["hand"] is None, len(game.view(0)["hand"])
(True, 7)
"""

from __future__ import annotations

from engine.registry import register
from engine.shedding.game import SheddingGame
from engine.shedding.rules import PRESETS, SCHEMA

for _name, (_summary, _max_seats, _defaults) in PRESETS.items():
    register(
        _name,
        SheddingGame,
        _summary,
        schema=SCHEMA.with_defaults(_defaults),
        max_seats=_max_seats,
    )

__all__ = ["PRESETS", "SCHEMA", "SheddingGame"]
