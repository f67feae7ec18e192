"""Shedding strategies (every preset): ``heuristic`` (the default) and ``search``.

The rules of a table are public, so both strategies compile its power table
(which cards are wild, pick up, skip, ...) from the preset's name and the
table's options in the view; what a seat may not know is the other hands and
the order of the stock.

The heuristic is what a decent Switch player does: answer a pick-up by
stacking or cancelling when it can; otherwise shed as many cards as it can,
keep its wild cards for when nothing else will do (or for going out), hit the
next player with pick-ups and skips when he is close to going out, trade hands
with a swap card only for a smaller hand, leave a top
card it can follow itself, dump the cards that would cost the most if someone
else went out, name the suit it holds most, announce its last card, and play
a card just drawn when it can.

The search samples the unseen cards into the other hands, the stock and the
pile under its top (sizes from the view; the cards seen played this hand,
from ``observe``, are kept out of the hands) and plays the heuristic's best
few actions out in the same worlds (``search.py``) with a rollout that rates
plays by the heuristic's own terms (so the simulated players play like the
real ones); the reward is the finishing order (first out 1, last 0), or, at
the depth limit, a share by cards left. When the heuristic's best play leads
the next by a clear margin the search is skipped: the budget goes to the close
calls, where it changes the move.
"""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import engine
from engine.actions import Action, Draw, Last, Nominate, Pass, Play
from engine.cards import Card
from engine.shedding.codes import JK, RANK, SUIT, code, codes_of
from engine.shedding.game import SheddingGame
from engine.shedding.state import Awaiting
from engine.shedding.table import PowerTable, power_table
from engine.shedding.vocabulary import SheddingEvent, SheddingView
from engine.strategies import register_strategy
from engine.strategies.search import ISMCTS, DeterminizedMC
from engine.strategies.shedding_infer import DrawMemory, Groups, arrange
from engine.vocabulary import seat_of

SUITS = "CDHS"


@cache
def preset_table(preset: str, options: str = "{}") -> PowerTable:
    """The power table of a preset with ``options`` (JSON: the table's house
    rules; the default is none), compiled once per set of rules."""
    return power_table(engine.ruleset(preset).schema.resolve(json.loads(options)))


def view_table(view: SheddingView) -> PowerTable:
    """The power table of the rules the view's table plays."""
    options = view.get("options")
    if not options:
        return preset_table(view["ruleset"])
    return preset_table(view["ruleset"], json.dumps(options, sort_keys=True))


def _codes(texts: Sequence[str] | None) -> list[int]:
    return [code(Card.parse(t)) for t in texts or []]


def next_seat(view: SheddingView, seat: int) -> int:
    """The next seat still in the hand, in the direction of play."""
    n: int = view["seats"]
    d: int = view.get("direction", 1)
    s = seat
    for _ in range(n):
        s = (s + d) % n
        if s not in view["finished"]:
            return s
    return seat


def swap_partner(view: SheddingView, seat: int) -> int:
    """Whom a swap card trades hands with: the next seat to the left (in seat
    order, whatever the direction of play) still in the hand."""
    n: int = view["seats"]
    other = (seat + 1) % n
    while other in view["finished"] and other != seat:
        other = (other + 1) % n
    return other


def best_suit(hand: Sequence[int], pt: PowerTable) -> str:
    """The suit held most, not counting wild cards (ties: the higher total)."""
    counts = Counter(SUIT[c] for c in hand if c != JK and not pt.wild[c])
    if not counts:
        counts = Counter(SUIT[c] for c in hand if c != JK)
    if not counts:
        return "S"
    return SUITS[max(counts, key=lambda s: (counts[s], s))]


def go_on_worth(left: Sequence[int], pt: PowerTable) -> int:
    """What a card that lets its player go on in the suit he names is worth beyond
    itself: the cards he keeps in the suit he holds most (at most three), which he may
    lay at once (j28's jack: "then the player is allowed to lay a heart and any other
    appropriate cards on that go")."""
    counts = Counter(SUIT[c] for c in left if c != JK and not pt.wild[c])
    return min(3, max(counts.values(), default=0))


