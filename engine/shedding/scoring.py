"""Going out, the end of a hand and of the match: who scores what.

The first seat out scores the points left in every other hand; a blocked hand
(nobody could play or draw for a round, or the turn limit) goes to the fewest
cards, then the fewest points, then the first in turn order from the dealer's
left. The match ends at its target with one leader (target 0: after one hand).
"""

from __future__ import annotations

from engine.events import Event
from engine.shedding import vocabulary as v
from engine.shedding.state import HandState, MatchState
from engine.shedding.table import TableRules


def maybe_out(rules: TableRules, state: HandState, match: MatchState, seat: int) -> list[Event]:
    """``seat`` goes out if his hand is empty; the hand may end with it."""
    if state.hands[seat]:
        return []
    state.finished.append(seat)
    state.announced.discard(seat)
    if state.owing == seat:
        state.owing = None
    went: v.SheddingOutFields = {"seat": seat, "place": len(state.finished)}
    events = [Event("out", went)]
    if len(state.finished) == 1:
        points = rules.pt.points
        won = sum(points[c] for h in state.hands for c in h)
        match.total_scores[seat] += won
        state.hand_points[seat] = won
    if rules.finish == "first" or len(state.active()) <= 1:
        events += end_hand(rules, state, match, blocked=False)
    return events


def _blocked_winner(rules: TableRules, state: HandState) -> int:
    """Who wins a hand nobody went out of."""
    n = len(state.hands)
    points = rules.pt.points
    order = [(state.dealer + k) % n for k in range(1, n + 1)]
    return min(
        order,
        key=lambda s: (
            len(state.hands[s]),
            sum(points[c] for c in state.hands[s]),
            order.index(s),
        ),
    )


def end_hand(rules: TableRules, state: HandState, match: MatchState, blocked: bool) -> list[Event]:
    """The hand is over: the rest finish in turn order, its points are added, and the
    match may be over too."""
    state.hand_over = True
    state.pending = None
    state.awaiting = None
    totals = match.total_scores
    if blocked and not state.finished:
        points = rules.pt.points
        winner = _blocked_winner(rules, state)
        won = sum(points[c] for s, h in enumerate(state.hands) if s != winner for c in h)
        totals[winner] += won
        state.hand_points[winner] = won
        state.finished.append(winner)
    for s in state.active():
        state.finished.append(s)
    match.hand_scores.append(list(state.hand_points))
    ended: v.SheddingHandEndFields = {
        "hand_number": match.hand_number,
        "finished": list(state.finished),
        "points": list(state.hand_points),
        "scores": list(totals),
        "blocked": blocked,
    }
    events = [Event("hand_end", ended)]
    target = rules.target
    best = max(totals)
    if target == 0 or (best >= target and totals.count(best) == 1):
        match.game_over = True
        winner = totals.index(best)
        over: v.SheddingGameEndFields = {"winner": winner, "scores": list(totals)}
        events.append(Event("game_end", over))
    return events
