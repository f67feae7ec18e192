"""The server's tournaments: each one's task, its tables, and its log kept durable.

Above the tables: a tournament creates the tables of a round through the lobby (each
seat held for its player by name, the rest reserved for server bots), starts them all
after an announced countdown, and hears each game's end through the table layer's
events (``server.tables.events``), never by reaching into a table. A game's points are
logged in the very transaction that stores its end (the events' ``join``), so after a
crash the standings are exactly the stored games'.

The Swiss format: ``rounds`` rounds, each with a time cap of ``minutes``. When the cap
runs out, each game still running ends at the end of the hand in progress (the table's
``HandEnded`` event), or at once after ``CAP_GRACE_SECONDS`` more, scored as it stands:
places from the scores, ties sharing a place. The next round is seated when the last
table of the round has ended. The table arena (``arena_run``) seats whoever is free
instead, for ``minutes``. Either may end with a final table of the top ``final``
players, whose best placed person is the winner of the night. The host (or an
operator) starts a tournament, may end it early (running games scored as they stand)
and drop a player; a player not connected when a round is seated sits it out until he
enters again.

After a restart every tournament comes back from its log (``server.tournaments.book``):
the tables of the round under way come back with the lobby's (their games resume where
they were), a table of the round not yet opened is opened, and the round's time cap
counts on from the round's start as logged (``server.tournaments.round_run``). The host
may pause the whole tournament and resume it (``round_run`` says what a pause does).
"""

from __future__ import annotations

import contextlib
import logging
import secrets
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import trio

import engine
from engine.strategies import default_strategy
from engine.tournament import SeatRule
from engine.tournament.swiss import Seating
from protocol import messages as m
from protocol.words import plural
from server.core import wire
from server.core.commands import Close, EndGame, Start
from server.store.base import Store, TournamentLogged
from server.tables.events import GameEnded, HandEnded, TableEvents, Transaction
from server.tables.lobby import Lobby
from server.tables.table import WAITING as TABLE_WAITING
from server.tournaments.arena_run import run_arena, seconds_left
from server.tournaments.book import (
    ARENA,
    OVER,
    PLAYING,
    SWISS,
    WAITING,
    Book,
    BookError,
    seated_entry,
)
from server.tournaments.messages import tournament_message, your_tables
from server.tournaments.record import tournament_record
from server.tournaments.round_run import (
    pause_table,
    play_round,
    resume_tables,
    until_resumed,
)

log = logging.getLogger("switchboard.tournaments")

#: Seconds between a round's seating being announced and its tables starting.
COUNTDOWN_SECONDS = 10.0
#: Seconds a capped game may still take to finish its hand before it is ended as it stands.
CAP_GRACE_SECONDS = 300.0
#: The turn clock of a tournament's tables unless the host sets ``turn_seconds``: a player
#: who dropped is played by a bot after it, so no table waits for him.
TURN_SECONDS = 60
#: Seconds a tournament's table stays open after its game is scored (its players may look
#: at the end and save the record), before it closes: a player at many tables over an
#: evening is not held at them all.
TABLE_KEEP_SECONDS = 60.0
#: Seconds a player waits in an arena before bots fill a table for him.
ARENA_WAIT_SECONDS = 25.0
#: Rounds a tournament may have.
MAX_ROUNDS = 12

Tell = Callable[[str, m.Message], None]
#: The log entries a request makes that everyone is told of at once.
PUSHED = frozenset({"entered", "withdrew", "paused", "back", "halted", "resumed"})


class Steward:
    """The tournament as its tables see it: the game master (``tournament:N``, a name no
    player can claim) that starts each game and ends one whose round ran out of time."""

    operator = False

    def __init__(self, number: int) -> None:
        self.name = f"tournament:{number}"

    def deliver(self, message: Any) -> None:
        if isinstance(message, m.Error):
            log.warning("%s was refused: %s", self.name, message.text)

    def deliver_many(self, messages: Any) -> None:
        for message in messages:
            self.deliver(message)


