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
shows them) and plays each of the heuristic's best few cards out in the same
sampled worlds (determinized Monte Carlo, ``search.py``), every seat played
by a quick knock-out-seeking rollout, scoring each seat's points this hand
against the others'. IS-MCTS proper lost to the heuristic at arena budgets
here: most of a kilodney decision is the chance of a knock-out, which common
worlds across candidates measure with far less noise than a tree does.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import engine
from engine.actions import Action, Play
from engine.cards import JOKER, Card
from engine.game import Game
from engine.kilodney import default_extra_jokers, follows, score_play
from engine.strategies import register_strategy
from engine.strategies.search import DeterminizedMC, clone_game

JOKER_KEEP = 2.5  # what a joker in hand is worth as insurance, in points
SUIT_KEEP = 0.4  # what keeping a card of a suit is worth


def _cards(texts: Sequence[str]) -> list[Card]:
    return [Card.parse(t) for t in texts]


class KilodneyMemory:
    """The cards seen played this hand, kept from the events a seat is shown."""

    def __init__(self) -> None:
        self.hand_number: int | None = None
        self.played: list[Card] = []

    def observe(self, event: dict[str, Any]) -> None:
        kind = event.get("kind")
        if kind == "deal":
            self.hand_number = event.get("hand_number")
            self.played = []
        elif kind == "play" and "card" in event:
            self.played.append(Card.parse(event["card"]))

    def played_for(self, view: dict[str, Any]) -> list[Card] | None:
        """The cards played this hand, or ``None`` if this memory missed some.

        A memory that starts in a hand where nothing has been played yet (a bot
        that joined as the game started) knows that nothing was missed."""
        if self.hand_number != view["hand_number"]:
            if view.get("top") is not None:
                return None
            self.hand_number, self.played = view["hand_number"], []
        return self.played


def full_deck(seats: int, total: int | None = None) -> list[Card]:
    """The hand's whole deck: 52 cards and the jokers (``total`` cards if known)."""
    jokers = 2 + default_extra_jokers(seats) if total is None else total - 52
    return list(engine.cards.FULL_PACK) + [JOKER] * jokers


def unseen_cards(view: dict[str, Any], played: list[Card] | None) -> list[Card]:
    """Every card the viewer has not seen this hand: in other hands (live or dead)."""
    mine = _cards(view["hand"] or [])
    if played is not None:
        seen = mine + played
        total = sum(view["hand_sizes"]) + len(played)
    else:
        seen = mine + ([Card.parse(view["top"])] if view.get("top") else [])
        total = None
    pool = Counter(full_deck(view["seats"], total))
    pool.subtract(seen)
    return sorted(pool.elements(), key=str)


def next_in_hand(view: dict[str, Any], seat: int) -> int | None:
    n = view["seats"]
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
    view: dict[str, Any], plays: Sequence[Play], played: list[Card] | None
) -> list[tuple[float, Play]]:
    """Each play's worth in expected points (see the module doc)."""
    me = view["viewer"]
    hand = _cards(view["hand"] or [])
    top = Card.parse(view["top"]) if view.get("running") and view.get("top") else None
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

    def observe(self, event: dict[str, Any]) -> None:
        self.memory.observe(event)

    def choose(self, view: dict[str, Any], legal: Sequence[Action], rng: random.Random) -> Action:
        plays = [a for a in legal if isinstance(a, Play)]
        if len(legal) == 1 or not plays:
            return legal[0]
        rated = rate_plays(view, plays, self.memory.played_for(view))
        best = max(w for w, _ in rated)
        top = [p for w, p in rated if w >= best - 1e-9]
        return top[rng.randrange(len(top))]


