"""The abbott family's declared vocabulary: its view's keys and its event kinds.

Everything in abbott is public, so every seat and every spectator gets the same view,
and no event has a private part. Squares are named like chess from South's side
(`a1`..`f6`, `a1`..`e5` on the 2-player board); cards are two characters (`QH`).

``AbbottView`` and ``AbbottEvent`` are the same declarations as types mypy checks (a
test holds their keys to ``VOCABULARY``'s).
"""

from typing import Any, Literal, NotRequired, TypedDict

from engine.vocabulary import CommonView, EventKind, Field, Vocabulary

_SEAT = Field("seat", "int", "the seat it concerns")
_HAND = Field("hand_number", "int", "the hand, counted from 1")
_SCORES = Field("scores", "list[int]", "each seat's game total after it")

VOCABULARY = Vocabulary(
    "abbott",
    view=(
        Field("size", "int", "squares on a side: 6 (4 players) or 5 (2 players)"),
        Field(
            "grid",
            "list[list[str | null]]",
            "the cards by rank from rank 1 (South's side), each row by file from `a`;"
            " `null` is a blank square (its card taken)",
        ),
        Field("pieces", "list[str]", "each seat's piece, as a square name"),
        Field("collections", "list[list[str]]", "the cards each seat has taken this hand"),
        Field(
            "best",
            "list[map]",
            "each seat's best poker hand this hand: `category` (e.g. `two pair`) and `cards`",
        ),
        Field("dealer", "int", "the seat that dealt this hand"),
        Field("hand_number", "int", "the hand, counted from 1"),
        Field(
            "turn_of",
            "int | null",
            "the seat whose piece moves next (differs from `to_act` when a partner's moves"
            " are made by the power holder); `null` once the game is over",
        ),
        Field("round", "int", "the round of the hand the seat to move is in, from 1"),
        Field(
            "alliance",
            "map | null",
            "the hand's alliance, `chooser` and `partner` seats; `null` before one is formed",
        ),
        Field("power", "int | null", "the seat holding the 16-point power this hand, if any"),
        Field("votes", "list[int]", "the seats that have voted to end the hand"),
        Field("conceded", "list[int]", "the seats that have conceded the hand"),
        Field("stall", "int", "turns in a row with no card taken"),
        Field("stall_limit", "int", "turns in a row with no card taken that end the hand"),
        Field("target", "int", "the game total that wins"),
        Field("hand_scores", "list[list[int]]", "the points each finished hand gave each seat"),
        Field("seat_names", "list[str]", "the seats' compass names (South, West, North, East)"),
        Field("alliance_from_round", "int", "the first round in which a partner may be named"),
        Field("end_when_decided", "bool", "whether a hand ends once its winner is decided"),
        Field("winner", "int | null", "the game's winner, once it is over"),
    ),
    events=(
        EventKind(
            "cut",
            "the cut for the first dealer, before the first deal",
            (
                Field("seat", "int", "the seat that deals"),
                Field("dealer", "int", "the seat that deals (the same)"),
                Field(
                    "draws",
                    "list[list[[int, str]]]",
                    "each round of the cut: every drawing seat with its card (ties draw again)",
                ),
            ),
        ),
        EventKind(
            "deal",
            "a new hand: the grid is laid and the pieces stand on their start squares",
            (
                Field("seat", "int", "the dealer"),
                Field("dealer", "int", "the dealer (the same)"),
                _HAND,
                Field("grid", "list[list[str | null]]", "the new grid, as in the view"),
                Field("pieces", "list[str]", "each seat's start square"),
                Field("first", "int", "the seat that moves first"),
            ),
        ),
        EventKind(
            "move",
            "a piece moved",
            (
                Field("seat", "int", "the seat whose piece moved"),
                Field("from", "str", "the square it left"),
                Field("to", "str", "the square it landed on"),
                Field(
                    "by",
                    "int",
                    "the power holder who made this move for his partner",
                    optional=True,
                ),
            ),
        ),
        EventKind(
            "take",
            "a seat took the card on the square its piece landed on",
            (
                _SEAT,
                Field("card", "str", "the card taken"),
                Field("square", "str", "where it lay"),
                Field(
                    "blocked",
                    "bool",
                    "`true`: the dealer was blocked on his first turn and took the card"
                    " under his own piece",
                    optional=True,
                ),
            ),
        ),
        EventKind(
            "miss",
            "a seat whose piece cannot move missed its turn",
            (_SEAT, Field("square", "str", "where its piece stands")),
        ),
        EventKind(
            "ally",
            "the seat to act named a partner (one alliance a hand)",
            (
                Field("seat", "int", "the chooser"),
                Field("partner", "int", "the partner named"),
                Field("power", "int | null", "the seat that holds the 16-point power, if one"),
            ),
        ),
        EventKind(
            "vote",
            "a seat voted to end the hand (the hand ends when every seat has)",
            (
                _SEAT,
                Field("motion", "str", "what the vote is for: always `end`"),
                Field("votes", "list[int]", "every seat that has voted so far"),
            ),
        ),
        EventKind(
            "concede",
            "a seat conceded the hand",
            (_SEAT, Field("conceded", "list[int]", "every seat that has conceded so far")),
        ),
        EventKind(
            "hand_end",
            "the hand is over and scored",
            (
                Field("seat", "int | null", "the hand's winner (the same as `winner`)"),
                Field("winner", "int | null", "the hand's winner; `null` when tied for best"),
                _HAND,
                Field(
                    "reason",
                    "str",
                    "why it ended: `grid empty`, `decided`, `stall`, `vote`, `concede` or"
                    " `blocked`",
                ),
                Field("points", "list[int]", "what the hand gave each seat"),
                _SCORES,
                Field("best", "list[map]", "each seat's best hand, as in the view"),
                Field("collections", "list[list[str]]", "each seat's cards at the end"),
                Field(
                    "play_on",
                    "bool",
                    "someone reached the target but the lead is tied: another hand is dealt",
                ),
            ),
        ),
        EventKind(
            "game_end",
            "the game is over",
            (
                Field("seat", "int", "the winner"),
                Field("winner", "int", "the winner (the same)"),
                _SCORES,
            ),
        ),
    ),
)


