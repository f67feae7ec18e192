"""Limits against abuse: token buckets, a flood guard, per-address counts and budgets,
clean names.

Pure logic over a clock the caller passes in (``now``, normally
``trio.current_time()``), so every limit is tested with plain numbers or
trio's ``MockClock`` and none of them sleeps. Each limit is a number in
``ServerConfig``; these classes only do the arithmetic.

Why a token bucket: it lets a person type a burst (three quick commands, a
short exchange of talk) while bounding the sustained rate, which is what a
fair limit on a game server must do; a fixed window would punish a burst at
the edge of a window and let twice the rate through across it.

The flood guard turns a bucket into a policy: over the rate, a command is
*refused* with an error (the penalty: it is not carried out, and for
``penalty_seconds`` every further command is refused too); a connection that
keeps sending while refused collects strikes and is *dropped* at
``drop_after`` strikes. A flooder therefore costs the server one cheap check
per message and never reaches a table's inbox.

>>> guard = FloodGuard(rate=2.0, burst=3, penalty_seconds=1.0, drop_after=3)
>>> [guard.check(0.0).value for _ in range(5)]
['ok', 'ok', 'ok', 'refuse', 'refuse']
>>> guard.check(0.5).value, guard.check(5.0).value
('drop', 'drop')
"""

from __future__ import annotations

import enum
import ipaddress
import unicodedata
from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass, field

from server.core.namefold import name_key


class TokenBucket:
    """``burst`` tokens, refilled at ``rate`` per second; each event takes one.

    >>> b = TokenBucket(rate=1.0, burst=2)
    >>> b.take(0.0), b.take(0.0), b.take(0.0), b.take(1.0)
    (True, True, False, True)
    """

    __slots__ = ("_last", "_tokens", "burst", "rate")

    def __init__(self, rate: float, burst: int, now: float | None = None) -> None:
        if rate < 0 or burst < 1:
            raise ValueError("a bucket needs rate >= 0 and burst >= 1")
        self.rate = float(rate)
        self.burst = int(burst)
        self._tokens = float(burst)
        self._last = now

    def _refill(self, now: float) -> None:
        if self._last is not None and now > self._last:
            self._tokens = min(self.burst, self._tokens + (now - self._last) * self.rate)
        if self._last is None or now > self._last:
            self._last = now

    def take(self, now: float, n: int = 1) -> bool:
        """Take ``n`` tokens if there are that many; False (and nothing taken) if not."""
        self._refill(now)
        if self._tokens >= n:
            self._tokens -= n
            return True
        return False

    def tokens(self, now: float) -> float:
        """Tokens available at ``now`` (for tests and statistics)."""
        self._refill(now)
        return self._tokens

    def wait_time(self, now: float, n: int = 1) -> float:
        """Seconds until ``n`` tokens are there (0 if they are); for "retry in" hints."""
        self._refill(now)
        if self._tokens >= n:
            return 0.0
        if self.rate == 0:
            return float("inf")
        return (n - self._tokens) / self.rate


