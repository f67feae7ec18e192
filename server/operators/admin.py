"""Operator tools: the operator secret, admin commands, bans, stats and the shutdown countdown.

An operator is a connection that has sent ``admin_auth`` with the server's
operator secret (``operator_secret`` in the configuration; unset, every
admin command is refused: there is no default password to forget to change).
The secret is compared in constant time and never logged. Wrong secrets are
counted per address and over all addresses together, with back-off (``Backoff``):
after a wrong secret from an address, its next try is not even checked for
``auth_backoff_seconds``, a wait that doubles with each further wrong one up to
``auth_backoff_max_seconds``; past ``auth_overall_allowance`` wrong secrets from
anywhere, every other address waits the same way. Reconnecting resets nothing, and a
connection that guesses wrong ``auth_attempts`` times is dropped as well.

The operator's own addresses (``operator_addresses``: loopback unless configured) are
never held back by the others' wrong secrets: they skip the overall back-off and keep
only their own, so a crowd of guessers elsewhere cannot lock the operator out of his
server. A refusal says the real wait, rounded up to the tenth of a second (a wait under
0.05 s once read "wait 0.0 s", and a client that believed it came back at once).

``Admin.handle`` turns one admin message into its reply; everything it needs
from the running server goes through ``ServerControl``, a small interface the
server's app implements, so this module is tested without sockets and the
server core keeps no admin logic.

The commands (protocol ``admin_*`` messages): list connections, list tables
(with each one's creator and whether anyone is at it), close a table (its prize
goes back), close in bulk (every empty table, every table of a name), kick a
name (close its connections), ban a name (kick it and refuse it from now on;
the ban list survives restarts in ``bans.txt`` in the data directory, one name
a line, so an operator may also edit it by hand), broadcast a notice, shut
down gracefully after a countdown announced by notices, and ``stats``: uptime,
connections, tables, actions/s over the last minute, and the store's queue depth.
"""

from __future__ import annotations

import hmac
import logging
import math
import os
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import trio

from protocol import messages as m
from protocol.payloads import TableSummary
from server.core.limits import Backoff, fold_name
from server.core.logfmt import log_event

log = logging.getLogger("switchboard.admin")

#: Where the operator logs in from unless the configuration says otherwise: this machine.
OPERATOR_ADDRESSES = ("127.0.0.1", "::1")


class ServerControl(Protocol):
    """What the admin commands need from the running server."""

    def connection_list(self) -> list[dict[str, Any]]:
        """Each open connection: id, name, peer, codec, tables, since."""
        ...

    def table_list(self) -> list[TableSummary]:
        """Every table's summary (as the lobby lists it)."""
        ...

    async def close_table(self, table: str, reason: str) -> bool:
        """Close a table (prize returned); False if there is no such table."""
        ...

    async def close_tables(self, empty: bool, creator: str | None, reason: str) -> int:
        """Close every table that matches all the filters given; how many were closed."""
        ...

    def kick(self, name: str, reason: str) -> int:
        """Close every connection of ``name``; how many were closed."""
        ...

    def broadcast(self, message: m.Message) -> int:
        """Send ``message`` to every connection; how many got it."""
        ...

    def request_shutdown(self) -> None:
        """Begin the graceful shutdown (as on SIGTERM)."""
        ...

    def stats(self) -> dict[str, Any]:
        """Figures this module does not keep itself: connections, tables, store queue ..."""
        ...


# -------------------------------------------------------------- the gate
class OperatorGate:
    """Checks operator secrets; ``None`` as the secret disables every admin command.

    >>> gate = OperatorGate("s3cret", attempts=2)
    >>> gate.check("nope"), gate.check("s3cret")
    (False, True)
    >>> OperatorGate(None).check("")
    False
    """

    def __init__(self, secret: str | None, attempts: int = 3) -> None:
        self._secret = None if not secret else secret.encode()
        self.attempts = attempts

    @property
    def enabled(self) -> bool:
        return self._secret is not None

    def check(self, secret: str) -> bool:
        """Whether ``secret`` is the operator secret, compared in constant time."""
        if self._secret is None or not isinstance(secret, str):
            return False
        return hmac.compare_digest(self._secret, secret.encode())


