"""`switchboard serve` says which addresses friends on the LAN can type."""

from __future__ import annotations

import ipaddress

from server import app
from server.discovery import addresses
from server.discovery.addresses import Interface, lan_addresses, ranked, reachable


def test_the_machines_lan_addresses_are_reachable_ipv4_addresses() -> None:
    found = lan_addresses()
    assert len(found) == len(set(found))
    for address in found:
        assert ipaddress.ip_address(address).version == 4
        assert reachable(address)


def test_reachable_leaves_out_what_no_friend_can_reach() -> None:
    assert not reachable("127.0.0.1") and not reachable("169.254.1.1")
    assert not reachable("0.0.0.0") and not reachable("localhost")
    assert reachable("192.168.1.5") and reachable("10.0.0.2") and reachable("gamebox.lan")


def test_the_invitation_names_every_lan_address_when_listening_everywhere(monkeypatch) -> None:
    monkeypatch.setattr(addresses, "lan_addresses", lambda: ["192.0.2.7", "198.51.100.3"])
    lines = addresses.invitations(None, 7373)
    assert lines == [
        "friends connect with: switchboard play 192.0.2.7:7373",
        "        or a browser: http://192.0.2.7:7373/",
        "        or text mode: nc 192.0.2.7 7373, then Enter",
        "     other addresses: 198.51.100.3",
    ]
    assert addresses.invitations("0.0.0.0", 7373) == lines
    assert addresses.invitations("169.254.1.1", 7373) == []  # link-local: nobody can type it
    assert addresses.invitations("192.0.2.9", 80)[0] == (
        "friends connect with: switchboard play 192.0.2.9:80"
    )
    assert app.invitations is addresses.invitations  # what the server logs when it starts


def test_on_loopback_the_invitation_is_the_address_that_works_on_this_machine(
    monkeypatch,
) -> None:
    """``--host 127.0.0.1``: nobody else can come, but the host opens it here."""
    lines = addresses.invitations("127.0.0.1", 7373)
    assert lines == [
        "on this machine only: switchboard play 127.0.0.1:7373",
        "        or a browser: http://127.0.0.1:7373/",
        "        or text mode: nc 127.0.0.1 7373, then Enter",
    ]
    assert addresses.invitations("::1", 7373)[1] == "        or a browser: http://[::1]:7373/"
    monkeypatch.setattr(addresses, "lan_addresses", lambda: [])  # every interface, no LAN
    assert addresses.invitations(None, 7373) == lines


def test_the_line_a_host_reads_out_fits_80_columns_on_a_human_console() -> None:
    """The widest IPv4 address and port, behind the human console's time and a level:
    no line wraps, so none wraps inside the address."""
    import logging

    from server.core.logfmt import HumanFormatter

    widest = addresses.invitations("255.255.255.254", 65535)
    widest += addresses.invitations("127.255.255.254", 65535)
    formatter = HumanFormatter()
    for line in widest:
        record = logging.LogRecord("switchboard.server", logging.INFO, "", 0, "%s", (line,), None)
        assert len(formatter.format(record)) < 80, line
        assert len("warning: " + line) < 80


# ------------------------------------------------------ the address shown first
#: a laptop at a game night: Wi-Fi, Docker's bridges, a VPN, a VM network
LAPTOP = [
    Interface("lo", "127.0.0.1"),
    Interface("wlp2s0", "192.168.178.120"),
    Interface("docker0", "172.17.0.1"),
    Interface("br-5e1f0c9a", "172.18.0.1"),
    Interface("wg0", "10.8.0.3"),
    Interface("virbr0", "192.168.122.1"),
    Interface("veth12ab", "169.254.10.2"),
]


def test_the_default_routes_interface_comes_first_not_the_lowest_address() -> None:
    """Docker's bridge (172.17.0.1) and a VPN (10.8.0.3) are numerically lower than the
    Wi-Fi's address; the Wi-Fi carries the default route, so the QR code is its URL."""
    found = ranked(LAPTOP, "wlp2s0", "192.168.178.120")
    assert found[0] == "192.168.178.120"
    assert set(found) == {"192.168.178.120", "172.17.0.1", "172.18.0.1", "10.8.0.3",
                          "192.168.122.1"}  # fmt: skip
    assert found[1:] == ["10.8.0.3", "172.17.0.1", "172.18.0.1", "192.168.122.1"]
    wired = [*LAPTOP, Interface("enp0s31f6", "10.0.0.7")]
    assert ranked(wired, "enp0s31f6")[0] == "10.0.0.7"  # the route, not the first private


def test_without_a_route_the_first_private_lan_address_off_the_bridges() -> None:
    assert ranked(LAPTOP)[0] == "192.168.178.120"  # no route table (not Linux), no probe
    assert ranked(LAPTOP, None, "192.168.178.120")[0] == "192.168.178.120"  # the probe's
    # a full-tunnel VPN carries the default route: no friend in the room reaches it
    assert ranked(LAPTOP, "wg0", "10.8.0.3")[0] == "192.168.178.120"
    only_bridges = [Interface("docker0", "172.17.0.1"), Interface("lo", "127.0.0.1")]
    assert ranked(only_bridges) == ["172.17.0.1"]  # better than nothing
    assert ranked([Interface("lo", "127.0.0.1")]) == []
    public = [Interface("eth0", "203.0.113.9"), Interface("docker0", "172.17.0.1")]
    assert ranked(public)[0] == "203.0.113.9"  # a server with a public address


def test_lan_addresses_ask_the_route_table_and_send_nothing(monkeypatch) -> None:
    monkeypatch.setattr(addresses, "_from_interfaces", lambda: LAPTOP)
    monkeypatch.setattr(addresses, "_default_route", lambda: ("wlp2s0", "192.168.178.120"))
    assert lan_addresses()[0] == "192.168.178.120"
    route, source = addresses._default_route()  # the real one: a file and a UDP connect
    assert route is None or isinstance(route, str)
    assert source is None or reachable(source) or source.startswith("127.")


def test_the_route_table_names_the_default_routes_interface() -> None:
    table = (
        "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n"
        "docker0\t000011AC\t00000000\t0001\t0\t0\t0\t0000FFFF\t0\t0\t0\n"
        "wlp2s0\t00000000\t01B2A8C0\t0003\t0\t0\t600\t00000000\t0\t0\t0\n"
        "wg0\t00000000\t00000000\t0000\t0\t0\t50\t00000000\t0\t0\t0\n"  # down
    )
    assert addresses.default_route_interface(table) == "wlp2s0"
    assert addresses.default_route_interface(table.splitlines()[0]) is None
    assert addresses.default_route_interface("") is None
