"""The lobby under a crowd: its listing built once and shared until a table changes, the
table supply shared fairly among addresses (trusted ones and first tables always served),
empty tables closed sooner when the server is nearly full, and finished tables nobody is
seated at leaving the lobby.

A ``tables`` reply's bytes hold that listing encoded once for every reply that shares it
(msgpack, JSON and text mode's lines).

The lobby runs in-process with fake members under trio's ``autojump_clock``, so minutes
of grace take no real time."""

from __future__ import annotations

from typing import Any

import pytest
import trio
from support import Member, settle

from protocol import messages as m
from protocol.json_codec import encode as json_encode
from protocol.limits import DEFAULT_LIMITS
from protocol.msgpack_codec import MsgpackDecoder, encode
from protocol.text_codec import ServerTextCodec
from server.core.commands import (
    Detach,
    EndGame,
    Export,
    Join,
    Leave,
    Look,
    SetOptions,
    Start,
    Watch,
)
from server.core.config import ServerConfig
from server.store.base import FINISHED, MemoryStore, StoredState
from server.tables.events import GameEnded
from server.tables.lobby import Lobby, LobbyError, owner_of
from server.tables.table import CLOSED, OVER, Table
from server.transport.framing import SharedEncodings, TextFraming
from server.transport.shared_listing import json_tables

OPTIONS = {"turn_seconds": 0, "target": 500}  # no clock: a game waits for its players
CONFIG = ServerConfig(
    host="127.0.0.1",
    port=0,
    scrypt_n=2,
    bot_thinking="threads",
    trusted_addresses=("127.0.0.1",),
    max_tables=10,
    tables_reserve=2,
    tables_per_address=0,
    empty_table_seconds=600.0,
    crowded_tables=0.8,
    crowded_empty_seconds=60.0,
    finished_table_seconds=30.0,
)


async def running_lobby(nursery: trio.Nursery, config: ServerConfig = CONFIG) -> Lobby:
    lobby = Lobby(config, MemoryStore(), StoredState())
    await nursery.start(lobby.run)
    return lobby


async def create(lobby: Lobby, address: str | None, creator: str = "ann") -> Table:
    return await lobby.create("switch", 4, dict(OPTIONS), creator, address=address)


async def send(table: Table, command: Any) -> None:
    await table.submit(command)
    await settle()


def listed(lobby: Lobby) -> dict[str, dict[str, Any]]:
    return {s["table"]: s for s in lobby.summaries()}


# ------------------------------------------------------------ the listing
async def test_the_listing_is_built_once_and_rebuilt_after_every_change(nursery, autojump_clock):
    lobby = await running_lobby(nursery)
    table = await create(lobby, "10.0.0.1")
    await settle()
    first = lobby.summaries()
    assert lobby.summaries() is first  # shared while nothing changes
    word = first[0]["table"]

    changes = [
        ("created", lambda: create(lobby, "10.0.0.2", "bob")),
        ("joined", lambda: send(table, Join(Member("ann"), 1, 0))),
        ("watched", lambda: send(table, Watch(Member("fan"), 2))),
    ]
    before = lobby.summaries()
    for what, change in changes:
        await change()
        await settle()
        after = lobby.summaries()
        assert after is not before, what
        before = after
    assert len(before) == 2
    assert listed(lobby)[word]["players"][0] == "ann" and listed(lobby)[word]["spectators"] == 1

    ann = next(s.member for s in table.seats if s.member is not None)
    await send(table, Start(ann, 3))
    assert listed(lobby)[word]["state"] == table.state != "waiting"
    await send(table, Leave(ann, 4))  # everyone left: the table closes and leaves the lobby
    await settle()
    assert word not in listed(lobby)
    assert len(lobby.summaries()) == 1


async def test_a_request_that_changes_nothing_listed_keeps_the_listing(nursery, autojump_clock):
    lobby = await running_lobby(nursery)
    table = await create(lobby, "10.0.0.1")
    await send(table, Join(Member("ann"), 1, 0))
    first = lobby.summaries()
    fan = Member("fan")
    for req in range(2, 6):  # a crowd's looks and record pages: the table hears each
        await send(table, Look(fan, req))
        await send(table, Export(fan, req + 10))
    assert lobby.summaries() is first
    await send(table, Watch(fan, 20))  # a spectator more: listed
    assert lobby.summaries() is not first and listed(lobby)[first[0]["table"]]["spectators"] == 1


