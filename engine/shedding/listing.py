"""The legal actions of a seat: single cards, runs and sets, draw, pass, suit, last.

Every single-card play is listed; multi-card plays are found depth-first and at
most ``MAX_MULTI`` are listed, each way of laying the same cards once (a player
who wants another order types it, and legality accepts any valid play). Bots
list actions every turn, so the ordinary turn at a table of one-card plays takes
a short way that lists exactly what the long way would (the tests compare them).
"""

from __future__ import annotations

from typing import Any

from engine.actions import Action, Play
from engine.shedding.codes import (
    DRAW,
    LAST,
    NOMINATE,
    PASS,
    RANK,
    SINGLE,
    SUIT,
    codes_of,
    make_play,
)
from engine.shedding.legality import (
    answering,
    bad_finish,
    cancels,
    chain_reason,
    draw_reason,
    draw_when_able,
    last_reason,
    pass_reason,
    play_reason,
)
from engine.shedding.matching import alike, one_go, opening
from engine.shedding.state import Awaiting, HandState, Pending, PendingKind
from engine.shedding.table import KEEP, TableRules

#: At most this many multi-card plays are listed by ``legal_actions`` (every
#: single-card play is always listed; a valid play typed in full is accepted).
MAX_MULTI = 64

#: A play's cards, as codes in the order they are laid.
Cards = tuple[int, ...]


def legal_actions(
    rules: TableRules, state: HandState, seat: int, fast: bool = True
) -> list[Action]:
    """Every single-card play, up to ``MAX_MULTI`` multi-card plays (automatic moves
    announce last card with the play), draw, pass, suit, last. ``fast`` allows the
    short way for the common turn."""
    hand = state.hands[seat]
    if (
        fast
        and seat == state.turn
        and state.awaiting is None
        and state.pending is None
        and rules.one_card_plays
        and len(hand) >= 2
    ):
        # The common turn, kept tight: his go with nothing owed or awaited, two cards
        # or more, at a table of one-card plays and no cards call. What the long way
        # lists then, from the same rules: the single cards that may open a play, and
        # a draw where allowed.
        ok = opening(rules, state)
        out = singles(rules, len(hand), {c for c in hand if ok[c]})
        if not out or draw_when_able(rules, state):
            out.append(DRAW)
        return out
    return _long_way(rules, state, seat)


def singles(rules: TableRules, size: int, cards: set[int]) -> list[Action]:
    """The one-card plays of ``cards`` (each may open the play) from a hand of
    ``size``: in card order, announcing the last card where the play leaves one, and
    none that goes out on a card nobody may go out on."""
    single = SINGLE[rules.announce and size == 2]
    if size == 1:
        return [single[c] for c in cards if not bad_finish(rules, 0, c)]
    return [single[c] for c in sorted(cards)]


def _long_way(rules: TableRules, state: HandState, seat: int) -> list[Action]:
    hand = state.hands[seat]
    out: list[Action] = []
    if len(hand) == 1 and last_reason(rules, state, seat) is None:
        out.append(LAST)  # with more cards, the cards call goes with a play (_with_call)
    if seat != state.turn:
        return out
    if state.awaiting is Awaiting.SUIT:
        return out + list(NOMINATE)
    plays = _plays(rules, state, seat)
    if rules.cards_call and plays:
        plays = [_with_call(rules, hand, p) for p in plays]
    out += plays
    if draw_reason(rules, state, seat, bool(plays)) is None:
        out.append(DRAW)
    if pass_reason(state, seat) is None:
        out.append(PASS)
    return out


def _plays(rules: TableRules, state: HandState, seat: int) -> list[Action]:
    """The legal plays of the seat to act, singles first."""
    hand = state.hands[seat]
    size = len(hand)
    pend = state.pending
    if state.awaiting is None:
        if pend is None or pend.kind is PendingKind.COVER or pend.kind is PendingKind.GO_ON:
            ok = opening(rules, state)
            plays = singles(rules, size, {c for c in hand if ok[c]})
            if not rules.pt.any_multi or size < 2:
                return plays
            if state.hand_over:
                return plays + _checked(rules, state, seat, multi_plays(rules, state, seat))
            return plays + _laid(rules, size, multi_plays(rules, state, seat, ok))
        if pend.kind is PendingKind.PICKUP:
            plays = singles(rules, size, answering(rules, state, hand, pend))
            if not rules.pt.any_multi or size < 2:
                return plays
            return plays + _checked(rules, state, seat, multi_plays(rules, state, seat))
    return _checked(rules, state, seat, _candidate_plays(rules, state, seat))


def _laid(rules: TableRules, size: int, candidates: list[Cards]) -> list[Action]:
    """The candidates as plays, on a pile that asks only for a card that matches: what
    ``multi_plays`` finds then is legal by construction (it starts on a card that
    matches and adds only cards that may follow, as ``play_reason`` would check), but
    for a play of the whole hand that goes out on a card nobody may go out on."""
    announce = rules.announce
    no_end = rules.pt.no_end
    return [
        make_play(cards, announce and size - len(cards) == 1)
        for cards in candidates
        if len(cards) < size or not no_end[cards[-1]]
    ]


def _checked(
    rules: TableRules, state: HandState, seat: int, candidates: list[Cards]
) -> list[Action]:
    """The candidates that are legal, as plays (announcing last card where one leaves
    one card)."""
    size = len(state.hands[seat])
    announce = rules.announce
    return [
        make_play(cards, announce and size - len(cards) == 1)
        for cards in candidates
        if play_reason(rules, state, seat, cards, False) is None
    ]


