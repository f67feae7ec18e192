"""Crad Kilodney's Switch: follow suit or face, or be knocked out.

The whole 54-card deck (plus up to two extra jokers) is dealt. Each player must
follow the suit ("in suit") or the face ("switching") of the card just played,
or stop the sequence with a joker. A player who can do neither is knocked out,
and whoever played the card he could not follow scores the cards he still holds;
those cards stay face down, so no view and no event ever names them again.
One-overs, aces and deuces score as the card is played. First to 50 wins, even
in the middle of a hand.

A knock-out is not an action: the moment the player to act has no legal play,
the engine knocks him out and says so with a ``knockout`` event (players say
"Knocked out" at the table; there is nothing to choose). ``docs/rules.md``
lists every ruling made where the source is silent.

>>> import engine
>>> game = engine.new_game("kilodney", seats=4, seed=3)
>>> game.view(0)["running"], len(game.view(0)["hand"]), game.view(None)["hand"]
(False, 14, None)
>>> score_play(Card.parse("AH"), Card.parse("KH"))
(2, ['ace in suit', 'one-over'])
"""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping, Sequence
from typing import Any

from engine.actions import Action, Play
from engine.cards import JOKER, JOKER_RANK, SUITS, Card, format_cards, make_deck, shuffled
from engine.errors import OptionError
from engine.events import Event
from engine.game import Game
from engine.kilodney import vocabulary as v
from engine.kilodney.vocabulary import VOCABULARY, KilodneyView
from engine.options import Option, OptionSchema
from engine.registry import new_game
from engine.vocabulary import CommonView

STANDARD_JOKERS = 2
STANDARD_DECK = 52 + STANDARD_JOKERS
MAX_EXTRA_JOKERS = 2
TARGET = 50


def default_extra_jokers(seats: int) -> int:
    """The extra jokers that make the deal even, if at most two do; otherwise none.

    >>> [default_extra_jokers(n) for n in range(4, 10)]
    [2, 1, 0, 2, 2, 0]
    """
    need = -STANDARD_DECK % seats
    return need if need <= MAX_EXTRA_JOKERS else 0


