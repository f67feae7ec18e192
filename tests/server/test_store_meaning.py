"""The store is an interface: ``MemoryStore`` (``apply_write``) and ``SQLiteStore`` (each
write as SQL, read back by ``read_state``) must mean the same by every write.

Hypothesis builds random histories a server could write, holding every kind of write
(``WRITES`` has a builder for each class of the ``Write`` union, and a test says so),
commits them to both stores and compares what each holds afterwards: what ``load()``
returns after a restart, every account's statement, every player's history, tallies and
finished games, and the talk kept.
"""

from __future__ import annotations

import sqlite3
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, get_args

import trio
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.store.base import (
    ABANDONED,
    FINISHED,
    ActionTaken,
    AnalysisKept,
    AwaySet,
    BotReserved,
    ChipsMoved,
    GameEnded,
    GamePlayers,
    GameResult,
    GameSnapshot,
    GameStarted,
    HandShown,
    MasterSet,
    MemoryStore,
    NameClaimed,
    NameExpired,
    NameSeen,
    OptionsSet,
    PauseSet,
    Prize,
    Rating,
    SeatSet,
    TableClosed,
    TableCreated,
    TalkSaid,
    TournamentLogged,
    Write,
)
from server.store.sqlite import SQLiteStore

NAMES = ("ann", "bob", "cy", "dee")
PLAYERS = (*NAMES, "bot:random", "bot:search")
ACCOUNTS = (*(n.title() for n in NAMES), "house")
RULESETS = ("abbott", "kilodney", "crazy-eights")
JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=6,
)
SETTINGS = st.dictionaries(st.text(max_size=12), JSON, max_size=3)
AT = st.floats(0, 4e9, allow_nan=False)
BLOB = st.binary(max_size=24)


@dataclass
class Table:
    seats: int
    game: int = 0  #: the current game's number (0: none yet)
    running: bool = False
    actions: int = 0
    resulted: bool = False  #: the current game's ``GameResult`` is written


@dataclass
class Model:
    """What the writes so far have made: enough to build only writes a server could make."""

    claimed: set[str] = field(default_factory=set)
    tables: dict[int, Table] = field(default_factory=dict)
    next_table: int = 1
    next_txn: int = 1
    balances: dict[str, int] = field(default_factory=dict)
    tournaments: dict[int, int] = field(default_factory=dict)  #: number -> entries logged


Draw = Callable[[st.SearchStrategy[Any]], Any]


def open_table(draw: Draw, model: Model, out: list[Write]) -> int:
    """An open table, created first if there is none."""
    if not model.tables:
        out += table_created(draw, model)
    return draw(st.sampled_from(sorted(model.tables)))


def running_game(draw: Draw, model: Model, out: list[Write]) -> tuple[int, Table]:
    """A table with a game running, one started first if need be."""
    tid = open_table(draw, model, out)
    t = model.tables[tid]
    if not t.running:
        out += game_started(draw, model, tid)
    return tid, t


def name_claimed(draw: Draw, model: Model) -> list[Write]:
    out: list[Write] = []
    free = [n for n in NAMES if n not in model.claimed]
    if not free:
        out += name_expired(draw, model)
        free = [n for n in NAMES if n not in model.claimed]
    name = draw(st.sampled_from(free))
    model.claimed.add(name)
    return [*out, NameClaimed(name, name.title(), draw(BLOB), draw(BLOB), draw(AT))]


def name_seen(draw: Draw, model: Model) -> list[Write]:
    return [NameSeen(draw(st.sampled_from(NAMES)), draw(AT))]


def name_expired(draw: Draw, model: Model) -> list[Write]:
    name = draw(st.sampled_from(NAMES))
    model.claimed.discard(name)
    if model.balances.get(name.title()) == 0:
        del model.balances[name.title()]
    return [NameExpired(name, name.title())]


