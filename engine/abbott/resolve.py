"""What each legal action does to the hand: a move and the card it takes, the turn
passing on (missed by a blocked piece), an alliance, a vote, a concession, and the
hand's end and scoring.

The functions change the hand and the match only through their methods, and return
the events. A hand that ends ends the action's events with ``hand_end`` (or, if it
ended the game, ``game_end``): the game then deals the next hand.
"""

from __future__ import annotations

from engine.actions import Action, Ally, Move, Vote
from engine.cards import format_cards
from engine.events import Event
from engine.poker import value_of_mask

from . import vocabulary as v
from .board import has_move
from .scoring import hand_points, hand_winner, sides
from .state import HandState, MatchState
from .table import POWER_SCORE, TableRules
from .views import best_hands


def act(
    rules: TableRules, state: HandState, match: MatchState, seat: int, action: Action
) -> list[Event]:
    """Carry out ``seat``'s ``action``, already known to be legal; return its events."""
    if isinstance(action, Move):
        return move(rules, state, match, seat, rules.squares[action.square])
    if isinstance(action, Ally):
        return [ally(state, match, seat, rules.name_to_seat[action.partner])]
    if isinstance(action, Vote):
        state.vote(seat)
        voted: v.AbbottVoteFields = {"seat": seat, "motion": "end", "votes": sorted(state.votes)}
        events = [Event("vote", voted)]
        if len(state.votes) == rules.seats:
            events += end_hand(rules, state, match, "vote")
        return events
    return concede(rules, state, match, seat)


def ally(state: HandState, match: MatchState, seat: int, partner: int) -> Event:
    """Form the hand's one alliance; a 16-point score gives its holder the partner's
    moves (from this very turn on), unless both partners have it."""
    strong = [s for s in (seat, partner) if match.scores[s] >= POWER_SCORE]
    state.ally(seat, partner, strong[0] if len(strong) == 1 else None)
    allied: v.AbbottAllyFields = {"seat": seat, "partner": partner, "power": state.power}
    return Event("ally", allied)


def concede(rules: TableRules, state: HandState, match: MatchState, seat: int) -> list[Event]:
    """``seat`` concedes: the hand ends once a whole side has conceded, and the other
    side's best hand wins it."""
    state.concede(seat)
    conceded: v.AbbottConcedeFields = {"seat": seat, "conceded": sorted(state.conceded)}
    events = [Event("concede", conceded)]
    if rules.seats == 2:
        events += end_hand(rules, state, match, "concede", winners_side=(1 - seat,))
    else:
        assert state.alliance is not None  # concessions need an alliance (is_legal)
        side_a, side_b = sides(rules.seats, state.alliance)
        for side, other in ((side_a, side_b), (side_b, side_a)):
            if all(s in state.conceded for s in side):
                events += end_hand(rules, state, match, "concede", winners_side=other)
                break
    return events


def move(
    rules: TableRules, state: HandState, match: MatchState, seat: int, dest: int
) -> list[Event]:
    """The piece to move goes to ``dest`` (moved by ``seat``, its owner or the power
    holder) and takes the card there, if any; then the turn passes."""
    mover = state.turn
    start = state.pieces[mover]
    card = state.move_piece(mover, dest)
    fields: v.AbbottMoveFields = {
        "seat": mover,
        "from": rules.square_names[start],
        "to": rules.square_names[dest],
    }
    if seat != mover:
        fields["by"] = seat
    events = [Event("move", fields)]
    if card is not None:
        took: v.AbbottTakeFields = {"seat": mover, "card": str(card), "square": fields["to"]}
        events.append(Event("take", took))
    return events + next_turn(rules, state, match)


def ending(rules: TableRules, state: HandState) -> str | None:
    """Whether the hand ends now, checked after every turn, and why."""
    if not state.grid_mask:
        return "grid empty"
    if rules.end_when_decided and decided(state):
        return "decided"
    if state.stall >= rules.stall_limit:
        return "stall"
    return None


def decided(state: HandState) -> bool:
    """Nobody could beat or tie the leader even by taking every card left."""
    values = state.values
    best = max(values)
    seats = range(len(values))
    leaders = [s for s in seats if values[s] == best]
    if len(leaders) > 1:
        return False
    rest = state.grid_mask
    masks = state.masks
    return all(value_of_mask(masks[s] | rest) < best for s in seats if s != leaders[0])


def next_turn(rules: TableRules, state: HandState, match: MatchState) -> list[Event]:
    """End the turn just taken: end the hand, or pass the turn left. A player with no
    legal move misses his turn (automatically, with a ``miss`` event), except the
    dealer on his first turn, who takes the card under his piece."""
    events: list[Event] = []
    for _ in range(2 * rules.seats):
        reason = ending(rules, state)
        if reason is not None:
            return events + end_hand(rules, state, match, reason)
        mover = state.pass_turn()
        sq = state.pieces[mover]
        if has_move(sq, rules.size, state.pieces):
            return events
        card = state.miss_turn(mover, match.dealer)
        name = rules.square_names[sq]
        if card is not None:
            taken: v.AbbottTakeFields = {
                "seat": mover,
                "card": str(card),
                "square": name,
                "blocked": True,
            }
            events.append(Event("take", taken))
        else:
            missed: v.AbbottMissFields = {"seat": mover, "square": name}
            events.append(Event("miss", missed))
    # Unreachable on these boards (four pieces cannot all be blocked), kept so that a
    # bug can never loop for ever.
    return events + end_hand(rules, state, match, "blocked")


def end_hand(
    rules: TableRules,
    state: HandState,
    match: MatchState,
    reason: str,
    winners_side: tuple[int, ...] | None = None,
) -> list[Event]:
    """Score the hand (the best hand among ``winners_side``, or among all) and end it;
    end the game too if a seat alone now leads at the target."""
    among = range(rules.seats) if winners_side is None else winners_side
    winner = hand_winner(state.values, among)
    points = hand_points(rules.seats, winner, state.alliance)
    match.score(points, rules.target)
    ended: v.AbbottHandEndFields = {
        "seat": winner,
        "winner": winner,
        "hand_number": match.hand_number,
        "reason": reason,
        "points": points,
        "scores": list(match.scores),
        "best": best_hands(state),
        "collections": [format_cards(c) for c in state.collections],
        "play_on": match.winner is None and max(match.scores) >= rules.target,
    }
    events = [Event("hand_end", ended)]
    if match.winner is not None:
        won = match.winner
        over: v.AbbottGameEndFields = {"seat": won, "winner": won, "scores": list(match.scores)}
        events.append(Event("game_end", over))
    return events
