"""The store: what the server keeps across restarts, behind one small interface.

Tables and the lobby never speak SQL. They hand the store *writes* (small frozen
records such as ``ActionTaken``) and, for anything that must survive a crash
before the players hear of it, ``await store.commit(...)``, which returns once
the write is durable. At start the server calls ``load()`` once and rebuilds
every open table from its game's newest snapshot (``GameSnapshot``) and the actions
after it, or by replaying its actions: the game record *is* the row.

Two implementations: ``MemoryStore`` here (tests, and ``--data`` unset) and
``SQLiteStore`` in ``server.store.sqlite`` (the embedded default). A server
that outgrows one machine implements ``Store`` on PostgreSQL without touching
tables or the lobby.

>>> state = StoredState()
>>> apply_write(state, TableCreated(1, "abbott", 4, {}, "ann", {}))
>>> apply_write(state, SeatSet(1, 0, "ann", b"h"))
>>> apply_write(state, GameStarted(1, 1, 99, None, None, 1))
>>> apply_write(state, ActionTaken(1, 1, 0, 1, "move c4"))
>>> t = state.tables[1]
>>> t.seat_names, t.game.actions, t.game.seed
(['ann', None, None, None], [[1, 'move c4']], 99)

What the game master set up is kept too, so a restarted server brings the table
back as he left it: bot reservations (``BotReserved``, the table's, across games),
a pause and the away seats (``PauseSet``, ``AwaySet``, the current game's: a new
game starts unpaused with nobody away).

>>> apply_write(state, BotReserved(1, 2, "search"))
>>> apply_write(state, PauseSet(1, 1, True))
>>> apply_write(state, AwaySet(1, 1, 3, True))
>>> t.bots, t.game.paused, t.game.away
({2: 'search'}, True, {3})
"""

from __future__ import annotations

import hashlib
import hmac
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, assert_never, overload

import trio


class StoreError(RuntimeError):
    """The store could not keep a write: the server must not acknowledge it."""


# ------------------------------------------------------------------ writes
@dataclass(frozen=True, slots=True)
class NameClaimed:
    name: str  #: the folded (lower-case) key
    display: str  #: as the player typed it
    salt: bytes
    digest: bytes
    at: float = field(default_factory=lambda: now())  #: when it was claimed (wall clock)


@dataclass(frozen=True, slots=True)
class NameSeen:
    """The name ``name`` (its stored key) was used at ``at``: what its expiry counts from."""

    name: str
    at: float


@dataclass(frozen=True, slots=True)
class NameExpired:
    """The name ``name`` (its stored key; ``display`` is its ledger account) is removed:
    it never finished a game and was not used for ``unplayed_name_days``. Committed after
    the ledger transaction that returned its chips, so its account is empty and goes too."""

    name: str
    display: str


@dataclass(frozen=True, slots=True)
class TableCreated:
    table: int
    ruleset: str
    seats: int
    options: dict[str, Any]
    creator: str | None
    settings: dict[str, Any]  #: e.g. {"start_when_full": true}


@dataclass(frozen=True, slots=True)
class SeatSet:
    """A seat changes hands; ``name`` None empties it (a bot plays it once started)."""

    table: int
    seat: int
    name: str | None
    token_hash: bytes | None


@dataclass(frozen=True, slots=True)
class MasterSet:
    table: int
    master: str | None


@dataclass(frozen=True, slots=True)
class OptionsSet:
    """The game master changed the table's options (only while no game runs)."""

    table: int
    options: dict[str, Any]
    settings: dict[str, Any]


@dataclass(frozen=True, slots=True)
class GameStarted:
    table: int
    game: int
    seed: int
    dealer: int | None
    deck: list[str] | None
    seq: int  #: the table's sequence number of the start (its events follow it)
    #: the options the game was dealt with: the table's may change between its games,
    #: and a replay of an old one needs its own (None: not given, the table's are used)
    options: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class ActionTaken:
    table: int
    game: int
    index: int  #: position in the game's action log, from 0
    seat: int
    notation: str


