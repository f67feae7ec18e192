"""The shedding family's declared vocabulary: its view's keys and its event kinds.

Hands are secret: each seat sees its own hand, a spectator's `hand` is `null`, and a
card drawn or dealt is shown to its taker only (everyone else sees the count).

``SheddingView`` and ``SheddingEvent`` are the same declarations as types mypy checks (a
test holds their keys to ``VOCABULARY``'s). The view's kinds are the engine's enums
(``PendingKind``, ``Awaiting``): ``StrEnum`` members, so they go onto the wire as the same
words, and a reader compares with members (``kind == PendingKind.PICKUP``);
``with_kinds`` turns a view that came off the wire back into members.
"""

from collections.abc import Mapping
from typing import Any, Literal, NotRequired, TypedDict, cast

from engine.shedding.kinds import Awaiting, PendingKind
from engine.vocabulary import CommonView, EventKind, Field, Vocabulary

_SEAT = Field("seat", "int", "the seat it concerns")
_HAND = Field("hand_number", "int", "the hand, counted from 1")
_SCORES = Field("scores", "list[int]", "each seat's match total after it")

VOCABULARY = Vocabulary(
    "shedding",
    view=(
        Field("preset", "str", "the preset the table was made from (`switch`, `j28`, ...)"),
        Field("hand", "list[str] | null", "the viewer's cards; `null` for a spectator"),
        Field("hand_sizes", "list[int]", "how many cards each seat holds"),
        Field("top", "str | null", "the card on top of the pile"),
        Field("pile_size", "int", "cards in the pile"),
        Field(
            "nominated",
            "str | null",
            "the suit named to follow (`C`, `D`, `H`, `S`); `null` when none is",
        ),
        Field("stock", "int", "cards left in the stock"),
        Field(
            "pending",
            "map | null",
            "a power waiting to be answered: `kind` (`pickup`, `skip`, `miss`, `cover`,"
            " `go_on`), `count` (cards to pick up, turns to miss), `cards` (the cards that"
            " made it) and, for `miss`, `rank` (the rank that passes it on); `null` when none",
        ),
        Field("direction", "int", "the direction of play: 1 clockwise, -1 counter-clockwise"),
        Field("finished", "list[int]", "the seats that have gone out this hand, in order"),
        Field("dealer", "int", "the seat that dealt this hand"),
        Field("announced", "list[int]", "the seats that have announced their last card"),
        Field("hand_number", "int", "the hand, counted from 1"),
        Field("target", "int", "the match total that ends the game (0: one hand)"),
        Field(
            "awaiting",
            "str | null",
            "what the seat to act must answer, in words for a person"
            " (`stack, cancel, or draw 4`); `null` for an ordinary turn",
        ),
        Field(
            "awaiting_kind",
            "str | null",
            "the same as a word to switch on: `suit` (name a suit), `drawn` (play the card"
            " drawn or pass), or the pending power's `kind`; `null` for an ordinary turn",
        ),
        Field(
            "drawn",
            "list[str]",
            "the card the viewer just drew and may play, while it is his turn; else empty",
        ),
        Field("misses", "list[int]", "turns each seat still has to miss"),
    ),
    events=(
        EventKind(
            "deal",
            "a new hand is dealt and the start card turned",
            (
                Field("dealer", "int", "the dealer"),
                _HAND,
                Field("hand_sizes", "list[int]", "how many cards each seat was dealt"),
                Field("top", "str | null", "the start card"),
            ),
            (Field("hand", "list[str]", "the cards this seat was dealt"),),
        ),
        EventKind(
            "play",
            "a seat laid cards (the last one laid is the new top)",
            (_SEAT, Field("cards", "list[str]", "the cards, in the order laid")),
        ),
        EventKind(
            "draw",
            "a seat took cards",
            (
                _SEAT,
                Field("count", "int", "how many"),
                Field(
                    "reason",
                    "str",
                    "why: `draw` (his choice or need), `pick-up` (a pick-up power), `penalty`"
                    " (a blunder), `last card not announced` or `no cards call`",
                ),
            ),
            (Field("cards", "list[str]", "the cards drawn"),),
        ),
        EventKind(
            "nominate",
            "a seat named the suit to follow",
            (_SEAT, Field("suit", "str", "the suit named, as its letter (`C`, `D`, `H`, `S`)")),
        ),
        EventKind("last", "a seat announced its last card (or a cards call)", (_SEAT,)),
        EventKind(
            "blunder",
            "a seat made a play the preset penalises: the cards stay in hand, a penalty is"
            " drawn, and it is still his turn",
            (
                _SEAT,
                Field("cards", "list[str]", "the cards he tried to lay"),
                Field("why", "str", "why the play was wrong, in words for a person"),
            ),
        ),
        EventKind(
            "skip",
            "a seat misses its turn (a skip card, or it passed one on no further)",
            (_SEAT,),
        ),
        EventKind(
            "miss",
            "a seat starts missing turns (a miss-turns card)",
            (_SEAT, Field("turns", "int", "how many turns it misses")),
        ),
        EventKind("pass", "a seat passed", (_SEAT,)),
        EventKind(
            "reverse",
            "the direction of play changed",
            (_SEAT, Field("direction", "int", "the new direction: 1 or -1")),
        ),
        EventKind(
            "cancel",
            "a seat cancelled a waiting pick-up",
            (_SEAT, Field("left", "int", "cards of the pick-up still to take (0: all cancelled)")),
        ),
        EventKind(
            "swap",
            "a seat swapped hands with the next seat still in the hand",
            (_SEAT, Field("with", "int", "the other seat")),
            (Field("hand", "list[str]", "the hand this seat holds now"),),
        ),
        EventKind(
            "out",
            "a seat played its last card and is out of the hand",
            (_SEAT, Field("place", "int", "its finishing place, from 1")),
        ),
        EventKind(
            "hand_end",
            "the hand is over and scored",
            (
                _HAND,
                Field("finished", "list[int]", "every seat in finishing order"),
                Field(
                    "points",
                    "list[int]",
                    "what the hand gave each seat: the seat out first scores the cards left in"
                    " the other hands (docs/rules.md, Scoring); every other seat 0",
                ),
                _SCORES,
                Field(
                    "blocked",
                    "bool",
                    "nobody went out: the hand was blocked (or hit its turn limit)",
                ),
            ),
        ),
        EventKind(
            "game_end",
            "the match is over",
            (Field("winner", "int", "the winner"), _SCORES),
        ),
    ),
)