class AddressBudget:
    """One token bucket per address, shared by every connection from it: what a whole
    host may ask for, however many connections it opens.

    Why: a limit per connection lets one address multiply it by its connections (64 by
    default), and a reply such as a record page or the lobby is built on the event
    loop, where every other player waits behind it. Addresses in ``exempt`` (the
    trusted ones) are never refused. At most ``max_keys`` addresses are kept, the
    least recently used forgotten first (a forgotten one starts again with a full
    burst), so memory is bounded however many addresses ask.

    >>> b = AddressBudget(rate=1.0, burst=2, exempt=("127.0.0.1",))
    >>> b.take("10.0.0.1", 0.0), b.take("10.0.0.1", 0.0), b.take("10.0.0.1", 0.0)
    (True, True, False)
    >>> b.take("10.0.0.2", 0.0), b.take("127.0.0.1", 0.0), b.wait_time("10.0.0.1", 0.0)
    (True, True, 1.0)
    """

    __slots__ = ("_buckets", "burst", "exempt", "max_keys", "rate")

    def __init__(
        self,
        rate: float,
        burst: int,
        exempt: tuple[str, ...] = (),
        max_keys: int = 10_000,
    ) -> None:
        TokenBucket(rate, burst)  # the same checks
        self.rate = float(rate)
        self.burst = int(burst)
        self.exempt = frozenset(exempt)
        self.max_keys = max_keys
        self._buckets: dict[str, TokenBucket] = {}  #: least recently used first

    def _bucket(self, address: str, now: float) -> TokenBucket:
        bucket = self._buckets.pop(address, None)
        if bucket is None:
            bucket = TokenBucket(self.rate, self.burst, now)
            while len(self._buckets) >= self.max_keys:
                del self._buckets[next(iter(self._buckets))]
        self._buckets[address] = bucket  # last: the most recently used
        return bucket

    def take(self, address: str, now: float, n: int = 1) -> bool:
        """Take ``n`` tokens of ``address``'s budget; False (nothing taken) if it has
        not that many left."""
        if address in self.exempt:
            return True
        return self._bucket(address, now).take(now, n)

    def wait_time(self, address: str, now: float, n: int = 1) -> float:
        """Seconds until ``address`` has ``n`` tokens again (0: now)."""
        if address in self.exempt or address not in self._buckets:
            return 0.0
        return self._buckets[address].wait_time(now, n)

    def __len__(self) -> int:
        return len(self._buckets)


@dataclass(frozen=True, slots=True)
class SharedBudgets:
    """One server's budgets per address for the replies that cost its event loop real
    work (each built on the loop, where every other player waits behind it): record
    pages, lobby listings, and the players' requests (profiles, history, top)."""

    records: AddressBudget
    lobby: AddressBudget
    profiles: AddressBudget


class Verdict(enum.Enum):
    """What to do with one command from a connection."""

    OK = "ok"  #: carry it out
    REFUSE = "refuse"  #: answer an error (``rate_limited``) and drop the command
    DROP = "drop"  #: close the connection: it is flooding


