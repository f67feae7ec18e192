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
long the game was; ``next`` says where the following page starts. Requests are
rate-limited per connection (``record_per_second``, ``record_burst``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.game import Game


@dataclass(frozen=True, slots=True)
class Page:
    """One reply's worth of a record."""

    record: dict[str, Any]
    full: bool
    start: int
    next: int | None  #: where the next page starts; None: this is the last
    total: int  #: entries in the whole record (so far, for a running game)


def _bounds(start: int, size: int, total: int) -> tuple[int, int | None, int]:
    start = max(0, min(start, total))
    end = min(total, start + max(1, size))
    return start, (end if end < total else None), end


def public_page(
    game: Game, options: dict[str, Any], log: list[dict[str, Any]], start: int, size: int
) -> Page:
    """Events ``start`` .. ``start + size`` of a game's public log (``options``: the
    table's, as the full record names them)."""
    total = len(log)
    start, nxt, end = _bounds(start, size, total)
    record = {
        "ruleset": game.ruleset,
        "seats": game.seats,
        "options": dict(options),
        "events": log[start:end],  # presented as they happened (read-only, as sent)
    }
    return Page(record, False, start, nxt, total)


def full_page(record: dict[str, Any], start: int, size: int) -> Page:
    """Actions ``start`` .. ``start + size`` of a finished game's full record (the
    rest of the record, seed and deck included, on every page)."""
    actions = record["actions"]
    total = len(actions)
    start, nxt, end = _bounds(start, size, total)
    page = {k: v for k, v in record.items() if k != "actions"}
    page["actions"] = actions[start:end]
    return Page(page, True, start, nxt, total)
