"""The room over real sockets: ``who``, ``shout`` and ``hear_shouts``, spectators told to
the table, ``look``, ``watch`` at your own table, and a person at ``nc`` typing the way
FICS taught him (``p 8h``, a bare card, ``'hello``, ``observe``, ``help``)."""

from __future__ import annotations

import trio
from conftest import Running
from e2e_client import TEST_CONFIG, Client, serving_server

from protocol import messages as m
from server.app import Server
from server.store.base import MemoryStore


async def seated_pair(port: int) -> tuple[Client, Client, str]:
    ann, bob = await Client.connect(port, "ann"), await Client.connect(port, "bob")
    table = (await ann.request(m.CreateTable(ruleset="switch", seats=3))).table
    assert table is not None
    assert isinstance(await ann.request(m.Join(table=table, seat=0)), m.Seated)
    assert isinstance(await bob.request(m.Join(table=table, seat=1)), m.Seated)
    return ann, bob, table


async def test_who_says_who_is_where_and_what_they_do(running: Running) -> None:
    ann, bob, table = await seated_pair(running.port)
    cy = await Client.connect(running.port, "cy")
    assert isinstance(await cy.request(m.Spectate(table=table)), m.Snapshot)
    others = [await Client.connect(running.port, "dee"), await Client.connect(running.port)]
    assert others[1].stream is not None  # kept open: dee, and a connection with no name
    silent = await trio.open_tcp_stream("127.0.0.1", running.port)  # no hello: nobody yet
    assert isinstance(await ann.request(m.StartGame(table=table)), m.Ok)
    reply = await bob.request(m.Who())
    assert isinstance(reply, m.People)
    assert (reply.total, reply.guests) == (4, 1)
    where = {p["name"]: (p["state"], p["tables"]) for p in reply.people}
    assert where == {
        "ann": ("playing", [{"table": table, "seat": 0, "state": "playing"}]),
        "bob": ("playing", [{"table": table, "seat": 1, "state": "playing"}]),
        "cy": ("watching", [{"table": table, "seat": None, "state": "playing"}]),
        "dee": ("idle", []),
    }
    assert [p["name"] for p in reply.people] == ["ann", "bob", "cy", "dee"]
    assert all(0 <= p["idle"] < 60 for p in reply.people)
    await silent.aclose()


async def test_who_lists_at_most_who_max_and_counts_the_rest() -> None:
    config = TEST_CONFIG.replace(who_max=2)
    async with serving_server(Server(config, MemoryStore())) as (_server, port):
        clients = [await Client.connect(port, name) for name in ("ann", "bob", "cy")]
        reply = await clients[0].request(m.Who())
        assert isinstance(reply, m.People)
        assert [p["name"] for p in reply.people] == ["ann", "bob"] and reply.total == 3


async def test_who_is_rationed_as_a_lobby_listing() -> None:
    """Each ``who`` walks every connection: a client asking a thousand times is refused
    past its burst, and the server goes on serving it (and everyone) otherwise."""
    config = TEST_CONFIG.replace(lobby_burst=3, lobby_per_second=0.0001)
    async with serving_server(Server(config, MemoryStore())) as (_server, port):
        ann = await Client.connect(port, "ann")
        replies = [await ann.request(m.Who()) for _ in range(5)]
        assert [type(r) for r in replies] == [m.People] * 3 + [m.Error] * 2
        assert replies[3].code == "rate_limited"
        assert isinstance(await ann.request(m.Ping()), m.Pong)


async def test_a_shout_reaches_everyone_listening_and_no_one_else(running: Running) -> None:
    ann, bob, _table = await seated_pair(running.port)
    cy = await Client.connect(running.port, "cy")
    assert isinstance(await cy.request(m.HearShouts(on=False)), m.Ok)
    reply = await ann.request(m.Shout(text="  switch at\u202e  table 1,\u200b anyone? "))
    assert isinstance(reply, m.Ok)
    for who in (ann, bob):
        heard = await who.wait_for(lambda x: isinstance(x, m.Shouted))
        assert heard == m.Shouted(name="ann", text="switch at table 1, anyone?")
    await cy.request(m.Ping())  # cy's connection has caught up: no shout came before it
    assert not any(isinstance(x, m.Shouted) for x in cy.inbox)


