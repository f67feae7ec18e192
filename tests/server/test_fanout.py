"""Fan-out: every seat and spectator gets exactly its own view of each event, each
message is made (and encoded) once per distinct view, and each member gets one
delivery per action, which a connection writes at once when its socket has room.

The table runs in-process with recording members; the last test speaks to a real
server over sockets and compares the bytes each connection reads.
"""

from __future__ import annotations

import socket

import trio
import trio.testing
from e2e_client import TEST_CONFIG, Client
from support import Member, settle

from protocol import messages as m
from protocol.msgpack_codec import MsgpackDecoder, encode
from server.app import Server
from server.core.commands import Act, Join, Start, Watch
from server.core.config import ServerConfig
from server.store.base import MemoryStore, TableCreated
from server.tables.inbox import Inbox
from server.tables.table import Table
from server.transport.framing import SharedEncodings

CONFIG = ServerConfig(host="127.0.0.1", port=0, scrypt_n=2)
OPTIONS = {"turn_seconds": 0, "target": 500}  # no clock, no bots: every seat is a member


def test_a_message_shared_by_connections_is_encoded_once() -> None:
    cache = SharedEncodings(size=2)
    event = m.TableEvent(table="1", seq=3, event={"kind": "play", "seat": 0})
    first = cache.encode(event)
    assert first == encode(event) and cache.encode(event) is first  # the same bytes object
    twin = m.TableEvent(table="1", seq=3, event={"kind": "play", "seat": 0})
    assert cache.encode(twin) == first and cache.encode(twin) is not first  # by identity
    other = m.Turn(table="1", seq=3, seat=None, to_act=1)
    cache.encode(other)  # the cache holds two: ``event`` is gone, and encoded afresh
    again = cache.encode(event)
    assert again == first and again is not first


async def seats_and_fans(nursery: trio.Nursery) -> tuple[Table, list[Member], list[Member]]:
    """A switch table of four seated members and two spectators, not started."""
    store = MemoryStore()
    await store.commit(TableCreated(1, "switch", 4, dict(OPTIONS), "p0", {}))
    table = Table(1, "switch", 4, dict(OPTIONS), config=CONFIG, store=store, creator="p0")
    await nursery.start(table.run)
    seats = [Member(f"p{i}") for i in range(4)]
    fans = [Member("fan1"), Member("fan2")]
    for i, member in enumerate(seats):
        await table.submit(Join(member, i, i))
    for fan in fans:
        await table.submit(Watch(fan, 9))
    return table, seats, fans


async def test_each_seat_and_spectator_gets_its_view_once_per_action(nursery) -> None:
    table, seats, fans = await seats_and_fans(nursery)
    await table.submit(Start(seats[0], 10))
    await settle()
    tokens = [next(x.token for x in s.got if isinstance(x, m.Seated)) for s in seats]
    assert table.game is not None
    drawn = 0
    for req in range(100, 140):  # forty actions, drawing when it may (a private event)
        seat = table.game.to_act
        if seat is None:
            break
        legal = [str(a) for a in table.game.legal_actions(seat)]
        action = "draw" if "draw" in legal else legal[0]
        for member in [*seats, *fans]:
            member.batches.clear()
        await table.submit(Act(seats[seat], req, tokens[seat], action))
        await settle()
        # one delivery per member for the events and the turn, the actor's ok at its head
        assert all(len(s.batches) == 1 for s in [*seats, *fans])
        assert seats[seat].batches[0][0] == m.Ok(table="1", id=req)
        batches = {i: s.batches[0][(i == seat) :] for i, s in enumerate(seats)}
        spectators = fans[0].batches[0]
        assert fans[1].batches[0] == spectators
        assert all(a is b for a, b in zip(fans[1].batches[0], spectators, strict=True))
        numbered = [x for x in spectators if isinstance(x, m.TableEvent)]
        events = {n: t.event for n, t in table.out.ring if n in {x.seq for x in numbered}}
        assert [x.event for x in numbered] == [events[x.seq].present(None) for x in numbered]
        for i, batch in batches.items():
            *shown, turn = batch
            assert isinstance(turn, m.Turn) and turn.seat == i
            assert turn.view == table.game.view(i)
            assert [x.seq for x in shown] == [x.seq for x in numbered]
            for mine, public in zip(shown, numbered, strict=True):
                assert mine.event == events[mine.seq].present(i)  # exactly its own view
                # shown alike: the spectators' very message; shown more: one of its own
                assert (mine is public) is (i not in events[mine.seq].private)
                drawn += mine is not public
    assert drawn  # not vacuous: some event showed a seat more than the others


