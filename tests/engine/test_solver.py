"""The 2-player abbott solver against brute force on small positions.

The brute forces below are written from docs/rules.md alone: plain minimax over
every move (memoised on the full state, but with no alpha-beta, no move
ordering and no "winner is decided" bound), ranking hands with the ordinary
``best_hand``. The solver must agree with them on the value of every move.
``brute_force_votes`` adds ``vote end`` as the rules have it: either player
may vote at any moment, in turn or out of it, the hand ends on the cards as
they are once both have voted, and a take clears the votes. It lets both
players cast a first vote too (the solver assumes that never helps), so it
checks that assumption as well.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import soak

from engine.cards import FULL_PACK
from engine.poker import best_hand
from engine.strategies.abbott import AbbottSearch, hint
from engine.strategies.abbott_solver import VOTE_END, SolverTable, cards_left, solve

SIZE = 5


def squares() -> list[str]:
    return [f"{'abcde'[f]}{r + 1}" for r in range(SIZE) for f in range(SIZE)]


def rook_moves(frm: str, other: str) -> list[str]:
    f, r = "abcde".index(frm[0]), int(frm[1]) - 1
    out = []
    for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        x, y = f + df, r + dr
        while 0 <= x < SIZE and 0 <= y < SIZE:
            sq = f"{'abcde'[x]}{y + 1}"
            if sq == other:
                break
            out.append(sq)
            x, y = x + df, y + dr
    return out


def result(colls: tuple[frozenset[str], frozenset[str]]) -> int | None:
    """The seat whose collection makes the better poker hand (None: a tie)."""
    a, b = best_hand(list(colls[0])), best_hand(list(colls[1]))
    return 0 if a > b else 1 if b > a else None


def score(winner: int | None, seat: int) -> int:
    """A result from ``seat``'s side: a win 1, a tie 0, a loss -1."""
    return 0 if winner is None else (1 if winner == seat else -1)


def brute_force(view: dict[str, Any]) -> dict[str, int | None]:
    """Each move's result (winning seat or None) under perfect play, by exhaustion."""
    limit = view["stall_limit"]

    @cache
    def value(grid, pieces, colls, turn, stall):  # type: ignore[no-untyped-def]
        return max(
            (
                after(grid, pieces, colls, turn, stall, sq)
                for sq in rook_moves(*pieces_of(pieces, turn))
            ),
            key=lambda w: score(w, turn),
        )

    def pieces_of(pieces: tuple[str, str], turn: int) -> tuple[str, str]:
        return pieces[turn], pieces[1 - turn]

    def after(grid, pieces, colls, turn, stall, sq):  # type: ignore[no-untyped-def]
        cards = dict(grid)
        taken = cards.pop(sq, None)
        new_pieces = (sq, pieces[1]) if turn == 0 else (pieces[0], sq)
        new_colls = list(colls)
        if taken is not None:
            new_colls[turn] = colls[turn] | {taken}
            stall = 0
            if not cards:
                return result(tuple(new_colls))
        else:
            stall += 1
            if stall >= limit:
                return result(tuple(new_colls))
        return value(frozenset(cards.items()), new_pieces, tuple(new_colls), 1 - turn, stall)

    grid = {
        f"{'abcde'[f]}{r + 1}": card
        for r, row in enumerate(view["grid"])
        for f, card in enumerate(row)
        if card is not None
    }
    pieces = tuple(view["pieces"])
    colls = tuple(frozenset(c) for c in view["collections"])
    turn = view["turn_of"]
    return {
        f"move {sq}": after(frozenset(grid.items()), pieces, colls, turn, view["stall"], sq)
        for sq in rook_moves(*pieces_of(pieces, turn))
    }


def random_view(rng: random.Random, n_cards: int, stall_limit: int) -> dict[str, Any]:
    deck = [str(c) for c in FULL_PACK]
    rng.shuffle(deck)
    where = rng.sample(squares(), n_cards)
    grid: list[list[str | None]] = [[None] * SIZE for _ in range(SIZE)]
    for sq in where:
        grid[int(sq[1]) - 1]["abcde".index(sq[0])] = deck.pop()
    colls = [[deck.pop() for _ in range(rng.randint(0, 5))] for _ in range(2)]
    pieces = rng.sample(squares(), 2)
    return {
        "size": SIZE,
        "seats": 2,
        "grid": grid,
        "pieces": pieces,
        "collections": colls,
        "turn_of": rng.randrange(2),
        "stall": rng.randrange(stall_limit),
        "stall_limit": stall_limit,
    }


