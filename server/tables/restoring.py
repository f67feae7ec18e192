"""A table's game brought back from the store after a restart, and what a restore from
a snapshot skipped, made when first needed.

On start, open tables are rebuilt from a stored snapshot plus the actions after it
(``server.store.snapshots``), or by replaying the stored record: either way the
events come back with the very numbers first sent (``Delivery``) and the bots that
play on are shown them. A restore from a snapshot skips the events before it; they
are made by one replay of the record when first asked for (``fill``): the public
log's start, the event ring's, and bots that have seen the whole game.
"""

from __future__ import annotations

import logging
from typing import Protocol

import engine
from engine.events import Event
from engine.game import Game
from protocol.fields import TableState
from server.store import snapshots
from server.store.base import ABANDONED, FINISHED, StoredGame, StoredTable, StoreError
from server.tables.delivery import Delivery
from server.tables.gamemaster import GameMaster
from server.tables.seating import Seating
from server.tables.store_gate import StoreGate

log = logging.getLogger("switchboard.table")


class Seated(Protocol):
    """A table as its restore seats it (``server.tables.table.Table``)."""

    seating: Seating
    gm: GameMaster


def seat(t: Seated, stored: StoredTable) -> None:
    """A rebuilt table's seats as stored: their holders, and the bots the master reserved
    (before the replay, so each seat's strategy is made first and is shown every
    replayed event its seat was shown, as in the live game). The pause and the away
    seats of an unfinished game come back after it (``GameMaster.restore``), and
    ``Table.run`` gives the turn its clock."""
    for i, (name, th) in enumerate(zip(stored.seat_names, stored.token_hashes, strict=True)):
        t.seating.hold(i, name, th)
    t.gm.reserve(stored.bots)


def ending(g: StoredGame, game: Game) -> tuple[TableState, str | None]:
    """A rebuilt game's state and outcome. A stored end is respected, whatever the replay
    says: a game the master ended, or abandoned when everyone left, is over (abandoned)
    after a restart too."""
    if g.over or game.over:
        # rows ended before the outcome was kept: the replay tells which it was
        return TableState.OVER, g.outcome or (FINISHED if game.over else ABANDONED)
    return TableState.PLAYING, None


class Restoration:
    """What one table knows of how its game was restored."""

    def __init__(self, table_id: int, out: Delivery, gm: GameMaster, gate: StoreGate) -> None:
        self.table_id = table_id
        self._out, self._gm, self._gate = out, gm, gate
        #: Restored from a snapshot: the events before it, made when first asked for.
        self.unreplayed: snapshots.Unreplayed | None = None
        #: Why ``replay`` replayed the whole game (None: from a snapshot, or nothing restored).
        self.replayed_because: str | None = None

    def replay(self, stored: StoredTable, snapshot_every: int) -> Game:
        """The stored game rebuilt: from its newest snapshot and the actions after it, or
        its whole record; its events numbered as first sent, and shown to the bots that
        will play on (made first, so that they see every event)."""
        g = stored.game
        assert g is not None
        out = self._out
        out.new_game(g.seq)
        if not g.over:  # the bots that will play on watch the replay
            self._gm.new_strategies()
        record = snapshots.record_of(stored.ruleset, stored.seats, stored.options, g)
        restored = snapshots.restore(record, g, snapshot_every)
        if isinstance(restored, snapshots.Restored):  # the newest snapshot, what follows
            self.unreplayed = restored.unreplayed
            out.resume_numbering(restored.unreplayed.seq)  # the later events as they were
            for events in restored.after:
                out.record(events)
            return restored.game
        self.replayed_because = restored  # none, or not usable: the whole record

        def keep(events: list[Event]) -> None:
            out.record(events)

        return engine.replay(record, keep)

    def take_back(self, game: Game) -> Game:
        """The game as stored: its last action, which the store refused, undone (the game
        is rebuilt from its record without it; nobody was told of it).

        A restored game's actions before its snapshot may have to be read for it: if the
        store cannot read them either, the game in memory is ahead of the store and is
        not to be trusted, so the table fails (the lobby takes it out; a restart brings
        it back as stored), instead of playing on from an action nobody stored."""
        try:
            record = game.record()
        except StoreError as exc:
            msg = f"table {self.table_id}: the refused action cannot be taken back"
            raise RuntimeError(msg) from exc
        record["actions"] = record["actions"][:-1]
        return engine.replay(record)

    def forget(self) -> None:
        """A new game: nothing of the restored one is left to make."""
        self.unreplayed = None

    def fill(self, game: Game | None, since: int | None = None) -> None:
        """Make what a restore from a snapshot skipped, by one replay of the record: the
        events before it (the public log's start, and the event ring's as far as it
        reaches) and, while the game runs, server bots that have seen every event (fresh
        strategies shown the whole game, as a full replay would have). Called before the
        public log is read, before a bot or a clock moves, and when a client resumes from
        ``since`` (only if the ring could then reach back to it: a client further behind
        gets a snapshot anyway). Once done, or after a full replay: nothing.

        The record's actions before the snapshot may be read from the store now (a SQLite
        store reads them on first need): if it cannot, ``StoreError``, nothing changed,
        and the table waits as after a refused write (its bots and clock retry later)."""
        missing = self.unreplayed
        if missing is None or game is None:
            return
        if since is not None and not self._out.reaches(since, missing.seq):
            return
        try:
            record = game.record()
        except StoreError as exc:
            self._gate.failed(exc)
            raise
        self.unreplayed = None
        gm = self._gm
        running = gm.running()
        if running:
            gm.new_strategies()
        before = snapshots.events_before(record, missing, gm.observe if running else None)
        if not self._out.prepend(before, missing.seq):  # pragma: no cover - a damaged store
            log.error("table %s: the replay does not number its events as stored", self.table_id)
