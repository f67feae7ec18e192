"""Kilodney strategies: ``heuristic`` (the family default) and ``search``.

What a seat knows: its own hand, the card on top, every hand's size, who is
still in the hand, and (if the runner passes it the events through
``observe``) every card played this hand. Everything else was dealt to the
others and is unseen.

The heuristic plays for knock-outs, the big points of the game: the next
player is knocked out, and you score every card he holds, when he has no card
of your card's suit or face and no joker. The chance of that is the
hypergeometric chance that none of his cards is among the unseen cards that
would answer yours. To that it adds what the card scores (one-over, aces and
deuces), keeps a joker for when it is the only way to stay in, and prefers to
keep a card of every suit so that it can follow later.

The search samples the unseen cards into the other hands (sizes as the view
shows them; a knocked-out seat is dealt no card that would have answered the
card he could not follow, and no joker) and plays each of the heuristic's
best few cards out in the same sampled worlds (determinized Monte Carlo with
common random numbers), every seat played by a quick knock-out-seeking
rollout that reads the world's cards. The playouts run on integer cards
(``Race``), not on ``Kilodney`` games: five times cheaper, so the same CPU
buys more worlds. A playout is valued by the game, not the hand: a won game
is 1, otherwise a softmax of the scores whose temperature shrinks as the
leader nears the target (``race_value``). The heuristic's choice stands
unless another candidate's paired advantage is ``confidence`` standard
errors above zero. IS-MCTS proper lost to the heuristic at arena budgets
here: most of a kilodney decision is the chance of a knock-out, which common
worlds across candidates measure with far less noise than a tree does.

Options added for the three-way arena table (search, heuristic, random);
``prune`` and ``infer`` are on by default (the arena's entrant uses them),
``model`` and ``noise`` off:

- ``prune``: after 12 worlds, every 4 worlds, a challenger already ``prune``
  standard errors behind the heuristic's choice is dropped and its playouts go
  to the close ones. The budget stays a cap on playouts, so clear decisions
  stop early: 500 pruned playouts cost about what 280 unpruned ones did.
- ``infer``: a careful player follows when he can (the heuristic never stops
  with a joker while holding a card that follows), so a seat that stopped a
  card with a joker holds none of its suit or face; worlds deal him
  accordingly until he plays such a card (which proves the joker was loose).
- ``model``: a seat whose loose jokers make him look careless
  (``KilodneyMemory.careless``, a Bayes factor over the game) is played at
  random in the playouts; ``noise`` does that for every other seat alike.

What they measured (seed 2/3, 2 cores): head-to-head 500 games,
``iterations=500,confidence=2,prune=1`` +7.4 points [+4.3, +10.5] over the
heuristic (the old 280-playout entrant: +7.8 [+5.3, +10.3], seed 1, 1,000
games); ``infer=1`` against the same search without it, 400 games: +0.5
[-3.0, +4.0]; in a 500-game four-way table (with heuristic and random)
``noise=0.3`` against none: -2.8 [-13.4, +7.8]. None of these differences is
resolved by the runs the session could afford; ``prune`` is kept for its cost,
``infer`` for its logic. ``model`` and ``noise`` are kept as options only.
The 2,000-game three-way table at seed 1 with the entrant
``search:iterations=500,confidence=2,prune=1,infer=1`` (``bench/arena.py``):
search leads the heuristic by +6.1 points [+1.7, +10.5], paired by deal.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Sequence
from typing import Any

import engine
from engine.actions import Action, Play
from engine.cards import JOKER, SUITS, Card
from engine.kilodney import Kilodney, default_extra_jokers, follows, score_play
from engine.kilodney.vocabulary import KilodneyEvent, KilodneyView
from engine.strategies import register_strategy
from engine.vocabulary import seat_of

#: the careless-seat model (``KilodneyMemory.careless``): loose jokers a play
CARELESS_PRIOR = 0.25
LOOSE_CARELESS = 0.06
LOOSE_CAREFUL = 0.013
JOKER_KEEP = 2.5  # what a joker in hand is worth as insurance, in points
SUIT_KEEP = 0.4  # what keeping a card of a suit is worth


def _cards(texts: Sequence[str]) -> list[Card]:
    return [Card.parse(t) for t in texts]


class KilodneyMemory:
    """The cards seen played this hand, kept from the events a seat is shown."""

    def __init__(self) -> None:
        self.hand_number: int | None = None
        self.played: list[Card] = []
        #: seat -> the card he could not follow, for every knock-out this hand
        self.knocks: dict[int, Card] = {}
        #: the card to follow, or None when a sequence is to begin
        self.running: Card | None = None
        #: seat -> the cards to follow (None: a lead) he stopped with a joker this hand
        self.jokered: dict[int, list[Card | None]] = {}
        #: over the whole game: each seat's plays, and its jokers played while it
        #: held a card that would have done (proved when he later plays that card)
        self.plays: Counter[int] = Counter()
        self.loose: Counter[int] = Counter()

    def observe(self, event: KilodneyEvent) -> None:
        if event["kind"] == "deal":
            self.hand_number = event.get("hand_number")
            self.played = []
            self.knocks = {}
            self.running = None
            self.jokered = {}
        elif event["kind"] == "play" and "card" in event:
            card = Card.parse(event["card"])
            self.played.append(card)
            self._note_play(event.get("seat"), card)
        elif event["kind"] == "knockout" and "card" in event:
            self.knocks[event["seat"]] = Card.parse(event["card"])
            self.running = None

    def _note_play(self, seat: Any, card: Card) -> None:
        """A card a player plays was in his hand all through the hand (kilodney
        hands only shrink), so it shows what he could have played before: a
        joker he stopped with while holding a card that followed was a loose play."""
        if isinstance(seat, int):
            self.plays[seat] += 1
            stopped = self.jokered.setdefault(seat, [])
            if card.is_joker:
                stopped.append(self.running)
            else:
                for top in stopped:
                    if top is None or follows(card, top):
                        stopped.remove(top)
                        self.loose[seat] += 1
                        break
        self.running = None if card.is_joker else card

    def careless(self, seat: int) -> float:
        """The chance that ``seat`` plays at random rather than with care, from
        his proved loose jokers: careful players (the heuristic) never stop with
        a joker while they can follow; a random player does in about one play
        in sixteen (``LOOSE_CARELESS``) and a search one in eighty (``LOOSE_CAREFUL``).

        >>> m = KilodneyMemory()
        >>> m.plays[1], m.loose[1] = 80, 4
        >>> m.plays[2] = 80
        >>> round(m.careless(1), 2), round(m.careless(2), 3), m.careless(3)
        (0.78, 0.008, 0.25)
        """
        odds = CARELESS_PRIOR / (1 - CARELESS_PRIOR)
        odds *= math.exp(
            self.loose[seat] * math.log(LOOSE_CARELESS / LOOSE_CAREFUL)
            - self.plays[seat] * (LOOSE_CARELESS - LOOSE_CAREFUL)
        )
        return odds / (1 + odds)

    def played_for(self, view: KilodneyView) -> list[Card] | None:
        """The cards played this hand, or ``None`` if this memory missed some.

        A memory that starts in a hand where nothing has been played yet (a bot
        that joined as the game started) knows that nothing was missed."""
        if self.hand_number != view["hand_number"]:
            if view.get("top") is not None:
                return None
            self.hand_number, self.played, self.knocks = view["hand_number"], [], {}
        return self.played

    def voids_for(self, view: KilodneyView) -> dict[int, list[int]]:
        """Each other seat and the cards (as search codes) he stopped with a joker
        this hand and has not since shown he could follow: a careful player
        holds no card of their suits or faces."""
        out = {}
        for s, tops in self.jokered.items():
            if s != view["viewer"] and view["hand_sizes"][s]:
                codes = [_code(t) for t in tops if t is not None]
                if codes:
                    out[s] = codes
        return out

    def dead_for(self, view: KilodneyView) -> dict[int, int]:
        """Each knocked-out seat and the card (as a search code) he could not follow."""
        return {s: _code(c) for s, c in self.knocks.items() if s in view["knocked_out"]}


def full_deck(seats: int, total: int | None = None) -> list[Card]:
    """The hand's whole deck: 52 cards and the jokers (``total`` cards if known)."""
    jokers = 2 + default_extra_jokers(seats) if total is None else total - 52
    return list(engine.cards.FULL_PACK) + [JOKER] * jokers


