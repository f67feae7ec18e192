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
    assert listed == (  # over 80 columns: broken between words, the rest indented
        "tournaments #4 2 · kilodney, swiss, playing · round 2 of 3 · 6 players · host\n"
        "  ann · enter 2 to play\n"
    )
    shown = m.Tournament(
        tournament=2,
        summary=SUMMARY,
        standings=(STANDING, {**STANDING, "rank": 2, "name": "cy", "paused": True}),
        tables=({"index": 0, "table": "9", "players": ["bob", "cy", "bot"], "over": False},),
        tiebreaks=({"name": "points", "how": "the share of each table beaten"},),
    )
    lines = [line for line in codec.encode(shown).decode().splitlines() if line[0] != " "]
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


def test_your_table_is_a_sentence_and_the_current_table() -> None:
    """Told his table, a person reads where he sits; bare table commands then mean it."""
    codec = ServerTextCodec()
    told = m.YourTable(tournament=2, round=3, table="7", seat=1)
    assert codec.encode(told).decode() == (
        "your table for round 3 is 7 (seat 2): look (or join) sits you there and shows it\n"
    )
    assert codec.table == "7"
    final = m.YourTable(tournament=2, round=4, table="8", seat=0, final=True)
    assert codec.encode(final).decode().startswith("your table for the final is 8 (seat 1)")
    assert parse_line(format_line(final)) == final


def test_a_record_asked_for_is_one_json_line_whole() -> None:
    """``tournament 2 record`` at ``nc``: the record is not broken into sentences (nor at
    80 columns), so the line can be saved as it is."""
    codec = ServerTextCodec()
    record = {"kind": "tournament", "ended": "all rounds played", "rounds": [], "note": "x" * 90}
    shown = m.Tournament(tournament=2, summary=SUMMARY, record=record, id=5)
    (line,) = codec.encode(shown).decode().splitlines()
    assert line.startswith("tournament #5 2 {") and '"ended":"all rounds played"' in line
    assert parse_line(line) == shown
