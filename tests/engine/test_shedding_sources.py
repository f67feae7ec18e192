"""The presets as their source plays them: each test quotes the sentence it holds the
engine to (the Wikipedia article "Switch (card game)": Switch, Black Jack, Jacks Twos
and Eights, Take Two), and the source's house variants as table options."""

from __future__ import annotations

from test_shedding import GB_STOCK, blunder, deal, explain, hand, refused

import engine
from engine.actions import Action

STOCK = "KS KD QC QD QH KH KC QS"


# ---------------------------------------------------------------- j28: the jack
def test_j28_a_jack_names_a_suit_and_its_player_goes_on_in_one_play() -> None:
    """ "if a Jack is played the suit can be changed to hearts, then the player is
    allowed to lay a heart and any other appropriate cards on that go." """
    game = deal("j28", ["JD 6H 7H 3C 4C", "5C 6D 7D 8C 9C"], "9S", STOCK)
    game.apply(0, "play JD 6H 7H")  # the card after the jack names the suit
    assert hand(game, 0) == ["3C", "4C"] and game.view(1)["top"] == "7H" and game.to_act == 1
    assert game.view(1)["nominated"] is None
    assert engine.replay(game.record()).view(0) == game.view(0)


def test_j28_a_jack_then_suit_hearts_and_the_same_player_lays_hearts() -> None:
    """The same go in steps: ``play JD``, ``suit hearts``, then hearts (or ``pass``)."""
    game = deal("j28", ["JD 6H 7H 3C 4C", "5C 6D 7D 8C 9C"], "9S", STOCK)
    game.apply(0, "play JD")
    game.apply(0, "suit hearts")
    v = game.view(0)
    assert game.to_act == 0 and v["nominated"] == "H" and v["pending"]["kind"] == "go_on"
    legal = {str(a) for a in game.legal_actions(0)}
    assert {"play 6H", "play 7H", "play 6H 7H", "pass"} <= legal and "draw" not in legal
    assert "play 3C" not in legal
    refused(game, 0, "draw", "go on in the suit you named, or pass")
    game.apply(0, "play 6H 7H")
    assert hand(game, 0) == ["3C", "4C"] and game.to_act == 1 and game.view(1)["pending"] is None
    # or he ends his go: the suit he named stands for the next player
    game = deal("j28", ["JD 6H 7H 3C 4C", "5C 6D 7D 8C 9C"], "9S", STOCK)
    game.apply(0, "play JD")
    game.apply(0, "suit clubs")
    game.apply(0, "pass")
    assert game.to_act == 1 and game.view(1)["nominated"] == "C"
    assert "play 5C" in {str(a) for a in game.legal_actions(1)}


# ------------------------------------------------------------ blackjack
def test_blackjack_a_red_jack_cancels_a_pick_up_of_twos() -> None:
    """ "Alternatively, a red Jack or an ace can be used to cancel the card pickup." """
    game = deal("blackjack", ["2S 3C 4C", "JD 6D 7D", "7C 9D 9C"], "4S", STOCK)
    game.apply(0, "play 2S")
    events = game.apply(1, "play JD")
    assert [e.kind for e in events] == ["play", "cancel"]
    assert game.view(2)["pending"] is None and hand(game, 1) == ["6D", "7D"]
    assert game.to_act == 2
    # two twos stacked: the red jack cancels the whole pick-up of twos
    game = deal("blackjack", ["2S 3C", "2H 6D", "JH 9D"], "4S", STOCK)
    game.apply(0, "play 2S")
    game.apply(1, "play 2H")
    game.apply(2, "play JH")
    assert game.view(0)["pending"] is None and hand(game, 2) == ["9D"] and game.to_act == 0
    # on twos with a black jack stacked, one red jack cancels the black jack
    # ("One red Jack cancels one black Jack"): the twos are still picked up
    game = deal("blackjack", ["2S 3C", "JC 6D", "JH 9D"], "4S", STOCK)
    game.apply(0, "play 2S")
    game.apply(1, "play JC")
    game.apply(2, "play JH")
    assert len(hand(game, 2)) == 1 + 2 and game.to_act == 0