def unseen_cards(view: KilodneyView, played: list[Card] | None) -> list[Card]:
    """Every card the viewer has not seen this hand: in other hands (live or dead)."""
    mine = _cards(view["hand"] or [])
    if played is not None:
        seen = mine + played
        total = sum(view["hand_sizes"]) + len(played)
    else:
        seen = mine + ([Card.parse(top)] if (top := view.get("top")) else [])
        total = None
    pool = Counter(full_deck(view["seats"], total))
    pool.subtract(seen)
    return sorted(pool.elements(), key=str)


def next_in_hand(view: KilodneyView, seat: int) -> int | None:
    n: int = view["seats"]
    for step in range(1, n):
        s = (seat + step) % n
        if view["in_hand"][s]:
            return s
    return None


def miss_chance(unseen: int, answering: int, holding: int) -> float:
    """The chance that ``holding`` cards drawn from ``unseen`` miss all ``answering``.

    >>> round(miss_chance(40, 10, 10), 4)
    0.0354
    >>> miss_chance(10, 0, 5), miss_chance(10, 6, 5)
    (1.0, 0.0)
    """
    if holding > unseen - answering:
        return 0.0
    # C(u - a, h) / C(u, h) as a product, to stay in floating point.
    p = 1.0
    for i in range(holding):
        p *= (unseen - answering - i) / (unseen - i)
    return p


