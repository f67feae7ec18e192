"""One hand to a person: who has been shown which seat's hand in the current game.

The rule, as the protocol states it: *once a game is dealt, a seat can be taken
(by ``join`` or ``resume``) only by a name, a connection and an address that have
been shown no other seat's hand in that game; your own seat is always yours to
take back, and a resume with the seat's token is not held to the address.*

Why each of the three:

- the *name*: a player who leaves his seat mid-game must not sit down at a bot's
  seat, read its hand and come back to his own (seat hopping);
- the *connection*: claiming a second name on the same connection is the same
  hop under another name;
- the *address*: a second connection from the same machine with a second name is
  the same person as far as the server can ever tell. It is the one rule that can
  refuse an honest stranger (friends behind one home router), so it holds only for
  taking over a seat mid-game, never for your own seat or a resume by token, and
  ``ServerConfig.one_hand_per_address`` turns it off for a LAN of strangers.

Seats taken before the deal are not limited: everyone at a table is shown his
hand at the deal, and bots run from one machine sit down that way. What the
server cannot see (two names from two addresses, a token handed to a friend) is
collusion, as a shared screen would be; the rule closes every way one connection,
name or machine could be shown two hands.

>>> class Conn:
...     def __init__(self, name, peer): self.name, self.peer = name, peer
>>> w = Witnesses(by_address=True)
>>> ann, bob = Conn("ann", "10.0.0.1"), Conn("bob", "10.0.0.1")
>>> w.shown(ann, 0)
>>> w.refusal(ann, 0, by_token=False) is None  # her own seat
True
>>> w.refusal(ann, 1, by_token=False)
'your name has been shown the hand of seat 0 in this game'
>>> w.refusal(bob, 1, by_token=False)
'your address has been shown the hand of seat 0 in this game'
>>> w.refusal(Conn("bob", "10.0.0.2"), 1, by_token=False) is None
True
"""

from __future__ import annotations

import contextlib
import weakref
from typing import Any

from server.core.limits import fold_name


class Witnesses:
    """The seats whose hands each name, connection and address has been shown this game."""

    def __init__(self, *, by_address: bool) -> None:
        self.by_address = by_address
        self._names: dict[str, int] = {}  #: folded name -> its seat
        #: connection -> its seat (weak: a closed connection is forgotten with it)
        self._connections: weakref.WeakKeyDictionary[Any, int] = weakref.WeakKeyDictionary()
        self._addresses: dict[str, set[int]] = {}

    def clear(self) -> None:
        """A new game: nobody has been shown anything yet."""
        self._names.clear()
        self._connections.clear()
        self._addresses.clear()

    def remember_name(self, name: str, seat: int) -> None:
        """``name`` holds ``seat`` (the deal, or a game rebuilt after a restart)."""
        self._names.setdefault(fold_name(name), seat)

    def shown(self, member: Any, seat: int) -> None:
        """``member`` (a connection) is being shown ``seat``'s hand."""
        name = getattr(member, "name", None)
        if name is not None:
            self.remember_name(name, seat)
        with contextlib.suppress(TypeError):  # not weakly referable: not a connection
            self._connections.setdefault(member, seat)
        peer = _address(member)
        if peer is not None:
            self._addresses.setdefault(peer, set()).add(seat)

    def refusal(self, member: Any, seat: int, *, by_token: bool) -> str | None:
        """Why ``member`` may not be shown ``seat``'s hand now (None: it may)."""
        name = getattr(member, "name", None)
        own = None if name is None else self._names.get(fold_name(name))
        if own is not None and own != seat:
            return f"your name has been shown the hand of seat {own} in this game"
        try:
            held = self._connections.get(member)
        except TypeError:
            held = None
        if held is not None and held != seat:
            return f"this connection has been shown the hand of seat {held} in this game"
        peer = _address(member)
        if self.by_address and not by_token and own is None and peer is not None:
            others = self._addresses.get(peer, set()) - {seat}
            if others:
                return f"your address has been shown the hand of seat {min(others)} in this game"
        return None

    def seat_for(self, member: Any) -> int | None:
        """The seat ``member``'s name was shown this game, if any (where ``join`` with no
        seat puts it back)."""
        name = getattr(member, "name", None)
        return None if name is None else self._names.get(fold_name(name))


def _address(member: Any) -> str | None:
    peer = getattr(member, "peer", None)
    return peer if isinstance(peer, str) and peer not in ("", "?") else None
