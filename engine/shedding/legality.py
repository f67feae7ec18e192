"""Whether an action is legal now, and if not, why, in words for the player.

Each kind of action has its own ``*_reason`` function returning ``None`` when the
action is legal. A play is checked directly rather than looked up among the
listed ones: multi-card plays can number thousands, so the listing is bounded
while any valid play a person types is accepted. Answers to a waiting pick-up
(stacking, cancelling) are worked out here from the power table.
"""

from __future__ import annotations

from engine.actions import Action, Draw, Last, Nominate, Pass, Play
from engine.shedding.codes import RANK, TEXT, codes_of
from engine.shedding.matching import alike, mismatch, opening, sequence_reason, together_ok
from engine.shedding.state import Awaiting, HandState, Pending, PendingKind
from engine.shedding.table import TableRules

_NOT_YOUR_TURN = "it is not your turn"
_NAME_A_SUIT = "name a suit first (e.g. suit hearts)"


def names(cards: list[int] | tuple[int, ...]) -> str:
    return " ".join(TEXT[c] for c in cards)


def holds(state: HandState, seat: int, cards: tuple[int, ...]) -> int | None:
    """The first card of ``cards`` that ``seat`` does not hold, or None."""
    hand = state.hands[seat]
    if len(cards) == 1:
        return None if cards[0] in hand else cards[0]
    for c in cards:
        if hand.count(c) < cards.count(c):
            return c
    return None


def bad_finish(rules: TableRules, left: int, last: int) -> bool:
    """Whether a play that leaves ``left`` cards and ends on ``last`` goes out on a
    card nobody may go out on."""
    return left == 0 and rules.pt.no_end[last]


def play_reason(
    rules: TableRules, state: HandState, seat: int, cards: tuple[int, ...], last: bool
) -> str | None:
    """Why playing ``cards`` is not legal for ``seat`` now; None when it is."""
    if state.hand_over or seat != state.turn:
        return _NOT_YOUR_TURN
    missing = holds(state, seat, cards)
    if missing is not None:
        return f"you do not hold {TEXT[missing]}"
    awaiting = state.awaiting
    if awaiting is Awaiting.SUIT:
        return _NAME_A_SUIT
    if awaiting is Awaiting.DRAWN and (len(cards) != 1 or cards[0] not in state.drawn):
        return f"you may only play the card you drew ({names(state.drawn)}) or pass"
    reason = _fit_reason(rules, state, cards)
    if reason is not None:
        return reason
    left = len(state.hands[seat]) - len(cards)
    if bad_finish(rules, left, cards[-1]):
        return f"you may not go out on {TEXT[cards[-1]]}"
    if last and (left == 0 or (left != 1 and not rules.cards_call)):
        return "'last' is for a play that leaves you one card"
    return None


def _fit_reason(rules: TableRules, state: HandState, cards: tuple[int, ...]) -> str | None:
    """Why the cards do not go on the pile as it stands (and what it owes), or None."""
    pend = state.pending
    if pend is not None:
        kind = pend.kind
        if kind is PendingKind.PICKUP:
            return answer_reason(rules, state, cards, pend)
        if kind is PendingKind.SKIP or kind is PendingKind.MISS:
            return chain_reason(rules, cards, pend)
    first = cards[0]
    if not opening(rules, state)[first]:
        return mismatch(state, first)
    return sequence_reason(rules, cards)


def cancels(rules: TableRules, c: int, pend: Pending) -> bool:
    """Whether ``c`` cancels some of the waiting pick-up."""
    pt = rules.pt
    if pt.cancels_all[c]:
        return True
    one, every = pt.cancels[c], pt.cancels_every[c]
    return any(
        (one is not None and x in one) or (every is not None and x in every)
        for x in pend.cards or ()
    )


def answering(rules: TableRules, state: HandState, cards: list[int], pend: Pending) -> set[int]:
    """Which of ``cards`` alone answer the waiting pick-up: the ones that stack on
    the pile's top (the power table's ``stack_on``) and the ones that cancel."""
    stack = rules.pt.stack_on[state.pile[-1]]
    if not rules.pt.any_cancel:  # no card cancels at this table
        return {c for c in cards if c in stack}
    return {c for c in cards if c in stack or cancels(rules, c, pend)}


def answer_reason(
    rules: TableRules, state: HandState, cards: tuple[int, ...], pend: Pending
) -> str | None:
    """Why ``cards`` do not answer the waiting pick-up, or None."""
    pt = rules.pt
    top = state.pile[-1]
    if (
        pt.pickup_together
        and len(cards) > 1
        and cards[0] in pt.stack_on[top]
        and all(pt.pickup[c] for c in cards[1:])
    ):
        return None  # the first stacks; the pick-up cards laid with it add up
    if all(cancels(rules, c, pend) for c in cards):
        return _cancel_reason(rules, cards, pend)
    if not together_ok(rules, cards):
        return f"{names(cards)} cannot be laid together on a pick-up"
    prev = top
    for c in cards:
        if c not in pt.stack_on[prev]:
            count = pend.count
            return (
                f"{TEXT[c]} does not answer the pick-up of {count}: stack, cancel, or draw {count}"
            )
        prev = c
    return None


def _cancel_reason(rules: TableRules, cards: tuple[int, ...], pend: Pending) -> str | None:
    """Cancelling cards alike may go down together where each one has something of
    its own to cancel: Black Jack's two red jacks on twos with a black jack stacked
    (one takes the black jack, one the twos)."""
    if len(cards) == 1:
        return None
    if not alike(rules, cards):
        return f"{names(cards)} cannot be laid together on a pick-up"
    if cancelled_by_each(rules, cards, pend) < len(cards):
        return f"there are not {len(cards)} cards to cancel"
    return None


