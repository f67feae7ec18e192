"""The lobby: every table on the server, the task that runs each, and table creation.

The lobby owns a nursery with one task per table (nothing is fire-and-forget:
a table that fails takes the server down loudly rather than vanishing). It is
plain in-memory state read by connections between awaits, so listing tables
is a dict walk, not a message round trip. At start it rebuilds every open
table from the store (``Table.restore`` replays each record) before the
server accepts its first connection.

The lobby's listing is built once and shared (``tables.listing.Listing``): each
table's summary is kept until the table changes (``tables.lifetime.watch`` hears of
every change), and the whole tuple until a summary does; so a crowd asking for the
lobby costs one build per change, not one per request. The budgets per address of the
replies that cost the event loop work (``SharedBudgets``: records, listings, the players'
requests) live here too, the one object every connection shares.

Table supply under a crowd (``create``) is ``tables.supply.Supply``'s: ``max_tables``
bounds the tables of untrusted creators, the last ``tables_reserve`` kept for first
tables, a newcomer on a full server given room by the address holding the most, and a
creation counted from its check on. Once the server is crowded (``crowded_tables`` of
``max_tables``), an untrusted creator's table that has been empty for
``crowded_empty_seconds`` is closed (the oldest first) instead of waiting out
``empty_table_seconds``.

Ruling (the issue leaves it to us): a fresh server has no tables; the lobby
offers every ruleset to create. ``ServerConfig.open_tables`` names rulesets
that always keep one waiting *house* table (no master; it starts when full, and
then another opens; when everyone leaves it waits again instead of closing). A table created by a
player closes when the last player leaves it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any

import trio

import engine
from protocol.payloads import TableSummary
from server.core import wire
from server.core.commands import Close
from server.core.config import ServerConfig
from server.core.limits import AddressBudget, SharedBudgets
from server.core.logfmt import log_event
from server.store import snapshots
from server.store.base import (
    BotReserved,
    SeatSet,
    Store,
    StoredState,
    StoreError,
    TableCreated,
)
from server.tables import lifetime, thinking
from server.tables.analyses import AnalysisDesk
from server.tables.events import TableEvents
from server.tables.gamemaster import Staking
from server.tables.holdings import Holdings
from server.tables.listing import Listing, Rating
from server.tables.reviews import Reviews
from server.tables.settings import RATED, rated_setting
from server.tables.supply import Supply, SupplyRefused
from server.tables.table import CLOSED, PLAYING, WAITING, Table
from server.tables.thinking import Thinker, open_thinker

log = logging.getLogger("switchboard.lobby")

#: Tables a lobby listing may hold for one token of its address's budget: a listing of
#: 2,000 tables costs 20 times one of 100 to build, encode and send, and is charged so.
LISTING_TABLES_A_TOKEN = 100
#: How often a crowded server looks for empty tables to close.
RECLAIM_EVERY_SECONDS = 5.0


def budgets_for(config: ServerConfig) -> SharedBudgets:
    """A server's budgets per address, from its settings (trusted addresses exempt)."""
    trusted = tuple(config.trusted_addresses)
    return SharedBudgets(
        records=AddressBudget(config.record_address_per_second, config.record_address_burst,
                              trusted),
        lobby=AddressBudget(config.lobby_address_per_second, config.lobby_address_burst,
                            trusted),
        profiles=AddressBudget(config.profile_address_per_second, config.profile_address_burst,
                               trusted),
    )  # fmt: skip


def owner_of(table: Table) -> Hashable:
    """Whose share of the bots' thinking a table's thoughts are (``thinking.FairQueue``):
    the address it was created from; a house table, or one restored, is its own."""
    return table.creator_address or ("table", table.id)


class LobbyError(Exception):
    """A table could not be created: ``code`` is the wire error code."""

    def __init__(self, code: str, text: str) -> None:
        super().__init__(text)
        self.code = code


