"""A blunder's reason is read as the rest of the line is: its cards drawn as cards."""

from __future__ import annotations

from typing import Any

from protocol.describe import describe_event

BLUNDER: dict[str, Any] = {"kind": "blunder", "seat": 0, "cards": ["9D"],
           "why": "9D does not match the AH on the pile"}  # fmt: skip


def fragment_list_to_text(line: list[tuple[str, str]]) -> str:
    return "".join(text for _style, text in line)


def test_the_cards_of_a_blunders_reason_are_drawn_as_cards() -> None:
    line = fragment_list_to_text(describe_event(BLUNDER, ["eve", "bot 1"]))
    assert line == "eve blunders with 9♦ (9♦ does not match the A♥ on the pile)", line


def test_in_ascii_they_stay_as_typed() -> None:
    line = fragment_list_to_text(describe_event(BLUNDER, ["eve", "bot 1"], ascii_only=True))
    assert line == "eve blunders with 9D (9D does not match the AH on the pile)", line


def test_words_in_capitals_that_are_no_card_are_left_alone() -> None:
    ev = {**BLUNDER, "why": "JK ends it; AS is a card, ASK is not, and neither is QHX"}
    line = fragment_list_to_text(describe_event(ev, ["eve"]))
    assert line.endswith("(JK ends it; A♠ is a card, ASK is not, and neither is QHX)"), line