@given(
    seed=st.integers(0, 2**32 - 1),
    n_cards=st.integers(1, 3),
    stall_limit=st.integers(1, 4),
)
def test_solver_agrees_with_brute_force(seed: int, n_cards: int, stall_limit: int) -> None:
    view = random_view(random.Random(seed), n_cards, stall_limit)
    expected = brute_force(view)
    got = solve(view)
    assert got.outcomes == expected
    best = [m for m, w in expected.items() if w == view["turn_of"]]
    assert got.winning_moves == best
    if best:
        assert got.winner == view["turn_of"]


def test_many_small_positions() -> None:
    rng = random.Random(7)
    for _ in range(soak(12, 300)):
        view = random_view(rng, rng.randint(2, 4), rng.randint(2, 5))
        assert solve(view).outcomes == brute_force(view)


def test_eight_cards_solve_completely_in_a_fraction_of_the_node_limit() -> None:
    """Counted in nodes, which no machine's load bends (``bench/solver.py`` times them):
    this position takes 157,520, about half a second on a development machine. A solver
    that lost its pruning would need many times more, and hit the limit."""
    rng = random.Random(11)
    view = random_view(rng, 8, 6)
    result = solve(view, node_limit=400_000)
    assert result.complete and result.nodes <= 400_000
    assert set(result.best_moves) <= set(result.outcomes)
    assert cards_left(view) == 8


def test_node_limit_stops_big_positions_with_what_it_found() -> None:
    view = random_view(random.Random(3), 20, 6)
    result = solve(view, node_limit=1000)
    assert not result.complete
    assert result.nodes <= 1001
    assert set(result.bounds) == set(result.outcomes) | set(result.bounds)
    assert result.candidates  # where a fallback should look


def test_four_player_views_are_refused() -> None:
    with pytest.raises(ValueError, match="2-player"):
        solve({"seats": 4})


# ------------------------------------------------------------------ votes
def brute_force_votes(view: dict[str, Any]) -> tuple[dict[str, int | None], int | None]:
    """Each option's result for the seat to act (its moves, and ``vote end``
    when that vote would end the hand), and the position's result, with votes
    as the rules have them (see the module doc)."""
    limit = view["stall_limit"]

    def vote(grid, pieces, colls, turn, stall, votes, seat):  # type: ignore[no-untyped-def]
        votes = votes | {seat}
        if len(votes) == 2:
            return result(colls)
        return value(grid, pieces, colls, turn, stall, votes)

    @cache
    def value(grid, pieces, colls, turn, stall, votes):  # type: ignore[no-untyped-def]
        """The player not to move may vote first (out of turn); then the mover."""
        other = 1 - turn
        inner = mover_value(grid, pieces, colls, turn, stall, votes)
        if other in votes:
            return inner
        return max(
            (inner, vote(grid, pieces, colls, turn, stall, votes, other)),
            key=lambda w: score(w, other),
        )

    def mover_value(grid, pieces, colls, turn, stall, votes):  # type: ignore[no-untyped-def]
        options = [
            after(grid, pieces, colls, turn, stall, votes, sq)
            for sq in rook_moves(pieces[turn], pieces[1 - turn])
        ]
        if turn not in votes:
            options.append(vote(grid, pieces, colls, turn, stall, votes, turn))
        return max(options, key=lambda w: score(w, turn))

    def after(grid, pieces, colls, turn, stall, votes, sq):  # type: ignore[no-untyped-def]
        cards = dict(grid)
        taken = cards.pop(sq, None)
        new_pieces = (sq, pieces[1]) if turn == 0 else (pieces[0], sq)
        new_colls = list(colls)
        if taken is not None:
            new_colls[turn] = colls[turn] | {taken}
            stall = 0
            votes = frozenset()
            if not cards:
                return result(tuple(new_colls))
        else:
            stall += 1
            if stall >= limit:
                return result(tuple(new_colls))
        return value(frozenset(cards.items()), new_pieces, tuple(new_colls), 1 - turn, stall, votes)

    grid = frozenset(
        (f"{'abcde'[f]}{r + 1}", card)
        for r, row in enumerate(view["grid"])
        for f, card in enumerate(row)
        if card is not None
    )
    pieces = tuple(view["pieces"])
    colls = tuple(frozenset(c) for c in view["collections"])
    turn, stall = view["turn_of"], view["stall"]
    votes = frozenset(view.get("votes", []))
    options = {
        f"move {sq}": after(grid, pieces, colls, turn, stall, votes, sq)
        for sq in rook_moves(pieces[turn], pieces[1 - turn])
    }
    if 1 - turn in votes and turn not in votes:
        options[VOTE_END] = result(colls)
    return options, value(grid, pieces, colls, turn, stall, votes)


