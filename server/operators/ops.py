"""Operations glue: what a connection and the server add for chips, limits and operators.

The server core (``connection.py``, ``app.py``) stays about connections and
tables; it calls into this module at a few points:

- ``Ops`` is built once per server (``Ops.open``): the chip ledger, the ban
  list, the operator desk (``server.operators.admin.Admin``), the count of connections
  per address and the count of accepted actions. It also implements
  ``admin.ServerControl`` for the operator commands.
- ``ConnectionOps`` is one per connection: its flood guard (``admit`` is
  called before every message is handled), its operator state, and the
  handlers for the chips and the admin messages, which the connection's one
  table of handlers names. It sees its connection as a ``Peer`` (a protocol:
  this module does not import ``server.transport.connection``).

Limits, each a ``ServerConfig`` number (see ``deploy/switchboard.toml``):
requests per second with a penalty then a disconnect (``commands_*``,
``flood_*``), connections per address, tables per name, idle connections
closed, banned names refused. Connections from ``trusted_addresses``
(loopback by default: the machine's own bots and benchmarks) skip the
request rate and the per-address count; nothing else.
"""

from __future__ import annotations

import logging
import math
import weakref
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import trio

from protocol import messages as m
from protocol.fields import TableState
from protocol.payloads import LedgerLine, TableSummary
from server.core import wire
from server.core.config import ServerConfig
from server.core.limits import AddressCounter, FloodGuard, Verdict, fold_name
from server.core.logfmt import log_event
from server.operators.admin import Admin, BanList, DropConnection, Operator, read_secret
from server.players.ledger import Ledger
from server.players.profile_requests import ProfileRequests
from server.players.profiles import Profiles
from server.tables import lifetime

if TYPE_CHECKING:
    from server.store.base import Store
    from server.tables.lobby import Lobby

log = logging.getLogger("switchboard.ops")

#: How long a bulk close waits for the tables it closed to say so before it answers.
CLOSE_WAIT_SECONDS = 5.0
#: the wait a connection refused for its address's count is told to wait before trying
#: again (its ``Retry-After``): about as long as a browser's page takes to let sockets go
ADDRESS_RETRY_SECONDS = 5

#: The SQLite file the server keeps its tables in (the ledger shares it).
DB_NAME = "switchboard.sqlite3"
BANS_NAME = "bans.txt"


class Peer(Protocol):
    """A client connection as operations see it (``server.transport.connection.Connection``)."""

    id: int
    peer: str  #: the address it connected from
    operator: bool  #: it proved the operator secret

    @property
    def name(self) -> str | None: ...

    def deliver(self, message: m.Message) -> None: ...

    def drop(self, code: str, text: str) -> None: ...

    def close_nowait(self, code: str, text: str) -> None: ...

    def statistics(self) -> dict[str, Any]: ...


@dataclass(slots=True)
class ActionCounter:
    """Actions accepted by every table of one server, for ``stats`` (actions/s)."""

    total: int = 0


