"""The state of one abbott hand, and of the match around it.

Every rule of the game reads these two objects and changes them only through their
methods: ``HandState`` (the grid, the pieces, what each seat has taken, whose turn
it is, the alliance, votes and concessions) and ``MatchState`` (the totals over the
hands, the dealer, the packs still to come). Their fields are the whole of what an
action changes, so the game is copied, snapshotted and rebuilt from a view through
them alone.

>>> from engine.cards import FULL_PACK
>>> state = HandState.dealt(list(FULL_PACK), cells=25, pieces=[0, 24], first=1)
>>> str(state.move_piece(1, 4)), state.pieces, state.collections, state.stall
('6C', [0, 4], [[], [Card.parse('6C')]], 0)
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from engine.cards import FULL_PACK, Card, shuffled
from engine.poker import CARD_BIT, value_of_mask

from .dealing import PACK
from .scoring import game_winner


def proxy_of(alliance: tuple[int, int] | None, power: int | None) -> tuple[int, int] | None:
    """``(partner, power holder)``: whose piece the 16-point power moves, and who moves it."""
    if power is None or alliance is None:
        return None
    chooser, partner = alliance
    return (partner if power == chooser else chooser, power)


def actor_of(turn: int, proxy: tuple[int, int] | None) -> int:
    """The seat that acts for ``turn``'s piece: its owner, or the power holder."""
    if proxy is not None and turn == proxy[0]:
        return proxy[1]
    return turn


