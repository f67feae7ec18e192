"""The players' requests: ``get_profile`` (finger), ``get_history`` and ``get_top``.

One ``ProfileRequests`` a connection (made at its first such request). Every reply
is bounded, whatever is asked:

- a profile carries the player's last ``profile_recent`` games, his played and won
  tallies (one per ruleset) and his ratings (one per family);
- a history reply is one page of at most ``history_page`` games, newest first, with
  ``next`` where the following page starts;
- a leaderboard holds at most ``top_max`` players (a larger ``count`` is cut to it);
- on a text connection a reply also fits one ``max_line`` line (fewer games or
  players, then; ``next`` says where to go on; a profile's recent games, and their
  lines, are the newest that fit);
- the three share one rate per connection (``profile_per_second`` after a burst of
  ``profile_burst``), since a profile or a history page is a store read, and one
  per address, shared by all of its connections (``profile_address_per_second``
  after ``profile_address_burst``; trusted addresses have none): over either,
  ``rate_limited``.

Names are matched by their normal form (``server.core.limits.fold_name``: ``ANN`` finds
``Ann``); a name never claimed here and never rated gets ``no_player``; a server
bot is asked for as ``bot:STRATEGY``.
"""

from __future__ import annotations

import json
from typing import Any, TypeVar

import trio

from engine.registry import all_rulesets
from protocol import messages as m
from protocol import payloads
from protocol.profile_lines import profile_lines
from server.core import wire
from server.core.limits import TokenBucket
from server.players.profiles import (
    BOT,
    Profiles,
    family_of,
    game_map,
    player_key,
    rating_map,
    shown_rating,
)

#: Bytes of a text line left for what surrounds the JSON (the reply's word, id, name).
HEADROOM = 256

#: A map a reply lists (a game of a history, a line of a leaderboard).
Entry = TypeVar("Entry", payloads.PlayedGame, payloads.Leader)

#: The requests handled here (each carries the ``id`` its reply echoes).
ProfileRequest = m.GetProfile | m.GetHistory | m.GetTop


def _fit(entries: list[Entry], budget: int | None, head: int) -> list[Entry]:
    """The first of ``entries`` whose JSON fits in ``budget`` bytes beside ``head`` bytes
    (at least one, so paging moves on); all of them without a budget."""
    if budget is None:
        return entries
    room = budget - head - HEADROOM
    for n, entry in enumerate(entries):
        room -= len(json.dumps(entry, separators=(",", ":"), ensure_ascii=False).encode()) + 1
        if room < 0:
            return entries[: max(1, n)]
    return entries


def _size(*parts: Any) -> int:
    """The bytes ``parts`` take as JSON (a text line carries a reply's fields so)."""
    return len(json.dumps(parts, separators=(",", ":"), ensure_ascii=False).encode())