async def test_a_masters_change_of_options_is_listed(nursery, autojump_clock):
    lobby = await running_lobby(nursery)
    table = await create(lobby, "10.0.0.1")
    ann = Member("ann")
    await send(table, Join(ann, 1, 0))
    word = lobby.summaries()[0]["table"]
    assert listed(lobby)[word]["options"]["target"] == 500
    await send(table, SetOptions(ann, 2, {"target": 300}))
    assert listed(lobby)[word]["options"]["target"] == 300 == table.options["target"]


async def test_a_game_ended_elsewhere_lists_its_peoples_ratings_afresh(nursery, autojump_clock):
    """A summary shows its players' ratings, which a game at another table changes: the
    listing hears that game's end and builds again the summaries of the tables where
    its people sit, and only those."""
    lobby = await running_lobby(nursery)
    seated = await create(lobby, "10.0.0.1")
    await create(lobby, "10.0.0.2", "bob")  # nobody seated: never built again
    await send(seated, Join(Member("ann"), 1, 0))
    first = lobby.summaries()
    built: list[list[str | None]] = []
    shown = {"ann": 1500}

    class Ratings:
        def summary(self, family: str, players: Any) -> list[int | None]:
            built.append(list(players))
            return [shown.get(p) if p is not None else None for p in players]

    lobby.listing.ratings = Ratings()
    assert lobby.summaries() is first  # nothing heard: nothing built
    shown["ann"] = 1600  # a game at another table (99) changed ann's rating
    ended = GameEnded(99, 1, "switch", "shedding", FINISHED, (5, 0), (0, 1), ("ann", "bot:x"),
                      ("ann", None), (0,))  # fmt: skip
    lobby.events.announce(ended)
    now = listed(lobby)
    assert built == [["ann", None, None, None]]  # the seated table only
    assert now[first[0]["table"]]["ratings"] == [1600, None, None, None]
    again = lobby.summaries()
    lobby.events.announce(GameEnded(99, 2, "switch", "shedding", "abandoned", (0, 0), (0, 0),
                                    ("bob", None), ("bob", None), ()))  # fmt: skip
    assert lobby.summaries() is again and len(built) == 1  # abandoned: no rating changed


# ----------------------------------------------------------------- supply
async def test_trusted_addresses_create_on_a_full_server(nursery, autojump_clock):
    lobby = await running_lobby(nursery)
    for i in range(10):  # ten addresses fill the server, reserve and all
        await create(lobby, f"10.0.0.{i}", f"p{i}")
    with pytest.raises(LobbyError) as refused:
        await create(lobby, "10.0.1.1", "late")
    assert refused.value.code == "too_many_tables"
    assert (await create(lobby, "127.0.0.1", "host")).creator_address == "127.0.0.1"
    await lobby.ensure_house_table("abbott")  # and the house
    assert len(lobby.tables) == 12


async def test_an_address_with_no_table_creates_when_another_filled_its_share(
    nursery, autojump_clock
):
    lobby = await running_lobby(nursery)
    made = 0
    with pytest.raises(LobbyError):
        while True:
            await create(lobby, "10.0.0.1")
            made += 1
    assert made == 8  # the rest after the reserve of 2
    await create(lobby, "10.0.0.2", "bob")  # a first table: from the reserve
    with pytest.raises(LobbyError) as second:
        await create(lobby, "10.0.0.2", "bob")
    assert "first tables" in str(second.value)
    await create(lobby, "10.0.0.3", "carl")  # the last of the reserve
    before = len(lobby.tables)
    await create(lobby, "10.0.0.4", "dora")  # the whole is full: the heaviest makes room
    assert len(lobby.tables) == before