# ------------------------------------------------------------------ search
class KilodneyAdapter:
    """Worlds: the unseen cards dealt at random into the other hands."""

    def world(self, view: dict[str, Any], memory: Any, rng: random.Random) -> Game:
        proto, pool = memory
        g: Any = clone_game(proto, rng)
        cards = list(pool)
        rng.shuffle(cards)
        me = view["viewer"]
        for s, size in enumerate(view["hand_sizes"]):
            if s == me:
                continue
            take, cards = cards[:size], cards[size:]
            # Without the played cards the pool may run short: pad with jokers,
            # which only makes the sampled opponents a little stronger.
            take += [JOKER] * (size - len(take))
            g.hands[s] = take
        return g

    def rollout(self, game: Game, seat: int, legal: Sequence[Action], rng: random.Random) -> Action:
        """The heuristic's idea with the world's cards in view: knock the next
        player out when he cannot follow, else score, and keep the jokers."""
        g: Any = game
        top = g.top if g.running else None
        hand = g.hands[seat]
        nxt = g._next_in_hand(seat) if len(hand) > 1 else seat
        theirs = g.hands[nxt] if nxt != seat else []
        best, best_w = legal[0], -99.0
        for a in legal:
            card = a.cards[0]  # type: ignore[attr-defined]
            w = score_play(card, top)[0] + rng.random() * 0.5
            if card.is_joker:
                w -= 3.0
            elif theirs and not any(follows(x, card) for x in theirs):
                w += len(theirs)
            if w > best_w:
                best, best_w = a, w
        return best

    def ended(self, game: Game, root: dict[str, Any]) -> bool:
        return game.over or game.hand_number != root["hand_number"]  # type: ignore[attr-defined]

    def value(self, game: Game, root: dict[str, Any], finished: bool) -> list[float]:
        g: Any = game
        n = g.seats
        if g.over and g.winner is not None:
            return [1.0 if s == g.winner else 0.0 for s in range(n)]
        gains = [g.scores[s] - root["scores"][s] for s in range(n)]
        total = sum(gains)
        return [
            0.5 + 0.5 * math.tanh((gains[s] - (total - gains[s]) / (n - 1)) / 8) for s in range(n)
        ]


def game_from_view(view: dict[str, Any], played: list[Card] | None) -> Game:
    """A kilodney game in the view's public state; the other hands are filled per world."""
    n = view["seats"]
    total = sum(view["hand_sizes"]) + len(played) if played is not None else None
    extra = max(0, (total - 54) if total is not None else default_extra_jokers(n))
    g: Any = engine.new_game(
        view["ruleset"],
        seats=n,
        seed=0,
        options={"target": view["target"], "extra_jokers": min(extra, 2)},
        dealer=view["dealer"],
    )
    g.hands[view["viewer"]] = _cards(view["hand"] or [])
    g.pile = list(played) if played is not None else []
    g.top = Card.parse(view["top"]) if view.get("top") else None
    g.running = view["running"]
    g.leader = view.get("leader")
    g.in_hand = list(view["in_hand"])
    g.knocked_out = list(view["knocked_out"])
    g.stranded = list(view.get("stranded", []))
    g.hand_points = list(view.get("hand_points", [0] * n))
    g.turn = view["to_act"]
    g.hand_number = view["hand_number"]
    g._scores = list(view["scores"])
    g.opening_events = []
    return g


class KilodneySearch:
    """Determinized Monte Carlo over sampled deals of the unseen cards: each of
    the heuristic's best few plays is played out in the same worlds."""

    name = "search"

    def __init__(
        self,
        iterations: int = 1000,
        depth: int | None = None,
        candidates: int = 6,
        seconds: float | None = None,
        confidence: float = 3.0,
    ) -> None:
        self.mc = DeterminizedMC(
            KilodneyAdapter(),
            iterations=iterations,
            depth=depth or 1,
            seconds=seconds,
            confidence=confidence,
        )
        #: plays looked ahead: by default two rounds and this seat's reply
        self.depth = depth
        self.candidates = candidates
        self.memory = KilodneyMemory()

    def observe(self, event: dict[str, Any]) -> None:
        self.memory.observe(event)

    def choose(self, view: dict[str, Any], legal: Sequence[Action], rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        played = self.memory.played_for(view)
        plays = [a for a in legal if isinstance(a, Play)]
        rated = sorted(rate_plays(view, plays, played), key=lambda wp: -wp[0])
        ranked = [p for _, p in rated[: self.candidates]]
        if len(ranked) == 1:
            return ranked[0]
        proto = game_from_view(view, played)
        pool = unseen_cards(view, played)
        self.mc.depth = self.depth or 2 * sum(view["in_hand"]) + 1
        action, _ = self.mc.search(view, ranked, (proto, pool), rng)
        return action


register_strategy("heuristic", "kilodney", KilodneyHeuristic, default=True)
register_strategy("search", "kilodney", KilodneySearch)
