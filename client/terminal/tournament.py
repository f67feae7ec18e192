"""The terminal client's tournaments: the page of one tournament (as ``top``'s is a page),
the list of them, and the seat a round gives us taken by itself.

``tournament_page`` and ``tournaments_page`` are pure (a reply in, the page's lines out),
so they are tested without a terminal. ``Desk`` keeps the last ``tournament`` heard of
each number: the server pushes one whenever the tournament changes (an entry, a round
seated, a game scored, the end), and the page on screen is drawn again from it, never
asked for again.

>>> from protocol import messages as m
>>> tournaments_page(m.Tournaments(tournaments=({"tournament": 1, "format": "swiss",
...     "ruleset": "switch", "host": "ann", "players": 5, "round": 0, "rounds": 3,
...     "state": "waiting", "winner": None},)))
['  1  switch  swiss  waiting  5 players  3 rounds  host ann  (enter 1 to play)']
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from protocol import messages as m

TITLE = "Tournament"
LIST_TITLE = "Tournaments"
#: what can be typed about a tournament, the last line of its page
COMMANDS = "enter N · withdraw · sitout · standings · tournament N record · tournaments"


def clock(seconds: int) -> str:
    """``75`` -> ``1:15``: a round's time left.

    >>> clock(75), clock(3600)
    ('1:15', '60:00')
    """
    return f"{seconds // 60}:{seconds % 60:02d}"


def _where(s: dict[str, Any]) -> str:
    """Where the tournament stands: its round, its clock, its winner."""
    state = s.get("state", "waiting")
    if s.get("format") == "arena":
        where = "an arena"
    elif state == "waiting":
        where = f"{s.get('rounds') or '?'} rounds"
    else:
        where = f"round {s.get('round')} of {s.get('rounds') or '?'}"
    if s.get("time_left") is not None:
        where += f", {clock(int(s['time_left']))} left"
    return f"{state}, {where}"


def tournaments_page(msg: m.Tournaments) -> list[str]:
    """One line a tournament, with how to enter one that takes entries."""
    if not msg.tournaments:
        return ["no tournaments yet: host RULESET opens one (help host)"]
    out = []
    for t in msg.tournaments:
        n = t.get("tournament")
        rounds = f"{t.get('rounds')} rounds" if t.get("rounds") else "rounds to come"
        tail = f"won by {t['winner']}" if t.get("winner") else f"(enter {n} to play)"
        if t.get("state") == "over" and not t.get("winner"):
            tail = "over"
        out.append(
            f"  {n}  {t.get('ruleset')}  {t.get('format', 'swiss')}  {t.get('state')}"
            f"  {t.get('players')} players  {rounds}  host {t.get('host')}  {tail}"
        )
    return out


def _mark(s: dict[str, Any]) -> str:
    return " (withdrawn)" if s.get("withdrawn") else " (paused)" if s.get("paused") else ""


def standings_lines(standings: Any) -> list[str]:
    """The standings, best first, in columns: rank, name, points (exact), then the
    tiebreaks in their order."""
    rows = [(f"{s.get('rank')}.", f"{s.get('name')}{_mark(s)}", str(s.get("exact")),
             str(s.get("opponents")), str(s.get("firsts")), str(s.get("score")),
             str(s.get("games"))) for s in standings]  # fmt: skip
    head = ("", "name", "points", "opp.", "firsts", "score", "games")
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    return [
        "  " + "  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip()
        for r in [head, *rows]
    ]


def tournament_page(msg: m.Tournament) -> list[str]:
    """One tournament: where it stands, the winner once over, the standings, the tables
    of the round, how the tiebreaks are computed, and what can be typed."""
    s = msg.summary
    lines = [f"{s.get('ruleset')}, {s.get('format', 'swiss')}, host {s.get('host')}: {_where(s)}"]
    if s.get("winner"):
        lines.append(f"{s['winner']} wins the night")
    lines += standings_lines(msg.standings) if msg.standings else ["  nobody has entered yet"]
    if msg.tables:
        lines.append("The tables:")
    for t in msg.tables:
        players = ", ".join(t.get("players", []))
        what = "over" if t.get("over") else "playing" if t.get("table") else "opening"
        lines.append(f"  table {t.get('table') or '-'}: {players} ({what})")
    if msg.tiebreaks:
        lines.append("Ranked by " + "; then ".join(str(t.get("name")) for t in msg.tiebreaks))
        lines += [f"  {t.get('name')}: {t.get('how')}" for t in msg.tiebreaks]
    lines.append(COMMANDS)
    return lines


def page_title(number: int) -> str:
    return f"{TITLE} {number}"


class Desk:
    """The tournaments this client has heard of, and the seat a round gives it.

    ``show`` draws a reply's page (the log keeps it too), ``redraw`` the page on screen
    again (a push: the log is not filled with every change), ``sit`` sits us at a table
    the way typing ``join TABLE`` would (the session's own), ``save`` keeps a record
    asked for as a file (``switchboard replay FILE`` shows it)."""

    def __init__(
        self,
        show: Callable[[str, list[str]], None],
        redraw: Callable[[str, list[str]], None],
        shown_title: Callable[[], str],
        sit: Callable[[str], Awaitable[None]],
        say: Callable[[str], None],
        save: Callable[[str, dict[str, Any]], Path] | None = None,
    ) -> None:
        self.show = show
        self.redraw = redraw
        self.shown_title = shown_title
        self.sit = sit
        self.say = say
        self.save = save
        #: the last ``tournament`` heard of each number (a reply or a push)
        self.heard: dict[int, m.Tournament] = {}

    def reply(self, reply: m.Tournament | m.Tournaments) -> None:
        """A reply asked for: its page."""
        if isinstance(reply, m.Tournaments):
            self.show(LIST_TITLE, tournaments_page(reply))
            return
        if reply.record and self.save is not None:  # ``tournament N record``: kept as a file
            path = self.save(f"tournament{reply.tournament}", dict(reply.record))
            self.say(f"tournament {reply.tournament}'s record saved to {path}")
            return
        self.heard[reply.tournament] = reply
        self.show(page_title(reply.tournament), tournament_page(reply))

    def pushed(self, msg: m.Tournament) -> None:
        """The server's push: kept, and the page on screen drawn again from it. The end
        is said even with the page closed."""
        before = self.heard.get(msg.tournament)
        self.heard[msg.tournament] = msg
        if self.shown_title() == page_title(msg.tournament):
            self.redraw(page_title(msg.tournament), tournament_page(msg))
        winner = msg.summary.get("winner")
        if winner and (before is None or not before.summary.get("winner")):
            self.say(f"tournament {msg.tournament} is over: {winner} wins the night")

    async def told(self, msg: m.YourTable) -> None:
        """A round is seated: sit at our table by ourselves."""
        when = "the final" if msg.final else f"round {msg.round}"
        self.say(f"tournament {msg.tournament}, {when}: your table is {msg.table}")
        await self.sit(msg.table)


def _ordinal(place: int) -> str:
    """A place (0 the best) as read: ``1st``, ``2nd``, ``3rd``, ``4th``."""
    return {0: "1st", 1: "2nd", 2: "3rd"}.get(place, f"{place + 1}th")


def is_tournament_record(record: dict[str, Any]) -> bool:
    """Whether a saved record is a tournament's (``tournament N record``), not a game's."""
    return record.get("kind") == "tournament"


def record_lines(record: dict[str, Any]) -> list[str]:
    """A tournament's record as ``switchboard replay`` prints it: each round's tables with
    each seat's place and points, then the final standings and the winner."""
    s = record.get("summary", {})
    lines = [f"Tournament {record.get('tournament')}: {s.get('ruleset')}, {s.get('format')},"
             f" host {s.get('host')}, {len(record.get('entries', []))} entries"]  # fmt: skip
    if record.get("ended"):
        lines.append(f"  over: {record['ended']}")
    for r in record.get("rounds", []):
        lines.append(f"Round {r.get('round')}" + (" (the final table)" if r.get("final") else ""))
        for t in r.get("tables", []):
            places = t.get("places") or []
            points = t.get("points") or {}
            seats = []
            for i, name in enumerate(t.get("players", [])):
                place = f" {_ordinal(places[i])}" if i < len(places) else ""
                got = f" +{points[name]}" if name in points else ""
                seats.append(f"{name}{place}{got}")
            game = f" game {t['game']}" if t.get("game") is not None else ""
            scored = t.get("outcome") or "not scored yet"
            lines.append(f"  table {t.get('table')}{game} ({scored}): " + ", ".join(seats))
    lines.append("Standings")
    lines += standings_lines(record.get("standings", []))
    if s.get("winner"):
        lines.append(f"{s['winner']} wins the night")
    return lines
