"""Text mode's sentences for a tournament: the list, the standings with how they are
ranked, and the round's tables with the command that sits you there."""

from __future__ import annotations

from protocol import messages as m
from protocol.text_codec import ServerTextCodec, format_line, parse_line

SUMMARY = {"tournament": 2, "format": "swiss", "ruleset": "kilodney", "host": "ann",
           "players": 6, "round": 2, "rounds": 3, "state": "playing"}  # fmt: skip
STANDING = {"rank": 1, "name": "bob", "points": 1.667, "exact": "5/3", "opponents": 0.9,
            "firsts": 1, "score": 40, "games": 2, "paused": False, "withdrawn": False}  # fmt: skip


def test_the_sentences_of_a_tournament() -> None:
    codec = ServerTextCodec()
    listed = codec.encode(m.Tournaments(tournaments=(SUMMARY,), id=4)).decode()
    assert listed == (
        "tournaments #4 2 · kilodney, swiss, playing · round 2 of 3 · 6 players · host\n"
        "  ann · enter 2 to play\n"  # text mode wraps at 80 columns, between words
    )
    shown = m.Tournament(
        tournament=2,
        summary=SUMMARY,
        standings=(STANDING, {**STANDING, "rank": 2, "name": "cy", "paused": True}),
        tables=({"index": 0, "table": "9", "players": ["bob", "cy", "bot"], "over": False},),
        tiebreaks=({"name": "points", "how": "the share of each table beaten"},),
    )
    lines = codec.encode(shown).decode().splitlines()
    assert lines[1] == "tournament 2 · 1. bob 5/3 points · opponents 0.9 · firsts 1 · score 40"
    assert lines[2].startswith("tournament 2 · 2. cy (paused) 5/3 points")
    assert lines[3] == "tournament 2 · ranked by points: the share of each table beaten"
    assert lines[4] == "tournament 2 · table 9: bob, cy, bot · join 9"


def test_the_json_lines_read_back() -> None:
    for message in (
        m.Tournaments(tournaments=(SUMMARY,)),
        m.Tournament(tournament=2, summary=SUMMARY, standings=(STANDING,), id=3),
    ):
        assert parse_line(format_line(message)) == message


def test_one_round_and_one_player_are_counted_in_the_singular() -> None:
    one = {**SUMMARY, "state": "waiting", "round": 0, "rounds": 1, "players": 1}
    listed = ServerTextCodec().encode(m.Tournaments(tournaments=(one,))).decode()
    assert " · 1 round · 1 player · " in " ".join(listed.split()), listed


def test_one_point_is_a_point() -> None:
    one = m.Tournament(tournament=2, summary=SUMMARY, standings=({**STANDING, "exact": "1"},))
    lines = ServerTextCodec().encode(one).decode().splitlines()
    assert lines[1].startswith("tournament 2 · 1. bob 1 point · "), lines[1]