def table_created(draw: Draw, model: Model) -> list[Write]:
    tid = model.next_table + draw(st.integers(0, 2))
    model.next_table = tid + 1
    seats = draw(st.integers(1, 6))
    model.tables[tid] = Table(seats)
    creator = draw(st.none() | st.sampled_from(ACCOUNTS))
    ruleset = draw(st.sampled_from(RULESETS))
    return [TableCreated(tid, ruleset, seats, draw(SETTINGS), creator, draw(SETTINGS))]


def seat_set(draw: Draw, model: Model) -> list[Write]:
    out: list[Write] = []
    tid = open_table(draw, model, out)
    seat = draw(st.integers(0, model.tables[tid].seats - 1))
    name = draw(st.none() | st.sampled_from(ACCOUNTS))
    return [*out, SeatSet(tid, seat, name, None if name is None else draw(BLOB))]


def master_set(draw: Draw, model: Model) -> list[Write]:
    out: list[Write] = []
    tid = open_table(draw, model, out)
    return [*out, MasterSet(tid, draw(st.none() | st.sampled_from(ACCOUNTS)))]


def options_set(draw: Draw, model: Model) -> list[Write]:
    out: list[Write] = []
    tid = open_table(draw, model, out)
    return [*out, OptionsSet(tid, draw(SETTINGS), draw(SETTINGS))]


def game_started(draw: Draw, model: Model, tid: int | None = None) -> list[Write]:
    out: list[Write] = []
    if tid is None:
        tid = open_table(draw, model, out)
    t = model.tables[tid]
    if t.running:  # a table starts its next game once the last has ended
        out += game_ended(draw, model, tid)
    t.game, t.running, t.actions, t.resulted = t.game + 1, True, 0, False
    dealer = draw(st.none() | st.integers(0, t.seats - 1))
    deck = draw(st.none() | st.lists(st.sampled_from(["AS", "7H", "QD", "2C"]), max_size=6))
    seed = draw(st.integers(0, 2**63 - 1))
    seq, options = draw(st.integers(0, 10**6)), draw(st.none() | SETTINGS)  # None: as before
    return [*out, GameStarted(tid, t.game, seed, dealer, deck, seq, options)]


def action_taken(draw: Draw, model: Model) -> list[Write]:
    out: list[Write] = []
    tid, t = running_game(draw, model, out)
    t.actions += 1
    notation = draw(st.sampled_from(["draw", "play 7H", "move c4", "concede"]))
    return [*out, ActionTaken(tid, t.game, t.actions - 1, draw(st.integers(0, 5)), notation)]


def game_snapshot(draw: Draw, model: Model) -> list[Write]:
    out: list[Write] = []
    tid, t = running_game(draw, model, out)
    seq = draw(st.integers(0, 10**6))
    return [*out, GameSnapshot(tid, t.game, t.actions, seq, draw(BLOB), draw(st.none() | BLOB))]


def game_ended(draw: Draw, model: Model, tid: int | None = None) -> list[Write]:
    out: list[Write] = []
    if tid is None:
        tid, t = running_game(draw, model, out)
    t = model.tables[tid]
    t.running = False
    scores = draw(st.lists(st.integers(-500, 500), min_size=t.seats, max_size=t.seats))
    return [*out, GameEnded(tid, t.game, scores, draw(st.sampled_from([FINISHED, ABANDONED])))]


def talk_said(draw: Draw, model: Model) -> list[Write]:
    out: list[Write] = []
    tid = open_table(draw, model, out)
    return [*out, TalkSaid(tid, draw(st.sampled_from(ACCOUNTS)), draw(st.text()), draw(AT))]


def analysis_kept(draw: Draw, model: Model) -> list[Write]:
    out: list[Write] = []
    tid = open_table(draw, model, out)
    return [*out, AnalysisKept(tid, draw(st.integers(1, 3)), draw(st.text()))]


def table_closed(draw: Draw, model: Model) -> list[Write]:
    out: list[Write] = []
    tid = open_table(draw, model, out)
    if model.tables[tid].running:  # as a server closes one: its game abandoned first
        out += game_ended(draw, model, tid)
    del model.tables[tid]
    return [*out, TableClosed(tid)]


