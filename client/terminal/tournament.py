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
['1 · switch, swiss, waiting · 3 rounds · 5 players · host ann · enter 1 to play']
"""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from protocol import messages as m
from protocol.tournament_lines import (
    tournament_lines,
    tournaments_lines,
    winner_line,
    your_table_lines,
)

TITLE = "Tournament"
LIST_TITLE = "Tournaments"
#: what can be typed about a tournament, the last line of its page
COMMANDS = (
    "enter N · withdraw · sitout · standings · tournament N record · tournaments"
    " · the host: tournament N start|pause|resume|end"
)
#: the keys of a tournament's page: each one's key, its name on the page's key line, what
#: it does there, and the line it types for tournament N (as typing it would)
PAGE_KEYS: tuple[tuple[str, str, str, str], ...] = (
    ("f5", "F5", "pause", "sitout {n}"),
    ("f6", "F6", "back", "enter {n}"),
    ("f7", "F7", "host: pause all", "tournament {n} pause"),
    ("f8", "F8", "resume all", "tournament {n} resume"),
)
#: the page's key line, its last (how to close it last of all)
KEY_LINE = " · ".join(f"{name} {what}" for _, name, what, _ in PAGE_KEYS) + " · Escape closes"


def tournaments_page(msg: m.Tournaments) -> list[str]:
    """One line a tournament, in text mode's words (``protocol.tournament_lines``), less
    the leading word that names the message: the page's title says what it is."""
    lines = tournaments_lines(dataclasses.replace(msg, id=None))
    return [line.removeprefix("tournaments").lstrip(" ·") for line in lines]


def tournament_page(msg: m.Tournament) -> list[str]:
    """One tournament in text mode's words: where it stands (its winner once over), the
    standings best first with their tiebreaks, the round's tables; then what can be typed."""
    head = f"tournament {msg.tournament} · "
    lines = tournament_lines(dataclasses.replace(msg, id=None, record={}))
    return [line.removeprefix(head) for line in lines] + [COMMANDS]


def page_title(number: int) -> str:
    return f"{TITLE} {number}"


def page_number(title: str) -> int | None:
    """The tournament whose page has ``title`` (None: the page is another's).

    >>> page_number("Tournament 3"), page_number("Tournaments"), page_number("Help")
    (3, None, None)
    """
    head, _, number = title.partition(" ")
    return int(number) if head == TITLE and number.isdigit() else None


def key_typed(key: str, title: str) -> str | None:
    """The line a page key types on the page titled ``title`` (None: not a tournament's
    page, or not one of its keys): F5 ``sitout N``, F6 ``enter N``, the host's F7
    ``tournament N pause`` and F8 ``tournament N resume``.

    >>> key_typed("f5", "Tournament 3"), key_typed("f6", "Tournament 3")
    ('sitout 3', 'enter 3')
    >>> key_typed("f5", "Help") is None
    True
    """
    number = page_number(title)
    typed = next((line for k, _, _, line in PAGE_KEYS if k == key), None)
    return None if number is None or typed is None else typed.format(n=number)


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
            self.say(winner_line(msg.tournament, msg.summary) or "")

    async def told(self, msg: m.YourTable) -> None:
        """A round is seated: sit at our table by ourselves."""
        self.say(your_table_lines(msg)[0].split(":")[0])  # the rest is for a person at nc
        await self.sit(msg.table)


def is_tournament_record(record: dict[str, Any]) -> bool:
    """Whether a saved record is a tournament's (``tournament N record``), not a game's."""
    return record.get("kind") == "tournament"
