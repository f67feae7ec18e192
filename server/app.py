"""The server: a store, the names, the lobby, and a listener, in one trio nursery.

Shaped like trio's ``serve_listeners``: ``await nursery.start(serve, config)``
returns the port actually bound (tests bind port 0), and everything the
server runs is a child of one nursery, so nothing outlives it.

Shutdown (``Server.shutdown``, which ``switchboard serve`` calls on SIGINT or
SIGTERM) happens in order: stop accepting; freeze every game where it is (no
bot or clock moves, no act is taken: the players resume it there); tell every
client (``goodbye shutdown``) and give their queues ``close_grace_seconds`` to
flush; stop the tables (an action being committed finishes its commit: that wait is shielded);
then close the store, which drains its queue in a last group commit.

>>> import trio
>>> async def demo():
...     async with trio.open_nursery() as nursery:
...         server = Server(ServerConfig(host="127.0.0.1", port=0))
...         port = await nursery.start(server.serve)
...         server.shutdown()
...     return port > 0
>>> trio.run(demo)
True
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import trio

from protocol.limits import Limits
from protocol.words import plural
from server.core.allocator import return_freed_memory
from server.core.config import ServerConfig
from server.core.limits import address_key, peer_address
from server.core.logfmt import IntervalLog
from server.discovery.addresses import invitations
from server.discovery.mdns import Advertiser, advertised_addresses, default_server_name
from server.operators.ops import ADDRESS_RETRY_SECONDS, Ops
from server.players.accounts import Accounts, claim_throttle, new_name_rate
from server.players.ledger import Ledger
from server.players.profiles import Profiles
from server.store.base import MemoryStore, Store
from server.tables.events import TableEvents
from server.tables.lobby import Lobby
from server.tables.prize import Prizes
from server.tables.results import Results
from server.tournaments.service import Tournaments
from server.transport.accept import Acceptor, fd_limit
from server.transport.connection import Connection
from server.transport.refusal import TOO_MANY_CONNECTIONS, Refusals
from server.transport.session import ClientSession, Services

log = logging.getLogger("switchboard.server")

DB_NAME = "switchboard.sqlite3"


def open_store(config: ServerConfig) -> Store:
    """The store ``config`` asks for: SQLite in ``data_dir``, or memory if there is none."""
    if config.data_dir is None:
        return MemoryStore()
    from server.store.sqlite import SQLiteStore

    return SQLiteStore(
        config.data_dir / DB_NAME, synchronous=config.sqlite_synchronous, batch=config.commit_batch
    )


def table_events(prizes: Prizes, profiles: Profiles) -> TableEvents:
    """Who hears every table's events (``server.tables.events``), in this order: the
    players' results and ratings, then the prize, each in the transaction of the game's
    end (the lobby's listing subscribes itself, as it is made). A new subscriber, a
    tournament's say, is one more line here."""
    events = TableEvents()
    Results(profiles).subscribe(events)
    prizes.subscribe(events)
    return events


def advertiser(config: ServerConfig, port: int, lobby: Lobby) -> Advertiser | None:
    """The LAN advertisement of a server listening on ``port``, if it should have one:
    when the config allows it and some machine other than this one could connect."""
    addresses = advertised_addresses(config.host) if config.discovery else []
    if not addresses:
        if config.discovery:
            log.info("not advertised on the LAN: it listens on %s only", config.host)
        return None
    name = config.server_name or default_server_name()
    return Advertiser(name, port, addresses, lambda: lobby.statistics()["tables"])


def announcement(config: ServerConfig, port: int) -> list[str]:
    """What a server says once it listens on ``port``: where, where its data is, and how
    friends get in (``invitations``), a short line each: on a person's 80-column console,
    behind the time of day, none wraps (``tests/test_serve_console.py``)."""
    where = config.host or "every interface"
    data = (
        "memory (nothing is kept)" if config.data_dir is None else _home_as_tilde(config.data_dir)
    )
    return [f"listening on {where} port {port}", f"data in {data}", *invitations(config.host, port)]


def _home_as_tilde(path: Path) -> str:
    """``path`` with the user's home directory written ``~``, as a person reads it."""
    home = Path.home()
    return (
        f"~/{path.relative_to(home)}" if path.is_relative_to(home) and path != home else str(path)
    )


class Server:
    """One server. ``await nursery.start(server.serve)`` gives the port; ``shutdown()`` ends it."""

    def __init__(self, config: ServerConfig, store: Store | None = None) -> None:
        self.config = config
        self.store = store if store is not None else open_store(config)
        self.connections: set[ClientSession] = set()
        self.services: Services | None = None
        self.port: int | None = None
        self._stop = trio.Event()
        self.acceptor: Acceptor | None = None
        self.advertiser: Advertiser | None = None
        # one line per minute about addresses refused, not one per attempt
        self._refused_address = "?"
        #: addresses the settings name one by one: each counted as itself, never as its
        #: IPv6 network (``address_key``)
        self._named_addresses = frozenset(
            (*config.trusted_addresses, *config.operator_addresses, *config.http_proxies)
        )
        self._address_log = IntervalLog(60.0, self._log_refused_addresses)
        self.refusals = Refusals()  #: refused connections told why (``refusal``)

    def _tell(self, name: str, message: Any) -> None:
        """Send ``message`` to every connection of the player ``name`` (a tournament's)."""
        for conn in list(self.connections):
            if conn.name == name:
                conn.deliver(message)

    def _present(self, name: str) -> bool:
        """Whether the player ``name`` has a connection now."""
        return any(conn.name == name for conn in self.connections)

    def shutdown(self) -> None:
        """Begin a graceful shutdown (safe to call more than once, from any task)."""
        self._stop.set()

    async def serve(self, *, task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED) -> None:
        config = self.config
        return_freed_memory()  # what readers held goes back to the machine once freed
        state = self.store.load()
        # the ledger's moves are store writes: one writer, one transaction with their cause
        ledger = Ledger(self.store, state.ledger, start_balance=config.start_chips)
        accounts = Accounts(
            self.store,
            state,
            scrypt_n=config.scrypt_n,
            max_chars=config.name_max_chars,
            throttle=claim_throttle(config),
            ledger=ledger,
            new_names=new_name_rate(config),
        )
        profiles = Profiles(state.profiles)
        prizes = Prizes(ledger)
        events = self.events = table_events(prizes, profiles)
        lobby = Lobby(config, self.store, state, events=events, stakes=prizes, ratings=profiles)
        self.lobby = lobby
        tournaments = self.tournaments = Tournaments(
            self.store,
            lobby,
            state.tournaments,
            tell=self._tell,
            present=self._present,
            countdown_seconds=config.tournament_countdown_seconds,
            cap_grace_seconds=config.tournament_cap_grace_seconds,
        )
        tournaments.subscribe(events)
        limits = Limits(max_frame=config.max_frame_bytes)
        ops = self.ops = Ops.open(config, ledger)
        ops.store, ops.connections, ops.shutdown = self.store, self.connections, self.shutdown
        ops.profiles = profiles
        lobby.on_table = ops.attach
        self.services = Services(config, accounts, lobby, limits, self.connections, ops)
        self.services.tournaments = tournaments
        try:
            async with trio.open_nursery() as root:
                ops.nursery = root  # the shutdown countdown outlives the operator's connection
                await root.start(lobby.run)
                await root.start(tournaments.run)  # after the tables its rounds play at
                await ops.start(lobby)  # prizes of tables that did not come back go back
                days = config.unplayed_name_days
                root.start_soon(accounts.sweep_forever, days * 86400.0, self._name_in_use)
                listeners = await trio.open_tcp_listeners(config.port, host=config.host)
                self.port = listeners[0].socket.getsockname()[1]
                for line in announcement(config, self.port):
                    log.info("%s", line)
                self.advertiser = advertiser(config, self.port, lobby)
                if self.advertiser is not None:
                    root.start_soon(self.advertiser.run)
                async with trio.open_nursery() as clients:
                    accept_scope = trio.CancelScope()
                    clients.start_soon(self._accept, listeners, clients, accept_scope)
                    task_status.started(self.port)
                    await self._stop.wait()
                    log.info("shutting down: %s", plural(len(self.connections), "connection"))
                    accept_scope.cancel()
                    lobby.freeze()  # no bot or clock moves while the players are told
                    for conn in list(self.connections):
                        conn.close_nowait("shutdown", "the server is shutting down")
                    # leave the block: the nursery waits for each connection to flush its
                    # goodbye and close, and cancels whatever is left at the deadline
                    clients.cancel_scope.deadline = trio.current_time() + config.close_grace_seconds
                root.cancel_scope.cancel()  # the tables; a commit in flight finishes first
        finally:
            with trio.CancelScope(shield=True):
                await self.store.aclose()
                await ops.aclose()
            log.info("stopped; the store is closed")

    def _name_in_use(self, name: str) -> bool:
        """Whether ``name`` is connected, or seated at, creating or mastering an open table
        (such a name never expires, however long since it finished a game)."""
        if any(c.name == name for c in self.connections):
            return True
        lobby = getattr(self, "lobby", None)
        tables = [] if lobby is None else lobby.tables.values()
        return any(
            name in (t.creator, t.master) or any(s.name == name for s in t.seats) for t in tables
        )

    async def _accept(
        self, listeners: list[Any], clients: trio.Nursery, scope: trio.CancelScope
    ) -> None:
        with scope:
            self.acceptor = Acceptor(self._handle, clients)
            limit = fd_limit()
            if limit < self.config.max_connections:
                log.warning(
                    "the file descriptor limit (%d) is below max_connections (%d): when the"
                    " descriptors run out, new connections are refused at once",
                    limit,
                    self.config.max_connections,
                )
            await self.acceptor.serve(listeners)

    async def _handle(self, stream: trio.SocketStream) -> None:
        assert self.services is not None
        if len(self.connections) >= self.config.max_connections:
            why = "the server has as many connections as it may"
            await self.refusals.refuse(stream, TOO_MANY_CONNECTIONS, why, ADDRESS_RETRY_SECONDS)
            return
        try:
            peer = peer_address(stream.socket.getpeername())
        except OSError:
            peer = "?"
        peer = address_key(peer, self.config.ipv6_prefix, self._named_addresses)
        ops = self.services.ops
        if ops is not None and not ops.admit_address(peer):
            self._refused_address = peer
            self._address_log.event(trio.current_time())
            await self.refusals.refuse(stream, *ops.refusal(peer))
            return
        try:
            await Connection(stream, self.services, peer).run()
        finally:
            if ops is not None:
                ops.release_address(peer)

    def _log_refused_addresses(self, count: int) -> None:
        log.warning(
            "refused %d connection(s) since the last line: too many from one address"
            " (the last from %s)",
            count,
            self._refused_address,
        )

    def statistics(self) -> dict[str, Any]:
        stats = self.store.statistics()
        return {
            "connections": len(self.connections),
            **self.lobby.statistics(),
            "store_writes": stats.writes,
            "store_commits": stats.commits,
        }


async def serve(
    config: ServerConfig,
    store: Store | None = None,
    *,
    task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED,
) -> None:
    """Run a server on ``config`` until cancelled; ``task_status.started(port)``."""
    await Server(config, store).serve(task_status=task_status)