@dataclass(slots=True)
class HandState:
    """One hand: the board and the seats' takings, the turn, the alliance, the votes.

    ``grid`` holds the card on each square (``None`` once taken) and ``grid_bits``
    the same cards as ``engine.poker.CARD_BIT`` bits (0 once taken), ``grid_mask``
    their union; ``masks`` and ``values`` are each seat's takings as bits and as a
    poker hand's value. ``turns_taken`` counts each seat's turns this hand, missed
    ones included (its round is this + 1). ``proxy`` is ``(partner, power holder)``
    while a 16-point power moves the partner's piece."""

    grid: list[Card | None]
    grid_bits: list[int]
    grid_mask: int
    #: The cards not dealt this hand (the pack's order, then any a short deck left out).
    unused: list[Card]
    pieces: list[int]
    collections: list[list[Card]]
    masks: list[int]
    values: list[int]
    turn: int
    #: The seat that acts for the piece to move: its owner, or the power holder (kept
    #: with the turn and the proxy, which only this class changes: it is read at every
    #: action, by the game's ``to_act``).
    actor: int
    turns_taken: list[int]
    alliance: tuple[int, int] | None = None
    power: int | None = None
    proxy: tuple[int, int] | None = None
    votes: list[int] = field(default_factory=list)
    conceded: list[int] = field(default_factory=list)
    stall: int = 0

    @classmethod
    def dealt(cls, pack: list[Card], cells: int, pieces: list[int], first: int) -> HandState:
        """A new hand: ``pack``'s first ``cells`` cards on the grid, the pieces on their
        start squares, ``first`` to move."""
        grid_bits = [CARD_BIT[str(c)] for c in pack[:cells]]
        unused = list(pack[cells:])
        if len(pack) < PACK:
            given = set(pack)
            unused += [c for c in FULL_PACK if c not in given]
        n = len(pieces)
        return cls(
            grid=list(pack[:cells]),
            grid_bits=grid_bits,
            grid_mask=sum(grid_bits),
            unused=unused,
            pieces=list(pieces),
            collections=[[] for _ in range(n)],
            masks=[0] * n,
            values=[0] * n,
            turn=first,
            actor=first,
            turns_taken=[0] * n,
        )

    def copy(self) -> HandState:
        return HandState(
            list(self.grid),
            list(self.grid_bits),
            self.grid_mask,
            list(self.unused),
            list(self.pieces),
            [list(c) for c in self.collections],
            list(self.masks),
            list(self.values),
            self.turn,
            self.actor,
            list(self.turns_taken),
            self.alliance,
            self.power,
            self.proxy,
            list(self.votes),
            list(self.conceded),
            self.stall,
        )

    @property
    def seats(self) -> int:
        return len(self.pieces)

    @property
    def round(self) -> int:
        """The round of the turn in progress (1 is each seat's first turn)."""
        return self.turns_taken[self.turn] + 1

    # ------------------------------------------------------------ changes
    def take(self, owner: int, sq: int) -> Card:
        """``owner`` takes the card on ``sq``: a card taken starts the stall count
        again, and a vote agrees to end on the cards as they were, so votes lapse."""
        card = self.grid[sq]
        assert card is not None
        bit = self.grid_bits[sq]
        self.grid[sq] = None
        self.grid_bits[sq] = 0
        self.grid_mask ^= bit
        self.collections[owner].append(card)
        self.masks[owner] |= bit
        self.values[owner] = value_of_mask(self.masks[owner])
        self.stall = 0
        self.votes.clear()
        return card

    def move_piece(self, mover: int, dest: int) -> Card | None:
        """Move ``mover``'s piece to ``dest``, using up its turn, and take the card there;
        ``None``: the square was blank, and the stall count grows."""
        self.pieces[mover] = dest
        self.turns_taken[mover] += 1
        if self.grid[dest] is None:
            self.stall += 1
            return None
        return self.take(mover, dest)

    def miss_turn(self, mover: int, dealer: int) -> Card | None:
        """``mover``'s piece cannot move: the turn counts as his all the same. The dealer
        on his first turn takes the card under his piece; ``None``: no card is taken, and
        the stall count grows."""
        self.turns_taken[mover] += 1
        sq = self.pieces[mover]
        if mover == dealer and self.turns_taken[mover] == 1 and self.grid[sq] is not None:
            return self.take(mover, sq)
        self.stall += 1
        return None

    def pass_turn(self) -> int:
        """The turn passes left; returns the seat now to move."""
        self.turn = turn = (self.turn + 1) % len(self.pieces)
        self.actor = turn if self.proxy is None else actor_of(turn, self.proxy)
        return turn

    def ally(self, chooser: int, partner: int, power: int | None) -> None:
        """The hand's one alliance; ``power``, if any, moves the other partner's piece."""
        self.alliance = (chooser, partner)
        self.power = power
        self.proxy = proxy_of(self.alliance, power)
        self.actor = actor_of(self.turn, self.proxy)

    def vote(self, seat: int) -> None:
        self.votes.append(seat)

    def concede(self, seat: int) -> None:
        self.conceded.append(seat)


@dataclass(slots=True)
class MatchState:
    """The match over its hands: the totals, each hand's points, who deals, the fixed
    packs still to come (a test's deck; later hands shuffle), and how it ended."""

    scores: list[int]
    dealer: int
    hand_scores: list[list[int]] = field(default_factory=list)
    packs: list[list[Card]] = field(default_factory=list)
    hand_number: int = 0
    winner: int | None = None
    over: bool = False

    def copy(self) -> MatchState:
        """The packs are shared (each is taken whole, never changed), not their list."""
        return MatchState(
            list(self.scores),
            self.dealer,
            [list(h) for h in self.hand_scores],
            list(self.packs),
            self.hand_number,
            self.winner,
            self.over,
        )

    def next_pack(self, rng: random.Random) -> list[Card]:
        """The next hand's pack, counting the hand: a fixed one, or a shuffle."""
        self.hand_number += 1
        return self.packs.pop(0) if self.packs else shuffled(FULL_PACK, rng)

    def score(self, points: list[int], target: int) -> None:
        """Add a hand's points: the game is over once a seat alone leads at ``target``."""
        for s, p in enumerate(points):
            self.scores[s] += p
        self.hand_scores.append(points)
        self.winner = game_winner(self.scores, target)
        self.over = self.winner is not None

    def pass_deal(self) -> None:
        """The deal passes left."""
        self.dealer = (self.dealer + 1) % len(self.scores)
