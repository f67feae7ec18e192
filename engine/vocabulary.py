"""Each family's vocabulary, declared once: the keys of its views and its event kinds.

A game's ``view(seat)`` and its events are plain primitives (they go onto the wire as they
are), so nothing in their type says which keys they hold. The declarations here say it, the
way python-chess lets each variant own its own names: a ``Vocabulary`` per family lists every
key of the seat view (beside ``COMMON_VIEW``, the keys ``Game.view`` adds for every family)
and every event kind with its public fields and the fields only some seats are shown. They
are checked against real games by property tests (no undeclared key, no missing one), and
docs/protocol.md's family sections are generated from them, so the spec cannot drift.

>>> v = Vocabulary("toy", (Field("size", "int", "squares on a side"),),
...                (EventKind("move", "a piece moved", (Field("to", "str", "its square"),)),))
>>> v.check_view({**{f.name: None for f in COMMON_VIEW}, "size": 6, "colour": "red"})
['undeclared view key colour']
>>> v.check_event(Event("move", {"to": "c4"}))
[]
>>> v.check_event(Event("jump", {}))
['undeclared event kind jump']

The declarations say it to the spec and the tests; mypy reads the same keys from a
TypedDict per family (``AbbottView`` in ``engine/abbott/vocabulary.py``, ...), built on
``CommonView`` here, and a test checks each TypedDict's keys against its declaration.
``Game`` is generic in its family's view type, so ``Abbott(...).view(seat)`` is an
``AbbottView``; a message carries a view as ``engine.views.View`` (``protocol.payloads``),
which a reader narrows by its ``family`` (``engine.views.is_abbott``, ...), and mypy then
checks every key.
These modules do without ``from __future__ import annotations``: with it, Python 3.11's
``TypedDict`` takes a ``NotRequired`` key for a required one.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypedDict

from engine.events import Event


@dataclass(frozen=True, slots=True)
class Field:
    """One key of a view or an event: its name, its type as a reader writes it (for the
    spec; primitives only) and what it means. ``optional``: present only sometimes."""

    name: str
    type: str
    meaning: str
    optional: bool = False


@dataclass(frozen=True, slots=True)
class EventKind:
    """One kind of event: what it says happened, the fields every seat and spectator is
    shown, and the fields (``private``) shown only to the seats the event concerns."""

    kind: str
    meaning: str
    public: tuple[Field, ...]
    private: tuple[Field, ...] = ()


#: The keys ``Game.view`` gives every family's view, before the family's own.
COMMON_VIEW: tuple[Field, ...] = (
    Field("ruleset", "str", "the ruleset's name (`abbott`, `kilodney`, a shedding preset)"),
    Field("family", "str", "the family: `abbott`, `shedding` or `kilodney`"),
    Field("seats", "int", "how many seats the table has"),
    Field("viewer", "int | null", "the seat this view is for; `null` for a spectator"),
    Field("to_act", "int | null", "the seat whose turn it is; `null` once the game is over"),
    Field("over", "bool", "whether the game (not only the hand) has ended"),
    Field("scores", "list[int]", "each seat's game total"),
    Field("options", "map", "the table's house rules: the options that differ from the defaults"),
)


class CommonView(TypedDict):
    """The keys of ``COMMON_VIEW`` but ``family``, which each family's view declares as
    its own literal (``AbbottView``'s ``family`` is ``"abbott"``), so a reader holding a
    view of any family narrows it by comparing its ``family``."""

    ruleset: str
    seats: int
    viewer: int | None
    to_act: int | None
    over: bool
    scores: list[int]
    options: dict[str, Any]


def seat_of(view: CommonView) -> int:
    """The seat ``view`` is for: a strategy plays from a seat's view, never a spectator's
    (whose ``viewer`` is ``None``: ``ValueError``)."""
    seat = view["viewer"]
    if seat is None:
        raise ValueError("a spectator's view has no seat to play for")
    return seat


def _problems(where: str, keys: Sequence[str], fields: Sequence[Field]) -> list[str]:
    declared = {f.name for f in fields}
    required = {f.name for f in fields if not f.optional}
    out = [f"undeclared {where} key {k}" for k in keys if k not in declared]
    out += [f"missing {where} key {k}" for k in sorted(required - set(keys))]
    return out


@dataclass(frozen=True, slots=True)
class Vocabulary:
    """A family's declared vocabulary: its view's own keys and its event kinds."""

    family: str
    view: tuple[Field, ...]
    events: tuple[EventKind, ...]

    @property
    def view_fields(self) -> tuple[Field, ...]:
        """Every key of the family's view: the common ones, then its own."""
        return COMMON_VIEW + self.view

    def event(self, kind: str) -> EventKind | None:
        return next((e for e in self.events if e.kind == kind), None)

    def check_view(self, view: Mapping[str, Any]) -> list[str]:
        """What is wrong with a view against the declaration (empty: it matches)."""
        return _problems("view", list(view), self.view_fields)

    def check_event(self, event: Event) -> list[str]:
        """What is wrong with an event against the declaration (empty: it matches)."""
        kind = self.event(event.kind)
        if kind is None:
            return [f"undeclared event kind {event.kind}"]
        out = _problems(f"{event.kind} event", list(event.public), kind.public)
        for fields in event.private.values():
            out += _problems(f"{event.kind} private", list(fields), kind.private)
        return out


def markdown(vocabulary: Vocabulary) -> str:
    """The family's view and events as the spec writes them (docs/protocol.md holds this
    text between markers, and a test checks it is the same)."""
    common = ", ".join(f"`{f.name}`" for f in COMMON_VIEW)
    lines = [
        f"The `{vocabulary.family}` view holds the common keys ({common}) and these:",
        "",
        "| key | type | meaning |",
        "|---|---|---|",
    ]
    for f in vocabulary.view:
        sometimes = " (present only sometimes)" if f.optional else ""
        lines.append(f"| `{f.name}` | {_type(f)} | {f.meaning}{sometimes} |")
    lines += ["", f"The `{vocabulary.family}` events, each with every field it carries:", ""]
    for e in vocabulary.events:
        lines.append(f"- **`{e.kind}`**: {e.meaning}")
        lines += [f"  - {_field(f)}" for f in e.public]
        lines += [f"  - only to the seat it concerns: {_field(f)}" for f in e.private]
    return "\n".join(lines) + "\n"


def common_markdown() -> str:
    """The keys every family's view holds, as the spec writes them."""
    lines = ["| key | type | meaning |", "|---|---|---|"]
    lines += [f"| `{f.name}` | {_type(f)} | {f.meaning} |" for f in COMMON_VIEW]
    return "\n".join(lines) + "\n"


def _type(f: Field) -> str:
    """The type as the spec writes it (``or``, not ``|``, which would split a table cell)."""
    return f.type.replace(" | ", " or ")


def _field(f: Field) -> str:
    sometimes = ", present only sometimes" if f.optional else ""
    return f"`{f.name}` ({_type(f)}{sometimes}): {f.meaning}"


__all__ = [
    "COMMON_VIEW",
    "CommonView",
    "EventKind",
    "Field",
    "Vocabulary",
    "common_markdown",
    "markdown",
    "seat_of",
]