def read_secret(secret: str | None, secret_file: Path | str | None) -> str | None:
    """The operator secret from the config, or from a file (systemd credentials, a
    container secret), stripped of its trailing newline. The file wins when both are set;
    a file that does not exist is logged and ignored (the server runs without operators)."""
    if secret_file:
        path = Path(secret_file).expanduser()
        try:
            text = path.read_text(encoding="utf-8").strip()
        except FileNotFoundError:
            log_event(log, "admin.no_secret_file", logging.WARNING, path=str(path))
            return secret or None
        return text or None
    return secret or None


# -------------------------------------------------------------- the bans
class BanList:
    """Banned names (folded), optionally kept in a text file, one name a line.

    >>> bans = BanList()
    >>> bans.add("Troll"); bans.is_banned("TROLL"), bans.is_banned("ann")
    (True, False)
    """

    def __init__(self, path: Path | str | None = None) -> None:
        self.path = None if path is None else Path(path)
        self._names: set[str] = set()
        if self.path is not None and self.path.exists():
            for line in self.path.read_text(encoding="utf-8").splitlines():
                line = line.split("#", 1)[0].strip()
                if line:
                    self._names.add(fold_name(line))

    def is_banned(self, name: str | None) -> bool:
        return name is not None and fold_name(name) in self._names

    def add(self, name: str) -> None:
        self._names.add(fold_name(name))
        self._save()

    def remove(self, name: str) -> None:
        self._names.discard(fold_name(name))
        self._save()

    def names(self) -> list[str]:
        return sorted(self._names)

    def _save(self) -> None:
        """Write atomically (a temporary file renamed over the old), so a crash never
        leaves half a ban list."""
        if self.path is None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        body = "# banned names, one a line (switchboard admin_ban writes this file)\n"
        tmp.write_text(body + "".join(f"{n}\n" for n in self.names()), encoding="utf-8")
        os.replace(tmp, self.path)


# ------------------------------------------------------------ the figures
class RateMeter:
    """A rate (per second) over a sliding window, from a running total sampled now and then.

    The tables keep plain counters (cheap on the hot path); the meter only
    remembers a few (time, total) samples and divides.

    >>> meter = RateMeter(window=10)
    >>> meter.sample(0.0, 0); meter.sample(5.0, 50); meter.rate(10.0, 100)
    10.0
    """

    def __init__(self, window: float = 60.0) -> None:
        self.window = window
        self._samples: deque[tuple[float, int]] = deque()

    def sample(self, now: float, total: int) -> None:
        self._samples.append((now, total))
        while len(self._samples) > 2 and self._samples[1][0] <= now - self.window:
            self._samples.popleft()

    def rate(self, now: float, total: int) -> float:
        """Events per second between the oldest sample in the window and ``(now, total)``."""
        self.sample(now, total)
        t0, n0 = self._samples[0]
        if now <= t0:
            return 0.0
        return (total - n0) / (now - t0)


# -------------------------------------------------------------- commands
@dataclass(slots=True)
class Operator:
    """A connection's operator state: authenticated or not, and wrong guesses so far."""

    authenticated: bool = False
    failures: int = 0


class DropConnection(Exception):
    """Raised by ``Admin.handle`` when a connection must be closed (too many wrong secrets)."""


ADMIN_TYPES: tuple[type[m.Message], ...] = (
    m.AdminAuth,
    m.AdminConnections,
    m.AdminTables,
    m.AdminCloseTable,
    m.AdminCloseTables,
    m.AdminKick,
    m.AdminBan,
    m.AdminNotice,
    m.AdminShutdown,
    m.AdminStats,
)


