"""The in-process arena: strategies play each other on the engine alone, fast.

Why this design:

- **Seats rotate, deals repeat.** Where you sit matters (who leads, who is
  dealt last) and so does the deal, so each deal is played ``seats`` times,
  the line-up rotated one seat each time (duplicate bridge's idea: luck of the
  deal cancels out), and successive deals walk through every distinct seating
  of the line-up (``engine.tournament.rotation``, pure and shared). A game's
  seed fixes every shuffle of every hand, so the rotated replays of a deal
  really are the same cards.
- **Win rate per seat played.** A strategy may hold several seats of one game
  (three strategies at a four-seat table); each seat it held is one trial and
  a win is that seat finishing alone on top (a shared top counts as a share,
  ``engine.tournament.first_shares``).
  The 95% interval is Wilson's score interval, which stays inside [0, 1] and
  behaves at small counts where the normal approximation does not.
- **A rating that uses the whole finishing order.** openskill's Plackett-Luce
  model rates every seat's place in each game, so a second place in a
  four-seat game tells more than "did not win". A strategy holding two seats
  gets both seats' updates (the sum of the mean shifts, the smaller sigma).
- **A paired test between strategies.** The table's intervals treat every
  seat as an independent trial, but the seats of one deal are not: they share
  the cards, and only one of them wins. So "A beats B" is judged on the
  difference of their win rates deal by deal (each deal's rotations pooled,
  as duplicate bridge scores a board), with a 95% interval from the spread of
  those per-deal differences: the luck of the deal cancels inside each one,
  and the dependence between seats is inside it too.
- **Time per move** is the wall time of ``choose`` only, so the engine's own
  cost does not blur a strategy's; its CPU time is kept too, since on a
  shared machine the wall time also counts whoever else was using the CPU,
  while the CPU time is the strategy's own cost, what it would wait alone.
- **Games in parallel, results in order.** Games are independent, so ``jobs``
  worker processes play them (forked, so a strategy or toy game registered in
  this process exists there too) while the book is kept here in game order:
  the table does not depend on how many workers played it.

Everything here is deterministic given the seed (a search strategy with an
iteration budget included), so a surprising table can be replayed exactly.
"""

from __future__ import annotations

import math
import multiprocessing
import random
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

import engine
from engine.places import outcome_places
from engine.places import places_for as places_for  # for the arena's callers
from engine.places import places_from_scores as places_from_scores
from engine.strategies import Strategy, get_strategy
from engine.tournament import first_shares
from engine.tournament.rotation import distinct_arrangements as distinct_arrangements
from engine.tournament.rotation import lineup_for as lineup_for
from engine.tournament.rotation import schedule as schedule
from engine.tournament.rotation import seatings as seatings

#: A game that has not ended after this many actions is stopped and counted as a draw.
MAX_ACTIONS = 20_000


@dataclass(frozen=True, slots=True)
class Entrant:
    """One strategy in the arena: ``label`` is what the table prints."""

    label: str
    strategy: str
    params: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def parse(cls, text: str) -> Entrant:
        """``search`` or ``search:iterations=50`` (numbers become numbers).

        >>> e = Entrant.parse("search:iterations=50,rollouts=2")
        >>> e.strategy, e.params
        ('search', {'iterations': 50, 'rollouts': 2})
        """
        name, _, rest = text.partition(":")
        params: dict[str, Any] = {}
        for item in filter(None, rest.split(",")):
            key, eq, value = item.partition("=")
            if not eq:
                raise ValueError(f"expected key=value in {text!r}, got {item!r}")
            params[key.strip()] = _number(value.strip())
        return cls(text, name.strip(), params)

    def make(self, family: str) -> Strategy:
        return get_strategy(self.strategy, family, **self.params)


def _number(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


@dataclass(slots=True)
class GameResult:
    """One finished game: who sat where, the scores and the placings."""

    seed: int
    lineup: list[str]
    scores: list[int]
    places: list[int]  # 0 = first; equal scores share a place
    actions: int
    finished: bool
    move_times: dict[str, list[float]]
    move_cpu: dict[str, list[float]] = field(default_factory=dict)  # CPU seconds a move


@dataclass(slots=True)
class Standing:
    """A strategy's totals over the arena."""

    label: str
    seats: int = 0
    wins: float = 0.0
    mu: float = 25.0
    sigma: float = 25.0 / 3
    times: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)  # CPU seconds a move (in-process arena)

    @property
    def win_rate(self) -> float:
        return self.wins / self.seats if self.seats else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.seats)

    @property
    def ordinal(self) -> float:
        """The conservative rating (mu - 3 sigma) that openskill ranks by."""
        return self.mu - 3 * self.sigma

    def time_quantile(self, q: float) -> float:
        return quantile(self.times, q)


