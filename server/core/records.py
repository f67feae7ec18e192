"""Game records as the protocol hands them out: in pages, to whoever may see them.

Two kinds of record leave the server, and the rule between them is the secret:

- A game still running (playing or paused) is given only as its **public log**:
  the events as a spectator was sent them (``Event.present(None)``), kept by the
  table as the game goes (``Table.log``), so a request costs one page of
  presenting, never a replay. The seed, the deck order and anything else that
  would predict a deal are not in it. Only the table's members (seated or
  watching) and operators may ask; anyone else gets ``not_member``.
- A finished (or abandoned) game is given to anyone as its **full record**
  (``game.record()``: ruleset, seats, seed, options, dealer, deck, actions),
  which ``engine.replay`` rebuilds exactly once the pages are joined. The seed
  is safe to publish then: the next game at the table deals from a fresh one.

Either way a reply holds at most ``record_page`` entries (actions, or events),
so it stays within the protocol's limits (``max_array``, ``max_frame``) however
long the game was; a text connection's page also fits one ``max_line`` line (fewer
entries, then). ``next`` says where the following page starts. Requests are
rate-limited per connection (``record_per_second``, ``record_burst``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from engine.described import GameRecord
from engine.game import Game

#: Bytes of a text line left for what surrounds the record's JSON (``record #ID TABLE
#: public start=N next=N total=N game=N``), with room to spare.
HEADROOM = 256


@dataclass(frozen=True, slots=True)
class Page:
    """One reply's worth of a record."""

    record: dict[str, Any]
    full: bool
    start: int
    next: int | None  #: where the next page starts; None: this is the last
    total: int  #: entries in the whole record (so far, for a running game)


def _bounds(start: int, size: int, total: int) -> tuple[int, int]:
    start = max(0, min(start, total))
    return start, min(total, start + max(1, size))


def _json_bytes(value: Any) -> int:
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode())


def _fit(head: dict[str, Any], entries: list[Any], budget: int | None) -> int:
    """How many of ``entries`` fit in ``budget`` bytes of JSON beside ``head`` (at least
    one, so a fetch always moves on); all of them without a budget."""
    if budget is None:
        return len(entries)
    room = budget - _json_bytes(head) - HEADROOM
    for n, entry in enumerate(entries):
        room -= _json_bytes(entry) + 1
        if room < 0:
            return max(1, n)
    return len(entries)


def _page(head: dict[str, Any], key: str, entries: list[Any], start: int, size: int,
          budget: int | None, full: bool) -> Page:  # fmt: skip
    total = len(entries)
    start, end = _bounds(start, size, total)
    chosen = entries[start:end]
    chosen = chosen[: _fit(head, chosen, budget)]
    end = start + len(chosen)
    return Page({**head, key: chosen}, full, start, end if end < total else None, total)


def public_page(
    game: Game,
    options: dict[str, Any],
    log: list[dict[str, Any]],
    start: int,
    size: int,
    budget: int | None = None,
) -> Page:
    """Events ``start`` .. ``start + size`` of a game's public log (``options``: the
    table's, as the full record names them), and no more than fit in ``budget`` bytes
    of JSON (a text connection's line)."""
    head = {"ruleset": game.ruleset, "seats": game.seats, "options": dict(options)}
    return _page(head, "events", log, start, size, budget, False)  # events: as they were sent


def full_page(record: GameRecord, start: int, size: int, budget: int | None = None) -> Page:
    """Actions ``start`` .. ``start + size`` of a finished game's full record (the
    rest of the record, seed and deck included, on every page), within ``budget``."""
    head = {k: v for k, v in record.items() if k != "actions"}
    return _page(head, "actions", record["actions"], start, size, budget, True)
