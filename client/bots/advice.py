"""``hint`` and ``analyze`` at the table: the search's advice while practising, and the
after-game analysis of a finished game without leaving the client.

Both are the engine's (``engine.analysis``), computed on this machine from what the
player may know: a hint from the seat's own view and the events it was shown, an
analysis from the finished game's record (published with its seed once the game is over).
A hint is given only in a game against bots: at a table with other people it would be a
second player at one person's elbow. The work is CPU-bound, so it runs in a thread (a hint,
about a second) or in worker processes (an analysis), never on the event loop that draws
the screen.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any

from client.net.state import TableState
from engine.views import View
from protocol import fields


def hint_refusal(t: TableState | None) -> str | None:
    """Why no hint can be given at ``t`` now (None: one can)."""
    if t is None or t.view is None:
        return "hint: only at a table, on your turn"
    if t.seat is None:
        return "hint: only for a player, on his own turn"
    if t.state not in fields.RUNNING or not t.my_turn:
        return "hint: only on your turn"
    people = [p for i, p in enumerate(t.players) if i != t.seat and p and not p.startswith("bot:")]
    if people:
        return "hint: only in a game against bots (with people at the table it would be cheating)"
    if not t.legal:
        return "hint: nothing to decide"
    return None


def shown_events(t: TableState) -> list[dict[str, Any]]:
    """The events this seat was shown, in order, from the table's log."""
    lines = sorted((ln for ln in t.log if ln.kind == "event"), key=lambda ln: ln.seq or 0)
    return [ln.data for ln in lines]


def compute_hint(view: View, shown: list[dict[str, Any]], legal: Sequence[str]) -> str:
    """The advice as a sentence: the best action, its expected score, the runners-up."""
    from engine.actions import Action
    from engine.analysis import Decision, advise, hint_text
    from engine.vocabulary import seat_of

    actions = [Action.parse(a) for a in legal]
    if len(actions) == 1:
        only = str(actions[0])
        return hint_text(Decision(-1, seat_of(view), only, only, {}, 0.0, False), 1)
    return hint_text(advise(view, shown, actions), len(actions))


def analysis_lines(
    record: dict[str, Any],
    progress: Callable[[int, int], None] | None = None,
    stop: threading.Event | None = None,
    workers: int | None = None,
) -> list[str]:
    """The analysis of a finished game: the per-player summary and its marked decisions."""
    from client.bots.analysis_workers import run_analysis
    from engine.analysis import Settings, as_text

    decisions = run_analysis(record, Settings(), workers, progress, stop)
    return as_text(record, decisions, marked_only=True).splitlines()