def cancel_one(rules: TableRules, c: int, remaining: list[int]) -> tuple[list[int], int]:
    """What canceller ``c`` leaves of a pick-up's ``remaining`` cards, and how much of
    its count it takes off: one card of those it cancels one at a time, else every
    card of those it cancels all of (a red jack on twos). A card that cancels the
    whole pick-up leaves nothing (its count the caller sets to nothing too)."""
    pt = rules.pt
    if pt.cancels_all[c]:
        return [], 0
    one, every = pt.cancels[c], pt.cancels_every[c]
    if one is not None:
        for i, r in enumerate(remaining):
            if r in one:
                return [*remaining[:i], *remaining[i + 1 :]], pt.raises[r]
    if every is not None:
        taken = sum(pt.raises[r] for r in remaining if r in every)
        return [r for r in remaining if r not in every], taken
    return remaining, 0


def cancelled_by_each(rules: TableRules, cards: tuple[int, ...] | list[int], pend: Pending) -> int:
    """How many of ``cards``, laid in turn on the waiting pick-up, find something
    left to cancel (as the play's resolution takes them)."""
    remaining = list(pend.cards or ())
    found = 0
    for c in cards:
        if not remaining:
            break
        left, _ = cancel_one(rules, c, remaining)
        if len(left) < len(remaining):
            found += 1
        remaining = left
    return found


def chain_reason(rules: TableRules, cards: tuple[int, ...], pend: Pending) -> str | None:
    """Why ``cards`` do not pass the waiting skip or miss on, or None."""
    rank = pend.rank
    flags = rules.pt.skip if pend.kind is PendingKind.SKIP else rules.pt.miss
    if not all(RANK[c] == rank and flags[c] for c in cards) or not together_ok(rules, cards):
        assert rank is not None
        name = "23456789TJQKA"[rank]
        article = "an" if name in "8A" else "a"
        return f"only {article} {name} passes the {pend.kind} on; or pass"
    return None


def draw_when_able(rules: TableRules, state: HandState) -> bool:
    """Whether a player owing nothing may draw even when he could play: where the
    table allows it and there is a card to draw (else only when he cannot play)."""
    return rules.draw_when_able and state.can_draw()


def draw_reason(
    rules: TableRules, state: HandState, seat: int, can_play: bool | None = None
) -> str | None:
    """Why ``seat`` may not draw now; ``can_play`` saves working out whether he can play."""
    if state.hand_over or seat != state.turn:
        return _NOT_YOUR_TURN
    if state.awaiting is Awaiting.SUIT:
        return _NAME_A_SUIT
    if state.awaiting is Awaiting.DRAWN:
        return "you have drawn: play the card you drew, or pass"
    pend = state.pending
    if pend is not None:
        kind = pend.kind
        if kind is PendingKind.SKIP or kind is PendingKind.MISS:
            return f"you are to {kind}: pass, or pass it on"
        if kind is PendingKind.PICKUP:
            return None
        if kind is PendingKind.GO_ON:
            return "you may go on in the suit you named, or pass to end your go"
    if draw_when_able(rules, state):
        return None
    if can_play is None:
        can_play = any_play(rules, state, seat)
    if can_play:
        if not state.can_draw():
            return "the stock is empty: you must play"
        return "you can play, so you may not draw"
    return None


def pass_reason(state: HandState, seat: int) -> str | None:
    """Why ``seat`` may not pass now: only a drawn card or a skip, miss or go-on passes."""
    if state.hand_over or seat != state.turn:
        return _NOT_YOUR_TURN
    if state.awaiting is Awaiting.DRAWN:
        return None
    pend = state.pending
    if (
        pend is not None
        and pend.kind is not PendingKind.PICKUP
        and pend.kind is not PendingKind.COVER
    ):
        return None  # a skip, a miss or a go-on passes
    return "there is nothing to pass: play or draw"


def last_reason(rules: TableRules, state: HandState, seat: int) -> str | None:
    """Why ``seat`` may not announce its last card now (or, holding more, make the cards
    call: only right after his play, before the next player acts)."""
    if not rules.announce:
        return "this table does not use last-card announcements"
    held = len(state.hands[seat])
    if state.hand_over or seat in state.finished or held == 0:
        return "you can only announce last card holding one card"
    if held > 1 and not (rules.cards_call and state.caller == seat):
        if rules.cards_call:
            return "call cards with your play, or before the next player acts"
        return "you can only announce last card holding one card"
    if seat in state.announced:
        return "you have already announced last card"
    return None


def any_play(rules: TableRules, state: HandState, seat: int) -> bool:
    """Whether ``seat`` has some card he may play alone."""
    return any(play_reason(rules, state, seat, (c,), False) is None for c in set(state.hands[seat]))


def reason(rules: TableRules, state: HandState, seat: int, action: Action) -> str | None:
    """Why ``action`` is not legal for ``seat`` now; None when it is."""
    if isinstance(action, Play):
        return play_reason(rules, state, seat, codes_of(action), action.last)
    if isinstance(action, Draw):
        return draw_reason(rules, state, seat, None)
    if isinstance(action, Pass):
        return pass_reason(state, seat)
    if isinstance(action, Nominate):
        if state.hand_over or seat != state.turn or state.awaiting is not Awaiting.SUIT:
            return "there is no suit to name now"
        return None
    if isinstance(action, Last):
        return last_reason(rules, state, seat)
    return f"'{action.verb}' is not part of this game"
