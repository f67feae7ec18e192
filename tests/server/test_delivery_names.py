"""The log's names are read again when, and only when, a seat changes hands: a sit,
a free seat, a restored holder (``Seating.changes``)."""

from __future__ import annotations

from typing import Any

from server.tables.delivery import Delivery
from server.tables.seating import Seating


class Stage:
    """The table as delivery reads it: its players are the seats' holders."""

    ruleset = "switch"
    game = None
    state = "waiting"
    master = None

    def __init__(self, seating: Seating) -> None:
        self.seating = seating
        self.asked = 0

    def players(self) -> list[str | None]:
        self.asked += 1
        return [s.name for s in self.seating.seats]

    def clock_left(self) -> None:
        return None


class Member:
    operator = False

    def deliver(self, message: Any) -> None: ...

    def deliver_many(self, messages: Any) -> None: ...


def test_the_names_follow_the_seats_changing_hands() -> None:
    seating = Seating(1, 3, by_address=False, watch_notice_seconds=0)
    stage = Stage(seating)
    out = Delivery(1, 16, seating, stage, lambda events: None)  # type: ignore[arg-type]
    assert out.names() == ("bot 1", "bot 2", "bot 3")
    seating.sit(1, "ann", b"t", Member())  # type: ignore[arg-type]
    assert out.names() == ("bot 1", "ann", "bot 3")
    assert out.names() == ("bot 1", "ann", "bot 3")
    assert stage.asked == 2  # read once per change, not once per event
    seating.hold(0, "bob", None)
    assert out.names() == ("bob", "ann", "bot 3")
    seating.free(1)
    assert out.names() == ("bob", "bot 2", "bot 3")
    assert stage.asked == 4