def wilson(successes: float, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """Wilson's score interval for a proportion (95% by default).

    >>> lo, hi = wilson(50, 100)
    >>> round(lo, 3), round(hi, 3)
    (0.404, 0.596)
    >>> wilson(0, 0)
    (0.0, 1.0)
    """
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def quantile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile by the nearest-rank method; 0 for no values.

    >>> quantile([3, 1, 2], 0.5), quantile(list(range(1, 101)), 0.99)
    (2, 99)
    """
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(q * len(ordered)))
    return ordered[rank - 1]


def play_game(
    ruleset: str,
    seats: int,
    seed: int,
    lineup: Sequence[Entrant],
    options: Mapping[str, Any] | None = None,
    rng_salt: str = "",
    max_actions: int = MAX_ACTIONS,
) -> GameResult:
    """Play one game with ``lineup[s]`` in seat ``s``; time every ``choose``.

    Each seat's strategy is built fresh for the game, gets its own generator
    (from the seed, the seat and ``rng_salt``) and sees only its seat's view,
    the legal actions and, through ``observe`` if it has one, the events as
    its seat was shown them.
    """
    game = engine.new_game(ruleset, seats=seats, seed=seed, options=dict(options or {}))
    family = game.family
    players = [entrant.make(family) for entrant in lineup]
    rngs = [random.Random(f"{seed}:{s}:{rng_salt}") for s in range(seats)]
    observers: list[Callable[[dict[str, Any]], None] | None] = [
        getattr(p, "observe", None) for p in players
    ]
    times: dict[str, list[float]] = defaultdict(list)
    cpu: dict[str, list[float]] = defaultdict(list)
    actions = 0
    for event in getattr(game, "opening_events", ()):  # the first deal, before any action
        for s, observe in enumerate(observers):
            if observe is not None:
                observe(event.present(s))
    while not game.over and actions < max_actions:
        seat = game.to_act
        assert seat is not None
        legal = game.legal_actions(seat)
        view = game.view(seat)
        start, start_cpu = time.perf_counter(), time.thread_time()
        action = players[seat].choose(view, legal, rngs[seat])
        times[lineup[seat].label].append(time.perf_counter() - start)
        cpu[lineup[seat].label].append(time.thread_time() - start_cpu)
        events = game.apply(seat, action)
        actions += 1
        for s, observe in enumerate(observers):
            if observe is not None:
                for event in events:
                    observe(event.present(s))
    scores = list(game.scores)
    places = outcome_places(game) if game.over else [0] * seats
    return GameResult(
        seed, [e.label for e in lineup], scores, places, actions, game.over, dict(times), dict(cpu)
    )


@dataclass(frozen=True, slots=True)
class Difference:
    """How much ``first``'s win rate exceeds ``second``'s, paired by deal."""

    first: str
    second: str
    deals: int
    mean: float
    low: float
    high: float

    @property
    def significant(self) -> bool:
        """Whether the 95% interval is above zero: ``first`` is the better."""
        return self.low > 0

    def line(self) -> str:
        return (
            f"{self.first} - {self.second}: {self.mean * 100:+.1f} points"
            f" [{self.low * 100:+.1f}, {self.high * 100:+.1f}] (95%, paired by deal,"
            f" {self.deals} deals)"
        )


def paired_difference(
    first: str, second: str, deals: Mapping[int, Mapping[str, list[float]]], z: float = 1.959964
) -> Difference:
    """``first``'s win rate minus ``second``'s over the deals both played: the
    mean of the per-deal differences, and its normal 95% interval.

    >>> deals = {d: {"a": [1.0, 1], "b": [0.0, 1]} for d in range(3)}
    >>> deals[3] = {"a": [0.0, 1], "b": [1.0, 1]}
    >>> r = paired_difference("a", "b", deals)
    >>> r.deals, round(r.mean, 2), round(r.low, 2), round(r.high, 2)
    (4, 0.5, -1.03, 2.03)
    """
    diffs = [
        d[first][0] / d[first][1] - d[second][0] / d[second][1]
        for d in deals.values()
        if d.get(first, (0, 0))[1] and d.get(second, (0, 0))[1]
    ]
    n = len(diffs)
    if n < 2:
        return Difference(first, second, n, diffs[0] if diffs else 0.0, -1.0, 1.0)
    mean = sum(diffs) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in diffs) / (n - 1))
    df = n - 1  # Student's t for few deals (Cornish-Fisher), z for many
    t = z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df * df)
    half = t * sd / math.sqrt(n)
    return Difference(first, second, n, mean, mean - half, mean + half)


@dataclass(frozen=True, slots=True)
class Versus:
    """One row of a per-ruleset table: ``difference`` (``first``'s win rate minus
    ``second``'s, paired by deal) and ``first``'s time a move, the two figures a
    strategy must show to be called the better at a playable pace."""

    ruleset: str
    games: int
    difference: Difference
    p50: float  # seconds, wall
    p99: float  # seconds, wall
    cpu_p99: float | None = None  # seconds of CPU; None where only wall times are known
    cpu_p50: float | None = None  # seconds of CPU, the median move
    cpu_mean: float | None = None  # seconds of CPU, the mean move: what a worker pool spends

    def met(self, p99_limit: float = 1.0) -> bool:
        """Whether ``first`` is the better with 95% confidence within ``p99_limit`` a move
        (its CPU time where known: the wall time of a shared machine counts the others)."""
        pace = self.p99 if self.cpu_p99 is None else self.cpu_p99
        return self.difference.significant and pace <= p99_limit

    def row(self) -> str:
        """A Markdown table row: ruleset, games, the difference with its interval, ms a
        move (wall p50 / p99, then the CPU p50 / p99 and mean where known).

        >>> d = Difference("s", "h", 500, 0.071, 0.043, 0.1)
        >>> Versus("switch", 2000, d, 0.00012, 0.258, 0.2).row()
        '| switch | 2000 | +7.1 [+4.3, +10.0], 500 deals | 0.12 / 258 | 200 |'
        >>> Versus("switch", 2000, d, 0.00012, 0.258, 0.2, 0.0001, 0.021).row()
        '| switch | 2000 | +7.1 [+4.3, +10.0], 500 deals | 0.12 / 258 | 0.10 / 200, mean 21 |'
        """
        d = self.difference
        cpu = ""
        if self.cpu_p99 is not None:
            cpu = f" {_ms(self.cpu_p99)} |"
            if self.cpu_p50 is not None and self.cpu_mean is not None:
                cpu = f" {_ms(self.cpu_p50)} / {_ms(self.cpu_p99)}, mean {_ms(self.cpu_mean)} |"
        return (
            f"| {self.ruleset} | {self.games} | {d.mean * 100:+.1f} [{d.low * 100:+.1f},"
            f" {d.high * 100:+.1f}], {d.deals} deals | {_ms(self.p50)} / {_ms(self.p99)} |{cpu}"
        )


def _ms(seconds: float) -> str:
    """Milliseconds with two significant decimals below 10 ms, whole above."""
    ms = seconds * 1000
    return f"{ms:.2f}" if ms < 10 else f"{ms:.0f}"


@dataclass(slots=True)
class ArenaResult:
    """The standings of one arena run, with enough to print its table."""

    ruleset: str
    seats: int
    games: int
    standings: dict[str, Standing]
    unfinished: int
    seconds: float
    #: deal -> strategy -> [wins, seats]: what the paired comparisons are made of
    deals: dict[int, dict[str, list[float]]] = field(default_factory=dict)

    def difference(self, first: str, second: str) -> Difference:
        """``first``'s win rate minus ``second``'s, paired by deal, with its 95% interval."""
        return paired_difference(first, second, self.deals)

    def versus(self, first: str, second: str) -> Versus:
        """``first`` against ``second``: the paired difference and ``first``'s time a move."""
        own = self.standings[first]
        return Versus(
            self.ruleset,
            self.games,
            self.difference(first, second),
            own.time_quantile(0.5),
            own.time_quantile(0.99),
            quantile(own.cpu, 0.99) if own.cpu else None,
            quantile(own.cpu, 0.5) if own.cpu else None,
            sum(own.cpu) / len(own.cpu) if own.cpu else None,
        )

    def table(self) -> str:
        """The printed table: win rate with its 95% interval, rating, time a move (wall
        median and p99, and the CPU p99 where the arena measured it)."""
        rows = sorted(self.standings.values(), key=lambda s: -s.ordinal)
        head = (
            f"{self.ruleset}, {self.seats} seats, {self.games} games"
            f" ({self.unfinished} unfinished), {self.seconds:.1f} s;"
            f" an even share is {1 / self.seats:.1%}"
        )
        lines = [
            head,
            f"{'strategy':<28}{'seats':>6}{'win rate':>10}{'95% CI':>17}"
            f"{'rating':>8}{'mu':>7}{'median ms':>11}{'p99 ms':>9}{'p99 cpu ms':>12}",
        ]
        for s in rows:
            lo, hi = s.interval
            lines.append(
                f"{s.label:<28}{s.seats:>6}{s.win_rate:>10.1%}{f'[{lo:.1%}, {hi:.1%}]':>17}"
                f"{s.ordinal:>8.1f}{s.mu:>7.1f}{s.time_quantile(0.5) * 1000:>11.2f}"
                f"{s.time_quantile(0.99) * 1000:>9.2f}"
                + (f"{quantile(s.cpu, 0.99) * 1000:>12.2f}" if s.cpu else f"{'-':>12}")
            )
        if self.deals:
            for a, b in combinations(rows, 2):  # every pair, the better rated first
                lines.append(self.difference(a.label, b.label).line())
        return "\n".join(lines)


class Book:
    """The running totals: seats, wins and openskill ratings per strategy."""

    def __init__(self, labels: Sequence[str]) -> None:
        from openskill.models import PlackettLuce

        self.model = PlackettLuce()
        self.ratings = {label: self.model.rating(name=label) for label in labels}
        self.standings = {label: Standing(label) for label in labels}
        self.unfinished = 0
        self.deals: dict[int, dict[str, list[float]]] = {}

    def add(
        self, labels: Sequence[str], places: Sequence[int] | None, deal: int | None = None
    ) -> None:
        """One game: ``labels[s]`` sat in seat ``s``; ``places`` (0 = won), or
        ``None`` for a game that did not finish (its seats count, as no win).
        ``deal`` (the games of one deal share it) feeds the paired comparisons."""
        tally = self.deals.setdefault(deal, {}) if deal is not None else {}
        for label in labels:
            self.standings[label].seats += 1
            tally.setdefault(label, [0.0, 0])[1] += 1
        if places is None:
            self.unfinished += 1
            return
        for label, share in zip(labels, first_shares(places), strict=True):
            if share:
                self.standings[label].wins += float(share)
                tally[label][0] += float(share)
        teams = self.model.rate([[self.ratings[x]] for x in labels], ranks=list(places))
        shift: dict[str, float] = defaultdict(float)
        sigma: dict[str, float] = {}
        for label, [new] in zip(labels, teams, strict=True):
            shift[label] += new.mu - self.ratings[label].mu
            sigma[label] = min(sigma.get(label, new.sigma), new.sigma)
        for label in shift:
            self.ratings[label] = self.model.rating(
                mu=self.ratings[label].mu + shift[label], sigma=sigma[label], name=label
            )

    def result(self, ruleset: str, seats: int, games: int, seconds: float) -> ArenaResult:
        for label, r in self.ratings.items():
            self.standings[label].mu, self.standings[label].sigma = r.mu, r.sigma
        return ArenaResult(
            ruleset, seats, games, self.standings, self.unfinished, seconds, self.deals
        )


def run_arena(
    ruleset: str,
    entrants: Sequence[Entrant | str],
    games: int,
    seats: int | None = None,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    progress: Callable[[int, GameResult], None] | None = None,
    jobs: int = 1,
) -> ArenaResult:
    """Play ``games`` games of ``ruleset`` among ``entrants`` and rate them,
    ``jobs`` games at a time (the result is the same for any ``jobs``)."""
    parsed = [e if isinstance(e, Entrant) else Entrant.parse(e) for e in entrants]
    if not parsed:
        raise ValueError("the arena needs at least one strategy")
    if jobs < 1:
        raise ValueError("jobs must be at least 1")
    by_label = {e.label: e for e in parsed}
    if len(by_label) != len(parsed):
        raise ValueError("two entrants share a label")
    rs = engine.ruleset(ruleset)
    n = seats if seats is not None else max(rs.min_seats, min(rs.max_seats, 4))
    for e in parsed:
        e.make(rs.family)  # fail early on an unknown strategy or parameter
    book = Book(list(by_label))
    standings = book.standings
    start = time.perf_counter()
    tasks = [
        (ruleset, n, seed + deal, [by_label[x] for x in labels], options, str(i))
        for i, (deal, labels) in enumerate(schedule(list(by_label), n, games))
    ]
    for i, result in enumerate(_play_all(tasks, jobs)):
        for label, ts in result.move_times.items():
            standings[label].times.extend(ts)
        for label, ts in result.move_cpu.items():
            standings[label].cpu.extend(ts)
        book.add(result.lineup, result.places if result.finished else None, deal=result.seed)
        if progress is not None:
            progress(i, result)
    return book.result(ruleset, n, games, time.perf_counter() - start)


_Task = tuple[str, int, int, list[Entrant], Mapping[str, Any] | None, str]


def _play_task(task: _Task) -> GameResult:
    ruleset, n, seed, lineup, options, salt = task
    return play_game(ruleset, n, seed, lineup, options, rng_salt=salt)


def _play_all(tasks: list[_Task], jobs: int) -> Iterable[GameResult]:
    """Each task's result, in task order, from ``jobs`` processes (or this one)."""
    if jobs == 1 or len(tasks) < 2:
        yield from map(_play_task, tasks)
        return
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        yield from pool.map(_play_task, tasks, chunksize=max(1, min(8, len(tasks) // (jobs * 8))))
