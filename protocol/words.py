"""Small English helpers for the screens: plurals and articles, so no line reads
"1 cards", "miss 2 turn(s)" or "a A"; and an action told as what was done.

>>> plural(1, "card"), plural(3, "card"), plural(2, "turn")
('1 card', '3 cards', '2 turns')
>>> article("A"), article("8"), article("K"), article("ace")
('an A', 'an 8', 'a K', 'an ace')
"""

from __future__ import annotations

from engine.actions import Action, Ally, Move, Nominate, Play, Vote
from engine.errors import InvalidActionError
from protocol.cards import card_reading

#: what a verb that takes nothing did, in the past tense
_DONE = {"draw": "drew", "pass": "passed", "last": "called last card", "concede": "conceded"}


def plural(count: object, noun: str, many: str | None = None) -> str:
    """``count`` and ``noun``, the noun in the plural unless the count is one."""
    word = noun if count == 1 else (many or noun + "s")
    return f"{count} {word}"


def article(word: str) -> str:
    """``word`` after ``a`` or ``an`` as it is read aloud (an A, an 8, an ace, a K)."""
    first = word[:1].lower()
    vowel_sound = first in "aeio8" or word.upper() in ("A", "8", "11", "18")
    return f"{'an' if vowel_sound else 'a'} {word}"


def action_words(notation: str) -> str:
    """What an action did, in words (the past tense, cards as a person reads them): how a
    sentence tells a move that was made, where the notation is for typing one.

    >>> action_words("play 9S"), action_words("play TH TD last"), action_words("draw")
    ('played 9♠', 'played 10♥ 10♦ and called last card', 'drew')
    >>> action_words("suit hearts"), action_words("move c4"), action_words("vote end")
    ('named hearts', 'moved to c4', 'voted to end the hand')
    """
    try:
        action = Action.parse(notation)
    except InvalidActionError:
        return f"chose {notation}"
    match action:
        case Play(cards=cards, last=last):
            played = "played " + " ".join(card_reading(str(c)) for c in cards)
            return played + (" and called last card" if last else "")
        case Nominate():
            return f"named {str(action).removeprefix('suit ')}"
        case Move(square=square):
            return f"moved to {square}"
        case Ally(partner=partner):
            return f"chose {partner} as partner"
        case Vote(motion="end"):
            return "voted to end the hand"
    return _DONE.get(action.verb, f"chose {notation}")
