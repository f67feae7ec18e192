"""Every family's view as one type, and the narrowing from a plain dict.

A view arrives as a plain dict (``Game.view``, or decoded off the wire); ``as_view``
reads it as the family's TypedDict its ``family`` key names, so a reader that handles
every family narrows it (``is_shedding(view)``, or ``view["family"] == "shedding"``) and
mypy checks each key it then reads. A reader of one family uses its own
(``shedding_view``, ...).

>>> v = as_view({"family": "shedding", "pending": None, "awaiting_kind": "suit"})
>>> v["awaiting_kind"]
<Awaiting.SUIT: 'suit'>
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

from engine.abbott.vocabulary import AbbottView
from engine.kilodney.vocabulary import KilodneyView
from engine.shedding.vocabulary import SheddingView, with_kinds

if TYPE_CHECKING:  # read by mypy only: no run-time dependency
    from typing_extensions import TypeIs

#: A view of any family; ``family`` tells which.
View = AbbottView | SheddingView | KilodneyView


def as_view(view: Mapping[str, Any]) -> View:
    """``view`` read as its family's TypedDict: a cast, but for a shedding view, whose
    kinds (words on the wire) are made the engine's enums again (``with_kinds``)."""
    if view.get("family") == "shedding":
        return with_kinds(view)
    return cast(View, view)


def hand_of(view: View) -> list[str] | None:
    """The viewer's cards, in a family that deals hands (``None`` for a spectator, and
    in abbott, which deals none)."""
    return view.get("hand") if is_shedding(view) or is_kilodney(view) else None


def is_abbott(view: View) -> TypeIs[AbbottView]:
    """Whether ``view`` is an abbott view (a view without a ``family``, as a test may
    write, is none of the three)."""
    return view.get("family") == "abbott"


def is_shedding(view: View) -> TypeIs[SheddingView]:
    """Whether ``view`` is a shedding view."""
    return view.get("family") == "shedding"


def is_kilodney(view: View) -> TypeIs[KilodneyView]:
    """Whether ``view`` is a kilodney view."""
    return view.get("family") == "kilodney"


__all__ = [
    "View",
    "as_view",
    "hand_of",
    "is_abbott",
    "is_kilodney",
    "is_shedding",
]
