"""Events in words: one line of the table's log for each thing that happened.

The server sends each event as the engine presented it to this seat (a dict
with ``kind`` and fields; see ``engine.events`` and the families' vocabularies).
Every kind the three families make has a sentence here (the tests play every
ruleset and check that none falls through); a kind the client does not know
yet (a new family, a new table event) still gets a readable line of its
fields, so nothing is silently dropped. The terminal client draws the
sentences in colour; the server's text mode writes them plain
(``describe_text``), so a person at ``nc`` reads the same words.

>>> names = ["ann", "bob"]
>>> describe_text({"kind": "play", "seat": 1, "cards": ["QH", "QS"]}, names, True)
'bob plays QH QS'
>>> describe_text({"kind": "draw", "seat": 0, "count": 2, "cards": ["2C", "3C"]}, names)
'ann draws 2 cards: 2♣ 3♣'
>>> describe_text({"kind": "draw", "seat": 1, "count": 1}, names)
'bob draws 1 card'
>>> describe_text({"kind": "cut", "seat": 1, "dealer": 1, "draws": []}, names)
'The cut: bob deals first'
>>> describe_text({"kind": "wobble", "seat": 0, "size": 3}, names)
'ann: wobble size=3'
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from operator import itemgetter
from typing import Any, cast

from engine.shedding.state import PendingKind
from engine.shedding.vocabulary import PendingView
from protocol.cards import (
    SUIT_NAMES,
    StyleAndTextTuples,
    cached_fragment,
    card_reading,
    cards_fragments,
)
from protocol.words import plural

Names = Sequence[str | None]
Line = StyleAndTextTuples
_text_of = itemgetter(1)  #: a fragment's text, without its style


#: The prefix of a server bot's entry in a table's ``players``: ``bot:STRATEGY``.
BOT = "bot:"
#: When a game changes ratings, as the server rules it (``server.players.profiles``): said
#: where a leaderboard is empty, in the terminal client and in text mode alike.
RATED_WHEN = (
    "a game is rated when two or more people play it (its bots are rated too, by strategy:"
    " finger bot:search); create ... rated=true rates games against bots alone"
)


#: First strong isolate and pop directional isolate (Unicode's bidi algorithm, UAX #9).
FSI, PDI = "\u2068", "\u2069"
#: The bidi classes that can reorder the words beside them: right-to-left letters, and
#: Arabic digits.
_RIGHT_TO_LEFT = frozenset(("R", "AL", "AN"))


@functools.lru_cache(maxsize=4096)
def isolated(name: str) -> str:
    """``name`` as a sentence holds it: a name with right-to-left letters (Hebrew,
    Arabic) or Arabic digits between FSI and PDI, so it keeps its own direction without
    reordering the words around it ("ann passes" stays in its order whatever name is
    beside it); any other name as it is (it cannot reorder anything, and stays the same
    characters for a reader, a test or a search).

    >>> isolated("ann"), isolated("\u05d3\u05e0\u05d4") == FSI + "\u05d3\u05e0\u05d4" + PDI
    ('ann', True)
    """
    if name.isascii() or not any(unicodedata.bidirectional(c) in _RIGHT_TO_LEFT for c in name):
        return name
    return f"{FSI}{name}{PDI}"


def seat_number(seat: int) -> int:
    """The number a person reads and types for a seat: seats count from 1 wherever a
    person meets them (sentences, text mode's and the terminal's commands, the browser's
    labels), while the wire's ``seat`` fields count from 0 as machines do.

    >>> seat_number(0), seat_number(5)
    (1, 6)
    """
    return seat + 1


def seat_words(seat: object) -> str:
    """A seat named in a sentence: ``seat 1`` for the wire's seat 0 (``seat_number``);
    a value that is no seat's index is shown as it came.

    >>> seat_words(0), seat_words(3), seat_words(None)
    ('seat 1', 'seat 4', 'seat None')
    """
    if isinstance(seat, int) and not isinstance(seat, bool):
        return f"seat {seat_number(seat)}"
    return f"seat {seat}"


#: The prefix of the game master's name at a tournament's table: ``tournament:N``.
TOURNAMENT_MASTER = "tournament:"


def master_words(master: str) -> str:
    """A table's game master as a sentence names him: a tournament's table is run by
    ``tournament 3`` (its master's name on the wire is ``tournament:3``, a name nobody
    can claim), a person by his name.

    >>> master_words("tournament:3"), master_words("ann")
    ('tournament 3', 'ann')
    """
    if master.startswith(TOURNAMENT_MASTER):
        return f"tournament {master[len(TOURNAMENT_MASTER) :]}"
    return isolated(master)


def seat_name(player: str | None, seat: int) -> str | None:
    """How a seat's player is named to a person, the one name used everywhere (the
    lobby's list, the table's seats, the log): a person by his name; a server bot
    (``bot:STRATEGY``) by its seat as a person counts it (``seat_number``: the wire's
    seat 3 is ``bot 4``), so two bots of one strategy never look alike and a bot's name
    never changes while it sits; ``None`` for an empty seat.

    A right-to-left name comes isolated (``isolated``), since it goes into sentences.

    >>> seat_name("ann", 0), seat_name("bot:search", 3), seat_name(None, 1)
    ('ann', 'bot 4', None)
    """
    if player is None:
        return None
    return f"bot {seat_number(seat)}" if player.startswith(BOT) else isolated(player)


def seat_listing(player: str | None, seat: int) -> str | None:
    """``seat_name`` where the seats are listed (the lobby, a table's seats), with a
    bot's strategy beside the name it goes by: ``bot 4 (search)``.

    >>> seat_listing("bot:search", 3), seat_listing("ann", 0)
    ('bot 4 (search)', 'ann')
    """
    name = seat_name(player, seat)
    if name is None or player is None or not player.startswith(BOT):
        return name
    strategy = player[len(BOT) :]
    return f"{name} ({strategy})" if strategy else name


def _name(names: Names, seat: Any) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        name = names[seat]
        if name:
            return str(name)
    return seat_words(seat)


def _cards(ev: Mapping[str, Any], ascii_only: bool) -> Line:
    cards = ev.get("cards")
    if cards is None and ev.get("card"):
        cards = [ev["card"]]
    return cards_fragments(list(cards or []), ascii_only, reading=True)  # a sentence: 10♥


def _ordinal(n: Any) -> str:
    if not isinstance(n, int):
        return str(n)
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


class _Say:
    """What one event's sentence is built from: the names, the ASCII switch, the event."""

    __slots__ = ("ascii_only", "ev", "names", "who")

    def __init__(self, ev: Mapping[str, Any], names: Names, ascii_only: bool) -> None:
        self.ev, self.names, self.ascii_only = ev, names, ascii_only
        self.who = _name(names, ev.get("seat"))

    def seat(self, seat: Any = None) -> tuple[str, str]:
        return ("class:log.seat", self.who if seat is None else _name(self.names, seat))

    def cards(self, ev: Mapping[str, Any] | None = None) -> Line:
        return _cards(self.ev if ev is None else ev, self.ascii_only)

    def scores(self, key: str = "scores") -> Line:
        values = self.ev.get(key)
        if not isinstance(values, list):
            return []
        dot = " -" if self.ascii_only else " ·"
        text = ", ".join(f"{_name(self.names, s)} {v}" for s, v in enumerate(values))
        return [("class:score", f"{dot} scores {text}")]


def _play(s: _Say) -> Line:
    ev = s.ev
    out: Line = [s.seat(), ("", " plays "), *s.cards()]
    if ev.get("how") == "joker" or ev.get("stop"):
        out.append(("", " (a joker stops the run)"))
    points = ev.get("points")
    if isinstance(points, int) and points:
        out.append(("class:score", f" ({points:+d})"))
    if ev.get("left"):
        out.append(("", " and is out"))
    return out


def _draw(s: _Say) -> Line:
    ev = s.ev
    count = ev.get("count")
    out: Line = [s.seat(), ("", " draws " + (plural(count, "card") if count is not None else ""))]
    out[-1] = ("", out[-1][1].rstrip())
    if ev.get("cards"):
        out += [("", ": "), *s.cards()]
    reason = ev.get("reason")
    if reason and reason != "draw":
        out.append(("class:dim", f" ({'the pick-up' if reason == 'pick-up' else reason})"))
    return out


def _move(s: _Say) -> Line:
    ev = s.ev
    out: Line = [s.seat(), ("", f" moves to {ev.get('to', '')}")]
    if ev.get("by") is not None:
        out += [("", " (moved by "), s.seat(ev["by"]), ("", ")")]
    if ev.get("card"):
        out += [("", ", takes "), *s.cards({"card": ev["card"]})]
    return out


def _take(s: _Say) -> Line:
    ev = s.ev
    out: Line = [s.seat(), ("", " takes "), *s.cards()]
    if ev.get("square"):
        out.append(("", f" at {ev['square']}"))
    if ev.get("blocked"):
        out.append(("class:dim", " (blocked: the card under his piece)"))
    return out


def _miss(s: _Say) -> Line:
    ev = s.ev
    if ev.get("square"):  # abbott: a piece with nowhere to go
        return [s.seat(), ("", f" cannot move from {ev['square']} and misses the turn")]
    return [s.seat(), ("", f" misses {plural(ev.get('turns', 1), 'turn')}")]


def _deal(s: _Say) -> Line:
    ev = s.ev
    hand = ev.get("hand_number")
    out: Line = [("class:log.event", f"Hand {hand}: " if hand else "New hand: ")]
    if ev.get("dealer") is not None:
        out.append(("", f"{_name(s.names, ev['dealer'])} deals"))
    if ev.get("first") is not None:
        out.append(("", f"; {_name(s.names, ev['first'])} goes first"))
    if ev.get("top"):
        out += [("", "; the pile starts with "), *s.cards({"card": ev["top"]})]
    return out


def _hand_end(s: _Say) -> Line:
    ev = s.ev
    out: Line = [("class:log.event", "Hand over")]
    winner = ev.get("winner")
    finished = ev.get("finished")
    if winner is not None:
        out.append(("", f": {_name(s.names, winner)} wins"))
    elif isinstance(finished, list) and finished and not ev.get("blocked"):
        out.append(("", f": {_name(s.names, finished[0])} went out first"))
    elif ev.get("blocked"):
        out.append(("", ": blocked, the fewest cards win"))
    reason = ev.get("reason")
    if reason and reason not in ("grid empty",):
        out.append(("class:dim", f" ({reason})"))
    points = ev.get("points") if isinstance(ev.get("points"), list) else ev.get("hand_points")
    if isinstance(points, list) and any(points):
        text = ", ".join(f"{_name(s.names, i)} {p:+d}" for i, p in enumerate(points) if p)
        out.append(("class:score", f"; this hand {text}"))
    return out + s.scores()


def _game_end(s: _Say) -> Line:
    ev = s.ev
    out: Line = [("class:log.event", "Game over")]
    winner = ev.get("winner", ev.get("seat"))
    if winner is not None:
        out.append(("", f": {_name(s.names, winner)} wins"))
    return out + s.scores()


def _knockout(s: _Say) -> Line:
    ev = s.ev
    return [
        s.seat(),
        ("", f" is knocked out ({plural(ev.get('count', '?'), 'card')} to "),
        s.seat(ev.get("by")),
        ("", ")"),
    ]


def _cut(s: _Say) -> Line:
    return [("class:log.event", "The cut: "), s.seat(s.ev.get("dealer")), ("", " deals first")]


#: a card's code standing as a word of its own in the engine's words: ``9D``, ``AH``
_CARD_CODE = re.compile(r"(?<![\w])(?:[2-9TJQKA][CDHS])(?![\w])")


def _blunder(s: _Say) -> Line:
    ev = s.ev
    out: Line = [s.seat(), ("class:warn", " blunders"), ("", " with "), *s.cards()]
    if ev.get("why"):
        why = str(ev["why"])
        if not s.ascii_only:  # the engine's reason names cards as they are typed (9D)
            why = _CARD_CODE.sub(lambda c: card_reading(c.group(0)), why)
        out.append(("class:dim", f" ({why})"))
    return out


def _simple(words: Callable[[Mapping[str, Any], Names], str]) -> Callable[[_Say], Line]:
    def say(s: _Say) -> Line:
        return [s.seat(), ("", words(s.ev, s.names))]

    return say


def _cancel_words(ev: Mapping[str, Any], names: Names) -> str:
    left = ev.get("left")
    if isinstance(left, int) and left > 0:
        return f" cancels part of the pick-up ({left} still to pick up)"
    return " cancels the pick-up"


def _ally_words(ev: Mapping[str, Any], names: Names) -> str:
    text = f" allies with {_name(names, ev.get('partner'))}"
    if ev.get("power") is not None:
        text += f"; {_name(names, ev['power'])} holds the power"
    return text


SENTENCES: dict[str, Callable[[_Say], Line]] = {
    "play": _play,
    "draw": _draw,
    "move": _move,
    "take": _take,
    "miss": _miss,
    "deal": _deal,
    "hand_end": _hand_end,
    "game_end": _game_end,
    "knockout": _knockout,
    "cut": _cut,
    "blunder": _blunder,
    "ally": _simple(_ally_words),
    "nominate": _simple(
        lambda ev, n: f" names {SUIT_NAMES.get(str(ev.get('suit')), ev.get('suit'))}"
    ),
    "last": lambda s: [s.seat(), ("class:warn", ": last card!")],
    "skip": _simple(lambda ev, n: " is skipped"),
    "pass": _simple(lambda ev, n: " passes"),
    "reverse": _simple(lambda ev, n: " reverses the direction"),
    "cancel": _simple(_cancel_words),
    "out": _simple(
        lambda ev, n: " is out" + (f" ({_ordinal(ev['place'])})" if ev.get("place") else "")
    ),
    "concede": _simple(lambda ev, n: " concedes the hand"),
    "vote": _simple(lambda ev, n: " votes to end the hand"),
    "swap": _simple(lambda ev, n: f" swaps hands with {_name(n, ev.get('with'))}"),
}


#: The fields some kinds' sentences read (``kind`` aside), all of them: two presentations
#: of such an event that agree on these say the same sentence. A deal's is said to every
#: seat, each shown its own hand, which the sentence does not name, so the server
#: composes it once (``server.tables.delivery``).
SENTENCE_FIELDS: dict[str, tuple[str, ...]] = {"deal": ("hand_number", "dealer", "first", "top")}


def describe_event(ev: Mapping[str, Any], names: Names, ascii_only: bool = False) -> Line:
    """One line for ``ev`` (an engine event as presented to us)."""
    kind = str(ev.get("kind", "?"))
    sentence = SENTENCES.get(kind)
    if sentence is not None:
        return sentence(_Say(ev, names, ascii_only))
    rest = " ".join(
        f"{k}={v}" for k, v in ev.items() if k not in ("kind", "seat") and len(str(v)) < 40
    )
    if ev.get("seat") is None:
        return [("class:log.event", kind + (f" {rest}" if rest else ""))]
    return [("class:log.seat", _name(names, ev.get("seat"))), ("", f": {kind} {rest}".rstrip())]


def describe_text(ev: Mapping[str, Any], names: Names, ascii_only: bool = False) -> str:
    """``describe_event`` as plain text: the sentence a text-mode line carries. The server
    says one with every event it sends, so the commonest, a play, is written here
    straight to text (``_play_text``: the same words as ``_play``'s fragments)."""
    if ev.get("kind") == "play":
        return _play_text(ev, names, ascii_only)
    return "".join(map(_text_of, describe_event(ev, names, ascii_only)))


def _play_text(ev: Mapping[str, Any], names: Names, ascii_only: bool) -> str:
    """``_play``'s sentence as text, without its fragments (tests check the two agree):
    the server writes one for nearly every action, so each card's reading is looked up
    (``_READINGS``), and the name read, without a call of its own."""
    get = ev.get
    cards = get("cards")
    if cards is None:
        card = get("card")
        cards = (card,) if card else ()
    readings = _READINGS[ascii_only]
    texts = cast(list[str], list(map(readings.get, cards)))
    if None in texts:  # a card not read before
        texts = [_reading(card, ascii_only) for card in cards]
    seat = get("seat")
    name = names[seat] if type(seat) is int and 0 <= seat < len(names) else None
    text = f"{name or _name(names, seat)} plays {' '.join(texts)}"
    if get("how") == "joker" or get("stop"):
        text += " (a joker stops the run)"
    points = get("points")
    if isinstance(points, int) and points:
        text += f" ({points:+d})"
    if get("left"):
        text += " and is out"
    return text


#: Each card's reading in a sentence (``10♥``; ASCII: ``TH``), by the ASCII switch: kept
#: as each card is first read (``_reading``).
_READINGS: dict[bool, dict[str, str]] = {False: {}, True: {}}


def _reading(card: str, ascii_only: bool) -> str:
    """``card`` as a sentence reads it (``cached_fragment``'s text), kept in ``_READINGS``."""
    text = cached_fragment(card, ascii_only, True)[1]
    if isinstance(card, str):
        _READINGS[ascii_only][card] = text
    return text


def pending_text(pending: PendingView) -> str:
    """A pick-up of 4 as ``pick up 4``; unknown kinds as they come.

    >>> go_on = {"kind": PendingKind.GO_ON, "count": 0, "cards": []}
    >>> pending_text(go_on), pending_text({**go_on, "kind": PendingKind.MISS, "count": 2})
    ('go on in the named suit', 'miss 2 turns')
    """
    kind = pending.get("kind", "")
    count = pending.get("count", "")
    if kind == PendingKind.PICKUP:
        return f"pick up {count}"
    if kind == PendingKind.SKIP:
        return "skip" if count in (1, "") else f"skip ({count})"
    if kind == PendingKind.MISS:
        return f"miss {plural(count, 'turn')}"
    if kind == PendingKind.COVER:
        return "the card must be covered"
    if kind == PendingKind.GO_ON:
        return "go on in the named suit"
    return f"{kind} {count}".strip()
