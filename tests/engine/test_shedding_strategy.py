"""The shedding search's parts: its rollout policy and when it skips the search."""

from __future__ import annotations

import random
from typing import Any

import pytest
from support import soak
from test_shedding import deal, hand

import engine
from engine.actions import Action, Play
from engine.cards import Card
from engine.game import Game
from engine.shedding.codes import code
from engine.strategies import shedding as shed

PRESETS = ["switch", "blackjack", "irish", "j28", "taketwo", "gamebot"]


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("smart", [False, True])
def test_rollout_policies_play_whole_games_legally(preset: str, smart: bool) -> None:
    """The rollouts run on real games of every preset: each move they pick is
    legal, and a table of them finishes its game."""
    adapter = shed.SheddingAdapter(smart=smart)
    for seed in range(soak(3, 200)):
        game: Any = engine.new_game(preset, seats=4, seed=seed)
        rng = random.Random(seed)
        for _ in range(5000):
            if game.over:
                break
            seat = game.to_act
            legal = game.legal_actions(seat)
            action = adapter.rollout(game, seat, legal, rng)
            assert action in legal
            game.apply(seat, action)
        assert game.over


def _rated(game: Game) -> list[tuple[float, Action]]:
    seat = game.to_act
    assert seat is not None
    view = game.view(seat)
    hand = [code(Card.parse(t)) for t in view["hand"]]
    pt = shed.view_table(view)
    plays = [a for a in game.legal_actions(seat) if isinstance(a, Play)]
    return sorted(((shed.rate_play(view, p, hand, pt), p) for p in plays), key=lambda r: -r[0])


def _positions(gap_wanted: bool) -> list[Game]:
    """States (reached by heuristic play) where the heuristic's best play leads
    the next by at least 1 point (``gap_wanted``) or by less than 0.1."""
    out = []
    h = shed.SheddingHeuristic()
    for seed in range(40):
        game = engine.new_game("switch", seats=4, seed=seed)
        rng = random.Random(seed)
        for _ in range(30):
            if game.over:
                break
            rated = _rated(game)
            if len(rated) >= 2 and game.view(game.to_act).get("awaiting") is None:
                lead = rated[0][0] - rated[1][0]
                if (lead >= 1.0) == gap_wanted and (gap_wanted or lead < 0.1):
                    out.append(game)
                    break
            seat = game.to_act
            game.apply(seat, h.choose(game.view(seat), game.legal_actions(seat), rng))
        if len(out) >= 3:
            break
    assert len(out) >= 3
    return out


class Searched(Exception):
    """Raised by a stand-in search, to see whether the search ran."""


def _no_search(*args: Any, **kwargs: Any) -> Any:
    raise Searched


def test_a_clear_heuristic_lead_skips_the_search() -> None:
    for game in _positions(gap_wanted=True):
        s = shed.SheddingSearch(iterations=10, depth=5, gap=1.0)
        s.searchers("switch").mc.search = _no_search  # type: ignore[method-assign]
        seat = game.to_act
        choice = s.choose(game.view(seat), game.legal_actions(seat), random.Random(1))
        assert choice == _rated(game)[0][1]


def test_a_close_call_is_searched() -> None:
    for game in _positions(gap_wanted=False):
        s = shed.SheddingSearch(iterations=10, depth=5, gap=1.0)
        s.searchers("switch").mc.search = _no_search  # type: ignore[method-assign]
        seat = game.to_act
        with pytest.raises(Searched):
            s.choose(game.view(seat), game.legal_actions(seat), random.Random(1))


def _swap_view(mine: int, theirs: int) -> dict[str, Any]:
    """A gamebot view at seat 0 of 3, the next seat to the left holding ``theirs`` cards."""
    return {
        "ruleset": "gamebot",
        "seats": 3,
        "viewer": 0,
        "to_act": 0,
        "direction": -1,  # the swap goes left in seat order whatever the direction
        "finished": [],
        "hand_sizes": [mine, theirs, 5],
    }


@pytest.mark.parametrize(("mine", "theirs", "swaps"), [(2, 6, False), (6, 2, True)])
def test_the_heuristic_swaps_hands_only_for_a_smaller_one(
    mine: int, theirs: int, swaps: bool
) -> None:
    """gamebot's black queen trades the hand left for the next seat's: with a card
    to spare the heuristic plays it only when the hand it gets is the smaller."""
    hand_texts = ["QS", "9S", "4S", "5D", "6D", "7D"][:mine]
    view = _swap_view(mine, theirs)
    pt = shed.view_table(view)
    assert pt.swap[code(Card.parse("QS"))] and not pt.swap[code(Card.parse("9S"))]
    hand = [code(Card.parse(t)) for t in hand_texts]
    queen, nine = Play((Card.parse("QS"),)), Play((Card.parse("9S"),))
    prefers_queen = shed.rate_play(view, queen, hand, pt) > shed.rate_play(view, nine, hand, pt)
    assert prefers_queen == swaps


def test_the_swap_partner_skips_seats_already_out() -> None:
    view = _swap_view(3, 4) | {"seats": 4, "finished": [1, 2], "hand_sizes": [3, 0, 0, 4]}
    assert shed.swap_partner(view, 0) == 3 and shed.swap_partner(view, 3) == 0


def _heuristic_turn(game: Game, rng: random.Random) -> str:
    seat = game.to_act
    assert seat is not None
    action = shed.SheddingHeuristic().choose(game.view(seat), game.legal_actions(seat), rng)
    game.apply(seat, action)
    return str(action)


