"""What the other players' draws say they lack, for the shedding search's worlds.

Why: a player who draws where the rules let him draw only when he cannot play
held no card that would have gone on the pile then. That is a public fact the
search's sampled worlds ignored: they dealt him the cards he had just shown he
lacked. ``DrawMemory`` reads the events a seat is shown and keeps each draw
that says something (the seat, the pile's top, the suit named); ``lacks``
turns them, with the table's rules, into what each hand cannot hold now; and
``arrange`` orders the unseen cards so that ``fill_unseen`` deals every hand
consistently with them.

What a draw proves (``infer=1``, facts only): at a table without
``draw_when_able``, a draw that answers no pick-up means no card of the hand
then could open a play on the pile (the suit named, else the top's suit or
rank; a wild card always goes; with one card left, a card nobody may go out on
does not count). Where a drawn card may be played (``play_drawn``) and the
turn passed to another seat without a pass, the drawn card did not fit either.
What a careful player shows (``infer=2`` adds these assumptions, as kilodney's
``infer`` does: a player follows when he can): a pick-up drawn rather than
stacked means no card that stacks on the top (or cancels every pick-up), a skip
or a missed turn taken where it could be passed on means no card that passes it
on, and a drawn card kept with a pass did not fit.

The hand he holds now is what he held then, less what he played, plus what he
received since; so at least ``size now - cards received since`` of his cards
are from then and lack what that draw excluded (and what every later draw
excluded, since he held them then too). That lower bound is all ``lacks``
claims: a world built from it never contradicts a public fact.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.cards import Card
from engine.shedding.codes import JK, RANK, SUIT, code, suit_index
from engine.shedding.table import TableRules

#: A hand's constraint: (cards it cannot hold, how many of its cards must avoid them),
#: strictest first (the cards held longest avoid the most).
Groups = list[tuple[frozenset[int], int]]


@dataclass(slots=True)
class DrawFact:
    """One draw that may say what its seat lacked.

    ``reason``: the draw event's (``draw`` or ``pick-up``), or ``skip`` or ``miss`` for
    a skip or missed turn taken (nothing drawn); ``top`` and ``nominated``:
    the pile's top (a code) and the suit named (an index) then; ``size``: the seat's
    cards before the draw; ``received``: the cards he had received this hand before
    it; ``count``: the cards drawn; ``kept``: ``fact`` or ``careful`` when the drawn
    cards are known (or assumed) not to fit either, else empty."""

    seat: int
    reason: str
    top: int | None
    nominated: int | None
    size: int
    received: int
    count: int
    kept: str = ""


class DrawMemory:
    """The draws of one hand and what is needed to read them (see the module doc)."""

    def __init__(self) -> None:
        self.facts: list[DrawFact] = []
        self.received: list[int] = []
        self.sizes: list[int] = []
        self.top: int | None = None
        self.nominated: int | None = None
        self.open: DrawFact | None = None  # a draw whose drawn card is not yet placed
        self.cancelled: int | None = None  # the seat that just cancelled part of a pick-up

    def observe(self, event: Mapping[str, Any]) -> None:
        """Read one event (as the seat was shown it)."""
        kind = event.get("kind")
        seat = event.get("seat")
        if kind == "deal":
            sizes = event.get("hand_sizes") or []
            self.facts, self.open, self.cancelled = [], None, None
            self.sizes, self.received = list(sizes), [0] * len(sizes)
            top = event.get("top")
            self.top, self.nominated = (code(Card.parse(top)) if top else None), None
            return
        if not self.sizes or not isinstance(seat, int) or not 0 <= seat < len(self.sizes):
            return
        if kind in ("play", "pass", "draw", "nominate", "skip", "miss") and self.open:
            self._place_drawn(kind, seat)
        if kind == "play" and event.get("cards"):
            cards = [code(Card.parse(t)) for t in event["cards"]]
            self.sizes[seat] -= len(cards)
            self.top, self.nominated = cards[-1], None
        elif kind == "nominate" and event.get("suit"):
            self.nominated = suit_index(event["suit"])
        elif kind == "draw":
            self._draw(seat, event.get("reason", ""), int(event.get("count", 0)))
        elif kind in ("skip", "miss"):
            fact = DrawFact(seat, kind, self.top, None, self.sizes[seat], self.received[seat], 0)
            self.facts.append(fact)
        elif kind == "swap":
            other = event.get("with")
            if isinstance(other, int) and 0 <= other < len(self.sizes):
                self.sizes[seat], self.sizes[other] = self.sizes[other], self.sizes[seat]
                # Who holds which cards is now mixed: what was known goes.
                self.facts = [f for f in self.facts if f.seat not in (seat, other)]
        self.cancelled = seat if kind == "cancel" else None

    def _draw(self, seat: int, reason: str, count: int) -> None:
        fact = DrawFact(
            seat,
            reason,
            self.top,
            self.nominated,
            self.sizes[seat],
            self.received[seat],
            count,
        )
        self.sizes[seat] += count
        self.received[seat] += count
        if reason == "draw" or (reason == "pick-up" and self.cancelled != seat):
            self.facts.append(fact)
            self.open = fact if reason == "draw" else None

    def _place_drawn(self, kind: str, seat: int) -> None:
        """The first act after a draw says whether its card fitted: another seat acting
        means it did not (where it could be played, the rules wait for its player);
        its player passing means he kept it."""
        fact, self.open = self.open, None
        assert fact is not None
        if seat != fact.seat:
            fact.kept = "fact"
        elif kind == "pass":
            fact.kept = "careful"

    def lacks(self, rules: TableRules, sizes: Sequence[int], infer: int) -> dict[int, Groups]:
        """Each seat's constraints now (``sizes``: the hand sizes the view shows), from the
        facts (``infer >= 1``) and the careful player's signs (``infer >= 2``)."""
        out: dict[int, Groups] = {}
        if infer < 1 or len(sizes) != len(self.sizes):
            return out
        by_seat: dict[int, list[tuple[frozenset[int], int]]] = {}
        for f in self.facts:
            banned = excluded(rules, f, infer)
            if not banned:
                continue
            since = self.received[f.seat] - f.received
            kept = rules.play_drawn and (
                f.kept == "fact" or (infer >= 2 and f.kept == "careful" and rules.draw == 1)
            )
            held = sizes[f.seat] - since + (f.count if kept else 0)
            held = min(held, f.size + (f.count if kept else 0), sizes[f.seat])
            if held > 0:
                by_seat.setdefault(f.seat, []).append((banned, held))
        for seat, rows in by_seat.items():
            groups: Groups = []
            union: frozenset[int] = frozenset()
            # Latest first: each earlier draw's cards were held at every later one.
            done = 0
            for banned, held in reversed(rows):
                union = union | banned
                groups.append((union, held))
            groups.reverse()
            nested: Groups = []
            for banned, held in groups:
                if held > done:
                    nested.append((banned, held - done))
                    done = held
            out[seat] = nested
        return out


