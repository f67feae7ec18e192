"""`switchboard serve` says which addresses friends on the LAN can type."""

from __future__ import annotations

import ipaddress

from server import app
from server.discovery import addresses
from server.discovery.addresses import lan_addresses, reachable


def test_the_machines_lan_addresses_are_reachable_ipv4_addresses() -> None:
    found = lan_addresses()
    assert found == sorted(set(found), key=ipaddress.ip_address)
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
        "friends connect with: switchboard play 198.51.100.3:7373",
        "        or a browser: http://198.51.100.3:7373/",
        "        or text mode: nc 198.51.100.3 7373, then Enter",
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
