"""The shedding rules machine: one ``Game`` that every preset drives with data.

A turn is one or two actions: a play (or a draw, or ``pass`` to accept a skip),
then, after a nominating card, ``suit X``; after a draw the player may play the
drawn card where the table allows it. After a go-on card (j28's jack) and its
``suit X`` the turn stays with its player (a pending ``go_on``): he plays on in
that suit or ``pass``es; ``play JD 6H 7H`` says the same go in one play. Power
cards only ever change a few pieces of state: the pending effect on the next
player (``pending``), the direction, the nominated suit, misses owed, and hands
(pick-ups, swaps).

A preset that names an ``illegal_penalty`` takes a wrong play of held cards as a
blunder (``_illegal``): the penalty is drawn and nothing else changes.

Cards are ints inside (see ``codes``). ``is_legal`` checks a play directly
(``_play_reason``) instead of looking it up in ``legal_actions``: multi-card
plays can number thousands, so the listing is bounded (``MAX_MULTI``) while any
valid play typed by a person is accepted.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import pairwise
from typing import Any, ClassVar

from engine.actions import Action, Draw, Last, Nominate, Pass, Play
from engine.cards import SUIT_NAMES, Card
from engine.errors import OptionError
from engine.events import Event
from engine.game import Game
from engine.options import OptionSchema
from engine.registry import new_game
from engine.shedding.codes import (
    _CODES,
    DRAW,
    JK,
    LAST,
    NOMINATE,
    NOTATION,
    PASS,
    RANK,
    SINGLE,
    SUIT,
    SUIT_LETTER,
    TEXT,
    code,
    codes_of,
    make_play,
    suit_index,
)
from engine.shedding.rules import SCHEMA
from engine.shedding.table import power_table
from engine.shedding.vocabulary import VOCABULARY

#: At most this many multi-card plays are listed by ``legal_actions`` (every
#: single-card play is always listed; ``is_legal`` accepts any valid play).
MAX_MULTI = 64
#: A hand that lasts this many turns is ended as blocked: no game runs forever.
HAND_TURN_LIMIT = 2000

_SUIT_WORD = ("a club", "a diamond", "a heart", "a spade")
#: ``_opening``'s row when any card may open a play.
_ANY_CARD = (True,) * 53


def _names(cards: list[int] | tuple[int, ...]) -> str:
    return " ".join(TEXT[c] for c in cards)


class SheddingGame(Game):
    """Switch and its house versions: match suit or rank, power cards, shed your hand."""

    family: ClassVar[str] = "shedding"
    vocabulary = VOCABULARY
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 8
    schema: ClassVar[OptionSchema] = SCHEMA
    #: Whether ``legal_actions`` takes its shortcut for the common case (the tests
    #: turn it off to check that the shortcut lists exactly what the long way does).
    _fast: ClassVar[bool] = True

    # ------------------------------------------------------------ setup
    def _setup(self, dealer: int | None, deck: list[Card] | None) -> None:
        o = self.options
        self.pt = power_table(o)
        big = self.seats > 4 and o["big_table_hand_size"]
        self.hand_size: int = o["big_table_hand_size"] if big else o["hand_size"]
        self.decks: int = o["decks"] or (2 if self.seats > 5 else 1)
        if deck is None and self.seats * self.hand_size + 1 > 52 * self.decks + o["jokers"]:
            raise OptionError(
                "hand_size",
                f"{self.seats} hands of {self.hand_size} do not fit in {self.decks} pack(s)",
            )
        self.announce = bool(o["last_card"])
        #: Black Jack's "cards" call: an announcement before going out with several cards.
        self.cards_call = self.announce and bool(o["cards_call"])
        self.total_scores = [0] * self.seats
        self.hand_scores: list[list[int]] = []
        self.hand_number = 0
        self.game_over = False
        first = dealer if dealer is not None else self.rng.randrange(self.seats)
        self._deal(first, None if deck is None else [code(c) for c in deck])
        self.opening_events = [self._deal_event()]

    def _deal(self, dealer: int, deck: list[int] | None) -> None:
        """Deal a hand: one card at a time from the left of the dealer, then the start card."""
        if deck is None:
            deck = list(range(52)) * self.decks + [JK] * self.options["jokers"]
            self.rng.shuffle(deck)
        self.deck_size = len(deck)
        self.dealer = dealer
        self.hand_number += 1
        n = self.seats
        self.hands: list[list[int]] = [[] for _ in range(n)]
        pos = 0
        for _ in range(self.hand_size):
            for k in range(1, n + 1):
                if pos < len(deck):
                    self.hands[(dealer + k) % n].append(deck[pos])
                    pos += 1
        self.stock: list[int] = deck[pos:][::-1]  # the next card to draw is stock[-1]
        self.pile: list[int] = []
        if self.stock:
            self.pile.append(self.stock.pop())
        if not self.options["start_power"]:
            while self.stock and self.pt.power[self.pile[-1]]:
                self.pile.append(self.stock.pop())
        self.turn = (dealer + 1) % n
        self.direction = 1
        self.nominated: int | None = None  # a suit index
        self.pending: dict[str, Any] | None = None
        self.awaiting: str | None = None  # None, "suit" or "drawn"
        self.drawn: list[int] = []
        self.after_suit: int | None = None  # the next seat once the suit is named
        self.going_on = False  # whether the player goes on once he has named the suit
        self.finished: list[int] = []
        self.announced: set[int] = set()
        self.owing: int | None = None
        self.caller: int | None = None  # who may still make the cards call (he just played)
        self.misses = [0] * n
        self.idle = 0
        self.turns = 0
        self.hand_over = False
        self._hand_points = [0] * n
        self._listed: tuple[int, tuple[Action, ...]] | None = None

    def _copy_state(self, new: SheddingGame) -> None:
        """Every list, set and dict play changes gets a copy; the power table is shared
        (it is the table's rules, compiled once) and so is the listing cache, which holds
        the very actions that are still legal in the copy's identical state."""
        new.total_scores = list(self.total_scores)
        new.hand_scores = [list(h) for h in self.hand_scores]
        new.hands = [list(h) for h in self.hands]
        new.stock = list(self.stock)
        new.pile = list(self.pile)
        pend = self.pending
        if pend is not None:
            new.pending = {**pend, "cards": list(pend["cards"])} if "cards" in pend else dict(pend)
        new.drawn = list(self.drawn)
        new.finished = list(self.finished)
        new.announced = set(self.announced)
        new.misses = list(self.misses)
        new._hand_points = list(self._hand_points)

    # ------------------------------------------------- rebuilt from a view
    @classmethod
    def from_view(
        cls, view: Mapping[str, Any], known_pile: Sequence[int] = (), **known: Any
    ) -> SheddingGame:
        """The hand as ``view`` shows it to its seat: the table's rules (the ruleset and
        the house rules the view carries), whose turn it is and what is owed, the seat's
        own hand, and as the pile the cards the seat saw go onto it (``known_pile``, as
        codes, top last; at least the top). The other hands and the stock are empty, and
        so is the pile under what the seat saw: ``deal_unseen`` fills them.

        >>> import engine
        >>> game = engine.new_game("switch", seats=3, seed=2)
        >>> view = game.view(1)
        >>> seen = SheddingGame.from_view(view)
        >>> seen.view(1)["hand"] == view["hand"], seen.view(1)["hand_sizes"]
        (True, [0, 7, 0])
        """
        n = view["seats"]
        options = {**(view.get("options") or {}), "target": view["target"]}
        # An empty deck: nothing is dealt that the view does not say.
        game = new_game(
            view["ruleset"], seats=n, seed=0, options=options, dealer=view["dealer"], deck=[]
        )
        assert isinstance(game, cls)
        me = view["viewer"]
        game.hands = [_codes(view["hand"]) if s == me else [] for s in range(n)]
        top = _codes([view["top"]]) if view.get("top") else []
        game.pile = list(known_pile) or top
        game.stock = []
        game.turn = view["to_act"]
        game.direction = view["direction"]
        game.nominated = None if view.get("nominated") is None else suit_index(view["nominated"])
        pend = view.get("pending")
        if pend is None:
            game.pending = None
        else:
            game.pending = {
                "kind": pend["kind"],
                "count": pend["count"],
                "cards": _codes(pend["cards"]),
            }
            if pend.get("rank") is not None:
                game.pending["rank"] = "23456789TJQKA".index(pend["rank"])
        # The game's own ``awaiting`` holds only a suit or a drawn card owed; the view's
        # ``awaiting_kind`` names a pending power's kind too.
        owed = view.get("awaiting_kind")
        game.awaiting = owed if owed in ("suit", "drawn") else None
        game.drawn = _codes(view.get("drawn"))
        game.after_suit = None
        game.finished = list(view["finished"])
        game.announced = set(view.get("announced", []))
        game.owing = None
        game.misses = list(view.get("misses", [0] * n))
        game.idle = 0
        game.turns = 0
        game.hand_over = False
        game._hand_points = [0] * n
        game.total_scores = list(view["scores"])
        game.hand_scores = []
        game.hand_number = view["hand_number"]
        game.opening_events = []
        return game

    def unseen_cards(self) -> list[int]:
        """The cards of this table's deck that are nowhere in this game, as sorted codes:
        for a game ``from_view``, the cards its seat has not seen."""
        pool = Counter(list(range(52)) * self.decks + [JK] * self.options["jokers"])
        for hand in self.hands:
            pool.subtract(hand)
        pool.subtract(self.pile)
        pool.subtract(self.stock)
        return sorted(pool.elements())

    def deal_unseen(
        self, view: Mapping[str, Any], cards: Sequence[int], rng: random.Random
    ) -> SheddingGame:
        """A world: ``cards`` (codes) fill each other seat's hand to the size ``view``
        gives, then the pile under the cards the seat saw, then the stock."""
        world = self.copy(rng=rng)
        me = view["viewer"]
        rest = list(cards)
        for s, size in enumerate(view["hand_sizes"]):
            if s != me:
                world.hands[s], rest = rest[:size], rest[size:]
        under = max(0, view["pile_size"] - len(self.pile))
        world.pile, rest = rest[:under] + self.pile, rest[under:]
        world.stock = rest[: view["stock"]]
        return world

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

    def hand_cards(self, seat: int) -> list[Card]:
        """The cards ``seat`` holds (for tests and tools; views carry strings)."""
        return [Card.parse(TEXT[c]) for c in self.hands[seat]]

    # ----------------------------------------------------------- matching
    def _opening(self) -> tuple[bool, ...]:
        """Which cards may be laid on the pile now as the first card of a play, by card:
        the power table's ``follows`` row for the suit asked (the nominated one, else
        the top's) and the top's rank, where a wild card always goes; any card on an
        empty pile or on a joker with no suit named. The matching rule is read here only."""
        pile = self.pile
        if not pile:
            return _ANY_CARD
        top = pile[-1]
        suit = self.nominated
        if suit is None:
            if top == JK:
                return _ANY_CARD
            suit = SUIT[top]
        return self.pt.follows[suit * 14 + RANK[top] + 1]

    def _matches(self, c: int) -> bool:
        """Whether card ``c`` may be laid on the pile now as the first card of a play."""
        return self._opening()[c]

    def _mismatch(self, c: int) -> str:
        if self.nominated is not None:
            s = self.nominated
            return (
                f"{TEXT[c]} is not {_SUIT_WORD[s]}, the nominated suit"
                f" ({SUIT_NAMES[SUIT_LETTER[s]]})"
            )
        return f"{TEXT[c]} does not match the {TEXT[self.pile[-1]]} on the pile"

    def _step(self, prev: int, nxt: int, direction: int) -> int | None:
        """Whether ``nxt`` may follow ``prev`` in one play: the run direction, or None."""
        if prev == JK or nxt == JK:
            return None
        combos = self.options["combos"]
        pt = self.pt
        if pt.pickup_together and pt.pickup[prev] and pt.pickup[nxt]:
            return direction  # Black Jack's house rule: "J 2 2 2 2"
        if combos == "chain":
            return direction if SUIT[nxt] == SUIT[prev] or RANK[nxt] == RANK[prev] else None
        if RANK[nxt] == RANK[prev] and self._same_set(prev, nxt):  # ranks first: cheap
            return direction
        if combos in ("runs", "mixed") and SUIT[nxt] == SUIT[prev]:
            d = RANK[nxt] - RANK[prev]
            if d in (1, -1) and direction in (0, d):
                return d
        return None

    def _same_set(self, a: int, b: int) -> bool:
        """Whether ``b`` may be laid with ``a`` as one set: the same rank, at a table that
        plays sets, or two cards that go down together and do the same thing."""
        if RANK[a] != RANK[b]:
            return False
        if self.options["combos"] in ("sets", "mixed"):
            return True
        pt = self.pt
        return pt.together[a] and pt.together[b] and pt.sig[a] == pt.sig[b]

    def _together_ok(self, cards: tuple[int, ...]) -> bool:
        """Several cards answering a pending effect must be one set."""
        first = cards[0]
        return len(cards) == 1 or all(self._same_set(first, c) for c in cards)

    def _suit_run(self, first: int, cards: Sequence[int]) -> bool:
        """Whether ``cards`` go down after ``first`` as its suit run (Black Jack's red jack
        takes every card of its suit with it, in any order)."""
        return self.pt.suit_run[first] and all(SUIT[c] == SUIT[first] for c in cards)

    def _then(self, prev: int, nxt: int, direction: int) -> int | None:
        """Whether ``nxt`` may come after ``prev`` in one play: the run's direction after
        it, or None. After a go-on card any card but a joker may (it names the suit its
        player goes on in); otherwise ``_step`` says."""
        if self.pt.go_on[prev] and nxt != JK:
            return 0
        return self._step(prev, nxt, direction)

    def _sequence_reason(self, cards: tuple[int, ...]) -> str | None:
        """Why the cards after the first do not make one play, or None."""
        if len(cards) == 1 or self._suit_run(cards[0], cards[1:]):
            return None
        direction = 0
        for prev, nxt in pairwise(cards):
            d = self._then(prev, nxt, direction)
            if d is None:
                return f"{TEXT[nxt]} cannot follow {TEXT[prev]} in one play"
            direction = d
        return None

    # ------------------------------------------------------------ legality
    def _holds(self, seat: int, cards: tuple[int, ...]) -> int | None:
        """The first card of ``cards`` that ``seat`` does not hold, or None."""
        hand = self.hands[seat]
        if len(cards) == 1:
            return None if cards[0] in hand else cards[0]
        for c in cards:
            if hand.count(c) < cards.count(c):
                return c
        return None

    def _play_reason(self, seat: int, cards: tuple[int, ...], last: bool) -> str | None:
        """Why playing ``cards`` is not legal for ``seat`` now; None when it is."""
        if self.hand_over or seat != self.turn:
            return "it is not your turn"
        missing = self._holds(seat, cards)
        if missing is not None:
            return f"you do not hold {TEXT[missing]}"
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
        if self._bad_finish(left, cards[-1]):
            return f"you may not go out on {TEXT[cards[-1]]}"
        if last and (left == 0 or (left != 1 and not self.cards_call)):
            return "'last' is for a play that leaves you one card"
        return None

    def _bad_finish(self, left: int, last: int) -> bool:
        """Whether a play that leaves ``left`` cards and ends on ``last`` goes out on a
        card nobody may go out on."""
        return left == 0 and self.pt.no_end[last]

    def _answering(self, cards: list[int], pend: dict[str, Any]) -> set[int]:
        """Which of ``cards`` alone answer the waiting pick-up: the ones that stack on
        the pile's top (the power table's ``stack_on``) and the ones that cancel."""
        stack = self.pt.stack_on[self.pile[-1]]
        if not self.pt.any_cancel:  # no card cancels at this table
            return {c for c in cards if c in stack}
        return {c for c in cards if c in stack or self._cancels(c, pend)}

    def _answer_reason(self, cards: tuple[int, ...], pend: dict[str, Any]) -> str | None:
        count = pend["count"]
        pt = self.pt
        if (
            pt.pickup_together
            and len(cards) > 1
            and cards[0] in pt.stack_on[self.pile[-1]]
            and all(pt.pickup[c] for c in cards[1:])
        ):
            return None  # the first stacks; the pick-up cards laid with it add up
        if all(self._cancels(c, pend) for c in cards):
            if len(cards) == 1:
                return None
            # Cancelling cards alike may go down together where each one has
            # something of its own to cancel: Black Jack's two red jacks on twos
            # with a black jack stacked (one takes the black jack, one the twos).
            if not self._alike(cards):
                return f"{_names(cards)} cannot be laid together on a pick-up"
            if self._cancelled_by_each(cards, pend) < len(cards):
                return f"there are not {len(cards)} cards to cancel"
            return None
        if not self._together_ok(cards):
            return f"{_names(cards)} cannot be laid together on a pick-up"
        prev = self.pile[-1]
        for c in cards:
            if c not in pt.stack_on[prev]:
                return (
                    f"{TEXT[c]} does not answer the pick-up of {count}:"
                    f" stack, cancel, or draw {count}"
                )
            prev = c
        return None

    def _cancels(self, c: int, pend: dict[str, Any]) -> bool:
        """Whether ``c`` cancels some of the waiting pick-up."""
        pt = self.pt
        if pt.cancels_all[c]:
            return True
        cancels, every = pt.cancels[c], pt.cancels_every[c]
        return any(
            (cancels is not None and x in cancels) or (every is not None and x in every)
            for x in pend["cards"]
        )

    def _alike(self, cards: Sequence[int]) -> bool:
        """Whether the cards are of one rank and do the same thing."""
        pt = self.pt
        first = cards[0]
        return all(RANK[c] == RANK[first] and pt.sig[c] == pt.sig[first] for c in cards)

    def _cancelled_by_each(self, cards: Sequence[int], pend: dict[str, Any]) -> int:
        """How many of ``cards``, laid in turn on the waiting pick-up, find something
        left to cancel (as ``_cancel`` takes them)."""
        pt = self.pt
        remaining = list(pend["cards"])
        found = 0
        for c in cards:
            if not remaining:
                break
            if pt.cancels_all[c]:
                remaining = []
                found += 1
                continue
            cancels, every = pt.cancels[c], pt.cancels_every[c]
            i = -1
            if cancels is not None:
                i = next((i for i, r in enumerate(remaining) if r in cancels), -1)
            if i >= 0:
                remaining.pop(i)
                found += 1
            elif every is not None and any(r in every for r in remaining):
                remaining = [r for r in remaining if r not in every]
                found += 1
        return found

    def _chain_reason(self, cards: tuple[int, ...], pend: dict[str, Any]) -> str | None:
        rank = pend["rank"]
        flags = self.pt.skip if pend["kind"] == "skip" else self.pt.miss
        if not all(RANK[c] == rank and flags[c] for c in cards) or not self._together_ok(cards):
            name = "23456789TJQKA"[rank]
            return (
                f"only {'an' if name in '8A' else 'a'} {name} passes the {pend['kind']} on; or pass"
            )
        return None

    def _can_draw(self) -> bool:
        return bool(self.stock) or len(self.pile) > 1

    def _draw_reason(self, seat: int, can_play: bool | None = None) -> str | None:
        """Why ``seat`` may not draw now; ``can_play`` saves working out whether he can play."""
        if self.hand_over or seat != self.turn:
            return "it is not your turn"
        if self.awaiting == "suit":
            return "name a suit first (e.g. suit hearts)"
        if self.awaiting == "drawn":
            return "you have drawn: play the card you drew, or pass"
        pend = self.pending
        if pend is not None:
            if pend["kind"] in ("skip", "miss"):
                return f"you are to {pend['kind']}: pass, or pass it on"
            if pend["kind"] == "pickup":
                return None
            if pend["kind"] == "go_on":
                return "you may go on in the suit you named, or pass to end your go"
        if self._draw_when_able():
            return None
        if can_play is None:
            can_play = self._any_play(seat)
        if can_play:
            if not self._can_draw():
                return "the stock is empty: you must play"
            return "you can play, so you may not draw"
        return None

    def _draw_when_able(self) -> bool:
        """Whether a player owing nothing may draw even when he could play: where the
        table allows it and there is a card to draw (else only when he cannot play)."""
        return self.options["draw_when_able"] and self._can_draw()

    def _pass_reason(self, seat: int) -> str | None:
        if self.hand_over or seat != self.turn:
            return "it is not your turn"
        if self.awaiting == "drawn":
            return None
        pend = self.pending
        if pend is not None and pend["kind"] in ("skip", "miss", "go_on"):
            return None
        return "there is nothing to pass: play or draw"

    def _any_play(self, seat: int) -> bool:
        return any(self._play_reason(seat, (c,), False) is None for c in set(self.hands[seat]))

    def normalize(self, seat: int, action: Action) -> Action:
        """Without last-card announcements a ``last`` on a play means nothing."""
        if isinstance(action, Play) and action.last and not self.announce:
            return make_play(codes_of(action), False)
        return action

    def _reason(self, seat: int, action: Action) -> str | None:
        if isinstance(action, Play):
            return self._play_reason(seat, codes_of(action), action.last)
        if isinstance(action, Draw):
            return self._draw_reason(seat, None)
        if isinstance(action, Pass):
            return self._pass_reason(seat)
        if isinstance(action, Nominate):
            if self.hand_over or seat != self.turn or self.awaiting != "suit":
                return "there is no suit to name now"
            return None
        if isinstance(action, Last):
            if not self.announce:
                return "this table does not use last-card announcements"
            held = len(self.hands[seat])
            if self.hand_over or seat in self.finished or held == 0:
                return "you can only announce last card holding one card"
            if held > 1 and not (self.cards_call and self.caller == seat):
                if self.cards_call:
                    return "call cards with your play, or before the next player acts"
                return "you can only announce last card holding one card"
            if seat in self.announced:
                return "you have already announced last card"
            return None
        return f"'{action.verb}' is not part of this game"

    def is_legal(self, seat: int, action: Action) -> bool:
        """Checked in full, except for an action object that ``legal_actions`` has just
        listed for this seat in this very state (every listed action was checked then)."""
        listed = self._listed
        if listed is not None and listed[0] == seat:
            for a in listed[1]:
                if a is action:
                    return True
        return self._reason(seat, action) is None

    def apply(self, seat: int, action: str | Action) -> list[Event]:
        """``Game.apply``, with a shortcut for the action object ``legal_actions`` has
        just listed for this seat in this very state: bots take every turn that way.
        Such an action is already parsed, normal and checked, so it goes straight to
        ``_apply`` and the log; anything else takes the full way through ``Game.apply``."""
        listed = self._listed
        if (
            listed is not None
            and listed[0] == seat
            and type(seat) is int
            and 0 <= seat < self.seats
            and not self.game_over
        ):
            for a in listed[1]:
                if a is action:
                    events = self._apply(seat, a)
                    text = NOTATION.get(id(a))  # ``codes.notation(a)``: a lookup, not a rule
                    self._log.append([seat, str(a) if text is None else text])
                    return events
        return super().apply(seat, action)

    def explain(self, seat: int, action: Action) -> str:
        return self._reason(seat, action) or "that is legal"

    def legal_actions(self, seat: int) -> list[Action]:
        """Every single-card play, up to ``MAX_MULTI`` multi-card plays (automatic
        moves announce last card with the play), draw, pass, suit, last."""
        hand = self.hands[seat]
        if (
            seat == self.turn
            and self.awaiting is None
            and self.pending is None
            and not self.game_over
            and self._fast
            and not self.pt.any_multi
            and not self.cards_call
            and len(hand) >= 2
        ):
            # The common turn, kept tight because bots list actions every turn: his go
            # with nothing owed or awaited, two cards or more, at a table of one-card
            # plays and no cards call. What ``_list_actions`` lists then, from the same
            # rules: the single cards that may open a play, and a draw where allowed.
            ok = self._opening()
            out = self._singles(len(hand), {c for c in hand if ok[c]})
            if not out or self._draw_when_able():
                out.append(DRAW)
        else:
            out = self._list_actions(seat)
        self._listed = (seat, tuple(out))
        return out

    def _singles(self, size: int, cards: set[int]) -> list[Action]:
        """The one-card plays of ``cards`` (each may open the play) from a hand of
        ``size``: in card order, announcing the last card where the play leaves one, and
        none that goes out on a card nobody may go out on."""
        single = SINGLE[self.announce and size == 2]
        if size == 1:
            return [single[c] for c in cards if not self._bad_finish(0, c)]
        return [single[c] for c in sorted(cards)]

    def _list_actions(self, seat: int) -> list[Action]:
        if self.game_over:
            return []
        hand = self.hands[seat]
        out: list[Action] = []
        if len(hand) == 1 and self._reason(seat, LAST) is None:
            out.append(LAST)  # with more cards, the cards call goes with a play (_with_call)
        if seat != self.turn:
            return out
        if self.awaiting == "suit":
            return out + list(NOMINATE)
        size = len(hand)
        pend = self.pending
        plays: list[Action]
        if self.awaiting is None and (pend is None or pend["kind"] in ("cover", "go_on")):
            ok = self._opening()
            plays = self._singles(size, {c for c in hand if ok[c]})
            plays += self._multi(seat)
        elif self.awaiting is None and pend is not None and pend["kind"] == "pickup":
            plays = self._singles(size, self._answering(hand, pend))
            plays += self._multi(seat)
        else:
            plays = self._checked(seat, self._candidate_plays(seat))
        if self.cards_call and plays:
            plays = [self._with_call(hand, p) for p in plays]
        out += plays
        if self._draw_reason(seat, bool(plays)) is None:
            out.append(DRAW)
        if self._pass_reason(seat) is None:
            out.append(PASS)
        return out

    def _multi(self, seat: int) -> list[Action]:
        """The multi-card plays ``_multi_plays`` finds that are legal."""
        if not self.pt.any_multi or len(self.hands[seat]) < 2:
            return []
        return self._checked(seat, self._multi_plays(seat))

    def _checked(self, seat: int, candidates: list[tuple[int, ...]]) -> list[Action]:
        """The candidates ``_play_reason`` passes, as plays (announcing last card where
        one leaves one card)."""
        size = len(self.hands[seat])
        announce = self.announce
        return [
            make_play(cards, announce and size - len(cards) == 1)
            for cards in candidates
            if self._play_reason(seat, cards, False) is None
        ]

    def _with_call(self, hand: list[int], play: Action) -> Action:
        """The play with the cards call where the cards it leaves could all go in one
        play (so automatic moves and bots call when they should)."""
        assert isinstance(play, Play)
        if play.last:
            return play
        codes = codes_of(play)
        left = list(hand)
        for c in codes:
            left.remove(c)
        return make_play(codes, True) if self._one_go(left) else play

    def _one_go(self, cards: list[int]) -> bool:
        """Whether several cards could be laid as one play in some order (not counting
        the card they would go on); hands above seven are not searched."""
        if not 2 <= len(cards) <= 7:
            return False
        if any(self._suit_run(c, cards) for c in set(cards)):
            return True
        counts = {c: cards.count(c) for c in cards}

        def extend(prev: int, direction: int, left: int) -> bool:
            if left == 0:
                return True
            for nxt, k in counts.items():
                if k == 0:
                    continue
                d = self._then(prev, nxt, direction)
                if d is None:
                    continue
                counts[nxt] -= 1
                found = extend(nxt, d, left - 1)
                counts[nxt] += 1
                if found:
                    return True
            return False

        for first in list(counts):
            counts[first] -= 1
            found = extend(first, 0, len(cards) - 1)
            counts[first] += 1
            if found:
                return True
        return False

    def _candidate_plays(self, seat: int) -> list[tuple[int, ...]]:
        """Singles, then multi-card sequences, for the uncommon states."""
        if self.awaiting == "drawn":
            return [(c,) for c in sorted(set(self.drawn))]
        singles: list[tuple[int, ...]] = [(c,) for c in sorted(set(self.hands[seat]))]
        if not self.pt.any_multi or len(self.hands[seat]) < 2:
            return singles
        return singles + self._multi_plays(seat)

    def _multi_plays(self, seat: int) -> list[tuple[int, ...]]:
        """Multi-card sequences found depth-first, at most ``MAX_MULTI``, each way of
        laying the same cards listed once (``_play_key``)."""
        hand = self.hands[seat]
        faces = sorted(set(hand))
        counts = {c: hand.count(c) for c in faces}
        pend = self.pending
        if pend is None or pend["kind"] in ("cover", "go_on"):
            ok = self._opening()
            starts = [c for c in faces if ok[c]]
        elif pend["kind"] == "pickup":
            starts = sorted(self._answering(faces, pend))
        else:
            starts = [c for c in faces if self._chain_reason((c,), pend) is None]
        multi: list[tuple[int, ...]] = []
        seen: set[tuple[Any, ...]] = set()

        def add(seq: tuple[int, ...]) -> None:
            key = self._play_key(seq)
            if key not in seen:
                seen.add(key)
                multi.append(seq)

        for first in starts:
            if self.pt.suit_run[first]:
                rest = sorted(c for c in hand if SUIT[c] == SUIT[first] and c != first)
                extra = rest + [first] * (counts[first] - 1)
                for i in range(len(extra)):  # each of them last once
                    add((first, *extra[:i], *extra[i + 1 :], extra[i]))
        if pend is not None and pend["kind"] == "pickup" and self.pt.any_cancel:
            for first in starts:  # cancelling cards alike, laid together
                if self._cancels(first, pend):
                    alike = [c for c in hand if c != first and self._alike((first, c))]
                    alike += [first] * (counts[first] - 1)
                    for k in range(1, len(alike) + 1):
                        add((first, *sorted(alike[:k])))
        if not self.pt.any_chain:
            return multi  # only suit runs: no card may follow another by rank or run
        per_start = max(4, MAX_MULTI // max(1, len(starts)))
        limit = 0

        def extend(seq: list[int], direction: int) -> None:
            if len(multi) >= limit:
                return
            if len(seq) > 1:
                add(tuple(seq))
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
            limit = min(len(multi) + per_start, MAX_MULTI)
            counts[first] -= 1
            extend([first], 0)
            counts[first] += 1
        return multi

    def _play_key(self, cards: tuple[int, ...]) -> tuple[Any, ...]:
        """What a play does, for listing each once: the cards it lays, and the rank and
        powers of the card it leaves on top. Orders of the same cards that differ only
        in the suit left on top (``9C 9H``, ``9H 9C``) share a key: the listing shows the
        first in card order, and a player who wants the other suit on top types that
        order, which is accepted like any valid play."""
        last = cards[-1]
        return (tuple(sorted(cards)), RANK[last], self.pt.sig[last])

    # ------------------------------------------------------------ applying
    def _apply(self, seat: int, action: Action) -> list[Event]:
        self._listed = None
        if self.caller is not None and self.caller != seat:
            self.caller = None  # the cards call is made before the next player acts
        events = self._settle_owing(seat) if self.owing is not None else []
        if isinstance(action, Play):
            self.turns += 1
            codes = _CODES.get(id(action))  # ``codes.codes_of(action)``: a lookup, not a rule
            played = self._play(seat, codes_of(action) if codes is None else codes, action.last)
            if events:
                events += played
            else:
                events = played
        elif isinstance(action, Last):
            self.announced.add(seat)
            if self.owing == seat:
                self.owing = None
            return [*events, Event("last", {"seat": seat})]
        elif isinstance(action, Draw):
            self.turns += 1
            events += self._draw_action(seat)
        elif isinstance(action, Pass):
            self.turns += 1
            events += self._pass(seat)
        elif isinstance(action, Nominate):
            self.turns += 1
            self.nominated = suit_index(action.suit)
            self.awaiting = None
            events.append(Event("nominate", {"seat": seat, "suit": action.suit}))
            if self.going_on:  # the same player may go on laying the suit he named
                self.going_on = False
                self.pending = {"kind": "go_on", "count": 0}
            else:
                assert self.after_suit is not None
                self.turn = self.after_suit
            self.after_suit = None
        else:
            self.turns += 1
        if not self.hand_over and self.turns >= HAND_TURN_LIMIT:
            events += self._end_hand(blocked=True)
        if self.hand_over and not self.game_over:
            self._deal((self.dealer + 1) % self.seats, None)
            events.append(self._deal_event())
        return events

    def _illegal(self, seat: int, action: Action, reason: str) -> list[Event] | None:
        """A penalised blunder: the cards stay in hand, the penalty is drawn, and the
        turn does not pass (the player still owes a legal move)."""
        self._listed = None
        if not isinstance(action, Play) or self.hand_over or seat in self.finished:
            return None
        cards = codes_of(action)
        if self._holds(seat, cards) is not None:
            return None
        o = self.options
        at_end = reason.startswith("you may not go out on")
        if at_end and o["end_penalty"]:
            n = o["end_penalty"]
        elif o["illegal_penalty"] and not at_end:
            n = o["illegal_penalty"]
        else:
            return None
        events = self._settle_owing(seat)
        events.append(Event("blunder", {"seat": seat, "cards": _texts(cards), "why": reason}))
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

    def _draw_cards(self, n: int) -> list[int]:
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
                self.rng.shuffle(self.stock)
            out.append(self.stock.pop())
        return out

    def _took(self, seat: int, cards: list[int], reason: str) -> Event:
        """Put drawn cards in a hand; the event shows them to the drawer only."""
        self.hands[seat].extend(cards)
        if len(self.hands[seat]) != 1:
            self.announced.discard(seat)
            if self.owing == seat:
                self.owing = None
        return Event(
            "draw",
            {"seat": seat, "count": len(cards), "reason": reason},
            {seat: {"cards": _texts(cards)}},
        )

    def _give(self, seat: int, n: int, reason: str) -> Event:
        return self._took(seat, self._draw_cards(n), reason)

    def _next(self, seat: int, steps: int = 1) -> int:
        """The seat ``steps`` turns on, jumping finished seats and using up misses."""
        s = seat
        while steps > 0:
            s = (s + self.direction) % self.seats
            if self.finished and s in self.finished:
                continue
            if self.misses[s] > 0 and s != seat:
                self.misses[s] -= 1
                continue
            steps -= 1
        return s

    def _pass_turn(self, seat: int, idle: bool) -> None:
        self.awaiting = None
        if self.drawn:
            self.drawn = []
        self.idle = self.idle + 1 if idle else 0
        self.turn = self._next(seat)
        if self.idle >= self.seats - len(self.finished):
            self.hand_over = True  # nobody could play or draw for a whole round

    def _draw_action(self, seat: int) -> list[Event]:
        pend = self.pending
        if pend is not None and pend["kind"] == "pickup":
            self.pending = None
            ev = self._give(seat, pend["count"], "pick-up")
            self._pass_turn(seat, idle=False)
            return [ev]
        self.pending = None  # a card not covered
        rule = self.options["draw"]
        if rule == "until":
            cards: list[int] = []
            while True:
                got = self._draw_cards(1)
                cards += got
                if not got or self._matches(got[0]):
                    break
        else:
            cards = self._draw_cards(rule)
        events = [self._took(seat, cards, "draw")]
        playable = [c for c in cards if self._matches(c)] if self.options["play_drawn"] else []
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
        elif pend is not None and pend["kind"] != "go_on":
            ev = Event("skip", {"seat": seat})
        else:
            ev = Event("pass", {"seat": seat})
        self._pass_turn(seat, idle=pend is None)
        events = [ev]
        if self.hand_over:
            events += self._end_hand(blocked=True)
        return events

    def _play(self, seat: int, cards: tuple[int, ...], announced: bool) -> list[Event]:
        pt = self.pt
        hand = self.hands[seat]
        called = self.cards_call and seat in self.announced  # before this play
        last = cards[-1]
        single = len(cards) == 1  # most plays: no loops, sums or slices for them
        if single:
            hand.remove(last)
            self.pile.append(last)
            texts = [TEXT[last]]
        else:
            for c in cards:
                hand.remove(c)
            self.pile.extend(cards)
            texts = _texts(cards)
        self.nominated = None
        self.awaiting = None
        if self.drawn:
            self.drawn = []
        self.idle = 0
        if self.cards_call:
            self.caller = seat
        events = [Event("play", {"seat": seat, "cards": texts})]
        if len(hand) == 1:
            if announced:
                self.announced.add(seat)
                events.append(Event("last", {"seat": seat}))
            elif self.announce and seat not in self.announced:
                self.owing = seat
        elif announced and hand:  # the cards call: he means to go out next go
            self.announced.add(seat)
            events.append(Event("last", {"seat": seat}))
        else:
            self.announced.discard(seat)
        pend = self.pending
        n = 1  # how many cards at the end of the play do what the last one does
        if not single:
            for c in reversed(cards[:-1]):
                if RANK[c] != RANK[last] or pt.sig[c] != pt.sig[last]:
                    break
                n += 1
        answered = False
        if pend is not None:
            self.pending = None
            answered = pend["kind"] == "pickup"
            if answered:
                if all(self._cancels(c, pend) for c in cards):
                    took, cancel_events = self._cancel(seat, cards, pend)
                    events += cancel_events
                    if took:  # the rest of the pick-up was taken and the turn has passed
                        return events + self._maybe_out(seat)
                else:
                    self.pending = {
                        "kind": "pickup",
                        "count": pend["count"] + sum(pt.raises[c] for c in cards),
                        "cards": pend["cards"] + list(cards),
                    }
            elif pend["kind"] == "miss":
                n += pend["count"]
        if not hand and self.cards_call and not called:
            # Black Jack: "If the player places their last card, but failed to say 'last
            # card' at the end of their previous turn, then they must pick up two cards"
            events.append(self._give(seat, self.options["last_penalty"], "no cards call"))
        if not hand:
            events += self._maybe_out(seat)
            if self.hand_over:
                return events
        if not pt.power[last]:
            self.turn = self._next(seat)  # a plain card: the turn simply passes
            return events
        # the play's own power
        steps = 1
        if pt.pickup[last] and not answered:
            picked = [last] if single else [c for c in cards if pt.pickup[c]]
            self.pending = {
                "kind": "pickup",
                "count": sum(pt.pickup[c] for c in picked),
                "cards": picked,
            }
        if pt.skip[last]:
            if self.options["skip_chain"]:
                self.pending = {"kind": "skip", "count": 1, "rank": RANK[last]}
            else:
                steps += n
        if pt.miss[last]:
            self.pending = {"kind": "miss", "count": n, "rank": RANK[last]}
        if pt.swap[last] and hand:
            events.append(self._swap(seat))
        out = seat in self.finished
        if pt.reverse[last]:
            if len(self._active()) == 2 and not out:
                next_seat = seat  # with two players a reverse means play again
            else:
                if n % 2:
                    self.direction = -self.direction
                next_seat = self._next(seat, steps)
            events.append(Event("reverse", {"seat": seat, "direction": self.direction}))
        elif pt.cover[last] and not out:
            next_seat = seat
            self.pending = {"kind": "cover", "count": 1}
        else:
            next_seat = self._next(seat, steps)
        if steps > 1:
            events.append(Event("skip", {"seat": self._skipped(seat, steps - 1)}))
        if pt.nominate[last] and not out:
            self.awaiting = "suit"
            self.after_suit = next_seat
            # j28: "then the player is allowed to lay a heart and any other appropriate
            # cards on that go" (only when the card leaves nothing else to do)
            self.going_on = (
                pt.go_on[last] and self.pending is None and steps == 1 and next_seat != seat
            )
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
        self, seat: int, cards: tuple[int, ...], pend: dict[str, Any]
    ) -> tuple[bool, list[Event]]:
        """Each canceller removes one card's pick-up (or all the cards of a kind it
        cancels all of, like Black Jack's red jack on twos); its player takes what is left."""
        remaining = list(pend["cards"])
        count = pend["count"]
        pt = self.pt
        for c in cards:
            if pt.cancels_all[c]:
                remaining, count = [], 0
                continue
            cancels, every = pt.cancels[c], pt.cancels_every[c]
            i = -1
            if cancels is not None:  # one card of those it cancels one at a time
                i = next((i for i, r in enumerate(remaining) if r in cancels), -1)
            if i >= 0:
                count -= pt.raises[remaining.pop(i)]
            elif every is not None:  # else every card of those it cancels all of
                count -= sum(pt.raises[r] for r in remaining if r in every)
                remaining = [r for r in remaining if r not in every]
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
            points = sum(self.pt.points[c] for h in self.hands for c in h)
            self.total_scores[seat] += points
            self._hand_points[seat] = points
        if self.options["finish"] == "first" or len(self._active()) <= 1:
            events += self._end_hand(blocked=False)
        return events

    def _end_hand(self, blocked: bool) -> list[Event]:
        self.hand_over = True
        self.pending = None
        self.awaiting = None
        points = self.pt.points
        if blocked and not self.finished:
            # Nobody went out: the fewest cards wins, then the fewest points, then
            # the first in turn order from the dealer's left.
            order = [(self.dealer + k) % self.seats for k in range(1, self.seats + 1)]
            winner = min(
                order,
                key=lambda s: (
                    len(self.hands[s]),
                    sum(points[c] for c in self.hands[s]),
                    order.index(s),
                ),
            )
            won = sum(points[c] for s, h in enumerate(self.hands) if s != winner for c in h)
            self.total_scores[winner] += won
            self._hand_points[winner] = won
            self.finished.append(winner)
        for s in self._active():
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
        if len(self.hands[seat]) == 1 and self.announce:
            self.owing = seat
        return Event(
            "swap",
            {"seat": seat, "with": other},
            {
                seat: {"hand": _texts(self.hands[seat])},
                other: {"hand": _texts(self.hands[other])},
            },
        )

    def _deal_event(self) -> Event:
        return Event(
            "deal",
            {
                "dealer": self.dealer,
                "hand_number": self.hand_number,
                "hand_sizes": [len(h) for h in self.hands],
                "top": TEXT[self.pile[-1]] if self.pile else None,
            },
            {s: {"hand": _texts(self.hands[s])} for s in range(self.seats)},
        )

    # -------------------------------------------------------------- views
    def _view(self, seat: int | None) -> dict[str, Any]:
        pend = self.pending
        awaiting = None
        pending = None
        # What the table waits for, as a word a program switches on (``awaiting`` says it
        # to a person): the card drawn or suit owed first, else the pending power's kind.
        awaiting_kind = self.awaiting or (None if pend is None else pend["kind"])
        if self.awaiting == "suit":
            awaiting = "nominate a suit"
        elif self.awaiting == "drawn":
            awaiting = "play the card you drew, or pass"
        if pend is not None:
            rank = "23456789TJQKA"[pend["rank"]] if "rank" in pend else None
            awaiting = (
                awaiting
                or {
                    "pickup": f"stack, cancel, or draw {pend['count']}",
                    "skip": "pass the skip on, or pass",
                    "miss": f"play a {rank} or miss {pend['count']} turn(s)",
                    "cover": "cover the card, or draw",
                    "go_on": "go on in the suit you named, or pass",
                }[pend["kind"]]
            )
            pending = {"kind": pend["kind"], "count": pend["count"]}
            pending["cards"] = _texts(pend.get("cards", []))
            if rank is not None:
                pending["rank"] = rank
        return {
            "preset": self.ruleset,
            "hand": None if seat is None else _texts(self.hands[seat]),
            "hand_sizes": [len(h) for h in self.hands],
            "top": TEXT[self.pile[-1]] if self.pile else None,
            "pile_size": len(self.pile),
            "nominated": None if self.nominated is None else SUIT_LETTER[self.nominated],
            "stock": len(self.stock),
            "pending": pending,
            "direction": self.direction,
            "finished": list(self.finished),
            "dealer": self.dealer,
            "announced": sorted(self.announced),
            "hand_number": self.hand_number,
            "target": self.options["target"],
            "awaiting": awaiting,
            "awaiting_kind": awaiting_kind,
            "drawn": _texts(self.drawn) if seat == self.turn else [],
            "misses": list(self.misses),
        }

    # ------------------------------------------------------------ snapshots
    def _snapshot_state(self) -> dict[str, Any]:
        pending = self.pending
        return {
            "total_scores": list(self.total_scores),
            "hand_scores": [list(h) for h in self.hand_scores],
            "hand_number": self.hand_number,
            "game_over": self.game_over,
            "deck_size": self.deck_size,
            "dealer": self.dealer,
            "hands": [list(h) for h in self.hands],
            "stock": list(self.stock),
            "pile": list(self.pile),
            "turn": self.turn,
            "direction": self.direction,
            "nominated": self.nominated,
            "pending": None
            if pending is None
            else {k: list(v) if isinstance(v, list | tuple) else v for k, v in pending.items()},
            "awaiting": self.awaiting,
            "drawn": list(self.drawn),
            "after_suit": self.after_suit,
            "going_on": self.going_on,
            "finished": list(self.finished),
            "announced": sorted(self.announced),
            "owing": self.owing,
            "caller": self.caller,
            "misses": list(self.misses),
            "idle": self.idle,
            "turns": self.turns,
            "hand_over": self.hand_over,
            "hand_points": list(self._hand_points),
        }

    def _restore_state(self, state: Mapping[str, Any]) -> None:
        pending = state["pending"]
        self.total_scores = list(state["total_scores"])
        self.hand_scores = [list(h) for h in state["hand_scores"]]
        self.hand_number = state["hand_number"]
        self.game_over = bool(state["game_over"])
        self.deck_size = state["deck_size"]
        self.dealer = state["dealer"]
        self.hands = [list(h) for h in state["hands"]]
        self.stock = list(state["stock"])
        self.pile = list(state["pile"])
        self.turn = state["turn"]
        self.direction = state["direction"]
        self.nominated = state["nominated"]
        self.pending = (
            None
            if pending is None
            else {k: list(v) if isinstance(v, list | tuple) else v for k, v in pending.items()}
        )
        self.awaiting = state["awaiting"]
        self.drawn = list(state["drawn"])
        self.after_suit = state["after_suit"]
        self.going_on = bool(state["going_on"])
        self.finished = list(state["finished"])
        self.announced = set(state["announced"])
        self.owing = state["owing"]
        self.caller = state["caller"]
        self.misses = list(state["misses"])
        self.idle = state["idle"]
        self.turns = state["turns"]
        self.hand_over = bool(state["hand_over"])
        self._hand_points = list(state["hand_points"])
        self._listed = None


def _texts(cards: list[int] | tuple[int, ...]) -> list[str]:
    return [TEXT[c] for c in cards]


def _codes(texts: Sequence[str] | None) -> list[int]:
    return [code(Card.parse(t)) for t in texts or []]


__all__ = ["HAND_TURN_LIMIT", "MAX_MULTI", "SheddingGame"]