@dataclass(frozen=True, slots=True)
class GameSnapshot:
    """The running game as it stood after its first ``actions`` actions: a restart cache.

    Written with the action it follows, in the same transaction, so a restart rebuilds
    the table from the newest one plus the actions after it instead of replaying them
    all (``server.store.snapshots``). The record is still the actions: a snapshot only saves
    time, and one that cannot be used is replaced by the replay. ``data`` is the engine's
    ``Game.snapshot()`` as msgpack; ``seq`` is the table's sequence number after the
    events of those actions. Only the newest of a table is kept.

    ``digest`` (``snapshot_digest``) is made with the snapshot and stored beside it, and
    a restore uses the snapshot only if it still matches: a row altered on disk that
    still decodes (a card moved from a hand to the stock) would otherwise be trusted
    over the record. None: stored by a version that kept no digest (never trusted)."""

    table: int
    game: int
    actions: int
    seq: int
    data: bytes
    digest: bytes | None = None

    def sealed(self) -> bool:
        """Whether ``digest`` is the digest of this snapshot as it stands."""
        return self.digest is not None and hmac.compare_digest(
            self.digest, snapshot_digest(self.table, self.game, self.actions, self.seq, self.data)
        )


def snapshot_digest(table: int, game: int, actions: int, seq: int, data: bytes) -> bytes:
    """The digest a snapshot is stored with: of its bytes and of where it belongs (its
    table, game, action count and sequence number), so neither can change unseen.

    >>> a = snapshot_digest(1, 2, 16, 40, b"x")
    >>> len(a), a == snapshot_digest(1, 2, 16, 41, b"x"), a == snapshot_digest(1, 2, 16, 40, b"x")
    (16, False, True)
    """
    h = hashlib.blake2b(digest_size=16, person=b"sw-snapshot")
    h.update(f"{table}:{game}:{actions}:{seq}:".encode())
    h.update(data)
    return h.digest()


#: How a game ended (``GameEnded.outcome``): by its rules (its prize is paid to the
#: winners) or abandoned (the master ended it, everyone left, an operator closed the
#: table: its prize goes back to whoever put it up).
FINISHED, ABANDONED = "finished", "abandoned"


@dataclass(frozen=True, slots=True)
class GameEnded:
    table: int
    game: int
    scores: list[int]
    outcome: str = FINISHED


@dataclass(frozen=True, slots=True)
class AnalysisKept:
    """A finished game's after-game analysis (``engine.analysis.as_json``, as JSON text),
    made once and read on request (``Store.analysis``), never loaded at start."""

    table: int
    game: int
    data: str


@dataclass(frozen=True, slots=True)
class TalkSaid:
    table: int
    name: str
    text: str
    at: float


@dataclass(frozen=True, slots=True)
class TableClosed:
    table: int


@dataclass(frozen=True, slots=True)
class BotReserved:
    """The game master reserved ``seat`` for a server bot of ``strategy`` (None: freed it).

    A reservation belongs to the table, not to one game: it holds until unseated."""

    table: int
    seat: int
    strategy: str | None


@dataclass(frozen=True, slots=True)
class PauseSet:
    """The game master paused (or resumed) game ``game`` of the table."""

    table: int
    game: int
    paused: bool


@dataclass(frozen=True, slots=True)
class HandShown:
    """``name`` has been shown ``seat``'s hand in game ``game``: at the deal, or by taking
    the seat mid-game. Kept so that a restarted server still holds him to one hand."""

    table: int
    game: int
    seat: int
    name: str


@dataclass(frozen=True, slots=True)
class AwaySet:
    """``seat`` was marked away (two timeouts in a row) in game ``game``, or came back."""

    table: int
    game: int
    seat: int
    away: bool


# ------------------------------------------------------------------ chips
class ChipError(ValueError):
    """A chip move that cannot be made (not enough chips, no prize ...), with the reason."""


@dataclass(frozen=True, slots=True)
class Prize:
    """A prize held aside for one game of one table."""

    table: int
    funder: str  #: the name it came from and goes back to
    amount: int
    #: the game it is for: the running one, or the next one while none runs.
    #: None only for a prize kept by a version that did not record it (see ``on_run``).
    game: int | None = None