def voted_view(rng: random.Random, n_cards: int, stall_limit: int) -> dict[str, Any]:
    view = random_view(rng, n_cards, stall_limit)
    view["votes"] = rng.choice([[], [0], [1]])
    return view


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n_cards=st.integers(1, 3),
    stall_limit=st.integers(1, 3),
)
def test_votes_agree_with_brute_force(seed: int, n_cards: int, stall_limit: int) -> None:
    view = voted_view(random.Random(seed), n_cards, stall_limit)
    options, winner = brute_force_votes(view)
    got = solve(view)
    assert got.outcomes == options
    assert got.winner == winner
    seat = view["turn_of"]
    best = max(options.values(), key=lambda w: 0 if w is None else 1 if w == seat else -1)
    assert set(got.best_moves) == {m for m, w in options.items() if w == best}


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n_cards=st.integers(2, 5),
    stall_limit=st.integers(1, 2),
)
def test_larger_positions_agree_with_plain_minimax(
    seed: int, n_cards: int, stall_limit: int
) -> None:
    """The search's shortcuts (the one-card race, the move orders, the kept bounds)
    against plain minimax on positions of up to five cards, with and without a standing
    vote. Plain minimax over five cards is quick only at the house rule's short stall
    limits; the tests above cover the longer ones on fewer cards."""
    view = voted_view(random.Random(seed), n_cards, stall_limit)
    options, winner = brute_force_votes(view)
    got = solve(view)
    assert got.outcomes == options
    assert got.winner == winner


def test_many_small_voted_positions() -> None:
    rng = random.Random(17)
    for _ in range(soak(12, 300)):
        view = voted_view(rng, rng.randint(2, 3), rng.randint(2, 3))
        options, winner = brute_force_votes(view)
        got = solve(view)
        assert (got.outcomes, got.winner) == (options, winner)


def only_vote_wins(stall_limit: int = 6) -> dict[str, Any]:
    """South (two aces against two kings) to move after North voted: every
    square he can reach holds a low card, and any take clears the vote and
    lets North take the king of diamonds for three kings."""
    grid: list[list[str | None]] = [[None] * SIZE for _ in range(SIZE)]
    grid[1][0], grid[2][0], grid[3][0], grid[4][0], grid[2][1] = "2C", "3D", "4H", "6S", "KD"
    return {
        "size": SIZE,
        "seats": 2,
        "grid": grid,
        "pieces": ["a1", "b1"],
        "collections": [["AS", "AH"], ["KS", "KH"]],
        "turn_of": 0,
        "stall": 0,
        "stall_limit": stall_limit,
        "votes": [1],
    }


def test_voting_is_the_only_winning_move() -> None:
    view = only_vote_wins(stall_limit=1)  # a small tree for the brute force
    options, winner = brute_force_votes(view)
    assert winner == 0 and [m for m, w in options.items() if w == 0] == [VOTE_END]
    result = solve(view)
    assert result.winning_moves == [VOTE_END]
    assert result.outcomes == options
    # The same at the default stall limit, and without North's vote every move loses.
    assert solve(only_vote_wins()).winning_moves == [VOTE_END]
    assert solve({**only_vote_wins(), "votes": []}).winner == 1


