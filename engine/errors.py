"""The three rungs of the engine's error ladder, all ``ValueError``s.

Like python-chess (``InvalidMoveError`` / ``IllegalMoveError``), we keep apart
input that does not parse, input that parses but is not allowed now, and bad
table options, so that a server can answer each with its own error code.
"""

from __future__ import annotations


class OptionError(ValueError):
    """A table option is unknown or its value is out of range."""

    def __init__(self, option: str, message: str) -> None:
        super().__init__(f"option {option!r}: {message}")
        self.option = option


class InvalidActionError(ValueError):
    """The action's notation does not parse (``"mvoe c4"``)."""

    def __init__(self, text: str, message: str) -> None:
        super().__init__(f"{text!r}: {message}")
        self.text = text


class IllegalActionError(ValueError):
    """The action parses but is not legal for that seat now; the game is unchanged."""

    def __init__(self, seat: int | None, action: object, reason: str) -> None:
        super().__init__(f"seat {seat}: {str(action)!r} is not legal: {reason}")
        self.seat = seat
        self.action = action
        self.reason = reason


class SnapshotError(ValueError):
    """A game snapshot cannot be restored: another format, another game, or damaged.

    Whoever holds the snapshot falls back to replaying the record, which always works."""
