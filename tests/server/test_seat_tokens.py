"""A seat's token, and only its current one, names the seat.

``Seating.seat_for_token`` remembers the tokens it has found (an action then costs a
lookup instead of a hash and a comparison per seat); a token must stop working the
moment its seat changes hands or is freed, whatever was remembered.
"""

from __future__ import annotations

from typing import Any

from server.players.accounts import token_hash
from server.tables.seating import Seating


class Who:
    def __init__(self, name: str) -> None:
        self.name, self.operator, self.got = name, False, []

    def deliver(self, message: Any) -> None:
        self.got.append(message)

    def deliver_many(self, messages: Any) -> None:
        self.got.extend(messages)


def seating() -> Seating:
    return Seating(7, 3, by_address=False, watch_notice_seconds=0)


def test_a_token_names_its_seat_again_and_again() -> None:
    s, ann = seating(), Who("ann")
    s.sit(1, "ann", token_hash("ann-1"), ann)
    assert [s.seat_for_token("ann-1") for _ in range(3)] == [1, 1, 1]
    assert s.seat_for_token("nobody's") is None and s.seat_for_token("") is None
    assert s.seat_for_token(None) is None and s.seat_for_token(42) is None


def test_a_token_found_before_stops_when_its_seat_is_taken_again() -> None:
    s, ann = seating(), Who("ann")
    s.sit(0, "ann", token_hash("old"), ann)
    assert s.seat_for_token("old") == 0  # found, and remembered
    s.sit(0, "ann", token_hash("new"), ann)  # a join again: a fresh token
    assert s.seat_for_token("old") is None and s.seat_for_token("new") == 0


def test_a_token_found_before_stops_when_its_seat_is_freed_or_unseated() -> None:
    s, ann, bob = seating(), Who("ann"), Who("bob")
    s.sit(0, "ann", token_hash("ann"), ann)
    s.sit(2, "bob", token_hash("bob"), bob)
    assert (s.seat_for_token("ann"), s.seat_for_token("bob")) == (0, 2)
    s.free(0)  # ann left
    assert s.seat_for_token("ann") is None and s.seat_for_token("bob") == 2
    s.unseat(2)  # the game master unseated bob: he keeps watching, his token is dead
    assert s.seat_for_token("bob") is None and bob in s.spectators


def test_a_restored_seat_is_named_by_its_stored_token_only() -> None:
    s, ann = seating(), Who("ann")
    s.sit(1, "ann", token_hash("before"), ann)
    assert s.seat_for_token("before") == 1
    s.hold(1, "ann", token_hash("stored"))
    assert s.seat_for_token("before") is None and s.seat_for_token("stored") == 1