def test_the_search_votes_when_only_the_vote_wins() -> None:
    import engine
    from engine.actions import Action

    view = only_vote_wins()
    legal = [Action.parse(m) for m in ("move a2", "move a3", "move a4", "move a5", "vote end")]
    view = {**view, "viewer": 0, "over": False}
    choice = AbbottSearch(iterations=20).choose(view, legal, random.Random(1))
    assert str(choice) == VOTE_END
    assert engine  # the strategy module is importable alongside the engine


def test_voting_is_among_the_best_moves_where_it_wins() -> None:
    """Positions where the opponent voted and ending now wins: the vote is one
    of the best options, and the hint offers it."""
    rng = random.Random(5)
    found = 0
    while found < 5:
        view = voted_view(rng, rng.randint(2, 3), rng.randint(1, 3))
        if view["votes"] != [1 - view["turn_of"]]:
            continue
        options, _ = brute_force_votes(view)
        if options[VOTE_END] != view["turn_of"]:
            continue
        result = solve(view)
        assert VOTE_END in result.best_moves
        advice = hint({**view, "over": False})
        assert advice is not None and VOTE_END in advice.moves and advice.result == "win"
        found += 1


# ------------------------------------------------------------ the node limit
def test_partial_solves_keep_sound_bounds() -> None:
    """Stopped at a tiny node limit, every bound still holds the true result,
    the solved options are exact, and a proven best move is a true best."""
    rng = random.Random(23)
    partial = proven = 0
    for _ in range(soak(60, 1200)):
        view = voted_view(rng, rng.randint(2, 3), rng.randint(1, 3))
        options, winner = brute_force_votes(view)
        result = solve(view, node_limit=rng.randint(1, 8), all_moves=rng.random() < 0.5)
        seat = view["turn_of"]
        mine = {m: 0 if w is None else 1 if w == seat else -1 for m, w in options.items()}
        assert set(result.bounds) == set(options)
        for move, (lo, hi) in result.bounds.items():
            assert lo <= mine[move] <= hi, move
        for move, w in result.outcomes.items():
            assert options[move] == w
        if result.solved:
            top = max(mine.values())
            assert result.best_moves and all(mine[m] == top for m in result.best_moves)
            assert result.winner == winner or VOTE_END in view.get("votes", [])
        assert {m for m in mine if mine[m] == max(mine.values())} <= set(result.candidates)
        partial += not result.complete
        proven += not result.complete and result.solved
    assert partial > 10 and proven > 3


def heuristic_positions(n_cards: int, count: int, seed: int = 0) -> Iterator[dict[str, Any]]:
    """Positions with ``n_cards`` left from 2-player games of the heuristic."""
    import engine
    from engine.strategies import get_strategy

    found = 0
    rng = random.Random(seed)
    walker = get_strategy("heuristic", "abbott")
    game_seed = seed
    while found < count:
        game = engine.new_game("abbott", seats=2, seed=game_seed)
        game_seed += 1
        hand = game.view(None)["hand_number"]
        while not game.over and game.view(None)["hand_number"] == hand:
            seat = game.to_act
            view, legal = game.view(seat), game.legal_actions(seat)
            if cards_left(view) == n_cards:
                found += 1
                yield view
                break
            game.apply(seat, walker.choose(view, legal, rng))


