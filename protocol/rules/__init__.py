"""Each game family's rules as a page a player reads: package data of ``protocol``, so the
terminal client (``rules``, F2) and the server's own pages show the same text, and neither
imports the other to get it.

The texts (``protocol/rules/*.txt``, written from docs/rules.md) say how each family is played;
which cards carry which power, the target and the penalties are a table's options, which the
reader lists beside the text. A family's declared powers (``engine.shedding.powers``) are
listed where its text says ``{powers}``, a line each, from their declarations.

>>> family_text("abbott").splitlines()[0]
"abbott: Robert Abbott's Switch (1963), a grid game for 2 or 4 players"
>>> family_text("chess") is None
True
"""

from __future__ import annotations

from importlib import resources

from engine.shedding.powers import POWERS

FAMILIES = ("abbott", "shedding", "kilodney")
#: Each family's declared powers, listed where its text says ``{powers}``.
DECLARED = {"shedding": POWERS}


def family_text(family: str) -> str | None:
    """The packaged rules of ``family``, or ``None`` for a family with no text."""
    if family not in FAMILIES:
        return None
    text = resources.files(__package__).joinpath(f"{family}.txt").read_text(encoding="utf-8")
    powers = "\n".join(f"- {p.brief}" for p in DECLARED.get(family, ()))
    return text.replace("{powers}", powers)
