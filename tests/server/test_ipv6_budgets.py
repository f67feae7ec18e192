"""IPv6 peers are counted by their network (``ipv6_prefix``, 64 bits by default) in every
per-address limit and budget: one host of a /64 may use as many of its addresses as it
likes, and 40 of them opened 2,560 WebSockets when each address had its own budgets."""

from __future__ import annotations

import socket

import pytest
import trio
from e2e_client import TEST_CONFIG

from protocol import messages as m
from protocol.msgpack_codec import MsgpackDecoder, encode
from server.app import Server
from server.core.limits import address_key
from server.store.base import MemoryStore
from server.transport.proxied import HttpPolicy, client_address


def test_addresses_of_one_network_share_one_key_and_others_do_not() -> None:
    a = address_key("2001:db8:aa:bb:1:2:3:4")
    assert a == address_key("2001:db8:aa:bb:ffff::9") == "2001:db8:aa:bb::/64"
    assert address_key("2001:db8:aa:bc::1") != a
    # the prefix is a setting: 56 bits joins the next /64, 128 keeps each address
    assert address_key("2001:db8:aa:bc::1", 56) == address_key("2001:db8:aa:bb::1", 56)
    assert address_key("2001:db8:aa:bb::1", 128) != address_key("2001:db8:aa:bb::2", 128)
    # IPv4 is as it was; an IPv4-mapped peer (a dual-stack socket) is its IPv4 address
    assert address_key("10.0.0.7") == "10.0.0.7" == address_key("::ffff:10.0.0.7")
    # loopback and addresses the settings name one by one stay themselves
    assert address_key("::1") == "::1"
    assert address_key("2001:db8::5", keep={"2001:db8::5"}) == "2001:db8::5"


def test_a_proxys_forwarded_ipv6_client_is_counted_by_its_network() -> None:
    policy = HttpPolicy.of([], ["127.0.0.1"], 64)
    one = client_address("127.0.0.1", {"x-forwarded-for": "2001:db8:0:1::a"}, policy)
    two = client_address("127.0.0.1", {"x-forwarded-for": "2001:db8:0:1::b"}, policy)
    assert one == two == "2001:db8:0:1::/64"


def _own_ipv6() -> str | None:
    """A global (or unique local) IPv6 address of this machine, if it has one."""
    try:
        with open("/proc/net/if_inet6") as f:
            rows = [line.split() for line in f]
    except OSError:
        return None
    for row in rows:
        raw, scope = row[0], int(row[3], 16)
        if scope == 0:  # global scope: not loopback (0x10), not link-local (0x20)
            return socket.inet_ntop(socket.AF_INET6, bytes.fromhex(raw))
    return None


async def _hello(address: str, port: int) -> trio.SocketStream:
    stream = await trio.open_tcp_stream(address, port)
    await stream.send_all(encode(m.Hello(id=1)))
    return stream


async def _answered(stream: trio.SocketStream) -> bool:
    """Whether the server welcomes ``stream`` (False: it was closed at once)."""
    with trio.fail_after(5):
        data = b""
        while chunk := await stream.receive_some(4096):
            data += chunk
            if any(isinstance(x, m.Welcome) for x in MsgpackDecoder().feed(data)):
                return True
    return False


@pytest.mark.skipif(_own_ipv6() is None, reason="no IPv6 address but loopback here")
async def test_an_ipv6_peers_connections_are_counted_under_its_network(nursery) -> None:
    own = _own_ipv6()
    assert own is not None
    config = TEST_CONFIG.replace(host=own, trusted_addresses=(), connections_per_address=2)
    server = Server(config, MemoryStore())
    port = await nursery.start(server.serve)
    first, second = await _hello(own, port), await _hello(own, port)
    assert await _answered(first) and await _answered(second)
    assert {c.peer for c in server.connections} == {address_key(own)}
    assert address_key(own).endswith("/64")
    third = await _hello(own, port)
    assert not await _answered(third)
    for stream in (first, second, third):
        await stream.aclose()
    server.shutdown()