def test_a_won_position_past_the_limit_keeps_the_winning_move() -> None:
    """A position whose full solve needs more nodes than the bot's limit, but
    whose first winning take is proven within it: the solver keeps that move
    instead of throwing the work away, and the search plays it (it used to
    fall back to sampling, which lost a won 7-card hand that way)."""
    from engine.actions import Action

    for view in heuristic_positions(6, 30, seed=3):
        full = solve(view)
        seat = view["turn_of"]
        if full.winner != seat or len(full.winning_moves) == len(full.outcomes):
            continue
        quick = solve(view, full.nodes, all_moves=False)
        if not (quick.solved and quick.nodes < full.nodes // 2):
            continue
        limit = quick.nodes + 1
        partial = solve(view, limit)
        assert not partial.complete and partial.solved
        assert partial.winner == seat and set(partial.best_moves) <= set(full.winning_moves)
        search = AbbottSearch(iterations=20, node_limit=limit)
        legal = [Action.parse(m) for m in full.outcomes]
        choice = search.choose(view, legal, random.Random(1))
        assert str(choice) in full.winning_moves
        assert search.solver_stats == {"solved": 1, "fallback": 0}
        return
    pytest.fail("no 6-card position with a quick win among 30")


def test_the_fallback_is_counted_not_silent() -> None:
    from engine.actions import Action

    view = next(heuristic_positions(6, 1, seed=1))
    legal = [Action.parse(m) for m in solve(view).outcomes]
    search = AbbottSearch(iterations=20, node_limit=1)
    search.choose(view, legal, random.Random(1))
    assert search.solver_stats == {"solved": 0, "fallback": 1}
    assert search.last_solution is not None and not search.last_solution.complete


def test_a_kept_table_gives_the_same_answers_with_less_work() -> None:
    """Successive positions of one hand solved with one ``SolverTable``."""
    import engine
    from engine.strategies import get_strategy

    game = engine.new_game("abbott", seats=2, seed=5)  # a hand that runs down to two cards
    walker, rng = get_strategy("heuristic", "abbott"), random.Random(2)
    table = SolverTable()
    hand = game.view(None)["hand_number"]
    fresh_nodes = kept_nodes = 0
    while not game.over and game.view(None)["hand_number"] == hand:
        seat = game.to_act
        view, legal = game.view(seat), game.legal_actions(seat)
        if cards_left(view) <= 8:
            fresh, kept = solve(view), solve(view, table=table)
            assert (kept.outcomes, kept.winner) == (fresh.outcomes, fresh.winner)
            fresh_nodes += fresh.nodes
            kept_nodes += kept.nodes
        game.apply(seat, walker.choose(view, legal, rng))
    assert kept_nodes * 2 < fresh_nodes  # 25,887 against 74,226 when written
    # A position from another hand starts afresh.
    other = random_view(random.Random(9), 3, 4)
    assert solve(other, table=table).outcomes == brute_force(other)


def test_a_table_sent_to_a_worker_is_its_name_and_finds_its_work_there() -> None:
    """A bot's table is pickled with the bot for every thought: it travels as its name,
    and the process it lands in gives back the table of that name it already holds,
    with the earlier thought's work, so the next move's solve starts from it."""
    import pickle

    from engine.strategies import abbott_solver

    view = next(heuristic_positions(7, 1, seed=4))
    mine = SolverTable()
    first = pickle.loads(pickle.dumps(mine))  # the first thought, in a worker
    assert first is not mine and first.token == mine.token
    cold = solve(view, table=first)
    assert cold.nodes > 1000
    sent = pickle.dumps(mine)
    assert len(sent) < 200  # the name, never the work
    again = pickle.loads(sent)  # the next thought, in the same worker
    assert again is first
    warm = solve(view, table=again)
    assert warm.outcomes == cold.outcomes and warm.nodes < cold.nodes // 10
    # A process keeps the few tables it used last.
    for _ in range(abbott_solver.KEPT):
        pickle.loads(pickle.dumps(SolverTable()))
    assert pickle.loads(sent) is not first


def test_the_hint_says_what_to_play_and_what_each_option_gives() -> None:
    view = {**only_vote_wins(), "over": False}
    advice = hint(view)
    assert advice is not None
    assert advice.moves == [VOTE_END] and advice.result == "win"
    assert advice.results == {VOTE_END: "win"} | {f"move a{r}": "loss" for r in range(2, 6)}
    assert advice.text() == "vote end wins"
    assert hint({**view, "seats": 4}) is None
    # The vote's result needs no search; without it nothing is proven within 0 nodes,
    # and no advice is better than a guess.
    quick = hint(view, node_limit=0)
    assert quick is not None and quick.moves == [VOTE_END] and quick.results == {VOTE_END: "win"}
    assert hint({**view, "votes": []}, node_limit=0) is None