def bot_reserved(draw: Draw, model: Model) -> list[Write]:
    out: list[Write] = []
    tid = open_table(draw, model, out)
    seat = draw(st.integers(0, model.tables[tid].seats - 1))
    return [*out, BotReserved(tid, seat, draw(st.none() | st.sampled_from(["random", "search"])))]


def pause_set(draw: Draw, model: Model) -> list[Write]:
    out: list[Write] = []
    tid, t = running_game(draw, model, out)
    return [*out, PauseSet(tid, t.game, draw(st.booleans()))]


def away_set(draw: Draw, model: Model) -> list[Write]:
    out: list[Write] = []
    tid, t = running_game(draw, model, out)
    return [*out, AwaySet(tid, t.game, draw(st.integers(0, t.seats - 1)), draw(st.booleans()))]


def hand_shown(draw: Draw, model: Model) -> list[Write]:
    out: list[Write] = []
    tid, t = running_game(draw, model, out)
    seat, name = draw(st.integers(0, t.seats - 1)), draw(st.sampled_from(ACCOUNTS))
    return [*out, HandShown(tid, t.game, seat, name)]


def chips_moved(draw: Draw, model: Model) -> list[Write]:
    accounts = draw(st.lists(st.sampled_from(ACCOUNTS), min_size=2, max_size=3, unique=True))
    deltas = [draw(st.integers(-300, 300).filter(bool)) for _ in accounts[1:]]
    if sum(deltas) == 0:
        deltas[0] += 1
    postings = tuple(zip(accounts, [-sum(deltas), *deltas], strict=True))
    for account, delta in postings:
        model.balances[account] = model.balances.get(account, 0) + delta
    balances = tuple((a, model.balances[a]) for a in accounts)
    table = draw(st.none() | st.sampled_from(sorted(model.tables) or [1]))
    game, prize = None, None
    if table is not None:
        game = draw(st.none() | st.integers(1, 3))
        if draw(st.booleans()):
            prize = Prize(table, draw(st.sampled_from(ACCOUNTS)), draw(st.integers(1, 999)), game)
    txn = model.next_txn
    model.next_txn += 1
    reason = draw(st.sampled_from(["welcome", "prize", "payout", "refund"]))
    return [ChipsMoved(txn, draw(AT), reason, table, game, postings, balances, prize)]


