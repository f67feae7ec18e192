"""Names: claimed with a secret on first use, proven with it ever after.

The server never stores a secret, only ``scrypt(secret, salt)`` with a random
salt per name (hashlib.scrypt: memory-hard, in the standard library). Hashing
runs in a worker thread so that a burst of logins never stalls a table, and the
comparison is constant-time.

Names are compared by their normal form (``server.core.limits.fold_name``: case,
width, accents and look-alike letters folded), so ``Ann``, ``ANN`` and a
Cyrillic ``Аnn`` are one name, shown as first typed. The fold is applied when
the names are loaded, so a name stored under an older, looser fold keeps
working; two stored names that the fold now makes one both keep working (each
under the exact form it was stored with), and no third can be claimed beside them.

Fairness, so that nobody can keep an owner out of his own name:

- proving a name takes no lock: a wrong secret, however often it is sent,
  never makes the right one wait or fail;
- wrong secrets are throttled per address (``server.core.limits.Backoff``, as the
  operator's secret is): after a few, that address must wait, doubling each
  time; its tries during the wait are refused (``rate_limited``) before any
  hashing, so a guesser in a loop costs a dictionary look-up a try. Per address,
  not per name: a throttle per name would let anyone lock an owner out of his
  own name by guessing wrong on purpose;
- each address has at most one claim hashing at a time, and the hashing thread
  serves claims first come first served, so a right secret waits at most for
  one hash per other address claiming at that moment.

Every refusal carries its wire code (``ClaimResult.code``), set where it is decided.

Names have a lifecycle, so that they and their chips cannot grow without bound:

- new names are rationed (``NewNameRate``): each address may claim
  ``new_names_burst`` at once, then ``new_names_per_hour``; all addresses together
  ``new_names_server_burst``, then ``new_names_server_per_hour`` (trusted addresses
  count against neither); the last ``new_names_server_reserve`` of the server's are
  kept for an address's first new name lately, so a crowd of addresses taking name
  after name leaves a newcomer his. Proving a name already claimed is never rationed. A claim
  over the ration is refused (``rate_limited``) before any hashing;
- a name that has never finished a game and has not been used (claimed or proven)
  for ``unplayed_name_days`` expires (``expire_unplayed``, run by the server every
  hour): its chips go back to the mint and its row and account are removed, in one
  transaction, unless it is in use (connected, seated, a table's creator or master,
  a prize's funder). It holds no rating, result or history (it finished no game), so
  nothing else refers to it but the records of games it did not finish, which keep
  it as the text it was. Anyone may claim it afterwards, as a new name.

>>> token_hash("x") == token_hash("x") != token_hash("y")
True
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import math
import secrets
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass

import trio

from server.core import namefold
from server.core.config import ServerConfig
from server.core.limits import (
    AddressBudget,
    Backoff,
    NameError_,
    TokenBucket,
    clean_name,
    fold_name,
)
from server.core.logfmt import log_event
from server.players.ledger import ChipError, Ledger
from server.store.base import NameClaimed, NameExpired, NameSeen, Store, StoredState, StoreError
from server.store.base import now as wall_clock

log = logging.getLogger("switchboard.names")

#: A name's last use is stored at most this often (a login an hour costs one write).
SEEN_EVERY_SECONDS = 3600.0
#: How often the server looks for expired names.
EXPIRY_SWEEP_SECONDS = 3600.0

#: scrypt costs at or below this hash inline (microseconds); above, in a worker thread.
INLINE_SCRYPT_N = 2**6


@dataclass(frozen=True, slots=True)
class ClaimResult:
    ok: bool
    name: str  #: the display form
    new: bool = False  #: first use: the name is now claimed
    reason: str = ""
    #: The wire error code of a refusal: ``bad_name``, ``bad_message`` (the secret's
    #: shape), ``name_taken`` (wrong secret) or ``rate_limited`` (back-off).
    code: str = ""


class KeyedLocks:
    """One FIFO lock per key, made on first use and dropped when nobody holds or awaits it
    (so memory is bounded by the claims in progress, not by every key ever seen)."""

    def __init__(self) -> None:
        self._locks: dict[str, tuple[trio.Lock, int]] = {}

    def __len__(self) -> int:
        return len(self._locks)

    @asynccontextmanager
    async def hold(self, key: str) -> AsyncIterator[None]:
        lock, users = self._locks.get(key, (None, 0))
        lock = lock or trio.Lock()
        self._locks[key] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[key]
            if users <= 1:
                del self._locks[key]
            else:
                self._locks[key] = (lock, users - 1)


class NewNameRate:
    """The ration of new names: a budget per address (``AddressBudget``) and one bucket
    for all addresses together; trusted addresses take from neither. An address is
    charged only for a name the shared bucket lets through, and the shared bucket only
    for an address within its own ration, so neither a crowd nor one greedy address
    spends another's ration.

    The shared bucket is shared per address too: the last ``reserve`` of its tokens go
    only to an address whose own ration is whole (it claimed no new name lately), so
    addresses that each take name after name cannot leave a newcomer waiting.

    >>> rate = NewNameRate(per_hour=3600, burst=2, server_per_hour=36000, server_burst=3)
    >>> [rate.take("a", 0.0) for _ in range(3)], rate.take("b", 0.0), rate.take("c", 0.0)
    ([0.0, 0.0, 1.0], 0.0, 0.1)
    >>> rate.take("127.0.0.1", 0.0), rate.take("a", 1.0)
    (0.0, 0.0)
    >>> kept = NewNameRate(per_hour=3600, burst=5, server_per_hour=36, server_burst=4, reserve=2)
    >>> [kept.take("a", 0.0) for _ in range(3)], kept.take("b", 0.0)
    ([0.0, 0.0, 100.0], 0.0)
    """

    def __init__(
        self,
        per_hour: float,
        burst: int,
        server_per_hour: float,
        server_burst: int,
        trusted: Iterable[str] = ("127.0.0.1", "::1"),
        reserve: int = 0,
    ) -> None:
        self.trusted = frozenset(trusted)
        self.addresses = AddressBudget(per_hour / 3600.0, burst, tuple(self.trusted))
        self.server = TokenBucket(server_per_hour / 3600.0, server_burst)
        #: the shared tokens kept for an address's first new name lately
        self.reserve = max(0, min(reserve, server_burst - 1))

    def take(self, address: str, now: float) -> float:
        """0.0 if ``address`` may claim a new name now (its ration and the server's are
        charged one), else the seconds until it may (nothing charged)."""
        if address in self.trusted:
            return 0.0
        mine = self.addresses.wait_time(address, now)
        if mine > 0:
            return mine
        first = self.addresses.wait_time(address, now, self.addresses.burst) == 0
        shared = self.server.wait_time(now, 1 if first else 1 + self.reserve)
        if shared > 0:
            return shared
        self.server.take(now)
        self.addresses.take(address, now)
        return 0.0


def new_name_rate(config: ServerConfig | None = None) -> NewNameRate:
    """The ration of new names that ``config`` sets (``new_names_*``)."""
    c = config if config is not None else ServerConfig()
    return NewNameRate(
        per_hour=c.new_names_per_hour,
        burst=c.new_names_burst,
        server_per_hour=c.new_names_server_per_hour,
        server_burst=c.new_names_server_burst,
        trusted=c.trusted_addresses,
        reserve=c.new_names_server_reserve,
    )


def claim_throttle(config: ServerConfig | None = None) -> Backoff:
    """The back-off on wrong secrets that ``config`` sets (``claim_*``; default: the defaults)."""
    c = config if config is not None else ServerConfig()
    return Backoff(
        base=c.claim_backoff_seconds,
        cap=c.claim_backoff_max_seconds,
        forget=c.claim_forget_seconds,
        free=c.claim_free_failures,
    )


class Accounts:
    """The claimed names, in memory (loaded at start) and in the store."""

    def __init__(
        self,
        store: Store,
        state: StoredState,
        *,
        scrypt_n: int,
        max_chars: int,
        throttle: Backoff | None = None,
        ledger: Ledger | None = None,
        new_names: NewNameRate | None = None,
    ) -> None:
        namefold.load()  # the look-alike table, now rather than at the first claim
        self._store = store
        #: gives a new name its starting chips in the transaction that claims it
        self._ledger = ledger
        self._names: dict[str, tuple[str, bytes, bytes]] = {}  # fold -> (display, salt, digest)
        #: Stored names that the fold now makes one with another: the exact stored key
        #: (lower case) -> the entry, so each still proves its own secret.
        self._twins: dict[str, tuple[str, bytes, bytes]] = {}
        #: each stored name's last use (wall clock), by its stored key
        self._seen: dict[str, float] = dict(state.name_seen)
        self._new_names = new_names if new_names is not None else new_name_rate()
        for stored_key, entry in state.names.items():
            key = fold_name(entry[0])
            if key in self._names:
                self._twins[stored_key] = entry
            else:
                self._names[key] = entry
        self._scrypt_n = scrypt_n
        self._max_chars = max_chars
        self._throttle = throttle if throttle is not None else claim_throttle()
        self._first_claims = KeyedLocks()  #: per name: one first claim at a time
        self._per_address = KeyedLocks()  #: per address: one claim hashing at a time
        self._limiter = trio.CapacityLimiter(1)  # FIFO: claims are hashed in turn

    def __len__(self) -> int:
        return len(self._names) + len(self._twins)

    def display(self, name: str) -> str | None:
        """The display form of a claimed name, or None."""
        entry = self._entry(name)
        return None if entry is None else entry[0]

    def _entry(self, name: str) -> tuple[str, bytes, bytes] | None:
        """The stored name ``name`` means: its exact stored form first, then its fold."""
        twin = self._twins.get(_stored_key(name))
        return twin if twin is not None else self._names.get(fold_name(name))

    async def _hash(self, secret: str, salt: bytes) -> bytes:
        """The digest, off the event loop unless it is so cheap (tests' tiny costs)
        that the thread hop would cost more than the hash."""
        if self._scrypt_n <= INLINE_SCRYPT_N:
            await trio.lowlevel.checkpoint()
            return self._digest(secret, salt)
        return await trio.to_thread.run_sync(self._digest, secret, salt, limiter=self._limiter)

    def _digest(self, secret: str, salt: bytes) -> bytes:
        return hashlib.scrypt(
            secret.encode(), salt=salt, n=self._scrypt_n, r=8, p=1, maxmem=64 * 1024 * 1024
        )

    async def claim(self, name: str, secret: str, address: str = "?") -> ClaimResult:
        """Claim ``name`` with ``secret`` (first use) or prove it (every later use),
        from the peer ``address`` (the unit wrong secrets are throttled by)."""
        try:
            name = clean_name(name, self._max_chars)
        except NameError_ as exc:
            return ClaimResult(False, str(name)[:40], reason=str(exc), code="bad_name")
        if not isinstance(secret, str) or not 1 <= len(secret) <= 1024:
            why = "a secret is a string of 1 to 1024 characters"
            return ClaimResult(False, name, reason=why, code="bad_message")
        async with self._per_address.hold(address):
            wait = self._throttle.wait(address, trio.current_time())
            if wait > 0:
                why = f"too many wrong secrets from your address; try again in {wait:.1f} s"
                return ClaimResult(False, name, reason=why, code="rate_limited")
            if self._entry(name) is None:
                wait = self._new_names.take(address, trio.current_time())
                if wait > 0:
                    why = f"too many new names; try again in {math.ceil(wait)} s"
                    return ClaimResult(False, name, reason=why, code="rate_limited")
                async with self._first_claims.hold(fold_name(name)):
                    if self._entry(name) is None:  # nobody claimed it while we waited
                        return await self._first_claim(name, secret)
            return await self._prove(name, secret, address)

    async def _first_claim(self, name: str, secret: str) -> ClaimResult:
        salt = secrets.token_bytes(16)
        digest = await self._hash(secret, salt)
        claimed = NameClaimed(_stored_key(name), name, salt, digest, wall_clock())
        if self._ledger is None:
            await self._store.commit(claimed)
        else:  # the name and its chips in one transaction: no crash can part them
            ledger = self._ledger
            await ledger.commit(lambda: ledger.welcome(name), claimed)
        self._names[fold_name(name)] = (name, salt, digest)
        self._seen[claimed.name] = claimed.at
        return ClaimResult(True, name, new=True)

    async def _prove(self, name: str, secret: str, address: str) -> ClaimResult:
        entry = self._entry(name)
        assert entry is not None  # the caller saw it; nothing awaited since
        display, salt, digest = entry
        got = await self._hash(secret, salt)
        if self._entry(name) is not entry:  # it expired while the secret was hashed
            why = "that name has just expired; claim it again"
            return ClaimResult(False, display, reason=why, code="name_taken")
        if hmac.compare_digest(got, digest):
            await self._seen_now(_stored_key(display))
            return ClaimResult(True, display)
        self._throttle.failed(address, trio.current_time())
        return ClaimResult(False, display, reason="wrong secret for that name", code="name_taken")

    async def _seen_now(self, key: str) -> None:
        """Keep the name's last use, at most once every ``SEEN_EVERY_SECONDS``. Not a
        promise to the player: a store that cannot write it now loses nothing he was
        told of (the name stays usable; its expiry counts from the last use stored)."""
        at = wall_clock()
        if at - self._seen.get(key, -math.inf) < SEEN_EVERY_SECONDS:
            return
        try:
            await self._store.commit(NameSeen(key, at))
        except StoreError:
            return
        self._seen[key] = at

    async def expire_unplayed(
        self, older_than: float, in_use: Callable[[str], bool], at: float | None = None
    ) -> list[str]:
        """Remove every name not used for ``older_than`` seconds (wall clock, before ``at``)
        that has never finished a game and is not ``in_use`` (connected, seated, creating
        or mastering a table: the server knows) nor funding a held prize; its chips go back
        to the mint in the same transaction. The names removed (display forms)."""
        cutoff = (wall_clock() if at is None else at) - older_than
        display_of = {_stored_key(e[0]): e[0] for e in self._names.values()}
        display_of.update((key, e[0]) for key, e in self._twins.items())
        candidates: dict[str, tuple[str, str]] = {}  # stored key -> (player key, display)
        for key, seen in self._seen.items():
            display = display_of.get(key)
            if seen < cutoff and display is not None:
                candidates[key] = (fold_name(display), display)
        if not candidates:
            return []
        finished = await self._store.finished_any([p for p, _ in candidates.values()])
        gone = []
        for key, (player, display) in candidates.items():
            if player in finished or in_use(display):
                continue
            async with self._first_claims.hold(fold_name(display)):
                if self._entry(display) is None or self._seen.get(key, math.inf) >= cutoff:
                    continue  # proven or removed meanwhile
                try:
                    await self._expire(key, display)
                except (ChipError, StoreError) as exc:  # a prize, a full disk: next sweep
                    log.debug("name %s not expired now: %s", display, exc)
                    continue
            gone.append(display)
        if gone:
            log_event(log, "names.expired", count=len(gone), first=gone[0])
        return gone

    async def _expire(self, key: str, display: str) -> None:
        expired = NameExpired(key, display)
        if self._ledger is None:
            await self._store.commit(expired)
        else:
            await self._ledger.close_account(display, expired)
        if key in self._twins:
            del self._twins[key]
        else:
            self._names.pop(fold_name(display), None)
        self._seen.pop(key, None)

    async def sweep_forever(
        self, older_than: float, in_use: Callable[[str], bool], every: float = EXPIRY_SWEEP_SECONDS
    ) -> None:
        """``expire_unplayed`` now and every ``every`` seconds (``older_than`` 0: never)."""
        if older_than <= 0:
            return
        while True:
            await self.expire_unplayed(older_than, in_use)
            await trio.sleep(every)


def _stored_key(name: str) -> str:
    """The key a name is stored under: its case fold (older servers' whole fold; the
    comparison key is ``fold_name``, applied on load, so the stored key never has to
    change when the fold grows)."""
    return name.casefold()


def new_token() -> str:
    """A seat token: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


def token_hash(token: str) -> bytes:
    """What the store keeps of a seat token (it is random, so no salt or stretching is needed)."""
    return hashlib.sha256(token.encode()).digest()