class ProfileRequests:
    """One connection's handlers for the players' requests."""

    def __init__(self, conn: Any, ops: Any) -> None:
        self.conn = conn  #: the connection (a proxy): ``deliver``, ``name``, ``services``
        self.ops = ops
        cfg = ops.config
        self._bucket = TokenBucket(cfg.profile_per_second, cfg.profile_burst)

    def handlers(self) -> dict[type[m.Message], Any]:
        return {m.GetProfile: self._profile, m.GetHistory: self._history, m.GetTop: self._top}

    @property
    def profiles(self) -> Profiles:
        profiles: Profiles | None = self.ops.profiles
        assert profiles is not None
        return profiles

    def _budget(self) -> int | None:
        """The bytes a reply must fit in, as the connection's binding says (a text
        line's limit); None: no limit (msgpack)."""
        binding = getattr(self.conn, "binding", None)
        return None if binding is None else binding.page_budget

    def _admit(self, msg: ProfileRequest) -> bool:
        """Whether the connection's budget and its address's allow one more request
        (if not, the ``rate_limited`` reply is sent)."""
        now = trio.current_time()
        if not self._bucket.take(now):
            wait, whose = self._bucket.wait_time(now), "profile requests"
        else:
            lobby = getattr(self.ops, "lobby", None)  # the server's shared budgets
            shared = None if lobby is None else lobby.budgets.profiles
            peer = getattr(self.conn, "peer", "?")
            if shared is None or shared.take(peer, now):
                return True
            wait, whose = shared.wait_time(peer, now), "profile requests from your address"
        text = f"too many {whose}; wait {wait:.1f} s"
        self.conn.deliver(wire.error(msg.id, "rate_limited", text))
        return False

    async def _player(
        self, msg: m.GetProfile | m.GetHistory, name: str | None
    ) -> tuple[str, str] | None:
        """The player ``name`` means (his key and his name as shown), or None after the
        error reply (no name given and none claimed; nobody of that name)."""
        if name is None:
            name = self.conn.name
            if name is None:
                self.conn.deliver(wire.error(msg.id, "need_name", "claim a name, or name a player"))
                return None
        key = player_key(name)
        shown = None if key.startswith(BOT) else self.conn.services.accounts.display(name)
        if shown is None:
            rated = self.profiles.of(key)
            if rated:
                shown = rated[0].shown
            elif key.startswith(BOT) and (await self.ops.store.history(key, 0, 1))[1]:
                shown = key
        if shown is None:
            self.conn.deliver(wire.error(msg.id, "no_player", f"no player {name!r} is known here"))
            return None
        return key, shown

    async def _profile(self, msg: m.GetProfile) -> None:
        if not self._admit(msg) or (found := await self._player(msg, msg.name)) is None:
            return
        key, shown = found
        store, ledger = self.ops.store, self.ops.ledger
        recent, total = await store.history(key, 0, self.ops.config.profile_recent)
        chips = ledger.balance(shown) if ledger.has_account(shown) else None
        ratings = tuple(rating_map(r) for r in self.profiles.of(key))
        tallies = tuple(payloads.Tally(ruleset=t.ruleset, played=t.played, won=t.won)
                        for t in await store.tallies(key))  # fmt: skip
        games = [game_map(g) for g in recent]
        budget = self._budget()
        room = None if budget is None else budget - HEADROOM - len(shown.encode())
        while True:  # on a text line, the newest games that fit (their lines too)
            lines = profile_lines(total, chips, ratings, tallies, games)
            if room is None or len(games) <= 1 or _size(ratings, tallies, games, lines) <= room:
                break
            games.pop()
        self.conn.deliver(
            m.Profile(name=shown, games=total, chips=chips, ratings=ratings, tallies=tallies,
                      recent=tuple(games), lines=lines, id=msg.id)
        )  # fmt: skip

    async def _history(self, msg: m.GetHistory) -> None:
        if not self._admit(msg) or (found := await self._player(msg, msg.name)) is None:
            return
        key, shown = found
        games, total = await self.ops.store.history(key, msg.start, self.ops.config.history_page)
        page = _fit([game_map(g) for g in games], self._budget(), len(shown.encode()))
        end = msg.start + len(page)
        self.conn.deliver(
            m.History(name=shown, games=tuple(page), start=msg.start,
                      next=end if end < total else None, total=total, id=msg.id)
        )  # fmt: skip

    async def _top(self, msg: m.GetTop) -> None:
        if not self._admit(msg):
            return
        family = family_of(msg.family)
        if family is None:
            families = sorted({rs.family for rs in all_rulesets()})
            text = f"no family or ruleset {msg.family!r}; families: {', '.join(families)}"
            self.conn.deliver(wire.error(msg.id, "bad_options", text))
            return
        most = self.ops.config.top_max
        count = most if msg.count is None else min(msg.count, most)
        rows: list[payloads.Leader] = [
            {"place": i + 1, "name": r.shown, "rating": shown_rating(r.mu, r.sigma),
             "mu": round(r.mu, 3), "sigma": round(r.sigma, 3), "games": r.games}
            for i, r in enumerate(self.profiles.top(family, count))
        ]  # fmt: skip
        rows = _fit(rows, self._budget(), 0) if rows else rows
        self.conn.deliver(m.Top(family=family, players=tuple(rows), id=msg.id))
