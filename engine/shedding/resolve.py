"""What each legal action does to the hand: plays, draws, passes, suits, blunders.

A play is resolved in steps, each a small rule read from the power table: the
cards go down (and the last-card announcements with them); the play answers what
was waiting (a pick-up stacked on or cancelled, a miss passed on); then the last
card's own power: a pick-up, a skip or a miss left for the next player, a swap of
hands, a reversal, a card to cover, a suit to name. Power cards only ever change
these few pieces of ``HandState``: ``pending``, the direction, the nominated
suit, misses owed, and hands.
"""

from __future__ import annotations

import random

from engine.actions import Action, Nominate, Play
from engine.events import Event
from engine.shedding import vocabulary as v
from engine.shedding.codes import RANK, TEXT, codes_of, suit_index
from engine.shedding.legality import cancel_one, cancels, holds
from engine.shedding.matching import opening
from engine.shedding.scoring import end_hand, maybe_out
from engine.shedding.state import Awaiting, HandState, MatchState, Pending, PendingKind, texts
from engine.shedding.table import TableRules

_BAD_FINISH = "you may not go out on"


def play(
    rules: TableRules,
    state: HandState,
    match: MatchState,
    rng: random.Random,
    seat: int,
    cards: tuple[int, ...],
    announced: bool,
) -> list[Event]:
    """Resolve ``seat``'s legal play of ``cards`` (``announced``: with last card)."""
    called = rules.cards_call and seat in state.announced  # before this play
    events = _lay(rules, state, seat, cards, announced)
    n = 1 if len(cards) == 1 else _alike_at_end(rules, cards)
    pend = state.pending
    answered = False
    if pend is not None:
        state.pending = None
        if pend.kind is PendingKind.PICKUP:
            answered = True
            if _answer_pickup(rules, state, rng, seat, cards, pend, events):
                return events + maybe_out(rules, state, match, seat)  # he took the rest
        elif pend.kind is PendingKind.MISS:
            n += pend.count
    hand = state.hands[seat]
    if not hand and rules.cards_call and not called:
        # Black Jack: "If the player places their last card, but failed to say 'last
        # card' at the end of their previous turn, then they must pick up two cards"
        events.append(state.give(seat, rules.last_penalty, "no cards call", rng))
    if not hand:
        events += maybe_out(rules, state, match, seat)
        if state.hand_over:
            return events
    if not rules.pt.power[cards[-1]]:
        state.turn = state.next_seat(seat)  # a plain card: the turn simply passes
        return events
    _power(rules, state, seat, cards, n, answered, events)
    return events


def _lay(
    rules: TableRules, state: HandState, seat: int, cards: tuple[int, ...], announced: bool
) -> list[Event]:
    """The cards leave the hand for the pile; what the last play left owed is done
    with; the announcement goes with the play, or is owed."""
    hand = state.hands[seat]
    if len(cards) == 1:  # most plays: no loops or joins for them
        last = cards[0]
        hand.remove(last)
        state.pile.append(last)
        shown = [TEXT[last]]
    else:
        for c in cards:
            hand.remove(c)
        state.pile.extend(cards)
        shown = texts(cards)
    state.nominated = None
    state.awaiting = None
    if state.drawn:
        state.drawn = []
    state.idle = 0
    if rules.cards_call:
        state.caller = seat
    played: v.SheddingPlayFields = {"seat": seat, "cards": shown}
    called: v.SheddingLastFields = {"seat": seat}
    events = [Event("play", played)]
    if len(hand) == 1:
        if announced:
            state.announced.add(seat)
            events.append(Event("last", called))
        elif rules.announce and seat not in state.announced:
            state.owing = seat
    elif announced and hand:  # the cards call: he means to go out next go
        state.announced.add(seat)
        events.append(Event("last", called))
    else:
        state.announced.discard(seat)
    return events


def _alike_at_end(rules: TableRules, cards: tuple[int, ...]) -> int:
    """How many cards at the end of the play do what the last one does."""
    n = 1
    if len(cards) > 1:
        last = cards[-1]
        sig = rules.pt.sig
        for c in reversed(cards[:-1]):
            if RANK[c] != RANK[last] or sig[c] != sig[last]:
                break
            n += 1
    return n


