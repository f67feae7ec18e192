"""The client's lines for a profile, a history page and a leaderboard, and the lobby's
rating beside each name."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from client.terminal.players import describe, with_rating
from protocol import messages as m
from protocol.json_codec import decode

#: The reply the browser's unit test is fed (web/tests/profile.test.js).
RECORDED = Path(__file__).parents[2] / "web" / "tests" / "recorded" / "profile.json"

GAME = {"table": "4", "game": 2, "ruleset": "switch", "rated": True, "time": 1.0, "seat": 0,
        "players": ["ann", "bot:search"], "scores": [0, 12], "places": [1, 0]}  # fmt: skip


def test_a_profile_reads_as_sentences() -> None:
    profile = m.Profile(
        name="ann",
        games=3,
        chips=950,
        ratings=({"family": "shedding", "rating": 1532, "mu": 26.1, "sigma": 7.9, "games": 3},),
        tallies=({"ruleset": "switch", "played": 3, "won": 2},),
        recent=(GAME,),
    )
    assert describe(profile) == [
        "ann:",
        "  3 games finished · 950 chips",
        "  shedding 1532 (3 rated games)",
        "  switch: 2 won of 3",
        "  table 4 game 2, switch, rated: ann 2nd, bot 2 1st",
    ]
    assert describe(m.Profile(name="bob"))[1:] == ["  no games finished", "  not rated yet"]


def test_the_terminal_shows_the_lines_the_browser_shows() -> None:
    """The browser's unit test (web/tests/profile.test.js) is fed this recorded reply and
    shows the name, then its lines: the terminal shows the same, indented under the name."""
    reply = decode(RECORDED.read_text())
    assert isinstance(reply, m.Profile)
    lines = json.loads(RECORDED.read_text())["lines"]
    assert describe(reply) == ["ann:"] + [f"  {line}" for line in lines]
    assert describe(replace(reply, lines=("the server's words",)))[1:] == ["  the server's words"]


def test_a_history_page_says_how_to_go_on() -> None:
    page = m.History(name="ann", games=(GAME,), start=20, next=21, total=30)
    assert describe(page) == [
        "ann: games 21-21 of 30",
        "  table 4 game 2, switch, rated: ann 2nd, bot 2 1st",
        "  more: history ann 21",
    ]


def test_a_leaderboard_and_the_lobby() -> None:
    top = m.Top(family="kilodney", players=())
    assert describe(top)[0] == "top kilodney: nobody is rated yet"
    assert "two or more people" in describe(top)[1]  # when a game is rated, said where it shows
    one = {"place": 1, "name": "bot:search", "rating": 1540, "games": 1}
    assert describe(m.Top(family="abbott", players=(one,)))[1] == "  1. search (bot) 1540 (1 game)"
    assert describe(m.Profile(name="cy", games=1))[1] == "  1 game finished"
    assert with_rating("ann", 1532) == "ann 1532" and with_rating("ann", None) == "ann"
