"""The game masters' prizes: chips put up for a table's next game, paid to its winners
with the game's end or returned, in the transaction that ends it.

One ``Prizes`` for the server, over its chip ledger; it hears every table's end through
the table layer's events (``server.tables.events``: ``subscribe`` joins their
transactions), so a table knows nothing of chips:

- a ``GameEnded`` finished pays the prize held for that game to its winners (the people
  on the winning seats; a bot's share goes back to the funder), an abandoned one returns
  it; a ``TableClosed`` returns whatever the table holds (for the next game too). The
  move is committed with the end, and the table then tells everyone where it went;
- ``put_up`` changes the prize of a table's next game (the game master's ``prize``);
- ``settle_owed`` settles, as a table's task starts, what an older version's crash left owed;
- ``amount`` is what the lobby lists.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any, Protocol

from engine.game import Game
from protocol.fields import TableState
from server.core.logfmt import log_event
from server.players.ledger import Ledger
from server.store.base import FINISHED, ChipsMoved
from server.tables.events import GameEnded, TableClosed, TableEvents, Transaction, game_ended

log = logging.getLogger("switchboard.gamemaster")


class Held(Protocol):
    @property
    def name(self) -> str | None: ...


class Reserving(Protocol):
    def running(self) -> bool: ...


class Staked(Protocol):
    """What the prizes read of a table (``server.tables.table.Table``) as its task starts
    or its game master puts up a prize."""

    @property
    def id(self) -> int: ...

    @property
    def game(self) -> Game | None: ...

    @property
    def game_no(self) -> int: ...

    @property
    def outcome(self) -> str | None: ...

    @property
    def state(self) -> TableState: ...

    @property
    def seats(self) -> Sequence[Held]: ...

    @property
    def gm(self) -> Reserving: ...

    async def commit(self, *writes: Any) -> None: ...


class Prizes:
    """Every table's prize, kept in the server's chip ledger."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger

    def subscribe(self, events: TableEvents) -> None:
        """Pay or return a prize in the transaction of each game end and table close."""
        events.join(self.joining)

    def amount(self, table: int) -> int:
        """The chips held for ``table``'s prize (0: none)."""
        prize = self.ledger.prize(table)
        return 0 if prize is None else prize.amount

    def _plan(self, txn: Transaction) -> Callable[[], ChipsMoved | None] | None:
        """The chip move ``txn``'s events make (None: they make none)."""
        ledger = self.ledger
        closed = txn.of(TableClosed)
        if closed:
            return lambda: ledger.refund(closed[0].table, None)
        ended = txn.of(GameEnded)
        if not ended:
            return None
        e = ended[0]
        if e.finished:
            who = [e.people[s] for s in e.winners]
            return lambda: ledger.payout(e.table, e.game, who)
        return lambda: ledger.refund(e.table, e.game)

    @contextlib.asynccontextmanager
    async def joining(self, txn: Transaction) -> AsyncIterator[None]:
        """Around the commit of a game's end or a table's close: its prize move, planned
        under the ledger's lock, committed with it, applied once durable."""
        plan = self._plan(txn)
        if plan is None:
            yield
            return
        async with self.ledger.moving(plan) as moved:
            if moved is not None:
                txn.writes.append(moved)
            yield
        if moved is not None:
            txn.notices.append(announcement(moved))

    async def put_up(self, table: Staked, funder: str, chips: Any) -> tuple[str, str]:
        """``funder`` sets the prize of ``table``'s next game to ``chips`` (none runs now):
        the reply to him and the notice to the table. ``ChipError`` if he cannot."""
        ledger = self.ledger
        await ledger.commit(lambda: ledger.welcome(funder), commit=table.commit)  # an old name
        game = table.game_no + 1  # for the next game: none runs now
        await ledger.commit(lambda: ledger.prize_change(table.id, game, funder, chips),
                            commit=table.commit)  # fmt: skip
        amount = self.amount(table.id)
        notice = f"{funder} put up a prize of {amount} chips" if amount else "no prize"
        return f"prize {amount}; your balance {ledger.balance(funder)}", notice

    async def settle_owed(self, table: Staked) -> list[str]:
        """As ``table``'s task starts: settle a prize a crash left held for a game that had
        ended; what to tell everyone at the table.

        Only a prize held for the table's last game is settled, and as that game's stored
        end says (finished: paid; abandoned: returned); a prize for a game not yet
        started waits for it. (Since a game's end and its payout are one transaction this
        finds nothing on data this version wrote.) A prize kept by an older version
        names no game: it is for the running game, or, if none runs, for the next one, so
        a restart never pays a finished game with a prize set after it ended."""
        ledger = self.ledger
        prize = ledger.prize(table.id)
        if prize is None:
            return []
        if prize.game is None:
            running = table.gm.running()
            ledger.place(table.id, table.game_no if running else table.game_no + 1)
            prize = ledger.prize(table.id)
            assert prize is not None
        game = table.game
        if game is None or table.state != TableState.OVER or prize.game != table.game_no:
            return []
        people = [s.name for s in table.seats]  # a bot's reserved seat holds nobody
        outcome = table.outcome or FINISHED
        ended = game_ended(table.id, table.game_no, "", "", game, outcome, [], people)
        plan = self._plan(Transaction((ended,), []))
        assert plan is not None
        moved = await ledger.commit(plan, commit=table.commit)
        return [] if moved is None else [announcement(moved)]


def announcement(moved: ChipsMoved) -> str:
    """Where a prize went, as everyone at the table is told (and the log says)."""
    gains = {a: d for a, d in moved.postings if not a.startswith("@") and d > 0}
    if moved.reason == "prize won":
        log_event(log, "table.prize_paid", table=moved.table, game=moved.game, shares=gains)
        return "prize paid: " + ", ".join(f"{who} {chips}" for who, chips in gains.items())
    amount = sum(gains.values())
    log_event(log, "table.prize_returned", table=moved.table, game=moved.game, chips=amount)
    return f"the prize of {amount} chips went back to the game master"