async def test_shouts_are_rate_limited_per_connection_and_for_the_room() -> None:
    config = TEST_CONFIG.replace(talk_burst=3, talk_per_second=0.0001, shout_burst=4,
                                 shout_per_second=0.0001)  # fmt: skip
    async with serving_server(Server(config, MemoryStore())) as (_server, port):
        ann, bob = await Client.connect(port, "ann"), await Client.connect(port, "bob")
        said = [await ann.request(m.Shout(text=f"hi {i}")) for i in range(4)]
        assert [type(r) for r in said] == [m.Ok, m.Ok, m.Ok, m.Error]
        assert said[3].code == "rate_limited" and "too fast" in said[3].text
        more = [await bob.request(m.Shout(text=f"yo {i}")) for i in range(2)]
        assert [type(r) for r in more] == [m.Ok, m.Error]  # the room's 4 are spent
        assert more[1].code == "rate_limited" and "room" in more[1].text
        await bob.request(m.Ping())
        assert sum(isinstance(x, m.Shouted) for x in bob.inbox) == 4


async def test_shouts_off_on_the_server_and_a_nameless_shout_are_refused() -> None:
    config = TEST_CONFIG.replace(shout=False)
    async with serving_server(Server(config, MemoryStore())) as (_server, port):
        ann = await Client.connect(port, "ann")
        reply = await ann.request(m.Shout(text="hello"))
        assert isinstance(reply, m.Error) and reply.code == "not_allowed"
        nameless = await Client.connect(port)
        reply = await nameless.request(m.Shout(text="hello"))
        assert isinstance(reply, m.Error) and reply.code == "need_name"


async def test_watchers_come_and_go_and_watch_at_your_own_table_keeps_your_seat(
    running: Running,
) -> None:
    ann, bob, table = await seated_pair(running.port)
    assert isinstance(await ann.request(m.StartGame(table=table)), m.Ok)
    cy = await Client.connect(running.port, "cy")
    await cy.request(m.Spectate(table=table))
    came = await ann.wait_for(lambda x: isinstance(x, m.Watcher))
    assert (came.what, came.name, came.watching) == ("came", "cy", 1)
    # before, this made ann a spectator of her own game: her next act got no_seat
    reply = await ann.request(m.Spectate(table=table))
    assert isinstance(reply, m.Ok) and "seat 0" in reply.text
    snapshot = await ann.wait_for(lambda x: isinstance(x, m.Snapshot))
    assert snapshot.seat == 0
    look = await bob.request(m.Look(table=table))
    assert isinstance(look, m.Snapshot) and look.seat == 1
    await cy.request(m.Leave(table=table))
    went = await bob.wait_for(lambda x: isinstance(x, m.Watcher) and x.what == "went")
    assert (went.name, went.watching) == ("cy", 0)
    # her seat is still hers: an act is judged as a play (legal or not), never no_seat
    reply = await ann.request(m.Act(table=table, action="draw"))
    assert not (isinstance(reply, m.Error) and reply.code in ("no_seat", "bad_token")), reply


async def person(port: int, *lines: str) -> tuple[trio.SocketStream, bytearray]:
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    await stream.send_all("".join(line + "\n" for line in lines).encode())
    return stream, bytearray()


async def line_with(stream: trio.SocketStream, buf: bytearray, *words: str) -> str:
    """The next line holding every one of ``words``."""
    with trio.fail_after(10):
        while True:
            while b"\n" in buf:
                raw, _, rest = bytes(buf).partition(b"\n")
                buf[:] = rest
                text = raw.decode()
                if all(w in text for w in words):
                    return text
            data = await stream.receive_some(65536)
            assert data, "the server closed the connection"
            buf += data


async def test_a_person_at_nc_finds_the_way(running: Running) -> None:
    s, buf = await person(running.port, "name ann s3cret-ann", "help")
    assert "name YOURNAME" not in await line_with(s, buf, "help", "tables -")
    await s.send_all(b"create switch 2 turn_seconds=0\nhelp\n")
    assert "start - deal" in await line_with(s, buf, "help", "start")
    await s.send_all(b"start\n'good luck\n")
    assert await line_with(s, buf, "talk 1 ·", "ann: good luck")
    await s.send_all(b"who\n")  # after the start: who reads the room as it is when asked
    assert await line_with(s, buf, "people ann · playing at table 1 (seat 0)")
    await s.send_all(b"hand\n")
    view = await line_with(s, buf, "view 1 ·", "your hand")
    if "your turn" in view:
        may = view.split("you may: ", 1)[1].split(", ")
        play = next((a for a in may if a.startswith("play ")), None)
        if play is not None:  # a bare card, lower case, plays it
            await s.send_all(play.split()[1].lower().encode() + b"\n")
            assert await line_with(s, buf, "event 1 · ann plays")
    await s.send_all(b"tell bob hi\n")
    assert "here it is 'say'" in await line_with(s, buf, "error bad_command")
    await s.aclose()