class PendingView(TypedDict):
    """A power waiting to be answered, as the view shows it."""

    kind: PendingKind
    count: int
    cards: list[str]
    rank: NotRequired[str]


#: What the seat to act must answer, as the view's ``awaiting_kind`` names it.
Owed = Awaiting | PendingKind


class SheddingView(CommonView):
    """A shedding view, as ``VOCABULARY`` declares it."""

    family: Literal["shedding"]
    preset: str
    hand: list[str] | None
    hand_sizes: list[int]
    top: str | None
    pile_size: int
    nominated: str | None
    stock: int
    pending: PendingView | None
    direction: int
    finished: list[int]
    dealer: int
    announced: list[int]
    hand_number: int
    target: int
    awaiting: str | None
    awaiting_kind: Owed | None
    drawn: list[str]
    misses: list[int]


def owed(word: str | None) -> Owed | None:
    """The ``awaiting_kind`` word as its member (a word this code does not know, from a
    newer server, stays the word: a reader's comparisons with members fail, as they
    should, and its words for an unknown kind still say it).

    >>> owed("suit"), owed("pickup"), owed(None), owed("juggle")
    (<Awaiting.SUIT: 'suit'>, <PendingKind.PICKUP: 'pickup'>, None, 'juggle')
    """
    if word is None:
        return None
    return cast(Owed, _KINDS.get(word, word))


#: Every kind by its word.
_KINDS: dict[str, Owed] = {**{a.value: a for a in Awaiting}, **{k.value: k for k in PendingKind}}


def with_kinds(view: Mapping[str, Any]) -> SheddingView:
    """A shedding view that came off the wire (its kinds plain words), with the kinds
    made members again; the rest as it is.

    >>> v = with_kinds({"pending": {"kind": "pickup", "count": 2, "cards": []},
    ...                 "awaiting_kind": "pickup"})
    >>> v["pending"]["kind"] is PendingKind.PICKUP, v["awaiting_kind"] is PendingKind.PICKUP
    (True, True)
    """
    out = dict(view)
    pending = out.get("pending")
    if pending is not None:
        out["pending"] = {**pending, "kind": owed(pending["kind"])}
    if "awaiting_kind" in out:
        out["awaiting_kind"] = owed(out["awaiting_kind"])
    return cast(SheddingView, out)


class SheddingDealFields(TypedDict):
    """What every seat is shown of ``SheddingDeal`` (the engine builds it so)."""

    dealer: int
    hand_number: int
    hand_sizes: list[int]
    top: str | None


