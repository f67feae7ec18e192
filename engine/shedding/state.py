"""The state of one hand of a shedding game, and of the match around it.

Every rule of the family reads and changes these two objects and nothing else:
``HandState`` (the cards, whose turn it is, what is owed) and ``MatchState`` (the
totals over the hands). Their fields are the whole of what an action changes, so
the game is copied, snapshotted and rebuilt from a view through them alone, and
the moves that touch several fields at once (a draw that reshuffles the pile, a
turn passing over finished seats and used-up misses) are methods here, written once.

>>> import random
>>> state = HandState.dealt(dealer=0, hands=[[1, 2], [3, 4]], stock=[5, 6], pile=[7])
>>> state.turn, state.draw_cards(3, random.Random(0)), state.stock
(1, [6, 5], [])
>>> Pending(PendingKind.PICKUP, 4, [0, 13]).to_data()
{'kind': 'pickup', 'count': 4, 'cards': [0, 13]}
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.events import Event
from engine.shedding.codes import TEXT
from engine.shedding.kinds import Awaiting as Awaiting
from engine.shedding.kinds import PendingKind as PendingKind

if TYPE_CHECKING:  # the events' declarations read this module's enums
    from engine.shedding import vocabulary as v


@dataclass(slots=True)
class Pending:
    """A waiting effect: its kind, its count, the cards that made a pick-up (``None``
    for the other kinds) and the rank that passes a skip or a miss on."""

    kind: PendingKind
    count: int
    cards: list[int] | None = None
    rank: int | None = None

    def copy(self) -> Pending:
        return Pending(
            self.kind, self.count, None if self.cards is None else list(self.cards), self.rank
        )

    def to_data(self) -> dict[str, Any]:
        """As plain data, with only the keys its kind has (the snapshot's layout)."""
        out: dict[str, Any] = {"kind": str(self.kind), "count": self.count}
        if self.cards is not None:
            out["cards"] = list(self.cards)
        if self.rank is not None:
            out["rank"] = self.rank
        return out

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Pending:
        cards = data.get("cards")
        return cls(
            PendingKind(data["kind"]),
            data["count"],
            None if cards is None else list(cards),
            data.get("rank"),
        )


def texts(cards: list[int] | tuple[int, ...]) -> list[str]:
    """The cards' names, as views and events carry them."""
    return [TEXT[c] for c in cards]


@dataclass(slots=True)
class MatchState:
    """The match over its hands: each seat's total, each hand's points, how far it is."""

    total_scores: list[int]
    hand_scores: list[list[int]] = field(default_factory=list)
    hand_number: int = 0
    game_over: bool = False

    def copy(self) -> MatchState:
        return MatchState(
            list(self.total_scores),
            [list(h) for h in self.hand_scores],
            self.hand_number,
            self.game_over,
        )


@dataclass(slots=True)
class HandState:
    """One hand: the cards (as codes), the turn and whatever the next player owes.

    ``stock[-1]`` is the next card drawn and ``pile[-1]`` the top. ``awaiting`` is
    what the player to act owes first (a suit, or the card he drew played or
    passed); ``pending`` the effect a power card left for the player to act;
    ``after_suit`` who plays once the suit is named and ``going_on`` whether its
    namer goes on instead; ``owing`` a seat that left itself one card unannounced;
    ``caller`` who may still make the cards call; ``idle`` turns in a row with no
    card played or drawn; ``turns`` the turns of this hand (for its limit)."""

    dealer: int
    deck_size: int
    hands: list[list[int]]
    stock: list[int]
    pile: list[int]
    turn: int
    direction: int = 1
    nominated: int | None = None
    pending: Pending | None = None
    awaiting: Awaiting | None = None
    drawn: list[int] = field(default_factory=list)
    after_suit: int | None = None
    going_on: bool = False
    finished: list[int] = field(default_factory=list)
    announced: set[int] = field(default_factory=set)
    owing: int | None = None
    caller: int | None = None
    misses: list[int] = field(default_factory=list)
    idle: int = 0
    turns: int = 0
    hand_over: bool = False
    hand_points: list[int] = field(default_factory=list)

    @classmethod
    def dealt(
        cls,
        dealer: int,
        hands: list[list[int]],
        stock: list[int],
        pile: list[int],
        deck_size: int = 0,
    ) -> HandState:
        """A hand as dealt: the player left of the dealer to act, nothing owed."""
        n = len(hands)
        return cls(
            dealer=dealer,
            deck_size=deck_size,
            hands=hands,
            stock=stock,
            pile=pile,
            turn=(dealer + 1) % n,
            misses=[0] * n,
            hand_points=[0] * n,
        )

    def copy(self) -> HandState:
        """An independent copy: every list, set and pending effect copied."""
        pend = self.pending
        return HandState(
            self.dealer,
            self.deck_size,
            [list(h) for h in self.hands],
            list(self.stock),
            list(self.pile),
            self.turn,
            self.direction,
            self.nominated,
            None if pend is None else pend.copy(),
            self.awaiting,
            list(self.drawn),
            self.after_suit,
            self.going_on,
            list(self.finished),
            set(self.announced),
            self.owing,
            self.caller,
            list(self.misses),
            self.idle,
            self.turns,
            self.hand_over,
            list(self.hand_points),
        )

    # ------------------------------------------------------------ seats
    @property
    def seats(self) -> int:
        return len(self.hands)

    def active(self) -> list[int]:
        """The seats still in the hand."""
        finished = self.finished
        return [s for s in range(len(self.hands)) if s not in finished]

    def next_seat(self, seat: int, steps: int = 1) -> int:
        """The seat ``steps`` turns on, jumping finished seats and using up misses."""
        s = seat
        n = len(self.hands)
        direction = self.direction
        finished = self.finished
        misses = self.misses
        while steps > 0:
            s = (s + direction) % n
            if finished and s in finished:
                continue
            if misses[s] > 0 and s != seat:
                misses[s] -= 1
                continue
            steps -= 1
        return s

    def skipped(self, seat: int, k: int) -> int:
        """The seat skipped last of ``k`` (for the event only: uses up nothing)."""
        s = seat
        n = len(self.hands)
        for _ in range(k):
            s = (s + self.direction) % n
            while s in self.finished:
                s = (s + self.direction) % n
        return s

    def pass_turn(self, seat: int, idle: bool) -> None:
        """The turn passes on from ``seat``; a whole round of idle turns ends the hand."""
        self.awaiting = None
        if self.drawn:
            self.drawn = []
        self.idle = self.idle + 1 if idle else 0
        self.turn = self.next_seat(seat)
        if self.idle >= len(self.hands) - len(self.finished):
            self.hand_over = True  # nobody could play or draw for a whole round

    # ------------------------------------------------------------ cards
    def can_draw(self) -> bool:
        return bool(self.stock) or len(self.pile) > 1

    def draw_cards(self, n: int, rng: random.Random) -> list[int]:
        """Up to ``n`` cards; an empty stock is the pile less its top, shuffled."""
        if n == 1 and self.stock:
            return [self.stock.pop()]  # the common draw
        out: list[int] = []
        for _ in range(n):
            if not self.stock:
                if len(self.pile) <= 1:
                    break
                self.stock = self.pile[:-1]
                del self.pile[:-1]
                rng.shuffle(self.stock)
            out.append(self.stock.pop())
        return out

    def took(self, seat: int, cards: list[int], reason: str) -> Event:
        """Put drawn cards in a hand; the event shows them to the drawer only."""
        hand = self.hands[seat]
        hand.extend(cards)
        if len(hand) != 1:
            self.announced.discard(seat)
            if self.owing == seat:
                self.owing = None
        drew: v.SheddingDrawFields = {"seat": seat, "count": len(cards), "reason": reason}
        shown: dict[int, v.SheddingDrawPrivate] = {seat: {"cards": texts(cards)}}
        return Event("draw", drew, shown)

    def give(self, seat: int, n: int, reason: str, rng: random.Random) -> Event:
        """``seat`` draws ``n`` cards for ``reason``."""
        return self.took(seat, self.draw_cards(n, rng), reason)

    def swap_hands(self, seat: int, announce: bool) -> Event:
        """``seat`` swaps hands with the next seat still in (gamebot's black queen)."""
        n = len(self.hands)
        other = (seat + 1) % n
        while other in self.finished:
            other = (other + 1) % n
        hands = self.hands
        hands[seat], hands[other] = hands[other], hands[seat]
        for s in (seat, other):
            self.announced.discard(s)
        if self.owing in (seat, other):
            self.owing = None
        if len(hands[seat]) == 1 and announce:
            self.owing = seat
        swapped: v.SheddingSwapFields = {"seat": seat, "with": other}
        shown: dict[int, v.SheddingSwapPrivate] = {
            seat: {"hand": texts(hands[seat])},
            other: {"hand": texts(hands[other])},
        }
        return Event("swap", swapped, shown)


__all__ = ["Awaiting", "HandState", "MatchState", "Pending", "PendingKind", "texts"]