def test_the_j28_heuristic_goes_on_after_its_jack() -> None:
    """j28: "then the player is allowed to lay a heart and any other appropriate cards
    on that go": the bot names the suit it holds and lays it in the same go."""
    game = deal("j28", ["JD 6H 7H 3C 3D", "5C 6D 7D 8C 9C"], "9S", "KS KD QC QD")
    rng = random.Random(0)
    assert [_heuristic_turn(game, rng) for _ in range(2)] == ["play JD", "suit hearts"]
    assert _heuristic_turn(game, rng) in ("play 6H 7H", "play 7H 6H")
    assert game.to_act == 1 and hand(game, 0) == ["3C", "3D"]


def test_the_blackjack_heuristic_cancels_twos_with_a_red_jack_and_lays_runs() -> None:
    game = deal("blackjack", ["2S 3C 4C", "JD 6D 9C", "7C 9D 5C"], "4S", "KS KD QC QD")
    rng = random.Random(0)
    game.apply(0, "play 2S")
    assert _heuristic_turn(game, rng) == "play JD"  # not the draw of 2
    assert game.view(2)["pending"] is None
    game = deal("blackjack", ["6D 9D TD 3C", "5C 6C 9C 4H"], "5D", "KS KD QC QD")
    assert _heuristic_turn(game, rng) in ("play 9D TD", "play TD 9D")  # a run of two


def test_multi_weighs_the_cards_after_a_plays_first() -> None:
    """j28 lays sets and runs mixed in one play; ``multi`` is what each card after the
    first is worth: at the measured default (1) a run of two beats its first card alone;
    at 0 the second card adds nothing and the card kept to follow with counts more."""
    game = deal("j28", ["9S TS JS 4D 3C", "5C 6D 7D 8C 9C"], "8S", "KS KD QC QD")
    view, legal = game.view(0), game.legal_actions(0)
    assert "play 9S TS" in [str(a) for a in legal]
    hand = [code(Card.parse(t)) for t in view["hand"]]
    pt = shed.view_table(view)
    run, single = Play((Card.parse("9S"), Card.parse("TS"))), Play((Card.parse("9S"),))
    assert shed.rate_play(view, run, hand, pt, 0, 0, 1.0) > shed.rate_play(view, single, hand, pt)
    assert shed.rate_play(view, run, hand, pt, 0, 0, 0.0) < shed.rate_play(
        view, single, hand, pt, 0, 0, 0.0
    )


def test_the_search_plays_the_go_on_and_the_new_options() -> None:
    """The search rebuilds a go-on state from the view, and plays tables with the
    house variants on."""
    opts = {"pickup_together": True, "red_jacks_add": 3, "cards_call": True, "combos": "chain"}
    for preset, options in (("j28", {}), ("blackjack", opts)):
        game: Any = engine.new_game(preset, seats=3, seed=2, options=options)
        bot = shed.SheddingSearch(iterations=20)
        rng = random.Random(2)
        for _ in range(400):
            if game.over:
                break
            seat = game.to_act
            legal = game.legal_actions(seat)
            action = bot.choose(game.view(seat), legal, rng)
            assert action in legal
            for event in game.apply(seat, action):
                bot.observe(event.present(seat))


def test_each_preset_is_searched_with_its_own_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    """The settings come from the view's preset: a gap of 0 set for switch alone makes
    a position the default gap would settle unsearched go to the search, while
    another preset keeps the defaults; a parameter given to the strategy wins."""
    monkeypatch.setitem(shed.PRESET_SEARCH, "switch", {"gap": 0.0, "iterations": 30})
    s = shed.SheddingSearch(depth=5)
    assert s.settings("switch").gap == 0.0 and s.settings("irish").gap == 1.0
    assert s.searchers("switch").mc.iterations == 30
    assert s.searchers("irish").mc.iterations == shed.SearchSettings().iterations
    assert shed.SheddingSearch(iterations=7).searchers("switch").mc.iterations == 7
    for game in _positions(gap_wanted=True):
        s = shed.SheddingSearch(depth=5)
        s.searchers("switch").mc.search = _no_search  # type: ignore[method-assign]
        seat = game.to_act
        with pytest.raises(Searched):
            s.choose(game.view(seat), game.legal_actions(seat), random.Random(1))


@pytest.mark.parametrize("preset", PRESETS)
def test_the_tuned_settings_are_the_ones_played(preset: str) -> None:
    """Every preset's tuned settings reach the search that plays it."""
    tuned = shed.SheddingSearch().searchers(preset)
    want = shed.SearchSettings(**shed.PRESET_SEARCH.get(preset, {}))
    assert tuned.settings == want
    assert (tuned.mc.iterations, tuned.mc.depth, tuned.mc.confidence) == (
        want.iterations,
        want.depth,
        want.confidence,
    )


def test_bad_search_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="mc or ismcts"):
        shed.SheddingSearch(method="tree")
    with pytest.raises(TypeError):
        shed.SheddingSearch(budget=3)


def test_the_search_ranks_its_candidates_with_the_heuristics_weights() -> None:
    """The search settles a clear lead with the heuristic's own rating: at j28 a go-on
    jack is not rated up by the cards it would let the bot lay after it (the heuristic
    measured that as spending the jack early), so the search keeps its jack here as
    the heuristic does."""
    game = deal("j28", ["JD 6H 7H 3C 9D KH", "5C 6D 7D 8C 9C 4S"], "9S", "KS KD QC QD")
    view, legal = game.view(0), game.legal_actions(0)
    assert str(shed.SheddingHeuristic().choose(view, legal, random.Random(1))) == "play 9D"
    s = shed.SheddingSearch()
    s.searchers("j28").mc.search = _no_search  # type: ignore[method-assign]
    assert str(s.choose(view, legal, random.Random(1))) == "play 9D"