def lineup(draw: Draw, seats: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    players = tuple(draw(st.lists(st.sampled_from(PLAYERS), min_size=seats, max_size=seats)))
    return players, tuple(p.title() for p in players)


def game_players(draw: Draw, model: Model) -> list[Write]:
    out: list[Write] = []
    tid, t = running_game(draw, model, out)
    players, shown = lineup(draw, t.seats)
    return [*out, GamePlayers(tid, t.game, players, shown, draw(st.booleans()))]


def game_result(draw: Draw, model: Model) -> list[Write]:
    """A finished game's result: written with (after) its end, once a game."""
    out: list[Write] = []
    tid = open_table(draw, model, out)
    t = model.tables[tid]
    if t.resulted or t.game == 0:
        out += game_started(draw, model, tid)
    if t.running:
        out += game_ended(draw, model, tid)
    t.resulted = True
    players, shown = lineup(draw, t.seats)
    n = t.seats
    places = tuple(draw(st.lists(st.integers(0, n - 1), min_size=n, max_size=n)))
    scores = tuple(draw(st.lists(st.integers(-99, 99), min_size=n, max_size=n)))
    ratings = tuple(
        Rating(p, "kilodney", p.title(), draw(st.floats(0, 50)), draw(st.floats(0.1, 9)), g)
        for g, p in enumerate(sorted(set(players)))
        if draw(st.booleans())
    )
    ruleset = draw(st.sampled_from(RULESETS))
    rated = bool(ratings)
    return [
        *out,
        GameResult(tid, t.game, ruleset, "kilodney", rated, draw(AT), players, shown, scores,
                   places, ratings),
    ]  # fmt: skip


def tournament_logged(draw: Draw, model: Model) -> list[Write]:
    number = draw(st.integers(1, 3))
    seq = model.tournaments.get(number, 0)
    model.tournaments[number] = seq + 1
    kind = draw(st.sampled_from(["created", "entered", "seated", "played", "ended"]))
    return [TournamentLogged(number, seq, kind, draw(SETTINGS))]


#: A builder for every class of ``Write``: the writes it needs first, then one of its class.
WRITES: dict[type, Callable[[Draw, Model], list[Write]]] = {
    NameClaimed: name_claimed,
    NameSeen: name_seen,
    NameExpired: name_expired,
    TableCreated: table_created,
    SeatSet: seat_set,
    MasterSet: master_set,
    OptionsSet: options_set,
    GameStarted: game_started,
    ActionTaken: action_taken,
    GameSnapshot: game_snapshot,
    GameEnded: game_ended,
    TalkSaid: talk_said,
    AnalysisKept: analysis_kept,
    TableClosed: table_closed,
    BotReserved: bot_reserved,
    PauseSet: pause_set,
    AwaySet: away_set,
    HandShown: hand_shown,
    ChipsMoved: chips_moved,
    GamePlayers: game_players,
    GameResult: game_result,
    TournamentLogged: tournament_logged,
}


def test_every_write_is_in_the_comparison() -> None:
    """A write added to the store is compared too, or this fails: the comparison below
    builds every class ``WRITES`` knows, and must know every class of ``Write``."""
    assert set(WRITES) == set(get_args(Write))


@st.composite
def histories(draw: Draw) -> list[list[Write]]:
    """A history a server could write, in commits (each one transaction): every class of
    write at least once, in a random order, then random ones."""
    model = Model()
    kinds = [*draw(st.permutations(list(WRITES))), *draw(st.lists(st.sampled_from(list(WRITES))))]
    commits: list[list[Write]] = []
    for kind in kinds:
        writes = WRITES[kind](draw, model)
        if commits and draw(st.booleans()):  # sharing the last commit's transaction
            commits[-1] += writes
        else:
            commits.append(writes)
    return commits


async def compare(commits: list[list[Write]], directory: Path) -> None:
    memory = MemoryStore()
    for writes in commits:
        await memory.commit(*writes)
    path = directory / "store.sqlite3"
    store = SQLiteStore(path)
    store.load()
    for writes in commits:
        await store.commit(*writes)
    await store.aclose()
    again = SQLiteStore(path)
    loaded = again.load()
    try:
        # loaded first: its actions read on first need compare equal to the memory's lists
        assert loaded.tables == memory.state.tables
        assert loaded == memory.state
        for account in ACCOUNTS:
            assert await again.statement(account, 1000) == await memory.statement(account, 1000)
        for player in PLAYERS:
            for start, limit in ((0, 1000), (1, 2)):
                want = await memory.history(player, start, limit)
                assert await again.history(player, start, limit) == want
            assert await again.tallies(player) == await memory.tallies(player)
        assert await again.finished_any(PLAYERS) == await memory.finished_any(PLAYERS)
        for (table, game), data in memory.analyses.items():
            assert await again.analysis(table, game) == data
        assert await again.analysis(10**6, 1) is None
    finally:
        await again.aclose()
    conn = sqlite3.connect(path)
    try:
        talk = conn.execute("SELECT table_id, name, text, at FROM talk ORDER BY id").fetchall()
    finally:
        conn.close()
    assert talk == [(w.table, w.name, w.text, w.at) for w in memory.talk]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(histories())
def test_memory_and_sqlite_mean_the_same_by_every_write(commits: list[list[Write]]) -> None:
    with tempfile.TemporaryDirectory() as directory:
        trio.run(compare, commits, Path(directory))
