"""The in-process arena, on a toy game where the better strategy is obvious.

The toy: each seat takes three turns; ``draw`` adds the next card's value to
its score, ``pass`` adds nothing; the highest score wins. ``greedy`` always
draws, so it must beat ``random`` with room to spare, and the arena must say
so with intervals that do not overlap.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from client.bots.arena import (
    Difference,
    Entrant,
    Versus,
    distinct_arrangements,
    paired_difference,
    places_from_scores,
    play_game,
    quantile,
    run_arena,
    schedule,
    wilson,
)
from engine import registry
from engine.actions import Action, Draw, Pass
from engine.cards import Card, make_deck, shuffled
from engine.events import Event
from engine.game import Game
from engine.options import OptionSchema
from engine.strategies import _FACTORIES, register_strategy
from engine.vocabulary import CommonView
from switchboard.cli import main


class DrawGame(Game):
    family = "drawtoy"
    min_seats = 2
    max_seats = 4
    schema = OptionSchema([])

    def _setup(self, dealer: int | None, deck: list[Card] | None) -> None:
        self.pile = deck if deck is not None else shuffled(make_deck(), self.rng)
        self.points = [0] * self.seats
        self.turns = 0

    @property
    def to_act(self) -> int | None:
        return None if self.over else self.turns % self.seats

    @property
    def over(self) -> bool:
        return self.turns >= 3 * self.seats

    @property
    def scores(self) -> list[int]:
        return list(self.points)

    def legal_actions(self, seat: int) -> list[Action]:
        return [] if seat != self.to_act else [Draw(), Pass()]

    def _apply(self, seat: int, action: Action) -> list[Event]:
        self.turns += 1
        if isinstance(action, Draw):
            card = self.pile.pop()
            self.points[seat] += card.value
            return [Event("draw", {"seat": seat, "card": str(card)})]
        return [Event("pass", {"seat": seat})]

    def _view(self, seat: int | None, common: CommonView) -> Any:
        return {"ruleset": common["ruleset"], "family": self.family, **common,
                "points": list(self.points)}  # fmt: skip


class Greedy:
    name = "greedy"

    def __init__(self) -> None:
        self.seen: list[dict[str, Any]] = []

    def choose(self, view: dict[str, Any], legal: Sequence[Action], rng: random.Random) -> Action:
        assert set(view) >= {"points", "viewer", "to_act"}
        return Draw()

    def observe(self, event: dict[str, Any]) -> None:
        self.seen.append(event)


@pytest.fixture
def drawtoy() -> Iterator[str]:
    registry.register("drawtoy", DrawGame, "a test game")
    register_strategy("greedy", "drawtoy", Greedy)
    yield "drawtoy"
    registry._RULESETS.pop("drawtoy")
    _FACTORIES.pop(("greedy", "drawtoy"))


def test_wilson_matches_known_intervals() -> None:
    lo, hi = wilson(8, 10)
    assert (round(lo, 4), round(hi, 4)) == (0.4902, 0.9433)
    lo, hi = wilson(0, 20)
    assert lo == 0.0 and 0.16 < hi < 0.17
    lo, hi = wilson(20, 20)
    assert hi == 1.0 and 0.83 < lo < 0.84


def test_places_share_ties() -> None:
    assert places_from_scores([3, 7, 7, 1]) == [2, 0, 0, 3]


def test_schedule_rotates_every_strategy_through_every_seat() -> None:
    games = list(schedule(["a", "b", "c"], 4, 4 * len(distinct_arrangements(list("abca")))))
    seat_counts = Counter((seat, name) for _, lineup in games for seat, name in enumerate(lineup))
    per_seat = {seat_counts[(0, x)] for x in "abc"}
    # every seat sees each strategy in proportion to its share of the line-up
    for seat in range(4):
        a, b, c = (seat_counts[(seat, x)] for x in "abc")
        assert a == 2 * b == 2 * c
    assert len(per_seat) == 2
    deals = Counter(deal for deal, _ in games)
    assert set(deals.values()) == {4}  # each deal is played once per rotation


def test_greedy_beats_random_with_confidence(drawtoy: str) -> None:
    result = run_arena(drawtoy, ["greedy", "random"], games=200, seats=2, seed=3)
    greedy, rand = result.standings["greedy"], result.standings["random"]
    assert greedy.seats == rand.seats == 200
    assert greedy.interval[0] > rand.interval[1]
    assert greedy.ordinal > rand.ordinal
    assert len(greedy.times) == 200 * 3
    assert "greedy" in result.table() and "95% CI" in result.table()


def test_the_paired_difference_says_which_is_better(drawtoy: str) -> None:
    result = run_arena(drawtoy, ["greedy", "random"], games=60, seats=2, seed=3)
    diff = result.difference("greedy", "random")
    assert diff.deals == 30 and diff.significant
    g, r = result.standings["greedy"], result.standings["random"]
    assert diff.mean == pytest.approx(g.win_rate - r.win_rate)  # equal seats in every deal
    assert not result.difference("random", "greedy").significant
    assert diff.line() in result.table()


def test_arena_is_deterministic(drawtoy: str) -> None:
    a = run_arena(drawtoy, ["greedy", "random"], games=30, seats=3, seed=5)
    b = run_arena(drawtoy, ["greedy", "random"], games=30, seats=3, seed=5)
    assert [s.wins for s in a.standings.values()] == [s.wins for s in b.standings.values()]
    assert [s.mu for s in a.standings.values()] == [s.mu for s in b.standings.values()]


def test_parallel_arena_gives_the_serial_table(drawtoy: str) -> None:
    """Workers play the games, the book is kept in game order: same standings,
    same ratings. The toy game exists only in this process, so this also shows
    the workers are forked from it."""
    serial = run_arena(drawtoy, ["greedy", "random"], games=24, seats=3, seed=9)
    parallel = run_arena(drawtoy, ["greedy", "random"], games=24, seats=3, seed=9, jobs=2)
    for label, s in serial.standings.items():
        p = parallel.standings[label]
        assert (p.seats, p.wins, p.mu, p.sigma) == (s.seats, s.wins, s.mu, s.sigma)
        assert len(p.times) == len(s.times)
    with pytest.raises(ValueError, match="jobs"):
        run_arena(drawtoy, ["greedy"], games=2, jobs=0)


def test_play_game_feeds_events_to_observers(drawtoy: str) -> None:
    result = play_game(drawtoy, 2, 1, [Entrant.parse("greedy"), Entrant.parse("random")])
    assert result.finished and result.actions == 6
    assert sorted(result.places) in ([0, 1], [0, 0])


def test_cli_prints_the_table(drawtoy: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", drawtoy, "greedy", "random", "--games", "8", "--seats", "2"]) == 0
    out = capsys.readouterr().out
    assert "greedy" in out and "random" in out and "p99 ms" in out


def test_cli_refuses_unknown_strategy(drawtoy: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", drawtoy, "nosuch", "--games", "2"]) == 2
    assert "no strategy 'nosuch'" in capsys.readouterr().err
    assert main(["arena", drawtoy, "random:depth=3", "--games", "2"]) == 2


def test_network_arena_plays_through_a_real_server(
    capsys: pytest.CaptureFixture[str], tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SWITCHBOARD_CONFIG_DIR", str(tmp_path))
    args = ["arena", "switch", "heuristic", "random", "--network", "--games", "4", "--seats", "2"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "switch, 2 seats, 4 games (0 unfinished)" in out
    rows = {line.split()[0]: line.split() for line in out.splitlines()[2:]}
    assert int(rows["heuristic"][1]) == int(rows["random"][1]) == 4


def test_the_paired_interval_is_students_t_on_the_per_deal_differences() -> None:
    """25 deals whose differences are known: the mean, and a half-width of Student's
    t (24 degrees of freedom: 2.0639) times the standard error, not the normal 1.96."""
    diffs = [0.5, -0.25, 0.0, 0.25, 0.75] * 5
    deals = {i: {"a": [0.5 + d / 2, 1], "b": [0.5 - d / 2, 1]} for i, d in enumerate(diffs)}
    deals[99] = {"a": [1.0, 1]}  # a deal only one of them played is left out
    r = paired_difference("a", "b", deals)
    mean = sum(diffs) / 25
    sd = math.sqrt(sum((x - mean) ** 2 for x in diffs) / 24)
    assert r.deals == 25 and r.mean == pytest.approx(mean)
    assert (r.high - r.low) / 2 == pytest.approx(2.0639 * sd / 5, rel=2e-3)
    assert r.significant == (r.low > 0)


def test_a_versus_row_needs_both_the_edge_and_the_pace() -> None:
    edge = Difference("s", "h", 100, 0.05, 0.01, 0.09)
    none = Difference("s", "h", 100, 0.05, -0.01, 0.11)
    assert Versus("j28", 400, edge, 0.001, 0.9).met()
    assert not Versus("j28", 400, edge, 0.001, 1.2).met()  # too slow at the 99th percentile
    assert Versus("j28", 400, edge, 0.001, 1.2).met(p99_limit=1.5)
    assert not Versus("j28", 400, none, 0.001, 0.5).met()  # the interval reaches 0
    # the CPU time, where known, is the pace: a loaded machine's wall time is not the bot's
    assert Versus("j28", 400, edge, 0.001, 1.8, cpu_p99=0.6).met()
    assert not Versus("j28", 400, edge, 0.001, 0.5, cpu_p99=1.1).met()
    assert Versus("j28", 400, none, 0.0004, 0.5).row() == (
        "| j28 | 400 | +5.0 [-1.0, +11.0], 100 deals | 0.40 / 500 |"
    )


def test_versus_takes_the_first_strategys_times(drawtoy: str) -> None:
    result = run_arena(drawtoy, ["greedy", "random"], games=40, seats=2, seed=3)
    vs = result.versus("greedy", "random")
    assert vs.difference == result.difference("greedy", "random")
    times = result.standings["greedy"].times
    assert (vs.p50, vs.p99) == (quantile(times, 0.5), quantile(times, 0.99))
    cpu = result.standings["greedy"].cpu
    assert len(cpu) == len(times) and vs.cpu_p99 == quantile(cpu, 0.99)
    assert vs.games == 40 and vs.ruleset == drawtoy
    assert "p99 cpu ms" in result.table()


def test_quantile_is_nearest_rank() -> None:
    values = [float(v) for v in range(200, 0, -1)]
    assert quantile(values, 0.99) == 198.0 and quantile(values, 0.5) == 100.0
    assert quantile([7.0], 0.99) == 7.0 and quantile([], 0.5) == 0.0
