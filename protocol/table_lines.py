"""The lines a table says that are not a game's events: who came, went or is back, who
is watching, whom the table waits for, what the pile asks of whoever plays next, how a
finished game ended, and the clock's warning; and where a person online is (``people``'s
``where``).

The server composes each once, here, and sends it with the message it belongs to
(``text`` on ``presence`` and ``watcher``, ``waiting`` and ``pending_text`` on a turn
or a snapshot, ``result_text`` on a finished game's snapshot, ``clock_warning`` on the
welcome), so the browser, the terminal client and text mode say the same words; a
client keeps only their layout.

>>> presence_text("ann", "left", playing=True), presence_text("ann", "left", playing=False)
('ann left the table (a bot takes the seat)', 'ann left the table')
>>> watcher_text(None, "came", 2), watcher_text("bob", "went", 1)
('someone with no name came to watch (2 watchers)', 'bob stopped watching (1 watcher)')
>>> waiting_text("bot 1"), clock_warning_text()
('Waiting for bot 1…', '10 seconds left: play, or the clock plays for you')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from engine.shedding.state import PendingKind
from engine.shedding.vocabulary import PendingView
from protocol.cards import JOKER, RANK_WORDS, RANKS, SUIT_NAMES, suit_text
from protocol.describe import describe_text, isolated, pending_text
from protocol.words import article, plural

#: Seconds left on a player's own clock when his client warns him, once a turn.
CLOCK_WARNING = 10.0

#: What each ``presence`` word says about the player while a game runs ...
_PRESENCE = {
    "left": "left the table (a bot takes the seat)",
    "dropped": "dropped out (the seat stays theirs; their clock runs)",
    "back": "is back",
    "away": "is away",
}
#: ... and while none does (no bot takes the seat, no clock runs).
_IDLE = {**_PRESENCE, "left": "left the table", "dropped": "dropped out"}


def presence_text(name: str, what: str, *, playing: bool) -> str:
    """A seated player's coming or going (``presence``'s ``what``) as a sentence; a word
    this code does not know is said as it came."""
    words = _PRESENCE if playing else _IDLE
    return f"{isolated(name)} {words.get(what, what)}"


def watcher_text(name: str | None, what: str, watching: int) -> str:
    """Someone began (``came``) or stopped (``went``) watching, and how many watch now."""
    who = isolated(name) if name else "someone with no name"
    did = {"came": "came to watch", "went": "stopped watching"}.get(what, what)
    return f"{who} {did} ({plural(watching, 'watcher')})"


def waiting_text(name: str) -> str:
    """Whom the table waits for, said to everyone but him."""
    return f"Waiting for {isolated(name)}…"


#: What a table says before its first deal, in place of whom it waits for.
START_WAITING = "Waiting for the game to start…"


def clock_warning_text(seconds: float = CLOCK_WARNING) -> str:
    """What a client says once a turn when its player's own clock runs low."""
    return f"{seconds:g} seconds left: play, or the clock plays for you"


def rank_word(rank: str) -> str:
    """A rank as a sentence reads it: ``8``, ``10``, ``jack``, ``ace``."""
    return RANK_WORDS.get(rank, rank)


def pending_words(pending: Mapping[str, Any]) -> str:
    """A shedding power waiting for its answer, as the board says it to everyone: a miss
    with the rank that passes it on, the others as ``protocol.describe.pending_text``.

    >>> miss = {"kind": PendingKind.MISS, "count": 1, "cards": ["8H"], "rank": "8"}
    >>> pending_words(miss), pending_words({**miss, "count": 2, "rank": "A"})
    ('play an 8 or miss 1 turn', 'play an ace or miss 2 turns')
    >>> pending_words({"kind": PendingKind.PICKUP, "count": 4, "cards": []})
    'pick up 4'
    """
    rank = pending.get("rank")
    if pending.get("kind") == PendingKind.MISS and isinstance(rank, str):
        return f"play {article(rank_word(rank))} or miss {plural(pending.get('count'), 'turn')}"
    return pending_text(cast("PendingView", pending))


def follow_words(top: str) -> str:
    """What must follow kilodney's ``top`` (not a joker): its suit or its rank.

    >>> follow_words("KS"), follow_words("8H")
    ('♠ spades or a king, or play a joker', '♥ hearts or an 8, or play a joker')
    """
    return f"{suit_text(top[-1])} or {article(rank_word(top[0]))}, or play a joker"


def pending_line(view: Mapping[str, Any]) -> str | None:
    """A shedding view's pending power as its board's line (``None``: none pending)."""
    pending = view.get("pending")
    return f"Pending: {pending_words(pending)}" if isinstance(pending, Mapping) else None


