"""The shapes of what the engine describes itself as, for the wire and help screens: an
option (``Option.describe``) and a ruleset (``Ruleset.describe``). ``protocol.payloads``
names them among the payloads of the messages that carry them (``rulesets``).

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


class RulesetInfo(TypedDict):
    """A ruleset as the lobby and help screens show it (``rulesets``)."""

    name: str
    family: str
    summary: str
    min_seats: int
    max_seats: int
    options: list[OptionInfo]


__all__ = ["OptionInfo", "RulesetInfo"]
