"""The lobby: every table on the server, the task that runs each, and table creation.

The lobby owns a nursery with one task per table (nothing is fire-and-forget:
a table that fails takes the server down loudly rather than vanishing). It is
plain in-memory state read by connections between awaits, so listing tables
is a dict walk, not a message round trip. At start it rebuilds every open
table from the store (``Table.restore`` replays each record) before the
server accepts its first connection.

Ruling (the issue leaves it to us): a fresh server has no tables; the lobby
offers every ruleset to create. ``ServerConfig.open_tables`` names rulesets
that always keep one waiting *house* table (no master; it starts when full, and
then another opens; when everyone leaves it waits again instead of closing). A table created by a
player closes when the last player leaves it.
"""

from __future__ import annotations

import logging
from typing import Any

import trio

import engine
from server.core import wire
from server.core.config import ServerConfig
from server.players.profiles import RATED, rated_setting
from server.store import snapshots
from server.store.base import Store, StoredState, StoreError, TableCreated
from server.tables.table import CLOSED, PLAYING, WAITING, Table
from server.tables.thinking import Thinker, open_thinker

log = logging.getLogger("switchboard.lobby")


class LobbyError(Exception):
    """A table could not be created: ``code`` is the wire error code."""

    def __init__(self, code: str, text: str) -> None:
        super().__init__(text)
        self.code = code


class Lobby:
    """Every table; ``run()`` is the task that owns them."""

    def __init__(self, config: ServerConfig, store: Store, state: StoredState) -> None:
        self.config = config
        self.store = store
        self.tables: dict[int, Table] = {}
        self._next_id = state.next_table
        self._state = state
        self._nursery: trio.Nursery | None = None
        self.on_table: Any = None  #: called with each table as it starts (chips, counters)
        self.thinker: Thinker | None = None  #: where the tables' search bots think, once running

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Rebuild the stored tables, open the house tables, then keep every table running.

        The bots' thinker outlives the tables: its workers stop once every table has."""
        async with open_thinker(self.config) as self.thinker, trio.open_nursery() as nursery:
            self._nursery = nursery
            for stored in sorted(self._state.tables.values(), key=lambda t: t.id):
                try:
                    table = Table.restore(stored, config=self.config, store=self.store)
                except Exception:
                    log.exception("table %s could not be restored; it stays closed", stored.id)
                    continue
                await nursery.start(self._run_table, table)
            snapshots.log_replays(self.tables.values())
            self._state = StoredState()  # the rows are loaded; let them go
            for ruleset in self.config.open_tables:
                await self.ensure_house_table(ruleset)
            task_status.started()
            await trio.sleep_forever()

    async def _run_table(self, table: Table, *, task_status: trio.TaskStatus[None]) -> None:
        self.tables[table.id] = table
        if self.thinker is not None:
            table.thinker = self.thinker
        if table.creator is None and table.ruleset in self.config.open_tables:
            table.on_start = self._house_table_started
        if self.on_table is not None:
            self.on_table(table)
        try:
            await table.run(task_status=task_status)  # a store failure freezes it, not us
        except Exception:
            # A bug in one game must not take every other table down. The table is gone
            # from the lobby but not closed in the store: a restart replays it (or, if
            # the replay fails too, leaves it out and says so in the log).
            log.exception("table %s failed and was taken out of the lobby", table.id)
            notice = wire.notice(f"table {table.id} failed; the server took it out")
            for member in table.members():
                member.deliver(notice)
        finally:
            self.tables.pop(table.id, None)

    def freeze(self) -> None:
        """The server is shutting down: every game stops where it is (``Table.freeze``)."""
        for table in list(self.tables.values()):
            table.freeze()

    # ------------------------------------------------------------ queries
    def get(self, word: str | int) -> Table | None:
        """The table called ``word`` (its number, as on the wire), or None."""
        try:
            return self.tables.get(int(word))
        except (TypeError, ValueError):
            return None

    def summaries(self) -> list[dict[str, Any]]:
        return [t.summary() for t in self.tables.values() if t.state != CLOSED]

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
    ) -> Table:
        """A new table (the creator is its game master; ``address`` is where he created it
        from, for the per-address quota). ``LobbyError`` says why not.

        Options are checked by building a throwaway game, so the reason a table
        is refused is the engine's own ``OptionError`` text."""
        if self._nursery is None:
            raise LobbyError("internal", "the lobby is not running")
        if len(self.tables) >= self.config.max_tables:
            text = f"the server holds {self.config.max_tables} tables"
            raise LobbyError("too_many_tables", text)
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
        table_id = self._next_id
        self._next_id += 1
        await self.store.commit(TableCreated(table_id, ruleset, seats, options, creator, settings))
        table = Table(
            table_id,
            ruleset,
            seats,
            options,
            config=self.config,
            store=self.store,
            creator=creator,
            settings=settings,
        )
        table.creator_address = address
        await self._nursery.start(self._run_table, table)
        log.info("table %s created: %s, %s seats, by %s", table_id, ruleset, seats, creator)
        return table

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
