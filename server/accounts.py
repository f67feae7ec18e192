"""Names: claimed with a secret on first use, proven with it ever after.

The server never stores a secret, only ``scrypt(secret, salt)`` with a random
salt per name (hashlib.scrypt: memory-hard, in the standard library). Hashing
runs in a worker thread so that a burst of logins never stalls a table, and the
comparison is constant-time. Names are folded to lower case for uniqueness
("Ann" and "ann" are one name) but shown as first typed.

Names are cleaned by ``server.limits.clean_name`` (letters, digits, ``_ - .``).

>>> token_hash("x") == token_hash("x") != token_hash("y")
True
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

import trio

from server.ledger import Ledger
from server.limits import NameError_, clean_name, fold_name
from server.store import NameClaimed, Store, StoredState

#: scrypt costs at or below this hash inline (microseconds); above, in a worker thread.
INLINE_SCRYPT_N = 2**6


@dataclass(frozen=True, slots=True)
class ClaimResult:
    ok: bool
    name: str  #: the display form
    new: bool = False  #: first use: the name is now claimed
    reason: str = ""


class Accounts:
    """The claimed names, in memory (loaded at start) and in the store."""

    def __init__(
        self,
        store: Store,
        state: StoredState,
        *,
        scrypt_n: int,
        max_chars: int,
        ledger: Ledger | None = None,
    ):
        self._store = store
        #: gives a new name its starting chips in the transaction that claims it
        self._ledger = ledger
        self._names = dict(state.names)  # folded -> (display, salt, digest)
        self._scrypt_n = scrypt_n
        self._max_chars = max_chars
        self._busy: set[str] = set()
        self._limiter = trio.CapacityLimiter(1)

    def __len__(self) -> int:
        return len(self._names)

    def display(self, name: str) -> str | None:
        """The display form of a claimed name, or None."""
        entry = self._names.get(fold_name(name))
        return None if entry is None else entry[0]

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

    async def claim(self, name: str, secret: str) -> ClaimResult:
        """Claim ``name`` with ``secret`` (first use) or prove it (every later use)."""
        try:
            name = clean_name(name, self._max_chars)
        except NameError_ as exc:
            return ClaimResult(False, str(name)[:40], reason=str(exc))
        if not isinstance(secret, str) or not 1 <= len(secret) <= 1024:
            return ClaimResult(False, name, reason="a secret is a string of 1 to 1024 characters")
        key = fold_name(name)
        if key in self._busy:
            return ClaimResult(False, name, reason="that name is being claimed right now")
        self._busy.add(key)
        try:
            entry = self._names.get(key)
            if entry is not None:
                display, salt, digest = entry
                got = await self._hash(secret, salt)
                if not hmac.compare_digest(got, digest):
                    return ClaimResult(False, display, reason="wrong secret for that name")
                return ClaimResult(True, display)
            salt = secrets.token_bytes(16)
            digest = await self._hash(secret, salt)
            claimed = NameClaimed(key, name, salt, digest)
            if self._ledger is None:
                await self._store.commit(claimed)
            else:  # the name and its chips in one transaction: no crash can part them
                ledger = self._ledger
                await ledger.commit(lambda: ledger.welcome(name), claimed)
            self._names[key] = (name, salt, digest)
            return ClaimResult(True, name, new=True)
        finally:
            self._busy.discard(key)


def new_token() -> str:
    """A seat token: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


def token_hash(token: str) -> bytes:
    """What the store keeps of a seat token (it is random, so no salt or stretching is needed)."""
    return hashlib.sha256(token.encode()).digest()
