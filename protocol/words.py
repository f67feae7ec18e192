"""Small English helpers for the screens: plurals and articles, so no line reads
"1 cards", "miss 2 turn(s)" or "a A".

>>> plural(1, "card"), plural(3, "card"), plural(2, "turn")
('1 card', '3 cards', '2 turns')
>>> article("A"), article("8"), article("K"), article("ace")
('an A', 'an 8', 'a K', 'an ace')
"""

from __future__ import annotations


def plural(count: object, noun: str, many: str | None = None) -> str:
    """``count`` and ``noun``, the noun in the plural unless the count is one."""
    word = noun if count == 1 else (many or noun + "s")
    return f"{count} {word}"


def article(word: str) -> str:
    """``word`` after ``a`` or ``an`` as it is read aloud (an A, an 8, an ace, a K)."""
    first = word[:1].lower()
    vowel_sound = first in "aeio8" or word.upper() in ("A", "8", "11", "18")
    return f"{'an' if vowel_sound else 'a'} {word}"
