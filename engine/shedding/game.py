"""The shedding rules machine: one ``Game`` that every preset drives with data.

A turn is one or two actions: a play (or a draw, or ``pass`` to accept a skip),
then, after a nominating card, ``suit X``; after a draw the player may play the
drawn card where the table allows it. After a go-on card (j28's jack) and its
``suit X`` the turn stays with its player (a pending ``go_on``): he plays on in
that suit or ``pass``es; ``play JD 6H 7H`` says the same go in one play.

A preset that names an ``illegal_penalty`` takes a wrong play of held cards as a
blunder: the penalty is drawn and nothing else changes.

This class holds the game together and keeps the contract; the rules live in
the modules beside it, each with one job, all reading and changing nothing but
the two state objects of the ``state`` module (``HandState``, ``MatchState``):

- ``table``: the options compiled to per-card answers (``TableRules``);
- ``matching``: which cards go on the pile and which go together in one play;
- ``legality``: whether an action is legal now, and why not;
- ``listing``: the legal actions of a seat;
- ``resolve``: what a play, a draw, a pass or a suit does; ``scoring``: going out;
- ``views`` and ``snapshots``: the state as each seat sees it, and as plain data.

Cards are ints inside (see ``codes``).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from engine.actions import Action, Draw, Last, Nominate, Pass, Play
from engine.cards import Card
from engine.errors import OptionError
from engine.events import Event
from engine.game import Game
from engine.options import OptionSchema
from engine.registry import new_game
from engine.shedding import legality, listing, resolve, snapshots, views
from engine.shedding import vocabulary as v
from engine.shedding.codes import _CODES, JK, NOTATION, TEXT, code, codes_of, make_play
from engine.shedding.listing import MAX_MULTI
from engine.shedding.rules import SCHEMA
from engine.shedding.scoring import end_hand
from engine.shedding.state import HandState, MatchState, Pending
from engine.shedding.table import PowerTable, TableRules, table_rules
from engine.shedding.vocabulary import VOCABULARY, SheddingView
from engine.vocabulary import CommonView

#: A hand that lasts this many turns is ended as blocked: no game runs forever.
HAND_TURN_LIMIT = 2000


class SheddingGame(Game[SheddingView]):
    """Switch and its house versions: match suit or rank, power cards, shed your hand."""

    family: ClassVar[str] = "shedding"
    vocabulary = VOCABULARY
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 8
    schema: ClassVar[OptionSchema] = SCHEMA
    #: Whether ``legal_actions`` takes its shortcut for the common case (the tests
    #: turn it off to check that the shortcut lists exactly what the long way does).
    _fast: ClassVar[bool] = True

    rules: TableRules
    state: HandState
    match: MatchState

    # ------------------------------------------------------------ setup
    def _setup(self, dealer: int | None, deck: list[Card] | None) -> None:
        self.rules = rules = table_rules(self.options, self.seats)
        if deck is None and self.seats * rules.hand_size + 1 > 52 * rules.decks + rules.jokers:
            raise OptionError(
                "hand_size",
                f"{self.seats} hands of {rules.hand_size} do not fit in {rules.decks} pack(s)",
            )
        self.match = MatchState([0] * self.seats)
        #: The actions ``legal_actions`` last listed, and for which seat: ``apply`` and
        #: ``is_legal`` know them for legal without checking again.
        self._listed: tuple[int, tuple[Action, ...]] | None = None
        first = dealer if dealer is not None else self.rng.randrange(self.seats)
        self._deal(first, None if deck is None else [code(c) for c in deck])
        self.opening_events = [views.deal_event(self.state, self.match)]

    def _deal(self, dealer: int, deck: list[int] | None) -> None:
        """Deal a hand: one card at a time from the left of the dealer, then the start card."""
        rules = self.rules
        if deck is None:
            deck = list(range(52)) * rules.decks + [JK] * rules.jokers
            self.rng.shuffle(deck)
        n = self.seats
        hands: list[list[int]] = [[] for _ in range(n)]
        pos = 0
        for _ in range(rules.hand_size):
            for k in range(1, n + 1):
                if pos < len(deck):
                    hands[(dealer + k) % n].append(deck[pos])
                    pos += 1
        stock = deck[pos:][::-1]  # the next card to draw is stock[-1]
        pile = [stock.pop()] if stock else []
        if not rules.start_power:
            while stock and rules.pt.power[pile[-1]]:
                pile.append(stock.pop())
        self.match.hand_number += 1
        self.state = HandState.dealt(dealer, hands, stock, pile, deck_size=len(deck))
        self._listed = None

    def _copy_state(self, new: SheddingGame) -> None:
        """The two state objects get copies; the table's rules are shared (compiled
        once) and so is the listing cache, which holds the very actions that are still
        legal in the copy's identical state."""
        new.state = self.state.copy()
        new.match = self.match.copy()

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
        options = {**(view.get("options") or {}), "target": view["target"]}
        # An empty deck: nothing is dealt that the view does not say.
        game = new_game(
            view["ruleset"],
            seats=view["seats"],
            seed=0,
            options=options,
            dealer=view["dealer"],
            deck=[],
        )
        assert isinstance(game, cls)
        game.state = views.state_from_view(view, known_pile, game.state.deck_size)
        game.match = MatchState(
            list(view["scores"]), hand_number=view["hand_number"], game_over=False
        )
        game.opening_events = []
        return game

    def unseen_cards(self) -> list[int]:
        """The cards of this table's deck that are nowhere in this game, as sorted codes:
        for a game ``from_view``, the cards its seat has not seen."""
        rules, state = self.rules, self.state
        pool = Counter(list(range(52)) * rules.decks + [JK] * rules.jokers)
        for hand in state.hands:
            pool.subtract(hand)
        pool.subtract(state.pile)
        pool.subtract(state.stock)
        return sorted(pool.elements())

    def deal_unseen(
        self, view: Mapping[str, Any], cards: Sequence[int], rng: random.Random
    ) -> SheddingGame:
        """A world: ``cards`` (codes) fill each other seat's hand to the size ``view``
        gives, then the pile under the cards the seat saw, then the stock."""
        world = self.copy(rng=rng)
        views.fill_unseen(world.state, view, cards)
        return world

    # ---------------------------------------------------------- contract
    @property
    def to_act(self) -> int | None:
        return None if self.match.game_over else self.state.turn

    @property
    def over(self) -> bool:
        return self.match.game_over

    @property
    def scores(self) -> list[int]:
        return self.match.total_scores

    def hand_cards(self, seat: int) -> list[Card]:
        """The cards ``seat`` holds (for tests and tools; views carry strings)."""
        return [Card.parse(TEXT[c]) for c in self.state.hands[seat]]

    # --------------------------------------------------- names for tools
    # The strategies, tests and tools read these; the rules modules use ``state``,
    # ``match`` and ``rules`` directly. A test that deals the hidden cards of a game
    # differently (to check that a decision ignores them) sets the stock and the pile.
    @property
    def pt(self) -> PowerTable:
        """The table's power cards, compiled."""
        return self.rules.pt

    @property
    def decks(self) -> int:
        return self.rules.decks

    @property
    def hand_size(self) -> int:
        return self.rules.hand_size

    @property
    def hands(self) -> list[list[int]]:
        return self.state.hands

    @property
    def stock(self) -> list[int]:
        return self.state.stock

    @stock.setter
    def stock(self, cards: list[int]) -> None:
        self.state.stock = cards

    @property
    def pile(self) -> list[int]:
        return self.state.pile

    @pile.setter
    def pile(self, cards: list[int]) -> None:
        self.state.pile = cards

    @property
    def turn(self) -> int:
        return self.state.turn

    @property
    def direction(self) -> int:
        return self.state.direction

    @property
    def finished(self) -> list[int]:
        return self.state.finished

    @property
    def pending(self) -> Pending | None:
        return self.state.pending

    @property
    def dealer(self) -> int:
        return self.state.dealer

    @property
    def deck_size(self) -> int:
        return self.state.deck_size

    @property
    def hand_over(self) -> bool:
        return self.state.hand_over

    @property
    def game_over(self) -> bool:
        return self.match.game_over

    @property
    def hand_number(self) -> int:
        return self.match.hand_number

    @property
    def hand_scores(self) -> list[list[int]]:
        return self.match.hand_scores

    @property
    def total_scores(self) -> list[int]:
        return self.match.total_scores

    # ------------------------------------------------------------ legality
    def normalize(self, seat: int, action: Action) -> Action:
        """Without last-card announcements a ``last`` on a play means nothing."""
        if isinstance(action, Play) and action.last and not self.rules.announce:
            return make_play(codes_of(action), False)
        return action

    def _reason(self, seat: int, action: Action) -> str | None:
        return legality.reason(self.rules, self.state, seat, action)

    def is_legal(self, seat: int, action: Action) -> bool:
        """Checked in full, except for an action object that ``legal_actions`` has just
        listed for this seat in this very state (every listed action was checked then)."""
        listed = self._listed
        if listed is not None and listed[0] == seat:
            for a in listed[1]:
                if a is action:
                    return True
        return legality.reason(self.rules, self.state, seat, action) is None

    def explain(self, seat: int, action: Action) -> str:
        return legality.reason(self.rules, self.state, seat, action) or "that is legal"

    def legal_actions(self, seat: int) -> list[Action]:
        """Every single-card play, up to ``MAX_MULTI`` multi-card plays (automatic
        moves announce last card with the play), draw, pass, suit, last."""
        if self.match.game_over:
            out: list[Action] = []
        else:
            out = listing.legal_actions(self.rules, self.state, seat, self._fast)
        self._listed = (seat, tuple(out))
        return out

    # ------------------------------------------------------------ applying
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
            and not self.match.game_over
        ):
            for a in listed[1]:
                if a is action:
                    events = self._apply(seat, a)
                    text = NOTATION.get(id(a))  # ``codes.notation(a)``: a lookup, not a rule
                    self._log.append([seat, str(a) if text is None else text])
                    return events
        return super().apply(seat, action)

    def _apply(self, seat: int, action: Action) -> list[Event]:
        self._listed = None
        rules, state, match, rng = self.rules, self.state, self.match, self.rng
        if state.caller is not None and state.caller != seat:
            state.caller = None  # the cards call is made before the next player acts
        events = resolve.settle_owing(rules, state, rng, seat) if state.owing is not None else []
        if isinstance(action, Play):
            state.turns += 1
            codes = _CODES.get(id(action))  # ``codes.codes_of(action)``: a lookup, not a rule
            cards = codes_of(action) if codes is None else codes
            played = resolve.play(rules, state, match, rng, seat, cards, action.last)
            events = events + played if events else played
        elif isinstance(action, Last):
            state.announced.add(seat)
            if state.owing == seat:
                state.owing = None
            called: v.SheddingLastFields = {"seat": seat}
            events.append(Event("last", called))
            return events
        else:
            state.turns += 1
            if isinstance(action, Draw):
                events += resolve.draw(rules, state, match, rng, seat)
            elif isinstance(action, Pass):
                events += resolve.pass_turn(rules, state, match, seat)
            elif isinstance(action, Nominate):
                events.append(resolve.nominate(state, seat, action))
        if not state.hand_over and state.turns >= HAND_TURN_LIMIT:
            events += end_hand(rules, state, match, blocked=True)
        if state.hand_over and not match.game_over:
            self._deal((state.dealer + 1) % self.seats, None)
            events.append(views.deal_event(self.state, match))
        return events

    def _illegal(self, seat: int, action: Action, reason: str) -> list[Event] | None:
        """A penalised blunder (``resolve.blunder``), or None: refused."""
        self._listed = None
        return resolve.blunder(self.rules, self.state, self.rng, seat, action, reason)

    # -------------------------------------------------------------- views
    def _view(self, seat: int | None, common: CommonView) -> SheddingView:
        return views.seat_view(self.ruleset, self.rules, self.state, self.match, seat, common)

    # ------------------------------------------------------------ snapshots
    def _snapshot_state(self) -> dict[str, Any]:
        return snapshots.snapshot_state(self.state, self.match)

    def _restore_state(self, state: Mapping[str, Any]) -> None:
        self.state, self.match = snapshots.restore_state(state)
        self._listed = None


__all__ = ["HAND_TURN_LIMIT", "MAX_MULTI", "SheddingGame"]