async def test_the_share_of_an_address_shrinks_as_addresses_come(nursery, autojump_clock):
    lobby = await running_lobby(nursery, CONFIG.replace(max_tables=20, tables_reserve=0))
    for i in range(5):  # five addresses hold a table each: a share is 20 // 5 = 4
        await create(lobby, f"10.0.0.{i}", f"p{i}")
    for _ in range(3):
        await create(lobby, "10.0.0.0", "p0")
    with pytest.raises(LobbyError) as refused:
        await create(lobby, "10.0.0.0", "p0")
    assert "share while 5 addresses" in str(refused.value)


async def test_a_newcomer_gets_a_table_from_a_seated_crowd_that_holds_them_all(
    nursery, autojump_clock
):
    lobby = await running_lobby(nursery)
    crowd: list[Table] = []
    for address, count in (("10.0.0.1", 6), ("10.0.0.2", 2), ("10.0.0.3", 1), ("10.0.0.4", 1)):
        for _ in range(count):  # the shared eight, then two first tables from the reserve
            crowd.append(table := await create(lobby, address, "crowd"))
            await send(table, Join(Member("sitter"), 1, 0))  # seated: never reclaimed empty
    assert len(lobby.supply.counted()) == CONFIG.max_tables
    newest = crowd[5]  # the heaviest address's newest table makes room
    sitter = newest.seats[0].member
    mine = await create(lobby, "10.0.9.9", "newcomer")
    assert mine.state != CLOSED and newest.state == CLOSED
    assert len(lobby.supply.counted()) == CONFIG.max_tables  # never more
    assert "a newcomer needed a table" in " ".join(sitter.notices())
    with pytest.raises(LobbyError):  # no second table for the newcomer on a full server
        await create(lobby, "10.0.9.9", "newcomer")


async def test_a_crowds_creates_at_once_never_pass_max_tables(nursery, autojump_clock):
    lobby = await running_lobby(nursery, CONFIG.replace(max_tables=20, tables_reserve=5))
    refused: list[str] = []
    most = 0

    async def one(address: str) -> None:
        nonlocal most
        try:
            await create(lobby, address, "crowd")
        except LobbyError as exc:
            refused.append(str(exc))
        most = max(most, len([t for t in lobby.tables.values() if t.state != CLOSED]))

    async with trio.open_nursery() as crowd:
        for i in range(60):  # every create passes its check before any is stored
            crowd.start_soon(one, f"10.0.{i % 12}.1")
    assert most <= 20 and len(lobby.tables) <= 20 and refused


async def test_a_crowded_server_closes_untrusted_empty_tables_sooner(nursery, autojump_clock):
    lobby = await running_lobby(nursery)
    mine = await create(lobby, "127.0.0.1", "host")
    theirs = [await create(lobby, f"10.0.0.{i}", f"p{i}") for i in range(7)]
    await trio.sleep(120)  # 7 of 10: not crowded, nothing closes before its 600 s
    assert all(t.state != CLOSED for t in theirs)
    watched = theirs[0]
    await send(watched, Watch(Member("fan"), 1))  # someone is at this one
    late = await create(lobby, "10.0.0.9", "late")  # 8 of 10: crowded
    await trio.sleep(6)  # the next look: theirs have been empty for over a minute
    assert [t.state == CLOSED for t in theirs] == [False] + [True] * 6
    assert late.state != CLOSED  # empty for under a minute
    assert mine.state != CLOSED  # a trusted creator's table waits out its 600 s
    for i in range(6):  # crowded again (8 of 10)
        await create(lobby, f"10.0.2.{i}", f"q{i}")
    await trio.sleep(60)
    assert late.state == CLOSED and mine.state != CLOSED and watched.state != CLOSED


async def test_a_tables_thoughts_are_its_creator_addresss_share(nursery, autojump_clock):
    lobby = await running_lobby(nursery)
    table = await create(lobby, "10.0.0.1")
    await lobby.ensure_house_table("abbott")
    house = next(t for t in lobby.tables.values() if t.creator is None)
    assert owner_of(table) == "10.0.0.1" and owner_of(house) == ("table", house.id)


