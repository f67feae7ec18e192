"""Server messages as sentences, for a person at ``nc``: text mode's default format.

A text connection starts in this format (``format json`` switches it to the
lines of ``protocol.text_codec.format_lines``, which carry JSON for programs;
``format text`` switches back). Every line still begins with the stable word
that names the message, so ``read word rest`` still dispatches; a line about
a table says the table next; then `` · `` and words a person reads::

    welcome · this is switchboard (protocol 1). Type help for the commands, name YOURNAME to begin
    turn 1 · your turn · top K♣ · your hand A♥ A♦ 7♣ · you may: play 7C, play AD, draw
    event 1 · bob plays K♣
    error no_table · there is no table 9

``Readable`` keeps what the sentences need from earlier lines: each table's
player names and this connection's seat there. A message it has no sentence
for is written in the JSON format, so nothing is ever dropped.

>>> from protocol.messages import Snapshot, TableEvent, Turn
>>> r = Readable()
>>> players = ("ann", None)
>>> r.lines(Snapshot(table="1", seq=0, state="waiting", view={}, seat=0, players=players))
['view 1 · table 1, waiting · seats: ann (you), empty · the game master types start to deal \
(bots take the empty seats)']
>>> r.lines(TableEvent(table="1", seq=3, event={"kind": "play", "seat": 0, "cards": ["KC"]}))
['event 1 · ann plays K♣']
>>> view = {"family": "shedding", "to_act": 0, "over": False, "top": "KC", "hand": ["7C", "AD"]}
>>> r.lines(Turn(table="1", seq=4, seat=0, to_act=0, legal=("play 7C", "draw"), view=view))
['turn 1 · your turn · top K♣ · your hand 7♣ A♦ · you may: play 7C, draw']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.abbott.vocabulary import AbbottView
from engine.kilodney.vocabulary import KilodneyView
from engine.shedding.vocabulary import SheddingView
from engine.views import View, is_abbott, is_kilodney, is_shedding
from protocol.cards import SUIT_NAMES, card_text, sort_cards
from protocol.describe import (
    RATED_WHEN,
    TOURNAMENT_MASTER,
    describe_text,
    isolated,
    master_words,
    pending_text,
    seat_listing,
    seat_name,
    seat_words,
)
from protocol.legal import must as legal_must
from protocol.lookback_text import WRITERS as LOOKBACK_WRITERS
from protocol.messages import (
    Chips,
    Error,
    Goodbye,
    HelpText,
    History,
    Message,
    Named,
    Notice,
    Ok,
    People,
    Ping,
    Pong,
    Presence,
    Profile,
    Rated,
    Rulesets,
    Seated,
    Shouted,
    Snapshot,
    TableEvent,
    Tables,
    Talk,
    Top,
    Tournament,
    Tournaments,
    Turn,
    Watcher,
    Welcome,
    YourTable,
)
from protocol.payloads import Leader, Person, Rating
from protocol.profile_lines import lines_of
from protocol.table_lines import online_text, presence_text, watcher_text
from protocol.tournament_lines import tournament_lines, tournaments_lines, your_table_lines
from protocol.words import plural

DOT = " · "

_RUNNING = ("playing", "paused")


def _cards(cards: Sequence[str]) -> str:
    """A hand as a person holds it: by suit, then rank (as the terminal client shows it)."""
    return " ".join(card_text(c) for c in sort_cards(cards)) if cards else "no cards"


class Readable:
    """One connection's sentences: it remembers each table's names and our seat there."""

    def __init__(self) -> None:
        self.players: dict[str, list[str | None]] = {}
        self.seats: dict[str, int | None] = {}
        #: whether a game runs at each table, as its last snapshot or turn said
        self.running: dict[str, bool] = {}
        #: who played each seat of the table's last game while it ran: an ended game's
        #: scores name the bot that played a seat left empty since (``bot 1``, not ``seat 1``)
        self.played: dict[str, list[str | None]] = {}
        #: a guest name the codec claimed with a secret it made: said once, on ``named``
        self.guest: tuple[str, str] | None = None
        self.me: str | None = None  #: the name this connection goes by
        #: the first line claimed a name: the welcome that answers it asks for none
        self.naming = False
        #: each table's last snapshot: the next one that only seats someone is said short
        self.shown: dict[str, Snapshot] = {}
        #: a deal's snapshot at our turn, written with the turn that follows it (its
        #: ``legal`` is empty by the protocol: the turn says what we may do)
        self.held: dict[str, Snapshot] = {}

    # ------------------------------------------------------------ names
    def name(self, table: str, seat: Any) -> str:
        """A seat's player as a sentence names him (a bot by its seat: ``bot 2``, as the
        lobby's list and the seats name it: ``protocol.describe.seat_name``)."""
        players = self.players.get(table, [])
        if not isinstance(seat, int) or not 0 <= seat < len(players):
            return seat_words(seat)
        return seat_name(players[seat], seat) or seat_words(seat)

    def _names(self, table: str) -> list[str]:
        return [self.name(table, i) for i in range(len(self.players.get(table, [])))]

    # ------------------------------------------------------------ lines
    def lines(self, message: Message) -> list[str] | None:
        """The lines for ``message``; ``None``: no sentence here (write it as JSON)."""
        write = _WRITERS.get(type(message))
        return None if write is None else write(self, message)

    def remember(self, message: Message) -> None:
        """Keep what later sentences need from a line written in the JSON format."""
        if isinstance(message, (Snapshot, Seated, Presence)):
            self.lines(message)
            self.held.clear()  # a JSON line was written: nothing waits for its turn

    def _welcome(self, msg: Welcome) -> list[str]:
        return [
            f"welcome{_id(msg)}{DOT}this is {msg.server or 'switchboard'} (protocol"
            f" {msg.version}). Type help for the commands"
            + ("" if self.naming else ", name YOURNAME to begin")
            + " (format json: lines for programs)"
        ]

    def _named(self, msg: Named) -> list[str]:
        guest, self.guest = self.guest, None
        self.me = msg.name
        if guest is not None and guest[0].casefold() == msg.name.casefold():
            return [
                f"named{_id(msg)}{DOT}you are {msg.name}, a guest. Your secret is {guest[1]}"
                f" (shown only now): to be {msg.name} again later, type: name {msg.name}"
                f" {guest[1]}"
            ]
        return [f"named{_id(msg)}{DOT}you are {msg.name}"]

    def _ok(self, msg: Ok) -> list[str]:
        return [f"ok{_id(msg)}{DOT}{msg.text}" if msg.text else f"ok{_id(msg)}"]

    def _error(self, msg: Error) -> list[str]:
        where = f"at table {msg.table}: " if msg.table else ""
        text = msg.text
        if self.guest is not None and msg.code in ("bad_secret", "name_taken"):
            name, self.guest = self.guest[0], None
            text += (
                f" ({name} is someone's name: if it is yours, type name {name} YOURSECRET;"
                " else choose another with name NEWNAME)"
            )
        return [f"error{_id(msg)} {msg.code}{DOT}{where}{text}"]

    def _goodbye(self, msg: Goodbye) -> list[str]:
        return [f"goodbye{_id(msg)} {msg.code}{DOT}{msg.text or msg.code}"]

    def _bare(self, msg: Message) -> list[str]:
        return [f"{msg.type}{_id(msg)}"]

    def _seated(self, msg: Seated) -> list[str]:
        self.seats[msg.table] = msg.seat
        return [
            f"seated{_id(msg)} {msg.table}{DOT}you sit in {seat_words(msg.seat)}"
            f" at table {msg.table}."
            f" If your connection drops, resume {msg.table} {msg.token} takes the seat back"
        ]

    def _snapshot(self, msg: Snapshot) -> list[str]:
        table = msg.table
        before = self.shown.get(table)
        self.shown[table] = msg
        self.held.pop(table, None)  # a newer view of the table says it all
        self.players[table] = list(msg.players)
        self.seats[table] = msg.seat
        self.running[table] = msg.state in _RUNNING
        if self.running[table]:
            self.played[table] = list(msg.players)
        seated = _seat_changes(before, msg)
        if seated:  # only a seat taken or freed: the others at the table read just that
            return [f"view{_id(msg)} {table}{DOT}{'; '.join(seated)}"]
        view = msg.view
        if (
            msg.state == "playing" and msg.id is None and not msg.legal
            and msg.seat is not None and isinstance(view, dict)
            and view.get("to_act") == msg.seat and not view.get("over")
        ):  # fmt: skip
            self.held[table] = msg  # the deal, at our turn: written with the turn's moves
            return []
        return [self._view_line(msg)]

    def _view_line(self, msg: Snapshot, turn: Turn | None = None) -> str:
        """The table in one line: its seats, then the game as ``msg`` (or ``turn``,
        the turn that follows a deal's snapshot: what we may do) has it."""
        table = msg.table
        seats = []
        for i, who in enumerate(msg.players):
            tags = [
                t
                for t, on in (
                    ("you", i == msg.seat),
                    ("game master", who is not None and who == msg.master),
                )
                if on
            ]
            text = seat_listing(who, i) or "empty"
            seats.append(f"{text} ({', '.join(tags)})" if tags else text)
        ruleset = (msg.view.get("ruleset") if isinstance(msg.view, dict) else None) or msg.ruleset
        head = f"table {table}" + (f", {ruleset}" if ruleset else "") + f", {msg.state}"
        parts = [head, "seats: " + ", ".join(seats)]
        if msg.seat is None:
            parts.append("you are watching")
        if msg.state == "waiting":
            who = (
                "type" if self.me is not None and msg.master == self.me else "the game master types"
            )
            parts.append(f"{who} start to deal (bots take the empty seats)")
        elif msg.view:
            view = msg.view
            if msg.state in ("over", "closed"):  # an ended game keeps its last view
                view = view.copy()
                view["over"] = True
            if turn is not None:
                view = turn.view or view
            legal, clock, must = (msg.legal, msg.clock, msg.must) if turn is None else (
                turn.legal, turn.clock, turn.must)  # fmt: skip
            parts += self._situation(table, msg.seat, view, legal, clock, must=must)
        return f"view{_id(msg)} {table}{DOT}{DOT.join(parts)}"

    def _event(self, msg: TableEvent) -> list[str]:
        said = msg.text  # the server's, naming who played then; an older server's: ours
        if said is None:
            said = describe_text(msg.event, self._names(msg.table))
        return [f"event {msg.table}{DOT}{said}"]

    def _turn(self, msg: Turn) -> list[str]:
        view = msg.view  # None from an older server: its ``to_act`` says what there is
        if view["over"] if view else msg.to_act is None:
            self.running[msg.table] = False
        held = self.held.pop(msg.table, None)
        if held is not None:  # the deal's view, now with what we may do, says this turn
            if msg.legal and msg.seat == held.seat:
                return [self._view_line(held, msg)]
            return [self._view_line(held), *self._turn(msg)]
        parts = self._situation(
            msg.table, msg.seat, view, msg.legal, msg.clock, msg.to_act, brief=True, must=msg.must
        )
        return [f"turn{_id(msg)} {msg.table}{DOT}{DOT.join(parts)}"]

    def _situation(
        self,
        table: str,
        seat: int | None,
        view: View | None,
        legal: Sequence[str],
        clock: float | None,
        to_act: int | None = None,
        brief: bool = False,
        must: str | None = None,
    ) -> list[str]:
        """Whose turn, what is on the table, what this seat holds and may do: ``must``,
        what it must answer, as the server said it (an older server's: composed here;
        ``view`` None: a turn without one, from an older server; ``to_act`` says whose
        it is)."""
        if view is not None:
            to_act = view["to_act"]
        names = self._names(table)
        if view["over"] if view is not None else to_act is None:
            played = self.played.get(table, [])
            names = [
                seat_name(played[i], i) or n if n.startswith("seat ") and i < len(played) else n
                for i, n in enumerate(names)
            ]
            parts = ["the game is over"]
            scores = [] if view is None else view["scores"]
            if scores:
                named = zip(
                    names or [seat_words(i) for i in range(len(scores))], scores, strict=False
                )
                parts.append("scores: " + ", ".join(f"{n} {s}" for n, s in named))
            return parts
        mine = seat is not None and to_act == seat
        parts = ["your turn" if mine else f"{self.name(table, to_act)} to play"]
        if brief and seat is not None and not mine and not legal:
            return parts  # a player waiting reads the events; the rest comes on his turn
        if view is None:
            pass
        elif is_abbott(view):
            parts += self._abbott(table, view, grid=mine or seat is None or not brief)
        elif is_shedding(view) or is_kilodney(view):
            parts += self._cards(table, view, mine, must or legal_must(view, legal))
        if legal:
            parts.append("you may: " + ", ".join(legal))
        if mine and clock:
            parts.append(f"{plural(round(clock), 'second')} to play")
        return parts

    def _abbott(self, table: str, view: AbbottView, grid: bool = True) -> list[str]:
        """The grid, where each piece stands and, with the grid, the cards each seat has
        taken (its best poker hand named: what the hand is scored on) and the game's
        scores; a player waiting for his turn reads the pieces only."""
        parts = []
        cards = view.get("grid")
        if grid and isinstance(cards, list) and cards:
            parts.append(_grid_text(cards))
        pieces = view.get("pieces")
        if isinstance(pieces, list) and pieces:
            parts.append(
                "pieces: " + ", ".join(f"{self.name(table, i)} {sq}" for i, sq in enumerate(pieces))
            )
        collections = view.get("collections")
        if grid and isinstance(collections, list) and collections:
            best = view.get("best") or []
            taken = []
            for seat, held in enumerate(collections):
                named = f" ({best[seat]['category']})" if held and seat < len(best) else ""
                taken.append(f"{self.name(table, seat)} {_cards(held)}{named}")
            parts.append("taken: " + ", ".join(taken))
        scores = view.get("scores")
        if grid and isinstance(scores, list) and scores:
            parts.append(
                "scores: " + ", ".join(f"{self.name(table, i)} {s}" for i, s in enumerate(scores))
            )
        return parts

    def _cards(
        self, table: str, view: SheddingView | KilodneyView, mine: bool, must: str | None
    ) -> list[str]:
        """The pile's top (and in shedding the suit named and the power pending), every
        hand's size, this seat's hand and what it must answer."""
        parts = []
        if "top" in view:
            top = view["top"]
            parts.append(f"top {card_text(top)}" if top else "nothing on the pile yet")
        if is_shedding(view):
            nominated = view.get("nominated")
            if nominated:
                parts.append(f"suit named: {SUIT_NAMES.get(nominated, nominated)}")
            pending = view.get("pending")
            if isinstance(pending, dict) and pending:
                parts.append(f"pending: {pending_text(pending)}")
        sizes = view.get("hand_sizes")
        if isinstance(sizes, list) and len(sizes) > 1:
            parts.append(
                "cards: " + ", ".join(f"{self.name(table, i)} {n}" for i, n in enumerate(sizes))
            )
        hand = view.get("hand")
        if isinstance(hand, list):
            parts.append(f"your hand {_cards(hand)}")
        if must is not None and mine:
            parts.append(must)
        elif is_shedding(view) and mine and view.get("awaiting"):
            parts.append(f"you must {view['awaiting']}")
        return parts

    def _talk(self, msg: Talk) -> list[str]:
        return [f"talk {msg.table}{DOT}{isolated(msg.name)}: {msg.text}"]

    def _presence(self, msg: Presence) -> list[str]:
        players = self.players.setdefault(msg.table, [])
        if 0 <= msg.seat < len(players) and msg.what != "left":
            players[msg.seat] = msg.name
        running = bool(self.running.get(msg.table))
        text = msg.text or presence_text(msg.name, msg.what, playing=running)
        return [f"presence {msg.table}{DOT}{text}"]

    def _watcher(self, msg: Watcher) -> list[str]:
        text = msg.text or watcher_text(msg.name, msg.what, msg.watching)
        return [f"watcher {msg.table}{DOT}{text}"]

    def _shouted(self, msg: Shouted) -> list[str]:
        return [f"shouted{DOT}{isolated(msg.name)} shouts: {msg.text}"]

    def _people(self, msg: People) -> list[str]:
        head = f"people{_id(msg)}"
        text = msg.text or online_text(msg.total, msg.guests, len(msg.people))
        out = [f"{head}{DOT}{text}"]
        for p in msg.people:
            idle = p["idle"]
            quiet = f" · idle {quiet_time(idle)}" if idle >= 60 else ""
            out.append(f"{head} {p['name']}{DOT}{_whereabouts(p)}{quiet}")
        return out

    def _notice(self, msg: Notice) -> list[str]:
        when = f" (shutdown in {plural(msg.shutdown_in, 'second')})" if msg.shutdown_in else ""
        return [f"notice{DOT}{msg.text}{when}"]

    def _help(self, msg: HelpText) -> list[str]:
        return [f"help{_id(msg)} {line}".rstrip() for line in msg.lines or ("",)]

    def _tables(self, msg: Tables) -> list[str]:
        if not msg.tables and not msg.total:
            return [
                f"tables{_id(msg)}{DOT}no tables yet: open one with create switch 2"
                " (rulesets lists the games)"
            ]
        more = page_line(msg)
        return self._table_lines(msg) + ([more] if more else [])

    def _table_lines(self, msg: Tables) -> list[str]:
        out = []
        for t in msg.tables:
            listed = [seat_listing(p, i) for i, p in enumerate(t["players"])]
            who = ", ".join(p for p in listed if p) or "nobody"
            free = t["seats"] - t["taken"]
            parts = [f"{t['ruleset']}, {t['state']}", f"{plural(t['seats'], 'seat')}: {who}"]
            tournament = str(t["master"] or "").startswith(TOURNAMENT_MASTER)
            if tournament:  # its seats are held for the round's players, by name
                parts.append(f"a table of {master_words(str(t['master']))}")
                free = int(self.me is not None and self.me in t["players"])
            elif t["master"]:
                parts.append(f"game master {isolated(t['master'])}")
            if t["spectators"]:
                parts.append(f"{t['spectators']} watching")
            if t.get("options_text"):  # its rules where they differ, in the server's words
                parts.append("; ".join(str(o) for o in t["options_text"]))
            hint = f"join {t['table']}" if free > 0 else f"watch {t['table']}"
            parts.append(f"{hint} to {'sit' if free > 0 else 'watch'}")
            out.append(f"tables{_id(msg)} {t['table']}{DOT}{DOT.join(parts)}")
        return out

    def _rulesets(self, msg: Rulesets) -> list[str]:
        out = []
        for rs in msg.rulesets:
            lo, hi = rs["min_seats"], rs["max_seats"]
            counts = rs.get("seats")
            if isinstance(counts, list) and counts and len(counts) != counts[-1] - counts[0] + 1:
                seats = " or ".join(map(str, counts)) + " seats"  # not every count between
            else:
                seats = f"{lo} to {hi} seats" if lo != hi else plural(lo, "seat")
            out.append(
                f"rulesets{_id(msg)} {rs['name']}{DOT}{rs['summary']}{DOT}{seats}"
                f"{DOT}create {rs['name']} {lo}"
            )
        return out

    def _chips(self, msg: Chips) -> list[str]:
        return [f"chips{_id(msg)} {msg.name}{DOT}{msg.name} has {plural(msg.balance, 'chip')}"]