@dataclass(eq=False)
class Ops:
    """The chips, abuse limits and operators of one running server."""

    config: ServerConfig
    ledger: Ledger
    bans: BanList
    addresses: AddressCounter
    counter: ActionCounter = field(default_factory=ActionCounter)
    cooloff: dict[str, float] = field(default_factory=dict)  #: address -> refused until
    lobby: Lobby | None = None
    store: Store | None = None
    #: the server's connections, read here only (the transport adds and removes them)
    connections: AbstractSet[Peer] = field(default_factory=set)
    nursery: trio.Nursery | None = None  #: runs the shutdown countdown
    shutdown: Any = None  #: the server's ``shutdown()``
    profiles: Profiles | None = None  #: ratings, rated at each game's end
    admin: Admin = field(init=False)

    def __post_init__(self) -> None:
        secret = read_secret(self.config.operator_secret, self.config.operator_secret_file)
        cfg = self.config
        self.admin = Admin(
            self,
            secret,
            bans=self.bans,
            auth_attempts=cfg.auth_attempts,
            backoff=(cfg.auth_backoff_seconds, cfg.auth_backoff_max_seconds,
                     cfg.auth_forget_seconds, cfg.auth_overall_allowance),
            operator_addresses=cfg.operator_addresses,
        )  # fmt: skip

    @classmethod
    def open(cls, config: ServerConfig, ledger: Ledger) -> Ops:
        """Ops for ``config``: the ledger (kept by the server's store), bans in
        ``data_dir/bans.txt``."""
        data = None if config.data_dir is None else Path(config.data_dir)
        return cls(
            config,
            ledger,
            BanList(None if data is None else data / BANS_NAME),
            AddressCounter(config.connections_per_address),
        )

    async def start(self, lobby: Lobby) -> None:
        """The lobby has rebuilt its tables: prizes of tables that are gone go back."""
        self.lobby = lobby
        returned = await self.ledger.return_orphans(lobby.tables)
        if returned:
            log_event(log, "chips.orphans_returned", chips=returned)

    async def aclose(self) -> None:
        """Nothing to close: the ledger's writes go through the server's store."""
        await trio.lowlevel.checkpoint()

    def attach(self, table: Any) -> None:
        """Give a table what it needs from the server (called as its task starts)."""
        table.attach(counter=self.counter)

    # ------------------------------------------------------- addresses
    def trusted(self, peer: str) -> bool:
        return peer in self.config.trusted_addresses

    def admit_address(self, peer: str) -> bool:
        """Count a new connection from ``peer``; False if that address has too many, or was
        dropped for flooding less than ``flood_cooloff_seconds`` ago."""
        if self.trusted(peer):
            return True
        until = self.cooloff.get(peer)
        if until is not None:
            if trio.current_time() < until:
                return False
            del self.cooloff[peer]
        return self.addresses.acquire(peer)

    def refusal(self, peer: str) -> tuple[str, str, int]:
        """Why ``admit_address`` refused ``peer``: a goodbye's code, its words, and the
        seconds to wait before trying again."""
        until = self.cooloff.get(peer)
        now = trio.current_time()
        if until is not None and until > now:
            return "rate_limited", "your address sent too fast", max(1, math.ceil(until - now))
        limit = self.config.connections_per_address
        why = f"your address has {limit} connections open, as many as it may"
        return "too_many_connections", why, ADDRESS_RETRY_SECONDS

    def cool_off(self, peer: str) -> None:
        """``peer`` flooded: refuse its new connections for a while (its others stay)."""
        if not self.trusted(peer) and self.config.flood_cooloff_seconds > 0:
            self.cooloff[peer] = trio.current_time() + self.config.flood_cooloff_seconds
            if len(self.cooloff) > 10_000:  # bounded: forget the ones already over
                now = trio.current_time()
                self.cooloff = {a: t for a, t in self.cooloff.items() if t > now}

    def release_address(self, peer: str) -> None:
        if not self.trusted(peer):
            self.addresses.release(peer)

    # ------------------------------------------- admin.ServerControl
    def connection_list(self) -> list[dict[str, Any]]:
        rows = []
        for c in sorted(self.connections, key=lambda c: c.id):
            row = dict(c.statistics())
            row["tables"] = [str(t) for t in row.get("tables", [])]
            row["operator"] = bool(c.operator)
            rows.append(row)
        return rows

    def table_list(self) -> list[TableSummary]:
        """Every table as the lobby lists it, plus what an operator needs to tidy up: its
        creator, whether anyone is at it, and how long it has been empty."""
        if self.lobby is None:
            return []
        now = trio.current_time()
        return [
            {
                **self.lobby.listing.summary(t),
                "creator": t.creator,
                "present": not lifetime.nobody_present(t),
                "empty_for": None if t.empty_since is None else round(now - t.empty_since, 1),
            }
            for t in self.lobby.tables.values()
        ]

    async def close_tables(self, empty: bool, creator: str | None, reason: str) -> int:
        """Close every table matching the filters: ``empty`` (a table with a creator,
        no game running, nobody at it; house tables are left alone), ``creator`` (that
        name's tables, compared folded)."""
        from server.core.commands import Close

        if self.lobby is None:
            return 0
        key = None if creator is None else fold_name(creator)
        chosen = [
            t
            for t in list(self.lobby.tables.values())
            if t.state != TableState.CLOSED
            and (not empty or (t.creator is not None and not lifetime.running(t)
                               and lifetime.nobody_present(t)))
            and (key is None or (t.creator is not None and fold_name(t.creator) == key))
        ]  # fmt: skip
        for t in chosen:
            await t.submit(Close(reason))
        with trio.move_on_after(CLOSE_WAIT_SECONDS):  # so the reply and the next list agree
            for t in chosen:
                await t.closed.wait()
        return len(chosen)

    async def close_table(self, table: str, reason: str) -> bool:
        from server.core.commands import Close

        t = None if self.lobby is None else self.lobby.get(table)
        if t is None:
            return False
        await t.submit(Close(reason))
        return True

    def kick(self, name: str, reason: str) -> int:
        key = fold_name(name)
        n = 0
        for c in list(self.connections):
            if c.name is not None and fold_name(c.name) == key:
                c.close_nowait("kicked", reason)
                n += 1
        log_event(log, "admin.kick", name=name, connections=n)
        return n

    def broadcast(self, message: m.Message) -> int:
        for c in list(self.connections):
            c.deliver(message)
        return len(self.connections)

    def request_shutdown(self) -> None:
        if self.shutdown is not None:
            self.shutdown()

    def stats(self) -> dict[str, Any]:
        tables = [] if self.lobby is None else list(self.lobby.tables.values())
        store = None if self.store is None else self.store.statistics()
        return {
            "connections": len(self.connections),
            "tables": len(tables),
            "playing": sum(t.state == TableState.PLAYING for t in tables),
            "actions_total": self.counter.total,
            "store_queue": 0 if store is None else store.queued,
            "store_commits": 0 if store is None else store.commits,
            "chip_transactions": self.ledger.transactions,
            "timeouts": sum(t.gm.timeouts for t in tables),
        }