def test_blackjack_runs_of_consecutive_cards_of_one_suit() -> None:
    """ "A player can place consecutive cards of the same suit down to remove more
    cards." and a blunder is "attempting a run containing one or more illegal cards" """
    game = deal("blackjack", ["6D 9D TD 3C", "5C 6C 9C 4H"], "5D", STOCK)
    assert "play 9D TD" in {str(a) for a in game.legal_actions(0)}
    blunder(game, 0, "play 6D 9D", "9D cannot follow 6D")  # not consecutive
    blunder(game, 0, "play 9D 3C", "3C cannot follow 9D")  # not of the suit
    game.apply(0, "play 9D TD")
    assert game.view(1)["top"] == "TD" and game.to_act == 1
    game = deal("blackjack", ["6D 5D 4D 3C", "5C 6C 9C 4H"], "5S", STOCK)
    game.apply(0, "play 5D 4D")  # down too, one direction a play
    assert game.view(1)["top"] == "4D"


# ----------------------------------------------------- switch and take two: blunders
def test_switch_breaking_a_rule_is_a_blunder_that_draws_two() -> None:
    """ "Failing to call "last card" (or breaking any other rule) results in a penalty
    of drawing two cards from the deck." """
    game = deal("switch", ["7H 9C 3D", "5C 6D 9D", "7C 8D 5S"], "4S", STOCK)
    assert [str(a) for a in game.legal_actions(0)] == ["draw"]  # bots never blunder
    blunder(game, 0, "play 7H", "7H does not match the 4S")
    blunder(game, 2, "play 7C", "it is not your turn")  # out of turn
    refused(game, 0, "play QH", "you do not hold QH")  # not held: refused, no penalty
    game.apply(0, "play KS")  # a penalty card drawn that plays
    assert game.to_act == 1


def test_taketwo_a_mistake_is_fixed_and_two_cards_taken() -> None:
    """ "If a player makes a mistake (e.g. places a card of the wrong suit down), they
    must fix the mistake and take two cards from the deck." """
    game = deal("taketwo", ["7H 9C 3D", "5C 6D 9D", "7C 8D 5S"], "4S", STOCK)
    blunder(game, 0, "play 7H", "7H does not match the 4S")
    assert game.to_act == 0 and len(hand(game, 0)) == 5


# ------------------------------------------------------------ the house variants
def test_black_jacks_and_twos_laid_together_as_an_option() -> None:
    """ "When placing "pick up" cards the black jacks and twos can be placed together
    giving a maximum pick up number of 18, so a move such as J 2 2 2 2 would be a valid
    and legal move." """
    hands = ["JS JC 2C 2D 2H 2S 5C", "3D 4D 5D 6D 7D 9D TD"]
    game = deal("blackjack", hands, "4S", STOCK)
    assert "cannot follow" in explain(game, 0, "play JS 2C")  # off in the preset
    game = deal("blackjack", hands, "4S", STOCK, {"pickup_together": True})
    game.apply(0, "play JS JC 2C 2D 2H 2S last")
    assert game.view(1)["pending"]["count"] == 18
    game = deal(
        "blackjack",
        ["2C 3C 5C 6C", "2D JS 2H 9H", "5D 6D 7D 9D"],
        "4C",
        STOCK,
        {"pickup_together": True},
    )
    game.apply(0, "play 2C")
    game.apply(1, "play 2D JS 2H")  # the first stacks on the two; the rest add up
    assert game.view(2)["pending"]["count"] == 2 + 2 + 5 + 2


