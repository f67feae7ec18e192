"""The shedding family's options and presets: house rules as data.

Players who grew up with Switch each know a different house version, so the
engine is one rules machine and a preset is only a name for a set of option
values. Power cards are bound to cards by *selectors*, written so that a table
can override them as plain strings:

- ``2`` every two; ``KH`` the king of hearts; ``JB`` / ``JR`` the black / red
  jacks; ``JK`` a joker; ``power`` (only in ``no_end``) every power card.
- ``pickup``: ``SEL:N`` pairs, e.g. ``"2:2 JB:5"``.
- ``stack``: ``SEL>SEL...`` rules, e.g. ``"2>2 JB, JB>JB"``: on a pending
  pick-up whose top card is a two, a two or a black jack may be stacked.
- ``go_on``: nominating cards after which their player goes on laying the
  suit he named in the same go (j28's jack).
- ``red_jacks_add``, ``pickup_together``, ``cards_call`` and ``combos: chain``:
  Black Jack's house variants, off in every preset.
- ``cancel``: ``SEL>SEL`` rules, e.g. ``"JR>JB"``: a red jack cancels one black
  jack's pick-up; ``"JR>2*"``: it cancels every two in the pick-up; ``"A>*"``
  cancels the whole pending pick-up.

>>> cards_of("JB")
[Card.parse('JC'), Card.parse('JS')]
>>> SCHEMA.resolve({"pickup": "2:2 kh:7"})["pickup"]
'2:2 KH:7'
>>> SCHEMA.resolve({"skip": "8 Z"})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
engine.errors.OptionError: option 'skip': 'Z' is not a card selector (...)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.cards import FULL_PACK, JOKER, RANKS, SUITS, Card
from engine.errors import OptionError
from engine.options import Option, OptionSchema
from engine.shedding.powers import NAMES, POWERS

_SELECTOR_HELP = "a rank such as 8, a card such as KH, JB/JR for black/red, JK"


def cards_of(selector: str) -> list[Card]:
    """Every face a selector names; ``ValueError`` if it names none."""
    s = selector.strip().upper()
    if s == "JK":
        return [JOKER]
    if s == "10":
        s = "T"
    if len(s) == 1 and s in RANKS:
        return [Card(s, suit) for suit in SUITS]
    if len(s) == 2 and s[0] in RANKS:
        if s[1] in SUITS:
            return [Card(s[0], s[1])]
        if s[1] == "B":
            return [Card(s[0], "C"), Card(s[0], "S")]
        if s[1] == "R":
            return [Card(s[0], "D"), Card(s[0], "H")]
    raise ValueError(f"{selector!r} is not a card selector ({_SELECTOR_HELP})")


def _canon(selector: str) -> str:
    cards_of(selector)
    s = selector.strip().upper()
    return "T" if s == "10" else s


def _words(value: Any) -> list[str]:
    if not isinstance(value, str):
        raise ValueError(f"{value!r} is not a string of card selectors")
    return value.replace(",", " ").split()


def _check_selectors(value: Any, allow_power: bool = False) -> str:
    out = []
    for w in _words(value):
        if allow_power and w.lower() == "power":
            out.append("power")
        else:
            out.append(_canon(w))
    return " ".join(out)


def _check_pickup(value: Any) -> str:
    out = []
    for w in _words(value):
        sel, sep, num = w.partition(":")
        if not sep or not num.isdigit() or not 1 <= int(num) <= 20:
            raise ValueError(f"{w!r} is not SELECTOR:N with N 1..20 (e.g. 2:2 JB:5)")
        out.append(f"{_canon(sel)}:{int(num)}")
    return " ".join(out)


def _check_rules(value: Any, allow_all: bool = False) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{value!r} is not a string of rules such as '2>2 JB, JB>JB'")
    out = []
    for part in value.split(","):
        if not part.strip():
            continue
        left, sep, right = part.partition(">")
        if not sep or not left.strip() or not right.split():
            raise ValueError(f"{part.strip()!r} is not SELECTOR>SELECTOR... (e.g. 2>2 JB)")
        rhs = []
        for w in right.split():
            if allow_all and w == "*":
                rhs.append("*")
            elif allow_all and w.endswith("*"):
                rhs.append(_canon(w[:-1]) + "*")
            else:
                rhs.append(_canon(w))
        out.append(f"{_canon(left)}>{' '.join(rhs)}")
    return ", ".join(out)


def _check_draw(value: Any) -> Any:
    if value in (1, 2, "1", "2"):
        return int(value)
    if value == "until":
        return "until"
    raise ValueError(f"{value!r} is not one of 1, 2, until")


def _sel_option(name: str, default: str, doc: str, allow_power: bool = False) -> Option:
    check: Callable[[Any], Any] = lambda v: _check_selectors(v, allow_power)  # noqa: E731
    return Option(name, default, doc, check=check)


#: Each declared power's option (``engine.shedding.powers``): the cards that carry it.
POWER_OPTIONS: list[Option] = [
    Option(p.name, "", p.doc, check=_check_selectors, power=p.title, rule=p.rule) for p in POWERS
]


OPTIONS: list[Option] = [
    Option("hand_size", 7, "cards dealt to each player", minimum=1, maximum=10),
    Option(
        "big_table_hand_size",
        0,
        "cards dealt when there are more than 4 players (0: same as hand_size)",
        minimum=0,
        maximum=10,
    ),
    Option("decks", 0, "packs shuffled together (0: one, two above 5 players)", 0, 2),
    Option("jokers", 0, "jokers added (a joker is wild and nominates a suit)", 0, 4),
    Option(
        "draw",
        1,
        "what a player who does not play draws: 1, 2, or until (until a playable card)",
        check=_check_draw,
    ),
    Option("play_drawn", False, "whether a player may play a card he has just drawn"),
    Option("draw_when_able", False, "whether a player may draw instead of playing"),
    Option("start_power", False, "whether the start card may be a power card"),
    Option(
        "combos",
        "single",
        "multi-card plays: single, sets (one rank), runs (in suit, up or down), mixed,"
        " chain (each card matches the one before by suit or rank)",
        choices=("single", "sets", "runs", "mixed", "chain"),
    ),
    _sel_option("together", "", "power cards that may be laid several at once (JB: both)"),
    Option(
        "pickup_together",
        False,
        "whether pick-up cards may be laid together in one play, in any mix (J 2 2 2 2)",
    ),
    Option("last_card", True, "whether a player left with one card must announce it"),
    Option("last_penalty", 2, "cards drawn for a missed last-card announcement", 0, 10),
    Option(
        "cards_call",
        False,
        "whether a player who will go out with several cards must call it first"
        " (last, cards or knock); going out without a call draws the last-card penalty",
    ),
    _sel_option("no_end", "", "cards a hand may not end on (power: every power card)", True),
    Option("end_penalty", 0, "cards drawn for trying to end on such a card (0: refused)", 0, 10),
    Option("illegal_penalty", 0, "cards drawn for an illegal play (0: refused)", 0, 10),
    Option(
        "finish",
        "first",
        "first: the hand ends when one player is out; last_one: play on until one is left",
        choices=("first", "last_one"),
    ),
    Option("target", 0, "points that end the match (0: one hand)", minimum=0, maximum=10000),
    Option("pickup", "", "pick-up cards: SELECTOR:N (e.g. 2:2 JB:5)", check=_check_pickup),
    Option("stack", "", "what stacks on a pending pick-up (e.g. 2>2 JB)", check=_check_rules),
    Option(
        "cancel",
        "",
        "what cancels a pick-up, one card each (JR>JB; A>* cancels it all)",
        check=lambda v: _check_rules(v, allow_all=True),
    ),
    *POWER_OPTIONS,
    Option("skip_chain", False, "whether a skipped player may pass the skip on (same rank)"),
    Option(
        "red_jacks_add",
        0,
        "0: off; N: red jacks cancel nothing, and laid on a waiting black (or red) jack add N",
        minimum=0,
        maximum=10,
    ),
]


def _pickup_faces(options: Mapping[str, Any]) -> set[Card]:
    """The faces that start a pick-up at a table with these options."""
    out: set[Card] = set()
    for w in options["pickup"].split():
        sel, _, num = w.partition(":")
        if int(num):
            out.update(cards_of(sel))
    return out


def _refuse_options_that_do_nothing(options: Mapping[str, Any]) -> None:
    """A house variant that has nothing to act on is refused by name rather than
    accepted and ignored: a table that asked for it would otherwise play a game other
    than the one its creator chose, and nobody would be told.

    >>> SCHEMA.resolve({"red_jacks_add": 3})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    engine.errors.OptionError: option 'red_jacks_add': red jacks add to a black jack's ...
    """
    faces = _pickup_faces(options)
    if options["red_jacks_add"] and not faces & set(cards_of("JB")):
        raise OptionError(
            "red_jacks_add",
            "red jacks add to a black jack's pick-up, and no black jack picks up at this"
            " table (give pickup a JB:N, as blackjack and gamebot do)",
        )
    if options["pickup_together"] and len(faces) < 2:
        raise OptionError(
            "pickup_together",
            "it lays several pick-up cards in one play, and fewer than two cards pick up"
            " at this table (see pickup)",
        )
    if options["cards_call"] and not options["last_card"]:
        raise OptionError(
            "cards_call",
            "the cards call is the last-card announcement made early, and this table"
            " has none (last_card is off)",
        )


SCHEMA = OptionSchema(OPTIONS, relations=[_refuse_options_that_do_nothing])

# The presets of docs/rules.md. Anything a preset does not name keeps the default above.
PRESETS: dict[str, tuple[str, int, dict[str, Any]]] = {
    "switch": (
        "Switch: 2 pick up 2, 8 skip, A pick up 4 anytime, J nominates anytime",
        8,
        {
            "pickup": "2:2 A:4",
            "stack": "2>2, A>A",
            "skip": "8",
            "wild": "A J",
            "nominate": "J",
            "draw_when_able": True,
            "last_penalty": 2,
            "illegal_penalty": 2,
        },
    ),
    "blackjack": (
        "Black Jack: runs in suit, black jacks pick up 5, red jacks cancel, 7s shed a suit,"
        " Q covered, K reverse",
        8,
        {
            "big_table_hand_size": 5,
            "combos": "runs",
            "pickup": "2:2 JB:5",
            "stack": "2>2 JB, JB>JB",
            "cancel": "JR>JB 2*, A>*",
            "skip": "8",
            "skip_chain": True,
            "wild": "A",
            "nominate": "A",
            "suit_run": "7",
            "cover": "Q",
            "reverse": "K",
            "illegal_penalty": 2,
            "last_penalty": 2,
        },
    ),
    "irish": (
        "Irish Switch: 2 pick up 2, 7 skip, J reverse, K♥ pick up 7, A on its suit nominates",
        8,
        {
            "pickup": "2:2 KH:7",
            "stack": "2>2, KH>2H KH",
            "skip": "7",
            "skip_chain": True,
            "reverse": "J",
            "together": "J",
            "nominate": "A",
            "last_penalty": 1,
        },
    ),
    "j28": (
        "Jacks, Twos and Eights: sets and runs, J wild, 2 pick up 2, 8 miss a turn, A♥ pick up 5",
        8,
        {
            "combos": "mixed",
            "wild": "J",
            "nominate": "J",
            "go_on": "J",
            "pickup": "2:2 AH:5",
            "stack": "2>2",
            "cancel": "AS>AH",
            "miss": "8",
            "no_end": "J 2 8",
            "play_drawn": True,
            "last_penalty": 1,
        },
    ),
    "taketwo": (
        "Take Two: 5 cards, take 2 when stuck, 2 pick up 2, 8 skip, J reverse, play to the last",
        8,
        {
            "hand_size": 5,
            "draw": 2,
            "pickup": "2:2",
            "stack": "2>2",
            "skip": "8",
            "reverse": "J",
            "wild": "A",
            "nominate": "A",
            "no_end": "power",
            "end_penalty": 2,
            "finish": "last_one",
            "last_penalty": 2,
            "illegal_penalty": 2,
        },
    ),
    "gamebot": (
        "GameBot Switch: black jacks pick up 5, red jacks cancel, black Q swaps hands, 2-4 players",
        4,
        {
            "pickup": "2:2 JB:5",
            "stack": "2>2, JB>JB",
            "cancel": "JR>JB",
            "together": "JB JR",
            "skip": "8",
            "skip_chain": True,
            "reverse": "K",
            "wild": "A",
            "nominate": "A",
            "swap": "QB",
            "last_card": False,
        },
    ),
}

#: The declared powers' names (``engine.shedding.powers``): each face's ``effects``.
EFFECTS = NAMES


@dataclass(frozen=True, slots=True)
class Powers:
    """What one face does under a table's options (compiled once per game)."""

    pickup: int = 0
    #: the declared powers it carries (``engine.shedding.powers``: ``skip``, ``wild`` ...)
    effects: frozenset[str] = frozenset()
    cancels: frozenset[Card] | None = None  # faces it cancels, one card each
    cancels_every: frozenset[Card] | None = None  # faces it cancels all of at once
    cancels_all: bool = False
    adds: int = 0  # what it adds to a waiting pick-up it is laid on (it starts none)
    together: bool = False
    no_end: bool = False
    points: int = 0

    @property
    def power(self) -> bool:
        return bool(
            self.pickup
            or self.effects  # going on is only ever a nominating card's
            or self.cancels
            or self.cancels_every
            or self.cancels_all
            or self.adds
        )

    def signature(self) -> tuple[Any, ...]:
        """Cards with equal signatures do the same thing (they may be laid together)."""
        return (
            self.pickup,
            self.effects,
            self.cancels,
            self.cancels_every,
            self.cancels_all,
            self.adds,
        )


