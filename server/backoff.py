"""Wrong secrets per address, with exponential back-off: guessing a name's secret is slow.

Why per address and not per name: a throttle per *name* would let anyone lock
an owner out of his own name by guessing wrong on purpose (the owner's right
secret would be refused with the spammer's). Per address, a guesser slows only
himself; the owner, coming from his own address, is never made to wait for
someone else's mistakes.

The first ``free`` wrong secrets from an address cost nothing; after that each
one makes the address wait ``base`` seconds, doubling with every further one up
to ``most``. A try during the wait is refused at once, before any hashing, so a
guesser in a tight loop costs the server one dictionary look-up a try. An
address that sends no wrong secret for ``forget`` seconds starts afresh (a
person who mistyped last week is not in back-off today).

Pure arithmetic over a clock the caller passes in, like ``server.limits``:

>>> t = BackoffThrottle(free=2, base=1.0, most=8.0, forget=60.0)
>>> t.failed("a", 0.0); t.failed("a", 0.0); t.wait("a", 0.0)
0.0
>>> t.failed("a", 0.0); t.wait("a", 0.0), t.wait("b", 0.0)
(1.0, 0.0)
>>> t.failed("a", 1.0); t.failed("a", 3.0); t.wait("a", 3.0)
4.0
>>> t.failed("a", 7.0); t.failed("a", 15.0); t.wait("a", 15.0)
8.0
>>> t.wait("a", 15.0 + 8.0 + 60.0), len(t)
(0.0, 0)
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True)
class _Address:
    failures: int = 0
    last: float = 0.0  #: when the last wrong secret came
    until: float = 0.0  #: no try is taken before this


class BackoffThrottle:
    """Wrong tries per address; ``wait`` says how long an address must still wait."""

    def __init__(self, *, free: int, base: float, most: float, forget: float) -> None:
        if free < 0 or base < 0 or most < base or forget <= 0:
            raise ValueError("a back-off needs free >= 0, 0 <= base <= most and forget > 0")
        self.free, self.base, self.most, self.forget = free, base, most, forget
        self._addresses: dict[str, _Address] = {}

    def __len__(self) -> int:
        return len(self._addresses)

    def wait(self, address: str, now: float) -> float:
        """Seconds until ``address`` may try a secret again (0.0: it may now)."""
        entry = self._addresses.get(address)
        if entry is None:
            return 0.0
        if now - max(entry.last, entry.until) >= self.forget:
            del self._addresses[address]
            return 0.0
        return max(0.0, entry.until - now)

    def failed(self, address: str, now: float) -> None:
        """``address`` gave a wrong secret at ``now``."""
        self.wait(address, now)  # forget a stale entry first
        entry = self._addresses.get(address)
        if entry is None:
            entry = self._addresses[address] = _Address()
            if len(self._addresses) > 1024:
                self._sweep(now)
        entry.failures += 1
        entry.last = now
        over = entry.failures - self.free
        if over > 0:
            entry.until = now + min(self.base * 2 ** min(over - 1, 62), self.most)

    def _sweep(self, now: float) -> None:
        """Drop every address that has been quiet for ``forget``: memory stays bounded by
        the addresses that guessed wrong recently."""
        stale = [a for a, e in self._addresses.items() if now - max(e.last, e.until) >= self.forget]
        for address in stale:
            self._addresses.pop(address, None)
