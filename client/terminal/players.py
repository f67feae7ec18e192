"""How the client shows the players' replies: a profile, a history page, a leaderboard.

Pure functions from a reply to the lines the screen shows, so each is tested without
a terminal.

>>> from protocol import messages as m
>>> describe_top(m.Top(family="shedding", players=({"place": 1, "name": "ann",
...     "rating": 1612, "games": 3},)))
['top shedding:', '  1. ann 1612 (3 games)']
"""

from __future__ import annotations

from typing import Any

from client.net.state import display_name
from protocol import messages as m
from protocol.describe import RATED_WHEN
from protocol.payloads import Person
from protocol.profile_lines import game_line, lines_of
from protocol.readable import quiet_time
from protocol.table_lines import online_text, where_text
from protocol.words import plural


def with_rating(name: str, rating: Any) -> str:
    """A lobby name with its rating beside it (``ann 1532``), or the name alone."""
    return name if rating is None else f"{name} {rating}"


def describe_profile(p: m.Profile) -> list[str]:
    """A profile: his name, then the lines the server composed for it (the browser and
    text mode show the same ones)."""
    return [f"{display_name(p.name)}:"] + [f"  {line}" for line in lines_of(p)]


def describe_history(h: m.History) -> list[str]:
    """A history page, newest first, and how to get the next one."""
    lines = [f"{display_name(h.name)}: games {h.start + 1}-{h.start + len(h.games)} of {h.total}"]
    if not h.games:
        lines = [f"{display_name(h.name)}: no finished games" + (" there" if h.start else "")]
    lines += [f"  {game_line(g)}" for g in h.games]  # as the profile says it
    if h.next is not None:
        lines.append(f"  more: history {h.name} {h.next}")
    return lines


def describe(reply: m.Profile | m.History | m.Top | m.People) -> list[str]:
    """The lines for any of the four replies."""
    if isinstance(reply, m.Profile):
        return describe_profile(reply)
    if isinstance(reply, m.History):
        return describe_history(reply)
    if isinstance(reply, m.People):
        return describe_people(reply)
    return describe_top(reply)


def title(reply: m.Profile | m.History | m.Top | m.People) -> str:
    """The heading of a reply's page: the command that asked for it."""
    if isinstance(reply, m.Profile):
        return f"finger {reply.name}"
    if isinstance(reply, m.History):
        return f"history {reply.name}"
    if isinstance(reply, m.People):
        return "who"
    return f"top {reply.family}"


def whereabouts(person: Person) -> str:
    """Where one of ``people`` is and what he does there.

    >>> whereabouts({"name": "ann", "state": "playing", "idle": 0, "tables": [
    ...     {"table": "3", "seat": 1, "state": "playing"},
    ...     {"table": "5", "seat": None, "state": "waiting"}]})
    'playing at table 3, watching table 5'
    >>> whereabouts({"name": "ann", "state": "seated", "idle": 0, "tables": [
    ...     {"table": "4", "seat": 0, "state": "over"}]})
    'seated at table 4, game over'
    >>> whereabouts({"name": "ann", "state": "idle", "tables": [], "idle": 7500})
    'in the lobby, idle 2 h 5 min'
    """
    where = person.get("where") or where_text(person)  # the server's words
    idle = person["idle"]
    quiet = f", idle {quiet_time(idle)}" if idle >= 60 else ""
    return where + quiet


def describe_people(p: m.People) -> list[str]:
    """Who is online, a line each, and how many more and how many without a name.

    >>> ann: Person = {"name": "ann", "state": "idle", "tables": [], "idle": 0}
    >>> describe_people(m.People(people=(ann,), total=1, guests=2))
    ['1 person online, and 2 connections with no name yet:', '  ann  in the lobby']
    """
    text = p.text or online_text(p.total, p.guests, len(p.people))  # the server's words
    width = max((len(x["name"]) for x in p.people), default=0)
    return [f"{text}:"] + [f"  {x['name']:<{width}}  {whereabouts(x)}" for x in p.people]


def describe_top(t: m.Top) -> list[str]:
    """A leaderboard, best first."""
    if not t.players:
        return [f"top {t.family}: nobody is rated yet", f"  ({RATED_WHEN})"]
    return [f"top {t.family}:"] + [
        f"  {p.get('place')}. {display_name(p.get('name'))} {p.get('rating')}"
        f" ({plural(p.get('games'), 'game')})"
        for p in t.players
    ]