@dataclass(frozen=True, slots=True)
class ChipsMoved:
    """One ledger transaction, as a store write: postings that sum to zero, a reason, the
    table and game it concerns, each posted account's balance after it, and (when
    ``table`` is set) that table's prize after it (None: no prize).

    It is a write like any other, so it shares a transaction with the table's writes
    that cause it: a game's end and its payout, a new name and its chips."""

    id: int
    at: float
    reason: str
    table: int | None
    game: int | None
    postings: tuple[tuple[str, int], ...]
    balances: tuple[tuple[str, int], ...]  #: each posted account's balance afterwards
    prize_after: Prize | None = None

    def __post_init__(self) -> None:
        if not self.postings:
            raise ChipError(f"transaction {self.reason!r} moves no chips")
        if sum(d for _, d in self.postings) != 0:
            raise ChipError(f"transaction {self.reason!r} does not balance: {self.postings}")
        if any(d == 0 for _, d in self.postings):
            raise ChipError("a posting of zero chips")


@dataclass(frozen=True, slots=True)
class Entry:
    """One line of an account's statement."""

    txn: int
    at: float
    reason: str
    table: int | None
    delta: int
    balance: int  #: the account's balance after this entry


@dataclass(slots=True)
class LedgerState:
    """What the ledger loads: balances, prizes held, the next transaction id."""

    balances: dict[str, int] = field(default_factory=dict)
    prizes: dict[int, Prize] = field(default_factory=dict)
    next_txn: int = 1


# ---------------------------------------------------------------- profiles
@dataclass(frozen=True, slots=True)
class GamePlayers:
    """Who a game is played by, fixed at its deal (``server.players.profiles``): each seat's
    player (a folded name, or ``bot:STRATEGY``) with the name as shown, and whether
    the game is rated. Kept so that a restarted server still knows whom it rates."""

    table: int
    game: int
    players: tuple[str, ...]
    shown: tuple[str, ...]  #: each seat's player as the lobby shows him
    rated: bool


@dataclass(frozen=True, slots=True)
class Rating:
    """One player's rating in one family (openskill's mu and sigma), after ``games``."""

    player: str  #: a folded name, or ``bot:STRATEGY``
    family: str
    shown: str  #: the player's name as shown
    mu: float
    sigma: float
    games: int  #: rated games played in the family


@dataclass(frozen=True, slots=True)
class GameResult:
    """A finished game as the players' profiles keep it: stored in the transaction
    that stores its end, with every rating it changed (after the change)."""

    table: int
    game: int
    ruleset: str
    family: str
    rated: bool
    at: float
    players: tuple[str, ...]
    shown: tuple[str, ...]
    scores: tuple[int, ...]
    places: tuple[int, ...]  #: each seat's place, 0 = won
    ratings: tuple[Rating, ...] = ()  #: the ratings after this game (rated games only)


@dataclass(slots=True)
class ProfileState:
    """What the profiles load: every rating, and who plays each open table's running game."""

    ratings: dict[tuple[str, str], Rating] = field(default_factory=dict)
    lineups: dict[int, GamePlayers] = field(default_factory=dict)  #: table -> its game's


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """One line of a player's history."""

    table: int
    game: int
    ruleset: str
    rated: bool
    at: float
    seat: int
    players: tuple[str, ...]  #: as shown
    scores: tuple[int, ...]
    places: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """A game over (finished or abandoned) as the store keeps it: its full record (the
    ``engine.replay`` input: ruleset, seats, seed, options, dealer, deck, actions) and its
    players as shown (``GameResult.shown``; empty when no result was kept, as for an
    abandoned game). ``Store.finished_game`` reads one by its table and number."""

    table: int
    game: int
    record: dict[str, Any]
    names: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Tally:
    """A player's games played and won in one ruleset (won: place 0, shared or not)."""

    ruleset: str
    played: int
    won: int


@dataclass(frozen=True, slots=True)
class TournamentLogged:
    """Entry ``seq`` (from 0) of tournament ``tournament``'s log: ``kind`` (created,
    entered, withdrew, paused, back, seated, played, ended) and its ``data`` (JSON
    primitives). The log *is* the tournament, as a game's actions are the game: the
    server rebuilds each from its entries (``server.tournaments.book``). A ``played``
    entry is written in the transaction that stores the game's end it scores."""

    tournament: int
    seq: int
    kind: str
    data: dict[str, Any]


