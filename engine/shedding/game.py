"""The shedding rules machine: one ``Game`` that every preset drives with data.

A turn is one or two actions: a play (or a draw, or ``pass`` to accept a skip),
then, after a nominating card, ``suit X``; after a draw the player may play the
drawn card where the table allows it. Power cards only ever change a few pieces
of state: the pending effect on the next player (``pending``), the direction,
the nominated suit, misses owed, and hands (pick-ups, swaps).

``is_legal`` checks a play directly (``_play_reason``) instead of looking it
up in ``legal_actions``: multi-card plays can number thousands, so the listing
is bounded (``MAX_MULTI``) while any valid play typed by a person is accepted.
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any, ClassVar

from engine.actions import Action, Draw, Last, Nominate, Pass, Play
from engine.cards import JOKER, SUIT_NAMES, SUITS, Card, make_deck
from engine.errors import OptionError
from engine.events import Event
from engine.game import Game
from engine.shedding.rules import SCHEMA, compile_powers

#: At most this many multi-card plays are listed by ``legal_actions`` (every
#: single-card play is always listed; ``is_legal`` accepts any valid play).
MAX_MULTI = 64
#: A hand that lasts this many turns is ended as blocked: no game runs forever.
HAND_TURN_LIMIT = 2000

_SUIT_WORD = {"C": "a club", "D": "a diamond", "H": "a heart", "S": "a spade"}


def _names(cards: list[Card] | tuple[Card, ...]) -> str:
    return " ".join(map(str, cards))


class SheddingGame(Game):
    """Switch and its house versions: match suit or rank, power cards, shed your hand."""

    family: ClassVar[str] = "shedding"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 8
    schema: ClassVar = SCHEMA

    # ------------------------------------------------------------ setup
    def _setup(self, dealer: int | None, deck: list[Card] | None) -> None:
        o = self.options
        self.powers, self.stack_on = compile_powers(o)
        big = self.seats > 4 and o["big_table_hand_size"]
        self.hand_size: int = o["big_table_hand_size"] if big else o["hand_size"]
        self.decks: int = o["decks"] or (2 if self.seats > 5 else 1)
        if deck is None and self.seats * self.hand_size + 1 > 52 * self.decks + o["jokers"]:
            raise OptionError(
                "hand_size",
                f"{self.seats} hands of {self.hand_size} do not fit in {self.decks} pack(s)",
            )
        self.total_scores = [0] * self.seats
        self.hand_scores: list[list[int]] = []
        self.hand_number = 0
        self.game_over = False
        first = dealer if dealer is not None else self.rng.randrange(self.seats)
        self._deal(first, deck)

    def _deal(self, dealer: int, deck: list[Card] | None) -> None:
        """Deal a hand: one card at a time from the left of the dealer, then the start card."""
        if deck is None:
            deck = make_deck(self.decks, self.options["jokers"])
            self.rng.shuffle(deck)
        self.deck_size = len(deck)
        self.dealer = dealer
        self.hand_number += 1
        n = self.seats
        self.hands: list[list[Card]] = [[] for _ in range(n)]
        pos = 0
        for _ in range(self.hand_size):
            for k in range(1, n + 1):
                if pos < len(deck):
                    self.hands[(dealer + k) % n].append(deck[pos])
                    pos += 1
        rest = deck[pos:]
        self.stock: list[Card] = rest[::-1]  # the next card to draw is stock[-1]
        self.pile: list[Card] = []
        if self.stock:
            self.pile.append(self.stock.pop())
        if not self.options["start_power"]:
            while self.stock and self.powers[self.pile[-1]].power:
                self.pile.append(self.stock.pop())
        self.turn = (dealer + 1) % n
        self.direction = 1
        self.nominated: str | None = None
        self.pending: dict[str, Any] | None = None
        self.awaiting: str | None = None  # None, "suit" or "drawn"
        self.drawn: list[Card] = []
        self.after_suit: int | None = None  # the next seat once the suit is named
        self.finished: list[int] = []
        self.announced: set[int] = set()
        self.owing: int | None = None
        self.misses = [0] * n
        self.idle = 0
        self.turns = 0
        self.hand_over = False

    # ---------------------------------------------------------- contract
    @property
    def to_act(self) -> int | None:
        return None if self.game_over else self.turn

    @property
    def over(self) -> bool:
        return self.game_over

    @property
    def scores(self) -> list[int]:
        return self.total_scores

    def _active(self) -> list[int]:
        return [s for s in range(self.seats) if s not in self.finished]

    # ----------------------------------------------------------- matching
    @property
    def top(self) -> Card | None:
        return self.pile[-1] if self.pile else None

    def _matches(self, card: Card) -> bool:
        """Whether ``card`` may be laid on the pile now as the first card of a play."""
        if self.powers[card].wild:
            return True
        top = self.top
        if top is None:
            return True
        if self.nominated is not None:
            return card.suit == self.nominated or card.rank == top.rank
        if top.is_joker:
            return True
        return card.suit == top.suit or card.rank == top.rank

    def _mismatch(self, card: Card) -> str:
        top = self.top
        if self.nominated is not None:
            return (
                f"{card} is not {_SUIT_WORD[self.nominated]}, the nominated suit"
                f" ({SUIT_NAMES[self.nominated]})"
            )
        return f"{card} does not match the {top} on the pile"

    def _step(self, prev: Card, nxt: Card, direction: int) -> int | None:
        """Whether ``nxt`` may follow ``prev`` in one play: the run direction, or None."""
        if prev.is_joker or nxt.is_joker:
            return None
        combos = self.options["combos"]
        pp, pn = self.powers[prev], self.powers[nxt]
        if nxt.rank == prev.rank and (
            combos in ("sets", "mixed")
            or (pp.together and pn.together and pp.signature() == pn.signature())
        ):
            return direction
        if combos in ("runs", "mixed") and nxt.suit == prev.suit:
            d = nxt.value - prev.value
            if d in (1, -1) and direction in (0, d):
                return d
        return None

    def _together_ok(self, cards: tuple[Card, ...]) -> bool:
        """Several cards answering a pending effect must be one rank laid together."""
        if len(cards) == 1:
            return True
        first = cards[0]
        if self.options["combos"] in ("sets", "mixed"):
            return all(c.rank == first.rank for c in cards)
        sig = self.powers[first].signature()
        return all(
            self.powers[c].together and self.powers[c].signature() == sig and c.rank == first.rank
            for c in cards
        )

    def _sequence_reason(self, cards: tuple[Card, ...]) -> str | None:
        """Why the cards after the first do not make one play, or None."""
        if len(cards) == 1:
            return None
        first = cards[0]
        if self.powers[first].suit_run and all(c.suit == first.suit for c in cards[1:]):
            return None
        direction = 0
        for prev, nxt in itertools.pairwise(cards):
            d = self._step(prev, nxt, direction)
            if d is None:
                return f"{nxt} cannot follow {prev} in one play"
            direction = d
        return None

    # ------------------------------------------------------------ legality
    def _holds(self, seat: int, cards: tuple[Card, ...]) -> Card | None:
        """The first card of ``cards`` that ``seat`` does not hold, or None."""
        have = Counter(self.hands[seat])
        for c in cards:
            if have[c] <= 0:
                return c
            have[c] -= 1
        return None

    def _play_reason(self, seat: int, play: Play) -> str | None:
        """Why ``play`` is not legal for ``seat`` now; None when it is."""
        if self.hand_over or seat != self.turn:
            return "it is not your turn"
        cards = play.cards
        missing = self._holds(seat, cards)
        if missing is not None:
            return f"you do not hold {missing}"
        if self.awaiting == "suit":
            return "name a suit first (e.g. suit hearts)"
        if self.awaiting == "drawn" and (len(cards) != 1 or cards[0] not in self.drawn):
            return f"you may only play the card you drew ({_names(self.drawn)}) or pass"
        pend = self.pending
        if pend is not None and pend["kind"] == "pickup":
            reason = self._answer_reason(cards, pend)
        elif pend is not None and pend["kind"] in ("skip", "miss"):
            reason = self._chain_reason(cards, pend)
        else:
            first = cards[0]
            reason = None if self._matches(first) else self._mismatch(first)
            reason = reason or self._sequence_reason(cards)
        if reason is not None:
            return reason
        left = len(self.hands[seat]) - len(cards)
        if left == 0 and self.powers[cards[-1]].no_end:
            return f"you may not go out on {cards[-1]}"
        if play.last and left != 1:
            return "'last' is for a play that leaves you one card"
        return None

    def _answer_reason(self, cards: tuple[Card, ...], pend: dict[str, Any]) -> str | None:
        count = pend["count"]
        if not self._together_ok(cards):
            return f"{_names(cards)} cannot be laid together on a pick-up"
        top = self.pile[-1]
        cancelling = [self._cancels(c, pend) for c in cards]
        if all(cancelling):
            if len(cards) > 1 and len(cards) > self._cancellable(cards[0], pend):
                return f"there are not {len(cards)} cards to cancel"
            return None
        prev = top
        for c in cards:
            if c not in self.stack_on.get(prev, ()) or not self.powers[c].pickup:
                return f"{c} does not answer the pick-up of {count}: stack, cancel, or draw {count}"
            prev = c
        return None

    def _cancels(self, card: Card, pend: dict[str, Any]) -> bool:
        p = self.powers[card]
        if p.cancels_all:
            return True
        return p.cancels is not None and any(Card.parse(c) in p.cancels for c in pend["cards"])

    def _cancellable(self, card: Card, pend: dict[str, Any]) -> int:
        p = self.powers[card]
        if p.cancels_all:
            return len(pend["cards"])
        assert p.cancels is not None
        return sum(Card.parse(c) in p.cancels for c in pend["cards"])

    def _chain_reason(self, cards: tuple[Card, ...], pend: dict[str, Any]) -> str | None:
        rank = pend["rank"]
        what = "skip" if pend["kind"] == "skip" else "miss"
        ok = all(c.rank == rank and getattr(self.powers[c], what) for c in cards)
        if not ok or not self._together_ok(cards):
            return f"only {'an' if rank in '8A' else 'a'} {rank} passes the {what} on; or pass"
        return None

    def _can_draw(self) -> bool:
        return bool(self.stock) or len(self.pile) > 1

    def _draw_reason(self, seat: int) -> str | None:
        if self.hand_over or seat != self.turn:
            return "it is not your turn"
        if self.awaiting == "suit":
            return "name a suit first (e.g. suit hearts)"
        if self.awaiting == "drawn":
            return "you have drawn: play the card you drew, or pass"
        pend = self.pending
        if pend is not None and pend["kind"] in ("skip", "miss"):
            return f"you are to {pend['kind']}: pass, or pass it on"
        if pend is not None and pend["kind"] == "pickup":
            return None
        if not self._can_draw() and self._any_play(seat):
            return "the stock is empty: you must play"
        if not self.options["draw_when_able"] and self._any_play(seat):
            return "you can play, so you may not draw"
        return None

    def _pass_reason(self, seat: int) -> str | None:
        if self.hand_over or seat != self.turn:
            return "it is not your turn"
        if self.awaiting == "drawn":
            return None
        pend = self.pending
        if pend is not None and pend["kind"] in ("skip", "miss"):
            return None
        return "there is nothing to pass: play or draw"

    def _any_play(self, seat: int) -> bool:
        return any(self._play_reason(seat, Play((c,))) is None for c in set(self.hands[seat]))

    def normalize(self, seat: int, action: Action) -> Action:
        """Without last-card announcements a ``last`` on a play means nothing."""
        if isinstance(action, Play) and action.last and not self.options["last_card"]:
            return Play(action.cards)
        return action

    def _reason(self, seat: int, action: Action) -> str | None:
        if isinstance(action, Play):
            return self._play_reason(seat, action)
        if isinstance(action, Draw):
            return self._draw_reason(seat)
        if isinstance(action, Pass):
            return self._pass_reason(seat)
        if isinstance(action, Nominate):
            if self.hand_over or seat != self.turn or self.awaiting != "suit":
                return "there is no suit to name now"
            return None
        if isinstance(action, Last):
            if not self.options["last_card"]:
                return "this table does not use last-card announcements"
            if self.hand_over or seat in self.finished or len(self.hands[seat]) != 1:
                return "you can only announce last card holding one card"
            if seat in self.announced:
                return "you have already announced last card"
            return None
        return f"'{action.verb}' is not part of this game"

    def is_legal(self, seat: int, action: Action) -> bool:
        return self._reason(seat, action) is None

    def explain(self, seat: int, action: Action) -> str:
        return self._reason(seat, action) or "that is legal"

    def legal_actions(self, seat: int) -> list[Action]:
        """Every single-card play, up to ``MAX_MULTI`` multi-card plays (automatic
        moves announce last card with the play), draw, pass, suit, last."""
        if self.game_over:
            return []
        out: list[Action] = []
        if self._reason(seat, Last()) is None:
            out.append(Last())
        if seat != self.turn:
            return out
        if self.awaiting == "suit":
            return out + [Nominate(s) for s in SUITS]
        hand = self.hands[seat]
        announce = self.options["last_card"] and len(hand) >= 2
        for cards in self._candidate_plays(seat):
            last = announce and len(hand) - len(cards) == 1
            play = Play(cards, last)
            if self._play_reason(seat, play) is None:
                out.append(play)
        if self._draw_reason(seat) is None:
            out.append(Draw())
        if self._pass_reason(seat) is None:
            out.append(Pass())
        return out

    def _candidate_plays(self, seat: int) -> list[tuple[Card, ...]]:
        """Singles, then multi-card sequences found depth-first (bounded)."""
        hand = self.hands[seat]
        faces = sorted(set(hand))
        if self.awaiting == "drawn":
            return [(c,) for c in sorted(set(self.drawn))]
        singles = [(c,) for c in faces]
        if len(hand) < 2:
            return singles
        multi: list[tuple[Card, ...]] = []
        counts = Counter(hand)
        pend = self.pending
        if pend is None or pend["kind"] == "cover":
            starts = [c for c in faces if self._matches(c)]
        elif pend["kind"] == "pickup":
            starts = [c for c in faces if self._answer_reason((c,), pend) is None]
        else:
            starts = [c for c in faces if self._chain_reason((c,), pend) is None]
        for first in starts:
            if self.powers[first].suit_run:
                rest = sorted(c for c in hand if c.suit == first.suit and c != first)
                extra = rest + [first] * (counts[first] - 1)
                for i in range(len(extra)):  # each of them last once
                    multi.append((first, *extra[:i], *extra[i + 1 :], extra[i]))
        self._dfs_multi(starts, counts, multi)
        return singles + multi

    def _dfs_multi(
        self, starts: list[Card], counts: Counter[Card], out: list[tuple[Card, ...]]
    ) -> None:
        faces = sorted(counts)
        per_start = max(4, MAX_MULTI // max(1, len(starts)))
        limit = 0

        def extend(seq: list[Card], direction: int) -> None:
            if len(out) >= limit:
                return
            if len(seq) > 1:
                out.append(tuple(seq))
            prev = seq[-1]
            for nxt in faces:
                if counts[nxt] <= 0:
                    continue
                d = self._step(prev, nxt, direction)
                if d is None:
                    continue
                counts[nxt] -= 1
                seq.append(nxt)
                extend(seq, d)
                seq.pop()
                counts[nxt] += 1

        for first in starts:
            limit = min(len(out) + per_start, MAX_MULTI)
            counts[first] -= 1
            extend([first], 0)
            counts[first] += 1

    # ------------------------------------------------------------ applying
    def _apply(self, seat: int, action: Action) -> list[Event]:
        events = self._settle_owing(seat)
        if isinstance(action, Last):
            self.announced.add(seat)
            if self.owing == seat:
                self.owing = None
            return [*events, Event("last", {"seat": seat})]
        self.turns += 1
        if isinstance(action, Play):
            events += self._play(seat, action)
        elif isinstance(action, Draw):
            events += self._draw_action(seat)
        elif isinstance(action, Pass):
            events += self._pass(seat)
        elif isinstance(action, Nominate):
            self.nominated = action.suit
            self.awaiting = None
            events.append(Event("nominate", {"seat": seat, "suit": action.suit}))
            assert self.after_suit is not None
            self.turn = self.after_suit
            self.after_suit = None
        if not self.hand_over and self.turns >= HAND_TURN_LIMIT:
            events += self._end_hand(blocked=True)
        if self.hand_over and not self.game_over:
            self._deal((self.dealer + 1) % self.seats, None)
            events.append(self._deal_event())
        return events

    def _illegal(self, seat: int, action: Action, reason: str) -> list[Event] | None:
        """A penalised blunder: the cards stay in hand, the penalty is drawn, and the
        turn does not pass (the player still owes a legal move)."""
        if not isinstance(action, Play) or self.hand_over or seat in self.finished:
            return None
        if self._holds(seat, action.cards) is not None:
            return None
        o = self.options
        if reason.startswith("you may not go out on") and o["end_penalty"]:
            n = o["end_penalty"]
        elif o["illegal_penalty"] and not reason.startswith("you may not go out on"):
            n = o["illegal_penalty"]
        else:
            return None
        events = self._settle_owing(seat)
        events.append(
            Event("blunder", {"seat": seat, "cards": [str(c) for c in action.cards], "why": reason})
        )
        events.append(self._give(seat, n, "penalty"))
        return events

    def _settle_owing(self, seat: int) -> list[Event]:
        """A seat that did not announce its last card draws the penalty as soon as
        another seat acts."""
        owing = self.owing
        if owing is None or owing == seat:
            return []
        self.owing = None
        if len(self.hands[owing]) != 1 or owing in self.finished:
            return []
        return [self._give(owing, self.options["last_penalty"], "last card not announced")]

    def _draw_cards(self, n: int) -> list[Card]:
        """Up to ``n`` cards; an empty stock is the pile less its top, shuffled."""
        out: list[Card] = []
        for _ in range(n):
            if not self.stock:
                if len(self.pile) <= 1:
                    break
                self.stock = self.pile[:-1]
                del self.pile[:-1]
                self.rng.shuffle(self.stock)
            out.append(self.stock.pop())
        return out

    def _give(self, seat: int, n: int, reason: str) -> Event:
        cards = self._draw_cards(n)
        self.hands[seat].extend(cards)
        if len(self.hands[seat]) != 1:
            self.announced.discard(seat)
            if self.owing == seat:
                self.owing = None
        return Event(
            "draw",
            {"seat": seat, "count": len(cards), "reason": reason},
            {seat: {"cards": [str(c) for c in cards]}},
        )

    def _next(self, seat: int, steps: int = 1) -> int:
        """The seat ``steps`` turns on, jumping finished seats and using up misses."""
        s = seat
        while steps > 0:
            s = (s + self.direction) % self.seats
            if s in self.finished:
                continue
            if self.misses[s] > 0 and s != seat:
                self.misses[s] -= 1
                continue
            steps -= 1
        return s

    def _pass_turn(self, seat: int, idle: bool) -> None:
        self.awaiting = None
        self.drawn = []
        self.idle = self.idle + 1 if idle else 0
        self.turn = self._next(seat)
        if self.idle >= len(self._active()):
            self.hand_over = True  # nobody could play or draw for a whole round

    def _draw_action(self, seat: int) -> list[Event]:
        pend = self.pending
        if pend is not None and pend["kind"] == "pickup":
            self.pending = None
            ev = self._give(seat, pend["count"], "pick-up")
            self._pass_turn(seat, idle=False)
            return [ev]
        self.pending = None  # a queen not covered
        rule = self.options["draw"]
        if rule == "until":
            cards: list[Card] = []
            while True:
                got = self._draw_cards(1)
                cards += got
                if not got or self._matches(got[0]):
                    break
        else:
            cards = self._draw_cards(rule)
        self.hands[seat].extend(cards)
        if len(self.hands[seat]) != 1:
            self.announced.discard(seat)
        ev = Event(
            "draw",
            {"seat": seat, "count": len(cards), "reason": "draw"},
            {seat: {"cards": [str(c) for c in cards]}},
        )
        playable = [c for c in cards if self._matches(c)] if self.options["play_drawn"] else []
        events = [ev]
        if playable:
            self.awaiting = "drawn"
            self.drawn = playable
        else:
            self._pass_turn(seat, idle=not cards)
            if self.hand_over:
                events += self._end_hand(blocked=True)
        return events

    def _pass(self, seat: int) -> list[Event]:
        pend = self.pending
        self.pending = None
        if pend is not None and pend["kind"] == "miss":
            self.misses[seat] += pend["count"] - 1
            ev = Event("miss", {"seat": seat, "turns": pend["count"]})
        elif pend is not None:
            ev = Event("skip", {"seat": seat})
        else:
            ev = Event("pass", {"seat": seat})
        self._pass_turn(seat, idle=pend is None)
        events = [ev]
        if self.hand_over:
            events += self._end_hand(blocked=True)
        return events

    def _play(self, seat: int, play: Play) -> list[Event]:
        cards = play.cards
        hand = self.hands[seat]
        for c in cards:
            hand.remove(c)
        self.pile.extend(cards)
        self.nominated = None
        self.awaiting = None
        self.drawn = []
        self.idle = 0
        events = [Event("play", {"seat": seat, "cards": [str(c) for c in cards]})]
        if len(hand) == 1:
            if play.last:
                self.announced.add(seat)
                events.append(Event("last", {"seat": seat}))
            elif self.options["last_card"] and seat not in self.announced:
                self.owing = seat
        else:
            self.announced.discard(seat)
        pend = self.pending
        self.pending = None
        last = cards[-1]
        lp = self.powers[last]
        n = 1
        for c in reversed(cards[:-1]):
            if c.rank != last.rank or self.powers[c].signature() != lp.signature():
                break
            n += 1
        answered = pend is not None and pend["kind"] == "pickup"
        if answered:
            if all(self._cancels(c, pend) for c in cards):
                took, cancel_events = self._cancel(seat, cards, pend)
                events += cancel_events
                if took:  # the rest of the pick-up was taken and the turn has passed
                    return events + self._maybe_out(seat)
            else:
                self.pending = {
                    "kind": "pickup",
                    "count": pend["count"] + sum(self.powers[c].pickup for c in cards),
                    "cards": pend["cards"] + [str(c) for c in cards],
                }
        elif pend is not None and pend["kind"] == "miss":
            n += pend["count"]
        out = self._maybe_out(seat)
        events += out
        if self.hand_over:
            return events
        # the play's own power
        steps = 1
        if lp.pickup and not answered:
            picked = [c for c in cards if self.powers[c].pickup]
            self.pending = {
                "kind": "pickup",
                "count": sum(self.powers[c].pickup for c in picked),
                "cards": [str(c) for c in picked],
            }
        if lp.skip:
            if self.options["skip_chain"]:
                self.pending = {"kind": "skip", "count": 1, "rank": last.rank}
            else:
                steps += n
        if lp.miss:
            self.pending = {"kind": "miss", "count": n, "rank": last.rank}
        if lp.swap and hand:
            events.append(self._swap(seat))
        next_seat: int
        if lp.reverse:
            if len(self._active()) == 2 and seat not in self.finished:
                next_seat = seat  # with two players a reverse means play again
            else:
                if n % 2:
                    self.direction = -self.direction
                next_seat = self._next(seat, steps)
            events.append(Event("reverse", {"seat": seat, "direction": self.direction}))
        elif lp.cover and seat not in self.finished:
            next_seat = seat
            self.pending = {"kind": "cover", "count": 1}
        else:
            next_seat = self._next(seat, steps)
        if steps > 1:
            events.append(Event("skip", {"seat": self._skipped(seat, steps - 1)}))
        if lp.nominate and seat not in self.finished:
            self.awaiting = "suit"
            self.after_suit = next_seat
        else:
            self.turn = next_seat
        return events

    def _skipped(self, seat: int, k: int) -> int:
        """The seat skipped last (for the event only)."""
        s = seat
        for _ in range(k):
            s = (s + self.direction) % self.seats
            while s in self.finished:
                s = (s + self.direction) % self.seats
        return s

    def _cancel(
        self, seat: int, cards: tuple[Card, ...], pend: dict[str, Any]
    ) -> tuple[bool, list[Event]]:
        """Each canceller removes one card's pick-up; its player takes what is left."""
        remaining = list(pend["cards"])
        count = pend["count"]
        for c in cards:
            p = self.powers[c]
            if p.cancels_all:
                remaining, count = [], 0
                continue
            for i, r in enumerate(remaining):
                rc = Card.parse(r)
                if p.cancels is not None and rc in p.cancels:
                    count -= self.powers[rc].pickup
                    del remaining[i]
                    break
        events = [Event("cancel", {"seat": seat, "left": max(count, 0)})]
        if count > 0 and remaining:
            events.append(self._give(seat, count, "pick-up"))
            self._pass_turn(seat, idle=False)
            return True, events
        return False, events

    def _maybe_out(self, seat: int) -> list[Event]:
        if self.hands[seat]:
            return []
        self.finished.append(seat)
        self.announced.discard(seat)
        if self.owing == seat:
            self.owing = None
        events = [Event("out", {"seat": seat, "place": len(self.finished)})]
        if len(self.finished) == 1:
            points = sum(self.powers[c].points for h in self.hands for c in h)
            self.total_scores[seat] += points
            self._hand_points = [0] * self.seats
            self._hand_points[seat] = points
        if self.options["finish"] == "first" or len(self._active()) <= 1:
            events += self._end_hand(blocked=False)
        elif self.turn == seat or self.after_suit == seat:
            pass  # the next seat is worked out from the seat as usual
        return events

    def _end_hand(self, blocked: bool) -> list[Event]:
        self.hand_over = True
        self.pending = None
        self.awaiting = None
        if blocked and not self.finished:
            # Nobody went out: the fewest cards wins, then the fewest points, then
            # the first in turn order from the dealer's left.
            order = [(self.dealer + k) % self.seats for k in range(1, self.seats + 1)]
            winner = min(
                order,
                key=lambda s: (
                    len(self.hands[s]),
                    sum(self.powers[c].points for c in self.hands[s]),
                    order.index(s),
                ),
            )
            points = sum(
                self.powers[c].points for s, h in enumerate(self.hands) if s != winner for c in h
            )
            self.total_scores[winner] += points
            self._hand_points = [0] * self.seats
            self._hand_points[winner] = points
            self.finished.append(winner)
        for s in self._active():
            if s not in self.finished:
                self.finished.append(s)
        self.hand_scores.append(list(self._hand_points))
        events = [
            Event(
                "hand_end",
                {
                    "hand_number": self.hand_number,
                    "finished": list(self.finished),
                    "points": list(self._hand_points),
                    "scores": list(self.total_scores),
                    "blocked": blocked,
                },
            )
        ]
        target = self.options["target"]
        best = max(self.total_scores)
        if target == 0 or (best >= target and self.total_scores.count(best) == 1):
            self.game_over = True
            winner = self.total_scores.index(best)
            events.append(Event("game_end", {"winner": winner, "scores": list(self.total_scores)}))
        return events

    def _swap(self, seat: int) -> Event:
        other = (seat + 1) % self.seats
        while other in self.finished:
            other = (other + 1) % self.seats
        self.hands[seat], self.hands[other] = self.hands[other], self.hands[seat]
        for s in (seat, other):
            self.announced.discard(s)
        if self.owing in (seat, other):
            self.owing = None
        if len(self.hands[seat]) == 1:
            self.owing = seat if self.options["last_card"] else None
        return Event(
            "swap",
            {"seat": seat, "with": other},
            {
                seat: {"hand": [str(c) for c in self.hands[seat]]},
                other: {"hand": [str(c) for c in self.hands[other]]},
            },
        )

    def _deal_event(self) -> Event:
        return Event(
            "deal",
            {
                "dealer": self.dealer,
                "hand_number": self.hand_number,
                "hand_sizes": [len(h) for h in self.hands],
                "top": str(self.pile[-1]) if self.pile else None,
            },
            {s: {"hand": [str(c) for c in self.hands[s]]} for s in range(self.seats)},
        )

    # -------------------------------------------------------------- views
    def _view(self, seat: int | None) -> dict[str, Any]:
        pend = self.pending
        awaiting = None
        if self.awaiting == "suit":
            awaiting = "nominate a suit"
        elif self.awaiting == "drawn":
            awaiting = "play the card you drew, or pass"
        elif pend is not None:
            awaiting = {
                "pickup": f"stack, cancel, or draw {pend['count']}",
                "skip": "pass the skip on, or pass",
                "miss": f"play a {pend.get('rank')} or miss {pend['count']} turn(s)",
                "cover": "cover the card, or draw",
            }[pend["kind"]]
        return {
            "preset": self.ruleset,
            "hand": None if seat is None else [str(c) for c in self.hands[seat]],
            "hand_sizes": [len(h) for h in self.hands],
            "top": str(self.pile[-1]) if self.pile else None,
            "pile_size": len(self.pile),
            "nominated": self.nominated,
            "stock": len(self.stock),
            "pending": None if pend is None else {**pend, "cards": list(pend.get("cards", []))},
            "direction": self.direction,
            "finished": list(self.finished),
            "dealer": self.dealer,
            "announced": sorted(self.announced),
            "hand_number": self.hand_number,
            "target": self.options["target"],
            "awaiting": awaiting,
            "drawn": [str(c) for c in self.drawn] if seat == self.turn else [],
            "misses": list(self.misses),
        }


__all__ = ["HAND_TURN_LIMIT", "JOKER", "MAX_MULTI", "SheddingGame"]