ALL_FACES: tuple[Card, ...] = (*FULL_PACK, JOKER)


def _faces(text: str) -> set[Card]:
    out: set[Card] = set()
    for w in text.split():
        out.update(cards_of(w))
    return out


def _rules(text: str) -> list[tuple[set[Card], list[str]]]:
    out = []
    for part in text.split(","):
        if part.strip():
            left, _, right = part.partition(">")
            out.append((_faces(left), right.split()))
    return out


def compile_powers(options: dict[str, Any]) -> tuple[dict[Card, Powers], dict[Card, set[Card]]]:
    """Each face's ``Powers`` and, per face, the faces that may stack on it."""
    pickup: dict[Card, int] = {}
    for w in options["pickup"].split():
        sel, _, num = w.partition(":")
        for c in cards_of(sel):
            pickup[c] = int(num)
    flags = {name: _faces(options[name]) for name in EFFECTS}
    flags["wild"].add(JOKER)
    flags["nominate"].add(JOKER)
    flags["go_on"] &= flags["nominate"]  # going on is in the suit the card names
    cancels: dict[Card, set[Card]] = {}
    cancels_every: dict[Card, set[Card]] = {}
    cancel_all: set[Card] = set()
    for left, right in _rules(options["cancel"]):
        for c in left:
            if "*" in right:
                cancel_all.add(c)
            one = " ".join(w for w in right if not w.endswith("*"))
            every = " ".join(w[:-1] for w in right if w.endswith("*") and w != "*")
            if one:
                cancels.setdefault(c, set()).update(_faces(one))
            if every:
                cancels_every.setdefault(c, set()).update(_faces(every))
    stack: dict[Card, set[Card]] = {}
    for left, right in _rules(options["stack"]):
        for c in left:
            stack.setdefault(c, set()).update(_faces(" ".join(right)))
    adds: dict[Card, int] = {}
    if options["red_jacks_add"]:
        _red_jacks_add(options["red_jacks_add"], pickup, stack, cancels, cancels_every, adds)
    together = _faces(options["together"])
    no_end_words = options["no_end"].split()
    no_end = _faces(" ".join(w for w in no_end_words if w != "power"))
    powers: dict[Card, Powers] = {}
    for face in ALL_FACES:
        base = Powers(
            pickup=pickup.get(face, 0),
            cancels=frozenset(cancels[face]) if cancels.get(face) else None,
            cancels_every=frozenset(cancels_every[face]) if cancels_every.get(face) else None,
            cancels_all=face in cancel_all,
            adds=adds.get(face, 0),
            together=face in together,
            effects=frozenset(name for name in EFFECTS if face in flags[name]),
        )
        is_power = base.power
        ends = face in no_end or ("power" in no_end_words and is_power)
        powers[face] = Powers(
            **{
                **{f: getattr(base, f) for f in base.__slots__},
                "no_end": ends,
                "points": _points(face, base),
            }
        )
    return powers, stack