def shape(format: str, rounds: int) -> str:
    """A new tournament's shape, for the console: ``3 rounds``, ``1 round``, ``an arena``."""
    if format == ARENA:
        return "an arena"
    return plural(rounds, "round") if rounds else "rounds set at its start"


def default_rounds(players: int) -> int:
    """About log2(players) + 1, from 3 to 6.

    >>> [default_rounds(n) for n in (4, 8, 20, 100)]
    [3, 4, 5, 6]
    """
    return max(3, min(6, players.bit_length()))


def seat_sizes(ruleset: str, options: dict[str, Any]) -> tuple[int, ...]:
    """The table sizes ``ruleset`` can be played at with ``options`` (abbott: 2 or 4)."""
    rs = engine.ruleset(ruleset)
    sizes = []
    for seats in range(rs.min_seats, rs.max_seats + 1):
        try:
            engine.new_game(ruleset, seats, 0, options)
        except ValueError:
            continue
        sizes.append(seats)
    return tuple(sizes)


class Tournaments:
    """Every tournament on the server; ``run`` is the task that keeps them going."""

    def __init__(
        self,
        store: Store,
        lobby: Lobby,
        logs: dict[int, list[TournamentLogged]] | None = None,
        *,
        tell: Tell | None = None,
        present: Callable[[str], bool] | None = None,
        countdown_seconds: float = COUNTDOWN_SECONDS,
        cap_grace_seconds: float = CAP_GRACE_SECONDS,
    ) -> None:
        self.store = store
        self.lobby = lobby
        self.tell = tell or (lambda name, message: None)
        #: whether a player is connected now (one who is not when a round is seated is paused)
        self.present = present or (lambda name: True)
        self.countdown_seconds = countdown_seconds
        self.cap_grace_seconds = cap_grace_seconds
        self.table_keep_seconds = TABLE_KEEP_SECONDS
        self.books: dict[int, Book] = {}
        self._tables: dict[int, int] = {}  #: server table -> its tournament
        self._lock = trio.Lock()  #: one log entry at a time (their numbers follow)
        self._wake: dict[int, trio.Event] = {}
        self._started: dict[int, trio.Event] = {}
        self.capped: set[int] = set()  #: tournaments whose round ran out of time
        self._ending: set[int] = set()  #: tournaments their host is ending early
        self._nursery: trio.Nursery | None = None
        for number, entries in sorted((logs or {}).items()):
            book = Book(number)
            try:
                for entry in entries:
                    book.apply(entry.kind, entry.data)
            except Exception:  # one tournament's log must not keep the server from starting
                log.exception("tournament %s could not be rebuilt from its log; left out", number)
                continue
            self.books[number] = book
            for tables in book.played_rounds:
                for t in tables:
                    if t.table is not None:
                        self._tables[t.table] = number

    # ------------------------------------------------------------ wiring
    def subscribe(self, events: TableEvents) -> None:
        """Hear every table's game ends (in their transaction) and hand ends."""
        events.join(self._joining)
        events.listen(self._heard)

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Keep every unfinished tournament going (after a restart, from its log)."""
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            for number, book in sorted(self.books.items()):
                if book.state != OVER:
                    if book.state != WAITING:
                        self._started_event(number).set()
                    nursery.start_soon(self._run, number)
            task_status.started()
            await trio.sleep_forever()

    # ------------------------------------------------------------ requests
    async def create(
        self,
        host: str,
        ruleset: str,
        *,
        rounds: int = 3,
        minutes: float = 30.0,
        seats: int | None = None,
        sizes: tuple[int, ...] | None = None,
        max_bots: int = 1,
        by_strength: bool = False,
        forbidden: list[tuple[str, str]] | None = None,
        options: dict[str, Any] | None = None,
        format: str = SWISS,
        wait_seconds: float = ARENA_WAIT_SECONDS,
        final: int = 0,
    ) -> Book:
        """A new Swiss tournament hosted by ``host`` (``BookError`` says why not), of
        ``rounds`` (0: ``default_rounds`` of the players entered when it starts):
        tables of ``sizes`` (default: every size the ruleset is played at), ``seats``
        the preferred one, at most ``max_bots`` bots a table where no split fits."""
        if format not in (SWISS, ARENA):
            raise BookError(f"a tournament is {SWISS} or {ARENA}, not {format!r}", "bad_options")
        options = dict(options or {})
        options.setdefault("turn_seconds", TURN_SECONDS)
        try:
            playable = seat_sizes(ruleset, options)
        except ValueError as exc:
            raise BookError(str(exc), "bad_options") from None
        if sizes is not None:
            if not set(sizes) <= set(playable):
                raise BookError(f"{ruleset} is played at tables of {list(playable)}", "bad_options")
            playable = tuple(sorted(set(sizes)))
        sizes = playable
        if not sizes:
            raise BookError(f"{ruleset} cannot be played with these options", "bad_options")
        preferred = seats if seats is not None else (4 if 4 in sizes else sizes[-1])
        if not 0 <= rounds <= MAX_ROUNDS:
            why = f"a tournament has 1 to {MAX_ROUNDS} rounds (0: decided at its start)"
            raise BookError(f"{why}, not {rounds}", "bad_options")
        if not 0 < minutes <= 24 * 60:
            why = "a round's time cap is more than 0 and at most 1440 minutes"
            raise BookError(why, "bad_options")
        try:
            SeatRule(sizes, preferred, max_bots)
        except ValueError as exc:
            raise BookError(str(exc), "bad_options") from None
        if final == 1 or final < 0:
            raise BookError("a final table seats 2 players or more (0: no final)", "bad_options")
        data = {
            "final": final,
            "format": format,
            "wait_seconds": wait_seconds,
            "host": host,
            "ruleset": ruleset,
            "sizes": list(sizes),
            "preferred": preferred,
            "max_bots": max_bots,
            "rounds": rounds,
            "minutes": minutes,
            "seed": secrets.randbits(62),
            "by_strength": by_strength,
            "forbidden": [list(p) for p in forbidden or []],
            "options": options,
        }
        async with self._lock:
            number = max(self.books, default=0) + 1
            book = Book(number)
            await self.store.commit(TournamentLogged(number, 0, "created", data))
            book.apply("created", data)
            self.books[number] = book
        if self._nursery is not None:
            self._nursery.start_soon(self._run, number)
        log.info(
            "tournament %s created: %s, %s, by %s", number, ruleset, shape(format, rounds), host
        )
        return book

    def get(self, number: int) -> Book:
        """Tournament ``number`` (``BookError`` if there is none)."""
        book = self.books.get(number)
        if book is None:
            raise BookError(f"there is no tournament {number}", "no_tournament")
        return book

    async def enter(self, number: int, name: str, rating: float = 0.0) -> Book:
        """``name`` enters tournament ``number`` (late: with the rounds' averages missed);
        one who withdrew or paused comes back."""
        book = self.get(number)
        entrant = book.entrants.get(name)
        if entrant is not None and entrant.paused:
            await self.record(book, "back", {"name": name})
            return book
        if entrant is not None and not entrant.withdrawn:
            raise BookError(f"you are in tournament {number} already")
        if entrant is not None:
            raise BookError(f"you withdrew from tournament {number}: withdrawing is for good")
        if not book.late_entry_open():
            raise BookError(f"tournament {number} takes no more entries")
        first = 1 if book.format == ARENA else book.round + 1  # an arena owes no rounds
        await self.record(book, "entered", {"name": name, "rating": rating, "round": first})
        return book

    async def withdraw(
        self, number: int, name: str, by: str | None = None, operator: bool = False
    ) -> Book:
        """``name`` leaves tournament ``number`` for good (his points stay); ``by``
        another than he: the host (or an operator) drops him."""
        book = self.get(number)
        if by is not None and by != name and not (operator or by == book.host):
            why = f"only the host ({book.host}) drops a player from tournament {number}"
            raise BookError(why, "not_master")
        entrant = book.entrants.get(name)
        if entrant is None or entrant.withdrawn:
            raise BookError(f"{name} is not in tournament {number}")
        await self.record(book, "withdrew", {"name": name})
        return book

    async def pause(self, number: int, name: str) -> Book:
        """``name`` sits out the next rounds until he enters again (says he is back)."""
        book = self.get(number)
        entrant = book.entrants.get(name)
        if entrant is None or entrant.withdrawn:
            raise BookError(f"you are not in tournament {number}")
        if not entrant.paused:
            await self.record(book, "paused", {"name": name})
        return book

    async def start(self, number: int, by: str, operator: bool = False) -> Book:
        """The host (or an operator) starts the tournament: round 1 is seated."""
        book = self.get(number)
        if not (operator or by == book.host):
            why = f"only the host ({book.host}) starts tournament {number}"
            raise BookError(why, "not_master")
        if book.state != WAITING:
            raise BookError(f"tournament {number} has started already")
        players = sum(1 for e in book.entrants.values() if not e.withdrawn)
        if not players:
            raise BookError(f"nobody has entered tournament {number}")
        if book.format == ARENA:
            await self.record(book, "started", {"rounds": 0, "at": time.time()})
            self._started_event(number).set()
            return book
        try:
            book.next_seating()  # told now, not found out when round 1 is seated
        except ValueError as exc:
            raise BookError(f"tournament {number} cannot start: {exc}", "bad_state") from None
        await self.record(book, "started", {"rounds": book.rounds or default_rounds(players)})
        self._started_event(number).set()
        return book

    async def hold(self, number: int, by: str, paused: bool, operator: bool = False) -> Book:
        """The host (or an operator) pauses the whole tournament (``paused``) or resumes
        it: what a pause does is ``server.tournaments.round_run``'s."""
        book = self.get(number)
        verb = "pauses" if paused else "resumes"
        if not (operator or by == book.host):
            raise BookError(f"only the host ({book.host}) {verb} tournament {number}", "not_master")
        if book.state == OVER or number in self._ending:
            raise BookError(f"tournament {number} is over")
        if book.paused == paused:
            raise BookError(f"tournament {number} is {'paused' if paused else 'not paused'}")
        await self.record(book, "halted" if paused else "resumed", {"at": time.time()})
        if not paused:
            resume_tables(self, book)
        return book

    def steward(self, table_id: int) -> Steward:
        """The game master of a tournament's table."""
        return Steward(self._tables[table_id])

    async def end(self, number: int, by: str, operator: bool = False) -> Book:
        """The host (or an operator) ends the tournament now: every game still running
        is scored as it stands (never dropped), then the final standings are told."""
        book = self.get(number)
        if not (operator or by == book.host):
            why = f"only the host ({book.host}) ends tournament {number}"
            raise BookError(why, "not_master")
        if book.state == OVER or number in self._ending:
            raise BookError(f"tournament {number} is over already")
        self._ending.add(number)
        self._started_event(number).set()
        self._changed(number)
        return book

    def tournament_of(self, name: str) -> Book | None:
        """The unfinished tournament ``name`` plays in (the newest), if any."""
        for book in sorted(self.books.values(), key=lambda b: -b.number):
            e = book.entrants.get(name)
            if book.state != OVER and e is not None and not e.withdrawn:
                return book
        return None

    # ------------------------------------------------------------ the log
    async def record(self, book: Book, kind: str, data: dict[str, Any], *also: Any) -> None:
        async with self._lock:
            await self.store.commit(TournamentLogged(book.number, book.entries, kind, data), *also)
            book.apply(kind, data)
        self._changed(book.number)
        if kind in PUSHED:  # (the rest push themselves)
            self.push(book)

    def time_left(self, number: int) -> float | None:
        """Seconds left in the round under way (an arena: in the arena); None: none runs."""
        book = self.get(number)
        if book.state != PLAYING:
            return None
        if book.format == ARENA:
            return seconds_left(book)
        return None if book.round_over() else book.cap_left(time.time())

    def message(self, book: Book, req: int | None = None, record: bool = False) -> m.Message:
        """The ``tournament`` message for ``book`` as it stands now (``record``: with the
        tournament's whole record)."""
        whole = tournament_record(book) if record else None
        return tournament_message(book, req, self.time_left(book.number), whole)

    def ending(self, number: int) -> bool:
        """Whether the host is ending tournament ``number`` early."""
        return number in self._ending

    async def changed(self, number: int) -> None:
        """Wait for the next entry of tournament ``number``'s log (or the host's end)."""
        await self._wake.setdefault(number, trio.Event()).wait()

    def _changed(self, number: int) -> None:
        event = self._wake.pop(number, None)
        if event is not None:
            event.set()

    def _started_event(self, number: int) -> trio.Event:
        return self._started.setdefault(number, trio.Event())

    @contextlib.asynccontextmanager
    async def _joining(self, txn: Transaction) -> AsyncIterator[None]:
        """A game of a tournament's table ended: its points join the end's transaction."""
        ends = [e for e in txn.of(GameEnded) if e.table in self._tables]
        if not ends:
            yield
            return
        async with self._lock:
            planned: list[tuple[Book, dict[str, Any]]] = []
            for end in ends:
                book = self.books[self._tables[end.table]]
                found = book.at_table(end.table)
                if found is None or found[1].result is not None:
                    continue
                number, at = found
                data: dict[str, Any] = {
                    "round": number,
                    "index": at.index,
                    "table": end.table,
                    "places": list(end.places),
                    "scores": list(end.scores),
                    "outcome": end.outcome,
                    "game": end.game,
                }
                seq = book.entries + sum(1 for b, _ in planned if b is book)
                txn.writes.append(TournamentLogged(book.number, seq, "played", data))
                planned.append((book, data))
            yield
            for book, data in planned:
                book.apply("played", data)
                txn.notices.append(f"tournament {book.number}: this game's points are counted")
                if self._nursery is not None:
                    self._nursery.start_soon(self._close_later, data["table"])
        for book, _ in planned:
            self._changed(book.number)
            self.push(book)

    async def _close_later(self, table_id: int) -> None:
        """Close a scored table once its players have had ``table_keep_seconds`` to see it."""
        await trio.sleep(self.table_keep_seconds)
        table = self.lobby.get(table_id)
        if table is not None:
            table.submit_nowait(Close("its tournament game is over"))

    def _heard(self, event: Any) -> None:
        """A hand ended at a table whose round is out of time: end its game now; at a
        table of a paused tournament: pause its game there."""
        if not isinstance(event, HandEnded) or (number := self._tables.get(event.table)) is None:
            return
        if number in self.capped:
            self.end_game_at(event.table)
        elif self.books[number].paused:
            pause_table(self, event.table)

    def end_game_at(self, table_id: int) -> None:
        table = self.lobby.get(table_id)
        number = self._tables.get(table_id)
        if table is not None and number is not None:
            table.submit_nowait(EndGame(Steward(number), None))

    # ------------------------------------------------------------ a tournament's task
    async def _run(self, number: int) -> None:
        """Tournament ``number``'s task. A bug in one tournament must not take the server
        down: it is logged and the tournament stops where it is (a restart resumes it)."""
        try:
            await self._run_one(number)
        except Exception:
            log.exception("tournament %s failed; it stops until the server restarts", number)

    async def _run_one(self, number: int) -> None:
        book = self.books[number]
        await self._started_event(number).wait()
        reason = "all rounds played"
        if book.format == ARENA and book.state != OVER and book.final_round is None:
            reason = await run_arena(self, book)
        while book.state != OVER:
            if book.round and not book.round_over():
                if number not in self._ending:
                    await self.open_round(book)
                await play_round(self, book)
            elif number in self._ending:
                await self.finish(book, "ended early by its host")
            elif book.format == ARENA or book.round >= book.rounds:
                try:
                    final = None
                    if book.final >= 2 and book.final_round is None:
                        final = book.final_seating()
                except BookError as exc:  # nobody left for it: the standings decide
                    reason = f"{reason}; no final table: {exc}"
                if final is not None and book.paused:
                    await until_resumed(self, book)
                elif final is not None:
                    await self._seat(book, final, final=True)
                else:
                    await self.finish(book, reason)
            elif book.paused:  # no round is seated while the host pauses
                await until_resumed(self, book)
            else:
                await self._pause_the_absent(book)
                try:
                    seating = book.next_seating()
                except (BookError, ValueError) as exc:
                    await self.finish(book, str(exc))
                    continue
                await self._seat(book, seating)

    async def _seat(self, book: Book, seating: Seating, final: bool = False) -> None:
        await self.record(book, "seated", seated_entry(seating, final))
        self.push(book)

    async def _pause_the_absent(self, book: Book) -> None:
        """Whoever is not connected when a round is seated is paused: not seated until
        he says he is back (``enter``)."""
        for entrant in list(book.entrants.values()):
            if not (entrant.withdrawn or entrant.paused or self.present(entrant.name)):
                await self.record(book, "paused", {"name": entrant.name})

    def push(self, book: Book) -> None:
        """The tournament as it stands now, to each entrant and the host (no polling)."""
        message = self.message(book)
        for name in {*book.entrants, book.host}:
            self.tell(name, message)

    async def open_round(self, book: Book) -> None:
        """Open every table of the round not opened yet, tell each player his, and start
        them together after the countdown."""
        steward = Steward(book.number)
        family = engine.ruleset(book.ruleset).family
        bot = default_strategy(family).name
        for at in book.current_tables():
            if at.table is not None:
                continue
            opened: list[dict[str, Any]] = []

            def entry(
                table_id: int, at: Any = at, opened: list[dict[str, Any]] = opened
            ) -> list[Any]:
                data = {"round": book.round, "index": at.index, "table": table_id}
                opened.append(data)
                return [TournamentLogged(book.number, book.entries, "opened", data)]

            async with self._lock:
                table = await self.lobby.create(
                    book.ruleset,
                    len(at.seats),
                    dict(book.table_options),
                    steward.name,
                    {"tournament": book.number},
                    held=at.seats,
                    bots={i: bot for i, name in enumerate(at.seats) if name is None},
                    also=entry,
                )
                book.apply("opened", opened[0])
                self._tables[table.id] = book.number
        for name, told in your_tables(book):
            self.tell(name, told)
        await trio.sleep(self.countdown_seconds)
        await until_resumed(self, book)  # a round seated before a pause starts after it
        for at in book.current_tables():
            waiting = None if at.table is None else self.lobby.get(at.table)
            if waiting is not None and waiting.state == TABLE_WAITING and at.result is None:
                await waiting.submit(Start(steward, None))

    async def score_lost_tables(self, book: Book) -> None:
        """A table gone before its game's end was heard (it failed) scores as a tie of
        everyone at it, so the round can end."""
        for at in book.running_tables():
            if at.table is not None and self.lobby.get(at.table) is None:
                seats = len(at.seats)
                data = {"round": at.round, "index": at.index, "table": at.table,
                        "places": [0] * seats, "scores": [0] * seats,
                        "outcome": "lost"}  # fmt: skip
                await self.record(book, "played", data)

    def stuck(self, book: Book) -> bool:
        """Whether every table still to be scored is gone (closed before its end was
        heard): nothing will end it, so ``score_lost_tables`` does."""
        return all(at.table is None or self.lobby.get(at.table) is None
                   for at in book.running_tables())  # fmt: skip

    async def finish(self, book: Book, reason: str) -> None:
        await self.record(book, "ended", {"reason": reason})
        winner = book.winner() or "nobody"
        text = f"tournament {book.number} is over ({reason}): {winner} wins"
        for name in {*book.entrants, book.host}:
            self.tell(name, wire.notice(text))
        self.push(book)
        self._ending.discard(book.number)
        log.info("%s", text)