def _grid_text(grid: list[Any]) -> str:
    """An abbott board on one line, top rank first: ``board 5: 7♣ Q♦ -- … / 4: …``
    (``--`` a square whose card is taken; files from ``a``).

    >>> _grid_text([["2C", None], ["AS", "KH"]])
    'board (files a-b): 2: A♠ K♥ / 1: 2♣ --'
    """
    files = "abcdef"[: len(grid[0]) if grid and isinstance(grid[0], list) else 0]
    rows = [
        f"{rank}: " + " ".join(card_text(c) if c else "--" for c in row)
        for rank, row in reversed(list(enumerate(grid, start=1)))
    ]
    return f"board (files {files[:1]}-{files[-1:]}): " + " / ".join(rows)


def _place(place: Any) -> str:
    """``0`` (a win) as ``won``, ``1`` as ``2nd`` ..."""
    if not isinstance(place, int):
        return "-"
    if place == 0:
        return "won"
    n = place + 1
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _rating(entry: Rating | Leader) -> str:
    return f"{entry['rating']:.1f} ({plural(entry['games'], 'game')})"


def _profile(self: Readable, msg: Profile) -> list[str]:
    return [f"profile{_id(msg)} {msg.name}{DOT}{DOT.join(lines_of(msg))}"]


def page_line(msg: Tables) -> str | None:
    """The line after a page of the lobby that is not all of it: which tables it shows
    and how to see the next ones (None: the page is the whole listing).

    >>> page_line(Tables(tables=({},) * 2, start=0, next=2, total=5))
    'tables · tables 1 to 2 of 5, waiting ones first: tables 2 shows the next'
    >>> page_line(Tables(tables=(), start=9, total=5))
    'tables · no tables from 10 on, of 5: tables 0 shows the first'
    """
    shown, total = len(msg.tables), msg.total
    if msg.start == 0 and shown >= total:
        return None
    head = f"tables{_id(msg)}{DOT}"
    if not shown:
        return f"{head}no tables from {msg.start + 1} on, of {total}: tables 0 shows the first"
    where = f"tables {msg.start + 1} to {msg.start + shown} of {total}, waiting ones first"
    if msg.next is None:
        return f"{head}{where}: tables 0 shows the first"
    return f"{head}{where}: tables {msg.next} shows the next"


