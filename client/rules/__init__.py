"""Each game's rules in a page a player reads at the table (``rules`` or F2), and the table's
options with what each means.

The texts are package data of ``protocol`` (``protocol/rules/*.txt``, written from
docs/rules.md), so an installed client has them without the repository and the server can
show the same pages. A family's text says how its game is played; which
cards carry which power, the target and the penalties are the table's options, listed after it
from the server's own ruleset list (each option's value at this table and its meaning).

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

from protocol.rules import FAMILIES, family_text

__all__ = ["FAMILIES", "family_text", "rules_lines"]


def _shown(value: Any) -> bool:
    """Options worth a line: set to something (an empty card list means no such power; a
    house rule that is off is left out)."""
    return value is not False and value not in ("", None, [], {})


def rules_lines(
    family: str | None,
    ruleset: str,
    options: Sequence[Mapping[str, Any]],
    table_options: Mapping[str, Any] | None = None,
    summary: str = "",
) -> list[str]:
    """The rules page: the family's rules, the ruleset's summary, then every option set at
    this table (its value, what it means, and the game's own value where the table's
    differs)."""
    text = family_text(family or "")
    lines = text.rstrip("\n").splitlines() if text else [f"{ruleset}: no rules text here"]
    if family == "shedding":
        lines = [f"{ruleset}: {summary}" if summary else ruleset, *lines]
    at_table = table_options is not None
    table_options = table_options or {}
    shown = []
    for option in options:
        name = str(option.get("name"))
        default = option.get("default")
        value = table_options.get(name, default)
        if not _shown(value) and name not in table_options:
            continue
        line = f"  {name} = {value}   {option.get('doc', '')}".rstrip()
        if name in table_options and value != default:
            line += f" (this table; the game says {default})"
        shown.append(line)
    if shown:
        where = "at this table" if at_table else "(the defaults; `create` may set others)"
        lines += ["", f"OPTIONS of {ruleset} {where}:", *shown]
    return lines
