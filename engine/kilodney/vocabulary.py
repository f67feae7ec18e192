"""The kilodney family's declared vocabulary: its view's keys and its event kinds.

Each seat sees its own hand; a spectator's `hand` is `null`, and a knocked-out
seat's own hand is empty (its cards are face down for good).

``KilodneyView`` and ``KilodneyEvent`` are the same declarations as types mypy checks (a
test holds their keys to ``VOCABULARY``'s).
"""

from typing import Literal, NotRequired, TypedDict

from engine.vocabulary import CommonView, EventKind, Field, Vocabulary

_HAND = Field("hand_number", "int", "the hand, counted from 1")
_HAND_POINTS = Field("hand_points", "list[int]", "what this hand has given each seat so far")
_SCORES = Field("scores", "list[int]", "each seat's game total after it")

VOCABULARY = Vocabulary(
    "kilodney",
    view=(
        Field(
            "hand",
            "list[str] | null",
            "the viewer's cards (suit, then rank, jokers `JK` last); empty once knocked out;"
            " `null` for a spectator",
        ),
        Field("hand_sizes", "list[int]", "how many cards each seat holds"),
        Field("top", "str | null", "the card on top of the pile; `null` before the first play"),
        Field("running", "bool", "whether a sequence is running: the next card must follow `top`"),
        Field("in_hand", "list[bool]", "whether each seat is still in the hand"),
        Field("knocked_out", "list[int]", "the seats knocked out this hand, in order"),
        Field("stranded", "list[int]", "the seats left holding cards when the hand ended"),
        Field("dealer", "int", "the seat that dealt this hand"),
        Field("hand_number", "int", "the hand, counted from 1"),
        _HAND_POINTS,
        Field("target", "int", "the game total that wins (at once, even mid-hand)"),
        Field("jokers", "int", "how many jokers the deck holds (public: players count them)"),
        Field("leader", "int | null", "the seat that played the card on top of the pile"),
        Field("winner", "int | null", "the game's winner, once it is over"),
    ),
    events=(
        EventKind(
            "deal",
            "a new hand is dealt",
            (
                Field("dealer", "int", "the dealer"),
                _HAND,
                Field("hand_sizes", "list[int]", "how many cards each seat was dealt"),
                Field("first", "int", "the seat that leads"),
            ),
            (Field("cards", "list[str]", "the cards this seat was dealt"),),
        ),
        EventKind(
            "play",
            "a seat played a card",
            (
                Field("seat", "int", "who played"),
                Field("card", "str", "the card"),
                Field(
                    "how",
                    "str",
                    "`lead` (a new sequence), `suit` (in suit), `switch` (the same face) or"
                    " `joker`",
                ),
                Field("stop", "bool", "whether it stopped the sequence (a joker)"),
                Field("points", "int", "what the card scored"),
                Field(
                    "reasons",
                    "list[str]",
                    "why it scored: `one-over`, `one-under`, `ace in suit`, `deuce in suit`,"
                    " `ace lead`, `deuce lead`",
                ),
                Field("score", "int", "the player's game total after it"),
                Field("cards_left", "int", "cards the player still holds"),
                Field("left", "bool", "whether that was his last card (he leaves the hand)"),
            ),
        ),
        EventKind(
            "knockout",
            "the seat to act could neither follow nor play a joker and is knocked out",
            (
                Field("seat", "int", "the seat knocked out"),
                Field("by", "int", "the seat whose card he could not follow (it scores)"),
                Field("card", "str", "that card"),
                Field("count", "int", "cards the knocked-out seat still held"),
                Field("points", "int", "what `by` scores: the count"),
                Field("score", "int", "`by`'s game total after it"),
            ),
        ),
        EventKind(
            "hand_end",
            "the hand is over (one player or none is left in it)",
            (
                _HAND,
                _HAND_POINTS,
                _SCORES,
                Field("knocked_out", "list[int]", "the seats knocked out, in order"),
                Field(
                    "stranded",
                    "list[map]",
                    "the seats left holding cards, each `seat` and `count` (never the cards)",
                ),
            ),
        ),
        EventKind(
            "game_end",
            "a seat reached the target: the game is over, even mid-hand",
            (
                Field("seat", "int", "the winner"),
                Field("winner", "int", "the winner (the same)"),
                _SCORES,
                _HAND,
                _HAND_POINTS,
            ),
        ),
    ),
)


class KilodneyView(CommonView):
    """A kilodney view, as ``VOCABULARY`` declares it."""

    family: Literal["kilodney"]
    hand: list[str] | None
    hand_sizes: list[int]
    top: str | None
    running: bool
    in_hand: list[bool]
    knocked_out: list[int]
    stranded: list[int]
    dealer: int
    hand_number: int
    hand_points: list[int]
    target: int
    jokers: int
    leader: int | None
    winner: int | None


class KilodneyDealFields(TypedDict):
    """What every seat is shown of ``KilodneyDeal`` (the engine builds it so)."""

    dealer: int
    hand_number: int
    hand_sizes: list[int]
    first: int


class KilodneyDealPrivate(TypedDict):
    """What only some seats are shown of ``KilodneyDeal``."""

    cards: list[str]


class KilodneyDeal(KilodneyDealFields):
    kind: Literal["deal"]
    cards: NotRequired[list[str]]


class KilodneyPlayFields(TypedDict):
    """What every seat is shown of ``KilodneyPlay`` (the engine builds it so)."""

    seat: int
    card: str
    how: str
    stop: bool
    points: int
    reasons: list[str]
    score: int
    cards_left: int
    left: bool


class KilodneyPlay(KilodneyPlayFields):
    kind: Literal["play"]


class KilodneyKnockoutFields(TypedDict):
    """What every seat is shown of ``KilodneyKnockout`` (the engine builds it so)."""

    seat: int
    by: int
    card: str
    count: int
    points: int
    score: int


class KilodneyKnockout(KilodneyKnockoutFields):
    kind: Literal["knockout"]


class Stranded(TypedDict):
    """A seat left holding cards when the hand ended, and how many."""

    seat: int
    count: int


class KilodneyHandEndFields(TypedDict):
    """What every seat is shown of ``KilodneyHandEnd`` (the engine builds it so)."""

    hand_number: int
    hand_points: list[int]
    scores: list[int]
    knocked_out: list[int]
    stranded: list[Stranded]


class KilodneyHandEnd(KilodneyHandEndFields):
    kind: Literal["hand_end"]


class KilodneyGameEndFields(TypedDict):
    """What every seat is shown of ``KilodneyGameEnd`` (the engine builds it so)."""

    seat: int
    winner: int
    scores: list[int]
    hand_number: int
    hand_points: list[int]


class KilodneyGameEnd(KilodneyGameEndFields):
    kind: Literal["game_end"]


#: A kilodney event as a seat is shown it (``Event.present``): mypy narrows it by ``kind``.
KilodneyEvent = KilodneyDeal | KilodneyPlay | KilodneyKnockout | KilodneyHandEnd | KilodneyGameEnd
