"""The LAN advertisement: a real multicast DNS advertise/browse pair on loopback, and
which servers advertise at all."""

from __future__ import annotations

import argparse
import contextlib
import socket
import struct
import uuid
from collections.abc import Callable

import pytest
import trio

from client.net.discovery import FoundServer, browse
from server.app import Server, advertiser
from server.core.config import ServerConfig
from server.discovery.addresses import lan_addresses
from server.discovery.mdns import Advertiser, advertised_addresses
from switchboard import serve

MDNS_GROUP = "224.0.0.251"


def loopback_multicast() -> bool:
    """Whether a multicast datagram sent on the loopback interface comes back (it does on
    Linux, even where ``lo`` lacks the MULTICAST flag; a sandbox may forbid it)."""
    with contextlib.ExitStack() as stack:
        rx = stack.enter_context(socket.socket(socket.AF_INET, socket.SOCK_DGRAM))
        tx = stack.enter_context(socket.socket(socket.AF_INET, socket.SOCK_DGRAM))
        try:
            rx.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            rx.bind(("", 0))
            port = rx.getsockname()[1]
            membership = socket.inet_aton(MDNS_GROUP) + socket.inet_aton("127.0.0.1")
            rx.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP, membership)
            tx.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF, socket.inet_aton("127.0.0.1"))
            tx.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_LOOP, struct.pack("b", 1))
            tx.sendto(b"switchboard?", (MDNS_GROUP, port))
            rx.settimeout(1.0)
            return rx.recv(64) == b"switchboard?"
        except OSError:
            return False


needs_multicast = pytest.mark.skipif(
    not loopback_multicast(), reason="this machine does not loop multicast back on 127.0.0.1"
)


async def browse_loopback(name: str) -> list[FoundServer]:
    """The servers called ``name`` found on loopback (other test runs on this machine
    advertise there too: multicast on loopback reaches every process)."""
    found = await trio.to_thread.run_sync(lambda: browse(1.5, interfaces=["127.0.0.1"]))
    return [s for s in found if s.name == name]


async def browse_until(name: str, wanted: Callable[[list[FoundServer]], bool]) -> list[FoundServer]:
    """Browse again (up to 5 times) until what is found for ``name`` is ``wanted``: on a
    loaded machine an answer or a TXT update may miss one browse's window."""
    for _ in range(5):
        found = await browse_loopback(name)
        if wanted(found):
            break
    return found


@needs_multicast
async def test_a_browse_finds_the_advertised_server_and_its_tables_and_not_after_it_stops():
    open_tables = [2]
    name = f"Dave's den {uuid.uuid4().hex[:8]}"
    ad = Advertiser(
        name,
        7399,
        ["127.0.0.1"],
        lambda: open_tables[0],
        interfaces=["127.0.0.1"],
        refresh_seconds=0.1,
    )
    async with trio.open_nursery() as nursery:
        nursery.start_soon(ad.run)
        with trio.fail_after(15):
            await ad.registered.wait()
        found = await browse_until(name, lambda f: bool(f))
        assert [(s.name, s.host, s.port, s.versions, s.tables) for s in found] == [
            (name, "127.0.0.1", 7399, (1,), 2)
        ]
        open_tables[0] = 3  # a table opened: the TXT record follows
        await trio.sleep(0.5)
        updated = await browse_until(name, lambda f: [s.tables for s in f] == [3])
        assert [s.tables for s in updated] == [3]
        nursery.cancel_scope.cancel()
    assert (
        await browse_until(name, lambda f: not f) == []
    )  # withdrawn: its goodbye emptied the caches


def test_a_server_advertises_only_where_another_machine_could_connect():
    assert advertised_addresses("127.0.0.1") == []
    assert advertised_addresses("localhost") == []
    assert advertised_addresses("192.168.1.20") == ["192.168.1.20"]
    assert advertised_addresses(None) == advertised_addresses("0.0.0.0") == lan_addresses()


def test_the_config_switches_the_advertisement_off(monkeypatch):
    monkeypatch.setattr("server.app.advertised_addresses", lambda host: ["192.168.1.20"])
    lobby = argparse.Namespace(statistics=lambda: {"tables": 4})
    on = advertiser(ServerConfig(server_name="den"), 7373, lobby)  # type: ignore[arg-type]
    assert on is not None and (on.name, on.port, on.tables()) == ("den", 7373, 4)
    assert advertiser(ServerConfig(discovery=False), 7373, lobby) is None  # type: ignore[arg-type]


async def test_a_loopback_server_starts_no_advertisement(nursery):
    server = Server(ServerConfig(host="127.0.0.1", port=0))
    await nursery.start(server.serve)
    assert server.advertiser is None
    server.shutdown()


def test_serve_flags_name_the_server_and_turn_discovery_off(tmp_path):
    parser = argparse.ArgumentParser()
    serve.add_arguments(parser)
    args = parser.parse_args(["--name", "den", "--no-discovery", "--data", str(tmp_path)])
    settings = serve.load_settings(args)
    assert (settings["server_name"], settings["discovery"]) == ("den", False)
    assert ServerConfig.from_mapping(settings).discovery is False
    assert "discovery" not in serve.load_settings(parser.parse_args(["--data", str(tmp_path)]))


@needs_multicast
async def test_two_servers_of_one_name_host_and_port_are_listed_apart():
    """Two machines that kept the default host name, each serving on the default port:
    each advertisement's records are its own, so a browse lists two servers, each with
    its own address and its own table count (before, they shared one host record and a
    browse showed one server with the other's count)."""
    name = f"Switchboard on pi {uuid.uuid4().hex[:8]}"
    first = Advertiser(name, 7373, ["127.0.0.1"], lambda: 1, interfaces=["127.0.0.1"])
    second = Advertiser(name, 7373, ["127.0.0.2"], lambda: 5, interfaces=["127.0.0.1"])
    assert first.id != second.id and first.label != second.label
    async with trio.open_nursery() as nursery:
        nursery.start_soon(first.run)
        nursery.start_soon(second.run)
        with trio.fail_after(20):
            await first.registered.wait()
            await second.registered.wait()
        found = await browse_until(name, lambda f: len(f) == 2)
        assert sorted((s.host, s.port, s.tables) for s in found) == [
            ("127.0.0.1", 7373, 1),
            ("127.0.0.2", 7373, 5),
        ]
        nursery.cancel_scope.cancel()