def rate_plays(
    view: KilodneyView, plays: Sequence[Play], played: list[Card] | None
) -> list[tuple[float, Play]]:
    """Each play's worth in expected points (see the module doc)."""
    me = seat_of(view)
    hand = _cards(view["hand"] or [])
    shown = view.get("top")
    top = Card.parse(shown) if view.get("running") and shown else None
    unseen = unseen_cards(view, played)
    nxt = next_in_hand(view, me)
    # Cards in hands that are out (knocked out or stranded) are unseen but not held
    # by the next player: his share of the unseen pool is his hand size.
    holding = view["hand_sizes"][nxt] if nxt is not None else 0
    suits_held = Counter(c.suit for c in hand if not c.is_joker)
    out = []
    for play in plays:
        card = play.cards[0]
        points, _ = score_play(card, top)
        worth = float(points)
        if card.is_joker:
            worth -= JOKER_KEEP
        else:
            if nxt is not None and len(hand) > 1:
                answering = sum(1 for c in unseen if follows(c, card))
                worth += holding * miss_chance(len(unseen), answering, holding)
            if suits_held[card.suit] == 1 and len(hand) > 1:
                worth -= SUIT_KEEP
        out.append((worth, play))
    return out


class KilodneyHeuristic:
    """Play for the knock-out; keep jokers and suits (see the module doc)."""

    name = "heuristic"

    def __init__(self) -> None:
        self.memory = KilodneyMemory()

    def observe(self, event: KilodneyEvent) -> None:
        self.memory.observe(event)

    def choose(self, view: KilodneyView, legal: Sequence[Action], rng: random.Random) -> Action:
        plays = [a for a in legal if isinstance(a, Play)]
        if len(legal) == 1 or not plays:
            return legal[0]
        rated = rate_plays(view, plays, self.memory.played_for(view))
        best = max(w for w, _ in rated)
        top = [p for w, p in rated if w >= best - 1e-9]
        return top[rng.randrange(len(top))]