Write = (
    NameClaimed
    | NameSeen
    | NameExpired
    | TableCreated
    | SeatSet
    | MasterSet
    | OptionsSet
    | GameStarted
    | ActionTaken
    | GameSnapshot
    | GameEnded
    | TalkSaid
    | AnalysisKept
    | TableClosed
    | BotReserved
    | PauseSet
    | AwaySet
    | HandShown
    | ChipsMoved
    | GamePlayers
    | GameResult
    | TournamentLogged
)


# ------------------------------------------------------------- what loads
class HeldActions(Sequence[list[Any]]):
    """The first ``count`` actions of a stored game, read from the store (``read``) only
    when first asked for, then kept.

    Why: a restart rebuilds a game from its newest snapshot and the actions after it, so
    the actions the snapshot holds are needed only by what wants the whole record (a
    public log or a catch-up from before the snapshot, a bot's briefing, a take-back, the
    finished record). Reading them for every open game at start made the restart grow
    with history (the rows, and the collector's passes over them). ``read`` runs on the
    trio thread and blocks it for one query (``SQLiteStore.read_now``); ``StoreError``
    if the store cannot read them (nothing is kept, so the next use tries again)."""

    __slots__ = ("_count", "_read", "_rows")

    def __init__(self, count: int, read: Callable[[], list[list[Any]]]) -> None:
        self._count = count
        self._read = read
        self._rows: list[list[Any]] | None = None

    @property
    def loaded(self) -> bool:
        """Whether the rows have been read (for tests and the bench)."""
        return self._rows is not None

    def rows(self) -> list[list[Any]]:
        if self._rows is None:
            rows = self._read()
            if len(rows) != self._count:
                raise StoreError(f"{self._count} stored actions expected, {len(rows)} read")
            self._rows = rows
        return self._rows

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> list[Any]: ...
    @overload
    def __getitem__(self, index: slice) -> list[list[Any]]: ...
    def __getitem__(self, index: int | slice) -> list[Any] | list[list[Any]]:
        return self.rows()[index]

    def __iter__(self) -> Iterator[list[Any]]:
        return iter(self.rows())

    def __repr__(self) -> str:
        return f"<HeldActions {self._count}{'' if self.loaded else ', not read yet'}>"


class StoredActions(Sequence[list[Any]]):
    """A stored game's actions, all of them (the record): those its snapshot holds
    (``held``, read on first need) and those after it (``after``, read at load).

    ``engine.restore`` slices it at the snapshot: ``[:len(held)]`` is ``held`` itself,
    unread, and ``[len(held):]`` is ``after``; anything else reads ``held``. Equal to
    any sequence of the same actions (a ``MemoryStore``'s list)."""

    __slots__ = ("after", "held")

    def __init__(self, held: HeldActions, after: list[list[Any]]) -> None:
        self.held = held
        self.after = after

    def __len__(self) -> int:
        return len(self.held) + len(self.after)

    @overload
    def __getitem__(self, index: int) -> list[Any]: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[list[Any]]: ...
    def __getitem__(self, index: int | slice) -> list[Any] | Sequence[list[Any]]:
        held = len(self.held)
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            if step == 1 and start == 0 and stop == held:
                return self.held
            if step == 1 and start >= held:
                return self.after[start - held : stop - held]
            return list(self)[index]
        i = index + len(self) if index < 0 else index
        if not 0 <= i < len(self):
            raise IndexError("action index out of range")
        return self.held[i] if i < held else self.after[i - held]

    def __iter__(self) -> Iterator[list[Any]]:
        yield from self.held
        yield from self.after

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, str | bytes):
            return NotImplemented
        return len(self) == len(other) and list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]  # equal to a list, so unhashable like one

    def __repr__(self) -> str:
        return f"<StoredActions {self.held!r} + {len(self.after)} after>"


@dataclass(slots=True)
class StoredGame:
    number: int
    seed: int
    dealer: int | None
    deck: list[str] | None
    seq: int = 0  #: the sequence number of the game's start
    #: Every action of the game (its record); a ``StoredActions`` when the SQLite store
    #: left those before the snapshot unread until first needed.
    actions: list[list[Any]] | StoredActions = field(default_factory=list)
    over: bool = False  #: a ``GameEnded`` is stored (finished or abandoned)
    outcome: str | None = None  #: ``FINISHED`` or ``ABANDONED`` once over
    paused: bool = False  #: the game master paused it (meaningless once over)
    away: set[int] = field(default_factory=set)  #: seats played automatically until they act
    #: each name shown a seat's hand in this game, with that seat (``HandShown``)
    shown: dict[str, int] = field(default_factory=dict)
    snapshot: GameSnapshot | None = None  #: the newest of this game, if any
    #: the options it was dealt with (``GameStarted.options``); None in a game stored
    #: before they were kept: the table's options are its own then
    options: dict[str, Any] | None = None


