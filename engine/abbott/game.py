"""Robert Abbott's Switch (1963): pieces move like rooks over a grid of face-up
cards, take what they land on, form one alliance per hand and score by the best
five-card poker hand. The rules and our rulings where the sources are silent are in
``docs/rules.md`` (section abbott); the rulings are noted below where they act.

Everything is public, so ``view`` is the same for every seat and spectators.

>>> import engine
>>> game = engine.new_game("abbott", seats=4, seed=1, dealer=3)
>>> game.to_act, game.view(None)["pieces"]
(0, ['a1', 'a6', 'f6', 'f1'])
>>> [str(a) for a in game.legal_actions(0)][:4]
['move b1', 'move c1', 'move d1', 'move e1']
>>> _ = game.apply(0, "ally 1")  # normalised to the compass name
>>> game.record()["actions"]
[[0, 'ally west']]
>>> game.apply(0, "move f1")
Traceback (most recent call last):
...
engine.errors.IllegalActionError: seat 0: 'move f1' is not legal: f1 is occupied by East's piece
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.actions import Action, Ally
from engine.cards import Card
from engine.events import Event
from engine.game import Game
from engine.poker import Hand
from engine.registry import new_game
from engine.vocabulary import CommonView

from . import snapshots, views
from .dealing import cut, split_deck
from .legality import explain, is_legal, legal_actions
from .resolve import act
from .state import HandState, MatchState
from .table import POWER_SCORE, SCHEMA, TableRules
from .vocabulary import VOCABULARY, AbbottView

__all__ = ["POWER_SCORE", "SCHEMA", "Abbott"]


class Abbott(Game[AbbottView]):
    """One game of Abbott's Switch: hands until someone alone leads at the target.

    The game wires the contract to the modules that hold the rules: ``table`` (the
    house rules and the board's lookups, fixed at the table), ``state`` (the hand and
    the match, all that actions change), ``legality`` (what a seat may do, and why
    not), ``resolve`` (what an action does), ``views`` and ``snapshots``."""

    family = "abbott"
    vocabulary = VOCABULARY
    min_seats = 2
    max_seats = 4
    seat_counts = (2, 4)  #: two players, or two partnerships of two
    schema = SCHEMA
    hidden_information = False

    rules: TableRules
    state: HandState
    match: MatchState

    # ------------------------------------------------------------- dealing
    def _setup(self, dealer: int | None, deck: list[Card] | None) -> None:
        self.rules = TableRules.of(self.seats, self.options)
        packs = split_deck(deck, self.rules.size)
        opening = []
        if dealer is None:
            dealer, cut_event = cut(self.rng, self.seats)
            opening.append(cut_event)
        self.match = MatchState([0] * self.seats, dealer, packs=packs)
        opening.append(self._deal())
        #: The cut and the first deal happen before any action, so ``apply``
        #: cannot return them; a table sends them when the game starts.
        self.opening_events: list[Event] = opening

    def _deal(self) -> Event:
        """Lay a new grid, put the pieces on their start squares, start the hand."""
        rules, match = self.rules, self.match
        pack = match.next_pack(self.rng)
        first = (match.dealer + 1) % self.seats
        self.state = HandState.dealt(pack, rules.cells, list(rules.starts), first)
        return views.deal_event(rules, self.state, match)

    def _copy_state(self, new: Abbott) -> None:
        """The hand and the match get copies; the table's rules (the board's lookups,
        the cached actions) are built once per table and never change, so copies share
        them."""
        new.state = self.state.copy()
        new.match = self.match.copy()

    # ------------------------------------------------- rebuilt from a view
    @classmethod
    def from_view(cls, view: Mapping[str, Any], **known: Any) -> Abbott:
        """The hand exactly as ``view`` shows it: in abbott nothing is hidden, so this is
        the whole state a search needs (later hands deal from the game's own generator,
        which a search replaces with its own).

        >>> import engine
        >>> game = engine.new_game("abbott", seats=4, seed=1, dealer=3)
        >>> _ = game.apply(0, "move c1")
        >>> Abbott.from_view(game.view(2)).view(None) == game.view(None)
        True
        """
        game = new_game(
            view["ruleset"],
            seats=view["seats"],
            seed=0,
            options=views.options_of(view),
            dealer=view["dealer"],
        )
        assert isinstance(game, cls)
        game.state = views.state_from_view(game.rules, view)
        game.match = views.match_from_view(view)
        game.opening_events = []
        return game

    # ------------------------------------------------------ where it stands
    @property
    def to_act(self) -> int | None:
        return None if self.match.over else self.state.actor

    @property
    def over(self) -> bool:
        return self.match.over

    @property
    def scores(self) -> list[int]:
        return list(self.match.scores)

    @property
    def round(self) -> int:
        """The round of the turn in progress (1 is each seat's first turn)."""
        return self.state.round

    def hand(self, seat: int) -> Hand:
        """The best poker hand in ``seat``'s collection."""
        return views.best_hand(self.state, seat)

    def grid_bit(self, square: str) -> int:
        """The bit of the card lying on ``square`` (``engine.poker.CARD_BIT``), 0 once taken:
        what a search's rollout weighs a move by, without the grid's private index."""
        return self.state.grid_bits[self.rules.squares[square]]

    # --------------------------------------------------------------- legality
    def legal_actions(self, seat: int) -> list[Action]:
        if self.match.over:
            return []
        return legal_actions(self.rules, self.state, seat)

    def normalize(self, seat: int, action: Action) -> Action:
        """``ally 1`` and ``ally West`` both become ``ally west``."""
        if type(action) is Ally:
            s = self.rules.seat_named(action.partner)
            if s is not None:
                return Ally(self.rules.names[s].lower())
        return action

    def is_legal(self, seat: int, action: Action) -> bool:
        """Checked directly, without listing the legal actions (bots and the server
        call this on every action)."""
        # What ``to_act`` says, without a property call: this runs on every action.
        actor = None if self.match.over else self.state.actor
        return is_legal(self.rules, self.state, actor, seat, action)

    def explain(self, seat: int, action: Action) -> str:
        return explain(self.rules, self.state, self.to_act, seat, action)

    # ---------------------------------------------------------------- acting
    def _apply(self, seat: int, action: Action) -> list[Event]:
        events = act(self.rules, self.state, self.match, seat, action)
        if events[-1].kind == "hand_end":  # and not the game: the deal passes left
            self.match.pass_deal()
            events.append(self._deal())
        return events

    # ----------------------------------------------------------------- views
    def _view(self, seat: int | None, common: CommonView) -> AbbottView:
        return views.seat_view(self.rules, self.state, self.match, common)

    # ------------------------------------------------------------ snapshots
    def _snapshot_state(self) -> dict[str, Any]:
        return snapshots.snapshot_state(self.state, self.match)

    def _restore_state(self, state: Mapping[str, Any]) -> None:
        self.state, self.match = snapshots.restore_state(state)

    # ------------------------------------------------------ names for tools
    # The strategies, tests and tools read these; the rules modules use ``rules``,
    # ``state`` and ``match`` directly. They are read-only: only the game's own
    # modules change a game, through the state's methods.
    @property
    def size(self) -> int:
        """Squares on a side: 6 (4 players) or 5 (2 players)."""
        return self.rules.size

    @property
    def cells(self) -> int:
        return self.rules.cells

    @property
    def names(self) -> tuple[str, ...]:
        """The seats' compass names."""
        return self.rules.names

    @property
    def target(self) -> int:
        return self.rules.target

    @property
    def dealer(self) -> int:
        return self.match.dealer

    @property
    def hand_number(self) -> int:
        return self.match.hand_number

    @property
    def hand_scores(self) -> list[list[int]]:
        return self.match.hand_scores

    @property
    def winner(self) -> int | None:
        return self.match.winner

    @property
    def turn(self) -> int:
        """The seat whose piece moves next (``to_act`` moves it)."""
        return self.state.turn

    @property
    def pieces(self) -> list[int]:
        """Each seat's piece, as a square index (``rank * size + file``)."""
        return self.state.pieces

    @property
    def grid(self) -> list[Card | None]:
        return self.state.grid

    @property
    def grid_bits(self) -> list[int]:
        return self.state.grid_bits

    @property
    def collections(self) -> list[list[Card]]:
        return self.state.collections

    @property
    def masks(self) -> list[int]:
        """Each seat's takings as ``engine.poker.CARD_BIT`` bits."""
        return self.state.masks

    @property
    def values(self) -> list[int]:
        """Each seat's takings as a poker hand's value (``engine.poker.value_of_mask``)."""
        return self.state.values

    @property
    def unused(self) -> list[Card]:
        return self.state.unused

    @property
    def alliance(self) -> tuple[int, int] | None:
        """The hand's ``(chooser, partner)``, once named."""
        return self.state.alliance

    @property
    def power(self) -> int | None:
        return self.state.power
