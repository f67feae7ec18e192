"""What each seat sees of a hand, the deal as an event, and a hand rebuilt from a view.

A view carries primitives only (card names, suit letters, words a program
switches on); the state's codes are turned into them here, and back when a
search rebuilds the hand a seat sees (``state_from_view``) and deals the cards
it has not seen into the places the view hides (``fill_unseen``). The kinds
(``PendingKind``, ``Awaiting``) go in as the members themselves: ``StrEnum``
members are their words, on the wire and to ``==``, and a reader in the
process compares them with members.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.cards import Card
from engine.events import Event
from engine.shedding.codes import SUIT_LETTER, TEXT, code, suit_index
from engine.shedding.state import Awaiting, HandState, MatchState, Pending, PendingKind, texts
from engine.shedding.table import TableRules
from engine.shedding.vocabulary import (
    PendingView,
    SheddingDealFields,
    SheddingDealPrivate,
    SheddingView,
)
from engine.vocabulary import CommonView

_RANKS = "23456789TJQKA"
#: What the table waits for, in words, by the pending effect's kind.
_OWED = {
    PendingKind.PICKUP: "stack, cancel, or draw {count}",
    PendingKind.SKIP: "pass the skip on, or pass",
    PendingKind.MISS: "play {rank} or miss {turns}",
    PendingKind.COVER: "cover the card, or draw",
    PendingKind.GO_ON: "go on in the suit you named, or pass",
}
_AWAITING = {
    Awaiting.SUIT: "nominate a suit",
    Awaiting.DRAWN: "play the card you drew, or pass",
}


def codes(names: Sequence[str] | None) -> list[int]:
    """Card names as codes."""
    return [code(Card.parse(t)) for t in names or []]


def _pending_view(pend: Pending) -> tuple[PendingView, str]:
    """The pending effect as the view shows it, and in words."""
    rank = None if pend.rank is None else _RANKS[pend.rank]
    pending: PendingView = {
        "kind": pend.kind,
        "count": pend.count,
        "cards": texts(pend.cards or []),
    }
    if rank is not None:
        pending["rank"] = rank
    turns = f"{pend.count} turn{'' if pend.count == 1 else 's'}"
    return pending, _OWED[pend.kind].format(count=pend.count, rank=_a_rank(rank), turns=turns)


#: A rank as the view's words read it, where it is not its letter
_RANK_WORDS = {"T": "10", "J": "jack", "Q": "queen", "K": "king", "A": "ace"}


def _a_rank(rank: str | None) -> str:
    """A rank after its article, as read aloud: ``an 8``, ``an ace``, ``a king``.

    >>> _a_rank("8"), _a_rank("A"), _a_rank("K"), _a_rank("T")
    ('an 8', 'an ace', 'a king', 'a 10')
    """
    word = _RANK_WORDS.get(rank or "", rank or "")
    return f"{'an' if word in ('8', 'ace') else 'a'} {word}"


def seat_view(
    ruleset: str,
    rules: TableRules,
    state: HandState,
    match: MatchState,
    seat: int | None,
    common: CommonView,
) -> SheddingView:
    """``seat``'s view (``None``: a spectator): ``common`` and the family's keys."""
    pend = state.pending
    awaiting = None if state.awaiting is None else _AWAITING[state.awaiting]
    pending = None
    if pend is not None:
        pending, owed = _pending_view(pend)
        awaiting = awaiting or owed
    # What the table waits for, as a word a program switches on (``awaiting`` says it
    # to a person): the card drawn or suit owed first, else the pending power's kind.
    kind = state.awaiting or (None if pend is None else pend.kind)
    return {
        "ruleset": common["ruleset"],  # first, then the family (``Game._view``)
        "family": "shedding",
        **common,
        "preset": ruleset,
        "hand": None if seat is None else texts(state.hands[seat]),
        "hand_sizes": [len(h) for h in state.hands],
        "top": TEXT[state.pile[-1]] if state.pile else None,
        "pile_size": len(state.pile),
        "nominated": None if state.nominated is None else SUIT_LETTER[state.nominated],
        "stock": len(state.stock),
        "pending": pending,
        "direction": state.direction,
        "finished": list(state.finished),
        "dealer": state.dealer,
        "announced": sorted(state.announced),
        "hand_number": match.hand_number,
        "target": rules.target,
        "awaiting": awaiting,
        "awaiting_kind": kind,
        "drawn": texts(state.drawn) if seat == state.turn else [],
        "misses": list(state.misses),
    }


def deal_event(state: HandState, match: MatchState) -> Event:
    """The deal: each seat's cards shown to it only, the start card to everyone."""
    dealt: SheddingDealFields = {
        "dealer": state.dealer,
        "hand_number": match.hand_number,
        "hand_sizes": [len(h) for h in state.hands],
        "top": TEXT[state.pile[-1]] if state.pile else None,
    }
    hands: dict[int, SheddingDealPrivate] = {
        s: {"hand": texts(h)} for s, h in enumerate(state.hands)
    }
    return Event("deal", dealt, hands)


def _pending_from_view(pend: Mapping[str, Any] | None) -> Pending | None:
    if pend is None:
        return None
    rank = pend.get("rank")
    return Pending(
        PendingKind(pend["kind"]),
        pend["count"],
        codes(pend["cards"]),
        None if rank is None else _RANKS.index(rank),
    )


def state_from_view(
    view: Mapping[str, Any], known_pile: Sequence[int], deck_size: int
) -> HandState:
    """The hand as ``view`` shows it to its seat: its own hand, the pile it saw (at
    least the top), whose turn it is and what is owed; the other hands and the stock
    empty. The view's ``awaiting_kind`` names a pending power's kind too; the state's
    ``awaiting`` holds only a suit or a drawn card owed."""
    n = view["seats"]
    me = view["viewer"]
    top = codes([view["top"]]) if view.get("top") else []
    owed = view.get("awaiting_kind")
    nominated = view.get("nominated")
    return HandState(
        dealer=view["dealer"],
        deck_size=deck_size,
        hands=[codes(view["hand"]) if s == me else [] for s in range(n)],
        stock=[],
        pile=list(known_pile) or top,
        turn=view["to_act"],
        direction=view["direction"],
        nominated=None if nominated is None else suit_index(nominated),
        pending=_pending_from_view(view.get("pending")),
        awaiting=Awaiting(owed) if owed in ("suit", "drawn") else None,
        drawn=codes(view.get("drawn")),
        finished=list(view["finished"]),
        announced=set(view.get("announced", [])),
        misses=list(view.get("misses", [0] * n)),
        hand_points=[0] * n,
    )


def fill_unseen(state: HandState, view: Mapping[str, Any], cards: Sequence[int]) -> None:
    """Deal ``cards`` (codes) into the places ``view`` hides: each other seat's hand to
    the size the view gives, then the pile under the cards the seat saw, then the stock."""
    me = view["viewer"]
    rest = list(cards)
    for s, size in enumerate(view["hand_sizes"]):
        if s != me:
            state.hands[s], rest = rest[:size], rest[size:]
    under = max(0, view["pile_size"] - len(state.pile))
    state.pile, rest = rest[:under] + state.pile, rest[under:]
    state.stock = rest[: view["stock"]]
