"""`switchboard play` with no address: the LAN's servers beside playing offline."""

from __future__ import annotations

import argparse

from client.net.discovery import FoundServer, pick_server
from switchboard import play

DEN = FoundServer("den", "10.0.0.2", 7373, (1,), 2)
FUTURE = FoundServer("future", "10.0.0.3", 7373, (9,), 0)


def answers(*lines: str):
    it = iter(lines)
    return lambda _prompt: next(it)


def test_picking_a_server_gives_its_address_and_0_plays_offline(capsys):
    assert play.look_on_the_lan(lambda: [DEN], answers("1")) == ("10.0.0.2", 7373)
    assert play.look_on_the_lan(lambda: [DEN], answers("0")) is None
    out = capsys.readouterr().out
    assert "1  den  10.0.0.2:7373  2 tables" in out and "0  play offline against bots" in out


def test_enter_picks_the_marked_server_found(capsys):
    """Before: Enter played offline even when a server was found."""
    prompts: list[str] = []

    def enter(prompt: str) -> str:
        prompts.append(prompt)
        return ""

    assert play.look_on_the_lan(lambda: [DEN], enter) == ("10.0.0.2", 7373)
    assert "* 1  den" in capsys.readouterr().out and "Enter: den" in prompts[0]
    # a server we cannot join is never the one Enter picks
    assert pick_server([FUTURE, DEN], enter, lambda _line: None) is DEN
    assert pick_server([FUTURE], enter, lambda _line: None) is None
    assert "Enter: offline" in prompts[-1]


def test_nothing_found_plays_offline_without_asking(capsys):
    def never(_prompt: str) -> str:
        raise AssertionError("asked with nothing to choose")

    assert play.look_on_the_lan(lambda: [], never) is None
    assert "No servers on the LAN" in capsys.readouterr().out


def test_a_server_of_a_newer_protocol_is_listed_but_cannot_be_picked():
    said: list[str] = []
    assert pick_server([DEN, FUTURE], answers("2", "1"), said.append) is DEN
    assert any("future" in line and "update switchboard" in line for line in said)


def test_list_prints_one_tab_separated_line_per_server_and_fails_when_none(capsys):
    assert play.list_servers([DEN, FUTURE]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [
        "10.0.0.2:7373\tden\ttables=2\tversions=1",
        "10.0.0.3:7373\tfuture\ttables=0\tversions=9",
    ]
    assert play.list_servers([]) == 1
    assert "no servers found" in capsys.readouterr().err


def test_play_takes_list_and_offline():
    parser = argparse.ArgumentParser()
    play.add_arguments(parser)
    args = parser.parse_args(["--list"])
    assert args.list and not args.offline
    assert parser.parse_args(["--offline"]).offline