def _check_extra_jokers(value: Any) -> int | None:
    """``None`` (the default: even the deal) or a whole number 0..2."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{value!r} is not a whole number")
    if not 0 <= value <= MAX_EXTRA_JOKERS:
        raise ValueError(f"{value} is outside 0..{MAX_EXTRA_JOKERS}")
    return value


SCHEMA = OptionSchema(
    [
        Option(
            "extra_jokers",
            None,
            "jokers added to the 54-card deck, 0-2 (default: as many as make the deal even)",
            minimum=0,
            maximum=MAX_EXTRA_JOKERS,
            check=_check_extra_jokers,
        ),
        Option("target", TARGET, "points that win the game", minimum=1, maximum=500),
    ]
)


def hand_order(card: Card) -> tuple[int, int]:
    """Sort key: by suit (clubs, diamonds, hearts, spades), then rank; jokers last,
    the way the source tells players to organise a hand."""
    return (len(SUITS), 0) if card.is_joker else (SUITS.index(card.suit), card.value)


def follows(card: Card, previous: Card) -> bool:
    """Whether ``card`` may answer ``previous``: same suit, same face, or a joker.

    >>> follows(Card.parse("5C"), Card.parse("9H")), follows(Card.parse("JK"), Card.parse("9H"))
    (False, True)
    """
    return card.is_joker or card.suit == previous.suit or card.rank == previous.rank


def score_play(card: Card, previous: Card | None) -> tuple[int, list[str]]:
    """Points for playing ``card`` on ``previous`` (``None``: beginning a sequence).

    One-over scores +1 and one-under -1 (the ace is high only: A is one over K,
    2 is not one over A); an ace in suit or as a lead +1, a deuce -1, neither
    when switching. A joker scores nothing. Several reasons add up.

    >>> score_play(Card.parse("2D"), Card.parse("3D"))
    (-2, ['deuce in suit', 'one-under'])
    >>> score_play(Card.parse("2C"), Card.parse("2D"))
    (0, [])
    >>> score_play(Card.parse("AS"), None)
    (1, ['ace lead'])
    """
    if card.is_joker:
        return 0, []
    reasons: list[tuple[int, str]] = []
    if previous is None:
        if card.rank == "A":
            reasons.append((1, "ace lead"))
        elif card.rank == "2":
            reasons.append((-1, "deuce lead"))
    else:
        if card.suit == previous.suit:
            if card.rank == "A":
                reasons.append((1, "ace in suit"))
            elif card.rank == "2":
                reasons.append((-1, "deuce in suit"))
        if card.value == previous.value + 1:
            reasons.append((1, "one-over"))
        elif card.value == previous.value - 1:
            reasons.append((-1, "one-under"))
    return sum(p for p, _ in reasons), [r for _, r in reasons]


#: Each card by its face, for reading snapshots (``Card.parse`` reads what people type).
_FACES = {str(c): c for c in make_deck(packs=1, jokers=1)}


@functools.cache
def _play(card: Card) -> Play:
    """One shared ``Play`` per card: actions are frozen values, and listing the
    legal plays is most of the work of a bot or a playout."""
    return Play((card,))


class Kilodney(Game[KilodneyView]):
    """One game of Kilodney's Switch: hands dealt in turn until someone reaches the target."""

    family = "kilodney"
    vocabulary = VOCABULARY
    min_seats = 4
    max_seats = 9
    schema = SCHEMA

    # ------------------------------------------------------------- dealing
    def _setup(self, dealer: int | None, deck: list[Card] | None) -> None:
        n = self.seats
        self.target: int = self.options["target"]
        extra = self.options["extra_jokers"]
        self.extra_jokers: int = default_extra_jokers(n) if extra is None else extra
        self._scores = [0] * n
        self._over = False
        self.winner: int | None = None
        # The source does not say how the first dealer is chosen: the table's
        # generator draws one, so the record still replays.
        self.dealer: int = self.rng.randrange(n) if dealer is None else dealer
        self.hand_number = 0
        #: The first deal's event: it happens before any action, so ``apply``
        #: cannot return it; a table sends it to each seat when the game starts.
        self.opening_events: list[Event] = [self._deal(deck)]

    def _full_deck(self) -> list[Card]:
        return make_deck(packs=1, jokers=STANDARD_JOKERS + self.extra_jokers)

    def _deal(self, deck: list[Card] | None) -> Event:
        """Deal every card one at a time clockwise from the dealer's left; start the hand."""
        n = self.seats
        full = self._full_deck()
        if deck is None:
            cards = shuffled(full, self.rng)
        else:
            if sorted(deck, key=hand_order) != sorted(full, key=hand_order):
                raise OptionError(
                    "deck",
                    f"a kilodney deck here is the 52 cards and {len(full) - 52} jokers"
                    f" ({len(full)} cards), each once; got {len(deck)} cards",
                )
            cards = list(deck)
        self.hand_number += 1
        self.hands: list[list[Card]] = [[] for _ in range(n)]
        for i, card in enumerate(cards):
            self.hands[(self.dealer + 1 + i) % n].append(card)
        for hand in self.hands:
            hand.sort(key=hand_order)
        self.pile: list[Card] = []
        self.top: Card | None = None
        self.running = False
        self.leader: int | None = None
        self.in_hand = [bool(h) for h in self.hands]
        self.knocked_out: list[int] = []
        self.stranded: list[int] = []
        self.hand_points = [0] * n
        self.turn = (self.dealer + 1) % n
        dealt: v.KilodneyDealFields = {
            "dealer": self.dealer,
            "hand_number": self.hand_number,
            "hand_sizes": [len(h) for h in self.hands],
            "first": self.turn,
        }
        hands: dict[int, v.KilodneyDealPrivate] = {
            s: {"cards": format_cards(self.hands[s])} for s in range(n)
        }
        return Event("deal", dealt, hands)

    def _copy_state(self, new: Kilodney) -> None:
        """Cards are immutable values, so copying the lists that hold them is enough."""
        new._scores = list(self._scores)
        new.hands = [list(h) for h in self.hands]
        new.pile = list(self.pile)
        new.in_hand = list(self.in_hand)
        new.knocked_out = list(self.knocked_out)
        new.stranded = list(self.stranded)
        new.hand_points = list(self.hand_points)

    # ------------------------------------------------- rebuilt from a view
    @classmethod
    def from_view(
        cls, view: Mapping[str, Any], played: Sequence[Card] | None = None, **known: Any
    ) -> Kilodney:
        """The hand as ``view`` shows it to its seat, with the cards the seat saw played
        this hand (``played``; ``None`` if it missed some) as the pile: the seat's own hand,
        the card to follow, who is in and out, the scores. The other hands are empty:
        ``deal_unseen`` fills them. The deck's extra jokers follow from the cards
        counted (the hands and the pile) when every played card is known.

        >>> import engine
        >>> game = engine.new_game("kilodney", seats=4, seed=3)
        >>> seen = Kilodney.from_view(game.view(2), played=[])
        >>> seen.view(2)["hand"] == game.view(2)["hand"], seen.view(2)["hand_sizes"]
        (True, [0, 0, 14, 0])
        """
        n = view["seats"]
        total = sum(view["hand_sizes"]) + len(played) if played is not None else None
        extra = max(0, (total - STANDARD_DECK) if total is not None else default_extra_jokers(n))
        game = new_game(
            view["ruleset"],
            seats=n,
            seed=0,
            options={"target": view["target"], "extra_jokers": min(extra, MAX_EXTRA_JOKERS)},
            dealer=view["dealer"],
        )
        assert isinstance(game, cls)
        me = view["viewer"]
        game.hands = [
            [Card.parse(c) for c in view["hand"] or []] if s == me else [] for s in range(n)
        ]
        game.pile = list(played) if played is not None else []
        game.top = Card.parse(view["top"]) if view.get("top") else None
        game.running = view["running"]
        game.leader = view.get("leader")
        game.in_hand = list(view["in_hand"])
        game.knocked_out = list(view["knocked_out"])
        game.stranded = list(view.get("stranded", []))
        game.hand_points = list(view.get("hand_points", [0] * n))
        game.turn = view["to_act"]
        game.hand_number = view["hand_number"]
        game._scores = list(view["scores"])
        game.opening_events = []
        return game

    def deal_unseen(
        self, view: Mapping[str, Any], cards: Sequence[Card], rng: random.Random
    ) -> Kilodney:
        """A world: ``cards`` fill each other seat's hand to the size ``view`` gives (a
        knocked-out hand too: its cards are unseen, not gone), sorted as every hand is.
        Where they run short (the seat missed some plays) jokers make up the count,
        which only makes the sampled opponents a little stronger."""
        world = self.copy(rng=rng)
        me = view["viewer"]
        rest = list(cards)
        for s, size in enumerate(view["hand_sizes"]):
            if s != me:
                take, rest = rest[:size], rest[size:]
                world.hands[s] = sorted(take + [JOKER] * (size - len(take)), key=hand_order)
        return world

    # ------------------------------------------------------ where it stands
    @property
    def to_act(self) -> int | None:
        return None if self._over else self.turn

    @property
    def over(self) -> bool:
        return self._over

    @property
    def scores(self) -> list[int]:
        return list(self._scores)

    def _hidden(self, seat: int) -> bool:
        """A knocked-out or stranded hand: face down for the rest of time."""
        return seat in self.knocked_out or seat in self.stranded

    def _playable(self, seat: int) -> list[Card]:
        """The distinct cards ``seat`` may play now, ignoring whose turn it is.

        The hot path of every playout: the hand is kept sorted with its jokers
        last, and every other card is unique, so two jokers are the only twins."""
        hand = self.hands[seat]
        top = self.top
        if self.running and top is not None:
            suit, rank = top.suit, top.rank
            cards = [c for c in hand if c.suit == suit or c.rank == rank or c.rank == JOKER_RANK]
        else:
            cards = list(hand)
        while len(cards) > 1 and cards[-1] == cards[-2]:
            cards.pop()
        return cards

    def legal_actions(self, seat: int) -> list[Action]:
        if self._over or seat != self.turn:
            return []
        return [_play(card) for card in self._playable(seat)]

    def is_legal(self, seat: int, action: Action) -> bool:
        if self._over or seat != self.turn or not isinstance(action, Play):
            return False
        if action.last or len(action.cards) != 1:
            return False
        card = action.cards[0]
        if card not in self.hands[seat]:
            return False
        return not self.running or self.top is None or follows(card, self.top)

    def explain(self, seat: int, action: Action) -> str:
        if seat != self.turn:
            if self._hidden(seat):
                return "you are out of this hand (knocked out or stranded)"
            if not self.in_hand[seat]:
                return "you have played all your cards and are out of this hand"
            return f"it is not your turn; seat {self.turn + 1} is to play (counted from 1)"
        if not isinstance(action, Play):
            return "in kilodney the only action is 'play CARD' (e.g. play QH)"
        if len(action.cards) != 1:
            return "play one card at a time"
        if action.last:
            return "kilodney has no last-card announcement; just 'play CARD'"
        card = action.cards[0]
        if card not in self.hands[seat]:
            return f"you do not hold {card}"
        if self.running and self.top is not None and not follows(card, self.top):
            return f"{card} follows neither the suit nor the face of {self.top}"
        return super().explain(seat, action)

    # ------------------------------------------------------------- playing
    def _apply(self, seat: int, action: Action) -> list[Event]:
        assert isinstance(action, Play)
        card = action.cards[0]
        previous = self.top if self.running else None
        last_player = sum(self.in_hand) == 1
        points, reasons = score_play(card, previous)
        if card.is_joker:
            how = "joker"
        elif previous is None:
            how = "lead"
        else:
            how = "suit" if card.suit == previous.suit else "switch"
        hand = self.hands[seat]
        hand.remove(card)
        self.pile.append(card)
        self.top, self.leader = card, seat
        self.running = not card.is_joker
        left = not hand
        if left:
            self.in_hand[seat] = False
        self._add_points(seat, points)
        played: v.KilodneyPlayFields = {
            "seat": seat,
            "card": str(card),
            "how": how,
            "stop": card.is_joker,
            "points": points,
            "reasons": reasons,
            "score": self._scores[seat],
            "cards_left": len(hand),
            "left": left,
        }
        events = [Event("play", played)]
        if self._over:
            return [*events, self._game_end()]
        if last_player:
            # The last player's single reply ends the hand; what he holds is stranded.
            return [*events, *self._end_hand()]
        return [*events, *self._advance(seat)]

    def _add_points(self, seat: int, points: int) -> None:
        if points:
            self._scores[seat] += points
            self.hand_points[seat] += points
            if self._scores[seat] >= self.target:
                self._over = True
                self.winner = seat

    def next_in_hand(self, after: int) -> int:
        """The next seat after ``after``, clockwise, still in the hand (``after`` itself if
        it is the only one): who must follow the card ``after`` plays."""
        n = self.seats
        for step in range(1, n + 1):
            seat = (after + step) % n
            if self.in_hand[seat]:
                return seat
        raise AssertionError("nobody is in the hand")

    def _advance(self, after: int) -> list[Event]:
        """Pass the turn on from ``after``: knock out a player who cannot follow, end
        the hand when one player or none is left and nothing needs a reply."""
        events: list[Event] = []
        while True:
            remaining = sum(self.in_hand)
            if remaining == 0 or (remaining == 1 and not self.running):
                return [*events, *self._end_hand()]
            nxt = self.next_in_hand(after)
            if not self.running or self._playable(nxt):
                self.turn = nxt
                return events
            events.append(self._knock_out(nxt))
            if self._over:
                return [*events, self._game_end()]
            after = nxt

    def _knock_out(self, seat: int) -> Event:
        assert self.leader is not None and self.top is not None
        count = len(self.hands[seat])
        self.in_hand[seat] = False
        self.knocked_out.append(seat)
        self.running = False
        self._add_points(self.leader, count)
        knocked: v.KilodneyKnockoutFields = {
            "seat": seat,
            "by": self.leader,
            "card": str(self.top),
            "count": count,
            "points": count,
            "score": self._scores[self.leader],
        }
        return Event("knockout", knocked)

    def _end_hand(self) -> list[Event]:
        n = self.seats
        stranded = [s for s in range(n) if self.in_hand[s]]
        for s in stranded:
            self.in_hand[s] = False
            self.stranded.append(s)
        ended: v.KilodneyHandEndFields = {
            "hand_number": self.hand_number,
            "hand_points": list(self.hand_points),
            "scores": list(self._scores),
            "knocked_out": list(self.knocked_out),
            "stranded": [{"seat": s, "count": len(self.hands[s])} for s in stranded],
        }
        end = Event("hand_end", ended)
        self.dealer = (self.dealer + 1) % n
        return [end, self._deal(None)]

    def _game_end(self) -> Event:
        winner = self.winner
        assert winner is not None  # called once the game is over
        over: v.KilodneyGameEndFields = {
            "seat": winner,
            "winner": winner,
            "scores": list(self._scores),
            "hand_number": self.hand_number,
            "hand_points": list(self.hand_points),
        }
        return Event("game_end", over)

    # ---------------------------------------------------------------- views
    def _view(self, seat: int | None, common: CommonView) -> KilodneyView:
        if seat is None:
            hand = None
        elif self._hidden(seat):
            hand = []  # face down in front of him: not even his own view names them
        else:
            hand = format_cards(self.hands[seat])
        return {
            "ruleset": common["ruleset"],  # first, then the family (``Game._view``)
            "family": "kilodney",
            **common,
            "hand": hand,
            "hand_sizes": [len(h) for h in self.hands],
            "top": None if self.top is None else str(self.top),
            "running": self.running,
            "in_hand": list(self.in_hand),
            "knocked_out": list(self.knocked_out),
            "stranded": list(self.stranded),
            "dealer": self.dealer,
            "hand_number": self.hand_number,
            "hand_points": list(self.hand_points),
            "target": self.target,
            "jokers": STANDARD_JOKERS + self.extra_jokers,  # in the deck: public, for counting
            "leader": self.leader,
            "winner": self.winner,
        }

    # ------------------------------------------------------------ snapshots
    def _snapshot_state(self) -> dict[str, Any]:
        return {
            "scores": list(self._scores),
            "over": self._over,
            "winner": self.winner,
            "dealer": self.dealer,
            "hand_number": self.hand_number,
            "hands": [format_cards(h) for h in self.hands],
            "pile": format_cards(self.pile),
            "top": None if self.top is None else str(self.top),
            "running": self.running,
            "leader": self.leader,
            "in_hand": list(self.in_hand),
            "knocked_out": list(self.knocked_out),
            "stranded": list(self.stranded),
            "hand_points": list(self.hand_points),
            "turn": self.turn,
        }

    def _restore_state(self, state: Mapping[str, Any]) -> None:
        self._scores = list(state["scores"])
        self._over = bool(state["over"])
        self.winner = state["winner"]
        self.dealer = state["dealer"]
        self.hand_number = state["hand_number"]
        self.hands = [[_FACES[c] for c in h] for h in state["hands"]]
        self.pile = [_FACES[c] for c in state["pile"]]
        self.top = None if state["top"] is None else _FACES[state["top"]]
        self.running = bool(state["running"])
        self.leader = state["leader"]
        self.in_hand = [bool(x) for x in state["in_hand"]]
        self.knocked_out = list(state["knocked_out"])
        self.stranded = list(state["stranded"])
        self.hand_points = list(state["hand_points"])
        self.turn = state["turn"]


def deck_for_hands(hands: Sequence[Sequence[str]], dealer: int) -> list[str]:
    """The deck order that deals ``hands`` (one list per seat, equal lengths) when
    ``dealer`` deals one card at a time from his left: how tests fix a deal.

    >>> deck_for_hands([["AS", "2S"], ["KD", "QD"], ["JK", "3C"], ["4H", "5H"]], dealer=3)
    ['AS', 'KD', 'JK', '4H', '2S', 'QD', '3C', '5H']
    """
    n = len(hands)
    sizes = {len(h) for h in hands}
    if len(sizes) != 1:
        raise ValueError("deck_for_hands needs hands of equal length")
    (size,) = sizes
    return [hands[(dealer + 1 + i) % n][i // n] for i in range(size * n)]
