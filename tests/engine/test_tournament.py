"""Worked examples of the tournament's pure part: sizes, points, tiebreaks, late entry."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from engine.tournament import GameResult, SeatingError, SeatRule, game_points, plan_tables
from engine.tournament import standings as standings_of
from engine.tournament.swiss import Options, Player, seat_round


@pytest.mark.parametrize(
    ("people", "rule", "seats", "bots"),
    [
        (16, SeatRule.between(2, 4), (4, 4, 4, 4), (0, 0, 0, 0)),
        (13, SeatRule.between(2, 4), (4, 3, 3, 3), (0, 0, 0, 0)),
        (9, SeatRule.between(4, 9, preferred=4), (5, 4), (0, 0)),
        (7, SeatRule.only([2, 4]), (4, 4), (0, 1)),
        (11, SeatRule.only([4]), (4, 4, 4), (0, 0, 1)),
        (10, SeatRule.only([4], max_bots=1), (4, 4, 4), (0, 1, 1)),
        (3, SeatRule.between(4, 9), (4,), (1,)),
        (1, SeatRule.between(2, 4), (2,), (1,)),
    ],
)
def test_table_sizes(
    people: int, rule: SeatRule, seats: tuple[int, ...], bots: tuple[int, ...]
) -> None:
    layout = plan_tables(people, rule)
    assert (layout.seats, layout.bots) == (seats, bots)


def test_no_split_fits_is_a_clear_error() -> None:
    with pytest.raises(SeatingError, match="cannot seat 2 players at tables of 4 with"):
        plan_tables(2, SeatRule.only([4]))
    with pytest.raises(SeatingError) as one:  # said in words: no '1 players', no tuple
        plan_tables(1, SeatRule.between(4, 9, preferred=4))
    assert str(one.value) == (
        "cannot seat 1 player at tables of 4, 5, 6, 7, 8 or 9 with at most 1 bot a table"
    )
    with pytest.raises(SeatingError, match="preferred size 5"):
        SeatRule.between(2, 4, preferred=5)


def test_points_share_the_table_beaten() -> None:
    assert game_points([0, 1, 2, 3]) == (F(1), F(2, 3), F(1, 3), F(0))
    assert game_points([2, 0, 1]) == (F(0), F(1), F(1, 2))
    # Ties split the places they cover: two sharing 2nd and 3rd of four get (2/3 + 1/3) / 2.
    assert game_points([0, 1, 1, 3]) == (F(1), F(1, 2), F(1, 2), F(0))
    assert game_points([0, 0, 0]) == (F(1, 2),) * 3
    with pytest.raises(ValueError, match="at least two seats"):
        game_points([0])


def _games() -> list[GameResult]:
    return [
        # Round 1: a four-seat table with a bot, and a three-seat table.
        GameResult(1, ("ann", "bob", None, "cat"), (0, 2, 1, 3), (40, 10, 20, 0)),
        GameResult(1, ("dan", "eve", "fay"), (1, 0, 2), (7, 9, 1)),
        # Round 2.
        GameResult(2, ("ann", "eve", "fay"), (1, 0, 2), (8, 12, 3)),
        GameResult(2, ("bob", "cat", "dan", None), (0, 0, 2, 3), (30, 30, 5, 0)),
    ]


def test_standings_worked_example() -> None:
    """Points: ann 1 + 1/2, eve 1 + 1, bob 1/3 + 5/6, cat 0 + 5/6, dan 1/2 + 1/3,
    fay 0 + 0. Bots never appear, and their points count in nobody's tiebreak."""
    table = standings_of(["ann", "bob", "cat", "dan", "eve", "fay"], _games())
    assert [(s.rank, s.name, s.points) for s in table] == [
        (1, "eve", F(2)),
        (2, "ann", F(3, 2)),
        (3, "bob", F(7, 6)),
        (4, "cat", F(5, 6)),
        (5, "dan", F(5, 6)),
        (6, "fay", F(0)),
    ]
    by_name = {s.name: s for s in table}
    # dan and cat are level on points; dan's opponents (eve, fay, bob, cat) average
    # (2 + 0 + 7/6 + 5/6) / 4 = 1, cat's (ann, bob, bob, dan) (3/2 + 7/6 + 7/6 + 5/6) / 4
    # = 7/6: cat is ahead.
    assert by_name["dan"].opponents == F(1)
    assert by_name["cat"].opponents == F(7, 6)
    assert (by_name["bob"].firsts, by_name["cat"].firsts, by_name["eve"].firsts) == (1, 1, 2)
    assert by_name["ann"].score == 48 and by_name["ann"].games == 2


