"""What a client knows about the server and its tables, kept up to date from messages.

The terminal client draws from this and the bots decide from it, so it lives
apart from both: ``ClientState.handle(msg)`` folds one received message in and
says what changed. It does no I/O and knows no codec.

Events are applied once, in order: an event whose ``seq`` is not past the
table's last one is a duplicate (a resume may overlap) and is ignored; the
table remembers ``seq`` so that a reconnect resumes from exactly there.

>>> from protocol.messages import Snapshot, TableEvent, Turn
>>> st = ClientState()
>>> st.handle(Snapshot(table="t1", seq=3, state="playing", view={"to_act": 0}, seat=0,
...                    legal=("draw",), players=("ann", "bot:random")))
<Change.TABLE: 'table'>
>>> t = st.tables["t1"]
>>> t.legal, t.names
(('draw',), ['ann', 'bot 2'])
>>> st.handle(TableEvent(table="t1", seq=4, event={"kind": "draw", "seat": 0}))
<Change.EVENT: 'event'>
>>> st.handle(TableEvent(table="t1", seq=4, event={"kind": "draw", "seat": 0})) is None
True
>>> st.handle(Turn(table="t1", seq=4, seat=0, to_act=1, legal=())) and t.to_act
1
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from engine.views import View
from protocol import fields, table_lines
from protocol import messages as m
from protocol.describe import seat_name
from protocol.legal import Choices
from protocol.lookback_text import DOT, review_sentence
from protocol.lookback_text import analysis as analysis_lines
from protocol.payloads import Person, RulesetInfo, TableSummary
from protocol.table_lines import presence_text, watcher_text

MAX_LOG = 500
MAX_SHOUTS = 200


class Change(Enum):
    """What a message changed (``ClientState.handle``), for the screen to redraw and the
    connection to act on."""

    TABLE = "table"  #: a table's seating, view, turn or state
    EVENT = "event"  #: a game event went into a table's log
    LOBBY = "lobby"  #: the people, tables or rulesets lists
    TALK = "talk"  #: talk, shouts, comings and goings
    NOTICE = "notice"  #: a notice from the server
    NAME = "name"  #: who we are
    GAP = "gap"  #: an event past one we never saw, not applied: ask for the missing ones
    TOURNAMENT = "tournament"  #: a tournament's standings, or the table a round gives us


def display_name(player: str | None) -> str | None:
    """``bot:random`` reads as ``random (bot)``; an empty seat stays ``None``."""
    if player is None:
        return None
    if player.startswith("bot:"):
        return f"{player[4:] or 'server'} (bot)"
    return player


@dataclass
class LogLine:
    """One line of a table's log: an event, talk, or a note from the client."""

    kind: str  # "event" | "talk" | "presence" | "watcher" | "shout" | "note" | "error"
    data: dict[str, Any]
    at: float = field(default_factory=time.time)
    seq: int | None = None  #: an event's table sequence number
    #: who sat where when the line arrived (``TableState.names``): a line names who did it
    #: then, though the seat has changed hands since (``None``: the table's names now)
    names: tuple[str | None, ...] | None = None
    #: an event's sentence as the server composed it when it happened (None: an older
    #: server's event, described by the client with ``names``)
    text: str | None = None
    #: talk's place among the events: the table's ``seq`` when it was said (it came after
    #: that event), so events filled in later by a catch-up go around it, not after it
    after: int | None = None


#: Seconds left on our own clock at which the client warns (the title turns red, and the
#: log says it once): protocol's, as its words are.
CLOCK_WARNING = table_lines.CLOCK_WARNING


