"""The three boards drawn from real engine games, checked for what a person reads off them."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from prompt_toolkit.formatted_text import fragment_list_to_text

import engine
from client.terminal.boards import BoardContext, render_board
from protocol.cards import card_text

GAMES = [("abbott", 4), ("abbott", 2), ("switch", 4), ("j28", 3), ("kilodney", 6)]


def play(ruleset: str, seats: int, seed: int, steps: int) -> engine.Game:
    game = engine.new_game(ruleset, seats=seats, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.over:
            break
        seat = game.to_act
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    return game


def text(view: dict, **ctx: object) -> str:
    return fragment_list_to_text(render_board(view, BoardContext(**ctx)))  # type: ignore[arg-type]


@given(
    game=st.sampled_from(GAMES),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 80),
    width=st.sampled_from([52, 56, 80]),
)
def test_every_board_fits_its_width_and_ascii_is_ascii(
    game: tuple[str, int], seed: int, steps: int, width: int
) -> None:
    g = play(*game, seed, steps)
    for seat in [*range(g.seats), None]:
        view = g.view(seat)
        drawn = text(view, width=width, names=["ann", "bob", "cy"])
        assert all(len(line) <= width for line in drawn.splitlines())
        plain = text(view, width=width, ascii_only=True)
        assert plain.isascii(), plain


@given(seed=st.integers(0, 10_000), steps=st.integers(0, 60))
def test_abbott_squares_read_off_the_screen(seed: int, steps: int) -> None:
    """Each rank's row shows, file by file, exactly the grid's cards and the pieces on
    their squares, so `move c4` means what the screen shows at c4."""
    g = play("abbott", 4, seed, steps)
    view = g.view(None)
    lines = text(view, ascii_only=True).splitlines()
    assert lines[0].split()[:6] == list("abcdef")
    pieces = {sq: view["seat_names"][s][0] for s, sq in enumerate(view["pieces"])}
    for r in range(6):
        line = lines[6 - r]
        assert line[:3] == f" {r + 1} "
        for f, file in enumerate("abcdef"):
            cell = line[3 + 5 * f : 3 + 5 * f + 4]  # piece, ":" or " ", card; then a gap
            card = view["grid"][r][f]
            piece = pieces.get(f"{file}{r + 1}", " ")
            assert cell[2:] == (card or " ."), (file, r + 1, line)
            assert cell[:2] == piece + (":" if card and piece != " " else " "), (file, line)


def test_an_ascii_piece_is_apart_from_the_card_under_it() -> None:
    """Before: South on the five of spades read `S5S`, the piece run into the card."""
    g = engine.new_game("abbott", seats=2, seed=3)
    view = g.view(0)
    square = view["pieces"][0]
    row, file = int(square[1]) - 1, "abcdef".index(square[0])
    card = view["grid"][row][file]
    assert card, "the deal leaves a card under South's piece"
    drawn = text(view, ascii_only=True, width=56)
    assert f"S:{card} " in drawn and f"S{card}" not in drawn, drawn


def test_abbott_names_each_best_hand_and_marks_targets() -> None:
    g = play("abbott", 4, 3, 40)
    view = g.view(0)
    drawn = text(view, names=["ann", "bob", "cy", "di"])
    for seat, best in enumerate(view["best"]):
        if view["collections"][seat]:
            assert best["category"] in drawn
    legal = [str(a) for a in g.legal_actions(g.to_act)]
    marked = render_board(view, BoardContext(legal=legal))
    targets = {a.split()[1] for a in legal if a.startswith("move ")}
    assert len([f for f in marked if "square.target" in f[0] and f[1].strip()]) >= len(targets)


def test_shedding_hand_sizes_pile_and_own_hand() -> None:
    g = play("switch", 4, 11, 9)
    view = g.view(1)
    drawn = text(view, names=["ann", "bob", "cy", "di"])
    assert f"Your hand ({len(view['hand'])})" in drawn
    for card in view["hand"]:
        assert card_text(card) in drawn
    assert card_text(view["top"]) in drawn
    for seat, size in enumerate(view["hand_sizes"]):
        name = ["ann", "bob", "cy", "di"][seat]
        assert re.search(rf"{name}( \(you\))? {size}\b", drawn), (name, size, drawn)
    spectator = text(g.view(None))
    assert "hands are hidden" in spectator and "Your hand" not in spectator


def test_shedding_pending_nominated_and_direction() -> None:
    view = {
        "family": "shedding",
        "preset": "blackjack",
        "viewer": 0,
        "to_act": 0,
        "seats": 3,
        "hand": ["AS"],
        "hand_sizes": [1, 4, 2],
        "top": "JC",
        "pile_size": 6,
        "nominated": "H",
        "stock": 10,
        "pending": {"kind": "pickup", "count": 10},
        "direction": -1,
        "finished": [],
        "announced": [0],
        "awaiting": "answer the pick-up",
    }
    drawn = text(view, names=["ann", "bob", "cy"])
    assert "Suit to follow: ♥ hearts" in drawn
    assert "Pending: pick up 10" in drawn
    assert "anticlockwise" in drawn
    assert "ann (you) 1 last card" in drawn
    assert "You must answer the pick-up of 10" in drawn


@given(seed=st.integers(0, 10_000), steps=st.integers(0, 120))
def test_kilodney_never_shows_a_hidden_card(seed: int, steps: int) -> None:
    """A spectator's board and another seat's board show no card the view does not hold:
    every card on the screen is the pile top or the viewer's own."""
    g = play("kilodney", 5, seed, steps)
    for seat in [None, 0, 3]:
        view = g.view(seat)
        drawn = text(view, ascii_only=True, width=80)
        shown = set(re.findall(r"\b(?:[2-9TJQKA][CDHS]|JK)\b", drawn))
        allowed = set(view.get("hand") or []) | ({view["top"]} if view.get("top") else set())
        assert shown <= allowed, (shown - allowed, drawn)