class BestHand(TypedDict):
    """A seat's best poker hand this hand."""

    category: str
    cards: list[str]


class Alliance(TypedDict):
    """The hand's alliance."""

    chooser: int
    partner: int


class AbbottView(CommonView):
    """An abbott view, as ``VOCABULARY`` declares it."""

    family: Literal["abbott"]
    size: int
    grid: list[list[str | None]]
    pieces: list[str]
    collections: list[list[str]]
    best: list[BestHand]
    dealer: int
    hand_number: int
    turn_of: int | None
    round: int
    alliance: Alliance | None
    power: int | None
    votes: list[int]
    conceded: list[int]
    stall: int
    stall_limit: int
    target: int
    hand_scores: list[list[int]]
    seat_names: list[str]
    alliance_from_round: int
    end_when_decided: bool
    winner: int | None


class AbbottCutFields(TypedDict):
    """What every seat is shown of ``AbbottCut`` (the engine builds it so)."""

    seat: int
    dealer: int
    draws: list[list[list[Any]]]


class AbbottCut(AbbottCutFields):
    kind: Literal["cut"]


class AbbottDealFields(TypedDict):
    """What every seat is shown of ``AbbottDeal`` (the engine builds it so)."""

    seat: int
    dealer: int
    hand_number: int
    grid: list[list[str | None]]
    pieces: list[str]
    first: int


class AbbottDeal(AbbottDealFields):
    kind: Literal["deal"]


#: ``from`` is a Python keyword, so this one is written in the call form.
AbbottMoveFields = TypedDict(
    "AbbottMoveFields", {"seat": int, "from": str, "to": str, "by": NotRequired[int]}
)


class AbbottMove(AbbottMoveFields):
    kind: Literal["move"]


class AbbottTakeFields(TypedDict):
    """What every seat is shown of ``AbbottTake`` (the engine builds it so)."""

    seat: int
    card: str
    square: str
    blocked: NotRequired[bool]


class AbbottTake(AbbottTakeFields):
    kind: Literal["take"]


class AbbottMissFields(TypedDict):
    """What every seat is shown of ``AbbottMiss`` (the engine builds it so)."""

    seat: int
    square: str


class AbbottMiss(AbbottMissFields):
    kind: Literal["miss"]


class AbbottAllyFields(TypedDict):
    """What every seat is shown of ``AbbottAlly`` (the engine builds it so)."""

    seat: int
    partner: int
    power: int | None


class AbbottAlly(AbbottAllyFields):
    kind: Literal["ally"]


class AbbottVoteFields(TypedDict):
    """What every seat is shown of ``AbbottVote`` (the engine builds it so)."""

    seat: int
    motion: str
    votes: list[int]


class AbbottVote(AbbottVoteFields):
    kind: Literal["vote"]


class AbbottConcedeFields(TypedDict):
    """What every seat is shown of ``AbbottConcede`` (the engine builds it so)."""

    seat: int
    conceded: list[int]


class AbbottConcede(AbbottConcedeFields):
    kind: Literal["concede"]


class AbbottHandEndFields(TypedDict):
    """What every seat is shown of ``AbbottHandEnd`` (the engine builds it so)."""

    seat: int | None
    winner: int | None
    hand_number: int
    reason: str
    points: list[int]
    scores: list[int]
    best: list[BestHand]
    collections: list[list[str]]
    play_on: bool


class AbbottHandEnd(AbbottHandEndFields):
    kind: Literal["hand_end"]


class AbbottGameEndFields(TypedDict):
    """What every seat is shown of ``AbbottGameEnd`` (the engine builds it so)."""

    seat: int
    winner: int
    scores: list[int]


class AbbottGameEnd(AbbottGameEndFields):
    kind: Literal["game_end"]


#: An abbott event as a seat is shown it (``Event.present``): mypy narrows it by ``kind``.
AbbottEvent = (
    AbbottCut
    | AbbottDeal
    | AbbottMove
    | AbbottTake
    | AbbottMiss
    | AbbottAlly
    | AbbottVote
    | AbbottConcede
    | AbbottHandEnd
    | AbbottGameEnd
)
