"""docs/rules.md's shedding rulings, each held to the sentence of the page it quotes.

Every test first finds its sentence in the page (so a ruling that is reworded there
without the engine following, or the reverse, fails here), then plays it out.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_shedding import GB_STOCK, deal, explain, hand

import engine
from engine.actions import Action, Play

RULES = Path(__file__).resolve().parents[2] / "docs" / "rules.md"
STOCK = "KS KD QC QD QH KH KC QS"


def says(sentence: str) -> None:
    """The rules page says ``sentence`` (line breaks and spacing aside)."""
    page = " ".join(RULES.read_text(encoding="utf-8").split())
    assert " ".join(sentence.split()) in page, sentence


def shown(game: engine.Game, seat: int) -> list[str]:
    return [str(a) for a in game.legal_actions(seat)]


# ---------------------------------------------------------------- blackjack
def test_two_red_jacks_laid_together_cancel_twos_and_the_black_jack_on_them() -> None:
    says("on a pick-up of twos with a black jack stacked on it, a red jack cancels the black jack")
    says("two red jacks laid together (`play JD JH`) cancel both")
    game = deal("blackjack", ["2S 3C 5C", "JC 6D 5D", "JH JD 9D"], "4S", STOCK)
    game.apply(0, "play 2S")
    game.apply(1, "play JC")
    assert "play JD JH last" in shown(game, 2)  # listed, so bots find it too
    events = game.apply(2, "play JD JH last")
    assert [e.kind for e in events][:3] == ["play", "last", "cancel"]
    assert hand(game, 2) == ["9D"] and game.to_act == 0  # no penalty, nothing to take
    assert game.view(0)["pending"] is None and game.view(0)["top"] == "JH"
    assert engine.replay(game.record()).view(2) == game.view(2)


def test_red_jacks_go_together_only_where_each_has_something_to_cancel() -> None:
    says("Red jacks go down together only so, each with something to cancel")
    # on twos alone the first red jack cancels them all: the second has nothing left
    game = deal("blackjack", ["2S 3C 5C", "2C 6D 5D", "JH JD 9D"], "4S", STOCK)
    game.apply(0, "play 2S")
    game.apply(1, "play 2C")
    assert "there are not 2 cards to cancel" in explain(game, 2, "play JD JH")
    assert not any(isinstance(a, Play) and len(a.cards) > 1 for a in game.legal_actions(2))
    # and with nothing waiting they are no set (the preset lays runs, not sets)
    game = deal("blackjack", ["JH JD 9D", "2C 6D 5D"], "4H", STOCK)
    assert "cannot follow" in explain(game, 0, "play JH JD")


# ------------------------------------------------------ options that do nothing
@pytest.mark.parametrize(
    ("preset", "options", "why"),
    [
        ("switch", {"red_jacks_add": 3}, "no black jack picks up at this table"),
        ("irish", {"red_jacks_add": 3}, "no black jack picks up at this table"),
        ("blackjack", {"red_jacks_add": 3, "pickup": "2:2"}, "no black jack picks up"),
        ("irish", {"pickup": "KH:7", "pickup_together": True}, "fewer than two cards pick up"),
        ("gamebot", {"cards_call": True}, "this table has none (last_card is off)"),
        ("blackjack", {"cards_call": True, "last_card": False}, "last_card is off"),
    ],
)
def test_a_house_variant_with_nothing_to_act_on_is_refused_by_name(
    preset: str, options: dict[str, object], why: str
) -> None:
    says("A house variant that would do nothing at the table is refused by name")
    name = next(k for k in ("red_jacks_add", "pickup_together", "cards_call") if k in options)
    with pytest.raises(engine.OptionError) as err:
        engine.new_game(preset, seats=2, seed=1, options=options)
    assert err.value.option == name and why in str(err.value)


def test_house_variants_that_act_are_taken() -> None:
    says("`pickup_together` is taken wherever two or more cards pick up")
    engine.new_game("blackjack", seats=2, seed=1, options={"red_jacks_add": 3})
    engine.new_game("gamebot", seats=2, seed=1, options={"red_jacks_add": 3})
    engine.new_game("blackjack", seats=2, seed=1, options={"cards_call": True})
    # switch's twos laid together: the option lifts "One player may not place two 2
    # cards at the same time"
    game = deal("switch", ["2C 2D 3C 5C", "3D 4D 5D 6D"], "4C", STOCK, {"pickup_together": True})
    game.apply(0, "play 2C 2D")
    assert game.view(1)["pending"]["count"] == 4


# ---------------------------------------------------------- j28: one listing a set
def test_j28_lists_each_set_once_and_takes_any_order_typed() -> None:
    says("the same cards laid in orders that differ only in the suit left on top are listed once")
    game = deal("j28", ["9C 9H 9S 3D 4D 5D 8D", "JH JD 2D 5S 5C 6C 7C"], "9D", STOCK)
    assert shown(game, 0) == [
        *("play 9C", "play 3D", "play 4D", "play 5D", "play 8D", "play 9H", "play 9S"),
        *("play 9C 9H", "play 9C 9H 9S", "play 9C 9S", "play 3D 4D", "play 3D 4D 5D"),
        *("play 4D 3D", "play 4D 5D", "play 5D 4D", "play 5D 4D 3D", "play 9H 9S"),
    ]
    for typed in ("play 9H 9C", "play 9S 9H 9C", "play 9H 9S 9C"):
        assert game.is_legal(0, Action.parse(typed))
    game.apply(0, "play 9S 9H 9C")  # the player's order: the club is on top
    assert game.view(1)["top"] == "9C"


def test_every_listing_names_each_play_once() -> None:
    """Over random j28 and blackjack games: no two listed plays lay the same cards and
    leave the same rank doing the same thing on top."""
    import random

    for preset in ("j28", "blackjack", "gamebot"):
        for seed in range(20):
            game = engine.new_game(preset, seats=3, seed=seed)
            rng = random.Random(seed)
            while not game.over:
                seat = game.to_act
                legal = game.legal_actions(seat)
                keys = [
                    (tuple(sorted(map(str, a.cards))), re.sub("[CDHS]$", "", str(a.cards[-1])))
                    for a in legal
                    if isinstance(a, Play)
                ]
                assert len(keys) == len(set(keys)), (preset, seed, [str(a) for a in legal])
                game.apply(seat, legal[rng.randrange(len(legal))])


def test_gamebot_red_jacks_together_listed_once() -> None:
    game = deal("gamebot", ["JS JC 3C", "JH JD 9D"], "4S", GB_STOCK)
    game.apply(0, "play JS JC")
    assert shown(game, 1) == ["play JD", "play JH", "play JD JH", "draw"]
    assert game.is_legal(1, Action.parse("play JH JD"))


# ------------------------------------------------------------- rulings with reasons
def test_switch_follows_by_suit_or_rank_whatever_the_value() -> None:
    says("So a card follows by suit or rank, whatever its value")
    game = deal("switch", ["3S 9C 4D", "5C 6D 9D"], "9S", STOCK)
    assert "play 3S" in shown(game, 0)  # lower than the nine, of its suit
    game.apply(0, "play 3S")
    assert game.view(1)["top"] == "3S"


def test_blackjack_ace_cancels_a_whole_pick_up_black_jack_included() -> None:
    says("so an ace cancels the whole of it and its player names the suit")
    says("That holds on a black jack's pick-up too, since \"The ace can be put down at any time")
    game = deal("blackjack", ["2S 3C 5C", "2C 6D 5D", "AD 9D 4H"], "4S", STOCK)
    game.apply(0, "play 2S")
    game.apply(1, "play 2C")
    events = game.apply(2, "play AD")
    assert [e.kind for e in events] == ["play", "cancel"] and hand(game, 2) == ["9D", "4H"]
    game.apply(2, "suit hearts")
    assert game.to_act == 0 and game.view(0)["pending"] is None
    game = deal("blackjack", ["JS 3C 5C", "AD 6D 5D"], "4S", STOCK)
    game.apply(0, "play JS")
    game.apply(1, "play AD")
    assert game.view(1)["pending"] is None and len(hand(game, 1)) == 2


def test_blackjack_queen_is_covered_by_its_player_with_a_card_that_follows_it() -> None:
    says("Its own player covers it")
    says("He covers with a card that follows the queen as any card follows")
    game = deal("blackjack", ["QH 5H 9C", "5C 6D 3S"], "4H", "KS KD KC")
    game.apply(0, "play QH")
    assert game.to_act == 0 and shown(game, 0) == ["play 5H last"]
    game = deal("blackjack", ["QH 9C 3S", "5C 6D 3D"], "4H", "KS KD KC")
    game.apply(0, "play QH")
    assert game.to_act == 0 and shown(game, 0) == ["draw"]
    assert "9C does not match the QH" in explain(game, 0, "play 9C")
    game.apply(0, "draw")
    assert game.to_act == 1
