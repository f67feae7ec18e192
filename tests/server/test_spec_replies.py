"""The spec's promises about replies and the handshake, held against a real server:
every request gets one reply carrying its id (quit, spectate with ``last_seq``), a
refused hello leaves the connection usable for a few tries, a second hello is
``not_allowed``, and an error says nothing it has nothing to say (no empty
``supported``)."""

from __future__ import annotations

import trio
from e2e_client import TEST_CONFIG, Client

from protocol import messages as m
from protocol.msgpack_codec import MsgpackDecoder, encode, encode_map


async def _raw(port: int) -> tuple[trio.SocketStream, MsgpackDecoder]:
    return await trio.open_tcp_stream("127.0.0.1", port), MsgpackDecoder()


async def _read(stream: trio.SocketStream, decoder: MsgpackDecoder, n: int) -> list:
    """The next ``n`` messages, as the maps on the wire (to see which fields are sent)."""
    out: list = []
    with trio.fail_after(10):
        while len(out) < n:
            data = await stream.receive_some(65536)
            assert data, f"closed after {out}"
            out.extend(decoder.feed(data))
    return out


async def test_quit_is_answered_by_a_goodbye_with_its_id(running):
    c = await Client.connect(running.port)
    bye = await c.request(m.Quit())
    assert isinstance(bye, m.Goodbye) and bye.code == "quit"


async def test_a_bad_version_leaves_the_connection_usable(running):
    c = await Client.connect(running.port, "ver")  # proves the port works
    stream, decoder = await _raw(running.port)
    await stream.send_all(encode(m.Hello(versions=(9,), id=1)))
    (refused,) = await _read(stream, decoder, 1)
    assert refused.code == "bad_version" and refused.supported == (1,) and refused.id == 1
    await stream.send_all(encode(m.Hello(versions=(1, 9), id=2)))
    (welcome,) = await _read(stream, decoder, 1)
    assert welcome == m.Welcome(version=1, server="switchboard", id=2)
    await c.aclose()


async def test_need_hello_leaves_the_connection_usable(running):
    stream, decoder = await _raw(running.port)
    await stream.send_all(encode(m.ListTables(id=1)))
    (refused,) = await _read(stream, decoder, 1)
    assert refused.code == "need_hello" and refused.id == 1
    await stream.send_all(encode(m.Hello(id=2)))
    (welcome,) = await _read(stream, decoder, 1)
    assert isinstance(welcome, m.Welcome) and welcome.id == 2


async def test_a_hello_with_too_many_versions_is_a_clear_error(running):
    stream, decoder = await _raw(running.port)
    frame = {"type": "hello", "versions": list(range(1, 34)), "id": 1}
    await stream.send_all(encode_map(frame))
    (refused,) = await _read(stream, decoder, 1)
    assert refused.code == "bad_message" and refused.id == 1
    assert "0..32 items" in refused.text, refused.text
    await stream.send_all(encode(m.Hello(id=2)))
    (welcome,) = await _read(stream, decoder, 1)
    assert isinstance(welcome, m.Welcome)


async def test_handshake_errors_are_bounded_then_goodbye(running):
    stream, decoder = await _raw(running.port)
    tries = TEST_CONFIG.handshake_errors
    for i in range(tries):
        await stream.send_all(encode(m.Hello(versions=(9,), id=i)))
    replies = await _read(stream, decoder, tries + 1)
    assert [r.code for r in replies] == ["bad_version"] * tries + ["need_hello"]
    assert isinstance(replies[-1], m.Goodbye)
    with trio.fail_after(10):
        assert await stream.receive_some(100) == b""  # closed


async def test_a_second_hello_is_not_allowed(running):
    c = await Client.connect(running.port)
    again = await c.request(m.Hello())
    assert isinstance(again, m.Error) and again.code == "not_allowed"
    await c.request(m.ClaimName(name="twice", secret="pw"))
    again = await c.request(m.Hello())
    assert isinstance(again, m.Error) and again.code == "not_allowed"


async def test_an_error_sends_no_empty_supported(running):
    stream, _ = await _raw(running.port)
    await stream.send_all(encode(m.Hello(id=1)) + encode(m.Join(table="77", id=2)))
    raw = MsgpackDecoder()
    with trio.fail_after(10):
        data = b""
        while b"need_name" not in data:
            data += await stream.receive_some(65536)
    assert b"supported" not in data
    assert raw.feed(data)[-1].code == "need_name"
    assert m.Error(code="bad_version", supported=(1,)).to_map()["supported"] == [1]
    assert "supported" not in m.Error(code="no_table").to_map()
    assert m.from_map({"type": "error", "code": "x", "supported": []}).supported == ()


async def test_spectate_from_the_ring_is_answered_with_its_id(running):
    ann = await Client.connect(running.port, "watched")
    created = await ann.request(m.CreateTable(ruleset="switch", seats=2))
    table = created.table
    await ann.request(m.Join(table=table, seat=0))
    await ann.request(m.StartGame(table=table))
    await ann.wait_for(lambda x: isinstance(x, m.Turn))
    seen = ann.last_seq[table]
    watcher = await Client.connect(running.port)
    reply = await watcher.request(m.Spectate(table=table, last_seq=seen - 1))
    assert reply == m.Ok(table=table, id=reply.id)
    after = await watcher.next()
    assert isinstance(after, (m.TableEvent, m.Turn)) and after.seq >= seen - 1
