"""What one ``who`` costs the event loop on a crowded server, and one shout's relay.

Run: ``python bench/who.py [--connections 10000] [--tables 2500] [--repeat 50]``.

In process, without sockets: ``--connections`` sessions (one in ten with no name,
four of every five named ones seated four to a table, the rest watching or idle)
and ``--tables`` tables, read by ``server.tables.room`` exactly as a ``who`` reads
the server's. Each figure is printed beside its reference from the same run: the
bare walk over the same connections (reading each one's name and tables), the least
any answer about everyone online could cost. The target: a ``who`` within 20 ms
p50 at 10,000 connections, so that the rationing (``lobby_burst`` then
``lobby_per_second`` a connection, and the address's lobby budget) bounds what it can
take from the loop. A shout's relay to everyone is timed the same way (deliveries
are appended to a list: the queue's cost, not the socket's).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from server.tables import room  # noqa: E402

TARGET_MS = 20.0


@dataclass(eq=False)
class Seat:
    member: Any = None


@dataclass(eq=False)
class Table:
    id: int
    state: str
    seats: list[Seat]


@dataclass(eq=False)
class Person:
    name: str | None
    tables: set[int] = field(default_factory=set)
    hears_shouts: bool = True
    last_message: float = 0.0
    got: list[Any] = field(default_factory=list)

    def deliver(self, message: Any) -> None:
        self.got.append(message)


class Lobby:
    def __init__(self, tables: dict[int, Table]) -> None:
        self.tables = tables

    def get(self, word: str | int) -> Table | None:
        return self.tables.get(int(word))


def crowd(connections: int, tables: int) -> tuple[list[Person], Lobby]:
    lobby = Lobby({
        i: Table(i, "playing" if i % 3 else "waiting", [Seat() for _ in range(4)])
        for i in range(1, tables + 1)
    })  # fmt: skip
    people: list[Person] = []
    seats = [(t, s) for t in lobby.tables.values() for s in t.seats]
    for i in range(connections):
        person = Person(None if i % 10 == 0 else f"player{i}")
        if person.name is not None and i % 5 and seats:
            table, seat = seats.pop()
            seat.member = person
            person.tables.add(table.id)
        elif person.name is not None and i % 2:
            person.tables.add(1 + i % tables)
        people.append(person)
    return people, lobby


def timed(fn: Any, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        out.append((time.perf_counter() - start) * 1000)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--connections", type=int, default=10_000)
    parser.add_argument("--tables", type=int, default=2_500)
    parser.add_argument("--repeat", type=int, default=50)
    args = parser.parse_args()
    people, lobby = crowd(args.connections, args.tables)

    def walk() -> None:
        for p in people:
            _ = p.name, len(p.tables)

    def who() -> None:
        room.people(people, lobby, 200, 60.0)

    def shout() -> None:
        room.Room.relay(people, "ann", "switch at table 5, anyone?")

    floor = statistics.median(timed(walk, args.repeat))
    who_ms = timed(who, args.repeat)
    shout_ms = timed(shout, args.repeat)
    reply = room.people(people, lobby, 200, 60.0)
    print(f"{args.connections} connections ({reply.guests} without a name), "
          f"{args.tables} tables; {reply.total} names, {len(reply.people)} listed")  # fmt: skip
    print(f"bare walk over the connections (reference): p50 {floor:.2f} ms")
    p50, p99 = statistics.median(who_ms), sorted(who_ms)[int(0.99 * (len(who_ms) - 1))]
    met = "met" if p50 <= TARGET_MS else "NOT met"
    print(f"who: p50 {p50:.2f} ms, p99 {p99:.2f} ms ({p50 / floor:.1f}x the walk); "
          f"target p50 <= {TARGET_MS:.0f} ms: {met}")  # fmt: skip
    s50 = statistics.median(shout_ms)
    print(f"shout relayed to everyone listening: p50 {s50:.2f} ms ({s50 / floor:.1f}x the walk)")


if __name__ == "__main__":
    main()
