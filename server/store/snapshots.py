"""Restart snapshots: a table comes back from its game's newest snapshot plus the actions
after it, instead of replaying every action of its game.

Why: a replay costs each action again, so a restart took time in proportion to the
history of every open game. Every ``snapshot_every`` actions the table stores the game
as it stands (``Game.snapshot()``, as msgpack) with the action it follows, in the same
transaction (``due``); a restart then replays fewer than ``snapshot_every`` actions a
table, however long its game (``restore``). The record stays the actions: a snapshot
is only a cache, and one that is missing, damaged or of an older format is replaced by
the full replay, as before (the lobby says so once, in the log: ``log_replays``).
A snapshot is stored with its digest (``GameSnapshot.digest``) and used only if it
still matches, so a row altered on disk that still decodes is replayed too, never
trusted over the record; a snapshot stored before digests were kept has none and is
replayed once, until the game's next snapshot.

A snapshot holds the game, not the events before it. The table numbers the events after
it from the snapshot's sequence number; what the events before it would have built is
made when first needed, by one replay of the record in the table's own task
(``events_before``, called by ``server.tables.restoring``): the running game's public
log, the catch-up of a client behind the snapshot, and the server bots' memory (a bot
remembers the cards played this hand after a restart, so before a bot or a clock moves,
the strategies are shown the whole game). A table whose players simply come back never
needs it.

Nor does a restart read the actions before the snapshot: the SQLite store loads only
those after it, and the record's ``actions`` (a ``StoredActions``) read the rest on the
first need of the whole record (the replay above, a take-back, the finished record), so
a restart reads about as much, as well as replays as much, however long the games.

This module knows the store's rows and the engine, not the table: the table calls it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import msgpack

import engine
from engine.events import Event
from engine.game import Game
from server.store.base import GameSnapshot, StoredGame, snapshot_digest

log = logging.getLogger("switchboard.table")

#: ``restore``'s answer for a game too short to have a snapshot yet: replayed, as it should be.
NONE_DUE = "none due"


@dataclass(slots=True)
class Unreplayed:
    """What a table restored from a snapshot has not rebuilt: the events of the first
    ``actions`` actions (and the opening), numbered up to ``seq``."""

    actions: int
    seq: int


@dataclass(slots=True)
class Restored:
    """A game rebuilt from its snapshot: each later action's events, to be numbered
    from ``unreplayed.seq`` as they were first numbered."""

    game: Game
    after: list[list[Event]]
    unreplayed: Unreplayed


def due(every: int, table: int, number: int, game: Game, seq: int) -> list[GameSnapshot]:
    """The snapshot to store with the action ``game`` has just taken (its events about to
    be numbered up to ``seq``), if one is due: every ``every`` actions (0: never)."""
    if every <= 0 or game.actions_taken % every:
        return []
    return [snapshot_of(table, number, game, seq)]


def snapshot_of(table: int, number: int, game: Game, seq: int) -> GameSnapshot:
    """The store's write for ``game`` (game ``number`` of ``table``) as it stands, its
    events numbered up to ``seq``."""
    data = msgpack.packb(game.snapshot())
    digest = snapshot_digest(table, number, game.actions_taken, seq, data)
    return GameSnapshot(table, number, game.actions_taken, seq, data, digest)


def record_of(
    ruleset: str, seats: int, options: Mapping[str, Any], g: StoredGame
) -> dict[str, Any]:
    """The stored game's record, as ``Game.record()`` gives it: with the options it was
    dealt with, or ``options`` (the table's) for a game stored before those were kept."""
    return {
        "ruleset": ruleset,
        "seats": seats,
        "seed": g.seed,
        "options": dict(options if g.options is None else g.options),
        "dealer": g.dealer,
        "deck": g.deck,
        "actions": g.actions,
    }


def restore(record: Mapping[str, Any], g: StoredGame, every: int) -> Restored | str:
    """``g``'s game rebuilt from its snapshot and the actions after it (``record`` is its
    record), or why it could not be (then the caller replays the record)."""
    snap = g.snapshot
    if snap is None:
        return "no snapshot stored" if 0 < every <= len(g.actions) else NONE_DUE
    if snap.game != g.number or not g.seq <= snap.seq:
        return "the snapshot is of another game"
    if snap.digest is None:
        return "the snapshot has no digest (stored by an older version)"
    if not snap.sealed():
        return "the snapshot does not match its digest (altered or damaged on disk)"
    try:
        data = msgpack.unpackb(snap.data)
    except (ValueError, msgpack.UnpackException) as exc:
        return f"the snapshot does not unpack ({type(exc).__name__}: {exc})"
    if not isinstance(data, dict):
        return "the snapshot is damaged: not a map"
    after: list[list[Event]] = []
    try:
        game = engine.restore(record, data, after.append)
    except (ValueError, TypeError) as exc:  # SnapshotError, or an action it does not allow
        return str(exc)
    return Restored(game, after, Unreplayed(snap.actions, snap.seq))


def events_before(
    record: Mapping[str, Any],
    missing: Unreplayed,
    observe: Callable[[list[Event]], None] | None = None,
) -> list[Event]:
    """The opening's and the first ``missing.actions`` actions' events, by one replay of
    the game's ``record``; ``observe``, if given, is shown every action's events, the
    later ones too (fresh strategies learning the whole game)."""
    before: list[Event] = []
    calls = 0

    def shown(events: list[Event]) -> None:
        nonlocal calls
        calls += 1
        if calls <= missing.actions + 1:  # the opening, then the actions the snapshot holds
            before.extend(events)
        if observe is not None:
            observe(events)

    engine.replay(record, shown)
    return before


def log_replays(tables: Iterable[Any]) -> None:
    """One line for every restored table whose game had to be replayed in full although
    a snapshot was due (a store from before snapshots, a damaged row, an older format)."""
    replayed = [t for t in tables if t.replayed_because not in (None, NONE_DUE)]
    if replayed:
        first = replayed[0]
        log.warning(
            "%d restored tables could not use their snapshot and were replayed in full"
            " (table %s: %s)",
            len(replayed),
            first.id,
            first.replayed_because,
        )
