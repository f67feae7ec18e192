"""Connections end to end: names and secrets, seat tokens, reconnect and catch-up,
slow readers, malformed frames. Real loopback sockets, port 0."""

from __future__ import annotations

import socket
import struct

import trio
from e2e_client import TEST_CONFIG, Client

from protocol import messages as m
from protocol.msgpack_codec import MsgpackDecoder, encode, encode_map
from server.app import Server
from server.store.base import MemoryStore


async def seated_table(port: int, name: str, ruleset: str = "switch") -> tuple[Client, str]:
    """A client seated at seat 0 of a new table whose other seats are server bots, not started."""
    c = await Client.connect(port, name)
    ok = await c.request(m.CreateTable(ruleset=ruleset, seats=4))
    seated = await c.request(m.Join(table=ok.table, seat=0))
    assert isinstance(seated, m.Seated)
    return c, ok.table


async def test_a_name_is_claimed_by_its_secret(running):
    a = await Client.connect(running.port, "Ann", secret="first")
    again = await Client.connect(running.port, "ann", secret="first")  # names fold case
    assert again.inbox[-1] == m.Named(name="Ann", id=2)
    thief = await Client.connect(running.port)
    refused = await thief.request(m.ClaimName(name="ANN", secret="guess"))
    assert isinstance(refused, m.Error) and refused.code == "name_taken"
    bad = await thief.request(m.ClaimName(name="-x-", secret="s"))
    assert isinstance(bad, m.Error) and bad.code == "bad_name"
    # the store keeps a salted hash, never the secret
    display, salt, digest = running.store.state.names["ann"]
    assert display == "Ann" and len(salt) == 16 and b"first" not in digest
    for c in (a, again, thief):
        await c.aclose()


async def test_a_wrong_token_acts_on_nothing(running):
    _holder, table = await seated_table(running.port, "tok")
    other = await Client.connect(running.port, "other")
    bad = await other.request(m.Resume(table=table, token="not-a-token", last_seq=0))
    assert isinstance(bad, m.Error) and bad.code == "bad_token"
    refused = await other.request(m.Act(table=table, action="draw"))
    assert isinstance(refused, m.Error) and refused.code == "no_seat"


async def test_reconnect_without_a_gap_and_with_one(running):
    c, table = await seated_table(running.port, "rec")
    token = c.tokens[table]
    assert isinstance(await c.request(m.StartGame(table=table)), m.Ok)
    # play a few of our turns, then vanish
    for _ in range(3):
        turn = await c.wait_for(lambda x: isinstance(x, (m.Turn, m.Snapshot)) and x.legal)
        await c.send(m.Act(table=table, action=turn.legal[0], id=900))
        await c.wait_for(lambda x: getattr(x, "id", None) == 900)
    seen = {x.seq: x.event for x in c.inbox if isinstance(x, m.TableEvent)}
    last = max(seen)
    await c.aclose()

    # 1. resume from the last seq seen: every later event, none twice, no gap
    back = await Client.connect(running.port, "rec")
    assert isinstance(
        await back.request(m.Resume(table=table, token=token, last_seq=last)), m.Seated
    )
    turn = await back.wait_for(lambda x: isinstance(x, m.Turn))
    caught = [x for x in back.inbox if isinstance(x, m.TableEvent)]
    assert [x.seq for x in caught] == list(range(last + 1, turn.seq + 1))

    # 2. resume from a seq that fell out of the ring: a snapshot instead
    table_obj = running.server.lobby.get(table)
    table_obj.out.ring.clear()  # as if far more than event_ring events had passed
    again = await Client.connect(running.port, "rec")
    resumed = await again.request(m.Resume(table=table, token=token, last_seq=1))
    assert isinstance(resumed, m.Seated)
    snap = await again.wait_for(lambda x: isinstance(x, (m.Snapshot, m.TableEvent)))
    assert isinstance(snap, m.Snapshot) and snap.seat == 0 and snap.view["viewer"] == 0
    assert snap.seq == table_obj.seq and snap.view["hand"] is not None


async def test_a_client_that_never_reads_is_dropped_and_the_table_plays_on(nursery):
    server = Server(TEST_CONFIG.replace(send_queue=16), MemoryStore())
    port = await nursery.start(server.serve)
    player = await Client.connect(port, "player")
    ok = await player.request(m.CreateTable(ruleset="kilodney", seats=4))
    table = ok.table
    await player.request(m.Join(table=table, seat=0))
    watcher = await Client.connect(port, "watcher")
    await watcher.request(m.Spectate(table=table))
    # ``lazy`` says hello, watches, and never reads again (with a small receive window).
    sock = trio.socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    await sock.connect(("127.0.0.1", port))
    lazy = trio.SocketStream(sock)
    await lazy.send_all(encode(m.Hello()) + encode(m.Spectate(table=table)))
    with trio.fail_after(5):
        while server.lobby.get(table).statistics().members < 3:
            await trio.sleep(0.01)
    await player.request(m.StartGame(table=table))
    async with trio.open_nursery() as inner:
        inner.start_soon(player.play, table)
        over = await watcher.wait_for(lambda x: isinstance(x, m.Snapshot) and x.state == "over")
    assert over.view["over"]
    # the table played its whole game; lazy was dropped on the way, the others were not
    names = sorted(c.name or "-" for c in server.connections)
    assert names == ["player", "watcher"]
    assert [c.name for c in server.lobby.get(table).spectators] == ["watcher"]
    await lazy.aclose()
    server.shutdown()


