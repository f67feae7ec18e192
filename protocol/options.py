"""A table's options in words: what the lobby lists of a table whose rules differ from
its game's (``options_text`` in each table summary, composed by the server).

A table is created with a few ``name=value`` options; the listing said them as they
were typed (``target=20 turn_seconds=20``). Here each option set to something other
than its ruleset's default is said as a person reads it: a power in a sentence
(``protocol.powers``), a house rule that is on as what it allows, the clock in
seconds, anything else as its name and value.

>>> described = [{"name": "target", "default": 50, "doc": "points that win"},
...              {"name": "skip", "default": "8", "doc": "cards that skip"},
...              {"name": "play_drawn", "default": False,
...               "doc": "whether a player may play a card he has just drawn"},
...              {"name": "turn_seconds", "default": 60, "doc": "seconds a seat has"}]
>>> options_text(described, {"target": 20, "turn_seconds": 20, "skip": "8"})
['target 20', '20 seconds a turn']
>>> options_text(described, {"skip": "7", "play_drawn": True, "turn_seconds": 0})
['a seven makes the next player miss his turn', 'a player may play a card he has just \
drawn', 'no clock']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from protocol.powers import power_sentence
from protocol.words import plural

#: The clock's option, which every ruleset has (``engine.options.TURN_SECONDS``).
TURN_SECONDS = "turn_seconds"


def option_text(option: Mapping[str, Any], value: Any) -> str:
    """One option's value in words: a power as a sentence, a house rule that is on as
    what it allows (``play_drawn``: "a player may play a card he has just drawn"), one
    that is off as ``name: off``, the clock as its seconds, anything else as its name
    (spaced) and value."""
    name, doc = str(option.get("name")), str(option.get("doc", ""))
    label = name.replace("_", " ")
    if name == TURN_SECONDS and isinstance(value, int):
        return f"{plural(value, 'second')} a turn" if value else "no clock"
    sentence = power_sentence(name, value)
    if sentence is not None:
        return sentence if sentence != "none" else f"no {label}"
    if isinstance(value, bool):
        if value and doc.startswith("whether "):
            return doc[len("whether ") :]
        return f"{label}: {'on' if value else 'off'}"
    if isinstance(value, list | tuple):
        value = " ".join(str(v) for v in value)
    return f"{label} {value}"


def options_text(described: Sequence[Mapping[str, Any]], options: Mapping[str, Any]) -> list[str]:
    """Each of ``options`` (a table's) that differs from its default in ``described``
    (the ruleset's options, ``OptionSchema.describe``), in words, in the ruleset's
    order; an option the ruleset does not describe as ``name value``."""
    out = []
    known = set()
    for option in described:
        name = str(option.get("name"))
        known.add(name)
        if name in options and options[name] != option.get("default"):
            out.append(option_text(option, options[name]))
    out.extend(option_text({"name": n}, v) for n, v in options.items() if n not in known)
    return out
