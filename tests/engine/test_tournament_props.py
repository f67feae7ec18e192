"""Properties of the tournament's seating, over many generated tournaments (hypothesis).

Nobody sits at two tables, every table's size is one the rule allows, the same seed
seats the same way, forbidden pairs never sit together, and over a run the Swiss
seating's repeat meetings are never more than block seating's of the same rounds.
"""

from __future__ import annotations

import random
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.tournament import GameResult, SeatingError, SeatRule, plan_tables
from engine.tournament.arena import seat_free
from engine.tournament.scoring import points_table
from engine.tournament.swiss import (
    Options,
    Player,
    Seating,
    block_seating,
    meetings_from,
    seat_round,
)

rules = st.one_of(
    st.builds(SeatRule.between, st.just(2), st.integers(2, 4), max_bots=st.integers(0, 1)),
    st.builds(lambda p: SeatRule.between(4, 9, preferred=p), st.integers(4, 6)),
    st.builds(lambda: SeatRule.only([2, 4])),
    st.builds(lambda: SeatRule.only([3], max_bots=2)),
)


def _players(count: int, seed: int) -> list[Player]:
    rng = random.Random(seed)
    return [
        Player(f"p{i}", rating=rng.randrange(1200, 1800), points=Fraction(rng.randrange(0, 7), 2))
        for i in range(count)
    ]


def _play(seating: Seating, seed: int) -> list[GameResult]:
    games = []
    for table in seating.tables:
        rng = random.Random(f"{seed}:{seating.round}:{table.people}")
        seats: list[str | None] = [*table.people, *([None] * table.bots)]
        places = list(range(len(seats)))
        rng.shuffle(places)
        games.append(GameResult(seating.round, tuple(seats), tuple(places), tuple(places)))
    return games


def _check_layout(seating: Seating, players: list[Player], rule: SeatRule) -> None:
    seated = [p for t in seating.tables for p in t.people]
    assert sorted(seated) == sorted(p.name for p in players)  # everyone once, nobody twice
    for table in seating.tables:
        assert table.seats in rule.sizes
        assert table.bots <= rule.max_bots
        assert table.people


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 40), rules, st.integers(0, 10**6), st.integers(1, 6), st.booleans())
def test_everyone_at_one_table_of_an_allowed_size(
    count: int, rule: SeatRule, seed: int, round_number: int, strong: bool
) -> None:
    players = _players(count, seed)
    try:
        plan_tables(count, rule)
    except SeatingError:
        return
    seating = seat_round(
        players, rule, seed=seed, round_number=round_number, options=Options(strong)
    )
    _check_layout(seating, players, rule)
    # Bots sit at the last tables (the lowest-scoring): none before a table without one.
    bots = [t.bots for t in seating.tables]
    assert bots == sorted(bots)


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 30), rules, st.integers(0, 10**6), st.integers(1, 6))
def test_same_seed_same_seating(count: int, rule: SeatRule, seed: int, round_number: int) -> None:
    players = _players(count, seed)
    try:
        first = seat_round(players, rule, seed=seed, round_number=round_number)
    except SeatingError:
        return
    shuffled = list(players)
    random.Random(seed).shuffle(shuffled)  # the order given does not matter either
    assert seat_round(shuffled, rule, seed=seed, round_number=round_number) == first


@settings(max_examples=100, deadline=None)
@given(st.integers(6, 32), st.integers(2, 4), st.integers(0, 10**6), st.integers(1, 5))
def test_forbidden_pairs_never_together(
    count: int, size: int, seed: int, round_number: int
) -> None:
    players = _players(count, seed)
    rule = SeatRule.between(2, size)
    if len(plan_tables(count, rule).seats) < 2:
        return
    names = [p.name for p in players]
    random.Random(seed).shuffle(names)
    pairs = [(names[i], names[i + 1]) for i in range(0, count // 2, 2)]
    seating = seat_round(
        players, rule, seed=seed, round_number=round_number, options=Options.forbidding(pairs)
    )
    _check_layout(seating, players, rule)
    for a, b in pairs:
        assert seating.table_of(a) != seating.table_of(b)


@settings(max_examples=40, deadline=None)
@given(st.integers(6, 24), st.sampled_from([3, 4, 5]), st.integers(0, 10**6))
def test_repeats_never_worse_than_block_over_a_run(count: int, size: int, seed: int) -> None:
    """Each round of a Swiss run, seated both ways from the same standings: the Swiss
    seating's repeat meetings (a pair met twice counting two) are never more than block
    seating's, round by round and so over the run."""
    names = [f"p{i}" for i in range(count)]
    rng = random.Random(seed)
    rating = {n: rng.randrange(1200, 1800) for n in names}
    rule = SeatRule.between(2, size)
    results: list[GameResult] = []
    swiss_total = block_total = 0
    for round_number in range(1, 6):
        points = points_table(results, dict.fromkeys(names, 1))
        players = [Player(n, rating[n], points[n]) for n in names]
        met = meetings_from(results)
        seating = seat_round(players, rule, seed=seed, round_number=round_number, meetings=met)
        block = block_seating(players, rule, seed=seed, round_number=round_number)
        if round_number > 1:
            assert seating.repeat_weight(met) <= block.repeat_weight(met)
        swiss_total += seating.repeat_weight(met)
        block_total += block.repeat_weight(met)
        results.extend(_play(seating, seed))
    assert swiss_total <= block_total


@settings(max_examples=120, deadline=None)
@given(
    st.integers(1, 20),
    st.integers(0, 10**6),
    st.booleans(),
    st.sampled_from([SeatRule.between(2, 4), SeatRule.only([4]), SeatRule.only([2, 4])]),
)
def test_arena_seats_free_people_once_never_the_last_group(
    count: int, seed: int, fill: bool, rule: SeatRule
) -> None:
    players = _players(count, seed)
    names = [p.name for p in players]
    last = {n: frozenset(names[i - i % 4 : i - i % 4 + 4]) for i, n in enumerate(names)}
    seating = seat_free(players, rule, last_group=last, seed=seed, serial=3, fill=fill)
    seated = [p for t in seating.tables for p in t.people]
    assert len(seated) == len(set(seated))
    assert sorted(seated + list(seating.waiting)) == sorted(names)
    for table in seating.tables:
        group = frozenset(table.people)
        assert not (len(group) > 1 and any(last[p] == group for p in group))
        assert table.seats in rule.sizes or table.seats == rule.sizes[0]
    if fill:
        assert not seating.waiting or all(
            last[p] == frozenset(seating.waiting) for p in seating.waiting
        )