async def test_a_start_reaches_each_member_in_one_delivery(nursery) -> None:
    """The snapshot of a start heads the opening events and the turn that follow it:
    one delivery (one write) per member, as for an action."""
    table, seats, fans = await seats_and_fans(nursery)
    await settle()
    for member in [*seats, *fans]:
        member.batches.clear()
    await table.submit(Start(seats[0], 10))
    await settle()
    assert table.game is not None and table.game.opening_events
    assert seats[0].batches[0] == [m.Ok(table="1", id=10)]  # the start's own answer first
    for i, member in enumerate([*seats, *fans]):
        batches = member.batches[1:] if i == 0 else member.batches
        assert len(batches) == 1, i
        snapshot, *events, turn = batches[0]
        assert isinstance(snapshot, m.Snapshot) and snapshot.legal == ()
        assert [type(x) for x in events] == [m.TableEvent] * len(events) and events
        assert [x.seq for x in events] == list(range(snapshot.seq + 1, table.seq + 1))
        assert isinstance(turn, m.Turn) and turn.seq == table.seq
    assert fans[0].batches[0][0] is fans[1].batches[0][0]  # the spectators share one


async def test_spectators_read_the_same_bytes_and_a_seat_reads_its_own(nursery) -> None:
    """Over real sockets: two spectators read byte-identical streams (the events and
    turns everyone sees alike, encoded once), and none of them carries a seat's hand."""
    server = Server(TEST_CONFIG, MemoryStore())
    port = await nursery.start(server.serve)
    player = await Client.connect(port, "player")
    made = await player.request(m.CreateTable(ruleset="kilodney", seats=4))
    await player.request(m.Join(table=made.table, seat=0))
    raw: list[trio.SocketStream] = []
    for _ in range(2):
        sock = trio.socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
        await sock.connect(("127.0.0.1", port))
        stream = trio.SocketStream(sock)
        await stream.send_all(encode(m.Hello()) + encode(m.Spectate(table=made.table)))
        raw.append(stream)
    table = server.lobby.get(made.table)
    with trio.fail_after(5):
        while table.statistics().members < 3:
            await trio.sleep(0.01)
    await player.request(m.StartGame(table=made.table))
    async with trio.open_nursery() as inner:
        inner.start_soon(player.play, made.table)
        streams = [await read_until_over(stream) for stream in raw]
    for stream in raw:
        await stream.aclose()
    assert streams[0] == streams[1]
    messages = MsgpackDecoder().feed(streams[0])
    turns = [x for x in messages if isinstance(x, m.Turn)]
    assert len(turns) > 10 and all(t.seat is None and t.view["viewer"] is None for t in turns)
    assert any(isinstance(x, m.Turn) and x.view.get("hand") for x in player.inbox)
    assert not any(t.view.get("hand") for t in turns)  # a seat's hand is its own
    server.shutdown()


async def read_until_over(stream: trio.SocketStream) -> bytes:
    """Everything a spectator reads up to and including the game's final snapshot."""
    data, decoder, frames = bytearray(), MsgpackDecoder(), 0
    with trio.fail_after(30):
        while True:
            chunk = await stream.receive_some(1 << 16)
            assert chunk, "the server closed the connection"
            data += chunk
            for message in decoder.feed(chunk):
                frames += 1
                if isinstance(message, m.Snapshot) and message.state == "over":
                    return bytes(data[: frame_end(data, frames)])


def frame_end(data: bytearray, frames: int) -> int:
    """Where the ``frames``-th length-prefixed frame of ``data`` ends."""
    at = 0
    for _ in range(frames):
        at += 4 + int.from_bytes(data[at : at + 4], "big")
    return at