def rate_play(
    view: SheddingView,
    play: Play,
    hand: list[int],
    pt: PowerTable,
    go_on: float = 1.0,
    pickup_scale: float = 0.0,
    multi: float = 1.0,
) -> float:
    """A play's worth: cards shed, threat on the next player, what is left.

    ``go_on`` weighs ``go_on_worth`` for a play that ends on a go-on card;
    ``pickup_scale`` makes a pick-up's threat grow with its count (0: every pick-up
    threatens alike, 1: a pick-up of N weighs N/2 times a two's); ``multi`` is what each
    card after a play's first is worth (a set or run laid at once), against 1 for the
    first."""
    me = seat_of(view)
    cards = codes_of(play)
    rest = Counter(hand)
    rest.subtract(cards)
    left = [c for c, k in rest.items() for _ in range(max(0, k))]
    worth = 1.0 + multi * (len(cards) - 1)
    if not left:
        return 100.0  # out
    nxt = next_seat(view, me)
    threat = 1.0 / max(1, view["hand_sizes"][nxt])  # the nearer he is to out, the more it helps
    last = cards[-1]
    for c in cards:
        if c == JK or pt.wild[c] or pt.nominate[c]:
            worth -= 2.0 if len(left) > 2 else 0.2
        if pt.pickup[c]:
            worth += (0.5 + 3 * threat) * (1 + pickup_scale * (pt.pickup[c] / 2 - 1))
        if pt.skip[c] or pt.miss[c]:
            worth += 0.3 + 2 * threat
        worth += pt.points[c] / 60  # dump what would cost most
    if go_on and pt.go_on[last]:
        worth += go_on * go_on_worth(left, pt)
    if pt.swap[last]:
        # The hand left is traded for the next seat's (in seat order, as the rules
        # swap): worth what shedding the difference would be, good or bad.
        worth += len(left) - view["hand_sizes"][swap_partner(view, me)]
    if pt.cover[last] and not any(SUIT[c] == SUIT[last] or RANK[c] == RANK[last] for c in left):
        worth -= 1.5  # must cover it and cannot
    if last != JK:
        follow = sum(
            1 for c in left if c != JK and (SUIT[c] == SUIT[last] or RANK[c] == RANK[last])
        )
        worth += 0.25 * follow
    if play.last:
        worth += 0.05
    return worth


