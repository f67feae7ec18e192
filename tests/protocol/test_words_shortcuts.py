"""The server's shortcuts to its words say exactly what the long way says: a play's
sentence written straight to text (``describe._play_text``) against its fragments
(``describe_event``), and ``choices`` with its kept labels against the grouping done
afresh (``group_of`` and the headings, as ``protocol.legal`` documents them)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from protocol import legal
from protocol.describe import SENTENCE_FIELDS, describe_event, describe_text
from protocol.legal import GROUPS, OTHER_FIRST, choices, group_of

CARDS = ["2C", "TD", "QH", "AS", "JK", "9D", "KC"]
NAMES = ["ann", "bob", None, "\u05d3\u05e0\u05d4"]


def _plays(rng: random.Random) -> list[dict[str, Any]]:
    out = []
    for _ in range(400):
        ev: dict[str, Any] = {"kind": "play", "seat": rng.choice([0, 1, 2, 3, 7, None])}
        shape = rng.randrange(3)
        if shape == 0:
            ev["cards"] = rng.sample(CARDS, rng.randrange(0, 4))
        elif shape == 1:
            ev["card"] = rng.choice([*CARDS, ""])
        extras = {"how": ["joker", "run", None], "stop": [True, False],
                  "points": [0, 3, -2, True, "x"], "left": [True, False, 0]}  # fmt: skip
        for key, values in extras.items():
            if rng.random() < 0.4:
                ev[key] = rng.choice(values)
        out.append(ev)
    return out


@pytest.mark.parametrize("ascii_only", [False, True])
def test_a_plays_text_is_its_fragments_joined(ascii_only: bool) -> None:
    for ev in _plays(random.Random(7)):
        long_way = "".join(text for _style, text in describe_event(ev, NAMES, ascii_only))
        assert describe_text(ev, NAMES, ascii_only) == long_way, ev


def test_a_play_said_in_words() -> None:
    ev = {"kind": "play", "seat": 1, "cards": ["QH", "JK"], "points": -3, "left": True}
    assert describe_text(ev, NAMES) == "bob plays Q♥ JK (-3) and is out"


def _afresh(actions: list[str]) -> legal.Choices:
    """The grouping as documented, done from nothing: groups in ``GROUPS`` order, the
    verb cut from each label, the other moves headed "You may" when nothing precedes."""
    out: list[tuple[str, tuple[tuple[str, str], ...]]] = []
    for group, heading, strip in GROUPS:
        items = [a for a in actions if group_of(a) == group]
        if items:
            if group == "other" and not out:
                heading = OTHER_FIRST
            pairs = tuple(
                (a, a[len(strip) :] if strip and a.startswith(strip) else a) for a in items
            )
            out.append((heading, pairs))
    return tuple(out)


def test_choices_with_kept_labels_are_the_grouping_afresh() -> None:
    rng = random.Random(11)
    words = ["play 7H", "play 7H 7D", "draw", "pass", "suit hearts", "move c4", "ally 2",
             "last", "Play 9S", "concede", "PLAY QH", "move"]  # fmt: skip
    for _ in range(300):
        actions = rng.sample(words, rng.randrange(0, 6))
        assert choices(actions) == _afresh(actions), actions
        assert choices(actions) == _afresh(actions), actions  # again, from what was kept


def test_the_kept_labels_start_again_when_full(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(legal, "_PARTS_KEPT", 3)
    monkeypatch.setattr(legal, "_PARTS", {})
    for n in range(10):
        assert choices([f"play {n}C", "draw"]) == _afresh([f"play {n}C", "draw"])
        assert len(legal._PARTS) <= 3


@pytest.mark.parametrize("kind", sorted(SENTENCE_FIELDS))
def test_a_sentence_reads_only_the_fields_it_declares(kind: str) -> None:
    """Two presentations that agree on a kind's ``SENTENCE_FIELDS`` say the same sentence
    (the server says a deal's once, to every seat, each shown its own hand)."""
    rng = random.Random(3)
    values: list[Any] = [None, 0, 1, 2, 3, 7, "QH", "TD", "JK", ""]
    for _ in range(200):
        read = {key: rng.choice(values[:6] if key != "top" else values[6:])
                for key in SENTENCE_FIELDS[kind] if rng.random() < 0.8}  # fmt: skip
        shown = {"kind": kind, **read}
        other = {"kind": kind, **read}
        for key in ("seat", "hand", "cards", "card", "count", "hand_sizes", "reason", "to"):
            if rng.random() < 0.5:
                other[key] = rng.choice(values)
        assert describe_text(shown, NAMES) == describe_text(other, NAMES), other