@dataclass(slots=True)
class StoredTable:
    id: int
    ruleset: str
    seats: int
    options: dict[str, Any]
    creator: str | None
    settings: dict[str, Any]
    master: str | None = None
    seat_names: list[str | None] = field(default_factory=list)
    token_hashes: list[bytes | None] = field(default_factory=list)
    game: StoredGame | None = None  #: the current (or last) game
    closed: bool = False
    bots: dict[int, str] = field(default_factory=dict)  #: seat -> strategy the master reserved


@dataclass(slots=True)
class StoredState:
    """Everything ``load()`` returns: names, the open tables and the chip ledger."""

    names: dict[str, tuple[str, bytes, bytes]] = field(default_factory=dict)
    #: each name's last use (its claim, or the last ``NameSeen``), by its stored key
    name_seen: dict[str, float] = field(default_factory=dict)
    tables: dict[int, StoredTable] = field(default_factory=dict)
    next_table: int = 1
    ledger: LedgerState = field(default_factory=LedgerState)
    profiles: ProfileState = field(default_factory=ProfileState)
    #: every tournament's log, by its number (``TournamentLogged``)
    tournaments: dict[int, list[TournamentLogged]] = field(default_factory=dict)


def apply_write(state: StoredState, w: Write) -> None:  # noqa: C901 (one case a write)
    """What a write means, as a change to ``StoredState``: the store's semantics in one place.

    ``MemoryStore`` is exactly this; ``SQLiteStore`` writes each write as SQL
    (``server.store.sqlite.execute``) and reads it back (``read_state``), and a test holds
    the two equal for random sequences of every write. Each interpretation matches on
    the write's class and ends in ``assert_never``, so a write added to ``Write`` and not
    taught to every one of them fails the type check."""
    match w:
        case ActionTaken():
            g = _game(state, w.table, w.game)
            assert len(g.actions) == w.index, w
            assert isinstance(g.actions, list), "a loaded store's state takes no writes"
            g.actions.append([w.seat, w.notation])
        case GameSnapshot():
            g = _game(state, w.table, w.game)
            assert len(g.actions) == w.actions, w
            g.snapshot = w
        case TalkSaid() | AnalysisKept():
            pass  # kept for the record (an analysis: read on request), not reloaded
        case NameClaimed():
            state.names[w.name] = (w.display, w.salt, w.digest)
            state.name_seen[w.name] = w.at
        case NameSeen():
            if w.name in state.names:
                state.name_seen[w.name] = w.at
        case NameExpired():
            state.names.pop(w.name, None)
            state.name_seen.pop(w.name, None)
            if state.ledger.balances.get(w.display) == 0:
                del state.ledger.balances[w.display]
        case TableCreated():
            state.tables[w.table] = StoredTable(
                w.table,
                w.ruleset,
                w.seats,
                dict(w.options),
                w.creator,
                dict(w.settings),
                master=w.creator,
                seat_names=[None] * w.seats,
                token_hashes=[None] * w.seats,
            )
            state.next_table = max(state.next_table, w.table + 1)
        case SeatSet():
            t = state.tables[w.table]
            t.seat_names[w.seat] = w.name
            t.token_hashes[w.seat] = w.token_hash
        case MasterSet():
            state.tables[w.table].master = w.master
        case OptionsSet():
            state.tables[w.table].options = dict(w.options)
            state.tables[w.table].settings = dict(w.settings)
        case GameStarted():
            state.tables[w.table].game = StoredGame(
                w.game,
                w.seed,
                w.dealer,
                None if w.deck is None else list(w.deck),
                w.seq,
                options=None if w.options is None else dict(w.options),
            )
        case GameEnded():
            g = _game(state, w.table, w.game)
            g.over, g.outcome = True, w.outcome
            _end_lineup(state, w.table, w.game)
        case TableClosed():
            state.tables.pop(w.table, None)
            state.profiles.lineups.pop(w.table, None)
        case BotReserved():
            bots = state.tables[w.table].bots
            if w.strategy is None:
                bots.pop(w.seat, None)
            else:
                bots[w.seat] = w.strategy
        case PauseSet():
            _game(state, w.table, w.game).paused = w.paused
        case HandShown():
            _game(state, w.table, w.game).shown.setdefault(w.name, w.seat)
        case AwaySet():
            away = _game(state, w.table, w.game).away
            if w.away:
                away.add(w.seat)
            else:
                away.discard(w.seat)
        case ChipsMoved():
            ledger = state.ledger
            ledger.balances.update(w.balances)
            if w.table is not None:
                if w.prize_after is None:
                    ledger.prizes.pop(w.table, None)
                else:
                    ledger.prizes[w.table] = w.prize_after
            ledger.next_txn = max(ledger.next_txn, w.id + 1)
        case GamePlayers():
            state.profiles.lineups[w.table] = w
        case GameResult():
            _end_lineup(state, w.table, w.game)
            state.profiles.ratings.update(((r.player, r.family), r) for r in w.ratings)
        case TournamentLogged():
            log = state.tournaments.setdefault(w.tournament, [])
            assert len(log) == w.seq, w
            log.append(w)
        case _:
            assert_never(w)


