"""The room over real sockets: ``who``, ``shout`` and ``hear_shouts``, spectators told to
the table, ``look``, ``watch`` at your own table, and a person at ``nc`` typing the way
FICS taught him (``p 8h``, a bare card, ``'hello``, ``observe``, ``help``)."""

from __future__ import annotations

import trio
from conftest import Running
from e2e_client import TEST_CONFIG, Client, serving_server

from protocol import messages as m
from protocol.msgpack_codec import encode
from server.app import Server
from server.store.base import MemoryStore
from server.tables.room import WHO_TABLES


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
    assert reply.text == "4 people online, and 1 connection with no name yet"
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
        assert reply.text == "3 people online (2 of them listed)"


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
    assert isinstance(reply, m.Ok) and "seat 1" in reply.text
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
    """The next sentence holding every one of ``words``, its continuation lines (over 80
    columns, a sentence goes on in lines indented by two spaces) joined to it."""
    with trio.fail_after(10):
        while True:
            while b"\n" in buf:
                raw, _, rest = bytes(buf).partition(b"\n")
                buf[:] = rest
                text = raw.decode()
                while buf.startswith(b"  ") and b"\n" in buf:  # written with it
                    more, _, rest = bytes(buf).partition(b"\n")
                    buf[:] = rest
                    text += " " + more.decode().strip()
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
    assert await line_with(s, buf, "people ann · playing at table 1 (seat 1)")
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


# ------------------------------------------------- what one name or address may cost
async def client_from(source: str, port: int, name: str) -> Client:
    """A named client connecting from ``source`` (Linux answers all of 127.0.0.0/8), as
    a second machine would come."""
    sock = trio.socket.socket()
    await sock.bind((source, 0))
    await sock.connect(("127.0.0.1", port))
    client = Client(trio.SocketStream(sock))
    assert isinstance(await client.request(m.Hello()), m.Welcome)
    assert isinstance(await client.request(m.ClaimName(name=name, secret="pw")), m.Named)
    return client


async def open_tables(port: int, count: int) -> tuple[Client, list[str]]:
    """``count`` tables created by ``host`` (kept connected), and their numbers."""
    host = await Client.connect(port, "host")
    tables = []
    for _ in range(count):
        table = (await host.request(m.CreateTable(ruleset="switch", seats=3))).table
        assert table is not None
        tables.append(table)
    return host, tables


async def test_who_lists_a_name_at_each_table_once_and_a_few_tables_at_most() -> None:
    """The hostile case, small: one name on four connections, each watching as many
    tables as it may (three here), some the same. Each table is listed once, at most
    ``WHO_TABLES`` of them, the rest counted; before, every connection's every table was
    listed (one name on 64 connections watching 2,000 tables: a 4 MB reply)."""
    config = TEST_CONFIG.replace(tables_per_name=0, tables_at_per_connection=3)
    async with serving_server(Server(config, MemoryStore())) as (_server, port):
        _host, tables = await open_tables(port, 12)
        eve = [await Client.connect(port, "eve") for _ in range(4)]
        for k, client in enumerate(eve):  # 1-3, 3-5, 5-7, 7-9: nine tables, three twice
            replies = [await client.request(m.Spectate(table=t)) for t in tables[2 * k :][:4]]
            assert [type(r) for r in replies] == [m.Snapshot] * 3 + [m.Error]
            assert replies[3].code == "too_many_tables" and "3 tables" in replies[3].text
        reply = await eve[0].request(m.Who())
        assert isinstance(reply, m.People)
        (entry,) = [p for p in reply.people if p["name"] == "eve"]
        assert [p["table"] for p in entry["tables"]] == tables[:8]
        assert entry["more"] == 1 and entry["state"] == "watching"
        assert "more" not in next(p for p in reply.people if p["name"] == "host")
        # what a name costs a reply is bounded however many connections and tables
        assert len(encode(reply)) < 400 + 40 * WHO_TABLES


async def test_the_tables_one_address_is_at_are_capped_and_freed_by_leaving() -> None:
    config = TEST_CONFIG.replace(trusted_addresses=(), tables_per_name=0,
                                 tables_per_address=0, tables_at_per_connection=3,
                                 tables_at_per_address=4)  # fmt: skip
    async with serving_server(Server(config, MemoryStore())) as (server, port):
        _host, tables = await open_tables(port, 5)
        ann, bob = (
            await client_from("127.0.0.2", port, "ann"),
            await client_from("127.0.0.2", port, "bob"),
        )
        for t in tables[:3]:
            assert isinstance(await ann.request(m.Spectate(table=t)), m.Snapshot)
        assert isinstance(await bob.request(m.Spectate(table=tables[3])), m.Snapshot)
        refused = await bob.request(m.Join(table=tables[4], seat=0))
        assert isinstance(refused, m.Error) and refused.code == "too_many_tables"
        assert "your address" in refused.text
        other = await client_from("127.0.0.3", port, "cy")  # another address is not held up
        assert isinstance(await other.request(m.Spectate(table=tables[4])), m.Snapshot)
        assert isinstance(await ann.request(m.Leave(table=tables[0])), m.Ok)
        assert isinstance(await bob.request(m.Join(table=tables[4], seat=0)), m.Seated)
        await ann.aclose()  # a connection that ended counts no more
        with trio.fail_after(5):
            while any(c.name == "ann" for c in server.connections):
                await trio.sleep(0.01)
        assert isinstance(await bob.request(m.Spectate(table=tables[0])), m.Snapshot)
        await bob.aclose()
        await other.aclose()
        with trio.fail_after(5):
            while len(server.services.room.at):
                await trio.sleep(0.01)


async def test_one_address_cannot_take_the_whole_room() -> None:
    """An address's connections share a shout budget: one address draining the server's
    shouts keeps nobody else from shouting; and a shout the room refuses costs the
    sender none of his talk."""
    config = TEST_CONFIG.replace(trusted_addresses=(), talk_burst=2, talk_per_second=0.0001,
                                 shout_burst=10, shout_per_second=0.0001,
                                 shout_address_burst=3,
                                 shout_address_per_second=0.0001)  # fmt: skip
    async with serving_server(Server(config, MemoryStore())) as (_server, port):
        crowd = [await client_from("127.0.0.2", port, f"eve{i}") for i in range(3)]
        said = [await c.request(m.Shout(text="spam")) for c in crowd for _ in range(2)]
        assert [type(r) for r in said] == [m.Ok] * 3 + [m.Error] * 3
        assert all(r.code == "rate_limited" and "your address" in r.text for r in said[3:])
        ann = await client_from("127.0.0.3", port, "ann")
        assert isinstance(await ann.request(m.Shout(text="anyone for switch?")), m.Ok)
        # eve2's two refused shouts spent none of her talk: she may still say two lines
        table = (await crowd[2].request(m.CreateTable(ruleset="switch", seats=3))).table
        assert table is not None
        await crowd[2].request(m.Join(table=table, seat=0))
        lines = [await crowd[2].request(m.Say(table=table, text=f"hi {i}")) for i in range(3)]
        assert [type(r) for r in lines] == [m.Ok, m.Ok, m.Error]