@dataclass
class TableState:
    """One table this client sits at or watches."""

    table: str
    seat: int | None = None
    token: str | None = None
    state: str = fields.TableState.WAITING
    seq: int = 0
    #: the last view, as its family's TypedDict (``protocol.payloads``): readers narrow it
    #: by ``family``, and mypy checks the keys they read
    view: View | None = None
    legal: tuple[str, ...] = ()
    #: ``legal`` grouped and labelled, and what the seat must answer, in the server's words
    #: (empty and None from an older server: the boards compose them, ``BoardContext``)
    choices: Choices = ()
    must: str | None = None
    players: tuple[str | None, ...] = ()
    #: who sat where during the last game; a finished game's board keeps naming the
    #: server bots that played it, though they leave their seats when it ends.
    played_by: tuple[str | None, ...] = ()
    master: str | None = None
    to_act: int | None = None
    #: ``time.monotonic()`` at which the seat to act runs out of time, or ``None``.
    deadline: float | None = None
    #: the clock's warning was given for the current deadline (``clock_warning``)
    warned: bool = False
    #: events applied since the last view arrived (the board may lag them).
    stale: int = 0
    #: a snapshot has set ``seq``: from now on a jump in ``seq`` is a gap.
    synced: bool = False
    #: events up to this ``seq`` asked for after the snapshot (``Connection.catch_up_log``):
    #: they go into the log, in order, though the board is already past them.
    backfill_to: int | None = None
    #: snapshots received (a catch-up asked for events can tell a snapshot came instead)
    snapshots: int = 0
    #: old events filed into the log by a catch-up
    backfilled: int = 0
    log: deque[LogLine] = field(default_factory=lambda: deque(maxlen=MAX_LOG))
    #: seats whose player dropped (or left): seat -> (name, ``dropped`` | ``left``), from
    #: the server's ``presence``; a player who comes back is taken off
    gone: dict[int, tuple[str, str]] = field(default_factory=dict)
    #: spectators at the table, as the last ``watcher`` message or table list counted them
    #: (None: not told)
    watching: int | None = None
    #: whose review of the finished game we follow (``follow``; None: nobody's)
    following: str | None = None
    #: the rating changes of the last game (``rated``'s ``changes``), for the end screen
    rated: tuple[Any, ...] = ()

    def add(self, kind: str, data: dict[str, Any], seq: int | None = None) -> LogLine:
        """Append a line to the log, with the names of who sits where now."""
        # (no seating known yet, as before a first snapshot: the names at drawing time)
        line = LogLine(kind, data, seq=seq, names=tuple(self.names) or None)
        self.log.append(line)
        return line

    def away(self, seat: int) -> str | None:
        """``dropped`` or ``left`` while the player at ``seat`` is gone, else ``None``."""
        entry = self.gone.get(seat)
        if entry is None or seat >= len(self.players) or self.players[seat] != entry[0]:
            return None
        return entry[1]

    @property
    def names(self) -> list[str | None]:
        """Who sits where, as a person reads it, by the one rule the lobby and text mode
        use (``protocol.describe.seat_name``): a server bot is ``bot N``, N its seat, so
        that two bots of one strategy never look alike. A finished game keeps naming the
        bots that played it."""
        out: list[str | None] = []
        for seat, player in enumerate(self.players):
            if (
                player is None
                and self.state == fields.TableState.OVER
                and seat < len(self.played_by)
            ):
                player = self.played_by[seat]
            out.append(seat_name(player, seat))
        return out

    @property
    def family(self) -> str | None:
        return None if not self.view else self.view.get("family")

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.to_act == self.seat and bool(self.legal)

    def clock_left(self, now: float | None = None) -> float | None:
        """Seconds left on the clock of the seat to act (``None``: no clock)."""
        if self.deadline is None:
            return None
        return max(0.0, self.deadline - (time.monotonic() if now is None else now))

    def _set_clock(self, clock: float | None) -> None:
        self.deadline = None if clock is None else time.monotonic() + float(clock)
        if clock is None or clock > CLOCK_WARNING:
            self.warned = False  # a new turn's clock (one still low keeps its warning)

    def clock_warning(self, now: float | None = None) -> bool:
        """True once a turn: when our own clock first reads ``CLOCK_WARNING`` seconds or
        less. The warning goes in the table's log, so it is read once, not every redraw."""
        left = self.clock_left(now)
        if self.warned or left is None or left > CLOCK_WARNING or not self.my_turn:
            return False
        if self.state != fields.TableState.PLAYING:
            return False
        self.warned = True
        text = table_lines.clock_warning_text(CLOCK_WARNING)
        self.add("error", {"text": text})
        return True


