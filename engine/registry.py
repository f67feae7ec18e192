"""The one registry of rulesets, looked up by name (as python-chess keeps its variants).

A family registers its class once per ruleset name; the shedding family
registers one name per preset, each with its own defaults.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.cards import Card
from engine.described import RulesetInfo
from engine.errors import OptionError, SnapshotError
from engine.events import Event
from engine.game import Game, Seed
from engine.options import OptionSchema


@dataclass(frozen=True, slots=True)
class Ruleset:
    """A name a table can be created with."""

    name: str
    family: str
    game_class: type[Game]
    schema: OptionSchema
    summary: str
    min_seats: int
    max_seats: int

    def seat_counts(self) -> list[int]:
        """Every seat count a table of it may have (``Game.seat_counts``, within the
        ruleset's own ``min_seats`` to ``max_seats``).

        >>> ruleset("abbott").seat_counts(), ruleset("kilodney").seat_counts()[:2]
        ([2, 4], [4, 5])
        """
        counts = self.game_class.seat_counts or range(self.min_seats, self.max_seats + 1)
        return [n for n in counts if self.min_seats <= n <= self.max_seats]

    def describe(self) -> RulesetInfo:
        """The ruleset as primitives, for the lobby and help screens."""
        return {
            "name": self.name,
            "family": self.family,
            "summary": self.summary,
            "min_seats": self.min_seats,
            "max_seats": self.max_seats,
            "seats": self.seat_counts(),
            "options": self.schema.describe(),
        }


_RULESETS: dict[str, Ruleset] = {}


def register(
    name: str,
    game_class: type[Game],
    summary: str,
    schema: OptionSchema | None = None,
    min_seats: int | None = None,
    max_seats: int | None = None,
) -> Ruleset:
    """Add a ruleset; ``schema`` defaults to the class's own."""
    if name in _RULESETS:
        raise ValueError(f"ruleset {name!r} is already registered")
    rs = Ruleset(
        name,
        game_class.family,
        game_class,
        schema if schema is not None else game_class.schema,
        summary,
        game_class.min_seats if min_seats is None else min_seats,
        game_class.max_seats if max_seats is None else max_seats,
    )
    _RULESETS[name] = rs
    return rs


def ruleset(name: str) -> Ruleset:
    """The ruleset called ``name``; ``OptionError`` naming the known ones if none."""
    try:
        return _RULESETS[name]
    except KeyError:
        known = ", ".join(sorted(_RULESETS))
        raise OptionError("ruleset", f"unknown ruleset {name!r}; known: {known}") from None


def all_rulesets() -> list[Ruleset]:
    return list(_RULESETS.values())


def new_game(
    name: str,
    seats: int,
    seed: Seed = 0,
    options: Mapping[str, Any] | None = None,
    *,
    dealer: int | None = None,
    deck: Sequence[Card | str] | None = None,
) -> Game:
    """A new game of ruleset ``name``. Bad seats or options raise ``OptionError``."""
    rs = ruleset(name)
    if isinstance(seats, bool) or not isinstance(seats, int):
        raise OptionError("seats", f"{seats!r} is not a whole number")
    if not rs.min_seats <= seats <= rs.max_seats:
        raise OptionError(
            "seats", f"{name} takes {rs.min_seats} to {rs.max_seats} seats, not {seats}"
        )
    if dealer is not None and not 0 <= dealer < seats:
        raise OptionError("dealer", f"there is no seat {dealer}")
    resolved = rs.schema.resolve(options)
    game = rs.game_class(name, seats, seed, resolved, options, dealer, deck)
    if options:
        defaults = rs.schema.resolve({})
        game.house_rules = {k: v for k, v in resolved.items() if v != defaults.get(k)}
    return game


def record_start(record: Mapping[str, Any]) -> Game:
    """The game a ``record()`` describes, as it stood before its first action."""
    return new_game(
        record["ruleset"],
        record["seats"],
        record["seed"],
        record.get("options") or {},
        dealer=record.get("dealer"),
        deck=record.get("deck"),
    )


def replay(record: Mapping[str, Any], observe: Callable[[list[Event]], None] | None = None) -> Game:
    """Rebuild a game from ``record()``: the identical state. ``observe``, if
    given, is shown the opening events and then each action's events, in order
    (a bot joining mid-game learns the game so far from them)."""
    game = record_start(record)
    if observe is not None:
        observe(game.opening_events)
    for seat, notation in record.get("actions", []):
        events = game.apply(seat, notation)
        if observe is not None:
            observe(events)
    return game


def restore(
    record: Mapping[str, Any],
    snapshot: Mapping[str, Any],
    observe: Callable[[list[Event]], None] | None = None,
) -> Game:
    """``replay(record)`` without replaying what ``snapshot`` (``Game.snapshot()``, taken
    after the record's first actions) already holds: the identical state, at the cost
    of the actions after it. ``observe``, if given, is shown each of those actions'
    events, in order (not the opening events, nor those the snapshot covers).

    The actions the snapshot holds are kept as ``record["actions"][:taken]`` gives them
    and read only when the whole record is asked for (``Game.record``): a caller may pass
    a sequence whose slice reads them lazily, and a restore costs nothing for them.

    ``SnapshotError`` if the snapshot is of another format or another game, or damaged;
    the record is still whole, so the caller replays it instead."""
    actions = record.get("actions") or []
    taken = snapshot.get("actions") if isinstance(snapshot, Mapping) else None
    if not isinstance(taken, int) or isinstance(taken, bool) or not 0 <= taken <= len(actions):
        raise SnapshotError(f"the snapshot follows {taken!r} actions of {len(actions)}")
    game = record_start(record)
    game._load_snapshot(snapshot, actions[:taken])
    for seat, notation in actions[taken:]:
        events = game.apply(seat, notation)
        if observe is not None:
            observe(events)
    return game
