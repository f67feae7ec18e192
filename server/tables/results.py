"""The players' results and ratings, kept from the table layer's events.

``Results`` subscribes the server's ``server.players.profiles.Profiles`` to every
table's events (``server.tables.events``), joining the transactions that record them:

- a ``GameStarted`` stores who plays the game, and whether it is rated
  (``server.tables.settings.is_rated``), with the start (``GamePlayers``);
- a ``GameEnded`` finished by its rules stores its result (places and scores, from the
  event) and its players' new ratings with the end (``GameResult``); an abandoned game
  is in nobody's history;
- a game's end, or its table's close, lets its lineup go.

Everything is planned from memory under the profiles' lock and applied to memory only
once the transaction is durable (``Profiles`` says why), so a refused commit leaves
neither the end nor the ratings.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

from protocol import messages as m
from server.core.wire import table_word
from server.players.profiles import MU, SIGMA, Profiles, player_key, rate, shown_rating
from server.store.base import GamePlayers, GameResult, Rating, Write, now
from server.tables.events import GameEnded, GameStarted, TableClosed, TableEvents, Transaction
from server.tables.settings import is_rated


class Results:
    """The players' results and ratings, as every table's games start and end."""

    def __init__(self, profiles: Profiles) -> None:
        self.profiles = profiles

    def subscribe(self, events: TableEvents) -> None:
        events.join(self.joining)

    def result(self, e: GameEnded) -> GameResult | None:
        """The result of the finished game ``e`` (None: nobody's lineup for it)."""
        lineup = self.profiles.lineups.get(e.table)
        if lineup is None or lineup.game != e.game or not e.finished:
            return None
        ratings = (
            rate(self.profiles.ratings, e.family, lineup.players, lineup.shown, e.places)
            if lineup.rated
            else ()
        )
        return GameResult(e.table, lineup.game, e.ruleset, e.family, lineup.rated, now(),
                          lineup.players, lineup.shown, e.scores, e.places,
                          ratings)  # fmt: skip

    @contextlib.asynccontextmanager
    async def joining(self, txn: Transaction) -> AsyncIterator[None]:
        """Around the commit of a game's start or end, or a table's close: their writes
        added to it, applied to memory once it is durable. One transaction at a time,
        so two games ending at once never rate from the same stale value."""
        started = txn.of(GameStarted)
        ended = txn.of(GameEnded)
        closed = txn.of(TableClosed)
        if not (started or ended or closed):
            yield
            return
        profiles = self.profiles
        async with profiles.lock:
            dealt = [
                GamePlayers(e.table, e.game, tuple(player_key(p) for p in e.players),
                            e.players, is_rated(e.settings, e.people))
                for e in started
            ]  # fmt: skip
            results = [r for e in ended if (r := self.result(e)) is not None]
            writes: list[Write] = [*dealt, *results]
            txn.writes.extend(writes)
            yield
            for r in results:
                if r.ratings:
                    txn.said.append(rated(r, profiles.ratings))
                profiles.ratings.update(((x.player, x.family), x) for x in r.ratings)
            for e in ended:
                held = profiles.lineups.get(e.table)
                if held is not None and held.game == e.game:
                    del profiles.lineups[e.table]  # its game ended
            for c in closed:
                profiles.lineups.pop(c.table, None)  # its table closed
            for lineup in dealt:
                profiles.lineups[lineup.table] = lineup


def rated(r: GameResult, ratings: dict[tuple[str, str], Rating]) -> m.Rated:
    """What everyone at the table is told of the ratings game ``r`` changed: each rated
    seat's rating before (``ratings``, not yet updated) and after, as ``profile`` shows it."""
    after = {x.player: x for x in r.ratings}
    changes: list[dict[str, int | str]] = []
    words: list[str] = []
    for seat, (key, name) in enumerate(zip(r.players, r.shown, strict=True)):
        new = after.get(key)
        if new is None:
            continue
        old = ratings.get((key, r.family))
        before = shown_rating(old.mu, old.sigma) if old is not None else shown_rating(MU, SIGMA)
        now_ = shown_rating(new.mu, new.sigma)
        changes.append({"seat": seat, "name": name, "before": before, "after": now_})
        words.append(f"{name} {before} → {now_} ({now_ - before:+d})")
    text = f"ratings after game {r.game}: " + ", ".join(words)
    return m.Rated(table=table_word(r.table), game=r.game, changes=tuple(changes), text=text)
