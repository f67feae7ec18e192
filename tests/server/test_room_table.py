"""A table's side of the room: spectators announced as they come and go, ``look``, and a
seated player's ``watch`` of his own table, on a real table task with fake members."""

from __future__ import annotations

import trio
import trio.testing
from support import Member, settle

import engine
from protocol import messages as m
from server.core.commands import Act, Detach, Join, Leave, Look, Start, Watch
from server.core.config import ServerConfig
from server.store.base import MemoryStore, TableCreated
from server.tables.room import people
from server.tables.table import Table

CONFIG = ServerConfig(host="127.0.0.1", port=0, scrypt_n=2, watch_notice_seconds=30)
RULESET = "switch" if "switch" in engine.rulesets() else engine.rulesets()[0]


async def open_table(nursery: trio.Nursery, *names: str) -> tuple[Table, list[Member]]:
    """A table with ``names`` seated in order (the first creates it)."""
    store = MemoryStore()
    await store.commit(TableCreated(1, RULESET, 2, {}, names[0], {}))
    table = Table(1, RULESET, 2, {}, config=CONFIG, store=store, creator=names[0])
    await nursery.start(table.run)
    members = [Member(n) for n in names]
    for i, member in enumerate(members):
        await table.submit(Join(member, 100 + i, i))
    await settle()
    return table, members


def watchers(member: Member) -> list[tuple[str, str | None, int]]:
    return [(x.what, x.name, x.watching) for x in member.got if isinstance(x, m.Watcher)]


async def test_watchers_are_announced_coming_and_going(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock
) -> None:
    """Before, spectators came and went unannounced."""
    table, (ann, bob) = await open_table(nursery, "ann", "bob")
    cy, anon = Member("cy"), Member(None)
    await table.submit(Watch(cy, 1))
    await table.submit(Watch(anon, 2))
    await settle()
    assert watchers(ann) == [("came", "cy", 1), ("came", None, 2)]
    assert watchers(cy) == [("came", None, 2)]  # nobody is told of himself
    await table.submit(Leave(cy, 3))
    await table.submit(Detach(anon))  # a spectator's connection went
    await settle()
    assert watchers(bob)[2:] == [("went", "cy", 1), ("went", None, 0)]
    assert not table.spectators


async def test_watching_in_a_loop_is_told_once_a_while(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock
) -> None:
    table, (ann, _bob) = await open_table(nursery, "ann", "bob")
    cy = Member("cy")
    for i in range(50):
        await table.submit(Watch(cy, 2 * i))
        await table.submit(Leave(cy, 2 * i + 1))
    await settle()
    assert watchers(ann) == [("came", "cy", 1), ("went", "cy", 0)]
    await trio.sleep(CONFIG.watch_notice_seconds)
    await table.submit(Watch(cy, 1000))
    await settle()
    assert watchers(ann)[-1] == ("came", "cy", 1)


async def test_watch_at_your_own_table_keeps_your_seat(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock
) -> None:
    """Before, ``watch N`` at your own table made you a spectator: the next play got
    ``no_seat``."""
    table, (ann, bob) = await open_table(nursery, "ann", "bob")
    await table.submit(Start(ann, 1))
    await settle()
    await table.submit(Watch(ann, 2))
    await settle()
    assert table.seats[0].member is ann and ann not in table.spectators
    reply, snapshot = ann.batches[-1]
    assert isinstance(reply, m.Ok) and reply.id == 2 and "seat 1" in reply.text
    assert isinstance(snapshot, m.Snapshot) and snapshot.seat == 0
    assert not watchers(bob)
    game = table.game
    assert game is not None
    seat = game.to_act
    player = (ann, bob)[seat]
    action = str(game.legal_actions(seat)[0])
    await table.submit(Act(player, 3, player.token(), action))
    await settle()
    assert isinstance(player.last_reply(3), m.Ok)


async def test_look_shows_the_table_again(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock
) -> None:
    table, (ann, _bob) = await open_table(nursery, "ann", "bob")
    await table.submit(Start(ann, 1))
    cy, dee = Member("cy"), Member("dee")
    await table.submit(Watch(cy, 1))
    await table.submit(Look(ann, 2))
    await table.submit(Look(cy, 3))
    await table.submit(Look(dee, 4))
    await settle()
    mine = ann.last_reply(2)
    assert isinstance(mine, m.Snapshot) and mine.seat == 0 and mine.seq == table.seq
    assert "hand" in mine.view
    theirs = cy.last_reply(3)
    assert isinstance(theirs, m.Snapshot) and theirs.seat is None and not theirs.view["hand"]
    refused = dee.last_reply(4)
    assert isinstance(refused, m.Error) and refused.code == "not_member"
    assert "watch 1" in refused.text


class Present(Member):
    """A connection as the room sees it: a member with its tables and its last message."""

    def __init__(self, name: str | None, last: float, *tables: int) -> None:
        super().__init__(name)
        self.tables, self.last_message, self.hears_shouts = set(tables), last, True


async def test_who_counts_a_name_once_at_every_table_of_its_connections(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock
) -> None:
    table, _members = await open_table(nursery, "ann", "bob")

    class Lobby:
        @staticmethod
        def get(word: str | int) -> Table | None:
            return table if int(word) == table.id else None

    cy_phone, cy_laptop = Present("cy", 40.0), Present("cy", 95.0, table.id)
    await table.submit(Watch(cy_laptop, 1))
    await settle()
    present = [cy_phone, cy_laptop, Present("Bo", 10.0), Present(None, 0.0), Present("al", 0.0)]
    reply = people(present, Lobby(), 2, now=100.0, req=7)
    assert (reply.total, reply.guests, reply.id) == (3, 1, 7)
    assert reply.people == (
        {"name": "al", "state": "idle", "tables": [], "idle": 100, "where": "in the lobby"},
        {"name": "Bo", "state": "idle", "tables": [], "idle": 90, "where": "in the lobby"},
    )
    (cy,) = people(present, Lobby(), 5, now=100.0).people[2:]
    assert cy == {"name": "cy", "state": "watching", "idle": 5,
                  "tables": [{"table": "1", "seat": None, "state": "waiting"}],
                  "where": "watching table 1"}  # fmt: skip