@pytest.mark.parametrize("seats", [4, 9])
def test_kilodney_who_is_in_and_scores(seats: int) -> None:
    g = play("kilodney", seats, 5, 30)
    view = g.view(0)
    drawn = text(view, width=52)
    assert drawn.count("score") + drawn.count("pt") >= seats
    for seat in view.get("knocked_out") or []:
        assert "KO" in drawn or "knocked out" in drawn, seat


def test_a_pile_of_one_reads_one_card() -> None:
    """Before: "Pile  4♠  (1 cards)" at the first deal."""
    view = engine.new_game("switch", seats=2, seed=1).view(0)
    assert view["pile_size"] == 1
    drawn = fragment_list_to_text(render_board(view, BoardContext(names=["a", "b"], width=80)))
    assert "(1 card)" in drawn and "(1 cards)" not in drawn


@pytest.mark.parametrize("width", [52, 80])
def test_kilodney_counts_one_card_as_one_card(width: int) -> None:
    """Before: a player down to his last card read " 1 cards"."""
    for seed in range(40):
        g = play("kilodney", 4, seed, 0)
        while not g.over and 1 not in g.view(0)["hand_sizes"]:
            seat = g.to_act
            g.apply(seat, random.Random(seed).choice(g.legal_actions(seat)))
        view = g.view(0)
        if 1 in view["hand_sizes"]:
            drawn = text(view, width=width)
            assert " 1 card " in drawn + " " and " 1 cards" not in drawn, drawn
            return
    raise AssertionError("no deal left a player with one card")


@pytest.mark.parametrize(
    ("top", "said"), [("TD", "a 10"), ("AS", "an ace"), ("KH", "a king"), ("8C", "an 8")]
)
def test_kilodney_says_the_rank_to_follow_as_a_word(top: str, said: str) -> None:
    """Before: "Follow: ♦ diamonds or a T": the notation's letter, not a word one reads."""
    view = play("kilodney", 4, 1, 0).view(0)
    view.update(top=top, running=True, leader=1)
    drawn = text(view, names=["a", "b", "c", "d"], width=80)
    follow = next(line for line in drawn.splitlines() if line.startswith("Follow:"))
    assert f"or {said}, or play a joker" in follow, follow


def test_ascii_hand_sizes_are_a_plain_list() -> None:
    """Before: "Hands: > a (you) 7 , b 7 , c 7": the dot's stand-in had a space before it."""
    view = engine.new_game("switch", seats=3, seed=2).view(0)
    drawn = text(view, names=["a", "b", "c"], width=80, ascii_only=True)
    hands = next(line for line in drawn.splitlines() if line.startswith("Hands:"))
    assert " ," not in hands, hands
    assert re.search(r"a \(you\) \d+, (> )?b \d+, (> )?c \d+$", hands), hands


def test_a_hand_wrapped_goes_on_at_its_indent_whatever_suit_the_line_starts_with() -> None:
    """A suit's gap is between suits on a line, not at the start of the next one: the
    second line of a hand starts at the same column whether it starts a suit or not."""
    from client.terminal.boards.common import wrap_cards
    from protocol.cards import card_fragments

    def line2(hand: list[str], gaps: list[bool]) -> str:
        cards = [
            [*([("", " ")] if g else []), *card_fragments(c)]
            for c, g in zip(hand, gaps, strict=True)
        ]
        lines = wrap_cards([("", "Hand: ")], cards, 22, 2)
        return fragment_list_to_text(lines[1])

    hand = ["5C", "7C", "JC", "2D", "6D", "JK"]
    starts_a_suit = line2(hand, [False, False, False, True, False, True])
    goes_on = line2(hand, [False, False, False, True, False, False])
    assert starts_a_suit.index("JK") == goes_on.index("JK") == 3, (starts_a_suit, goes_on)