# ------------------------------------------------------------------ search
class KilodneyAdapter:
    """Worlds as ``Kilodney`` games, for the shared ``search.py`` searches and
    the tests that check a world against the view; ``KilodneySearch`` itself
    plays its worlds out on ``Race`` (below), which is much cheaper."""

    def world(
        self, view: KilodneyView, memory: tuple[Kilodney, Sequence[Card]], rng: random.Random
    ) -> Kilodney:
        """``memory`` is ``(Kilodney.from_view(view, played), unseen_cards(view, played))``."""
        seen, unseen = memory
        world_rng = random.Random(rng.getrandbits(64))
        cards = list(unseen)
        rng.shuffle(cards)
        return seen.deal_unseen(view, cards, world_rng)

    def rollout(
        self, game: Kilodney, seat: int, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        """The heuristic's idea with the world's cards in view: knock the next
        player out when he cannot follow, else score, and keep the jokers."""
        top = game.top if game.running else None
        hand = game.hands[seat]
        nxt = game.next_in_hand(seat) if len(hand) > 1 else seat
        theirs = game.hands[nxt] if nxt != seat else []
        best, best_w = legal[0], -99.0
        for a in legal:
            # Every legal kilodney action is a Play (the family has no draw or pass); the
            # rollout's hot loop reads its card without a check.
            card = a.cards[0]  # type: ignore[attr-defined]
            w = score_play(card, top)[0] + rng.random() * 0.5
            if card.is_joker:
                w -= 3.0
            elif theirs and not any(follows(x, card) for x in theirs):
                w += len(theirs)
            if w > best_w:
                best, best_w = a, w
        return best

    def ended(self, game: Kilodney, root: KilodneyView) -> bool:
        return game.over or game.hand_number != root["hand_number"]

    def value(self, game: Kilodney, root: KilodneyView, finished: bool) -> list[float]:
        g = game
        n = g.seats
        if g.over and g.winner is not None:
            return [1.0 if s == g.winner else 0.0 for s in range(n)]
        gains = [g.scores[s] - root["scores"][s] for s in range(n)]
        total = sum(gains)
        return [
            0.5 + 0.5 * math.tanh((gains[s] - (total - gains[s]) / (n - 1)) / 8) for s in range(n)
        ]


# ------------------------------------------------------------- fast search
# The search plays its worlds out on small integers, not on ``Kilodney``
# games: a card is ``suit * 16 + value`` (a joker 79), so "follows" is two
# shifts and a table lookup scores a play. Profiling the engine-backed
# playouts showed nine tenths of a move's time in ``Game.apply``, events and
# card objects; the same rules on lists of ints run several times faster, and
# the budget that frees buys more worlds.
JK = 4 * 16 + 15
NO_TOP = JK + 1  # "beginning a sequence" in the score table


def _code(card: Card) -> int:
    return JK if card.is_joker else SUITS.index(card.suit) * 16 + card.value


def _score_table() -> list[list[int]]:
    """``table[card][previous]``: what ``score_play`` says, looked up."""
    cards = [*engine.cards.FULL_PACK, JOKER]
    table = [[0] * (NO_TOP + 1) for _ in range(NO_TOP)]
    for c in cards:
        for p in [*engine.cards.FULL_PACK, None]:
            table[_code(c)][NO_TOP if p is None else _code(p)] = score_play(c, p)[0]
    return table


SCORE = _score_table()


def _follows(c: int, top: int) -> bool:
    return c == JK or (c >> 4) == (top >> 4) or (c & 15) == (top & 15)


class Race:
    """The state a playout needs, and the rules of the rest of a hand on it.

    ``play`` returns ``None`` while the hand goes on, else ``True``: the hand
    or the game ended (``winner`` says which)."""

    __slots__ = (
        "hands",
        "in_hand",
        "leader",
        "running",
        "scores",
        "target",
        "top",
        "turn",
        "winner",
    )

    def __init__(
        self,
        hands: list[list[int]],
        in_hand: list[bool],
        scores: list[int],
        top: int,
        running: bool,
        leader: int,
        turn: int,
        target: int,
    ) -> None:
        self.hands, self.in_hand, self.scores = hands, in_hand, scores
        self.top, self.running, self.leader, self.turn = top, running, leader, turn
        self.target = target
        self.winner: int | None = None

    def copy(self) -> Race:
        return Race(
            [h.copy() for h in self.hands],
            self.in_hand.copy(),
            self.scores.copy(),
            self.top,
            self.running,
            self.leader,
            self.turn,
            self.target,
        )

    def next_in(self, after: int) -> int:
        n = len(self.hands)
        in_hand = self.in_hand
        for step in range(1, n + 1):
            s = (after + step) % n
            if in_hand[s]:
                return s
        return after

    def play(self, card: int) -> bool | None:
        seat = self.turn
        in_hand = self.in_hand
        prev = self.top if self.running else NO_TOP
        last_player = sum(in_hand) == 1
        hand = self.hands[seat]
        hand.remove(card)
        self.top, self.leader = card, seat
        running = self.running = card != JK
        if not hand:
            in_hand[seat] = False
        points = SCORE[card][prev]
        if points:
            self.scores[seat] += points
            if self.scores[seat] >= self.target:
                self.winner = seat
                return True
        if last_player:
            return True
        after = seat
        while True:
            remaining = sum(in_hand)
            if remaining == 0 or (remaining == 1 and not running):
                return True
            nxt = self.next_in(after)
            if not running:
                self.turn = nxt
                return None
            top = self.top
            suit, rank = top >> 4, top & 15
            for c in self.hands[nxt]:
                if c == JK or c >> 4 == suit or c & 15 == rank:
                    self.turn = nxt
                    return None
            in_hand[nxt] = False
            self.running = running = False
            self.scores[self.leader] += len(self.hands[nxt])
            if self.scores[self.leader] >= self.target:
                self.winner = self.leader
                return True
            after = nxt

    def any_card(self, rng: random.Random) -> int:
        """A legal card at random: how a playout plays a seat it models as careless."""
        hand = self.hands[self.turn]
        if self.running:
            top = self.top
            suit, rank = top >> 4, top & 15
            legal = [c for c in hand if c == JK or c >> 4 == suit or c & 15 == rank]
            return legal[rng.randrange(len(legal))]
        return hand[rng.randrange(len(hand))]

    def rollout_card(self, rng: random.Random) -> int:
        """The heuristic's idea with the world's cards in view: knock the next
        player out when he cannot follow, else score; keep the jokers."""
        seat = self.turn
        hand = self.hands[seat]
        if self.running:
            top = self.top
            suit, rank = top >> 4, top & 15
            legal = [c for c in hand if c == JK or c >> 4 == suit or c & 15 == rank]
            prev = top
        else:
            legal = hand
            prev = NO_TOP
        if len(legal) == 1:
            return legal[0]
        nxt = self.next_in(seat)
        theirs = self.hands[nxt] if nxt != seat else []
        joker = JK in theirs
        suits = {c >> 4 for c in theirs}
        ranks = {c & 15 for c in theirs}
        count = len(theirs)
        best, best_w = legal[0], -99.0
        rand = rng.random
        for c in legal:
            w = SCORE[c][prev] + rand() * 0.5
            if c == JK:
                w -= 3.0
            elif count and not joker and c >> 4 not in suits and c & 15 not in ranks:
                w += count
            if w > best_w:
                best, best_w = c, w
        return best


def race_value(race: Race, root_scores: Sequence[int], me: int, temper: float) -> float:
    """What the position is worth to ``me`` in the game, not just the hand.

    A won game is 1 and a lost one 0. Otherwise each seat's chance of reaching
    the target first is modelled as a softmax of its score, at a temperature
    that shrinks as the leader nears the target: early on, a few points are
    a small edge; near the end, the same few points decide the game.
    ``temper`` 0 falls back to the hand's relative gain through tanh."""
    if race.winner is not None:
        return 1.0 if race.winner == me else 0.0
    scores = race.scores
    n = len(scores)
    if temper <= 0:
        gains = [scores[s] - root_scores[s] for s in range(n)]
        rel = gains[me] - (sum(gains) - gains[me]) / (n - 1)
        return 0.5 + 0.5 * math.tanh(rel / 8)
    need = race.target - max(scores)
    t = temper * math.sqrt(max(need, 1))
    top = max(scores)
    weights = [math.exp((s - top) / t) for s in scores]
    return weights[me] / sum(weights)


def sample_hands(
    view: KilodneyView,
    pool: list[int],
    dead: dict[int, int],
    rng: random.Random,
    voids: dict[int, list[int]] | None = None,
) -> list[list[int]]:
    """The other hands dealt from the unseen ``pool``, consistent with what is known.

    A knocked-out seat held no joker and no card that follows the card he
    could not answer (``dead``: seat -> that card). A seat that stopped with a
    joker where a careful player follows if he can held no card of that card's
    suit or face (``voids``: seat -> those cards), though he may hold jokers.
    Those hands are dealt first, from the cards they could have held, and the
    others share the rest. The dead hands never play again, but what they hold
    is what the live ones do not.
    """
    me = view["viewer"]
    sizes = view["hand_sizes"]
    cards = pool.copy()
    rng.shuffle(cards)
    hands: list[list[int]] = [[] for _ in sizes]
    rules: dict[int, tuple[list[int], bool]] = {s: ([knock], True) for s, knock in dead.items()}
    for s, tops in (voids or {}).items():
        if tops:
            old, no_joker = rules.get(s, ([], False))
            rules[s] = (old + tops, no_joker)
    for s, (tops, no_joker) in rules.items():
        size = sizes[s]
        if s == me or not size:
            continue
        marks = {t >> 4 for t in tops}, {t & 15 for t in tops}
        ok = [
            i
            for i, c in enumerate(cards)
            if (not no_joker if c == JK else c >> 4 not in marks[0] and c & 15 not in marks[1])
        ]
        if len(ok) < size:
            continue  # the memory (or the model) is wrong somewhere: deal him at random below
        taken = set(ok[:size])
        hands[s] = [cards[i] for i in ok[:size]]
        cards = [c for i, c in enumerate(cards) if i not in taken]
    for s, size in enumerate(sizes):
        if s == me or hands[s] or not size:
            continue
        take, cards = cards[:size], cards[size:]
        hands[s] = take + [JK] * (size - len(take))
    return hands


PRUNE_AFTER = 12  # worlds before a challenger may be dropped: enough for a standard error


def paired_z(first: Sequence[float], second: Sequence[float]) -> float:
    """How many standard errors ``first`` leads ``second`` by, paired world by
    world over the worlds ``first`` was played in (``second`` may have more).

    >>> paired_z([1.0, 0.5, 1.0], [0.0, 0.5, 0.0, 1.0]) > 1
    True
    >>> paired_z([0.5, 0.5], [0.5, 0.5])
    0.0
    """
    n = len(first)
    diffs = [a - b for a, b in zip(first, second, strict=False)]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    if var == 0:
        return 0.0 if mean == 0 else math.copysign(math.inf, mean)
    return mean / math.sqrt(var / n)


class KilodneySearch:
    """Determinized Monte Carlo over sampled deals of the unseen cards, on the
    fast integer playouts above: each of the heuristic's best few plays is
    played out in the same worlds (common random numbers), valued by the game
    race, and replaces the heuristic's choice only on a ``confidence``-sigma
    paired advantage.

    ``iterations`` counts playouts (shared by the candidates); ``depth`` caps a
    playout in plays (default: two rounds and this seat's reply); ``margin``
    skips the search when the heuristic's best play leads the next by that many
    expected points; ``temper`` sets the race value's temperature (0: the hand's
    relative gain); ``prune``, ``infer``, ``model`` and ``noise`` are described
    in the module doc. The defaults are the arena's measured entrant
    (``confidence=2, prune=1, infer=1``) with twice its playouts."""

    name = "search"
    slow = True  # tens of milliseconds a move: the server runs it in a worker process

    def __init__(
        self,
        iterations: int = 1000,
        depth: int | None = None,
        candidates: int = 6,
        seconds: float | None = None,
        confidence: float = 2.0,
        margin: float = 3.0,
        temper: float = 1.0,
        noise: float = 0.0,
        prune: float = 1.0,
        model: int = 0,
        infer: int = 1,
    ) -> None:
        if iterations < 1:
            raise ValueError("iterations must be at least 1")
        self.iterations = iterations
        self.depth = depth
        self.candidates = candidates
        self.seconds = seconds
        self.confidence = confidence
        self.margin = margin
        self.temper = temper
        self.noise = noise
        self.prune = prune
        self.model = model
        self.infer = infer
        self.memory = KilodneyMemory()

    def observe(self, event: KilodneyEvent) -> None:
        self.memory.observe(event)

    def choose(self, view: KilodneyView, legal: Sequence[Action], rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        played = self.memory.played_for(view)
        plays = [a for a in legal if isinstance(a, Play)]
        rated = sorted(rate_plays(view, plays, played), key=lambda wp: -wp[0])
        ranked = [p for _, p in rated[: self.candidates]]
        if len(ranked) == 1 or rated[0][0] - rated[1][0] >= self.margin:
            return ranked[0]
        return self._search(view, ranked, played, rng)

    def _search(
        self,
        view: KilodneyView,
        ranked: list[Play],
        played: list[Card] | None,
        rng: random.Random,
    ) -> Action:
        me = seat_of(view)
        pool = [_code(c) for c in unseen_cards(view, played)]
        dead = self.memory.dead_for(view) if played is not None else {}
        voids = self.memory.voids_for(view) if self.infer and played is not None else {}
        careless_of = {t: self.memory.careless(t) for t in voids}
        base = Race(
            [],
            list(view["in_hand"]),
            list(view["scores"]),
            _code(Card.parse(shown)) if (shown := view.get("top")) else NO_TOP,
            bool(view["running"]),
            leader if (leader := view.get("leader")) is not None else me,
            me,
            view["target"],
        )
        mine = [_code(c) for c in _cards(view["hand"] or [])]
        cards = [_code(p.cards[0]) for p in ranked]
        depth = self.depth or 2 * sum(view["in_hand"]) + 1
        root = base.scores
        k = len(ranked)
        values: list[list[float]] = [[] for _ in ranked]
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        temper = self.temper
        # Each other seat plays at random in a playout with this chance: ``noise``
        # for everyone, or more for a seat whose play looks careless (``model``).
        noise = [
            0.0 if s == me else max(self.noise, self.memory.careless(s) if self.model else 0.0)
            for s in range(view["seats"])
        ]
        careless = any(noise)
        live = list(range(k))  # the anchor (0) and the challengers still in the running
        used = worlds = 0
        while worlds < 2 or (len(live) > 1 and used + len(live) <= self.iterations):
            if voids:
                # Each world draws whether each such seat is careful (his jokers
                # then say what he lacks) or careless (they say nothing).
                trusted = {t: v for t, v in voids.items() if rng.random() >= careless_of[t]}
                hands = sample_hands(view, pool, dead, rng, trusted)
            else:
                hands = sample_hands(view, pool, dead, rng)
            hands[me] = mine
            base.hands = hands
            seed = rng.getrandbits(64)
            for i in live:
                race = base.copy()
                roll = random.Random(seed)
                done = race.play(cards[i])
                steps = 1
                while done is None and steps < depth:
                    if careless and roll.random() < noise[race.turn]:
                        done = race.play(race.any_card(roll))
                    else:
                        done = race.play(race.rollout_card(roll))
                    steps += 1
                values[i].append(race_value(race, root, me, temper))
            used += len(live)
            worlds += 1
            if self.prune and worlds >= PRUNE_AFTER and worlds % 4 == 0:
                # A challenger already clearly worse than the anchor cannot replace
                # it: its playouts go to the close ones instead.
                live = [0] + [i for i in live[1:] if paired_z(values[i], values[0]) > -self.prune]
            if deadline is not None and time.perf_counter() > deadline:
                break
        best, best_mean = 0, 0.0
        for i in range(1, k):
            n = len(values[i])
            if n < 2:
                continue
            diffs = [a - b for a, b in zip(values[i], values[0], strict=False)]
            mean = sum(diffs) / n
            if mean <= best_mean:
                continue
            var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
            if mean > self.confidence * math.sqrt(var / n) or (var == 0 and mean > 0):
                best, best_mean = i, mean
        return ranked[best]


register_strategy("heuristic", "kilodney", KilodneyHeuristic, default=True)
register_strategy("search", "kilodney", KilodneySearch)
