"""Who is at a table (``Seating``: its seats, its spectators, and telling each of the
others' comings and goings), and one hand to a person (``Witnesses``): who has been
shown which seat's hand in the current game.

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
'your name has been shown the hand of seat 1 in this game'
>>> w.refusal(bob, 1, by_token=False)
'your address has been shown the hand of seat 1 in this game'
>>> w.refusal(Conn("bob", "10.0.0.2"), 1, by_token=False) is None
True
"""

from __future__ import annotations

import contextlib
import secrets
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import trio

from protocol.describe import seat_words
from server.core import wire
from server.core.commands import Member
from server.core.limits import fold_name
from server.players.accounts import token_hash

#: Spectators' comings and goings remembered per table for ``watch_notice_seconds``.
WATCH_TOLD_MAX = 256


@dataclass(slots=True)
class Seat:
    """A seat: the name holding it (None: free, a server bot plays it) and who is connected."""

    name: str | None = None
    token_hash: bytes | None = None
    member: Member | None = None


class Seating:
    """Who is at one table: its seats, its spectators, who has been shown which hand
    (``witnesses``), and the notices that tell everyone else when one of them comes,
    goes or drops. The table decides who may sit where and stores it; this keeps it.
    """

    def __init__(
        self, table_id: int, seats: int, *, by_address: bool, watch_notice_seconds: float
    ) -> None:
        self.table_id = table_id
        self.seats = [Seat() for _ in range(seats)]
        self.spectators: set[Member] = set()
        #: Who has been shown which seat's hand this game: one hand to a person.
        self.witnesses = Witnesses(by_address=by_address)
        self._notice_seconds = watch_notice_seconds
        #: token -> its seat, for the tokens found since the seats last changed: an action
        #: (every one names its seat's token) then costs a lookup, not a hash and a
        #: comparison per seat. Only tokens that hold a seat are kept: at most one a seat.
        self._found: dict[str, int] = {}
        #: (came|went, folded name) -> when it was last announced (``watcher``)
        self._watch_told: dict[tuple[str, str], float] = {}
        #: The seats whose players asked to play the next game (``server.tables.again``);
        #: a seat that changes hands, or a new deal, forgets it.
        self.again: set[int] = set()
        #: Counts the seats changing hands (``hold``, ``sit``, ``free``): who reads the
        #: holders' names keeps them until it moves (``server.tables.delivery``).
        self.changes = 0
        #: Whether a game runs (the table says): a presence is worded by it (a seat left
        #: while a game runs is a bot's; while none does, nobody's).
        self.running: Callable[[], bool] = lambda: False

    # ------------------------------------------------------------ queries
    def members(self) -> list[Member]:
        """Everyone at the table: seated connections, then spectators."""
        out = [s.member for s in self.seats if s.member is not None]
        out.extend(self.spectators)
        return out

    def seat_of(self, member: Member) -> int | None:
        """The seat ``member``'s connection holds (None: none)."""
        for i, s in enumerate(self.seats):
            if s.member is member:
                return i
        return None

    def seat_for_token(self, token: object) -> int | None:
        """The seat whose token this is (None: no seat's; compared in constant time)."""
        if not isinstance(token, str) or not token:
            return None
        seat = self._found.get(token)
        if seat is not None:
            return seat
        h = token_hash(token)
        for i, s in enumerate(self.seats):
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, h):
                self._found[token] = i
                return i
        return None

    def is_member(self, member: Member) -> bool:
        """Whether ``member`` is at this table: in a seat or watching."""
        return member in self.spectators or self.seat_of(member) is not None

    def all_named(self) -> bool:
        return all(s.name is not None for s in self.seats)

    def none_named(self) -> bool:
        return all(s.name is None for s in self.seats)

    # ------------------------------------------------------------ changes
    def hold(self, seat: int, name: str | None, th: bytes | None) -> None:
        """``seat`` is held by ``name`` with token hash ``th`` (a restore: nobody connected)."""
        self._found.clear()
        self.changes += 1
        self.seats[seat] = Seat(name, th)

    def sit(self, seat: int, name: str, th: bytes, member: Member) -> None:
        """``member`` sits in ``seat`` as ``name`` (stored by the table first)."""
        self.detach(member)
        self._found.clear()  # the seat's old token holds it no more
        if self.seats[seat].name != name:
            self.again.discard(seat)
        self.changes += 1
        self.seats[seat] = Seat(name, th, member)

    def connect(self, seat: int, member: Member) -> None:
        """``member`` resumes ``seat`` (its holder and token stay)."""
        self.detach(member)
        self.seats[seat].member = member

    def free(self, seat: int) -> None:
        """``seat`` is empty: a server bot plays it."""
        self._found.clear()
        self.again.discard(seat)
        self.changes += 1
        self.seats[seat] = Seat()

    def unseat(self, seat: int) -> None:
        """The game master unseated ``seat``'s player: he is told so and keeps watching."""
        member = self.seats[seat].member
        if member is not None:
            text = f"the game master unseated you from table {self.table_id}"
            member.deliver(wire.notice(text, table=self.table_id))
            self.spectators.add(member)
        self.free(seat)

    def watch(self, member: Member) -> bool:
        """``member`` watches from now on; whether he was not watching already."""
        came = member not in self.spectators
        self.detach(member)
        self.spectators.add(member)
        return came

    def stop_watching(self, member: Member) -> bool:
        """``member`` no longer watches; whether he was."""
        if member not in self.spectators:
            return False
        self.spectators.discard(member)
        return True

    def detach(self, member: Member) -> None:
        """``member``'s connection is no longer at the table (his seat stays his)."""
        for s in self.seats:
            if s.member is member:
                s.member = None
        self.spectators.discard(member)

    def dropped(self, member: Member) -> None:
        """A connection closed: its seats stay (their clocks run) and the table is told."""
        gone = [i for i, s in enumerate(self.seats) if s.member is member]
        watched = member in self.spectators
        self.detach(member)
        for seat in gone:
            self.presence(seat, "dropped")
        if watched:
            self.watcher(member, "went")

    # ------------------------------------------------------------ notices
    def notice_all(self, text: str) -> None:
        """Tell everyone at the table ``text``."""
        msg = wire.notice(text, table=self.table_id)
        for m in self.members():
            m.deliver(msg)

    def presence(self, seat: int, what: str) -> None:
        """Tell everyone at the table but the seat's own connection that its player
        ``left``, ``dropped`` or is ``back`` (not numbered: not part of the game)."""
        s = self.seats[seat]
        if s.name is None:
            return
        msg = wire.presence(self.table_id, seat, s.name, what, playing=self.running())
        for m in self.members():
            if m is not s.member:
                m.deliver(msg)

    def watcher(self, member: Member, what: str) -> None:
        """Tell everyone else at the table that ``member`` began (``came``) or stopped
        (``went``) watching. A name is announced coming, or going, at most once in
        ``watch_notice_seconds`` (spectators without a name share one allowance), so
        that watching and leaving in a loop cannot flood a table with notices."""
        name = member.name
        key = (what, "" if name is None else fold_name(name))
        now = trio.current_time()
        last = self._watch_told.get(key)
        if last is not None and now - last < self._notice_seconds:
            return
        if len(self._watch_told) >= WATCH_TOLD_MAX:
            self._watch_told.clear()  # bounded: forget them all, the worst is a repeat
        self._watch_told[key] = now
        msg = wire.watcher(self.table_id, what, name, len(self.spectators))
        for m in self.members():
            if m is not member:
                m.deliver(msg)

    def remember_shown(self, shown: dict[str, int]) -> None:
        """A game rebuilt after a restart: each holder was shown his seat's hand, and so
        was each name in ``shown`` (who held a seat and left)."""
        for i, s in enumerate(self.seats):
            if s.name is not None:
                self.witnesses.remember_name(s.name, i)
        for name, seat in shown.items():
            self.witnesses.remember_name(name, seat)

    def remember_deal(self) -> None:
        """A new game is dealt: each seat's holder, and its connection, is shown its hand."""
        self.witnesses.clear()
        self.again.clear()
        for i, s in enumerate(self.seats):
            if s.name is not None:
                self.witnesses.remember_name(s.name, i)
            if s.member is not None:
                self.witnesses.shown(s.member, i)


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
            return f"your name has been shown the hand of {seat_words(own)} in this game"
        try:
            held = self._connections.get(member)
        except TypeError:
            held = None
        if held is not None and held != seat:
            return f"this connection has been shown the hand of {seat_words(held)} in this game"
        peer = _address(member)
        if self.by_address and not by_token and own is None and peer is not None:
            others = self._addresses.get(peer, set()) - {seat}
            if others:
                seen = seat_words(min(others))
                return f"your address has been shown the hand of {seen} in this game"
        return None

    def seat_for(self, member: Any) -> int | None:
        """The seat ``member``'s name was shown this game, if any (where ``join`` with no
        seat puts it back)."""
        name = getattr(member, "name", None)
        return None if name is None else self._names.get(fold_name(name))


def _address(member: Any) -> str | None:
    peer = getattr(member, "peer", None)
    return peer if isinstance(peer, str) and peer not in ("", "?") else None
