"""Each game's rules in a page a player reads at the table (``rules`` or F2), and the table's
options with what each means.

The texts are package data of ``protocol`` (``protocol/rules/*.txt``, written from
docs/rules.md), so an installed client has them without the repository and the server can
show the same pages. A family's text says how its game is played; which cards carry which
power, the target and the penalties are the table's options, listed after it from the
server's own ruleset list: each power in words (``protocol.powers``), each other option
with its value at this table and its meaning. The texts are stored a paragraph a line, so
the page wraps them to whatever width it is drawn at.

>>> lines = rules_lines("kilodney", "kilodney", [{"name": "target", "default": 50,
...     "doc": "points that win"}], {"target": 30})
>>> lines[0]
"kilodney: Crad Kilodney's Switch (2002), a knock-out game for 4 to 9 players"
>>> lines[-1]
'  target = 30   points that win (this table; the game says 50)'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from protocol.powers import power_sentence
from protocol.rules import FAMILIES, family_text

__all__ = ["FAMILIES", "family_text", "rules_lines"]


def _shown(value: Any) -> bool:
    """Options worth a line: set to something (an empty card list means no such power; a
    house rule that is off is left out)."""
    return value is not False and value not in ("", None, [], {})


def option_line(option: Mapping[str, Any], value: Any) -> str:
    """One option as a person reads it: a power in words (``skip: an eight makes the next
    player miss his turn``), a house rule that is on as what it allows (``play_drawn: a
    player may play a card he has just drawn``), anything else as ``name = value`` and
    what it means.

    >>> option_line({"name": "play_drawn", "doc": "whether a player may play it"}, True)
    '  play_drawn: a player may play it'
    >>> option_line({"name": "target", "doc": "points that win"}, 30)
    '  target = 30   points that win'
    """
    name, doc = str(option.get("name")), str(option.get("doc", ""))
    sentence = power_sentence(name, value)
    if sentence is not None:
        return f"  {name}: {sentence}"
    if isinstance(value, bool):
        if value and doc.startswith("whether "):
            return f"  {name}: {doc[len('whether ') :]}"
        value = "on" if value else "off"
    return f"  {name} = {value}   {doc}".rstrip()


def rules_lines(
    family: str | None,
    ruleset: str,
    options: Sequence[Mapping[str, Any]],
    table_options: Mapping[str, Any] | None = None,
    summary: str = "",
) -> list[str]:
    """The rules page, one paragraph a line (the page wraps them to its width): the
    family's rules, the ruleset's summary, then this table's powers in words and every
    other option set at this table (its value, what it means, and the game's own value
    where the table's differs)."""
    text = family_text(family or "")
    lines = text.rstrip("\n").splitlines() if text else [f"{ruleset}: no rules text here"]
    if family == "shedding":
        lines = [f"{ruleset}: {summary}" if summary else ruleset, *lines]
    at_table = table_options is not None
    table_options = table_options or {}
    powers: list[str] = []
    others: list[str] = []
    for option in options:
        name = str(option.get("name"))
        default = option.get("default")
        value = table_options.get(name, default)
        said = power_sentence(name, value)
        if (not _shown(value) or said == "none") and name not in table_options:
            continue
        line = option_line(option, value)
        if name in table_options and value != default:
            game = power_sentence(name, default)
            if game is None:
                game = ("on" if default else "off") if isinstance(default, bool) else default
            line += f" (this table; the game says {game})"
        (others if said is None else powers).append(line)
    where = "at this table" if at_table else "(the defaults; `create` may set others)"
    if powers:
        lines += ["", f"POWERS of {ruleset} {where}:", *powers]
    if others:
        lines += ["", f"OPTIONS of {ruleset} {where}:", *others]
    return lines
