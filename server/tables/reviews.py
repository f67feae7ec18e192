"""A shared review: the people at a table step through its finished game together.

Kept small on purpose. Each client holds the game's record (``get_record``) and draws
the board at a step itself; the server only relays steps. Anyone at the table (seated or
watching, with a name) may lead (``review``: "I am at step N"); anyone there may follow
one leader (``follow NAME``), and is then sent that leader's every step
(``reviewing``), or step away (``follow`` with no name) and back. A leader's first step
is sent to everyone at the table, so that they know whom they could follow. Talk goes on
as ever. A leader's steps are bounded per connection (``review_steps_per_second``,
``review_steps_burst``); a step over the rate is refused, not queued.

A review belongs to the table's last game: when the next game starts, the old review is
over (a step asked for then is refused: a running game's deal is secret).
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import trio

from protocol import messages as m
from protocol.describe import BOT, seat_name, seat_words
from protocol.fields import RUNNING
from protocol.lookback_text import review_step
from protocol.words import action_words
from server.core import wire
from server.core.config import ServerConfig
from server.core.limits import TokenBucket

if TYPE_CHECKING:
    from server.core.commands import Member
    from server.tables.table import Table


class Refused(Exception):
    """A review request refused: ``code`` (a wire error code) and why."""

    def __init__(self, code: str, text: str) -> None:
        super().__init__(text)
        self.code = code


@dataclass(slots=True)
class TableReview:
    """The reviews of one table's game: each leader's step, and who follows whom."""

    game: int
    total: int
    leaders: dict[str, int] = field(default_factory=dict)  #: leader's name -> his step
    #: follower -> the leader's name (the members, compared by identity)
    followers: list[tuple[Member, str]] = field(default_factory=list)


class Reviews:
    """Every table's review, and each leading connection's rate."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self._tables: dict[int, TableReview] = {}
        self._rates: weakref.WeakKeyDictionary[Any, TokenBucket] = weakref.WeakKeyDictionary()

    def _review(self, table: Table, member: Member) -> TableReview:
        """The review of ``table``'s finished game, for a member of it; ``Refused`` else."""
        if not table.seating.is_member(member):
            raise Refused("not_member", "join or watch the table to review its game")
        if table.game is None:
            raise Refused("no_record", "no game has been played here")
        if table.state in RUNNING:
            raise Refused("bad_state", "a game is running: review it once it is over")
        review = self._tables.get(table.id)
        if review is None or review.game != table.game_no:
            total = len(table.final_record()["actions"])
            review = self._tables[table.id] = TableReview(table.game_no, total)
        return review

    def lead(self, table: Table, member: Member, step: int) -> str:
        """``member`` leads his review at ``step``: sent to his followers (and, at his
        first step, to everyone at the table). The reply's words: the step, said to the
        leader once (a person at ``nc`` reads one line a step, not the step and an ok)."""
        name = member.name
        if name is None:
            raise Refused("need_name", "claim a name to lead a review")
        review = self._review(table, member)
        if step > review.total:
            raise Refused("bad_message", f"the game has steps 0 to {review.total}")
        rate = self._rates.get(member)
        if rate is None:
            config = self.config
            rate = self._rates[member] = TokenBucket(
                config.review_steps_per_second, config.review_steps_burst
            )
        if not rate.take(trio.current_time()):
            raise Refused("rate_limited", "you are stepping too fast")
        first = name not in review.leaders
        review.leaders[name] = step
        message = self._step(table, review, name)
        if first:
            for other in table.members():
                other.deliver(message)
            return review_step(message)
        review.followers = [(f, led) for f, led in review.followers
                            if table.seating.is_member(f)]  # fmt: skip
        for follower, led in review.followers:
            if led == name:
                follower.deliver(message)
        return review_step(message)

    def follow(self, table: Table, member: Member, leader: str | None) -> str:
        """``member`` follows ``leader`` (None: nobody); sent his step now. The reply."""
        review = self._review(table, member)
        review.followers = [(f, led) for f, led in review.followers if f is not member]
        if leader is None:
            return "you follow nobody; 'follow NAME' to follow again"
        found = next((n for n in review.leaders if n.casefold() == leader.casefold()), None)
        if found is None:
            raise Refused("no_player", f"{leader} leads no review here")
        review.followers.append((member, found))
        member.deliver(self._step(table, review, found))
        return f"you follow {found}'s review"

    def forget(self, table_id: int) -> None:
        """The table closed: its review goes with it."""
        self._tables.pop(table_id, None)

    @staticmethod
    def _step(table: Table, review: TableReview, leader: str) -> m.Reviewing:
        step = review.leaders[leader]
        return m.Reviewing(wire.table_word(table.id), review.game, leader, step, review.total,
                           said=_said(table, step))  # fmt: skip


def _said(table: Table, step: int) -> str:
    """Step ``step``'s action in words: who did what (empty at the deal)."""
    if step == 0:
        return ""
    seat, notation = table.final_record()["actions"][step - 1]
    players = table.players()
    # A seat empty now was a bot's at the end (every seat of a game is played), named as
    # the log names it (``server.tables.delivery``).
    who = seat_name(players[seat] or BOT, seat) if 0 <= seat < len(players) else None
    return f"step {step}: {who or seat_words(seat)} {action_words(notation)}"