def _game(state: StoredState, table: int, number: int) -> StoredGame:
    """Game ``number`` of ``table``, which must be the table's current game: a write
    for any other is the caller's bug."""
    g = state.tables[table].game
    assert g is not None and g.number == number, (table, number)
    return g


def _end_lineup(state: StoredState, table: int, game: int) -> None:
    held = state.profiles.lineups.get(table)
    if held is not None and held.game == game:
        del state.profiles.lineups[table]


@dataclass(frozen=True, slots=True)
class StoreStatistics:
    writes: int  #: writes made durable so far
    commits: int  #: transactions (group commits) so far
    queued: int  #: writes waiting for the writer now
    largest_batch: int


class Store(Protocol):
    """What tables, the lobby and accounts need from persistence."""

    def load(self) -> StoredState:
        """Open the store and return what it holds. Blocking: call once, at start."""
        ...

    async def commit(self, *writes: Write) -> None:
        """Make ``writes`` durable, in order; return once they are. ``StoreError`` if not.

        A store whose ``commit`` no cancellation can end early (it always waits for
        its writes to be kept or refused) says so with a class attribute
        ``uncancellable = True``: a table then needs no shield around it
        (``server.tables.store_gate``), which cost a cancel scope per action."""
        ...

    def submit_nowait(self, *writes: Write) -> None:
        """Queue ``writes`` to be made durable soon, without waiting (talk)."""
        ...

    async def statement(self, account: str, limit: int) -> list[Entry]:
        """The newest ``limit`` ledger entries of ``account``, newest first."""
        ...

    async def history(self, player: str, start: int, limit: int) -> tuple[list[PlayedGame], int]:
        """Up to ``limit`` of ``player``'s finished games, newest first, skipping the
        newest ``start``; and how many he has finished in all."""
        ...

    async def tallies(self, player: str) -> list[Tally]:
        """``player``'s games played and won, per ruleset (by ruleset name)."""
        ...

    async def finished_any(self, players: Sequence[str]) -> set[str]:
        """Which of ``players`` (player keys: folded names) have finished a game."""
        ...

    async def analysis(self, table: int, game: int) -> str | None:
        """The analysis kept for game ``game`` of ``table`` (``AnalysisKept.data``), or None."""
        ...

    async def finished_game(self, table: int, game: int) -> FinishedGame | None:
        """Game ``game`` of ``table`` if it is over (finished or abandoned), with its whole
        record; None if there is no such game or it is still running (its deal is secret)."""
        ...

    async def aclose(self) -> None:
        """Finish every queued write and close."""
        ...

    def statistics(self) -> StoreStatistics: ...