def excluded(rules: TableRules, fact: DrawFact, infer: int) -> frozenset[int]:
    """The cards ``fact``'s seat could have played then (so did not hold), or none."""
    pt = rules.pt
    top = fact.top
    if top is None:
        return frozenset()
    if fact.reason == "draw":
        if rules.draw_when_able:
            return frozenset()
        suit = fact.nominated
        if suit is None:
            if top == JK:
                return frozenset()  # anything goes: he drew with no card at all
            suit = SUIT[top]
        row = pt.follows[suit * 14 + RANK[top] + 1]
        cards = {c for c, ok in enumerate(row) if ok}
    elif fact.reason == "pick-up" and infer >= 2:
        cards = set(pt.stack_on[top]) | {c for c, ok in enumerate(pt.cancels_all) if ok}
    elif fact.reason in ("skip", "miss") and infer >= 2 and top != JK:
        if fact.reason == "skip" and not rules.skip_chain:
            return frozenset()  # a skip he could not pass on
        flags = pt.skip if fact.reason == "skip" else pt.miss
        cards = {c for c, ok in enumerate(flags) if ok and RANK[c] == RANK[top]}
    else:
        return frozenset()
    if fact.size == 1:
        cards = {c for c in cards if not pt.no_end[c]}  # he could not go out on it
    return frozenset(cards)


def arrange(view: Mapping[str, Any], cards: list[int], lacks: dict[int, Groups]) -> list[int]:
    """``cards`` (already shuffled) reordered so that ``fill_unseen`` deals each other
    seat a hand that meets its constraints: each constrained hand takes, group by group,
    the first cards it may hold, then any; a hand whose constraints the cards cannot
    meet (the memory is wrong somewhere) is dealt at random with the others."""
    me = view["viewer"]
    sizes = view["hand_sizes"]
    pool = cards
    hands: dict[int, list[int]] = {}
    order = sorted(lacks, key=lambda s: -sum(k for _, k in lacks[s]))
    for s in order:
        if s == me or not sizes[s]:
            continue
        take: list[int] = []
        rest = pool
        for banned, k in lacks[s]:
            got: list[int] = []
            keep: list[int] = []
            for c in rest:
                if len(got) < k and c not in banned:
                    got.append(c)
                else:
                    keep.append(c)
            if len(got) < k:
                break
            take += got
            rest = keep
        else:
            free = max(0, sizes[s] - len(take))
            hands[s] = take[: sizes[s]] + rest[:free]
            pool = rest[free:]
    out: list[int] = []
    for s, size in enumerate(sizes):
        if s == me:
            continue
        hand = hands.get(s)
        if hand is None:
            hand, pool = pool[:size], pool[size:]
        out += hand
    return out + pool