def _history(self: Readable, msg: History) -> list[str]:
    head = f"history{_id(msg)} {msg.name}{DOT}"
    if not msg.games:
        return [head + "no finished games yet"]
    out = []
    for g in msg.games:
        seat, places = g["seat"], g["places"]
        mine = places[seat] if 0 <= seat < len(places) else None
        players = ", ".join(str(seat_listing(p, i)) for i, p in enumerate(g["players"]))
        scores = ", ".join(map(str, g["scores"]))
        out.append(
            f"{head}{g['ruleset']} at table {g['table']}, game {g['game']}:"
            f" {_place(mine)}{DOT}players {players}{DOT}scores {scores}"
        )
    if msg.next is not None:
        out.append(f"{head}{plural(msg.total, 'game')} in all; more: history {msg.name} {msg.next}")
    return out


def _top(self: Readable, msg: Top) -> list[str]:
    head = f"top{_id(msg)} {msg.family}{DOT}"
    if not msg.players:
        return [head + f"nobody is rated yet: {RATED_WHEN}"]
    return [f"{head}{p['place']}. {p['name']} {_rating(p)}" for p in msg.players]


def quiet_time(seconds: int) -> str:
    """A quiet spell as a person says it: ``4 min``, ``2 h 5 min`` (text mode and the
    terminal client say it alike).

    >>> quiet_time(59), quiet_time(240), quiet_time(7500)
    ('59 s', '4 min', '2 h 5 min')
    """
    if seconds < 60:
        return f"{seconds} s"
    hours, minutes = divmod(seconds // 60, 60)
    return f"{hours} h {minutes} min" if hours else f"{minutes} min"


#: How text mode says each kind of place in a ``people`` entry (``places``).
TEXT_PLACES = {
    "watching": "watching table {table}",
    "playing": "playing at table {table} ({seat})",
    "seated": "sitting at table {table} ({seat}), no game running",
    "over": "sitting at table {table} ({seat}), the game is over",
}
#: The states of a table whose game has ended (its players still seated).
_ENDED = ("over", "closed")


def places(person: Person, words: Mapping[str, str]) -> list[str]:
    """Where a ``people`` entry is, a phrase a table, each kind of place said as
    ``words`` says it (text mode's ``TEXT_PLACES``, or a client's shorter words), and
    last the tables the server left out of its list.

    >>> places({"name": "ann", "state": "seated", "idle": 0,
    ...     "tables": [{"table": "4", "seat": 0, "state": "over"}]}, TEXT_PLACES)
    ['sitting at table 4 (seat 1), the game is over']
    >>> places({"name": "ann", "state": "playing", "idle": 0, "more": 2,
    ...     "tables": [{"table": "3", "seat": 1, "state": "playing"},
    ...                {"table": "5", "seat": None, "state": "waiting"}]}, TEXT_PLACES)
    ['playing at table 3 (seat 2)', 'watching table 5', 'and 2 tables more']
    """
    out = []
    for spot in person["tables"]:
        seat = spot["seat"]
        kind = "watching" if seat is None else "playing" if spot["state"] in _RUNNING else "seated"
        if kind == "seated" and spot["state"] in _ENDED and "over" in words:
            kind = "over"  # not "waiting": the game there has been played
        out.append(words[kind].format(table=spot["table"], seat=seat_words(seat)))
    more = person.get("more")  # the tables the server left out of the list
    if isinstance(more, int) and more > 0:
        out.append(f"and {plural(more, 'table')} more")
    return out


def _whereabouts(person: Person) -> str:
    """What a ``people`` entry does, and where.

    >>> _whereabouts({"name": "ann", "state": "playing", "idle": 0, "tables": [
    ...     {"table": "3", "seat": 1, "state": "playing"},
    ...     {"table": "5", "seat": None, "state": "waiting"}]})
    'playing at table 3 (seat 2); watching table 5'
    >>> _whereabouts({"name": "ann", "state": "idle", "idle": 0, "tables": []})
    'in the lobby'
    >>> _whereabouts({"name": "ann", "state": "watching", "idle": 0, "more": 3,
    ...     "tables": [{"table": "5", "seat": None, "state": "waiting"}]})
    'watching table 5; and 3 tables more'
    """
    return "; ".join(places(person, TEXT_PLACES)) or "in the lobby"


def _seat_changes(before: Snapshot | None, now: Snapshot) -> list[str]:
    """What changed between a table's two snapshots when it is only who sits where
    (the same state, view, game master and our own seat): a sentence a seat. Empty when
    anything else changed (the whole view is written then).

    >>> was = Snapshot(table="2", seq=0, state="waiting", view={}, seat=0, players=["ann", None])
    >>> _seat_changes(was, Snapshot(table="2", seq=0, state="waiting", view={}, seat=0,
    ...     players=["ann", "bob"]))
    ['bob sits in seat 2']
    """
    if (
        before is None or now.id is not None or before.state != now.state
        or before.seat != now.seat or before.master != now.master or before.view != now.view
        or len(before.players) != len(now.players) or before.players == now.players
    ):  # fmt: skip
        return []
    out = []
    for i, (was, who) in enumerate(zip(before.players, now.players, strict=True)):
        if was == who:
            continue
        if who is None:
            out.append(f"{seat_words(i)} is free")
        else:
            out.append(f"{seat_listing(who, i)} sits in {seat_words(i)}")
    return out


def _id(msg: Message) -> str:
    request_id = getattr(msg, "id", None)  # replies echo their request's id; others have none
    return "" if request_id is None else f" #{request_id}"


_WRITERS: dict[type[Message], Any] = {
    Welcome: Readable._welcome,
    Named: Readable._named,
    Ok: Readable._ok,
    Error: Readable._error,
    Goodbye: Readable._goodbye,
    Ping: Readable._bare,
    Pong: Readable._bare,
    Seated: Readable._seated,
    Snapshot: Readable._snapshot,
    TableEvent: Readable._event,
    Turn: Readable._turn,
    Talk: Readable._talk,
    Presence: Readable._presence,
    Watcher: Readable._watcher,
    Shouted: Readable._shouted,
    People: Readable._people,
    Notice: Readable._notice,
    HelpText: Readable._help,
    Tables: Readable._tables,
    Rulesets: Readable._rulesets,
    Chips: Readable._chips,
    Profile: _profile,
    History: _history,
    Top: _top,
    **LOOKBACK_WRITERS,
}

# The tournament replies' sentences live in their own module.
_WRITERS[Tournaments] = lambda self, msg: tournaments_lines(msg)
# A tournament's record asked for is its JSON line, whole, as a table's record is.
_WRITERS[Tournament] = lambda self, msg: None if msg.record else tournament_lines(msg)
_WRITERS[YourTable] = lambda self, msg: your_table_lines(msg)
_WRITERS[Rated] = lambda self, msg: [f"rated {msg.table}{DOT}{msg.text}"]