def test_red_jacks_that_add_three_as_an_option() -> None:
    """ "Red Jacks do not cancel black Jacks, instead they can be combined with black
    Jacks. One must pick up three additional cards per red Jack." """
    opts = {"red_jacks_add": 3}
    game = deal("blackjack", ["JS 3C", "JH 6D", "JD 9D", "4C 5C"], "4S", GB_STOCK, opts)
    game.apply(0, "play JS")
    game.apply(1, "play JH")
    assert game.view(2)["pending"]["count"] == 8
    game.apply(2, "play JD")
    assert game.view(3)["pending"]["count"] == 11
    game.apply(3, "draw")
    assert len(hand(game, 3)) == 2 + 11
    # a red jack that is not laid on a black jack starts no pick-up
    game = deal("blackjack", ["JH 3C", "5H 6D"], "4H", GB_STOCK, opts)
    game.apply(0, "play JH")
    assert game.view(1)["pending"] is None


def test_a_free_chain_of_cards_each_matching_the_last_as_an_option() -> None:
    """ "Multiple cards can be placed on a single turn, where each card matches the
    previous card in rank or suit." "(for instance with the 6 of clubs on top, it would
    be possible to play 6 6 6 7 8 9 10 J J 10 9 in a single turn)" """
    chain = "6D 6H 6S 7S 8S 9S TS JS JH TH 9H"
    ten = chain.rsplit(" ", 1)[0]
    opts = {"combos": "chain", "draw_when_able": True}
    game = deal("blackjack", [ten, "3D 4D 5D 3H 4H 5H 3S 4S 5S 2D"], "6C", "9H", opts)
    game.apply(0, "draw")  # the 9H
    game.apply(1, "draw")
    assert "6D 6H" in " ".join(str(a) for a in game.legal_actions(0))
    game.apply(0, "play " + chain)
    assert game.over and game.scores[0] > 0 and game.view(1)["top"] == "9H"
    game = deal("blackjack", [ten, "3D 4D 5D 3H 4H 5H 3S 4S 5S 2D"], "6C", "9H")
    assert "cannot follow 6D" in explain(game, 0, "play 6D 6H")  # off in the preset


def test_the_cards_call_as_an_option() -> None:
    """ "If another player thinks that they can play their cards in one turn they say
    "cards". If they fail to do so, there is a penalty" and "If the player places
    their last card, but failed to say "last card" at the end of their previous turn,
    then they must pick up two cards from the remaining deck (even if the player had
    multiple cards)." """
    opts = {"cards_call": True}
    hands = ["5C 9C TC", "3D 4D 6D"]
    game = deal("blackjack", hands, "4C", STOCK, opts)
    assert "play 5C last" in {str(a) for a in game.legal_actions(0)}  # bots call
    game.apply(0, "play 5C")  # no call
    game.apply(1, "draw")
    events = game.apply(0, "play 9C TC")  # laid, but two drawn: not out
    assert [e.kind for e in events][:2] == ["play", "draw"] and len(hand(game, 0)) == 2
    assert not game.over and game.view(1)["top"] == "TC"
    # called with the play, or ("knock") before the next player acts: out
    game = deal("blackjack", hands, "4C", STOCK, opts)
    game.apply(0, "play 5C last")
    game.apply(1, "draw")
    game.apply(0, "play 9C TC")
    assert game.over and game.view(None)["finished"][0] == 0
    game = deal("blackjack", hands, "4C", STOCK, opts)
    game.apply(0, "play 5C")
    game.apply(0, "knock")
    assert game.record()["actions"][-1] == [0, "last"]
    game.apply(1, "draw")
    game.apply(0, "play 9C TC")
    assert game.over
    # too late once the next player has acted; off in the preset
    game = deal("blackjack", hands, "4C", STOCK, opts)
    game.apply(0, "play 5C")
    game.apply(1, "draw")
    refused(game, 0, "cards", "before the next player acts")
    game = deal("blackjack", hands, "4C", STOCK)
    assert "leaves you one card" in explain(game, 0, "play 5C last")
    assert Action.parse("cards") == Action.parse("last")