async def test_a_malformed_frame_closes_only_that_connection(running):
    good = await Client.connect(running.port, "good")
    bad = await trio.open_tcp_stream("127.0.0.1", running.port)
    await bad.send_all(encode(m.Hello()))
    await bad.send_all(struct.pack(">I", 3) + b"\xc1\xc1\xc1")  # 0xc1 is never valid msgpack
    received = bytearray()
    with trio.fail_after(5):
        while chunk := await bad.receive_some(4096):
            received += chunk
    messages = MsgpackDecoder().feed(bytes(received))
    assert isinstance(messages[0], m.Welcome)
    assert isinstance(messages[-1], m.Error) and messages[-1].code == "bad_frame"
    # an unknown type is answered, and the connection stays
    await good.send(m.Ping(id=1))
    raw = encode_map({"type": "frobnicate", "id": 5})
    await good.stream.send_all(raw)
    err = await good.wait_for(lambda x: getattr(x, "id", None) == 5)
    assert isinstance(err, m.Error) and err.code == "unknown_type"
    assert isinstance(await good.request(m.Ping()), m.Pong)


async def test_hello_must_come_first_and_versions_must_meet(running):
    """Each is refused with its code; the connection stays open (test_spec_replies)."""
    for first, code in (
        (m.Hello(versions=(99,)), "bad_version"),
        (m.ListTables(id=3), "need_hello"),
    ):
        s = await trio.open_tcp_stream("127.0.0.1", running.port)
        await s.send_all(encode(first))
        decoder = MsgpackDecoder()
        got: list = []
        with trio.fail_after(5):
            while not got:
                got = decoder.feed(await s.receive_some(4096))
        (err,) = got
        assert err.code == code
        assert code != "bad_version" or err.supported == m.VERSIONS


async def test_text_mode_is_usable_from_nc(running):
    s = await trio.open_tcp_stream("127.0.0.1", running.port)
    await s.send_all(b"name ann pw\nhelp join\ncreate abbott 4\ntables\nquit\n")
    data = bytearray()
    with trio.fail_after(5):
        while chunk := await s.receive_some(4096):
            data += chunk
    # a sentence over 80 columns goes on in lines indented by two spaces: one message a
    # line, those aside
    lines = [line for line in data.decode().splitlines() if not line.startswith("  ")]
    words = [line.split()[0] for line in lines]
    assert words[:2] == ["welcome", "named"], lines
    assert "help" in words and "ok" in words and "tables" in words and words[-1] == "goodbye"
    assert any("join [TABLE [SEAT]]" in line for line in lines)


async def test_a_gap_beyond_the_ring_gets_a_snapshot(nursery):
    server = Server(TEST_CONFIG.replace(event_ring=2), MemoryStore())
    port = await nursery.start(server.serve)
    c, table = await seated_table(port, "gap", ruleset="kilodney")
    token = c.tokens[table]
    await c.request(m.StartGame(table=table))
    turn = await c.wait_for(lambda x: isinstance(x, (m.Turn, m.Snapshot)) and x.legal)
    seen = turn.seq
    await c.aclose()  # gone before acting; then it acts from a fresh connection
    back = await Client.connect(port, "gap")
    await back.request(m.Resume(table=table, token=token, last_seq=seen))
    mine = await back.wait_for(lambda x: isinstance(x, (m.Turn, m.Snapshot)) and x.legal)
    await back.request(m.Act(table=table, action=mine.legal[0]))
    # three server bots answer before it is our turn again: more events than the ring holds
    again = await back.wait_for(lambda x: isinstance(x, m.Turn) and x.to_act == 0)
    missed_from = mine.seq
    assert again.seq - missed_from > 2
    await back.aclose()
    late = await Client.connect(port, "gap")
    await late.request(m.Resume(table=table, token=token, last_seq=missed_from))
    first = await late.wait_for(lambda x: isinstance(x, (m.TableEvent, m.Snapshot, m.Turn)))
    assert isinstance(first, m.Snapshot) and first.seq == again.seq and first.seat == 0
    server.shutdown()
