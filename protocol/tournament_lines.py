"""Text mode's sentences for the tournament replies (``tournaments``, ``tournament``).

Kept beside ``protocol.readable`` (which registers them) so a tournament's wording is
in one place: the list, then one tournament's state, its standings with their
tiebreaks, and the round's tables with the command that sits you there; and a finished
tournament's record as ``switchboard replay`` prints it (``record_lines``).

>>> from protocol.messages import Tournaments
>>> tournaments_lines(Tournaments(tournaments=()))
['tournaments · none yet: host RULESET opens one (rulesets lists the games)']
"""

from __future__ import annotations

from typing import Any

from protocol.describe import seat_words
from protocol.messages import Tournament, Tournaments, YourTable
from protocol.words import plural

DOT = " · "  #: as ``protocol.readable`` joins a line's parts


def _id(msg: Any) -> str:
    return "" if msg.id is None else f" #{msg.id}"


def _summary(t: dict[str, Any]) -> str:
    state = t.get("state")
    rounds = t.get("rounds") or "?"
    where = f"round {t.get('round')} of {rounds}" if state != "waiting" else plural(rounds, "round")
    if t.get("format") == "arena":
        where = "an arena"
    if t.get("time_left") is not None:
        where += f", {_clock(int(t['time_left']))} left"
    if t.get("paused"):
        where += f"{DOT}paused by its host: games wait after their hand"
    if t.get("winner"):
        where += f"{DOT}{t['winner']} won"
    return (
        f"{t.get('ruleset')}, {t.get('format', 'swiss')}, {state}{DOT}{where}"
        f"{DOT}{plural(t.get('players'), 'player')}{DOT}host {t.get('host')}"
    )


def _clock(seconds: int) -> str:
    """``75`` -> ``1:15``."""
    return f"{seconds // 60}:{seconds % 60:02d}"


def tournaments_lines(msg: Tournaments) -> list[str]:
    """One line a tournament, with the command to enter it while it takes entries."""
    if not msg.tournaments:
        return [f"tournaments{_id(msg)}{DOT}none yet: host RULESET opens one (rulesets lists"
                " the games)"]  # fmt: skip
    out = []
    for t in msg.tournaments:
        hint = f"{DOT}enter {t.get('tournament')} to play" if t.get("state") != "over" else ""
        out.append(f"tournaments{_id(msg)} {t.get('tournament')}{DOT}{_summary(t)}{hint}")
    return out


def standing_line(s: dict[str, Any]) -> str:
    """One standing in words: rank, name, points, then the tiebreaks."""
    marks = [m for m in ("paused", "withdrawn") if s.get(m)]
    also = f" ({', '.join(marks)})" if marks else ""
    return (
        f"{s.get('rank')}. {s.get('name')}{also} {s.get('exact')} point"
        f"{'' if str(s.get('exact')) == '1' else 's'}"
        f"{DOT}opponents {s.get('opponents')}{DOT}firsts {s.get('firsts')}"
        f"{DOT}score {s.get('score')}"
    )


def tournament_lines(msg: Tournament) -> list[str]:
    """The tournament's state, its standings best first, the tiebreaks, its tables."""
    head = f"tournament{_id(msg)} {msg.tournament}"
    out = [f"{head}{DOT}{_summary(msg.summary)}"]
    out += [f"{head}{DOT}{standing_line(s)}" for s in msg.standings]
    if msg.standings:
        ties = "; ".join(f"{t.get('name')}: {t.get('how')}" for t in msg.tiebreaks)
        out.append(f"{head}{DOT}ranked by {ties}")
    for t in msg.tables:
        players = ", ".join(t.get("players", []))
        table = t.get("table")
        what = "over" if t.get("over") else (f"join {table}" if table else "opening")
        out.append(f"{head}{DOT}table {table or '-'}: {players}{DOT}{what}")
    return out


def your_table_lines(msg: YourTable) -> list[str]:
    """Where a round seats you; the table becomes the current one, so a bare ``look``
    (or ``join``) takes the seat held there for you and shows the table.

    >>> your_table_lines(YourTable(tournament=1, round=2, table="7", seat=3))
    ['your table for round 2 is 7 (seat 4): look (or join) sits you there and shows it']
    """
    when = "the final" if msg.final else f"round {msg.round}"
    return [
        f"your table for {when} is {msg.table} ({seat_words(msg.seat)}): look (or join) sits you"
        " there and shows it"
    ]


def winner_line(tournament: int, summary: dict[str, Any]) -> str | None:
    """The end of a tournament in words, once it has a winner (else None).

    >>> winner_line(3, {"winner": "ann", "state": "over"})
    'tournament 3 is over: ann wins the night'
    """
    winner = summary.get("winner")
    return f"tournament {tournament} is over: {winner} wins the night" if winner else None


def place_word(place: int) -> str:
    """A place (0 the best) as read: ``1st``, ``2nd``, ``3rd``, ``4th``, ``11th``, ``21st``.

    >>> [place_word(p) for p in (0, 1, 2, 3, 10, 20)]
    ['1st', '2nd', '3rd', '4th', '11th', '21st']
    """
    n = place + 1
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _table_line(t: dict[str, Any]) -> str:
    """One table of a round: its game, whether it was scored, each seat's place and points."""
    places = t.get("places") or []
    points = t.get("points") or {}
    seats = []
    for i, name in enumerate(t.get("players", [])):
        place = f" {place_word(places[i])}" if i < len(places) else ""
        got = f" +{points[name]}" if name in points else ""
        seats.append(f"{name}{place}{got}")
    game = f" game {t['game']}" if t.get("game") is not None else ""
    scored = t.get("outcome") or "not scored yet"
    return f"  table {t.get('table')}{game} ({scored}): " + ", ".join(seats)


def record_lines(record: dict[str, Any]) -> list[str]:
    """A tournament's record (``tournament N record``) as ``switchboard replay`` prints it:
    each round's tables with each seat's place and points, then the final standings (as
    ``standing_line`` says one) and the winner (as ``winner_line`` says it).

    >>> record = {"tournament": 2, "summary": {"ruleset": "switch", "format": "swiss",
    ...     "host": "ann", "winner": "bob"}, "entries": [{}, {}], "rounds": [{"round": 1,
    ...     "tables": [{"table": "5", "game": 1, "players": ["ann", "bob"],
    ...     "places": [1, 0], "points": {"bob": 1}, "outcome": "finished"}]}]}
    >>> print("\\n".join(record_lines(record)))
    Tournament 2: switch, swiss, host ann, 2 entries
    Round 1
      table 5 game 1 (finished): ann 2nd, bob 1st +1
    Standings
    tournament 2 is over: bob wins the night
    """
    s = record.get("summary", {})
    lines = [f"Tournament {record.get('tournament')}: {s.get('ruleset')}, {s.get('format')},"
             f" host {s.get('host')}, {len(record.get('entries', []))} entries"]  # fmt: skip
    if record.get("ended"):
        lines.append(f"  over: {record['ended']}")
    for r in record.get("rounds", []):
        lines.append(f"Round {r.get('round')}" + (" (the final table)" if r.get("final") else ""))
        lines += [_table_line(t) for t in r.get("tables", [])]
    lines.append("Standings")
    lines += ["  " + standing_line(st) for st in record.get("standings", [])]
    number = record.get("tournament")
    won = winner_line(number, s) if isinstance(number, int) else None
    if won:
        lines.append(won)
    return lines
