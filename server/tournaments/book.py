"""One tournament as its log makes it: entries, rounds, tables, points and standings.

A tournament is the list of its log entries (``server.store.base.TournamentLogged``),
as a game is its actions: ``Book.apply`` takes them one at a time, the same on a live
server as after a restart, and everything a client is shown (the round, the tables, the
standings) is read from the book. No I/O: the service (``server.tournaments.service``)
decides what to log next and stores it; the seating, points and tiebreaks are the
engine's (``engine.tournament``), so a restarted server seats a round exactly as it
would have.

The entries and their data:

- ``created``: the ``format`` (``swiss``, the default, or ``arena``), the host,
  ruleset, table sizes (``sizes``, ``preferred``, ``max_bots``), ``rounds``, the
  round's time cap ``minutes`` (an arena's length), ``wait_seconds`` (an arena's wait
  before bots fill), ``seed``, ``by_strength`` and ``forbidden`` pairs, the tables'
  ``options``, ``final`` (the players of a final table after the rounds; 0: none);
- ``entered`` (``name``, ``rating``, ``round``: the first round he can play),
  ``withdrew``, ``paused``, ``back`` (``name``);
- ``started``: the host started it (``rounds``: fixed now, if the host left it open);
- ``seated``: a round's tables (``round``, ``tables``: each ``people`` and ``bots``);
  in an arena each seating of whoever is free is a "round" of its own, numbered on;
  the final table's round says ``final``;
- ``opened``: the server table a round's table is played at (``round``, ``index``,
  ``table``), in the transaction that creates it;
- ``played``: a table's game ended (``round``, ``index``, ``places``, ``scores``,
  ``outcome``), in the transaction that stores the end;
- ``clocked``: a Swiss round's time cap starts counting (``round``, ``at``: the wall
  clock), so a restart keeps the cap where it was rather than starting it again;
- ``halted``, ``resumed``: the host paused the whole tournament, or resumed it (``at``:
  the wall clock); the time between them is not counted against a round's cap (nor an
  arena's length);
- ``ended``: the tournament is over (``reason``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from engine.tournament import GameResult, SeatRule, Standing, points_table, standings
from engine.tournament.swiss import Options, Player, Seating, Table, meetings_from, seat_round

#: What a tournament is, as its listing shows it.
WAITING, PLAYING, OVER = "waiting", "playing", "over"
#: The formats: rounds everyone plays together, or tables started as players are free.
SWISS, ARENA = "swiss", "arena"


class BookError(ValueError):
    """A request the tournament cannot take now: ``code`` is the wire error code
    (``no_tournament``, ``bad_options``, ``not_master``, ``bad_state``), the text says why."""

    def __init__(self, text: str, code: str = "bad_state") -> None:
        super().__init__(text)
        self.code = code


@dataclass(slots=True)
class Entrant:
    """A player in the tournament (bots never are)."""

    name: str
    rating: float
    first_round: int
    withdrawn: bool = False
    paused: bool = False


@dataclass(slots=True)
class RoundTable:
    """One table of a round: who sits in which seat (``None``: a bot), the server table
    it is played at once opened, and its result once played."""

    index: int
    seats: tuple[str | None, ...]
    round: int = 0
    table: int | None = None
    result: GameResult | None = None
    outcome: str | None = None
    game: int | None = None  #: the table's game that was scored (logs before it: None)


@dataclass(slots=True)
class Book:
    """One tournament, rebuilt from its log (``apply``)."""

    number: int
    format: str = SWISS
    host: str = ""
    ruleset: str = ""
    rule: SeatRule = field(default_factory=lambda: SeatRule.between(2, 4))
    rounds: int = 3
    minutes: float = 30.0
    wait_seconds: float = 25.0
    at: float | None = None  #: when it started (wall clock), for an arena's end
    seed: int = 0
    options: Options = field(default_factory=Options)
    table_options: dict[str, Any] = field(default_factory=dict)
    entrants: dict[str, Entrant] = field(default_factory=dict)
    played_rounds: list[list[RoundTable]] = field(default_factory=list)
    ended: str | None = None
    final: int = 0  #: players at the final table (0: no final)
    final_round: int | None = None  #: the final table's round, once seated
    started: bool = False
    entries: int = 0
    halted_at: float | None = None  #: when the host paused it (wall clock); None: running
    clock_round: int = 0  #: the round whose time cap is counting (0: none yet)
    clock_at: float | None = None  #: when that round's cap started counting (wall clock)
    held: float = 0.0  #: seconds the cap (an arena: its length) was stopped by pauses

    # ------------------------------------------------------------ the log
    def apply(self, kind: str, data: dict[str, Any]) -> None:
        """Take the next entry of the log."""
        match kind:
            case "created":
                self.format = str(data.get("format", SWISS))
                self.wait_seconds = float(data.get("wait_seconds", 25.0))
                self.host = data["host"]
                self.ruleset = data["ruleset"]
                self.rule = SeatRule(
                    tuple(data["sizes"]), int(data["preferred"]), int(data.get("max_bots", 1))
                )
                self.rounds = int(data["rounds"])
                self.minutes = float(data["minutes"])
                self.seed = int(data["seed"])
                self.options = Options.forbidding(
                    [(str(a), str(b)) for a, b in data.get("forbidden", [])],
                    bool(data.get("by_strength", False)),
                )
                self.table_options = dict(data.get("options", {}))
                self.final = int(data.get("final", 0))
            case "entered":
                name = data["name"]
                self.entrants[name] = Entrant(name, float(data["rating"]), int(data["round"]))
            case "withdrew":
                self.entrants[data["name"]].withdrawn = True
            case "paused" | "back":
                self.entrants[data["name"]].paused = kind == "paused"
            case "started":
                self.started = True
                self.rounds = int(data["rounds"])
                self.at = data.get("at")
            case "seated":
                assert data["round"] == len(self.played_rounds) + 1, data
                self.played_rounds.append(
                    [
                        RoundTable(i, (*t["people"], *([None] * int(t["bots"]))), data["round"])
                        for i, t in enumerate(data["tables"])
                    ]
                )
                if data.get("final"):
                    self.final_round = data["round"]
            case "opened":
                self.played_rounds[data["round"] - 1][data["index"]].table = int(data["table"])
            case "played":
                at = self.played_rounds[data["round"] - 1][data["index"]]
                at.result = GameResult(
                    data["round"], at.seats, tuple(data["places"]), tuple(data["scores"])
                )
                at.outcome = data.get("outcome")
                at.game = data.get("game")
            case "clocked":
                self.clock_round, self.clock_at = int(data["round"]), float(data["at"])
                self.held = 0.0
            case "halted":
                self.halted_at = float(data["at"])
            case "resumed":
                if self.halted_at is not None:
                    since = max(self.halted_at, self.clock_at or self.at or self.halted_at)
                    self.held += max(0.0, float(data["at"]) - since)
                self.halted_at = None
            case "ended":
                self.ended = str(data.get("reason", "over"))
            case _:
                raise ValueError(f"unknown tournament entry {kind!r}")
        self.entries += 1

    # ------------------------------------------------------------ queries
    @property
    def state(self) -> str:
        """``waiting`` (no round seated yet), ``playing`` or ``over``."""
        if self.ended is not None:
            return OVER
        return PLAYING if self.started else WAITING

    @property
    def round(self) -> int:
        """The round under way or last played (0: none yet)."""
        return len(self.played_rounds)

    def results(self) -> list[GameResult]:
        """Every game played so far, round by round."""
        return [t.result for r in self.played_rounds for t in r if t.result is not None]

    @property
    def paused(self) -> bool:
        """Whether the host has paused the whole tournament (and not resumed it)."""
        return self.halted_at is not None and self.ended is None

    def cap_left(self, now: float) -> float | None:
        """Seconds left of the round's time cap at ``now`` (wall clock), stopped while the
        tournament is paused; None: the round under way has no cap counting yet.

        >>> book = Book(1, minutes=10, clock_round=1, clock_at=100.0)
        >>> book.played_rounds = [[]]
        >>> book.cap_left(160.0)
        540.0
        >>> book.apply("halted", {"at": 160.0})
        >>> book.cap_left(1000.0)  # paused: the cap stands still
        540.0
        >>> book.apply("resumed", {"at": 400.0})
        >>> book.cap_left(460.0)
        480.0
        """
        if self.clock_at is None or self.clock_round != self.round:
            return None
        return self._left(self.clock_at, now)

    def arena_left(self, now: float) -> float:
        """Seconds left of an arena at ``now`` (wall clock), stopped while it is paused."""
        return self._left(self.at if self.at is not None else now, now)

    def _left(self, start: float, now: float) -> float:
        stop = now if self.halted_at is None else max(start, min(now, self.halted_at))
        return max(0.0, start + self.minutes * 60 + self.held - stop)

    def round_over(self) -> bool:
        """Whether every table of the current round has played (True before round 1)."""
        return all(t.result is not None for t in self.current_tables())

    def current_tables(self) -> list[RoundTable]:
        """The tables of the round under way or last played."""
        return self.played_rounds[-1] if self.played_rounds else []

    def at_table(self, table: int) -> tuple[int, RoundTable] | None:
        """The round and round table played at server table ``table``, if one is."""
        for number, tables in enumerate(self.played_rounds, start=1):
            for t in tables:
                if t.table == table:
                    return number, t
        return None

    def running_tables(self) -> list[RoundTable]:
        """Every table of every round still to be scored (an arena's run side by side)."""
        return [t for r in self.played_rounds for t in r if t.result is None]

    def last_groups(self) -> dict[str, frozenset[str]]:
        """Each player's people at his last table (an arena never seats them so again)."""
        groups: dict[str, frozenset[str]] = {}
        for tables in self.played_rounds:
            for t in tables:
                people = frozenset(p for p in t.seats if p is not None)
                for p in people:
                    groups[p] = people
        return groups

    def table_of(self, name: str) -> RoundTable | None:
        """``name``'s table in the current round, if he has one."""
        return next((t for t in self.current_tables() if name in t.seats), None)

    def points(self) -> dict[str, Fraction]:
        """Each entrant's points (late entrants with the rounds' averages they missed)."""
        first = {e.name: e.first_round for e in self.entrants.values()}
        table = points_table(self.results(), first)
        return {name: table.get(name, Fraction(0)) for name in self.entrants}

    def standings(self) -> list[Standing]:
        """The standings, best first (``engine.tournament.standings``)."""
        first = {e.name: e.first_round for e in self.entrants.values()}
        return standings(list(self.entrants), self.results(), first)

    def late_entry_open(self) -> bool:
        """Entry is open until more than half the rounds have started."""
        if self.format == ARENA:
            return self.ended is None
        return self.ended is None and (not self.started or self.round * 2 <= self.rounds)

    def next_seating(self) -> Seating:
        """The next round's tables, for every entrant neither withdrawn nor paused."""
        points = self.points()
        players = [
            Player(e.name, e.rating, points[e.name])
            for e in self.entrants.values()
            if not e.withdrawn and not e.paused
        ]
        if not players:
            raise BookError("nobody is left to play the next round")
        return seat_round(
            players,
            self.rule,
            seed=self.seed,
            round_number=self.round + 1,
            meetings=meetings_from(self.results()),
            options=self.options,
        )

    def final_seating(self) -> Seating:
        """The final table: the top ``final`` of the standings still in, at the smallest
        table that seats them (as many as the largest seats), bots in its other seats."""
        if self.final < 2:
            raise BookError("this tournament has no final table")
        top = [s.name for s in self.standings() if not self.entrants[s.name].withdrawn]
        people = tuple(top[: min(self.final, self.rule.sizes[-1])])
        if not people:
            raise BookError("nobody is left for the final table")
        seats = next(size for size in self.rule.sizes if size >= len(people))
        return Seating(self.round + 1, (Table(people, seats - len(people)),))

    def winner(self) -> str | None:
        """The winner of the night: the person placed best at the final table if one was
        played (ties by the standings), else the first of the standings."""
        order = [s.name for s in self.standings()]
        if self.final_round is not None:
            (final,) = self.played_rounds[self.final_round - 1]
            if final.result is not None:  # the best placed person (a bot wins nothing)
                seats = zip(final.seats, final.result.places, strict=True)
                placed = [(p, order.index(n)) for n, p in seats if n is not None]
                return order[min(placed)[1]]
        return order[0] if order else None

    def summary(self) -> dict[str, Any]:
        """The tournament as the lobby lists it."""
        return {
            "tournament": self.number,
            "format": self.format,
            "ruleset": self.ruleset,
            "host": self.host,
            "players": sum(1 for e in self.entrants.values() if not e.withdrawn),
            "round": self.round,
            "rounds": self.rounds,
            "state": self.state,
            "paused": self.paused,
            "final": self.final,
            "winner": self.winner() if self.state == OVER else None,
        }


def seated_entry(seating: Seating, final: bool = False) -> dict[str, Any]:
    """The ``seated`` entry's data for a round's tables."""
    data: dict[str, Any] = {
        "round": seating.round,
        "tables": [{"people": list(t.people), "bots": t.bots} for t in seating.tables],
    }
    if final:
        data["final"] = True
    return data


def table_of_seating(table: Table) -> tuple[str | None, ...]:
    """A round table's seats: its people first, then its bots."""
    return (*table.people, *([None] * table.bots))
