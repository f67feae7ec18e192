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

from engine.actions import Action, Ally, Concede, Move, Vote
from engine.cards import FULL_PACK, Card, format_cards, shuffled
from engine.errors import OptionError
from engine.events import Event
from engine.game import Game
from engine.options import Option, OptionSchema
from engine.poker import CARD_BIT, Hand, value_of_mask
from engine.registry import new_game

from .board import (
    SEAT_NAMES,
    SIZES,
    START_SQUARES,
    first_blocker,
    has_move,
    in_line,
    rook_moves,
    square_index,
    square_name,
)
from .scoring import game_winner, hand_points, hand_winner, sides
from .vocabulary import VOCABULARY

_VOTE_END = Vote("end")
_CONCEDE = Concede()

#: Each card by its face, for reading snapshots (``Card.parse`` reads what people type).
_FACES = {str(c): c for c in FULL_PACK}
#: Game score from which an alliance gives its holder the partner's moves.
POWER_SCORE = 16
PACK = 52

SCHEMA = OptionSchema(
    [
        Option(
            "alliance_from_round",
            1,
            "first round in which a player may name a partner (the 001 table style uses 4)",
            minimum=1,
            maximum=100,
        ),
        Option(
            "end_when_decided",
            True,
            "end the hand as soon as nobody can beat or tie the leader, even taking every card",
        ),
        Option(
            "stall_limit",
            0,
            "turns in a row with no card taken that end the hand (0: three times the players)",
            minimum=0,
            maximum=1000,
        ),
        Option(
            "target",
            0,
            "game score that ends the game (0: 20 for four players, 40 for two)",
            minimum=0,
            maximum=1000,
        ),
    ]
)


