"""Each game family's rules as a page a player reads: package data of ``protocol``, so the
terminal client (``rules``, F2) and the server's own pages show the same text, and neither
imports the other to get it.

The texts (``protocol/rules/*.txt``, written from docs/rules.md) say how each family is played;
which cards carry which power, the target and the penalties are a table's options, which the
reader lists beside the text. A family's declared powers (``engine.shedding.powers``) are
listed where its text says ``{powers}``, a line each, from their declarations.

The few words that differ between a client a person types in (the terminal client, ``nc``)
and one he taps (the browser) are written once here (``WORDINGS``): each text says
``{type}`` where one types and the other taps, ``{marked}`` for how a board marks the
squares a piece may reach, and ``{how}`` how actions are given (the page: a tapped card is
selected, then played with Play, in every family). ``family_text(family, "tapped")`` is
the browser's wording.

>>> family_text("abbott").splitlines()[0]
"abbott: Robert Abbott's Switch (1963), a grid game for 2 or 4 players"
>>> family_text("chess") is None
True
>>> "tap" in family_text("kilodney", "tapped") and "type" in family_text("kilodney")
True
"""

from __future__ import annotations

from importlib import resources

from engine.shedding.powers import POWERS

FAMILIES = ("abbott", "shedding", "kilodney")
#: Each family's declared powers, listed where its text says ``{powers}``.
DECLARED = {"shedding": POWERS}
#: The words a text says as a client that is typed in, or tapped, says them.
WORDINGS: dict[str, dict[str, str]] = {
    "typed": {
        "how": "HOW. On your turn, type an action as the table lists it (`play QH`, `draw`).",
        "type": "type",
        "typed": "typed",
        "types": "types",
        "marked": "marked +",
    },
    "tapped": {
        "how": "HOW. Tap a card to select it (tap it again to put it back), then Play (or"
        " Enter); tap a coloured square to move there; every other action is a button"
        " (keys 1 to 9 pick them).",
        "type": "tap",
        "typed": "chosen",
        "types": "chooses",
        "marked": "coloured (tap one to move there)",
    },
}


def family_text(family: str, wording: str = "typed") -> str | None:
    """The packaged rules of ``family`` in ``wording`` (``WORDINGS``: ``typed`` for the
    terminal client, ``tapped`` for the browser), or ``None`` for a family with no text."""
    if family not in FAMILIES:
        return None
    text = resources.files(__package__).joinpath(f"{family}.txt").read_text(encoding="utf-8")
    powers = "\n".join(f"- {p.brief}" for p in DECLARED.get(family, ()))
    text = text.replace("{powers}", powers)
    for word, said in WORDINGS[wording].items():
        text = text.replace("{" + word + "}", said)
    return text
