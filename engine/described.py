"""The shapes of what the engine describes itself as, for the wire and help screens: an
option (``Option.describe``), a ruleset (``Ruleset.describe``) and a game's record
(``Game.record``). ``protocol.payloads`` names them among the payloads of the messages
that carry them (``rulesets``, ``record``).

This module does without ``from __future__ import annotations``: with it, Python 3.11's
``TypedDict`` takes a ``NotRequired`` key for a required one.
"""

from typing import Any, NotRequired, TypedDict


class OptionInfo(TypedDict):
    """One option of a ruleset: its name, default and meaning; its bounds or choices,
    present only when it has them."""

    name: str
    default: Any
    doc: str
    min: NotRequired[int]
    max: NotRequired[int]
    choices: NotRequired[list[Any]]
    power: NotRequired[str]  #: a card power's title ("Skip")
    rule: NotRequired[str]  #: what the power does, in words


class RulesetInfo(TypedDict):
    """A ruleset as the lobby and help screens show it (``rulesets``)."""

    name: str
    family: str
    summary: str
    min_seats: int
    max_seats: int
    seats: list[int]  #: every seat count a table of it may have (abbott: 2 or 4)
    options: list[OptionInfo]


class GameRecord(TypedDict):
    """Everything needed to rebuild a game (``Game.record``, ``engine.replay``): the
    database row, the export, and a finished game's full record on the wire."""

    ruleset: str
    seats: int
    seed: int | str
    options: dict[str, Any]  #: as given (the ruleset's defaults fill the rest)
    dealer: int | None  #: fixed by a test, else None
    deck: list[str] | None  #: fixed by a test, else None
    actions: list[list[Any]]  #: ``[seat, notation]`` each, in order


__all__ = ["GameRecord", "OptionInfo", "RulesetInfo"]