class SheddingHeuristic:
    """What a decent player does (see the module doc)."""

    name = "heuristic"

    def __init__(self, go_on: float = 0.0, pickup_scale: float = 0.0, multi: float = 1.0) -> None:
        """The weights ``rate_play`` takes, as measured per preset (``switchboard arena
        PRESET heuristic heuristic:go_on=1 --seats 4 --games 2000``; docs/bots.md):
        rating j28's go-on jack by what it lets its player lay after it made the bot
        worse (it spends the jack early), and a pick-up's threat growing with its count
        (irish's K♥ 7, black jacks' 5) changed no preset beyond chance, so both are 0; the
        cards after a set's or run's first worth less or more than one each (``multi``
        0.5 to 3) changed j28 and blackjack by no more than chance, so it stays 1."""
        self.go_on = go_on
        self.pickup_scale = pickup_scale
        self.multi = multi

    def choose(self, view: SheddingView, legal: Sequence[Action], rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        if any(isinstance(a, Last) for a in legal) and view["viewer"] == view["to_act"]:
            return next(a for a in legal if isinstance(a, Last))
        pt = view_table(view)
        hand = _codes(view["hand"])
        noms = [a for a in legal if isinstance(a, Nominate)]
        if noms:
            want = best_suit(hand, pt)
            return next((a for a in noms if a.suit == want), noms[0])
        plays = [a for a in legal if isinstance(a, Play)]
        if plays:
            rated = [
                (rate_play(view, p, hand, pt, self.go_on, self.pickup_scale, self.multi), p)
                for p in plays
            ]
            best = max(w for w, _ in rated)
            top = [p for w, p in rated if w >= best - 1e-9]
            return top[rng.randrange(len(top))]
        for kind in (Draw, Pass):
            for a in legal:
                if isinstance(a, kind):
                    return a
        return legal[0]


# ------------------------------------------------------------------ search
class SheddingMemory:
    """Cards seen going onto the pile this hand (plays, and the start card)."""

    def __init__(self) -> None:
        self.hand_number: int | None = None
        self.pile: list[int] = []

    def observe(self, event: SheddingEvent) -> None:
        if event["kind"] == "deal":
            self.hand_number = event.get("hand_number")
            top = event.get("top")
            self.pile = _codes([top] if top else [])
        elif event["kind"] == "play" and event.get("cards"):
            self.pile.extend(_codes(event["cards"]))

    def pile_for(self, view: SheddingView) -> list[int]:
        """The known part of the pile, top last: at most ``pile_size`` cards."""
        top = view.get("top")
        if self.hand_number != view["hand_number"]:
            return _codes([top]) if top else []
        known = self.pile[-view["pile_size"] :] if view["pile_size"] else []
        if top and (not known or known[-1] != code(Card.parse(top))):
            return _codes([top])
        return known


def _draw_or_first(legal: Sequence[Action]) -> Action:
    """A rollout's move when no play rated: draw (or pass), else the first legal."""
    for a in legal:
        if isinstance(a, Draw | Pass):
            return a
    return legal[0]


class SheddingAdapter:
    """Worlds: unseen cards dealt into the other hands, the stock and the pile.

    ``smart`` picks the rollout policy: the heuristic's own terms (threat on
    the next hand, cards left that follow the play, points dumped) in cheap
    integer form, so the simulated opponents play like the ones at the table;
    otherwise the plain shed-the-most rollout.
    """

    def __init__(self, smart: bool = False) -> None:
        self.smart = smart
        if smart:
            # The policy is chosen once, per adapter: an attribute over the method.
            self.rollout = self._smart_rollout  # type: ignore[method-assign]

    def world(
        self,
        view: SheddingView,
        memory: tuple[SheddingGame, Sequence[int]]
        | tuple[SheddingGame, Sequence[int], dict[int, Groups]],
        rng: random.Random,
    ) -> SheddingGame:
        """``memory`` is ``worlds_from(view, ...)``: the hand as the view shows it and
        the cards the seat has not seen, dealt here in a fresh order, and optionally
        what each other hand is known to lack (``shedding_infer``), which the deal
        respects."""
        seen, unseen = memory[0], memory[1]
        world_rng = random.Random(rng.getrandbits(64))
        cards = list(unseen)
        rng.shuffle(cards)
        if len(memory) > 2 and memory[2]:
            cards = arrange(view, cards, memory[2])
        return seen.deal_unseen(view, cards, world_rng)

    def keep(self, legal: list[Action]) -> list[Action]:
        """Plays with 'last' when a plain one exists are the same move: keep one."""
        return legal

    def rollout(
        self, game: SheddingGame, seat: int, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        """Shed the most cards, keep wild cards, hit a player close to going out."""
        g = game
        pt = g.pt
        best: Action | None = None
        best_w = -99.0
        for a in legal:
            if isinstance(a, Last):
                return a
            if isinstance(a, Nominate):
                want = best_suit(g.hands[seat], pt)
                return next((x for x in legal if isinstance(x, Nominate) and x.suit == want), a)
            if isinstance(a, Play):
                cards = codes_of(a)
                w = len(cards) + rng.random() * 0.5
                for c in cards:
                    if c == JK or pt.wild[c]:
                        w -= 1.5
                    elif pt.pickup[c] or pt.skip[c]:
                        w += 0.3
                if w > best_w:
                    best, best_w = a, w
        return best if best is not None else _draw_or_first(legal)

    def _smart_rollout(
        self, game: SheddingGame, seat: int, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        """The heuristic's terms (``rate_play``) without its Counter and view."""
        g = game
        pt = g.pt
        hand = g.hands[seat]
        n = g.seats
        nxt = (seat + g.direction) % n
        while nxt in g.finished and nxt != seat:
            nxt = (nxt + g.direction) % n
        threat = 1.0 / max(1, len(g.hands[nxt]))
        size = len(hand)
        best: Action | None = None
        best_w = -99.0
        for a in legal:
            if isinstance(a, Last):
                return a
            if isinstance(a, Nominate):
                want = best_suit(hand, pt)
                return next((x for x in legal if isinstance(x, Nominate) and x.suit == want), a)
            if isinstance(a, Play):
                cards = codes_of(a)
                k = len(cards)
                if k >= size:
                    return a  # out
                w = k + rng.random() * 0.1
                for c in cards:
                    if c == JK or pt.wild[c] or pt.nominate[c]:
                        w -= 2.0 if size - k > 2 else 0.2
                    if pt.pickup[c]:
                        w += 0.5 + 3 * threat
                    if pt.skip[c] or pt.miss[c]:
                        w += 0.3 + 2 * threat
                    w += pt.points[c] / 60
                last = cards[-1]
                if last != JK:
                    su, ra = SUIT[last], RANK[last]
                    follow = 0
                    for c in hand:
                        if c != JK and c not in cards and (SUIT[c] == su or RANK[c] == ra):
                            follow += 1
                    w += 0.25 * follow
                if w > best_w:
                    best, best_w = a, w
        return best if best is not None else _draw_or_first(legal)

    def ended(self, game: SheddingGame, root: SheddingView) -> bool:
        g = game
        return g.game_over or g.hand_over or g.hand_number != root["hand_number"]

    def value(self, game: SheddingGame, root: SheddingView, finished: bool) -> list[float]:
        g = game
        n = g.seats
        if g.hand_number != root["hand_number"] or g.game_over:
            last = g.hand_scores[-1] if g.hand_scores else [0] * n
            top = max(last)
            if top > 0:
                return [1.0 if p == top else 0.0 for p in last]
        order = list(g.finished)
        out = [0.0] * n
        for i, s in enumerate(order):
            out[s] = 1.0 - i / n
        rest = [s for s in range(n) if s not in order]
        if rest:
            weights = {s: math.exp(-0.45 * len(g.hands[s])) for s in rest}
            total = sum(weights.values())
            share = (n - len(order)) / n
            for s in rest:
                out[s] = share * weights[s] / total
        return out


def worlds_from(view: SheddingView, known_pile: Sequence[int]) -> tuple[SheddingGame, list[int]]:
    """What ``SheddingAdapter.world`` samples from: the hand as the view shows it (with
    the cards the seat saw go onto the pile) and the cards the seat has not seen."""
    seen = SheddingGame.from_view(view, known_pile)
    return seen, seen.unseen_cards()


@dataclass(frozen=True, slots=True)
class SearchSettings:
    """What a ``SheddingSearch`` can be tuned by (the defaults: switch's tuning, below).

    The budget, 200 rollouts a decision, is the cheapest measured within noise of the
    strongest: at irish 600 played the heuristic no better than 200 (+3.4 [+0.3, +6.5]
    against +3.0 [+1.0, +5.0] points, head to head) for three and a half times the CPU,
    and at 200 the search beats the heuristic in every preset (docs/bots.md).

    ``iterations``: rollouts a decision, shared by the candidates; ``depth``: actions a
    rollout plays before the cards-left estimate stands in; ``candidates``: how many of
    the heuristic's best actions are played out; ``method``: ``mc`` or ``ismcts``;
    ``seconds``: a wall-time cap a decision (none: reproducible); ``confidence``:
    standard errors by which a candidate must beat the heuristic's choice to replace
    it; ``gap``: a rating lead at which the heuristic's choice is played unsearched;
    ``smart``: the heuristic-like rollout (1) or the plain shed-the-most one (0);
    ``infer``: the worlds deal no hand a card its player's draws showed he lacked (1:
    the facts; 2: also what a careful player's pick-ups and kept cards show; 0: off).
    """

    iterations: int = 200
    depth: int = 40
    candidates: int = 5
    method: str = "mc"
    seconds: float | None = None
    confidence: float = 2.0
    gap: float = 1.0
    smart: int = 1
    infer: int = 0

    def __post_init__(self) -> None:
        if self.method not in ("mc", "ismcts"):
            raise ValueError("method is mc or ismcts")
        if self.iterations < 1:
            raise ValueError("iterations must be at least 1")

    @staticmethod
    def given(params: dict[str, Any]) -> dict[str, Any]:
        """The parameters actually given (``None`` means "the preset's")."""
        return {k: v for k, v in params.items() if v is not None}


#: Each preset's settings where they differ from ``SearchSettings``'s, from the
#: head-to-head arena (docs/bots.md has the tables and the commands). None yet: reading
#: the draws (``infer=2``) at irish led the heuristic by +2.5 points [+0.6, +4.3] on fresh
#: deals (2,000 games), no better than the search without it (+3.0 [+1.0, +5.0]).
PRESET_SEARCH: dict[str, dict[str, Any]] = {}


@dataclass(frozen=True, slots=True)
class PresetSearch:
    """A preset's settings and the searches built from them."""

    settings: SearchSettings
    mc: DeterminizedMC[SheddingGame, SheddingView]
    mcts: ISMCTS[SheddingGame, SheddingView]


class SheddingSearch:
    """Search over sampled deals of the unseen cards.

    ``method="mc"`` (the default) plays each of the heuristic's best
    ``candidates`` actions out in the same sampled worlds (determinized Monte
    Carlo with common random numbers); ``method="ismcts"`` grows an IS-MCTS
    tree instead. At the budgets an arena can afford the first ranks moves
    with less noise; both are kept so the arena can compare them.

    Defaults from the head-to-head arena (``switchboard arena switch
    search:... heuristic --seats 4 --games 400 --seed 2``): the plain rollout
    with ``confidence=3`` at 60 iterations led the heuristic by +2.5 points a
    seat [-1.3, +6.3] (0.3 s CPU a game); the heuristic-like rollout
    (``smart=1``: the simulated opponents play like the real ones),
    ``confidence=2`` and ``gap=1`` (play the heuristic's move without a search
    when its rating leads the next candidate's by a point: about half the
    decisions that offer a choice, so the budget goes to the close ones) at
    200 iterations led by +8.5 [+4.1, +12.9] at 0.7 s CPU a game (60: +5.2
    [+1.1, +9.4] at 0.22 s; 300: +10.0 [+5.4, +14.6] at 1.0 s). The
    three-way table (``switchboard arena switch search:iterations=200
    heuristic random --seats 4 --games 300 --seed 1``): search 35.8% [32.1,
    39.7], heuristic 28.0% [23.2, 33.3], 0.77 s CPU a game, 0.12 ms median and
    150 ms p99 a move.
    """

    name = "search"
    slow = True  # most of a second a move: the server runs it in a worker process

    def __init__(self, **params: Any) -> None:
        """``params`` (any field of ``SearchSettings``) override the preset's tuned
        settings (``PRESET_SEARCH``) at every preset this strategy plays."""
        self.params = SearchSettings(**params).given(params)  # fail early on a bad one
        self._tuned: dict[str, PresetSearch] = {}
        self.memory = SheddingMemory()
        self.draws = DrawMemory()
        self.heuristic = SheddingHeuristic()

    def settings(self, ruleset: str) -> SearchSettings:
        """The settings this strategy plays ``ruleset`` with: the preset's tuned ones,
        then the parameters it was made with."""
        return SearchSettings(**{**PRESET_SEARCH.get(ruleset, {}), **self.params})

    def searchers(self, ruleset: str) -> PresetSearch:
        """The searches ``ruleset`` is played with, built from its settings once."""
        tuned = self._tuned.get(ruleset)
        if tuned is None:
            st = self.settings(ruleset)
            adapter = SheddingAdapter(smart=bool(st.smart))
            mc = DeterminizedMC(
                adapter,
                iterations=st.iterations,
                depth=st.depth,
                seconds=st.seconds,
                confidence=st.confidence,
            )
            mcts = ISMCTS(adapter, iterations=st.iterations, depth=st.depth, seconds=st.seconds)
            tuned = self._tuned[ruleset] = PresetSearch(st, mc, mcts)
        return tuned

    def observe(self, event: SheddingEvent) -> None:
        self.memory.observe(event)
        self.draws.observe(event)

    def choose(self, view: SheddingView, legal: Sequence[Action], rng: random.Random) -> Action:
        plays = [a for a in legal if isinstance(a, Play | Draw | Pass)]
        if len(plays) <= 1 or view.get("awaiting_kind") == Awaiting.SUIT:
            return self.heuristic.choose(view, legal, rng)
        if any(isinstance(a, Last) for a in legal):
            return next(a for a in legal if isinstance(a, Last))
        seen, unseen = worlds_from(view, self.memory.pile_for(view))
        tuned = self.searchers(view["ruleset"])
        st = tuned.settings
        lacks = self.draws.lacks(seen.rules, view["hand_sizes"], st.infer) if st.infer else {}
        memory = (seen, unseen, lacks)
        if st.method == "ismcts":
            return tuned.mcts.search(view, legal, memory, rng)[0]
        pt = view_table(view)
        hand = _codes(view["hand"])
        h = self.heuristic  # the candidates ranked as the heuristic ranks them
        rated = [
            (
                rate_play(view, a, hand, pt, h.go_on, h.pickup_scale, h.multi)
                if isinstance(a, Play)
                else -5,
                a,
            )
            for a in plays
        ]
        rated.sort(key=lambda wa: -wa[0])
        if st.gap > 0 and rated[0][0] - rated[1][0] >= st.gap:
            return rated[0][1]  # the heuristic leads by far: not worth the search
        ranked = [a for _, a in rated[: st.candidates]]
        return tuned.mc.search(view, ranked, memory, rng)[0]


register_strategy("heuristic", "shedding", SheddingHeuristic, default=True)
register_strategy("search", "shedding", SheddingSearch)
