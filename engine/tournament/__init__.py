"""An evening's tournament, the pure part: table sizes, seating, points and standings.

No I/O and no clock: every function is deterministic from its arguments (a round's
seating from the tournament's seed and the round's number), so a server restarted
mid-evening seats exactly as it would have, and a client can show the same standings
from the same games. The server's tournament subsystem and the in-process arena share it.

- ``sizes``: how many tables a round has and where bots fill;
- ``scoring``: a game's points, ``(k - place) / (k - 1)``, and the standings' tiebreaks;
- ``swiss``: seating a Swiss round (ratings first, then points and fewer repeat meetings),
  and block seating, the reference it is measured against;
- ``arena``: the table arena's seating of whoever is free;
- ``rotation``: every line-up of a deal plays it once per seat (the strategies' arena).
"""

from __future__ import annotations

from engine.tournament.scoring import (
    TIEBREAKS,
    GameResult,
    Standing,
    first_shares,
    game_points,
    points_table,
    round_averages,
    standings,
)
from engine.tournament.sizes import Layout, SeatingError, SeatRule, plan_tables

__all__ = [
    "TIEBREAKS",
    "GameResult",
    "Layout",
    "SeatRule",
    "SeatingError",
    "Standing",
    "first_shares",
    "game_points",
    "plan_tables",
    "points_table",
    "round_averages",
    "standings",
]
