"""The normal form two player names are compared by: names that look alike are one name.

A name's key is built in four steps, repeated until nothing changes:

1. NFKC: compatibility forms fold onto plain ones (full-width ``Ａ``, ligatures ``ﬁ``);
2. case fold (``str.casefold``): ``Ann``, ``ANN`` and ``ann`` are one name;
3. accents and other combining marks go (NFD, then every ``Mn`` character is
   dropped): ``Zoë`` and ``Zoe``, ``authÁ`` and ``authA`` are one name;
4. every character that Unicode's confusables table (UTS #39, "Unicode Security
   Mechanisms", section 4) lists as confusable is replaced by its *prototype*, as
   that standard's ``skeleton`` does: Cyrillic ``а`` and Greek ``α`` become Latin
   ``a``, the digit ``0`` becomes ``O`` (and then, by the case fold, ``o``), ``m``
   becomes ``rn``.

The confusables table comes from ``confusable-homoglyphs`` (pure Python, MIT, a
maintained packaging of Unicode's ``confusables.txt``; it is what several web
frameworks' registration checks use). That package answers "is this string
confusable?", not "what is its skeleton?", and its table lists each pair both
ways, so ``_prototypes`` recovers the direction: in ``confusables.txt`` a
prototype is never itself mapped, so a character listed with several look-alikes
is a prototype, and one listed with a single look-alike that is a prototype is
that prototype's source. The table is built by ``load()`` or on first use (a
fifth of a second), not at import.

Why case is folded before the confusables, not after: names have always been
case-blind, and a key that is both case-blind and folds capital ``I`` onto small
``l`` must also fold ``i`` onto ``l`` (``I`` is ``i`` by case), which would make
``Tim`` and ``Tlm`` one name. So the one look-alike that lives only in the capitals,
``I`` beside ``l``, is not folded; every other is.

>>> name_key("authA") == name_key("\\u0430uthA") == name_key("authA\\u0301") == "autha"
True
>>> name_key("Ａｎｎ"), name_key("b0b"), name_key("Zoë"), name_key("modern")
('ann', 'bob', 'zoe', 'rnodern')
"""

from __future__ import annotations

import functools
import unicodedata

#: Bidirectional marks that the package keeps around some right-to-left entries.
_BIDI_MARKS = "\u200e\u200f"


def name_key(name: str) -> str:
    """The key two names collide on (idempotent: ``name_key(name_key(x)) == name_key(x)``)."""
    prototypes = _prototypes()
    text = name
    for _ in range(8):  # a handful of rounds reach the fixed point; the bound is a guard
        folded = unicodedata.normalize("NFD", unicodedata.normalize("NFKC", text).casefold())
        bare = "".join(ch for ch in folded if unicodedata.category(ch) != "Mn")
        mapped = "".join(prototypes.get(ch, ch) for ch in bare)
        if mapped == text:
            break
        text = mapped
    return text


def load() -> None:
    """Build the table now (a server calls this at start, so that its first claim does not
    stall every table for the fifth of a second the build takes)."""
    _prototypes()


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each confusable character's prototype (one character or a short sequence)."""
    from confusable_homoglyphs.confusables import confusables_data

    look_alikes: dict[str, list[str]] = {}
    for char, entries in confusables_data.items():
        char = char.strip(_BIDI_MARKS)
        if len(char) == 1:
            look_alikes[char] = [e["c"].strip(_BIDI_MARKS) for e in entries]
    prototypes: dict[str, str] = {}
    for char, others in look_alikes.items():
        if len(others) != 1 or not others[0]:
            continue  # listed with several: a prototype itself
        other = others[0]
        back = look_alikes.get(other, [])
        if len(other) > 1 or len(back) > 1:
            prototypes[char] = other  # a sequence, or a prototype with several sources
        elif back == [char]:
            prototypes[max(char, other)] = min(char, other)  # a lone pair: either will do
        else:
            prototypes[char] = other
    return prototypes