class Admin:
    """The server's operator desk: one per server."""

    def __init__(
        self,
        control: ServerControl,
        secret: str | None,
        *,
        bans: BanList | None = None,
        auth_attempts: int = 3,
        backoff: tuple[float, float, float, int] = (1.0, 600.0, 3600.0, 20),
        clock: Callable[[], float] = trio.current_time,
        operator_addresses: Iterable[str] = OPERATOR_ADDRESSES,
    ) -> None:
        """``backoff`` is (seconds after a wrong secret, the most seconds, seconds after
        which an address's wrong secrets are forgotten, wrong secrets from all addresses
        together before everyone else waits); ``operator_addresses`` skip that overall
        wait (each keeps its own back-off)."""
        self.control = control
        self.gate = OperatorGate(secret, auth_attempts)
        base, cap, forget, overall_free = backoff
        self.per_address = Backoff(base, cap, forget)
        self.overall = Backoff(base, cap, forget, free=overall_free)
        self.operator_addresses = frozenset(operator_addresses)
        self.bans = bans or BanList()
        self._clock = clock
        self.started = clock()
        self.started_wall = time.time()
        self.actions = RateMeter(60.0)
        self.shutdown_at: float | None = None
        self._shutdown_scope: trio.CancelScope | None = None

    async def handle(
        self,
        op: Operator,
        msg: m.Message,
        who: str = "?",
        nursery: trio.Nursery | None = None,
        peer: str = "?",
    ) -> m.Message:
        """The reply to one admin message from a connection whose state is ``op``.

        ``nursery`` runs the shutdown countdown (the server's own nursery, so
        the countdown outlives the operator's connection). Raises
        ``DropConnection`` after too many wrong secrets. ``peer`` is the connection's
        address, whose wrong secrets are counted across its connections.
        """
        req = getattr(msg, "id", None)  # every admin request has one; the reply echoes it
        if isinstance(msg, m.AdminAuth):
            return self._authenticate(op, msg, who, peer)
        if not op.authenticated:
            return m.Error(
                code="forbidden", text="operator commands need admin_auth with the secret", id=req
            )
        log_event(log, "admin.command", who=who, command=msg.type)
        if isinstance(msg, m.AdminConnections):
            return m.Connections(connections=tuple(self.control.connection_list()), id=req)
        if isinstance(msg, m.AdminTables):
            listed = tuple(self.control.table_list())
            return m.Tables(tables=listed, total=len(listed), id=req)  # every table, one page
        if isinstance(msg, m.AdminCloseTable):
            reason = msg.reason or "closed by an operator"
            if await self.control.close_table(msg.table, reason):
                return m.Ok(table=msg.table, text="closed", id=req)
            return m.Error(code="no_table", text=f"there is no table {msg.table}", id=req)
        if isinstance(msg, m.AdminCloseTables):
            if not msg.empty and msg.creator is None:
                text = "name a filter: empty tables, tables of a creator, or both"
                return m.Error(code="bad_message", text=text, id=req)
            reason = msg.reason or "closed by an operator"
            n = await self.control.close_tables(msg.empty, msg.creator, reason)
            log_event(log, "admin.close_tables", empty=msg.empty, creator=msg.creator, closed=n)
            return m.Ok(text=f"closed {n} table(s)", id=req)
        if isinstance(msg, m.AdminKick):
            n = self.control.kick(msg.name, msg.reason or "kicked by an operator")
            return m.Ok(text=f"kicked {n} connection(s)", id=req)
        if isinstance(msg, m.AdminBan):
            self.bans.add(msg.name)
            n = self.control.kick(msg.name, msg.reason or "banned by an operator")
            log_event(log, "admin.ban", name=msg.name, kicked=n)
            return m.Ok(text=f"banned; kicked {n} connection(s)", id=req)
        if isinstance(msg, m.AdminNotice):
            n = self.control.broadcast(m.Notice(text=msg.text))
            return m.Ok(text=f"sent to {n} connection(s)", id=req)
        if isinstance(msg, m.AdminShutdown):
            if nursery is None:
                self.control.request_shutdown()
            else:
                self.start_shutdown(nursery, msg.seconds, msg.reason)
            return m.Ok(text=f"shutting down in {msg.seconds} s", id=req)
        if isinstance(msg, m.AdminStats):
            return m.Stats(stats=self.stats(), id=req)
        return m.Error(code="unknown_type", text=f"not an admin command: {msg.type}", id=req)

    # ------------------------------------------------------------ stats
    def _authenticate(self, op: Operator, msg: m.AdminAuth, who: str, peer: str) -> m.Message:
        req = getattr(msg, "id", None)  # every admin request has one; the reply echoes it
        if not self.gate.enabled:
            return m.Error(code="forbidden", text="this server has no operator secret", id=req)
        now = self._clock()
        wait = self.per_address.wait(peer, now)
        if peer not in self.operator_addresses:
            wait = max(wait, self.overall.wait("*", now))
        if wait > 0:  # not even compared: a guesser gains nothing by trying again now
            self._count_failure(op)
            text = f"too many wrong operator secrets; wait {shown_wait(wait)} s"
            return m.Error(code="rate_limited", text=text, id=req)
        if self.gate.check(msg.secret):
            op.authenticated = True
            op.failures = 0
            self.per_address.succeeded(peer)
            log_event(log, "admin.auth", who=who)
            return m.Ok(text="operator", id=req)
        self.per_address.failed(peer, now)
        if peer not in self.operator_addresses:  # the operator's slips slow nobody else
            self.overall.failed("*", now)
        log_event(log, "admin.auth_failed", logging.WARNING, who=who,
                  address_failures=self.per_address.failures(peer, now),
                  all_failures=self.overall.failures("*", now))  # fmt: skip
        self._count_failure(op)
        return m.Error(code="forbidden", text="wrong operator secret", id=req)

    def _count_failure(self, op: Operator) -> None:
        op.failures += 1
        if op.failures >= self.gate.attempts:
            raise DropConnection("too many wrong operator secrets")

    def stats(self) -> dict[str, Any]:
        """uptime, connections, tables, actions/s and the store's queue depth, plus whatever
        else the server reports."""
        now = self._clock()
        base = dict(self.control.stats())
        total = int(base.pop("actions_total", 0))
        return {
            "uptime": round(now - self.started, 3),
            "started": round(self.started_wall, 3),
            "actions_per_second": round(self.actions.rate(now, total), 3),
            "actions_total": total,
            "banned": len(self.bans.names()),
            "shutdown_in": None if self.shutdown_at is None else max(0, self.shutdown_at - now),
            **base,
        }

    # --------------------------------------------------------- shutdown
    def start_shutdown(self, nursery: trio.Nursery, seconds: int, reason: str = "") -> None:
        """Begin (or restart with a new count) the announced countdown to a graceful shutdown."""
        if self._shutdown_scope is not None:
            self._shutdown_scope.cancel()
        scope = self._shutdown_scope = trio.CancelScope()
        nursery.start_soon(self._countdown, scope, seconds, reason)

    async def _countdown(self, scope: trio.CancelScope, seconds: int, reason: str) -> None:
        with scope:
            await shutdown_countdown(
                seconds,
                reason,
                lambda msg: self.control.broadcast(msg),
                self._set_shutdown_at,
            )
            log_event(log, "admin.shutdown", reason=reason or "operator")
            self.control.request_shutdown()

    def _set_shutdown_at(self, at: float) -> None:
        self.shutdown_at = at


