"""Each seat's place at the end of a game (0 = won): what a rating is computed from.

One definition for every rater (the arena's book, the server's player ratings), so a
strategy's arena rating and a player's rating read the same result the same way:
competition ranking by final score, highest first, with a finishing order
(shedding's ``finished``) breaking ties, since a one-hand shedding game scores only
the winner.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.game import Game


def places_from_scores(scores: Sequence[int]) -> list[int]:
    """Competition ranking, highest score first: ``[5, 9, 5] -> [1, 0, 1]``. Also the
    places of a game ended early (abandoned): ranked from the scores as they stand, ties
    sharing a place, since a hand under way has no finishing order yet.

    >>> places_from_scores([5, 9, 5])
    [1, 0, 1]
    """
    return [sum(1 for other in scores if other > s) for s in scores]


def places_for(scores: Sequence[int], finished: Any = None) -> list[int]:
    """Places from final scores; a finishing order (shedding's ``finished``)
    breaks ties, since a one-hand shedding game scores only the winner.

    >>> places_for([0, 12, 0], [1, 2, 0])
    [2, 0, 1]
    """
    places = places_from_scores(scores)
    if isinstance(finished, list) and finished:
        order = {seat: i for i, seat in enumerate(finished)}
        key = [(-scores[s], order.get(s, len(order))) for s in range(len(scores))]
        places = [sum(1 for k in key if k < key[s]) for s in range(len(scores))]
    return places


def outcome_places(game: Game) -> list[int]:
    """Each seat's place at the end of ``game`` (0 = won)."""
    return places_for(list(game.scores), game.view(None).get("finished"))
