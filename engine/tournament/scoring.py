"""A game's points and the standings, with their tiebreaks.

Why this way: tables of different sizes must compare, so a game gives each player the
share of the table he beat, ``(k - place) / (k - 1)`` at a table of ``k`` seats (bots
count as seats: beating a bot is beating someone). Players sharing a place share the
points of the places they cover. Points are exact fractions, so two players level on
points really are level, and a standing recomputed from the stored games after a crash
is the same to the last digit.

A bot sits as an opponent but is never in the standings, and its points never count in
anyone's tiebreak.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction


def game_points(places: Sequence[int]) -> tuple[Fraction, ...]:
    """Each seat's points from its place (0 = won, so the formula's place is ``place + 1``),
    ties sharing the places they cover.

    >>> [str(p) for p in game_points([0, 1, 2, 3])]
    ['1', '2/3', '1/3', '0']
    >>> [str(p) for p in game_points([0, 1, 1, 3])]
    ['1', '1/2', '1/2', '0']
    >>> [str(p) for p in game_points([0, 0])]
    ['1/2', '1/2']
    """
    k = len(places)
    if k < 2:
        raise ValueError(f"a game has at least two seats, not {k}")
    points = []
    for place in places:
        tied = sum(1 for other in places if other == place)
        covered = range(place, place + tied)
        points.append(sum((Fraction(k - 1 - p, k - 1) for p in covered), Fraction(0)) / tied)
    return tuple(points)


def first_shares(places: Sequence[int]) -> tuple[Fraction, ...]:
    """Each seat's share of the game's win: 1 alone on top, ``1/n`` on a top shared by
    ``n`` seats, else 0. The win a seat's record counts (a strategy's win rate in the
    arena); the standings' ``firsts`` count a shared first whole instead.

    >>> [str(p) for p in first_shares([0, 1, 0, 3])]
    ['1/2', '0', '1/2', '0']
    """
    tops = sum(1 for place in places if place == 0)
    return tuple(Fraction(1, tops) if place == 0 else Fraction(0) for place in places)


@dataclass(frozen=True, slots=True)
class GameResult:
    """One finished game of a round: who sat where (``None`` for a bot), places and scores.

    >>> game = GameResult(1, ("ann", None, "bob"), (1, 0, 2), (20, 35, 4))
    >>> game.points()
    {'ann': Fraction(1, 2), 'bob': Fraction(0, 1)}
    """

    round: int
    seats: tuple[str | None, ...]
    places: tuple[int, ...]
    scores: tuple[int, ...]

    def __post_init__(self) -> None:
        if not len(self.seats) == len(self.places) == len(self.scores):
            raise ValueError("seats, places and scores must have one entry a seat")
        people = [s for s in self.seats if s is not None]
        if len(people) != len(set(people)):
            raise ValueError(f"a player sits twice at one table: {self.seats!r}")

    def points(self) -> dict[str, Fraction]:
        """Each player's points at this game (bots left out)."""
        return {
            name: pts
            for name, pts in zip(self.seats, game_points(self.places), strict=True)
            if name is not None
        }

    def people(self) -> list[str]:
        """The players at this game, in seat order (bots left out)."""
        return [s for s in self.seats if s is not None]


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the standings. ``rank`` is shared by players level on every tiebreak."""

    rank: int
    name: str
    points: Fraction
    opponents: Fraction
    firsts: int
    score: int
    games: int


#: How each tiebreak is computed, in order, as the standings show it.
TIEBREAKS: tuple[tuple[str, str], ...] = (
    ("points", "the share of each table beaten, (k - place) / (k - 1), summed over the rounds"),
    ("opponents", "the average points of the opponents met (bots left out), once a meeting"),
    ("firsts", "the games won, a shared first place counting"),
    ("score", "the game's own score, summed over the games played"),
)


def round_averages(results: Iterable[GameResult]) -> dict[int, Fraction]:
    """The average points a player earned in each round: what a late entrant gets for it.

    >>> games = [GameResult(1, ("a", "b"), (0, 1), (1, 0)),
    ...          GameResult(1, ("c", None), (0, 1), (0, 0))]
    >>> round_averages(games)
    {1: Fraction(2, 3)}
    """
    totals: dict[int, list[Fraction]] = defaultdict(list)
    for game in results:
        totals[game.round].extend(game.points().values())
    return {r: sum(pts, Fraction(0)) / len(pts) for r, pts in sorted(totals.items()) if pts}


def points_table(
    results: Iterable[GameResult], first_round: Mapping[str, int] | None = None
) -> dict[str, Fraction]:
    """Each player's points, with the round's average for each round missed before
    ``first_round[name]`` (late entry). Players in ``first_round`` and in no game get theirs.
    """
    games = list(results)
    entry = dict(first_round or {})
    points: dict[str, Fraction] = defaultdict(Fraction)
    for game in games:
        for name, pts in game.points().items():
            points[name] += pts
    for name in entry:
        points.setdefault(name, Fraction(0))
    averages = round_averages(games)
    for name, start in entry.items():
        points[name] += sum((a for r, a in averages.items() if r < start), Fraction(0))
    return dict(points)


def standings(
    players: Iterable[str],
    results: Iterable[GameResult],
    first_round: Mapping[str, int] | None = None,
) -> list[Standing]:
    """The standings of ``players`` (bots never among them), best first, by
    :data:`TIEBREAKS` in order; the name orders players level on all of them.

    >>> games = [
    ...     GameResult(1, ("ann", "bob", None), (0, 1, 2), (30, 20, 10)),
    ...     GameResult(1, ("cat", "dan", "eve"), (1, 0, 1), (5, 9, 5)),
    ... ]
    >>> [(s.rank, s.name, str(s.points)) for s in standings("ann bob cat dan eve".split(), games)]
    [(1, 'ann', '1'), (2, 'dan', '1'), (3, 'bob', '1/2'), (4, 'cat', '1/4'), (4, 'eve', '1/4')]
    """
    games = list(results)
    names = list(dict.fromkeys(players))
    points = points_table(games, first_round)
    met: dict[str, list[str]] = defaultdict(list)
    firsts: dict[str, int] = defaultdict(int)
    score: dict[str, int] = defaultdict(int)
    played: dict[str, int] = defaultdict(int)
    for game in games:
        people = game.people()
        for name, place, own in zip(game.seats, game.places, game.scores, strict=True):
            if name is None:
                continue
            met[name].extend(p for p in people if p != name)
            firsts[name] += place == 0
            score[name] += own
            played[name] += 1

    def opponents(name: str) -> Fraction:
        seen = met[name]
        return (
            sum((points.get(o, Fraction(0)) for o in seen), Fraction(0)) / len(seen)
            if seen
            else Fraction(0)
        )

    keys = {n: (points.get(n, Fraction(0)), opponents(n), firsts[n], score[n]) for n in names}
    order = sorted(names, key=lambda n: (tuple(-x for x in keys[n]), n))
    lines: list[Standing] = []
    for i, name in enumerate(order):
        rank = lines[-1].rank if i and keys[order[i - 1]] == keys[name] else i + 1
        pts, opp, first, sc = keys[name]
        lines.append(Standing(rank, name, pts, opp, first, sc, played[name]))
    return lines