def _answer_pickup(
    rules: TableRules,
    state: HandState,
    rng: random.Random,
    seat: int,
    cards: tuple[int, ...],
    pend: Pending,
    events: list[Event],
) -> bool:
    """The play answers the waiting pick-up: cancelling cards take off what they
    cancel (and their player takes what is left, ending his go: True); otherwise the
    cards stack on it and raise it."""
    if all(cancels(rules, c, pend) for c in cards):
        return _cancel(rules, state, rng, seat, cards, pend, events)
    raises = rules.pt.raises
    state.pending = Pending(
        PendingKind.PICKUP,
        pend.count + sum(raises[c] for c in cards),
        [*(pend.cards or ()), *cards],
    )
    return False


def _cancel(
    rules: TableRules,
    state: HandState,
    rng: random.Random,
    seat: int,
    cards: tuple[int, ...],
    pend: Pending,
    events: list[Event],
) -> bool:
    """Each canceller removes one card's pick-up (or all the cards of a kind it
    cancels all of, like Black Jack's red jack on twos); its player takes what is
    left, and then his go is over (True)."""
    remaining = list(pend.cards or ())
    count = pend.count
    for c in cards:
        if rules.pt.cancels_all[c]:
            remaining, count = [], 0
            continue
        remaining, taken = cancel_one(rules, c, remaining)
        count -= taken
    cancelled: v.SheddingCancelFields = {"seat": seat, "left": max(count, 0)}
    events.append(Event("cancel", cancelled))
    if count > 0 and remaining:
        events.append(state.give(seat, count, "pick-up", rng))
        state.pass_turn(seat, idle=False)
        return True
    return False


def _power(
    rules: TableRules,
    state: HandState,
    seat: int,
    cards: tuple[int, ...],
    n: int,
    answered: bool,
    events: list[Event],
) -> None:
    """The play's own power: what it leaves the next player, whose turn is next, and
    whether its player names a suit first."""
    pt = rules.pt
    last = cards[-1]
    steps = _leave_pending(rules, state, cards, n, answered)
    if pt.swap[last] and state.hands[seat]:
        events.append(state.swap_hands(seat, rules.announce))
    out = seat in state.finished
    next_seat = _next_after(rules, state, seat, last, n, steps, out, events)
    if steps > 1:
        skipped: v.SheddingSkipFields = {"seat": state.skipped(seat, steps - 1)}
        events.append(Event("skip", skipped))
    if pt.nominate[last] and not out:
        state.awaiting = Awaiting.SUIT
        state.after_suit = next_seat
        # j28: "then the player is allowed to lay a heart and any other appropriate
        # cards on that go" (only when the card leaves nothing else to do)
        state.going_on = (
            pt.go_on[last] and state.pending is None and steps == 1 and next_seat != seat
        )
    else:
        state.turn = next_seat


def _leave_pending(
    rules: TableRules, state: HandState, cards: tuple[int, ...], n: int, answered: bool
) -> int:
    """A pick-up, skip or miss left for the next player; how many turns on the next
    player is (a skip that cannot be passed on jumps ``n`` seats)."""
    pt = rules.pt
    last = cards[-1]
    steps = 1
    if pt.pickup[last] and not answered:
        picked = [last] if len(cards) == 1 else [c for c in cards if pt.pickup[c]]
        state.pending = Pending(PendingKind.PICKUP, sum(pt.pickup[c] for c in picked), picked)
    if pt.skip[last]:
        if rules.skip_chain:
            state.pending = Pending(PendingKind.SKIP, 1, rank=RANK[last])
        else:
            steps += n
    if pt.miss[last]:
        state.pending = Pending(PendingKind.MISS, n, rank=RANK[last])
    return steps


def _next_after(
    rules: TableRules,
    state: HandState,
    seat: int,
    last: int,
    n: int,
    steps: int,
    out: bool,
    events: list[Event],
) -> int:
    """Who plays next: after a reversal (with two players, the same player again), a
    card to cover (the same player), or ``steps`` seats on."""
    pt = rules.pt
    if pt.reverse[last]:
        if len(state.active()) == 2 and not out:
            next_seat = seat  # with two players a reverse means play again
        else:
            if n % 2:
                state.direction = -state.direction
            next_seat = state.next_seat(seat, steps)
        reversed_: v.SheddingReverseFields = {"seat": seat, "direction": state.direction}
        events.append(Event("reverse", reversed_))
        return next_seat
    if pt.cover[last] and not out:
        state.pending = Pending(PendingKind.COVER, 1)
        return seat
    return state.next_seat(seat, steps)