def shown_wait(seconds: float) -> str:
    """A wait as a refusal says it: rounded up to the tenth, so never "0.0" while the
    wait lasts.

    >>> shown_wait(0.04), shown_wait(1.0), shown_wait(1.01), shown_wait(599.99)
    ('0.1', '1.0', '1.1', '600.0')
    """
    return f"{math.ceil(round(seconds * 10, 6)) / 10:.1f}"


def announce_points(seconds: int) -> list[int]:
    """When a countdown of ``seconds`` announces itself: at the start, then at the usual
    marks (10 min, 5 min, 1 min, 30 s, 10 s, 5..1 s) that fall inside it.

    >>> announce_points(75)
    [75, 60, 30, 10, 5, 4, 3, 2, 1]
    >>> announce_points(0)
    [0]
    """
    marks = [600, 300, 120, 60, 30, 10, 5, 4, 3, 2, 1]
    return [seconds] + [s for s in marks if s < seconds]


async def shutdown_countdown(
    seconds: int,
    reason: str,
    send: Callable[[m.Message], object],
    at: Callable[[float], None] | None = None,
) -> None:
    """Announce a shutdown with notices (``shutdown_in`` counting down), then return.

    Sleeps on trio's clock, so a test with ``autojump_clock`` runs it at once.
    """
    end = trio.current_time() + seconds
    if at is not None:
        at(end)
    why = f": {reason}" if reason else ""
    for left in announce_points(seconds):
        await trio.sleep_until(end - left)
        send(m.Notice(text=f"the server shuts down in {left} s{why}", shutdown_in=left))
    await trio.sleep_until(end)