class ClientState:
    """Everything the client knows: who we are, the lobby, the tables we are at."""

    def __init__(self) -> None:
        self.name: str | None = None
        self.server: str = ""
        self.rulesets: list[RulesetInfo] = []
        self.lobby: list[TableSummary] = []
        #: the lobby's page shown: its first table's place, the next page's, and the
        #: tables listed in all (the server sends the lobby a page at a time)
        self.lobby_page: tuple[int, int | None, int] = (0, None, 0)
        self.tables: dict[str, TableState] = {}
        self.notices: deque[str] = deque(maxlen=50)
        #: the same notices as lines, with the time each came (the lobby's log shows them
        #: in their place among its other lines)
        self.notice_lines: deque[LogLine] = deque(maxlen=50)
        #: the room's shouts, newest last (the lobby's log shows them)
        self.shouts: deque[LogLine] = deque(maxlen=MAX_SHOUTS)
        #: who is online (``people``'s maps), the names online and the guests, as last asked
        self.people: list[Person] = []
        self.online: tuple[int, int] | None = None
        #: each tournament's last ``tournament`` heard (a reply or the server's push)
        self.tournaments: dict[int, m.Tournament] = {}
        #: the table the last round seated us at (``your_table``)
        self.your_table: m.YourTable | None = None
        #: called with each table's talk line as it arrives (the session keeps a held
        #: seat's talk between runs: the server replays events, never talk)
        self.on_talk: Callable[[str, LogLine], None] | None = None

    def table(self, table: str) -> TableState:
        """The state of ``table``, made on first mention."""
        if table not in self.tables:
            self.tables[table] = TableState(table)
        return self.tables[table]

    def handle(self, msg: Any) -> Change | None:
        """Fold one message in; return what changed (a ``Change``), ``None`` when nothing
        did, or ``Change.GAP`` for an event past one we never saw (it is not applied: ask
        for the missing ones)."""
        fold = _FOLDS.get(type(msg))
        if fold is None:
            return None
        if isinstance(msg, (m.Presence, m.Talk, m.Watcher)) and msg.table not in self.tables:
            return None  # in flight when we left: the table is no longer ours to show
        return fold(self, msg)

    def _snapshot(self, msg: m.Snapshot) -> Change:
        t = self.table(msg.table)
        before = t.players if t.snapshots else None
        t.seq, t.state, t.view = msg.seq, msg.state, msg.view or None
        if msg.seat is not None:
            t.seat = msg.seat
        t.legal, t.players, t.master = tuple(msg.legal), tuple(msg.players), msg.master
        t.choices, t.must = msg.choices, msg.must
        if before is not None:
            self._sat_down(t, before)
        # A seat that changed hands ends its player's absence: one who left and sits
        # down again is back, though the server says "back" only to a seat kept his.
        t.gone = {
            seat: gone
            for seat, gone in t.gone.items()
            if seat < len(t.players) and t.players[seat] == gone[0]
        }
        if msg.state in fields.RUNNING:
            t.played_by = t.players
        t.to_act = msg.view.get("to_act") if msg.view else None
        t._set_clock(msg.clock)
        t.stale = 0
        t.synced = True
        t.snapshots += 1
        return Change.TABLE

    def _event(self, msg: m.TableEvent) -> Change | None:
        t = self.table(msg.table)
        if msg.seq <= t.seq:
            return self._backfill(t, msg)
        if t.synced and msg.seq > t.seq + 1:
            return Change.GAP
        t.seq = msg.seq
        t.stale += 1
        t.add("event", dict(msg.event), seq=msg.seq).text = msg.text
        return Change.EVENT

    def _turn(self, msg: m.Turn) -> Change:
        t = self.table(msg.table)
        if msg.seat is not None and t.seat is None:
            t.seat = msg.seat
        t.to_act, t.legal = msg.to_act, tuple(msg.legal)
        t.choices, t.must = msg.choices, msg.must
        t._set_clock(msg.clock)
        view = msg.view  # every turn carries the receiver's fresh view
        if view:
            t.view, t.stale = view, 0
        elif t.view is not None:
            t.view = t.view.copy()
            t.view["to_act"] = msg.to_act
        return Change.TABLE

    def _seated(self, msg: m.Seated) -> Change:
        t = self.table(msg.table)
        t.seat, t.token = msg.seat, msg.token
        return Change.TABLE

    def _presence(self, msg: m.Presence) -> Change:
        t = self.table(msg.table)
        if msg.what == "back":
            t.gone.pop(msg.seat, None)
        else:
            t.gone[msg.seat] = (msg.name, msg.what)
        playing = t.state in fields.RUNNING  # (a paused game's left seat is a bot's too)
        text = msg.text or presence_text(msg.name, msg.what, playing=playing)  # the server's
        t.add("presence", {"seat": msg.seat, "name": msg.name, "what": msg.what,
                           "playing": playing, "text": text})  # fmt: skip
        return Change.TALK

    def _talk(self, msg: m.Talk) -> Change:
        t = self.table(msg.table)
        line = t.add("talk", {"name": msg.name, "text": msg.text})
        line.after = t.seq
        if self.on_talk is not None:
            self.on_talk(msg.table, line)
        return Change.TALK

    def restore_talk(self, table: str, lines: list[LogLine]) -> int:
        """Put talk kept from an earlier run back at the head of ``table``'s log, oldest
        first (it is older than anything this run has seen); the events a catch-up files
        in then go around it by its ``after``. How many lines were put back."""
        t = self.tables.get(table)
        if t is None:
            return 0
        have = {(line.at, line.data.get("name"), line.data.get("text")) for line in t.log}
        fresh = [x for x in lines if (x.at, x.data.get("name"), x.data.get("text")) not in have]
        room = MAX_LOG - len(t.log)
        fresh = fresh[-room:] if room > 0 else []
        t.log.extendleft(reversed(fresh))
        return len(fresh)

    def _watcher(self, msg: m.Watcher) -> Change:
        t = self.table(msg.table)
        t.watching = msg.watching
        text = msg.text or watcher_text(msg.name, msg.what, msg.watching)  # the server's
        t.add("watcher", {"name": msg.name, "what": msg.what, "watching": msg.watching,
                          "text": text})  # fmt: skip
        return Change.TALK

    def _shouted(self, msg: m.Shouted) -> Change:
        self.shouts.append(LogLine("shout", {"name": msg.name, "text": msg.text}))
        return Change.TALK

    def _people(self, msg: m.People) -> Change:
        self.people = list(msg.people)
        self.online = (msg.total, msg.guests)
        return Change.LOBBY

    def _tables(self, msg: m.Tables) -> Change:
        self.lobby = list(msg.tables)
        self.lobby_page = (msg.start, msg.next, max(msg.total, msg.start + len(msg.tables)))
        for info in self.lobby:  # the watchers of our tables, as the list counts them
            mine = self.tables.get(info["table"])
            if mine is not None:
                mine.watching = info["spectators"]
        return Change.LOBBY

    def _rulesets(self, msg: m.Rulesets) -> Change:
        self.rulesets = list(msg.rulesets)
        return Change.LOBBY

    def _named(self, msg: m.Named) -> Change:
        self.name = msg.name
        return Change.NAME

    def _welcome(self, msg: m.Welcome) -> Change:
        self.server = msg.server
        return Change.NAME

    def _notice_message(self, msg: m.Notice) -> Change:
        self._notice(msg.text)
        # A table's notice (the clock's move, a seat away) goes in its log too, in
        # order with its events: the server names the table it is about.
        if msg.table is not None and msg.table in self.tables:
            self.tables[msg.table].add("note", {"text": msg.text})
        return Change.NOTICE

    def _rated(self, msg: m.Rated) -> Change:
        """The ratings a finished game changed: in its table's log, after its end."""
        if msg.table in self.tables:
            self.tables[msg.table].add("note", {"text": msg.text})
            self.tables[msg.table].rated = tuple(msg.changes)
        return Change.NOTICE

    def _sat_down(self, t: TableState, before: tuple[str | None, ...]) -> None:
        """Log each person the table's seats show where someone else (or no one) sat
        before: the server tells of a player who sits down only by the seats it sends,
        and one who left and came back would otherwise return unannounced."""
        for seat, player in enumerate(t.players):
            was = before[seat] if seat < len(before) else None
            if player is None or player == was or player.startswith("bot:"):
                continue
            if player == self.name:
                continue  # our own sitting down is the reply to our join
            playing = t.state in fields.RUNNING
            t.add("presence", {"seat": seat, "name": player, "what": "sat", "playing": playing})

    @staticmethod
    def _backfill(t: TableState, msg: m.TableEvent) -> Change | None:
        """An event older than the board, asked for to fill the log: filed in ``seq``
        order, once; any other old event is a duplicate and ignored. It is named by the
        seating of the line that follows it (the nearest known to its time; with none,
        the table's now)."""
        if t.backfill_to is None or msg.seq > t.backfill_to or len(t.log) >= MAX_LOG:
            return None
        if any(line.seq == msg.seq for line in t.log):
            return None
        at = next(
            (
                i
                for i, line in enumerate(t.log)
                if (line.seq is not None and line.seq > msg.seq)
                or (line.after is not None and line.after >= msg.seq)  # talk said after it
            ),
            len(t.log),
        )
        later = (line.names for line in list(t.log)[at:] if line.names is not None)
        names = next(later, None) or tuple(t.names) or None
        line = LogLine("event", dict(msg.event), seq=msg.seq, names=names, text=msg.text)
        t.log.insert(at, line)
        t.backfilled += 1
        return Change.EVENT

    def forget(self, table: str) -> None:
        """We left ``table``: it is no longer ours to show."""
        self.tables.pop(table, None)

    def note(self, table: str | None, text: str, kind: str = "note") -> None:
        """A line from the client itself (an error reply, a hint) in a table's log."""
        if table is not None and table in self.tables:
            self.tables[table].add(kind, {"text": text})
        else:
            self._notice(text)

    def _reviewing(self, msg: m.Reviewing) -> Change | None:
        """A review's step: a line in the table's log (the screen draws the board)."""
        t = self.tables.get(msg.table)
        if t is None:
            return None
        t.add("note", {"text": review_sentence(msg)})
        return Change.EVENT

    def _analysis(self, msg: m.Analysis) -> Change | None:
        """The server's analysis of a table's game: its summary and marks in the log."""
        t = self.tables.get(msg.table)
        if t is None:
            return None
        for line in analysis_lines(msg):
            t.add("note", {"text": line.split(DOT, 1)[-1]})
        return Change.EVENT

    def _tournament(self, msg: m.Tournament | m.YourTable) -> Change:
        """A tournament's standings (pushed as they change), or our table in its round."""
        if isinstance(msg, m.Tournament):
            self.tournaments[msg.tournament] = msg
        else:
            self.your_table = msg
        return Change.TOURNAMENT

    def _notice(self, text: str) -> None:
        self.notices.append(text)
        self.notice_lines.append(LogLine("notice", {"text": text}))


#: How each kind of message is folded in (``ClientState.handle``); others change nothing.
_FOLDS: dict[type, Callable[[ClientState, Any], Change | None]] = {
    m.Snapshot: ClientState._snapshot,
    m.TableEvent: ClientState._event,
    m.Turn: ClientState._turn,
    m.Seated: ClientState._seated,
    m.Presence: ClientState._presence,
    m.Talk: ClientState._talk,
    m.Watcher: ClientState._watcher,
    m.Shouted: ClientState._shouted,
    m.People: ClientState._people,
    m.Tables: ClientState._tables,
    m.Rulesets: ClientState._rulesets,
    m.Named: ClientState._named,
    m.Welcome: ClientState._welcome,
    m.Notice: ClientState._notice_message,
    m.Rated: ClientState._rated,
    m.Reviewing: ClientState._reviewing,
    m.Analysis: ClientState._analysis,
    m.Tournament: ClientState._tournament,
    m.YourTable: ClientState._tournament,
}