class MemoryStore:
    """A store that keeps everything in memory: for tests and throwaway servers.

    ``state`` survives across servers in one process, so a test can "restart" a
    server on the same ``MemoryStore`` and see its tables rebuilt."""

    def __init__(self) -> None:
        self.state = StoredState()
        self.talk: list[TalkSaid] = []
        self.entries: dict[str, list[Entry]] = {}  #: account -> its statement, oldest first
        self.results: list[GameResult] = []  #: finished games, oldest first (profiles)
        self.analyses: dict[tuple[int, int], str] = {}  #: (table, game) -> its analysis
        #: (table, game) -> the record of each game over, kept as it ends (a table's
        #: state holds only its last game)
        self.finished: dict[tuple[int, int], dict[str, Any]] = {}
        self._writes = 0
        self._commits = 0

    #: ``commit`` cannot be cancelled once called (``Store.commit``)
    uncancellable = True

    def load(self) -> StoredState:
        return self.state

    async def commit(self, *writes: Write) -> None:
        self.submit_nowait(*writes)
        await trio.lowlevel.cancel_shielded_checkpoint()  # kept: no cancellation undoes it

    def submit_nowait(self, *writes: Write) -> None:
        for w in writes:
            apply_write(self.state, w)
            if isinstance(w, TalkSaid):
                self.talk.append(w)
            elif isinstance(w, AnalysisKept):
                self.analyses[(w.table, w.game)] = w.data
            elif isinstance(w, GameEnded):
                self._keep_finished(w.table)
            elif isinstance(w, GameResult):
                self.results.append(w)
            elif isinstance(w, ChipsMoved):
                after = dict(w.balances)
                for account, delta in w.postings:
                    self.entries.setdefault(account, []).append(
                        Entry(w.id, w.at, w.reason, w.table, delta, after[account])
                    )
        self._writes += len(writes)
        self._commits += 1

    async def statement(self, account: str, limit: int) -> list[Entry]:
        await trio.lowlevel.checkpoint()
        return list(reversed(self.entries.get(account, [])[-limit:]))

    async def history(self, player: str, start: int, limit: int) -> tuple[list[PlayedGame], int]:
        await trio.lowlevel.checkpoint()
        mine = [played(r, r.players.index(player)) for r in self.results if player in r.players]
        mine.reverse()
        return mine[start : start + limit], len(mine)

    async def tallies(self, player: str) -> list[Tally]:
        await trio.lowlevel.checkpoint()
        counts: dict[str, list[int]] = {}
        for r in self.results:
            if player in r.players:
                c = counts.setdefault(r.ruleset, [0, 0])
                c[0] += 1
                c[1] += r.places[r.players.index(player)] == 0
        return [Tally(ruleset, p, w) for ruleset, (p, w) in sorted(counts.items())]

    async def finished_any(self, players: Sequence[str]) -> set[str]:
        await trio.lowlevel.checkpoint()
        wanted = set(players)
        return {p for r in self.results for p in r.players if p in wanted}

    async def analysis(self, table: int, game: int) -> str | None:
        await trio.lowlevel.checkpoint()
        return self.analyses.get((table, game))

    def _keep_finished(self, table: int) -> None:
        t = self.state.tables[table]
        g = t.game
        assert g is not None
        options = t.options if g.options is None else g.options
        self.finished[(table, g.number)] = {
            "ruleset": t.ruleset, "seats": t.seats, "seed": g.seed, "options": dict(options),
            "dealer": g.dealer, "deck": g.deck, "actions": [list(a) for a in g.actions],
        }  # fmt: skip

    async def finished_game(self, table: int, game: int) -> FinishedGame | None:
        await trio.lowlevel.checkpoint()
        record = self.finished.get((table, game))
        if record is None:
            return None
        shown = next((r.shown for r in self.results if (r.table, r.game) == (table, game)), ())
        return FinishedGame(table, game, dict(record), tuple(shown))

    async def aclose(self) -> None:
        await trio.lowlevel.checkpoint()

    def statistics(self) -> StoreStatistics:
        return StoreStatistics(self._writes, self._commits, 0, 1)


def played(r: GameResult, seat: int) -> PlayedGame:
    """The history line of seat ``seat`` of a finished game."""
    return PlayedGame(r.table, r.game, r.ruleset, r.rated, r.at, seat, r.shown, r.scores,
                      r.places)  # fmt: skip


def now() -> float:
    """Wall-clock time for stored rows (never used for timing: that is trio's clock)."""
    return time.time()