def _red_jacks_add(
    n: int,
    pickup: dict[Card, int],
    stack: dict[Card, set[Card]],
    cancels: dict[Card, set[Card]],
    cancels_every: dict[Card, set[Card]],
    adds: dict[Card, int],
) -> None:
    """Black Jack's house variant: "Red Jacks do not cancel black Jacks, instead they
    can be combined with black Jacks. One must pick up three additional cards per red
    Jack." A red jack then cancels nothing and may be laid on a waiting pick-up whose
    top is a black jack (or a red jack laid so), adding ``n``; on a red jack stacks
    what stacks on a black jack. Without black jacks that pick up it does nothing."""
    black = [c for c in cards_of("JB") if pickup.get(c)]
    if not black:
        return
    red = cards_of("JR")
    for c in red:
        cancels.pop(c, None)
        cancels_every.pop(c, None)
        adds[c] = n
    on_black: set[Card] = set(red)
    for b in black:
        stack.setdefault(b, set()).update(red)
        on_black |= stack[b]
    for c in red:
        stack[c] = set(on_black)


def _points(face: Card, p: Powers) -> int:
    """docs/rules.md: nominating cards and jokers 50; K Q J and other power cards 10;
    aces 1; the rest face value."""
    if face.is_joker or "nominate" in p.effects:
        return 50
    if face.rank in "KQJ" or p.power:
        return 10
    if face.rank == "A":
        return 1
    return 10 if face.rank == "T" else int(face.rank)
