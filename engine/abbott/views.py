"""What everyone sees of an abbott game, the deal as an event, and a hand rebuilt
from a view.

Nothing in abbott is hidden, so one view serves every seat and spectators, and a
view holds the whole state of the hand a search needs (``state_from_view``).
Views carry primitives only: square names, card faces, seat numbers.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.cards import FULL_PACK, Card, format_cards
from engine.events import Event
from engine.poker import CARD_BIT, Hand, value_of_mask
from engine.vocabulary import CommonView

from .board import square_index, square_name
from .state import HandState, MatchState, actor_of, proxy_of
from .table import TableRules
from .vocabulary import AbbottDealFields, AbbottView, BestHand


def grid_rows(rules: TableRules, state: HandState) -> list[list[str | None]]:
    """The grid by rank from South's side, each row by file; ``None`` on a blank."""
    g, size = state.grid, rules.size
    return [
        [None if c is None else str(c) for c in g[r * size : (r + 1) * size]] for r in range(size)
    ]


def piece_names(rules: TableRules, state: HandState) -> list[str]:
    return [square_name(sq, rules.size) for sq in state.pieces]


def best_hand(state: HandState, seat: int) -> Hand:
    """The best poker hand in ``seat``'s collection."""
    return Hand(state.values[seat], state.masks[seat])


def best_hands(state: HandState) -> list[BestHand]:
    """Each seat's best poker hand, as views and the hand's end show it."""
    return [
        {"category": h.category, "cards": h.cards}
        for h in (best_hand(state, s) for s in range(state.seats))
    ]


def seat_view(
    rules: TableRules, state: HandState, match: MatchState, common: CommonView
) -> AbbottView:
    """Every seat's view (and a spectator's): ``common`` and the family's keys."""
    alliance = state.alliance
    return {
        "ruleset": common["ruleset"],  # first, then the family (``Game._view``)
        "family": "abbott",
        **common,
        "size": rules.size,
        "grid": grid_rows(rules, state),
        "pieces": piece_names(rules, state),
        "collections": [format_cards(c) for c in state.collections],
        "best": best_hands(state),
        "dealer": match.dealer,
        "hand_number": match.hand_number,
        "turn_of": None if match.over else state.turn,
        "round": state.round,
        "alliance": None if alliance is None else {"chooser": alliance[0], "partner": alliance[1]},
        "power": state.power,
        "votes": sorted(state.votes),
        "conceded": sorted(state.conceded),
        "stall": state.stall,
        "stall_limit": rules.stall_limit,
        "target": rules.target,
        "hand_scores": [list(p) for p in match.hand_scores],
        "seat_names": list(rules.names),
        "alliance_from_round": rules.alliance_from_round,
        "end_when_decided": rules.end_when_decided,
        "winner": match.winner,
    }


def deal_event(rules: TableRules, state: HandState, match: MatchState) -> Event:
    """A new grid laid, the pieces on their start squares, who moves first."""
    dealt: AbbottDealFields = {
        "seat": match.dealer,
        "dealer": match.dealer,
        "hand_number": match.hand_number,
        "grid": grid_rows(rules, state),
        "pieces": piece_names(rules, state),
        "first": state.turn,
    }
    return Event("deal", dealt)


def options_of(view: Mapping[str, Any]) -> dict[str, Any]:
    """The table's house rules, from a view (or, from before views carried them, from
    the rules it shows)."""
    options = view.get("options")
    if options is None:
        options = {
            "stall_limit": view["stall_limit"],
            "target": view["target"],
            "alliance_from_round": view.get("alliance_from_round", 1),
            "end_when_decided": view.get("end_when_decided", True),
        }
    return dict(options)


def state_from_view(rules: TableRules, view: Mapping[str, Any]) -> HandState:
    """The hand exactly as ``view`` shows it; the cards on no square and in no
    collection are the unused ones."""
    n, size = rules.seats, rules.size
    grid = [None if c is None else Card.parse(c) for row in view["grid"] for c in row]
    grid_bits = [0 if c is None else CARD_BIT[str(c)] for c in grid]
    collections = [[Card.parse(c) for c in coll] for coll in view["collections"]]
    placed = {c for c in grid if c is not None} | {c for coll in collections for c in coll}
    masks = [sum(CARD_BIT[c] for c in coll) for coll in view["collections"]]
    turn = view["turn_of"]
    first = (view["dealer"] + 1) % n
    done = view["round"]
    here = (turn - first) % n
    a = view.get("alliance")
    alliance = None if a is None else (a["chooser"], a["partner"])
    power = view.get("power")
    proxy = proxy_of(alliance, power)
    return HandState(
        grid=grid,
        grid_bits=grid_bits,
        grid_mask=sum(grid_bits),
        unused=[c for c in FULL_PACK if c not in placed],
        pieces=[square_index(p, size) for p in view["pieces"]],
        collections=collections,
        masks=masks,
        values=[value_of_mask(m) for m in masks],
        turn=turn,
        turns_taken=[done if (s - first) % n < here else done - 1 for s in range(n)],
        alliance=alliance,
        power=power,
        proxy=proxy,
        actor=actor_of(turn, proxy),
        votes=list(view.get("votes", [])),
        conceded=list(view.get("conceded", [])),
        stall=view["stall"],
    )


def match_from_view(view: Mapping[str, Any]) -> MatchState:
    """The match as ``view`` shows it, with no fixed packs to come."""
    return MatchState(
        scores=list(view["scores"]),
        dealer=view["dealer"],
        hand_scores=[list(h) for h in view.get("hand_scores", [])],
        hand_number=view["hand_number"],
    )