def _with_call(rules: TableRules, hand: list[int], play: Action) -> Action:
    """The play with the cards call where the cards it leaves could all go in one
    play (so automatic moves and bots call when they should)."""
    assert isinstance(play, Play)
    if play.last:
        return play
    codes = codes_of(play)
    left = list(hand)
    for c in codes:
        left.remove(c)
    return make_play(codes, True) if one_go(rules, left) else play


def _candidate_plays(rules: TableRules, state: HandState, seat: int) -> list[Cards]:
    """Singles, then multi-card sequences, for the uncommon states."""
    if state.awaiting is Awaiting.DRAWN:
        return [(c,) for c in sorted(set(state.drawn))]
    hand = state.hands[seat]
    out: list[Cards] = [(c,) for c in sorted(set(hand))]
    if not rules.pt.any_multi or len(hand) < 2:
        return out
    return out + multi_plays(rules, state, seat)


class _Found:
    """Multi-card plays found so far, each way of laying the same cards once."""

    __slots__ = ("plays", "seen", "sig")

    def __init__(self, rules: TableRules) -> None:
        self.plays: list[Cards] = []
        self.seen: set[tuple[Any, ...]] = set()
        self.sig = rules.pt.sig

    def add(self, seq: Cards) -> None:
        """Keep ``seq`` unless a play doing the same was kept: the same cards laid,
        and the same rank and powers left on top. Orders of the same cards that
        differ only in the suit left on top (``9C 9H``, ``9H 9C``) are one: the
        listing shows the first in card order."""
        last = seq[-1]
        key = (tuple(sorted(seq)), RANK[last], self.sig[last])
        if key not in self.seen:
            self.seen.add(key)
            self.plays.append(seq)


def _starts(rules: TableRules, state: HandState, faces: list[int]) -> list[int]:
    """The faces a multi-card play may start with."""
    pend = state.pending
    if pend is None or pend.kind is PendingKind.COVER or pend.kind is PendingKind.GO_ON:
        ok = opening(rules, state)
        return [c for c in faces if ok[c]]
    if pend.kind is PendingKind.PICKUP:
        return sorted(answering(rules, state, faces, pend))
    return [c for c in faces if chain_reason(rules, (c,), pend) is None]


def multi_plays(
    rules: TableRules, state: HandState, seat: int, ok: tuple[bool, ...] | None = None
) -> list[Cards]:
    """Multi-card sequences found depth-first, at most ``MAX_MULTI``, each way of
    laying the same cards listed once. ``ok``: the pile's ``opening`` row, where the
    caller has it and nothing is pending."""
    hand = state.hands[seat]
    faces = sorted(set(hand))
    counts = {c: hand.count(c) for c in faces}
    starts = [c for c in faces if ok[c]] if ok is not None else _starts(rules, state, faces)
    found = _Found(rules)
    if rules.pt.any_suit_run:
        _suit_runs(rules, hand, starts, counts, found)
    pend = state.pending
    if pend is not None and pend.kind is PendingKind.PICKUP and rules.pt.any_cancel:
        _cancelling_sets(rules, hand, starts, counts, pend, found)
    if rules.pt.any_chain:  # else only suit runs: no card follows another by rank or run
        _chains(rules, faces, starts, counts, found)
    return found.plays


def _suit_runs(
    rules: TableRules, hand: list[int], starts: list[int], counts: dict[int, int], found: _Found
) -> None:
    """Black Jack's red jack with the cards of its suit, each of them last once."""
    for first in starts:
        if rules.pt.suit_run[first]:
            rest = sorted(c for c in hand if SUIT[c] == SUIT[first] and c != first)
            extra = rest + [first] * (counts[first] - 1)
            for i in range(len(extra)):
                found.add((first, *extra[:i], *extra[i + 1 :], extra[i]))


def _cancelling_sets(
    rules: TableRules,
    hand: list[int],
    starts: list[int],
    counts: dict[int, int],
    pend: Pending,
    found: _Found,
) -> None:
    """Cancelling cards alike, laid together on a pick-up."""
    for first in starts:
        if cancels(rules, first, pend):
            same = [c for c in hand if c != first and alike(rules, (first, c))]
            same += [first] * (counts[first] - 1)
            for k in range(1, len(same) + 1):
                found.add((first, *sorted(same[:k])))


def _chains(
    rules: TableRules, faces: list[int], starts: list[int], counts: dict[int, int], found: _Found
) -> None:
    """Sets, runs and chains from each start, depth-first, each start its share of
    ``MAX_MULTI``."""
    per_start = max(4, MAX_MULTI // max(1, len(starts)))
    plays = found.plays
    steps = rules.pt.steps  # ``matching.step``, read in place: the search's inner loop
    limit = 0

    def extend(seq: list[int], direction: int) -> None:
        if len(plays) >= limit:
            return
        if len(seq) > 1:
            found.add(tuple(seq))
        row = steps[seq[-1]]
        for nxt in faces:
            s = row[nxt]
            if s is None or counts[nxt] <= 0:
                continue
            if s == KEEP:
                d = direction
            elif direction == 0 or direction == s:
                d = s
            else:
                continue
            counts[nxt] -= 1
            seq.append(nxt)
            extend(seq, d)
            seq.pop()
            counts[nxt] += 1

    for first in starts:
        limit = min(len(plays) + per_start, MAX_MULTI)
        counts[first] -= 1
        extend([first], 0)
        counts[first] += 1