# -------------------------------------------------------- finished tables
async def test_a_finished_table_nobody_is_seated_at_leaves_the_lobby(nursery, autojump_clock):
    lobby = await running_lobby(nursery)
    table = await create(lobby, "10.0.0.1")
    ann, fan = Member("ann"), Member("fan")
    await send(table, Join(ann, 1, 0))
    await send(table, Watch(fan, 2))
    await send(table, Start(ann, 3))
    await send(table, EndGame(ann, 4))
    assert table.state == OVER
    await trio.sleep(1000)  # its player is still seated: it stays for another game
    assert table.state == OVER
    await send(table, Detach(ann))  # gone, her seat kept; a spectator still watches
    await trio.sleep(29)
    assert table.state == OVER and table.id in lobby.tables
    await trio.sleep(2)
    assert table.state == CLOSED and table.id not in lobby.tables
    assert "closed: its game is over and nobody is seated" in " ".join(fan.notices())


# -------------------------------------------------------- the listing's bytes
class CountedSummary(dict[str, Any]):
    """A summary that counts how often it is encoded (msgpack and JSON read a dict
    subclass's ``items``; a text mode sentence reads its fields by name)."""

    packed = 0

    def items(self) -> Any:
        CountedSummary.packed += 1
        return super().items()

    def __getitem__(self, key: str) -> Any:
        if key == "ruleset":  # a text mode sentence reads each field once by name
            CountedSummary.packed += 1
        return super().__getitem__(key)


@pytest.mark.parametrize("codec", ["msgpack", "json"])
def test_a_listing_shared_by_replies_is_encoded_once_and_each_reply_keeps_its_id(codec) -> None:
    encode_shared = SharedEncodings().encode if codec == "msgpack" else json_tables
    encode_plain = encode if codec == "msgpack" else (lambda msg: json_encode(msg).encode())
    listing = tuple(CountedSummary(table=str(i), seats=4, players=[None] * 4) for i in range(3))
    plain = tuple(dict(s) for s in listing)
    CountedSummary.packed = 0
    replies = [encode_shared(m.Tables.trusted(tables=listing, id=rid)) for rid in (1, 2, None)]
    assert CountedSummary.packed == len(listing)  # each summary once, for three replies
    assert replies == [encode_plain(m.Tables(tables=plain, id=rid)) for rid in (1, 2, None)]

    fresh = CountedSummary(table="9", seats=2, players=["ann", None])
    changed = (*listing[1:], fresh)  # a table closed, another opened: only it is encoded
    reply = encode_shared(m.Tables.trusted(tables=changed, id=4))
    assert CountedSummary.packed == len(listing) + 1
    assert reply == encode_plain(m.Tables(tables=(*plain[1:], dict(fresh)), id=4))


def test_a_tables_reply_reaches_a_msgpack_client_whole() -> None:
    listing = ({"table": "1", "seats": 4}, {"table": "2", "seats": 2})
    frames = b"".join(
        SharedEncodings().encode(m.Tables.trusted(tables=listing, id=i)) for i in (7, 8)
    )
    got = MsgpackDecoder().feed(frames)
    assert [(r.id, r.tables) for r in got] == [(7, listing), (8, listing)]  # type: ignore[union-attr]


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_text_mode_writes_a_shared_listing_as_its_codec_does(fmt) -> None:
    listing = (
        CountedSummary(table="1", ruleset="switch", state="waiting", seats=4, taken=1,
                       players=["åsa\u2028", None, None, None], master="åsa", spectators=2),
        CountedSummary(table="2", ruleset="abbott", state="playing", seats=2, taken=2,
                       players=["bo", "bot:search"], master=None, spectators=0),
    )  # fmt: skip
    framing, codec = TextFraming(DEFAULT_LIMITS), ServerTextCodec(DEFAULT_LIMITS)
    framing._codec.format = codec.format = fmt
    CountedSummary.packed = 0
    replies = [m.Tables.trusted(tables=listing, id=rid) for rid in (3, None, 4)]
    written = [framing.encode(msg) for msg in replies]
    assert CountedSummary.packed == len(listing)  # each summary once for three replies
    assert written == [codec.encode(msg) for msg in replies]
    empty = m.Tables(tables=(), id=5)  # no tables: a sentence of its own
    assert framing.encode(empty) == codec.encode(empty)
