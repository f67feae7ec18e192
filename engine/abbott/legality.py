"""What a seat may do now, checked without changing anything, and why not in words.

``legal_actions`` lists the actions, ``is_legal`` checks one directly (bots and the
server call it on every action, so it never lists), and ``explain`` says to the
player why an action is refused. All three read the table's rules and the hand.
"""

from __future__ import annotations

from engine.actions import Action, Ally, Concede, Move, Vote

from .board import first_blocker, in_line, rook_moves, square_name
from .state import HandState
from .table import TableRules

_VOTE_END = Vote("end")
_CONCEDE = Concede()


def ally_refusal(rules: TableRules, state: HandState, seat: int) -> str | None:
    """Why ``seat`` may not name a partner now (``None``: it may)."""
    if rules.seats != 4:
        return "there are no alliances in the 2-player game"
    if state.alliance is not None:
        c, p = state.alliance
        return f"an alliance already stands this hand ({rules.names[c]} chose {rules.names[p]})"
    if seat != state.turn:
        return "you may name a partner only on your own turn, before you move"
    if state.round < rules.alliance_from_round:
        return f"alliances are allowed from round {rules.alliance_from_round}"
    return None


def can_concede(rules: TableRules, state: HandState, seat: int) -> bool:
    """A seat concedes once a hand, in the 2-player game or once an alliance stands."""
    if seat in state.conceded:
        return False
    return rules.seats == 2 or state.alliance is not None


def legal_actions(rules: TableRules, state: HandState, seat: int) -> list[Action]:
    """Every action ``seat`` may take in a game not over: the mover's moves and
    partners, and anyone's vote and concession."""
    out: list[Action] = []
    if seat == state.actor:
        pieces = state.pieces
        moves = rules.move_actions
        out = [moves[sq] for sq in rook_moves(pieces[state.turn], rules.size, pieces)]
        if ally_refusal(rules, state, seat) is None:
            out += [a for s, a in enumerate(rules.ally_actions) if s != seat]
    if seat not in state.votes:
        out.append(_VOTE_END)
    if can_concede(rules, state, seat):
        out.append(_CONCEDE)
    return out


def is_legal(
    rules: TableRules, state: HandState, actor: int | None, seat: int, action: Action
) -> bool:
    """Whether a normalised action is legal, checked directly; ``actor`` is the seat to
    act (``None``: the game is over)."""
    if isinstance(action, Move):
        if seat != actor:
            return False
        dest = rules.squares.get(action.square)
        start = state.pieces[state.turn]
        if dest is None or dest == start or not in_line(start, dest, rules.size):
            return False
        return first_blocker(start, dest, rules.size, state.pieces) is None
    if isinstance(action, Vote):
        return action.motion == "end" and seat not in state.votes
    if isinstance(action, Concede):
        return can_concede(rules, state, seat)
    if isinstance(action, Ally):
        partner = rules.name_to_seat.get(action.partner)
        return (
            seat == actor
            and partner is not None
            and partner != seat
            and ally_refusal(rules, state, seat) is None
        )
    return False


def explain(
    rules: TableRules, state: HandState, actor: int | None, seat: int, action: Action
) -> str:
    """Why ``action`` is not legal for ``seat``, in words for the player; ``actor`` is
    the seat to act (``None``: the game is over)."""
    if isinstance(action, Move):
        return _explain_move(rules, state, actor, seat, action.square)
    if isinstance(action, Ally):
        refusal = ally_refusal(rules, state, seat)
        if refusal is not None:
            return refusal
        if seat != actor:
            return _not_your_turn(rules, state, actor)
        partner = rules.name_to_seat.get(action.partner)
        if partner is None:
            return f"there is no seat called {action.partner!r}; name one of " + ", ".join(
                n.lower() for n in rules.names
            )
        return "you cannot ally with yourself"
    if isinstance(action, Vote):
        if action.motion != "end":
            return "the only vote is 'vote end'"
        return "you have already voted to end this hand"
    if isinstance(action, Concede):
        if seat in state.conceded:
            return "you have already conceded this hand"
        return "you can concede only once an alliance stands"
    return f"'{action.verb}' is not an abbott action (move, ally, vote end, concede)"


def _not_your_turn(rules: TableRules, state: HandState, actor: int | None) -> str:
    if actor is None:
        return "the game is over"
    if actor != state.turn:
        return (
            f"it is not your turn: {rules.names[actor]} moves"
            f" {rules.names[state.turn]}'s piece this turn"
        )
    return f"it is not your turn: {rules.names[actor]} is to move"


def _explain_move(
    rules: TableRules, state: HandState, actor: int | None, seat: int, square: str
) -> str:
    if seat != actor:
        if seat == state.turn and actor is not None:
            return f"{rules.names[actor]} holds the 16-point power and moves your piece this hand"
        return _not_your_turn(rules, state, actor)
    size = rules.size
    dest = rules.squares.get(square)
    if dest is None:
        return f"{square} is not on the {size}x{size} board"
    whose = "your" if seat == state.turn else f"{rules.names[state.turn]}'s"
    start = state.pieces[state.turn]
    if dest == start:
        return "you must move at least one square"
    if not in_line(start, dest, size):
        return (
            f"{square} is not in line with {whose} piece at {square_name(start, size)}:"
            " pieces move along a row or a column"
        )
    blocker = first_blocker(start, dest, size, state.pieces)
    if blocker is not None:
        owner = rules.names[state.pieces.index(blocker)]
        if blocker == dest:
            return f"{square} is occupied by {owner}'s piece"
        return f"{square} is blocked by {owner}'s piece at {square_name(blocker, size)}"
    return "that move is not legal now"
