"""The lobby: the server's tables (filtered by words the person types), and beside them
the tables this person is at and who is online.

What the server's table list says is the truth about seats: ``seated_by_server``
finds our name in it, even for a seat taken on another machine or before a crash.
"""

from __future__ import annotations

import textwrap

from prompt_toolkit.application.current import get_app
from prompt_toolkit.formatted_text import StyleAndTextTuples

from client.terminal.players import with_rating
from client.terminal.screen import Screen
from protocol.describe import seat_name, seat_words
from protocol.payloads import TableSummary

PANEL_WIDTH = 24
LOBBY_FIXED = 6 + 11 + 6 + 8  #: the lobby's columns but players: table, game, seats, state


class LobbyScreen:
    """The lobby's list of tables and its panel, over the app's state."""

    def __init__(self, app: Screen) -> None:
        self.app = app
        self.filter_words: list[str] = []

    def set_filter(self, words: list[str]) -> None:
        """Show only the tables whose row holds every one of ``words`` (none: all)."""
        self.filter_words = [w.lower() for w in words]

    def ruleset_of(self, table: str) -> str:
        """The ruleset of ``table`` as the table list says ("" if not listed)."""
        row = self.row(table)
        return "" if row is None else row["ruleset"]

    def row(self, table: str) -> TableSummary | None:
        """The table list's row for ``table`` (None if not listed)."""
        return next((i for i in self.app.state.lobby if i["table"] == table), None)

    def _players(self, info: TableSummary, width: int) -> str:
        ratings = info["ratings"]
        players = ", ".join(
            with_rating(seat_name(p, i) or "-", ratings[i] if i < len(ratings) else None)
            for i, p in enumerate(info["players"])
        )
        if len(players) > width - 1:
            players = players[: width - 2] + ("~" if self.app.ascii_only else "…")
        return players

    def text(self, width: int) -> StyleAndTextTuples:
        """The list of tables, one a row, and the games a table can be created with."""
        # The players column takes what the others leave: at 80 columns (55 beside the
        # panel) every column, the state last, still shows.
        players_width = max(8, min(28, width - LOBBY_FIXED))
        heading = f"{'table':<6}{'game':<11}{'seats':<6}{'players':<{players_width}}state"
        out: StyleAndTextTuples = [("class:heading", heading), ("", "\n")]
        rows = 0
        for info in self.app.state.lobby:
            taken = sum(1 for p in info["players"] if p)
            seats = f"{taken}/{info['seats']}"
            line = (
                f"{info['table']:<6}{info['ruleset']:<11}{seats:<6}"
                f"{self._players(info, players_width):<{players_width}}{info['state']}"
            )
            if self.filter_words and not all(w in line.lower() for w in self.filter_words):
                continue
            out += [("", line[:width]), ("", "\n")]
            rows += 1
        if not rows:
            hint = "no table matches the filter" if self.filter_words else "no tables yet"
            out += [("class:dim", f"({hint}: `create` opens one)"), ("", "\n")]
        if self.filter_words:
            out += [("class:dim", f"filter: {' '.join(self.filter_words)}"), ("", "\n")]
        if (page := self.page_note()) is not None:
            out += [("class:dim", page[:width]), ("", "\n")]
        if self.app.state.rulesets:
            names = " ".join(r["name"] for r in self.app.state.rulesets)
            wrapped = textwrap.wrap(f"games: {names}", max(20, width), subsequent_indent="  ")
            out += [("class:dim", "\n".join(wrapped))]
        return out

    def page_note(self) -> str | None:
        """Which of the server's tables the list shows, and how to see others, when it
        shows a page of them (None: it shows them all)."""
        start, following, total = self.app.state.lobby_page
        shown = len(self.app.state.lobby)
        if start == 0 and shown >= total:
            return None
        where = f"tables {start + 1}-{start + shown} of {total}" if shown else f"of {total}"
        if following is not None:
            return f"{where}: `tables {following}` shows the next"
        return f"{where}: `tables` shows the first"

    def panel(self) -> StyleAndTextTuples:
        """Beside the list: the tables we are at, then who is online."""
        out: StyleAndTextTuples = [("class:heading", "Your tables"), ("", "\n")]
        mine = self.my_tables()
        for tid, role in mine.items():
            out += [("", f"{tid} {role}"), ("", "\n")]
        if not mine:
            out += [("class:dim", "none yet"), ("", "\n")]
        else:
            out += [("class:dim", "`table N` goes to one"), ("", "\n")]
        return out + self._online()

    def _online(self) -> StyleAndTextTuples:
        """Who is online, under the lobby's own tables: each name and where it is (the
        server's ``who``, fetched with the table list; ``who`` prints it whole)."""
        state = self.app.state
        if state.online is None:
            return []
        total, _guests = state.online
        out: StyleAndTextTuples = [("", "\n"), ("class:heading", f"Online ({total})"), ("", "\n")]
        rows = max(0, get_app().output.get_size().rows - 16)  # what the panel has room for
        for person in state.people[:rows]:
            where = [
                f"{'watching' if spot['seat'] is None else 'at'} {spot['table']}"
                + (" (over)" if spot["state"] in ("over", "closed") else "")
                for spot in person["tables"]
            ]
            more = person.get("more", 0)  # the tables the server left out of its list
            out += [
                ("", f"{person['name'][:10]:<11}"),
                ("class:dim", _places(where, more)),
                ("", "\n"),
            ]
        if total > min(rows, len(state.people)):
            out += [("class:dim", f"... `who` lists all {total}"), ("", "\n")]
        return out

    def seated_by_server(self) -> dict[str, int]:
        """Tables where the server's table list shows our name in a seat: the truth, even
        for a seat this client never took (another machine's, or before a crash)."""
        out: dict[str, int] = {}
        name = self.app.state.name
        for info in self.app.state.lobby:
            players = info["players"]
            if name and name in players:
                out[info["table"]] = players.index(name)
        return out

    def my_tables(self) -> dict[str, str]:
        """Table -> ``seat N`` or ``watching``: where we sit (by the server's list, and
        by this connection) and what we watch."""
        mine = {tid: seat_words(seat) for tid, seat in self.seated_by_server().items()}
        for tid, tt in self.app.state.tables.items():
            if tt.seat is not None:
                mine[tid] = seat_words(tt.seat)
            else:
                mine.setdefault(tid, "watching")
        return mine


def _places(where: list[str], more: int, width: int = PANEL_WIDTH - 11) -> str:
    """As many of a person's places as fit the panel's line, whole, and ``+N`` for the
    rest (those that did not fit and those the server left out of its list).

    >>> _places(["at 1", "watching 12"], 0)
    'at 1 +1'
    >>> _places(["at 1", "at 2", "at 3"], 5)
    'at 1, at 2 +6'
    >>> _places([], 0)
    'lobby'
    """
    if not where and not more:
        return "lobby"
    shown: list[str] = []
    for n, place in enumerate(where):
        rest = len(where) - n - 1 + more
        tail = f" +{rest}" if rest else ""
        if len(", ".join([*shown, place]) + tail) > width:
            break
        shown.append(place)
    hidden = len(where) - len(shown) + more
    line = ", ".join(shown)
    return (line + (f" +{hidden}" if hidden else "")).strip()[:width]