async def test_a_spectator_catching_up_gets_the_events_it_missed_in_one_delivery(nursery) -> None:
    store = MemoryStore()
    await store.commit(TableCreated(1, "switch", 2, dict(OPTIONS), "p0", {}))
    table = Table(1, "switch", 2, dict(OPTIONS), config=CONFIG, store=store, creator="p0")
    await nursery.start(table.run)
    seats = [Member("p0"), Member("p1")]
    for i, member in enumerate(seats):
        await table.submit(Join(member, i, i))
    await table.submit(Start(seats[0], 3))
    await settle()
    tokens = [next(x.token for x in s.got if isinstance(x, m.Seated)) for s in seats]
    assert table.game is not None
    since = table.seq
    for req in range(10, 14):
        seat = table.game.to_act
        assert seat is not None
        action = str(table.game.legal_actions(seat)[0])
        await table.submit(Act(seats[seat], req, tokens[seat], action))
        await settle()
    late = Member("late")
    await table.submit(Watch(late, 20, since))
    await settle()
    assert len(late.batches) == 1  # one write: the reply, what it missed, its turn
    reply, *events, turn = late.batches[0]
    assert reply == m.Ok(table="1", id=20)
    assert [x.seq for x in events] == list(range(since + 1, table.seq + 1))
    ring = dict(table.out.ring)
    assert all(x.event == ring[x.seq].event.present(None) for x in events)
    assert isinstance(turn, m.Turn) and turn.seat is None and turn.seq == table.seq


async def test_a_socket_that_fills_gets_the_rest_in_order_from_the_writer(nursery) -> None:
    """A spectator that reads nothing for a whole game, behind small socket buffers: the
    table's writes fill its socket, the rest waits in its queue (``send_queue`` is large
    enough here) for the writer task, and what it reads at last is, byte for byte, what
    a spectator that kept reading got: every frame whole and in order."""
    server = Server(TEST_CONFIG.replace(send_queue=100_000), MemoryStore())
    port = await nursery.start(server.serve)
    player = await Client.connect(port, "player")
    made = await player.request(m.CreateTable(ruleset="kilodney", seats=4))
    await player.request(m.Join(table=made.table, seat=0))
    streams = []
    for name in ("keen", "late"):
        sock = trio.socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        await sock.connect(("127.0.0.1", port))
        stream = trio.SocketStream(sock)
        await stream.send_all(encode(m.Hello()) + encode(m.ClaimName(name=name, secret="pw")))
        await stream.send_all(encode(m.Spectate(table=made.table)))
        streams.append(stream)
    table = server.lobby.get(made.table)
    with trio.fail_after(5):
        while table.statistics().members < 3:
            await trio.sleep(0.01)
    late = next(c for c in server.connections if c.name == "late")
    late.outbox.sink.stream.socket.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    await player.request(m.StartGame(table=made.table))
    async with trio.open_nursery() as inner:
        inner.start_soon(player.play, made.table)
        keen = await read_until_over(streams[0])
    late_bytes = await read_until_over(streams[1])  # only now: the game is over
    assert len(late_bytes) > 20 * 4096  # far more than both socket buffers held
    # from the table's first snapshot on (before it, each was told its own name)
    assert from_the_table(late_bytes) == from_the_table(keen)
    for stream in streams:
        await stream.aclose()
    server.shutdown()


def from_the_table(data: bytes) -> list[bytes]:
    """The frames of ``data`` from the first snapshot on, but for spectators' comings
    (each is told of those after him, so the two spectators are told different ones)."""
    frames, at = [], 0
    while at < len(data):
        end = at + 4 + int.from_bytes(data[at : at + 4], "big")
        frames.append(data[at:end])
        at = end
    kinds = [MsgpackDecoder().feed(frame)[0] for frame in frames]
    first = next(i for i, x in enumerate(kinds) if isinstance(x, m.Snapshot))
    return [f for f, x in zip(frames[first:], kinds[first:], strict=True)
            if not isinstance(x, m.Watcher)]  # fmt: skip


async def test_a_command_queued_with_room_costs_its_sender_no_task_switch() -> None:
    """A connection's reader queues an action on its table and goes on to its next read
    without yielding (the read waits anyway); only a full inbox makes it wait, and a
    closed table still answers ``no_table``."""
    inbox = Inbox(7, 2, lambda command: None)
    ann = Member("ann")
    with trio.testing.assert_no_checkpoints():
        await inbox.submit(Start(ann, 1))
        await inbox.submit(Start(ann, 2))
    assert inbox.queued() == 2
    async with trio.open_nursery() as nursery:
        nursery.start_soon(inbox.submit, Start(ann, 3))  # full: it waits for room
        await trio.testing.wait_all_tasks_blocked()
        assert inbox.queued() == 2
        assert await inbox.next(trio.current_time() + 1) is not None
    assert inbox.queued() == 2
    inbox.refuse_the_rest()
    with trio.testing.assert_no_checkpoints():
        await inbox.submit(Start(ann, 4))
    assert [x.code for x in ann.got if isinstance(x, m.Error)] == ["no_table"] * 3
