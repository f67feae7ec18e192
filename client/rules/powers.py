"""A table's power options in words, for the rules page.

The shedding options bind powers to cards with a small selector language
(``cancel = JR>JB 2*, A>*``), short to type in ``create`` and ``set`` but not
what a person reads at the table. Each power option gets a sentence here: the
same cards, the same powers, in English ("a red jack laid on a pick-up cancels
one black jack in it and every two in it; an ace laid on a pick-up cancels all
of it"). The selector language is ``engine.shedding.rules``'s (``2`` every two,
``KH`` the king of hearts, ``JB``/``JR`` the black/red jacks, ``JK`` a joker,
``power`` every power card); a value the client cannot read is shown as it came.

>>> power_sentence("pickup", "2:2 A:4")
'a two makes the next player pick up 2, an ace 4'
>>> for part in power_sentence("cancel", "JR>JB 2*, A>*").split("; "):
...     print(part)
a red jack laid on a pick-up cancels one black jack in it and every two in it
an ace laid on a pick-up cancels all of it
>>> for part in power_sentence("stack", "2>2 JB, JB>JB").split("; "):
...     print(part)
on a pick-up topped by a two, the next player may stack a two or a black jack
on a black jack, a black jack
>>> power_sentence("skip", "8")
'an eight makes the next player miss his turn'
>>> power_sentence("wild", "A J")
'an ace or a jack may be played on anything'
>>> power_sentence("no_end", "power")
'a hand may not end on a power card'
>>> power_sentence("hand_size", 7) is None
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.shedding.powers import POWERS
from protocol.words import article

RANKS = {
    "A": "ace",
    "2": "two",
    "3": "three",
    "4": "four",
    "5": "five",
    "6": "six",
    "7": "seven",
    "8": "eight",
    "9": "nine",
    "T": "ten",
    "J": "jack",
    "Q": "queen",
    "K": "king",
}
SUITS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
COLOURS = {"B": "black", "R": "red"}


def noun(selector: str) -> str:
    """The cards a selector names, as a bare noun: ``two``, ``black jack``,
    ``king of hearts``, ``joker``, ``power card``.

    >>> [noun(s) for s in ("2", "10", "JB", "KH", "JK", "power")]
    ['two', 'ten', 'black jack', 'king of hearts', 'joker', 'power card']
    """
    s = selector.strip().upper()
    if s == "POWER":
        return "power card"
    if s == "JK":
        return "joker"
    if s == "10":
        s = "T"
    rank = RANKS.get(s[:1])
    if rank is None or len(s) > 2:
        raise ValueError(f"not a card selector: {selector!r}")
    if len(s) == 1:
        return rank
    if s[1] in SUITS:
        return f"{rank} of {SUITS[s[1]]}"
    if s[1] in COLOURS:
        return f"{COLOURS[s[1]]} {rank}"
    raise ValueError(f"not a card selector: {selector!r}")


def one(selector: str) -> str:
    """A card of ``selector`` with its article: ``a two``, ``the king of hearts``."""
    s = selector.strip().upper()
    if len(s) == 2 and s[1] in SUITS:
        return f"the {noun(s)}"
    return article(noun(s))


def many(selector: str) -> str:
    """The cards of ``selector`` in the plural: ``twos``, ``sixes``, ``black jacks``."""
    word = noun(selector)
    if " of " in word:
        head, _, tail = word.partition(" of ")
        return f"{head}s of {tail}"
    return word + ("es" if word.endswith("x") else "s")


def either(words: list[str]) -> str:
    """``a``, ``a or b``, ``a, b or c``."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def _selectors(value: str) -> list[str]:
    return value.replace(",", " ").split()


def _pickup(value: str) -> str:
    parts = []
    for i, word in enumerate(value.split()):
        sel, _, count = word.partition(":")
        if i == 0:
            parts.append(f"{one(sel)} makes the next player pick up {count}")
        else:
            parts.append(f"{one(sel)} {count}")
    return ", ".join(parts)


def _rules(value: str) -> list[tuple[str, list[str]]]:
    out = []
    for part in value.split(","):
        if part.strip():
            left, _, right = part.partition(">")
            out.append((left.strip(), right.split()))
    return out


def _stack(value: str) -> str:
    parts = []
    for i, (left, right) in enumerate(_rules(value)):
        cards = either([one(w) for w in right])
        if i == 0:
            parts.append(f"on a pick-up topped by {one(left)}, the next player may stack {cards}")
        else:
            parts.append(f"on {one(left)}, {cards}")
    return "; ".join(parts)


def _cancel(value: str) -> str:
    parts = []
    for left, right in _rules(value):
        what = []
        for w in right:
            if w == "*":
                what.append("all of it")
            elif w.endswith("*"):
                what.append(f"every {noun(w[:-1])} in it")
            else:
                what.append(f"one {noun(w)} in it")
        parts.append(f"{one(left)} laid on a pick-up cancels {' and '.join(what)}")
    return "; ".join(parts)


def _cards(value: str) -> str:
    return either([one(s) for s in _selectors(value)])


def _declared(words: str) -> Callable[[str], str]:
    """A declared power's sentence (``engine.shedding.powers``), its cards filled in."""
    return lambda value: words.format(cards=_cards(value))


#: The sentence of each power option, from its value.
SENTENCES: dict[str, Callable[[str], str]] = {
    "pickup": _pickup,
    "stack": _stack,
    "cancel": _cancel,
    **{p.name: _declared(p.words) for p in POWERS},
    "together": lambda v: (
        f"{' and '.join(many(s) for s in _selectors(v))} may be laid several at once"
    ),
    "no_end": lambda v: f"a hand may not end on {_cards(v)}",
    "red_jacks_add": lambda v: (
        f"red jacks cancel nothing: laid on a waiting black (or red) jack, they add {v}"
    ),
}


def power_sentence(name: str, value: Any) -> str | None:
    """``name = value`` in words when ``name`` is a power option, else ``None``; a power
    that is off (no cards) is "none"."""
    sentence = SENTENCES.get(name)
    if sentence is None:
        return None
    if value in ("", None, 0):
        return "none"
    try:
        return str(sentence(str(value)))
    except (ValueError, KeyError, IndexError):
        return f"{name} = {value}"  # a selector this client cannot read: as it came
