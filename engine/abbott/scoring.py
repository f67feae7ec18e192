"""Abbott's scoring: who wins a hand, what each seat scores, who wins the game.

Pure functions of numbers, so each rule of the scoring table is checked on its
own before the game uses it.

>>> hand_points(4, winner=1, alliance=(0, 1))  # Smith chose Jones, Jones won
[3, 7, 0, 0]
>>> hand_points(4, winner=2, alliance=(1, 3))  # Jones chose Brown, Robinson won
[4, 0, 6, 0]
>>> hand_points(4, winner=0, alliance=(0, 3))  # the chooser won: nobody scores
[0, 0, 0, 0]
>>> game_winner([14, 20, 15, 11], 20), game_winner([20, 20, 3, 4], 20)
(1, None)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

#: Points for the winner of a hand with no alliance, and in the 2-player game.
SOLO_WIN = 10
#: Alliance of chooser C and partner P against O1, O2.
PARTNER_WINS = 7  # P wins: P scores this ...
CHOOSER_SHARE = 3  # ... and C this
OPPONENT_WINS = 6  # O1 (or O2) wins: he scores this ...
OPPONENT_SHARE = 4  # ... and the other opponent this


def hand_winner(values: Sequence[int], among: Iterable[int]) -> int | None:
    """The seat among ``among`` with the strictly best hand value; ``None`` on a tie
    for first place (equal best hands: nobody scores)."""
    seats = list(among)
    best = max(values[s] for s in seats)
    top = [s for s in seats if values[s] == best]
    return top[0] if len(top) == 1 else None


def hand_points(seats: int, winner: int | None, alliance: tuple[int, int] | None) -> list[int]:
    """Each seat's score for a hand won by ``winner`` (``None``: tie, nobody scores).

    ``alliance`` is ``(chooser, partner)`` or ``None``.
    """
    points = [0] * seats
    if winner is None:
        return points
    if alliance is None:
        points[winner] = SOLO_WIN
        return points
    chooser, partner = alliance
    if winner == partner:
        points[partner] = PARTNER_WINS
        points[chooser] = CHOOSER_SHARE
    elif winner != chooser:
        other = next(s for s in range(seats) if s not in (chooser, partner, winner))
        points[winner] = OPPONENT_WINS
        points[other] = OPPONENT_SHARE
    return points


def sides(seats: int, alliance: tuple[int, int]) -> tuple[tuple[int, int], tuple[int, int]]:
    """The two sides of an alliance: ``(chooser, partner)`` and the opponents."""
    chooser, partner = alliance
    opponents = tuple(s for s in range(seats) if s not in alliance)
    return (chooser, partner), (opponents[0], opponents[1])


def game_winner(totals: Sequence[int], target: int) -> int | None:
    """The game's winner once someone is at or over ``target``: the single highest
    total. ``None`` while nobody has reached it or while the highest is tied
    (further hands are played)."""
    best = max(totals)
    if best < target or list(totals).count(best) > 1:
        return None
    return list(totals).index(best)