def test_later_tiebreaks_in_order() -> None:
    """Level on points and opponents: firsts decide; level on those too: the game's score;
    level on everything: a shared rank."""
    games = [
        GameResult(1, ("a", "b"), (0, 1), (5, 0)),
        GameResult(1, ("c", "d"), (0, 1), (9, 0)),
        GameResult(2, ("a", "d"), (1, 0), (0, 1)),
        GameResult(2, ("c", "b"), (1, 0), (0, 1)),
    ]
    table = standings_of("abcd", games)
    assert [(s.rank, s.name) for s in table] == [(1, "c"), (2, "a"), (3, "b"), (3, "d")]
    assert {s.points for s in table} == {F(1)}


def test_late_entry_gets_each_missed_rounds_average() -> None:
    games = _games()
    # Round 1's average: ann 1, bob 1/3, cat 0, dan 1/2, eve 1, fay 0 -> 17/36.
    late = standings_of(["ann", "zed"], games, first_round={"zed": 2})
    zed = next(s for s in late if s.name == "zed")
    assert zed.points == F(17, 36) and zed.games == 0
    # Round 2's: ann 1/2, eve 1, fay 0, bob 5/6, cat 5/6, dan 1/3 -> 7/12.
    assert standings_of(["zed"], games, first_round={"zed": 3})[0].points == F(17, 36) + F(7, 12)


def test_first_round_mixed_or_by_strength() -> None:
    players = [Player(f"p{i}", rating=2000 - 10 * i) for i in range(8)]
    rule = SeatRule.between(4, 4)
    mixed = seat_round(players, rule, seed=1, round_number=1)
    strong = seat_round(players, rule, seed=1, round_number=1, options=Options(by_strength=True))
    assert mixed.tables[0].people == ("p0", "p3", "p4", "p7")
    assert strong.tables[0].people == ("p0", "p1", "p2", "p3")


def test_forbidden_pair_that_cannot_be_parted_is_an_error() -> None:
    players = [Player(n) for n in "abcd"]
    with pytest.raises(SeatingError, match="forbidden pair"):
        seat_round(
            players,
            SeatRule.between(4, 4),
            seed=1,
            round_number=2,
            options=Options.forbidding([("a", "b")]),
        )


def test_rotation_seats_every_entrant_at_every_seat_of_a_round_robin() -> None:
    from collections import Counter

    from engine.tournament.rotation import schedule, seatings

    entrants = ["a", "b", "c", "d", "e"]
    plan = list(schedule(entrants, 3, 3 * len(seatings(entrants, 3))))
    per_seat = Counter((seat, name) for _, lineup in plan for seat, name in enumerate(lineup))
    assert len(set(per_seat.values())) == 1 and len(per_seat) == 3 * len(entrants)
    assert all(len(set(lineup)) == 3 for _, lineup in plan)  # a group, never a repeat


def test_first_shares_split_a_shared_top_and_sum_to_one_win() -> None:
    from fractions import Fraction

    from engine.tournament import first_shares

    assert first_shares([1, 0, 2]) == (0, 1, 0)
    assert sum(first_shares([0, 0, 0, 3])) == 1
    assert first_shares([0, 0, 0, 3])[0] == Fraction(1, 3)
