"""Text mode's sentences for looking back at a game: an analysis, its progress, a review's
step and a hint (``protocol.readable`` writes every other message).

>>> r = reviewing(Reviewing("3", 2, "ann", 12, 80, said="step 12: bob played Q♥"))
>>> r
['reviewing 3 · ann leads the review of game 2: step 12: bob played Q♥ (12 of 80)']
>>> progress(AnalysisProgress("3", 2, 12, 80))
['analysis_progress 3 · analysing game 2: 12 of 80 decisions judged']
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from protocol.messages import Analysis, AnalysisProgress, Hinted, Message, Reviewing
from protocol.words import plural

DOT = " · "
#: A mark as a player reads it.
SIGNS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}


def _id(msg: Message) -> str:
    request_id = getattr(msg, "id", None)
    return "" if request_id is None else f" #{request_id}"


def progress(msg: AnalysisProgress) -> list[str]:
    return [
        f"analysis_progress {msg.table}{DOT}analysing game {msg.game}:"
        f" {msg.done} of {plural(msg.total, 'decision')} judged"
    ]


def analysis(msg: Analysis) -> list[str]:
    """Each player's accuracy and marks, then each marked decision with the better move."""
    head = f"analysis{_id(msg)} {msg.table}{DOT}"
    data = msg.analysis
    players = data.get("players") or []
    names = {p.get("seat"): p.get("name") for p in players if isinstance(p, dict)}
    out = [f"{head}game {msg.game}: the marks are ?? blunder, ? mistake, ?! inaccuracy"]
    for p in players:
        marked = p.get("marked") or {}
        counts = ", ".join(f"{marked.get(k, 0)} {s}" for k, s in SIGNS.items())
        accuracy = p.get("accuracy")
        share = f"{accuracy:.0%}" if isinstance(accuracy, int | float) else "?"
        judged = plural(p.get("decisions", 0), "decision")
        out.append(f"{head}{p.get('name')}: accuracy {share} of {judged} ({counts})")
    for d in data.get("decisions") or []:
        if not isinstance(d, dict) or not d.get("mark"):
            continue
        values = d.get("values") or {}
        best, played = d.get("best"), d.get("played")
        worth = values.get(best)
        better = f"; better {best} ({worth:.2f})" if isinstance(worth, int | float) else ""
        out.append(
            f"{head}step {int(d.get('index', 0)) + 1} {names.get(d.get('seat'), '?')}"
            f" {played} {SIGNS.get(d['mark'], '')}{better}, loss {d.get('loss', 0):.2f}"
        )
    return out


def review_sentence(msg: Reviewing) -> str:
    """Where a review's leader is, in words (the terminal client's log says it too)."""
    said = msg.said or "the deal"
    return f"{msg.leader} leads the review of game {msg.game}: {said} ({msg.step} of {msg.total})"


def review_step(msg: Reviewing) -> str:
    """The step a leader has gone to, as his reply says it to him (his own ``reviewing``
    line is not written: one line a step)."""
    return f"{msg.said or 'the deal'} ({msg.step} of {msg.total})"


def reviewing(msg: Reviewing, me: str | None = None) -> list[str]:
    """Another's step; ours was said by the reply to our ``review`` (``review_step``)."""
    if me is not None and msg.leader.casefold() == me.casefold():
        return []
    return [f"reviewing {msg.table}{DOT}{review_sentence(msg)}"]


def hinted(msg: Hinted) -> list[str]:
    return [f"hinted{_id(msg)} {msg.table}{DOT}{msg.text or msg.best}"]


#: The writer of each message this module says (``protocol.readable``'s table takes them).
WRITERS: dict[type[Message], Callable[[Any, Any], list[str]]] = {
    AnalysisProgress: lambda _r, msg: progress(msg),
    Analysis: lambda _r, msg: analysis(msg),
    Reviewing: lambda r, msg: reviewing(msg, r.me),
    Hinted: lambda _r, msg: hinted(msg),
}
