"""Play again, over loopback: at a finished game each seated player asks for the next one
(``again``); it starts once everyone has, or when the game master starts it, and then the
seats of those who did not ask go free or to a bot. Once a rated game's ratings are stored,
everyone at the table is told each seat's change (``rated``)."""

from __future__ import annotations

from typing import Any

from e2e_client import Client
from test_profile_ratings import FAMILY, dealt, ok, play_out, serving

from protocol import messages as m
from server.players.profiles import shown_rating
from server.store.base import MemoryStore

RULESET = "switch"


async def three_seats(ann: Client, bob: Client) -> str:
    """A 3-seat table: ann (its master) in seat 0, bob in seat 1, a bot in seat 2, dealt."""
    table = (await ok(ann, m.CreateTable(ruleset=RULESET, seats=3))).table
    await ok(ann, m.Join(table=table, seat=0))
    await ok(bob, m.Join(table=table, seat=1))
    await ok(ann, m.SeatBot(table=table, seat=2, strategy="random"))
    await ok(ann, m.StartGame(table=table))
    await dealt(ann, table)
    return table


def over(table: str) -> Any:
    return lambda x: isinstance(x, m.Snapshot) and x.table == table and x.state == "over"


async def test_both_ask_and_the_next_game_starts_with_both_seated() -> None:
    async with serving(store=MemoryStore()) as (server, port):
        ann, bob = await Client.connect(port, "ann"), await Client.connect(port, "bob")
        table = await three_seats(ann, bob)
        refused = await bob.request(m.PlayAgain(table=table))
        assert isinstance(refused, m.Error) and refused.code == "bad_state"  # still playing
        await play_out(server, table, {0: ann, 1: bob})
        await bob.wait_for(over(table))
        await ok(ann, m.PlayAgain(table=table))
        told = await bob.wait_for(lambda x: isinstance(x, m.Notice) and "again" in x.text)
        assert told.text == "ann will play again (1 of 2 ready)"
        shown = await bob.wait_for(lambda x: isinstance(x, m.Snapshot) and x.again)
        assert shown.again == (0,) and shown.state == "over"
        await ok(bob, m.PlayAgain(table=table))
        await dealt(bob, table)
        t = server.lobby.get(table)
        assert t is not None and t.game_no == 2
        assert [s.name for s in t.seats] == ["ann", "bob", None]
        assert t.players()[2] == "bot:random"  # the master's bot stays
        assert t.seating.again == set()  # the new deal forgets who asked


async def test_one_asks_and_the_master_starts_the_other_seat_goes_to_a_bot() -> None:
    async with serving(store=MemoryStore()) as (server, port):
        ann, bob = await Client.connect(port, "ann"), await Client.connect(port, "bob")
        table = await three_seats(ann, bob)
        await play_out(server, table, {0: ann, 1: bob})
        await ann.wait_for(over(table))
        await ok(ann, m.PlayAgain(table=table))  # bob does not
        refused = await ann.request(m.StartGame(table=table, absent="nobody"))
        assert isinstance(refused, m.Error) and refused.code == "bad_options"
        await ok(ann, m.StartGame(table=table, absent="bot"))
        await dealt(ann, table)
        unseated = await bob.wait_for(lambda x: isinstance(x, m.Notice) and "unseated" in x.text)
        assert unseated.table == table
        t = server.lobby.get(table)
        assert t is not None and t.game_no == 2
        assert [s.name for s in t.seats] == ["ann", None, None]
        assert t.players()[1].startswith("bot:")  # reserved: nobody may take it
        refused = await bob.request(m.Join(table=table, seat=1))
        assert isinstance(refused, m.Error) and refused.code == "seat_taken"


async def test_by_default_the_seat_of_who_did_not_ask_stays_free() -> None:
    async with serving(store=MemoryStore()) as (server, port):
        ann, bob = await Client.connect(port, "ann"), await Client.connect(port, "bob")
        table = await three_seats(ann, bob)
        await play_out(server, table, {0: ann, 1: bob})
        await bob.wait_for(over(table))
        await ok(bob, m.PlayAgain(table=table))
        await ok(ann, m.StartGame(table=table))  # the master's start counts as his asking
        await dealt(ann, table)
        t = server.lobby.get(table)
        assert t is not None and [s.name for s in t.seats] == ["ann", "bob", None]


async def test_without_anyone_asking_start_deals_to_everyone_seated() -> None:
    async with serving(store=MemoryStore()) as (server, port):
        ann, bob = await Client.connect(port, "ann"), await Client.connect(port, "bob")
        table = await three_seats(ann, bob)
        await play_out(server, table, {0: ann, 1: bob})
        await ann.wait_for(over(table))
        await ok(ann, m.StartGame(table=table))
        await dealt(ann, table)
        t = server.lobby.get(table)
        assert t is not None and [s.name for s in t.seats] == ["ann", "bob", None]


async def test_a_spectator_may_not_ask() -> None:
    async with serving(store=MemoryStore()) as (_server, port):
        ann, bob = await Client.connect(port, "ann"), await Client.connect(port, "bob")
        eve = await Client.connect(port, "eve")
        table = await three_seats(ann, bob)
        await ok(eve, m.Spectate(table=table))
        refused = await eve.request(m.PlayAgain(table=table))
        assert isinstance(refused, m.Error) and refused.code == "no_seat"


async def test_everyone_is_told_each_rating_change_once_stored() -> None:
    async with serving(store=MemoryStore()) as (server, port):
        ann, bob = await Client.connect(port, "ann"), await Client.connect(port, "bob")
        table = await three_seats(ann, bob)
        await play_out(server, table, {0: ann, 1: bob})
        rated = await bob.wait_for(lambda x: isinstance(x, m.Rated))
        assert rated.table == table and rated.game == 1
        assert [c["seat"] for c in rated.changes] == [0, 1, 2]
        assert [c["name"] for c in rated.changes] == ["ann", "bob", "bot:random"]
        profiles = server.ops.profiles
        assert profiles is not None
        after = profiles.rating("ann", FAMILY)
        assert after is not None
        first = rated.changes[0]
        assert first["before"] == 1500 and first["after"] == shown_rating(after.mu, after.sigma)
        delta = first["after"] - first["before"]
        assert f"ann 1500 → {first['after']} ({delta:+d})" in rated.text
        assert rated.text.startswith("ratings after game 1: ")
