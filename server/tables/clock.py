"""The turn countdown: a deadline per turn, pause and resume, and the away state.

Pure logic over trio's clock: every method takes ``now`` (``trio.current_time()``
in the server, any number in a test), so ``MockClock`` drives it and nothing
here sleeps. The table actor owns one ``TurnClock`` and one ``AwayTracker``
and asks, each time round its loop, "when must I wake?" (``deadline``); it
waits for its next command until ``clock.deadline`` (``server.tables.inbox``) and, if
none came first, has the seat's move made for it (a strategy shown that seat's view).

Rulings (docs/rules.md, "Common to all"; the sources leave these open):

- A countdown belongs to the seat in ``game.to_act``. It restarts when the
  turn passes to another seat *or* when the seat to act has just acted again
  (a second decision in one turn, such as nominating a suit, gets full time).
  An out-of-turn action by another seat (a vote) leaves the countdown alone,
  so nobody can stretch a rival's time by voting.
- ``turn_seconds`` 0 turns the clock off: no deadline, no automatic moves.
- Paused, the countdown keeps what is left and gives it back on resume.
- Two timeouts *in a row* by one seat mark it away; from then on it is played
  automatically at once (no countdown) until its player acts again. Any
  action its player sends (even one the game refuses) brings it back.

>>> clock = TurnClock(60)
>>> clock.follow(to_act=2, now=100.0)
True
>>> clock.deadline, clock.remaining(130.0)
(160.0, 30.0)
>>> clock.pause(130.0); clock.deadline is None, clock.remaining(500.0)
(True, 30.0)
>>> clock.resume(500.0); clock.deadline
530.0
"""

from __future__ import annotations

import time
from typing import Any


class TurnClock:
    """The countdown of the seat whose turn it is at one table."""

    __slots__ = ("_deadline", "_remaining", "paused", "seat", "seconds")

    def __init__(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("turn_seconds cannot be negative")
        self.seconds = float(seconds)
        self.seat: int | None = None
        self.paused = False
        self._deadline: float | None = None  #: when running
        self._remaining: float | None = None  #: when paused with a turn

    @property
    def enabled(self) -> bool:
        return self.seconds > 0

    @property
    def deadline(self) -> float | None:
        """When the current turn runs out (trio time); None: nothing to wake for."""
        return None if self.paused else self._deadline

    def follow(self, to_act: int | None, now: float, actor: int | None = None) -> bool:
        """Bring the countdown up to date after the game moved; True if it restarted.

        ``actor`` is the seat whose action was just applied (None: no action,
        e.g. the game has just started or resumed from the store).
        """
        if to_act is None or not self.enabled:
            self.stop()
            return False
        if to_act == self.seat and actor != to_act and self._has_turn():
            return False
        self.seat = to_act
        if self.paused:
            self._remaining = self.seconds
            self._deadline = None
        else:
            self._deadline = now + self.seconds
            self._remaining = None
        return True

    def _has_turn(self) -> bool:
        return self._deadline is not None or self._remaining is not None

    def stop(self) -> None:
        """No turn is running (the game is over, or has not started)."""
        self.seat = None
        self._deadline = None
        self._remaining = None

    def pause(self, now: float) -> None:
        """Stop the countdown, keeping what is left of it."""
        if self.paused:
            return
        self.paused = True
        if self._deadline is not None:
            self._remaining = max(0.0, self._deadline - now)
            self._deadline = None

    def resume(self, now: float) -> None:
        """Start the countdown again with what was left when it was paused."""
        if not self.paused:
            return
        self.paused = False
        if self._remaining is not None:
            self._deadline = now + self._remaining
            self._remaining = None

    def remaining(self, now: float) -> float | None:
        """Seconds left for the current turn; None if there is no countdown."""
        if self._remaining is not None:
            return self._remaining
        if self._deadline is None:
            return None
        return max(0.0, self._deadline - now)

    def expired(self, now: float) -> bool:
        """Whether the current turn has run out (never while paused)."""
        return self.deadline is not None and now >= self.deadline

    def describe(self, now: float, wall: float | None = None) -> dict[str, Any]:
        """The countdown as primitives for snapshots and turn messages.

        ``deadline`` is wall-clock (Unix seconds), because a client cannot read
        the server's trio clock; ``remaining`` is what the client should trust
        when the two machines' clocks disagree.
        """
        left = self.remaining(now)
        wall_now = time.time() if wall is None else wall
        return {
            "seat": self.seat,
            "turn_seconds": self.seconds,
            "remaining": None if left is None else round(left, 3),
            "deadline": None if left is None or self.paused else round(wall_now + left, 3),
            "paused": self.paused,
        }


class AwayTracker:
    """Which seats timed out twice in a row and are played automatically.

    >>> away = AwayTracker(limit=2)
    >>> away.timed_out(1), away.timed_out(1), away.is_away(1)
    (False, True, True)
    >>> away.acted(1), away.is_away(1), away.timed_out(1)
    (True, False, False)
    """

    __slots__ = ("_streak", "away", "limit")

    def __init__(self, limit: int = 2) -> None:
        self.limit = limit
        self._streak: dict[int, int] = {}
        self.away: set[int] = set()

    def timed_out(self, seat: int) -> bool:
        """Count a timeout; True if it has just made the seat away."""
        self._streak[seat] = self._streak.get(seat, 0) + 1
        if self._streak[seat] >= self.limit and seat not in self.away:
            self.away.add(seat)
            return True
        return False

    def acted(self, seat: int) -> bool:
        """The seat's player acted himself; True if that brought him back from away."""
        self._streak.pop(seat, None)
        if seat in self.away:
            self.away.discard(seat)
            return True
        return False

    def is_away(self, seat: int) -> bool:
        return seat in self.away

    def clear(self) -> None:
        """A new game: nobody is away."""
        self._streak.clear()
        self.away.clear()
