"""Every family's view as one type, and its narrowing by family.

A view comes typed: ``Game.view`` gives its family's TypedDict (an ``Abbott``'s is an
``AbbottView``), and a message carries one as a ``View`` (``protocol.payloads``; its
decoder makes a shedding view's kinds the engine's members again). A reader that handles
every family narrows it (``is_shedding(view)``, or ``view["family"] == "shedding"``) and
mypy checks each key it then reads; a strategy of one family is handed its own.

``as_view`` is for a map that is not a view but is drawn as one (a board a client folds
from a public event log, ``client.public_board``): it reads the map as the TypedDict its
``family`` names, unchecked.

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