class Abbott(Game):
    """One game of Abbott's Switch: hands until someone alone leads at the target."""

    family = "abbott"
    vocabulary = VOCABULARY
    min_seats = 2
    max_seats = 4
    schema = SCHEMA
    hidden_information = False

    # ------------------------------------------------------------- dealing
    def _setup(self, dealer: int | None, deck: list[Card] | None) -> None:
        n = self.seats
        if n not in SIZES:
            raise OptionError("seats", f"abbott is for 2 or 4 players, not {n}")
        self.size: int = SIZES[n]
        self.cells = self.size * self.size
        self.names: tuple[str, ...] = SEAT_NAMES[n]
        self._name_to_seat = {name.lower(): s for s, name in enumerate(self.names)}
        self._name_to_seat.update({str(s): s for s in range(n)})
        self._squares = {square_name(i, self.size): i for i in range(self.cells)}
        self._square_names = [square_name(i, self.size) for i in range(self.cells)]
        # Actions are immutable values: build each once, list them without allocating.
        self._move_actions = [Move(name) for name in self._square_names]
        self._ally_actions = [Ally(name.lower()) for name in self.names]
        self.target: int = self.options["target"] or (20 if n == 4 else 40)
        self.stall_limit: int = self.options["stall_limit"] or 3 * n
        self.alliance_from_round: int = self.options["alliance_from_round"]
        self.end_when_decided: bool = self.options["end_when_decided"]
        self._scores = [0] * n
        self.hand_scores: list[list[int]] = []
        self.winner: int | None = None
        self._over = False
        self._packs = self._split_deck(deck)
        opening = []
        if dealer is None:
            dealer, cut = self._cut()
            opening.append(cut)
        self.dealer: int = dealer
        self.hand_number = 0
        opening.append(self._deal())
        #: The cut and the first deal happen before any action, so ``apply``
        #: cannot return them; a table sends them when the game starts.
        self.opening_events: list[Event] = opening

    def _split_deck(self, deck: list[Card] | None) -> list[list[Card]]:
        """The fixed packs, one per hand: ``deck`` fixes the first hand's grid from
        its front; a deck of several whole packs (104, 156, ... cards) fixes that
        many hands, so a test can script a whole game. Later hands shuffle."""
        if deck is None:
            return []
        if len(deck) <= PACK:
            packs = [deck]
        elif len(deck) % PACK == 0:
            packs = [deck[i : i + PACK] for i in range(0, len(deck), PACK)]
        else:
            raise OptionError(
                "deck", f"give up to 52 cards, or whole packs of 52; got {len(deck)} cards"
            )
        for k, pack in enumerate(packs, 1):
            if len(pack) < self.cells:
                raise OptionError(
                    "deck", f"the {self.size}x{self.size} grid needs {self.cells} cards"
                )
            if any(c.is_joker for c in pack) or len(set(pack)) != len(pack):
                raise OptionError(
                    "deck", f"pack {k} must hold distinct standard cards (no jokers, no repeats)"
                )
        return packs

    def _cut(self) -> tuple[int, Event]:
        """Cut for the first dealer: lowest card deals (ace high); ties cut again."""
        pack = shuffled(FULL_PACK, self.rng)
        contenders = list(range(self.seats))
        rounds = []
        while True:
            if len(pack) < len(contenders):
                pack = shuffled(FULL_PACK, self.rng)
            draws = {s: pack.pop() for s in contenders}
            rounds.append([[s, str(c)] for s, c in draws.items()])
            low = min(c.value for c in draws.values())
            contenders = [s for s in contenders if draws[s].value == low]
            if len(contenders) == 1:
                dealer = contenders[0]
                return dealer, Event("cut", {"seat": dealer, "dealer": dealer, "draws": rounds})

    def _deal(self) -> Event:
        """Lay a new grid, put the pieces on their start squares, start the hand."""
        n = self.seats
        self.hand_number += 1
        pack = self._packs.pop(0) if self._packs else shuffled(FULL_PACK, self.rng)
        self.grid: list[Card | None] = list(pack[: self.cells])
        self.grid_bits = [CARD_BIT[str(c)] for c in pack[: self.cells]]
        self.grid_mask = sum(self.grid_bits)
        #: The cards not dealt this hand (the pack's order, then any a short deck left out).
        self.unused: list[Card] = list(pack[self.cells :])
        if len(pack) < PACK:
            given = set(pack)
            self.unused += [c for c in FULL_PACK if c not in given]
        self.pieces = [self._squares[s] for s in START_SQUARES[n]]
        self.collections: list[list[Card]] = [[] for _ in range(n)]
        self.masks = [0] * n
        self.values = [0] * n
        self.turn = (self.dealer + 1) % n
        #: Turns each seat has had this hand, missed ones included: its round is this + 1.
        self.turns_taken = [0] * n
        self.alliance: tuple[int, int] | None = None
        self.power: int | None = None
        self._proxy: tuple[int, int] | None = None  # (partner, power holder)
        self.votes: list[int] = []
        self.conceded: list[int] = []
        self.stall = 0
        return Event(
            "deal",
            {
                "seat": self.dealer,
                "dealer": self.dealer,
                "hand_number": self.hand_number,
                "grid": self._grid_rows(),
                "pieces": self._piece_names(),
                "first": self.turn,
            },
        )

    def _copy_state(self, new: Abbott) -> None:
        """The board's lookups (square names, the cached actions) are built once per
        table and never change, so copies share them; the packs still to come are
        shared too (each is taken whole, never changed), but not the list of them."""
        new._scores = list(self._scores)
        new.hand_scores = [list(h) for h in self.hand_scores]
        new._packs = list(self._packs)
        new.grid = list(self.grid)
        new.grid_bits = list(self.grid_bits)
        new.unused = list(self.unused)
        new.pieces = list(self.pieces)
        new.collections = [list(c) for c in self.collections]
        new.masks = list(self.masks)
        new.values = list(self.values)
        new.turns_taken = list(self.turns_taken)
        new.votes = list(self.votes)
        new.conceded = list(self.conceded)

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
        n = view["seats"]
        options = view.get("options")  # the table's house rules
        if options is None:  # a view from before views carried them
            options = {
                "stall_limit": view["stall_limit"],
                "target": view["target"],
                "alliance_from_round": view.get("alliance_from_round", 1),
                "end_when_decided": view.get("end_when_decided", True),
            }
        game = new_game(view["ruleset"], seats=n, seed=0, options=options, dealer=view["dealer"])
        assert isinstance(game, cls)
        size = view["size"]
        grid = [None if c is None else Card.parse(c) for row in view["grid"] for c in row]
        game.grid = grid
        game.grid_bits = [0 if c is None else CARD_BIT[str(c)] for c in grid]
        game.grid_mask = sum(game.grid_bits)
        game.pieces = [square_index(p, size) for p in view["pieces"]]
        game.collections = [[Card.parse(c) for c in coll] for coll in view["collections"]]
        placed = {c for c in grid if c is not None} | {c for coll in game.collections for c in coll}
        game.unused = [c for c in FULL_PACK if c not in placed]
        game.masks = [sum(CARD_BIT[c] for c in coll) for coll in view["collections"]]
        game.values = [value_of_mask(m) for m in game.masks]
        game.turn = view["turn_of"]
        first = (view["dealer"] + 1) % n
        done = view["round"]
        here = (game.turn - first) % n
        game.turns_taken = [done if (s - first) % n < here else done - 1 for s in range(n)]
        a = view.get("alliance")
        game.alliance = None if a is None else (a["chooser"], a["partner"])
        game.power = view.get("power")
        game._proxy = None
        if game.power is not None and game.alliance is not None:
            c, p = game.alliance
            game._proxy = (p if game.power == c else c, game.power)
        game.votes = list(view.get("votes", []))
        game.conceded = list(view.get("conceded", []))
        game.stall = view["stall"]
        game.hand_number = view["hand_number"]
        game._scores = list(view["scores"])
        game.hand_scores = [list(h) for h in view.get("hand_scores", [])]
        game._packs = []
        game.opening_events = []
        return game

    # ------------------------------------------------------ where it stands
    @property
    def to_act(self) -> int | None:
        if self._over:
            return None
        if self._proxy is not None and self.turn == self._proxy[0]:
            return self._proxy[1]
        return self.turn

    @property
    def over(self) -> bool:
        return self._over

    @property
    def scores(self) -> list[int]:
        return list(self._scores)

    @property
    def round(self) -> int:
        """The round of the turn in progress (1 is each seat's first turn)."""
        return self.turns_taken[self.turn] + 1

    def hand(self, seat: int) -> Hand:
        """The best poker hand in ``seat``'s collection."""
        return Hand(self.values[seat], self.masks[seat])

    def grid_bit(self, square: str) -> int:
        """The bit of the card lying on ``square`` (``engine.poker.CARD_BIT``), 0 once taken:
        what a search's rollout weighs a move by, without the grid's private index."""
        return self.grid_bits[self._squares[square]]

    # --------------------------------------------------------------- legality
    def _ally_refusal(self, seat: int) -> str | None:
        """Why ``seat`` may not name a partner now (``None``: it may)."""
        if self.seats != 4:
            return "there are no alliances in the 2-player game"
        if self.alliance is not None:
            c, p = self.alliance
            return f"an alliance already stands this hand ({self.names[c]} chose {self.names[p]})"
        if seat != self.turn:
            return "you may name a partner only on your own turn, before you move"
        if self.round < self.alliance_from_round:
            return f"alliances are allowed from round {self.alliance_from_round}"
        return None

    def _can_concede(self, seat: int) -> bool:
        if seat in self.conceded:
            return False
        return self.seats == 2 or self.alliance is not None

    def legal_actions(self, seat: int) -> list[Action]:
        if self._over:
            return []
        out: list[Action] = []
        if seat == self.to_act:
            pieces = self.pieces
            moves = self._move_actions
            out = [moves[sq] for sq in rook_moves(pieces[self.turn], self.size, pieces)]
            if self._ally_refusal(seat) is None:
                out += [a for s, a in enumerate(self._ally_actions) if s != seat]
        if seat not in self.votes:
            out.append(_VOTE_END)
        if self._can_concede(seat):
            out.append(_CONCEDE)
        return out

    def normalize(self, seat: int, action: Action) -> Action:
        """``ally 1`` and ``ally West`` both become ``ally west``."""
        if type(action) is Ally:
            s = self._name_to_seat.get(action.partner.lower())
            if s is not None:
                return Ally(self.names[s].lower())
        return action

    def is_legal(self, seat: int, action: Action) -> bool:
        """Checked directly, without listing the legal actions (bots and the server
        call this on every action)."""
        kind = type(action)
        if kind is Move:
            if seat != self.to_act:
                return False
            dest = self._squares.get(action.square)  # type: ignore[attr-defined]
            start = self.pieces[self.turn]
            if dest is None or dest == start or not in_line(start, dest, self.size):
                return False
            return first_blocker(start, dest, self.size, self.pieces) is None
        if kind is Vote:
            return action.motion == "end" and seat not in self.votes  # type: ignore[attr-defined]
        if kind is Concede:
            return self._can_concede(seat)
        if kind is Ally:
            partner = self._name_to_seat.get(action.partner)  # type: ignore[attr-defined]
            return (
                seat == self.to_act
                and partner is not None
                and partner != seat
                and self._ally_refusal(seat) is None
            )
        return False

    def explain(self, seat: int, action: Action) -> str:
        kind = type(action)
        if kind is Move:
            return self._explain_move(seat, action.square)  # type: ignore[attr-defined]
        if kind is Ally:
            refusal = self._ally_refusal(seat)
            if refusal is not None:
                return refusal
            if seat != self.to_act:
                return self._not_your_turn()
            partner = self._name_to_seat.get(action.partner)  # type: ignore[attr-defined]
            if partner is None:
                return f"there is no seat called {action.partner!r}; name one of " + ", ".join(  # type: ignore[attr-defined]
                    n.lower() for n in self.names
                )
            return "you cannot ally with yourself"
        if kind is Vote:
            if action.motion != "end":  # type: ignore[attr-defined]
                return "the only vote is 'vote end'"
            return "you have already voted to end this hand"
        if kind is Concede:
            if seat in self.conceded:
                return "you have already conceded this hand"
            return "you can concede only once an alliance stands"
        return f"'{action.verb}' is not an abbott action (move, ally, vote end, concede)"

    def _not_your_turn(self) -> str:
        actor = self.to_act
        if actor is None:
            return "the game is over"
        if actor != self.turn:
            return (
                f"it is not your turn: {self.names[actor]} moves"
                f" {self.names[self.turn]}'s piece this turn"
            )
        return f"it is not your turn: {self.names[actor]} is to move"

    def _explain_move(self, seat: int, square: str) -> str:
        if seat != self.to_act:
            if seat == self.turn:
                return (
                    f"{self.names[self.to_act]} holds the 16-point power and moves"  # type: ignore[index]
                    " your piece this hand"
                )
            return self._not_your_turn()
        dest = self._squares.get(square)
        if dest is None:
            return f"{square} is not on the {self.size}x{self.size} board"
        whose = "your" if seat == self.turn else f"{self.names[self.turn]}'s"
        start = self.pieces[self.turn]
        if dest == start:
            return "you must move at least one square"
        if not in_line(start, dest, self.size):
            return (
                f"{square} is not in line with {whose} piece at {square_name(start, self.size)}:"
                " pieces move along a row or a column"
            )
        blocker = first_blocker(start, dest, self.size, self.pieces)
        if blocker is not None:
            owner = self.names[self.pieces.index(blocker)]
            if blocker == dest:
                return f"{square} is occupied by {owner}'s piece"
            return f"{square} is blocked by {owner}'s piece at {square_name(blocker, self.size)}"
        return "that move is not legal now"

    # ---------------------------------------------------------------- acting
    def _apply(self, seat: int, action: Action) -> list[Event]:
        kind = type(action)
        if kind is Move:
            return self._move(seat, self._squares[action.square])  # type: ignore[attr-defined]
        if kind is Ally:
            return [self._ally(seat, self._name_to_seat[action.partner])]  # type: ignore[attr-defined]
        if kind is Vote:
            self.votes.append(seat)
            events = [Event("vote", {"seat": seat, "motion": "end", "votes": sorted(self.votes)})]
            if len(self.votes) == self.seats:
                events += self._end_hand("vote")
            return events
        # Concede
        self.conceded.append(seat)
        events = [Event("concede", {"seat": seat, "conceded": sorted(self.conceded)})]
        if self.seats == 2:
            events += self._end_hand("concede", winners_side=(1 - seat,))
        else:
            assert self.alliance is not None  # concessions need an alliance (is_legal)
            side_a, side_b = sides(self.seats, self.alliance)
            for side, other in ((side_a, side_b), (side_b, side_a)):
                if all(s in self.conceded for s in side):
                    events += self._end_hand("concede", winners_side=other)
                    break
        return events

    def _ally(self, seat: int, partner: int) -> Event:
        """Form the hand's one alliance; a 16-point score gives its holder the
        partner's moves (from this very turn on), unless both partners have it."""
        self.alliance = (seat, partner)
        strong = [s for s in (seat, partner) if self._scores[s] >= POWER_SCORE]
        if len(strong) == 1:
            self.power = strong[0]
            self._proxy = (partner if self.power == seat else seat, self.power)
        return Event("ally", {"seat": seat, "partner": partner, "power": self.power})

    def _take(self, owner: int, sq: int) -> Card:
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
        self.votes.clear()  # a vote agrees to end on the cards as they were
        return card

    def _move(self, seat: int, dest: int) -> list[Event]:
        mover = self.turn
        start = self.pieces[mover]
        self.pieces[mover] = dest
        self.turns_taken[mover] += 1
        fields: dict[str, Any] = {
            "seat": mover,
            "from": self._square_names[start],
            "to": self._square_names[dest],
        }
        if seat != mover:
            fields["by"] = seat
        events = [Event("move", fields)]
        if self.grid[dest] is not None:
            card = self._take(mover, dest)
            events.append(Event("take", {"seat": mover, "card": str(card), "square": fields["to"]}))
        else:
            self.stall += 1
        return events + self._next_turn()

    def _ending(self) -> str | None:
        """Whether the hand ends now, checked after every turn."""
        if not self.grid_mask:
            return "grid empty"
        if self.end_when_decided and self._decided():
            return "decided"
        if self.stall >= self.stall_limit:
            return "stall"
        return None

    def _decided(self) -> bool:
        """Nobody could beat or tie the leader even by taking every card left."""
        values = self.values
        best = max(values)
        leaders = [s for s in range(self.seats) if values[s] == best]
        if len(leaders) > 1:
            return False
        rest = self.grid_mask
        return all(
            value_of_mask(self.masks[s] | rest) < best for s in range(self.seats) if s != leaders[0]
        )

    def _next_turn(self) -> list[Event]:
        """End the turn just taken: end the hand, or pass the turn left. A player
        with no legal move misses his turn (automatically, with a ``miss`` event),
        except the dealer on his first turn, who takes the card under his piece."""
        events: list[Event] = []
        for _ in range(2 * self.seats):
            reason = self._ending()
            if reason is not None:
                return events + self._end_hand(reason)
            self.turn = (self.turn + 1) % self.seats
            mover = self.turn
            sq = self.pieces[mover]
            if has_move(sq, self.size, self.pieces):
                return events
            self.turns_taken[mover] += 1
            name = square_name(sq, self.size)
            if mover == self.dealer and self.turns_taken[mover] == 1 and self.grid[sq] is not None:
                card = self._take(mover, sq)
                events.append(
                    Event(
                        "take", {"seat": mover, "card": str(card), "square": name, "blocked": True}
                    )
                )
            else:
                self.stall += 1
                events.append(Event("miss", {"seat": mover, "square": name}))
        # Unreachable on these boards (four pieces cannot all be blocked), kept so
        # that a bug can never loop for ever.
        return events + self._end_hand("blocked")

    # --------------------------------------------------------------- scoring
    def _end_hand(self, reason: str, winners_side: tuple[int, ...] | None = None) -> list[Event]:
        """Score the hand; end the game or deal the next hand (the deal passes left)."""
        among = range(self.seats) if winners_side is None else winners_side
        winner = hand_winner(self.values, among)
        points = hand_points(self.seats, winner, self.alliance)
        for s, p in enumerate(points):
            self._scores[s] += p
        self.hand_scores.append(points)
        self.winner = game_winner(self._scores, self.target)
        play_on = self.winner is None and max(self._scores) >= self.target
        events = [
            Event(
                "hand_end",
                {
                    "seat": winner,
                    "winner": winner,
                    "hand_number": self.hand_number,
                    "reason": reason,
                    "points": points,
                    "scores": list(self._scores),
                    "best": self._best(),
                    "collections": [format_cards(c) for c in self.collections],
                    "play_on": play_on,
                },
            )
        ]
        if self.winner is not None:
            self._over = True
            events.append(
                Event(
                    "game_end",
                    {"seat": self.winner, "winner": self.winner, "scores": list(self._scores)},
                )
            )
        else:
            self.dealer = (self.dealer + 1) % self.seats
            events.append(self._deal())
        return events

    # ----------------------------------------------------------------- views
    def _grid_rows(self) -> list[list[str | None]]:
        g, size = self.grid, self.size
        return [
            [None if c is None else str(c) for c in g[r * size : (r + 1) * size]]
            for r in range(size)
        ]

    def _piece_names(self) -> list[str]:
        return [square_name(sq, self.size) for sq in self.pieces]

    def _best(self) -> list[dict[str, Any]]:
        return [
            {"category": h.category, "cards": h.cards}
            for h in (self.hand(s) for s in range(self.seats))
        ]

    def _view(self, seat: int | None) -> dict[str, Any]:
        return {
            "size": self.size,
            "grid": self._grid_rows(),
            "pieces": self._piece_names(),
            "collections": [format_cards(c) for c in self.collections],
            "best": self._best(),
            "dealer": self.dealer,
            "hand_number": self.hand_number,
            "turn_of": None if self._over else self.turn,
            "round": self.round,
            "alliance": None
            if self.alliance is None
            else {"chooser": self.alliance[0], "partner": self.alliance[1]},
            "power": self.power,
            "votes": sorted(self.votes),
            "conceded": sorted(self.conceded),
            "stall": self.stall,
            "stall_limit": self.stall_limit,
            "target": self.target,
            "hand_scores": [list(p) for p in self.hand_scores],
            "seat_names": list(self.names),
            "alliance_from_round": self.alliance_from_round,
            "end_when_decided": self.end_when_decided,
            "winner": self.winner,
        }

    # ------------------------------------------------------------ snapshots
    def _snapshot_state(self) -> dict[str, Any]:
        return {
            "scores": list(self._scores),
            "hand_scores": [list(h) for h in self.hand_scores],
            "winner": self.winner,
            "over": self._over,
            "packs": [format_cards(p) for p in self._packs],
            "dealer": self.dealer,
            "hand_number": self.hand_number,
            "grid": [None if c is None else str(c) for c in self.grid],
            "grid_bits": list(self.grid_bits),
            "grid_mask": self.grid_mask,
            "unused": format_cards(self.unused),
            "pieces": list(self.pieces),
            "collections": [format_cards(c) for c in self.collections],
            "masks": list(self.masks),
            "values": list(self.values),
            "turn": self.turn,
            "turns_taken": list(self.turns_taken),
            "alliance": None if self.alliance is None else list(self.alliance),
            "power": self.power,
            "proxy": None if self._proxy is None else list(self._proxy),
            "votes": list(self.votes),
            "conceded": list(self.conceded),
            "stall": self.stall,
        }

    def _restore_state(self, state: Mapping[str, Any]) -> None:
        def pair(value: Any) -> tuple[int, int] | None:
            return None if value is None else (value[0], value[1])

        self._scores = list(state["scores"])
        self.hand_scores = [list(h) for h in state["hand_scores"]]
        self.winner = state["winner"]
        self._over = bool(state["over"])
        self._packs = [[_FACES[c] for c in p] for p in state["packs"]]
        self.dealer = state["dealer"]
        self.hand_number = state["hand_number"]
        self.grid = [None if c is None else _FACES[c] for c in state["grid"]]
        self.grid_bits = list(state["grid_bits"])
        self.grid_mask = state["grid_mask"]
        self.unused = [_FACES[c] for c in state["unused"]]
        self.pieces = list(state["pieces"])
        self.collections = [[_FACES[c] for c in cards] for cards in state["collections"]]
        self.masks = list(state["masks"])
        self.values = list(state["values"])
        self.turn = state["turn"]
        self.turns_taken = list(state["turns_taken"])
        self.alliance = pair(state["alliance"])
        self.power = state["power"]
        self._proxy = pair(state["proxy"])
        self.votes = list(state["votes"])
        self.conceded = list(state["conceded"])
        self.stall = state["stall"]