class SheddingDealPrivate(TypedDict):
    """What only some seats are shown of ``SheddingDeal``."""

    hand: list[str]


class SheddingDeal(SheddingDealFields):
    kind: Literal["deal"]
    hand: NotRequired[list[str]]


class SheddingPlayFields(TypedDict):
    """What every seat is shown of ``SheddingPlay`` (the engine builds it so)."""

    seat: int
    cards: list[str]


class SheddingPlay(SheddingPlayFields):
    kind: Literal["play"]


class SheddingDrawFields(TypedDict):
    """What every seat is shown of ``SheddingDraw`` (the engine builds it so)."""

    seat: int
    count: int
    reason: str


class SheddingDrawPrivate(TypedDict):
    """What only some seats are shown of ``SheddingDraw``."""

    cards: list[str]


class SheddingDraw(SheddingDrawFields):
    kind: Literal["draw"]
    cards: NotRequired[list[str]]


class SheddingNominateFields(TypedDict):
    """What every seat is shown of ``SheddingNominate`` (the engine builds it so)."""

    seat: int
    suit: str


class SheddingNominate(SheddingNominateFields):
    kind: Literal["nominate"]


class SheddingLastFields(TypedDict):
    """What every seat is shown of ``SheddingLast`` (the engine builds it so)."""

    seat: int


class SheddingLast(SheddingLastFields):
    kind: Literal["last"]


class SheddingBlunderFields(TypedDict):
    """What every seat is shown of ``SheddingBlunder`` (the engine builds it so)."""

    seat: int
    cards: list[str]
    why: str


class SheddingBlunder(SheddingBlunderFields):
    kind: Literal["blunder"]


class SheddingSkipFields(TypedDict):
    """What every seat is shown of ``SheddingSkip`` (the engine builds it so)."""

    seat: int


class SheddingSkip(SheddingSkipFields):
    kind: Literal["skip"]


class SheddingMissFields(TypedDict):
    """What every seat is shown of ``SheddingMiss`` (the engine builds it so)."""

    seat: int
    turns: int


class SheddingMiss(SheddingMissFields):
    kind: Literal["miss"]


class SheddingPassFields(TypedDict):
    """What every seat is shown of ``SheddingPass`` (the engine builds it so)."""

    seat: int


class SheddingPass(SheddingPassFields):
    kind: Literal["pass"]


class SheddingReverseFields(TypedDict):
    """What every seat is shown of ``SheddingReverse`` (the engine builds it so)."""

    seat: int
    direction: int


class SheddingReverse(SheddingReverseFields):
    kind: Literal["reverse"]


class SheddingCancelFields(TypedDict):
    """What every seat is shown of ``SheddingCancel`` (the engine builds it so)."""

    seat: int
    left: int


class SheddingCancel(SheddingCancelFields):
    kind: Literal["cancel"]


#: ``with`` is a Python keyword, so this one is written in the call form.
SheddingSwapFields = TypedDict("SheddingSwapFields", {"seat": int, "with": int})


class SheddingSwapPrivate(TypedDict):
    """What only the two seats that swapped are shown: each his new hand."""

    hand: list[str]


class SheddingSwap(SheddingSwapFields):
    kind: Literal["swap"]
    hand: NotRequired[list[str]]


class SheddingOutFields(TypedDict):
    """What every seat is shown of ``SheddingOut`` (the engine builds it so)."""

    seat: int
    place: int


class SheddingOut(SheddingOutFields):
    kind: Literal["out"]


class SheddingHandEndFields(TypedDict):
    """What every seat is shown of ``SheddingHandEnd`` (the engine builds it so)."""

    hand_number: int
    finished: list[int]
    points: list[int]
    scores: list[int]
    blocked: bool


class SheddingHandEnd(SheddingHandEndFields):
    kind: Literal["hand_end"]


class SheddingGameEndFields(TypedDict):
    """What every seat is shown of ``SheddingGameEnd`` (the engine builds it so)."""

    winner: int
    scores: list[int]


class SheddingGameEnd(SheddingGameEndFields):
    kind: Literal["game_end"]


#: A shedding event as a seat is shown it (``Event.present``): mypy narrows it by ``kind``.
SheddingEvent = (
    SheddingDeal
    | SheddingPlay
    | SheddingDraw
    | SheddingNominate
    | SheddingLast
    | SheddingBlunder
    | SheddingSkip
    | SheddingMiss
    | SheddingPass
    | SheddingReverse
    | SheddingCancel
    | SheddingSwap
    | SheddingOut
    | SheddingHandEnd
    | SheddingGameEnd
)
