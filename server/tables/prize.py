"""A table's prize and a game's result: chips put up by the game master, paid to the
winners or returned, and the players' ratings, each in the transaction that ends
the game.

A table (``server.tables.table.Table``) owns one ``Prize``; the server gives it the
chip ledger and the ratings as the table's task starts (``attach``: a server that
keeps no chips gives none). It reads the table through ``Staked`` (a protocol) and
changes nothing of it.

- ``commit_end(writes, outcome)`` stores a game's end (or a table's close) with its
  prize paid or returned, and a finished game's result and ratings, in one
  transaction; ``announce`` then tells the table where the prize went;
- ``put_up`` changes the prize for the next game (the game master's ``prize``);
- ``settle_owed`` settles at start whatever an older version's crash left owed.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any, Protocol

from engine.game import Game
from protocol.fields import TableState
from server.core.logfmt import log_event
from server.players.ledger import Ledger, winning_seats
from server.players.profiles import RATED, Profiles
from server.store.base import ABANDONED, FINISHED, ChipsMoved
from server.tables.listing import PrizePart

log = logging.getLogger("switchboard.gamemaster")


class Held(Protocol):
    @property
    def name(self) -> str | None: ...


class Reserving(Protocol):
    def reserved(self, seat: int) -> bool: ...

    def running(self) -> bool: ...


class Staked(Protocol):
    """What the prize reads of its table (``server.tables.table.Table``)."""

    @property
    def id(self) -> int: ...

    @property
    def family(self) -> str: ...

    @property
    def game(self) -> Game | None: ...

    @property
    def game_no(self) -> int: ...

    @property
    def outcome(self) -> str | None: ...

    @property
    def state(self) -> TableState: ...

    @property
    def settings(self) -> dict[str, Any]: ...

    @property
    def seats(self) -> Sequence[Held]: ...

    @property
    def gm(self) -> Reserving: ...

    def players(self) -> list[str | None]: ...

    def notice_all(self, text: str) -> None: ...

    async def commit(self, *writes: Any) -> None: ...


class Prize:
    """One table's prize, and the ratings its games are rated by."""

    def __init__(self, table: Staked) -> None:
        self.table = table
        self.ledger: Ledger | None = None
        self.profiles: Profiles | None = None  #: the server's ratings (``server.players.profiles``)

    def attach(self, ledger: Ledger | None, profiles: Profiles | None) -> None:
        """The server's chip ledger and ratings (None: it keeps none)."""
        self.ledger, self.profiles = ledger, profiles

    def summary_extra(self) -> PrizePart:
        """What the prize and the ratings add to the lobby's summary of a table."""
        table = self.table
        prize = None if self.ledger is None else self.ledger.prize(table.id)
        return {
            "prize": 0 if prize is None else prize.amount,
            "ratings": (
                self.profiles.summary(table.family, table.players()) if self.profiles else []
            ),
            "rated": table.settings.get(RATED),  # None: rated with two people seated
        }

    def winners(self) -> list[str | None]:
        """The names on the winning seats of the finished game (None: a bot's seat)."""
        table = self.table
        game = table.game
        assert game is not None
        seats = getattr(game, "winners", None)
        if not isinstance(seats, list | tuple) or not seats:
            seats = winning_seats(list(game.scores))
        return [None if table.gm.reserved(s) else table.seats[s].name for s in seats]

    async def commit_end(self, writes: list[Any], outcome: str | None) -> ChipsMoved | None:
        """Commit ``writes`` (a game's end, a table's close) with what they do to the prize,
        as one transaction: a finished game's prize paid to its winners, an abandoned
        game's returned (``outcome`` ABANDONED), or, when the table closes (None), whatever
        is held returned. The move made, if any (for ``announce``). A finished game's
        result and ratings (``server.players.profiles``) are in the same transaction."""
        if self.profiles is None:
            return await self._commit_end(writes, outcome)
        async with self.profiles.ending(self.table, outcome) as rated:
            return await self._commit_end([*writes, *rated], outcome)

    async def _commit_end(self, writes: list[Any], outcome: str | None) -> ChipsMoved | None:
        table, ledger = self.table, self.ledger
        if ledger is None:
            await table.commit(*writes)
            return None
        game = table.game_no
        if outcome == FINISHED:
            who = self.winners()
            return await ledger.commit(lambda: ledger.payout(table.id, game, who), *writes,
                                       commit=table.commit)  # fmt: skip
        number = game if outcome == ABANDONED else None
        return await ledger.commit(lambda: ledger.refund(table.id, number), *writes,
                                   commit=table.commit)  # fmt: skip

    def announce(self, txn: ChipsMoved | None) -> None:
        """Tell the table (and the log) where a prize went, once it is durable."""
        if txn is None:
            return
        table_id = self.table.id
        gains = {a: d for a, d in txn.postings if not a.startswith("@") and d > 0}
        if txn.reason == "prize won":
            log_event(log, "table.prize_paid", table=table_id, game=txn.game, shares=gains)
            text = ", ".join(f"{who} {chips}" for who, chips in gains.items())
            self.table.notice_all(f"prize paid: {text}")
        else:
            amount = sum(gains.values())
            log_event(log, "table.prize_returned", table=table_id, game=txn.game, chips=amount)
            self.table.notice_all(f"the prize of {amount} chips went back to the game master")

    async def put_up(self, funder: str, chips: Any) -> tuple[str, str]:
        """``funder`` sets the prize of the next game to ``chips`` (none runs now): the
        reply to him and the notice to the table. ``ChipError`` if he cannot."""
        ledger, table = self.ledger, self.table
        assert ledger is not None
        await ledger.commit(lambda: ledger.welcome(funder), commit=table.commit)  # an old name
        game = table.game_no + 1  # for the next game: none runs now
        await ledger.commit(lambda: ledger.prize_change(table.id, game, funder, chips),
                            commit=table.commit)  # fmt: skip
        prize = ledger.prize(table.id)
        amount = 0 if prize is None else prize.amount
        notice = f"{funder} put up a prize of {amount} chips" if amount else "no prize"
        return f"prize {amount}; your balance {ledger.balance(funder)}", notice

    async def settle_owed(self) -> None:
        """At start: settle a prize a crash left held for a game that had ended.

        Only a prize held for the table's last game is settled, and as that game's stored
        end says (finished: paid; abandoned: returned); a prize for a game not yet
        started waits for it. (Since a game's end and its payout are one transaction this
        finds nothing on data this version wrote.) A prize kept by an older version
        names no game: it is for the running game, or, if none runs, for the next one, so
        a restart never pays a finished game with a prize set after it ended."""
        table, ledger = self.table, self.ledger
        if ledger is None:
            return
        prize = ledger.prize(table.id)
        if prize is None:
            return
        if prize.game is None:
            running = table.gm.running()
            ledger.place(table.id, table.game_no if running else table.game_no + 1)
            prize = ledger.prize(table.id)
            assert prize is not None
        if table.game is None or table.state != TableState.OVER or prize.game != table.game_no:
            return
        self.announce(await self.commit_end([], table.outcome))
