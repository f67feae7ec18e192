"""A profile's words, composed once (``protocol.profile_lines``) for every client."""

from __future__ import annotations

import json
from pathlib import Path

from protocol import messages as m
from protocol.json_codec import decode
from protocol.payloads import PlayedGame, Rating, Tally
from protocol.profile_lines import game_line, lines_of, profile_lines

#: The reply the browser's unit test (web/tests/profile.test.js) is fed.
RECORDED = Path(__file__).parents[2] / "web" / "tests" / "recorded" / "profile.json"

RATING: Rating = {"family": "shedding", "rating": 1532, "mu": 26.1, "sigma": 7.9, "games": 1}
TALLY: Tally = {"ruleset": "switch", "played": 1, "won": 1}
GAME: PlayedGame = {"table": "4", "game": 2, "ruleset": "switch", "rated": True, "time": 1.0,
                    "seat": 1, "players": ["bot:search", "ann", None],
                    "scores": [9, 0, 4], "places": [2, 0, 1]}  # fmt: skip


def test_each_part_has_its_line_in_order() -> None:
    assert profile_lines(1, 1, (RATING,), (TALLY,), (GAME,)) == (
        "1 game finished · 1 chip",
        "shedding 1532 (1 rated game)",
        "switch: 1 won of 1",
        "table 4 game 2, switch, rated: bot 1 3rd, ann 1st, - 2nd",
    )


def test_a_newcomer_and_a_bot_without_chips() -> None:
    assert profile_lines(0, 0, (), (), ()) == ("no games finished · 0 chips", "not rated yet")
    assert profile_lines(12, None, (), (), ())[0] == "12 games finished"  # no chip account


def test_the_recent_games_are_the_last_lines() -> None:
    """A client puts a Replay beside the last ``len(recent)`` lines: they must be those."""
    lines = profile_lines(5, None, (RATING, RATING), (TALLY,), (GAME, GAME))
    assert lines[-2:] == (game_line(GAME),) * 2 and game_line(GAME) not in lines[:-2]


def test_a_reply_made_by_hand_gets_its_lines_composed() -> None:
    assert lines_of(m.Profile(name="ann", games=1)) == ("1 game finished", "not rated yet")
    assert lines_of(m.Profile(name="ann", lines=("as sent",))) == ("as sent",)


def test_the_browsers_recorded_reply_says_what_the_server_says_now() -> None:
    """The browser's test reads a recorded reply; were the words changed here and not
    there, it would test words no server sends."""
    text = RECORDED.read_text()
    assert isinstance(decode(text), m.Profile)  # a valid message, as sent
    reply = json.loads(text)
    fields = (reply["games"], reply["chips"], reply["ratings"], reply["tallies"], reply["recent"])
    assert list(profile_lines(*fields)) == reply["lines"]