class Lobby:
    """Every table; ``run()`` is the task that owns them."""

    def __init__(
        self,
        config: ServerConfig,
        store: Store,
        state: StoredState,
        *,
        events: TableEvents | None = None,
        stakes: Staking | None = None,
        ratings: Rating | None = None,
    ) -> None:
        self.config = config
        self.store = store
        self.tables: dict[int, Table] = {}
        self._next_id = state.next_table
        self._state = state
        self._nursery: trio.Nursery | None = None
        self.on_table: Any = None  #: called with each table as it starts (chips, counters)
        self.thinker: Thinker | None = None  #: where the tables' search bots think, once running
        self.budgets = budgets_for(config)
        #: who hears every table's events (``server.tables.events``), shared by the tables
        self.events = events if events is not None else TableEvents()
        self.stakes = stakes  #: the server's prizes, if it keeps chips
        #: every open table's summary, kept current by the tables' events among others
        self.listing = Listing(self.tables, stakes, ratings)
        self.listing.subscribe(self.events)
        #: who may create a table now (``max_tables``, its reserve, the shares)
        #: the open tables counted by creator and address (a create's checks read them)
        self.holdings = Holdings()
        self.supply = Supply(config, self.tables.values, self.holdings)
        #: after-game analyses and hints, in the bots' workers
        self.analyses = AnalysisDesk(config, store, lambda: self.thinker)
        self.reviews = Reviews(config)  #: the shared reviews of finished games

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Rebuild the stored tables, open the house tables, then keep every table running.

        The bots' thinker outlives the tables: its workers stop once every table has."""
        async with open_thinker(self.config) as self.thinker, trio.open_nursery() as nursery:
            self._nursery = nursery
            for stored in sorted(self._state.tables.values(), key=lambda t: t.id):
                try:
                    table = Table.restore(
                        stored,
                        config=self.config,
                        store=self.store,
                        **self._wiring(stored.creator, stored.ruleset),
                    )
                except Exception:
                    log.exception("table %s could not be restored; it stays closed", stored.id)
                    continue
                await nursery.start(self._run_table, table)
            snapshots.log_replays(self.tables.values())
            self._state = StoredState()  # the rows are loaded; let them go
            for ruleset in self.config.open_tables:
                await self.ensure_house_table(ruleset)
            nursery.start_soon(self._reclaim_while_crowded)
            task_status.started()
            await trio.sleep_forever()

    async def _run_table(self, table: Table, *, task_status: trio.TaskStatus[None]) -> None:
        self.tables[table.id] = table
        self.holdings.opened(table)
        self._changed(table)
        lifetime.watch(table, self._changed)
        thinking.OWNER.set(owner_of(table))  # this task's: the table's bots think in its turn
        thinking.PEOPLE.set(lambda: not lifetime.nobody_present(table))  # ... first if people
        if self.on_table is not None:
            self.on_table(table)
        try:
            await table.run(task_status=task_status)  # a store failure freezes it, not us
        except Exception:
            # A bug in one game must not take every other table down. The table is gone
            # from the lobby but not closed in the store: a restart replays it (or, if
            # the replay fails too, leaves it out and says so in the log).
            log.exception("table %s failed and was taken out of the lobby", table.id)
            notice = wire.notice(f"table {table.id} failed; the server took it out", table=table.id)
            for member in table.members():
                member.deliver(notice)
        finally:
            self.tables.pop(table.id, None)
            self.holdings.closed(table)
            self.reviews.forget(table.id)
            self._changed(table)

    def _wiring(self, creator: str | None, ruleset: str) -> dict[str, Any]:
        """What a table is built with beside its own description: where its bots think,
        and, for a house table, the lobby's hook that opens another when its game starts."""
        house = creator is None and ruleset in self.config.open_tables
        return {
            **({} if self.thinker is None else {"thinker": self.thinker}),
            "on_start": self._house_table_started if house else None,
            "events": self.events,
            "stakes": self.stakes,
        }

    def freeze(self) -> None:
        """The server is shutting down: every game stops where it is (``Table.freeze``)."""
        for table in list(self.tables.values()):
            table.freeze()

    @property
    def nursery(self) -> trio.Nursery | None:
        """Where work that outlives a request runs (an analysis), once running."""
        return self._nursery

    # ------------------------------------------------------------ queries
    def get(self, word: str | int) -> Table | None:
        """The table called ``word`` (its number, as on the wire), or None."""
        try:
            return self.tables.get(int(word))
        except (TypeError, ValueError):
            return None

    def summaries(self) -> tuple[TableSummary, ...]:
        """Every open table as the lobby lists it: one tuple, shared by every request
        until a table changes (the caller must not change it). Its summaries are checked
        as a ``tables`` reply's are when it is built, once: a reply may then take it as
        it is (``Tables.trusted``), and the framing packs it once for every reply that
        shares it (``server.transport.framing.SharedEncodings``)."""
        return self.listing.current()

    def page(self, start: int, count: int) -> tuple[tuple[TableSummary, ...], int]:
        """``count`` tables of the listing from its ``start``-th, the waiting ones first
        (``tables.listing.paged``), and how many are listed in all: the same tuple for
        every request until a table changes, checked and packed once as ``summaries``."""
        return self.listing.page(start, count)

    def listing_cost(self, count: int | None = None) -> int:
        """Tokens of its address's lobby budget a listing of ``count`` tables (None: every
        table) takes: one for each ``LISTING_TABLES_A_TOKEN`` tables (at least one, at
        most the budget's burst)."""
        listed = len(self.tables) if count is None else min(count, len(self.tables))
        cost = 1 + listed // LISTING_TABLES_A_TOKEN
        return max(1, min(cost, self.budgets.lobby.burst))

    def _changed(self, table: Table) -> None:
        """``table`` may have changed what the lobby lists of it: build it again (and
        once it is closed, it holds no more)."""
        self.listing.changed(table.id)
        if table.state == CLOSED:
            self.holdings.closed(table)

    def statistics(self) -> dict[str, int]:
        states = [t.state for t in self.tables.values()]
        return {
            "tables": len(states),
            "playing": states.count(PLAYING),
            "waiting": states.count(WAITING),
        }

    # ------------------------------------------------------------ creating
    async def create(
        self,
        ruleset: str,
        seats: int,
        options: dict[str, Any],
        creator: str | None,
        settings: dict[str, Any] | None = None,
        *,
        address: str | None = None,
        held: Sequence[str | None] = (),
        bots: Mapping[int, str] | None = None,
        also: Callable[[int], Sequence[Any]] | None = None,
    ) -> Table:
        """A new table (the creator is its game master; ``address`` is where he created it
        from, for the per-address quota). ``LobbyError`` says why not.

        A table made for others (a tournament's) may come with its seats set: ``held``
        names the player holding each seat (he takes it with ``join``, as his own seat
        after a restart), ``bots`` reserves seats for server bots, and ``also(number)``
        gives writes to store in the table's creating transaction (given its number).

        Options are checked by building a throwaway game, so the reason a table
        is refused is the engine's own ``OptionError`` text."""
        if self._nursery is None:
            raise LobbyError("internal", "the lobby is not running")
        try:
            with self.supply.claim(address):  # counted from here, so a crowd's creates
                return await self._create(  # together cannot pass ``max_tables``
                    ruleset, seats, options, creator, settings, address, held, bots, also
                )
        except SupplyRefused as refused:
            raise LobbyError("too_many_tables", str(refused)) from None

    async def _create(
        self,
        ruleset: str,
        seats: int,
        options: dict[str, Any],
        creator: str | None,
        settings: dict[str, Any] | None,
        address: str | None,
        held: Sequence[str | None],
        bots: Mapping[int, str] | None,
        also: Callable[[int], Sequence[Any]] | None,
    ) -> Table:
        assert self._nursery is not None
        options = dict(options)
        settings = dict(settings or {})
        if "start_when_full" in options:  # a table setting, not a game option
            swf = options.pop("start_when_full")
            if not isinstance(swf, bool):
                raise LobbyError("bad_options", "option 'start_when_full': true or false")
            settings["start_when_full"] = swf
        try:
            if (rated := rated_setting(options)) is not None:
                settings[RATED] = rated
            engine.new_game(ruleset, seats, 0, options)
        except ValueError as exc:  # OptionError is one
            raise LobbyError("bad_options", str(exc)) from None
        await self.supply.make_room(address)  # a newcomer on a full server: the heaviest makes room
        table_id = self._next_id
        self._next_id += 1
        reserved = dict(bots or {})
        await self.store.commit(
            TableCreated(table_id, ruleset, seats, options, creator, settings),
            *(SeatSet(table_id, i, name, None) for i, name in enumerate(held) if name),
            *(BotReserved(table_id, i, strategy) for i, strategy in reserved.items()),
            *(also(table_id) if also is not None else ()),
        )
        table = Table(
            table_id,
            ruleset,
            seats,
            options,
            config=self.config,
            store=self.store,
            creator=creator,
            settings=settings,
            creator_address=address,
            **self._wiring(creator, ruleset),
        )
        for i, name in enumerate(held):
            if name:
                table.seating.hold(i, name, None)
        if reserved:
            table.gm.reserve(reserved)
        await self._nursery.start(self._run_table, table)
        log.info("table %s created: %s, %s seats, by %s", table_id, ruleset, seats, creator)
        return table

    # ------------------------------------------------------------ supply
    def trusted(self, address: str | None) -> bool:
        """Whether tables created from ``address`` are never counted nor refused."""
        return self.supply.trusted(address)

    def refuse_supply(self, address: str | None) -> str | None:
        """Why no table may be created from ``address`` now, or None (``Supply.refuse``)."""
        return self.supply.refuse(address)

    def crowded(self) -> bool:
        """Whether ``crowded_tables`` of ``max_tables`` are open (untrusted creators')."""
        return len(self.supply.counted()) >= self.config.crowded_tables * self.config.max_tables

    def reclaim(self) -> int:
        """On a crowded server, close every untrusted creator's table empty for
        ``crowded_empty_seconds`` or more, the longest empty first; how many."""
        if not self.crowded():
            return 0
        now = trio.current_time()
        grace = self.config.crowded_empty_seconds
        empty = sorted(
            (t for t in self.supply.counted()
             if t.empty_since is not None and now - t.empty_since >= grace),
            key=lambda t: t.empty_since or 0.0,
        )  # fmt: skip
        closing = [t for t in empty if t.submit_nowait(Close("the server is nearly full"))]
        if closing:
            log_event(log, "table.crowded_closed", tables=len(closing))
        return len(closing)

    async def _reclaim_while_crowded(self) -> None:
        while True:
            await trio.sleep(RECLAIM_EVERY_SECONDS)
            self.reclaim()

    def _house_table_started(self, table: Table) -> None:
        """A house table filled up and started: open another for the next people."""
        if self._nursery is not None:
            self._nursery.start_soon(self._keep_house_table, table.ruleset)

    async def _keep_house_table(self, ruleset: str) -> None:
        """``ensure_house_table``, tried again while the store refuses the new table."""
        while True:
            try:
                await self.ensure_house_table(ruleset)
                return
            except StoreError:
                await trio.sleep(self.config.store_retry_seconds)

    async def ensure_house_table(self, ruleset: str) -> None:
        """Keep one waiting house table of ``ruleset`` (default seat count)."""
        for t in self.tables.values():
            if t.creator is None and t.ruleset == ruleset and t.state != PLAYING:
                return
        rs = engine.ruleset(ruleset)
        seats = 4 if rs.min_seats <= 4 <= rs.max_seats else rs.min_seats
        await self.create(ruleset, seats, {}, None, {"start_when_full": True})
