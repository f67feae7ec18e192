"""Players remembered: who played each game, ratings per family, profiles and the leaderboard.

Rulings (the sources are silent; these follow what FICS and lichess do):

- **Who a game rates.** A game's players are fixed at its deal (``GamePlayers``):
  each seat's name then, or ``bot:STRATEGY`` for a seat a server bot plays. A
  player who leaves mid-game is still that seat's player (he takes the result,
  as a resignation would); one who takes a free seat mid-game is not rated for
  that game. Only a game that ends by its rules counts; an abandoned one (the
  master ended it, everyone left, the table closed) is in nobody's history.
- **Rated or not** is a table setting, ``rated`` (``create ... rated=true``, or the
  master's ``set rated=false``; ``server.tables.settings``): unset, a game is rated
  when two or more people held seats at the deal (``PEOPLE_TO_RATE``), and each server
  bot in it is rated as its strategy (``bot:search``: every table's search bots share one rating);
  ``rated=true`` rates a game against bots alone too; ``rated=false`` rates
  nothing. Unrated games still count in the played and won tallies and the
  history. Why two: an evening's game night fills seats with bots, and a game
  between friends with a bot beside them is a real result (the bot, rated as its
  strategy, stands for a steady player); one person practising against bots is
  not, as lichess leaves a game against its computer unrated.
- **The rating** is openskill's Plackett-Luce model, which rates a whole finishing
  order (second of four tells more than "did not win"): each seat's place comes
  from the final scores (``engine.places``), a player starts at mu 25, sigma
  25/3, and is shown as ``1500 + 40 (mu - 3 sigma)``, rounded: 1500 for a new
  player, going up as he wins and as his rating grows surer. One rating per
  family (abbott, shedding, kilodney): the shedding presets share one. A strategy
  holding two seats of one game gets both seats' shifts (as the arena's book).

Durability: the new ratings are planned from memory, written in the same store
transaction as the game's end and its payout (``GameResult``), and applied to
memory only once that transaction is durable, under one lock (``lock``), as the
ledger does. This module keeps the ratings; ``server.tables.results`` hears each
game's start and end from the tables and keeps them here.
So a store failure at the end leaves neither the end nor the ratings, and a
restart loads exactly what was stored. ``rebuild`` recomputes every rating from
the stored results alone (``switchboard ratings --check`` / ``--rebuild``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import trio
from openskill.models import PlackettLuce

import engine
from engine.registry import all_rulesets
from server.core.limits import fold_name
from server.store.base import (
    GamePlayers,
    GameResult,
    PlayedGame,
    ProfileState,
    Rating,
)

#: A new player's rating (openskill's defaults).
MU, SIGMA = 25.0, 25.0 / 3.0
#: How a rating is shown: ``BASE + SCALE * (mu - 3 sigma)``, rounded.
BASE, SCALE = 1500, 40
#: The prefix of a server bot's player key: ``bot:STRATEGY``.
BOT = "bot:"

_MODEL = PlackettLuce(mu=MU, sigma=SIGMA)


# ---------------------------------------------------------------- ratings
def shown_rating(mu: float, sigma: float) -> int:
    """The number people see: 1500 for a new player.

    >>> shown_rating(MU, SIGMA)
    1500
    """
    return round(BASE + SCALE * (mu - 3 * sigma))


def player_key(name: str) -> str:
    """The key a player is kept under: his name's normal form, or ``bot:STRATEGY``.

    >>> player_key("Ann"), player_key("BOT:Search")
    ('ann', 'bot:search')
    """
    if name[: len(BOT)].lower() == BOT:
        return BOT + name[len(BOT) :].lower()
    return fold_name(name)


def family_of(word: str) -> str | None:
    """The family ``word`` names (a family, or any ruleset of it), or None."""
    families = {rs.family for rs in all_rulesets()}
    if word in families:
        return word
    try:
        return engine.ruleset(word).family
    except engine.OptionError:
        return None


def rate(
    ratings: Mapping[tuple[str, str], Rating],
    family: str,
    players: Sequence[str],
    shown: Sequence[str],
    places: Sequence[int],
) -> tuple[Rating, ...]:
    """The ratings of ``players`` (one a seat) after a game they finished in ``places``.

    A player holding several seats (a strategy) gets the sum of his seats' shifts
    and the smallest sigma, and one game more."""
    before = [
        ratings.get((p, family)) or Rating(p, family, s, MU, SIGMA, 0)
        for p, s in zip(players, shown, strict=True)
    ]
    teams = _MODEL.rate(
        [[_MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before], ranks=list(places)
    )
    shift: dict[str, float] = defaultdict(float)
    sigma: dict[str, float] = {}
    first: dict[str, Rating] = {}
    for r, [new] in zip(before, teams, strict=True):
        first.setdefault(r.player, r)
        shift[r.player] += new.mu - r.mu
        sigma[r.player] = min(sigma.get(r.player, new.sigma), new.sigma)
    return tuple(
        Rating(p, family, shown[players.index(p)], r.mu + shift[p], sigma[p], r.games + 1)
        for p, r in first.items()
    )


def rebuild(results: Iterable[GameResult]) -> dict[tuple[str, str], Rating]:
    """Every rating, recomputed from the finished games in the order they ended."""
    ratings: dict[tuple[str, str], Rating] = {}
    for r in results:
        if r.rated:
            for new in rate(ratings, r.family, r.players, r.shown, r.places):
                ratings[(new.player, new.family)] = new
    return ratings


def disagreements(
    stored: Mapping[tuple[str, str], Rating],
    rebuilt: Mapping[tuple[str, str], Rating],
    tolerance: float = 1e-6,
) -> list[str]:
    """Where the stored ratings differ from a rebuild (empty: they agree)."""
    out = []
    for key in sorted(set(stored) | set(rebuilt)):
        a, b = stored.get(key), rebuilt.get(key)
        if a is None or b is None:
            out.append(f"{key[0]} in {key[1]}: {'only rebuilt' if a is None else 'only stored'}")
        elif (
            abs(a.mu - b.mu) > tolerance or abs(a.sigma - b.sigma) > tolerance or a.games != b.games
        ):
            out.append(
                f"{key[0]} in {key[1]}: stored mu {a.mu:.6f} sigma {a.sigma:.6f} games"
                f" {a.games}, rebuilt mu {b.mu:.6f} sigma {b.sigma:.6f} games {b.games}"
            )
    return out


def rating_map(r: Rating) -> dict[str, Any]:
    """A rating as the protocol shows it."""
    return {
        "family": r.family,
        "rating": shown_rating(r.mu, r.sigma),
        "mu": round(r.mu, 3),
        "sigma": round(r.sigma, 3),
        "games": r.games,
    }


def game_map(g: PlayedGame) -> dict[str, Any]:
    """A history line as the protocol shows it."""
    return {
        "table": str(g.table),
        "game": g.game,
        "ruleset": g.ruleset,
        "rated": g.rated,
        "time": round(g.at, 3),
        "seat": g.seat,
        "players": list(g.players),
        "scores": list(g.scores),
        "places": list(g.places),
    }


# --------------------------------------------------------------- the keeper
class Profiles:
    """Every rating and each open table's lineup, in memory; changed only after the store
    has kept the change (``ending``)."""

    def __init__(self, state: ProfileState | None = None) -> None:
        state = state or ProfileState()
        self.ratings: dict[tuple[str, str], Rating] = dict(state.ratings)
        self.lineups: dict[int, GamePlayers] = dict(state.lineups)
        #: Held while a game's start or end is planned, committed and applied
        #: (``server.tables.results``): one at a time, never from a stale rating.
        self.lock = trio.Lock()

    def rating(self, name: str, family: str) -> Rating | None:
        return self.ratings.get((player_key(name), family))

    def of(self, name: str) -> list[Rating]:
        """A player's ratings, by family."""
        key = player_key(name)
        return sorted((r for (p, _f), r in self.ratings.items() if p == key),
                      key=lambda r: r.family)  # fmt: skip

    def top(self, family: str, count: int) -> list[Rating]:
        """The ``count`` best rated players of ``family``, best first (ties: more games)."""
        rows = [r for (_p, f), r in self.ratings.items() if f == family]
        rows.sort(key=lambda r: (-(r.mu - 3 * r.sigma), -r.games, r.player))
        return rows[:count]

    def known(self, name: str) -> bool:
        key = player_key(name)
        return any(p == key for p, _f in self.ratings)

    def summary(self, family: str, players: Sequence[str | None]) -> list[int | None]:
        """Each seat's shown rating for the lobby (None: nobody, or never rated)."""
        out: list[int | None] = []
        for p in players:
            r = None if p is None else self.ratings.get((player_key(p), family))
            out.append(None if r is None else shown_rating(r.mu, r.sigma))
        return out