def follow_line(view: Mapping[str, Any]) -> str | None:
    """What must follow a kilodney view's pile, as its board's line (``None``: the game
    is over)."""
    top = view.get("top")
    if isinstance(top, str) and len(top) == 2 and view.get("running") and top != JOKER:
        line = _FOLLOW_LINES.get(top)
        if line is None:
            line = f"Follow: {follow_words(top)}"
            if top[0] in RANKS and top[-1] in SUIT_NAMES:  # a card: kept (52 at most)
                _FOLLOW_LINES[top] = line
        return line
    return None if view.get("over") else "Lead any card"


#: ``follow_line``'s line for each top card met so far (52 at most): every action's turns
#: say one
_FOLLOW_LINES: dict[str, str] = {}


#: The fields of a view ``pile_text`` reads, by family (besides ``family``): all public, so
#: every seat's view of one moment and the spectators' agree on them and a table composes
#: the line once for all its turns of an action (``server.core.wire.TurnLines``).
PILE_FIELDS: dict[str, tuple[str, ...]] = {
    "shedding": ("pending",),
    "kilodney": ("top", "running", "over"),
}


def pile_text(view: Mapping[str, Any]) -> str | None:
    """What the pile asks of whoever plays next, as the board's line says it to every
    seat and spectator: shedding's power pending, kilodney's suit or rank to follow
    (``None``: nothing to say, or a family without a pile).

    >>> pile_text({"family": "kilodney", "top": "KS", "running": True, "over": False})
    'Follow: ♠ spades or a king, or play a joker'
    >>> pile_text({"family": "shedding", "pending": {"kind": "miss", "count": 1, "rank": "8"}})
    'Pending: play an 8 or miss 1 turn'
    """
    family = view.get("family")
    if family == "shedding":
        return pending_line(view)
    if family == "kilodney":
        return follow_line(view)
    return None


#: How each kind of place a person online is at is said (``where_text``).
_PLACES = {
    "watching": "watching table {table}",
    "playing": "playing at table {table}",
    "seated": "seated at table {table}, waiting",
    "over": "seated at table {table}, game over",
}


def where_text(person: Mapping[str, Any]) -> str:
    """Where a ``people`` entry is: its tables, then how many more the server left out.

    >>> where_text({"name": "ann", "state": "playing", "idle": 0, "more": 2, "tables": [
    ...     {"table": "3", "seat": 1, "state": "playing"},
    ...     {"table": "5", "seat": None, "state": "waiting"},
    ...     {"table": "7", "seat": 0, "state": "over"}]})
    'playing at table 3, watching table 5, seated at table 7, game over, and 2 tables more'
    >>> where_text({"name": "cy", "state": "idle", "idle": 0, "tables": []})
    'in the lobby'
    """
    out = []
    for spot in person.get("tables") or []:
        state = spot.get("state")
        if spot.get("seat") is None:
            kind = "watching"
        else:
            kind = (
                "playing"
                if state in ("playing", "paused")
                else "over"
                if state == "over"
                else "seated"
            )
        out.append(_PLACES[kind].format(table=spot.get("table")))
    more = person.get("more")
    if isinstance(more, int) and more > 0:
        out.append(f"and {plural(more, 'table')} more")
    return ", ".join(out) or "in the lobby"


def online_text(total: int, guests: int, listed: int) -> str:
    """The line above the ``people`` list (its ``text``): how many names are online, how
    many of them the list leaves out (the server lists at most ``who_max``), and how many
    connections have no name yet.

    >>> online_text(1, 0, 1)
    '1 person online'
    >>> online_text(3, 1, 3)
    '3 people online, and 1 connection with no name yet'
    >>> online_text(250, 2, 200)
    '250 people online (200 of them listed), and 2 connections with no name yet'
    """
    out = f"{plural(total, 'person', 'people')} online"
    if total > listed:
        out += f" ({listed} of them listed)"
    if guests:
        out += f", and {plural(guests, 'connection')} with no name yet"
    return out


def result_text(
    view: Mapping[str, Any], names: Sequence[str | None], *, ended: bool = False
) -> str | None:
    """A finished game's end in words, from its last view (``None``: it runs), for one
    who comes to the table after its last event: the words its ``game_end`` said.
    ``ended``: the table ended the game before its view was over (no winner then).

    >>> result_text({"over": True, "winner": 1, "scores": [3, 9]}, ["ann", "bob"])
    'Game over: bob wins · scores ann 3, bob 9'
    >>> result_text({"over": False, "scores": [3, 9]}, ["ann", "bob"], ended=True)
    'Game over · scores ann 3, bob 9'
    """
    over = bool(view.get("over"))
    if not (over or ended):
        return None
    winner = view.get("winner") if over else None
    end = {"kind": "game_end", "winner": winner, "scores": view.get("scores") or []}
    return describe_text(end, names)


__all__ = [
    "CLOCK_WARNING",
    "PILE_FIELDS",
    "START_WAITING",
    "clock_warning_text",
    "follow_line",
    "follow_words",
    "pending_line",
    "pending_words",
    "pile_text",
    "presence_text",
    "rank_word",
    "result_text",
    "waiting_text",
    "watcher_text",
    "where_text",
]
