"""A player's profile (``finger``) in words, composed once for every client.

The server sends these lines with the ``profile`` reply (its ``lines``), and the
browser, the terminal client and text mode show them as they are, so the three say
one thing: how many games he finished and his chips, then a line a rating, a line a
ruleset's tally, and a line a recent game, in the order of ``recent`` (the last
``len(recent)`` lines are those games, which is how a client puts a Replay button
beside each).

>>> rating = {"family": "shedding", "rating": 1532, "mu": 26.1, "sigma": 7.9, "games": 3}
>>> game = {"table": "4", "game": 2, "ruleset": "switch", "rated": True, "time": 1.0,
...     "seat": 0, "players": ["ann", "bot:search"], "scores": [0, 12], "places": [1, 0]}
>>> for line in profile_lines(3, 950, (rating,),
...         ({"ruleset": "switch", "played": 3, "won": 2},), (game,)):
...     print(line)
3 games finished · 950 chips
shedding 1532 (3 rated games)
switch: 2 won of 3
table 4 game 2, switch, rated: ann 2nd, bot 2 1st
>>> profile_lines(0, None, (), (), ())
('no games finished', 'not rated yet')
"""

from __future__ import annotations

from collections.abc import Sequence

from protocol.describe import seat_name
from protocol.messages import Profile
from protocol.payloads import PlayedGame, Rating, Tally
from protocol.words import plural

#: Between the parts of one line (as text mode's lines join their parts).
DOT = " · "


def ordinal(n: int) -> str:
    """``1`` as ``1st``, ``12`` as ``12th``, ``22`` as ``22nd``.

    >>> [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '101st']
    """
    teen = 10 <= n % 100 <= 20
    return f"{n}{'th' if teen else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def game_line(game: PlayedGame) -> str:
    """One finished game: ``table 4 game 2, switch, rated: ann 1st, bot 2 2nd`` (a
    server bot named by its seat, as the table named it; ``?`` where no place is known).

    >>> game_line({"table": "7", "game": 1, "ruleset": "abbott", "rated": False,
    ...     "time": 0.0, "seat": 1, "players": ["ann", None], "scores": [], "places": [0]})
    'table 7 game 1, abbott, unrated: ann 1st, - ?'
    """
    places = game["places"]
    who = ", ".join(
        f"{seat_name(p, i) or '-'} {ordinal(places[i] + 1) if i < len(places) else '?'}"
        for i, p in enumerate(game["players"])
    )
    rated = "rated" if game["rated"] else "unrated"
    return f"table {game['table']} game {game['game']}, {game['ruleset']}, {rated}: {who}"


def profile_lines(
    games: int,
    chips: int | None,
    ratings: Sequence[Rating],
    tallies: Sequence[Tally],
    recent: Sequence[PlayedGame],
) -> tuple[str, ...]:
    """The profile's lines, as every client shows them (the name is the clients' heading,
    not a line): games and chips, each rating (or ``not rated yet``), each ruleset's
    tally, then each recent game."""
    head = "no games finished" if games == 0 else f"{plural(games, 'game')} finished"
    if chips is not None:
        head += DOT + plural(chips, "chip")
    rated = [f"{r['family']} {r['rating']} ({plural(r['games'], 'rated game')})" for r in ratings]
    won = [f"{t['ruleset']}: {t['won']} won of {t['played']}" for t in tallies]
    return (head, *(rated or ["not rated yet"]), *won, *(game_line(g) for g in recent))


def lines_of(profile: Profile) -> tuple[str, ...]:
    """The lines a ``profile`` reply carries, or, where it carries none (one made by
    hand, not by a server), the same lines composed from its fields."""
    return profile.lines or profile_lines(
        profile.games, profile.chips, profile.ratings, profile.tallies, profile.recent
    )