def draw(
    rules: TableRules, state: HandState, match: MatchState, rng: random.Random, seat: int
) -> list[Event]:
    """``seat`` draws: the pick-up he owes, or what the table draws (one, two, or
    until a card goes); a card that goes may be played at once where allowed."""
    pend = state.pending
    if pend is not None and pend.kind is PendingKind.PICKUP:
        state.pending = None
        ev = state.give(seat, pend.count, "pick-up", rng)
        state.pass_turn(seat, idle=False)
        return [ev]
    state.pending = None  # a card not covered
    rule = rules.draw
    if rule == "until":
        cards: list[int] = []
        while True:
            got = state.draw_cards(1, rng)
            cards += got
            if not got or opening(rules, state)[got[0]]:
                break
    else:
        assert isinstance(rule, int)
        cards = state.draw_cards(rule, rng)
    events = [state.took(seat, cards, "draw")]
    playable = []
    if rules.play_drawn:
        ok = opening(rules, state)
        playable = [c for c in cards if ok[c]]
    if playable:
        state.awaiting = Awaiting.DRAWN
        state.drawn = playable
    else:
        state.pass_turn(seat, idle=not cards)
        if state.hand_over:
            events += end_hand(rules, state, match, blocked=True)
    return events


def pass_turn(rules: TableRules, state: HandState, match: MatchState, seat: int) -> list[Event]:
    """``seat`` passes: takes the miss or skip, ends his go-on, or keeps the card drawn."""
    pend = state.pending
    state.pending = None
    if pend is not None and pend.kind is PendingKind.MISS:
        state.misses[seat] += pend.count - 1
        missed: v.SheddingMissFields = {"seat": seat, "turns": pend.count}
        ev = Event("miss", missed)
    elif pend is not None and pend.kind is not PendingKind.GO_ON:
        skipped: v.SheddingSkipFields = {"seat": seat}
        ev = Event("skip", skipped)
    else:
        passed: v.SheddingPassFields = {"seat": seat}
        ev = Event("pass", passed)
    state.pass_turn(seat, idle=pend is None)
    events = [ev]
    if state.hand_over:
        events += end_hand(rules, state, match, blocked=True)
    return events


def nominate(state: HandState, seat: int, action: Nominate) -> Event:
    """``seat`` names the suit to follow; after a go-on card he goes on in it."""
    state.nominated = suit_index(action.suit)
    state.awaiting = None
    if state.going_on:  # the same player may go on laying the suit he named
        state.going_on = False
        state.pending = Pending(PendingKind.GO_ON, 0)
    else:
        assert state.after_suit is not None
        state.turn = state.after_suit
    state.after_suit = None
    named: v.SheddingNominateFields = {"seat": seat, "suit": action.suit}
    return Event("nominate", named)


def settle_owing(rules: TableRules, state: HandState, rng: random.Random, seat: int) -> list[Event]:
    """A seat that did not announce its last card draws the penalty as soon as
    another seat acts."""
    owing = state.owing
    if owing is None or owing == seat:
        return []
    state.owing = None
    if len(state.hands[owing]) != 1 or owing in state.finished:
        return []
    return [state.give(owing, rules.last_penalty, "last card not announced", rng)]


def blunder(
    rules: TableRules,
    state: HandState,
    rng: random.Random,
    seat: int,
    action: Action,
    reason: str,
) -> list[Event] | None:
    """A penalised wrong play of held cards: the cards stay in hand, the penalty is
    drawn, and the turn does not pass (the player still owes a legal move). None
    where the table does not penalise it (it is refused)."""
    if not isinstance(action, Play) or state.hand_over or seat in state.finished:
        return None
    cards = codes_of(action)
    if holds(state, seat, cards) is not None:
        return None
    at_end = reason.startswith(_BAD_FINISH)
    if at_end and rules.end_penalty:
        n = rules.end_penalty
    elif rules.illegal_penalty and not at_end:
        n = rules.illegal_penalty
    else:
        return None
    events = settle_owing(rules, state, rng, seat)
    blunder: v.SheddingBlunderFields = {"seat": seat, "cards": texts(cards), "why": reason}
    events.append(Event("blunder", blunder))
    events.append(state.give(seat, n, "penalty", rng))
    return events