class FloodGuard:
    """Commands per second for one connection, with a penalty and then a disconnect.

    Strikes are forgiven one per ``forgive_seconds`` of good behaviour, so a
    person who once typed too fast is not dropped an hour later for a second slip.
    """

    __slots__ = ("_bucket", "_penalty_until", "_strikes_at", "drop_after", "forgive_seconds",
                 "penalty_seconds", "strikes")  # fmt: skip

    def __init__(
        self,
        rate: float,
        burst: int,
        penalty_seconds: float = 2.0,
        drop_after: int = 20,
        forgive_seconds: float = 10.0,
    ) -> None:
        self._bucket = TokenBucket(rate, burst)
        self.penalty_seconds = penalty_seconds
        self.drop_after = drop_after
        self.forgive_seconds = forgive_seconds
        self._penalty_until = float("-inf")
        self.strikes = 0
        self._strikes_at = 0.0

    def check(self, now: float) -> Verdict:
        """The verdict on one more command at ``now``. Once DROP, always DROP."""
        if self.strikes >= self.drop_after:
            return Verdict.DROP
        if self.strikes and self.forgive_seconds > 0:
            forgiven = int((now - self._strikes_at) // self.forgive_seconds)
            if forgiven > 0:
                self.strikes = max(0, self.strikes - forgiven)
                self._strikes_at = now
        if now < self._penalty_until or not self._bucket.take(now):
            return self._strike(now)
        return Verdict.OK

    def _strike(self, now: float) -> Verdict:
        self.strikes += 1
        self._strikes_at = now
        self._penalty_until = now + self.penalty_seconds
        return Verdict.DROP if self.strikes >= self.drop_after else Verdict.REFUSE

    def retry_after(self, now: float) -> float:
        """Seconds until a command would be accepted again: the error's hint."""
        return max(self._penalty_until - now, self._bucket.wait_time(now), 0.0)


@dataclass
class AddressCounter:
    """Open connections per peer address, so one host cannot take every slot.

    >>> c = AddressCounter(limit=2)
    >>> c.acquire("10.0.0.1"), c.acquire("10.0.0.1"), c.acquire("10.0.0.1")
    (True, True, False)
    >>> c.release("10.0.0.1"); c.acquire("10.0.0.1")
    True

    Loopback is counted like any other address: a LAN host where friends all
    connect from one machine raises ``connections_per_address`` instead.
    """

    limit: int
    counts: Counter[str] = field(default_factory=Counter)

    def acquire(self, address: str) -> bool:
        """Count one more connection from ``address``; False (nothing counted) if over."""
        if self.limit > 0 and self.counts[address] >= self.limit:
            return False
        self.counts[address] += 1
        return True

    def release(self, address: str) -> None:
        """A connection from ``address`` closed."""
        left = self.counts[address] - 1
        if left > 0:
            self.counts[address] = left
        else:
            self.counts.pop(address, None)

    def __len__(self) -> int:
        return sum(self.counts.values())


class Backoff:
    """Failures per key (an address, or one key for everyone), and how long a key must
    wait before its next try is even looked at: beyond ``free`` failures, ``base``
    seconds, doubling with each further failure up to ``cap``. A key with no failure
    for ``forget`` seconds starts again from nothing; at most ``max_keys`` keys are
    kept (the least recently failed are forgotten first), so memory is bounded.

    Why back-off rather than a fixed number of tries: a person who mistypes waits a
    second; a guesser gets about ``forget / cap`` tries an hour once the wait is at its
    cap, whichever connection or address it comes from.

    >>> b = Backoff(base=1.0, cap=8.0, forget=100.0)
    >>> b.wait("a", 0.0)
    0.0
    >>> for t in (0.0, 1.0, 3.0): b.failed("a", t)
    >>> b.wait("a", 3.0), b.wait("a", 6.0), b.wait("a", 7.0), b.wait("b", 3.0)
    (4.0, 1.0, 0.0, 0.0)
    >>> b.wait("a", 200.0), b.failures("a", 200.0)
    (0.0, 0)
    """

    __slots__ = ("_keys", "base", "cap", "forget", "free", "max_keys")

    def __init__(
        self,
        base: float,
        cap: float,
        forget: float,
        free: int = 0,
        max_keys: int = 10_000,
    ) -> None:
        self.base = base
        self.cap = cap
        self.forget = forget
        self.free = free
        self.max_keys = max_keys
        self._keys: dict[str, tuple[int, float]] = {}  #: key -> (failures, last failure)

    def failures(self, key: str, now: float) -> int:
        """Failures counted for ``key`` (0 once forgotten)."""
        entry = self._keys.get(key)
        if entry is None:
            return 0
        if now - entry[1] >= self.forget:
            del self._keys[key]
            return 0
        return entry[0]

    def wait(self, key: str, now: float) -> float:
        """Seconds until ``key`` may try again (0.0: now)."""
        n = self.failures(key, now) - self.free
        if n <= 0:
            return 0.0
        delay = min(self.cap, self.base * 2.0 ** (n - 1))
        return max(0.0, self._keys[key][1] + delay - now)

    def failed(self, key: str, now: float) -> None:
        """Count one failure of ``key`` at ``now``."""
        n = self.failures(key, now) + 1
        self._keys.pop(key, None)
        self._keys[key] = (n, now)  # last in the dict: the most recent
        while len(self._keys) > self.max_keys:
            del self._keys[next(iter(self._keys))]

    def succeeded(self, key: str) -> None:
        """``key`` got it right: forget its failures."""
        self._keys.pop(key, None)


def peer_address(sockaddr: object) -> str:
    """The host part of a socket's peer address (``('127.0.0.1', 5000)`` -> ``127.0.0.1``).

    >>> peer_address(("127.0.0.1", 5000)), peer_address(("::1", 5, 0, 0)), peer_address(None)
    ('127.0.0.1', '::1', '?')
    """
    if isinstance(sockaddr, tuple) and sockaddr:
        return str(sockaddr[0])
    if isinstance(sockaddr, str):
        return sockaddr
    return "?"


def address_key(address: str, ipv6_prefix: int = 64, keep: Collection[str] = ()) -> str:
    """The address a peer's budgets are kept under: an IPv6 address's network of
    ``ipv6_prefix`` bits, since one host (a LAN's /64 given by SLAAC, a privacy address
    each minute) has as many addresses of its prefix as it likes; an IPv4 address, and an
    IPv4-mapped IPv6 one, as the IPv4 address. Loopback and the addresses in ``keep`` (the
    trusted, operator and proxy addresses, which settings name one by one) stay as they
    are, as does anything that is no address.

    >>> address_key("2001:db8:1:2:aaaa::1"), address_key("2001:db8:1:2:bbbb::2")
    ('2001:db8:1:2::/64', '2001:db8:1:2::/64')
    >>> address_key("2001:db8:1:2:aaaa::1", 48), address_key("2001:db8::1", 128)
    ('2001:db8:1::/48', '2001:db8::1')
    >>> address_key("::ffff:192.0.2.7"), address_key("192.0.2.7"), address_key("::1")
    ('192.0.2.7', '192.0.2.7', '::1')
    >>> address_key("fe80::1%eth0"), address_key("2001:db8::9", keep=["2001:db8::9"])
    ('fe80::/64', '2001:db8::9')
    >>> address_key("proxied:127.0.0.1"), address_key("?")
    ('proxied:127.0.0.1', '?')
    """
    if address in keep:
        return address
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if not isinstance(ip, ipaddress.IPv6Address):
        return address
    if ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    if ip.is_loopback or ipv6_prefix >= 128:
        return address
    bits = max(0, ipv6_prefix)
    network = ipaddress.IPv6Network((int(ip) >> (128 - bits) << (128 - bits), bits))
    return str(network)


# --------------------------------------------------------------- cleaning
_NAME_PUNCT = set("_-.")


class NameError_(ValueError):
    """A name that cannot be used, with the reason in words."""


def clean_text(text: str, max_chars: int) -> str:
    """Talk and notices as they may be stored and relayed: no control or format characters
    (so nobody can move another terminal's cursor, recolour it or flip its text direction),
    whitespace runs collapsed to one space, at most ``max_chars`` characters.

    >>> clean_text("hi\\x1b[31m there\\t\\n  you\\u202e", 40)
    'hi[31m there you'
    >>> clean_text("a" * 10, 4)
    'aaaa'
    """
    kept = []
    for ch in unicodedata.normalize("NFC", str(text)):
        cat = unicodedata.category(ch)
        if ch.isspace():
            kept.append(" ")
        elif cat[0] == "C":  # Cc control, Cf format (bidi overrides), Cs, Co, Cn
            continue
        else:
            kept.append(ch)
    return " ".join("".join(kept).split())[:max_chars].rstrip()


def clean_name(name: str, max_chars: int = 24) -> str:
    """A player name as it is shown: NFKC-normalised (so look-alike full-width letters fold
    onto ASCII), letters, digits and ``_ - .`` only, 1..``max_chars`` characters,
    starting with a letter or digit. Raises ``NameError_`` with the reason otherwise.

    >>> clean_name("  Ann_Lee ")
    'Ann_Lee'
    >>> clean_name("Ａｎｎ")
    'Ann'
    >>> clean_name("a b")
    Traceback (most recent call last):
    ...
    server.core.limits.NameError_: a name may hold only letters, digits and _ - . (not ' ')
    """
    text = unicodedata.normalize("NFKC", str(name)).strip()
    if not text:
        raise NameError_("a name cannot be empty")
    if len(text) > max_chars:
        raise NameError_(f"a name has at most {max_chars} characters")
    for ch in text:
        if not (ch.isalnum() or ch in _NAME_PUNCT):
            raise NameError_(f"a name may hold only letters, digits and _ - . (not {ch!r})")
    if not text[0].isalnum():
        raise NameError_("a name starts with a letter or a digit")
    return text


def fold_name(name: str) -> str:
    """The key two names collide on: case, width, accents and look-alike letters folded
    (``server.core.namefold``: ``Ann``, ``ANN`` and a Cyrillic ``Аnn`` are one name).

    >>> fold_name("Ann_Lee") == fold_name("ANN_lee") == fold_name("\u0410nn_Lee")
    True
    """
    return name_key(name)
