"""What a shedding hand can wait for: a power's effect pending, or a debt of the player
to act. Kept apart from the hand's state (``engine.shedding.state``, which re-exports
them) so that the events' declarations (``engine.shedding.vocabulary``) can read them
while the state reads the declarations: no circle of imports.
"""

from __future__ import annotations

from enum import StrEnum


class PendingKind(StrEnum):
    """A power card's effect waiting for the next player to answer it."""

    PICKUP = "pickup"  # stack, cancel, or draw the count
    SKIP = "skip"  # pass the skip on, or be skipped
    MISS = "miss"  # play the rank, or miss the count of turns
    COVER = "cover"  # cover the card, or draw
    GO_ON = "go_on"  # go on in the suit named, or pass


class Awaiting(StrEnum):
    """What the player to act owes before anything else."""

    SUIT = "suit"  # a suit named after a nominating card
    DRAWN = "drawn"  # the card just drawn played, or a pass