class ConnectionOps:
    """One connection's flood guard, operator state, and its chips and admin handlers."""

    def __init__(self, conn: Peer, ops: Ops) -> None:
        # A proxy, not the connection itself: the connection owns this object, and a
        # back reference would make the pair a cycle that only a full gc frees.
        self.conn = weakref.proxy(conn)
        self.ops = ops
        cfg = ops.config
        self.guard = (
            None
            if ops.trusted(conn.peer)
            else FloodGuard(
                cfg.commands_per_second,
                cfg.commands_burst,
                cfg.flood_penalty_seconds,
                cfg.flood_drop_after,
            )
        )
        self.operator = Operator()
        self.profile_requests = ProfileRequests(self.conn, ops)

    # ---------------------------------------------------------- limits
    def admit(self, message: object) -> Verdict:
        """Whether to handle ``message`` now (``OK``). Over the rate: an error reply
        (``REFUSE``); a flooder is told goodbye, and the connection must stop reading
        (``DROP``)."""
        if self.guard is None:
            return Verdict.OK
        now = trio.current_time()
        verdict = self.guard.check(now)
        if verdict is Verdict.OK:
            return verdict
        if verdict is Verdict.REFUSE:
            wait = self.guard.retry_after(now)
            req = getattr(message, "id", None)
            self.conn.deliver(
                wire.error(req, "rate_limited", f"too many requests; wait {wait:.1f} s")
            )
            return verdict
        self.ops.cool_off(self.conn.peer)
        # A flooder: a goodbye after the replies already queued, then the reader stops
        # (the connection's polite close, bounded by close_grace_seconds).
        log_event(log, "conn.flood_dropped", logging.WARNING, conn=self.conn.id,
                  peer=self.conn.peer, name=self.conn.name)  # fmt: skip
        self.conn.deliver(wire.goodbye("rate_limited", "too many requests: disconnected"))
        return Verdict.DROP

    def refuse_name(self, name: str) -> str | None:
        """Why ``name`` may not be claimed here (banned), or None."""
        if self.ops.bans.is_banned(name):
            return "this name is banned"
        return None

    async def named(self, name: str) -> None:
        """A name was claimed or proven: give it its chips the first time."""
        await self.ops.ledger.open_account(name)

    def refuse_table(self) -> str | None:
        """Why this connection may not create another table, or None: its name has
        ``tables_per_name`` open tables, or its address (unless trusted) has
        ``tables_per_address``. Closed tables leave the lobby, so they do not count."""
        config, lobby = self.ops.config, self.ops.lobby
        if lobby is None or self.conn.name is None:
            return None
        held = lobby.holdings  # counted as tables open and close: no walk over them all
        limit = config.tables_per_name
        mine = held.of_name(self.conn.name)
        if limit > 0 and mine >= limit:
            return f"you have {mine} open tables; close one first (the limit is {limit})"
        limit, peer = config.tables_per_address, self.conn.peer
        if limit > 0 and not self.ops.trusted(peer):
            here = held.of_address(peer)
            if here >= limit:
                return f"{here} open tables were created from your address (the limit is {limit})"
        return None

    # -------------------------------------------------------- handlers
    async def chips(self, msg: m.GetChips) -> None:
        ledger = self.ops.ledger
        own = self.conn.name
        name = msg.name or own
        if name is None:
            self.conn.deliver(wire.error(msg.id, "need_name", "claim a name first"))
            return
        match = next((n for n in ledger.names() if fold_name(n) == fold_name(name)), None)
        if match is None:
            self.conn.deliver(wire.error(msg.id, "bad_name", f"{name} has no chips here"))
            return
        entries: tuple[LedgerLine, ...] = ()
        if (own is not None and fold_name(own) == fold_name(match)) or self.conn.operator:
            entries = tuple(
                LedgerLine(
                    time=round(e.at, 3),
                    delta=e.delta,
                    balance=e.balance,
                    reason=e.reason,
                    table=None if e.table is None else str(e.table),
                )
                for e in await ledger.statement(match, 10)
            )
        self.conn.deliver(
            m.Chips(name=match, balance=ledger.balance(match), entries=entries, id=msg.id)
        )

    async def admin(self, msg: m.Message) -> None:
        who = f"{self.conn.name or '-'}@{self.conn.peer}#{self.conn.id}"
        try:
            reply = await self.ops.admin.handle(
                self.operator, msg, who, self.ops.nursery, peer=self.conn.peer
            )
        except DropConnection as exc:
            self.conn.drop("forbidden", str(exc))
            return
        self.conn.operator = self.operator.authenticated
        self.conn.deliver(reply)
