"""Hypothesis strategies for every wire message, built from each field's kind.

``messages()`` draws any message; ``messages(text=True)`` only ones whose
fields the text codec writes back exactly (client free text is stripped by
the command parser, a hello line names no client, help goes out one line per
message). Each field's strategy is looked up by its annotation (the aliases
in ``protocol.fields``), so a new message type is covered without edits here;
a field kind without a strategy fails loudly.
"""

from __future__ import annotations

import typing
from typing import Any

from hypothesis import strategies as st

from protocol import fields as f
from protocol import messages as m
from protocol.commands import HOST_SETTINGS

WORD_ALPHABET = st.characters(
    blacklist_categories=("Cs", "Cc", "Zs", "Zl", "Zp"), blacklist_characters="=\x85"
)
words = st.text(WORD_ALPHABET, min_size=1, max_size=12).filter(
    lambda w: w[0] != "#" and w != "-" and not any(c.isspace() for c in w)
)
TEXT_ALPHABET = st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp"))
texts = st.text(TEXT_ALPHABET, max_size=40).filter(lambda t: not f.CONTROL.search(t))
stripped = texts.map(str.strip)
nonempty_stripped = stripped.filter(bool)

scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(1 << 63), (1 << 64) - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20)
)
keys = st.text(max_size=8)
payload_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=4),
    max_leaves=12,
)
payloads = st.dictionaries(keys, payload_values, max_size=5)
option_keys = st.text(WORD_ALPHABET, min_size=1, max_size=8).filter(
    lambda k: not any(c.isspace() for c in k)
)
options = st.dictionaries(option_keys, payload_values, max_size=4)

cards = st.sampled_from(["QH", "7D", "AS", "TC", "2H", "JK", "KD"])
notations = st.one_of(
    st.sampled_from(
        [
            "draw",
            "pass",
            "last",
            "concede",
            "vote end",
            "suit hearts",
            "suit clubs",
            "ally west",
            "ally 2",
        ]
    ),
    st.builds(lambda f_, r: f"move {f_}{r}", st.sampled_from("abcdef"), st.sampled_from("123456")),
    st.builds(
        lambda cs, last: " ".join(["play", *cs, *(["last"] if last else [])]),
        st.lists(cards, min_size=1, max_size=3),
        st.booleans(),
    ),
)
legal_items = st.text(TEXT_ALPHABET, min_size=1, max_size=15).filter(
    lambda t: "|" not in t and t.isprintable() and t == t.strip()
)
events = st.builds(
    lambda kind, rest: {**rest, "kind": kind},
    st.text(max_size=10) | st.sampled_from(["play", "draw", "move", "deal"]),
    payloads,
)

_BY_ALIAS: dict[Any, st.SearchStrategy[Any]] = {
    f.Word: words,
    f.OptWord: st.none() | words,
    f.Text: texts,
    f.Id: st.none() | st.integers(0, f.MAX_ID),
    f.Seq: st.integers(0, f.MAX_SEQ),
    f.Seat: st.integers(0, f.MAX_SEAT),
    f.OptSeq: st.none() | st.integers(0, f.MAX_SEQ),
    f.OptSeat: st.none() | st.integers(0, f.MAX_SEAT),
    f.Count: st.integers(0, f.MAX_COUNT),
    f.Signed: st.integers(-f.MAX_COUNT, f.MAX_COUNT),
    f.OptCount: st.none() | st.integers(0, f.MAX_COUNT),
    f.Bool: st.booleans(),
    f.Clock: st.none() | st.integers(0, 3600) | st.floats(0, 1e9, allow_nan=False),
    f.State: st.sampled_from(f.TABLE_STATES),
    f.Payload: payloads,
    f.OptPayload: st.none() | payloads,
    f.ViewPayload: payloads,
    f.OptView: st.none() | payloads,
    f.EventPayload: events,
    f.Payloads: st.lists(payloads, max_size=3).map(tuple),
    f.Versions: st.lists(st.integers(1, 0xFFFF), max_size=4).map(tuple),
    f.Notation: notations,
    f.Legal: st.lists(legal_items, max_size=4).map(tuple),
    f.Lines: st.lists(texts, max_size=3).map(tuple),
    f.Players: st.lists(st.none() | words, max_size=4).map(tuple),
    f.Seats: st.lists(st.integers(0, f.MAX_SEAT), max_size=4).map(tuple),
    f.OptText: st.none() | texts,
    f.Choices: st.lists(
        st.tuples(texts, st.lists(st.tuples(legal_items, texts), max_size=3).map(tuple)),
        max_size=3,
    ).map(tuple),
}

#: Keyed by the checker in each alias's annotation: that object is what a
#: message class's resolved type hint carries.
FIELD_STRATEGIES = {alias.__metadata__[0]: strategy for alias, strategy in _BY_ALIAS.items()}

#: Names as players claim them (letters and digits), for fields written inside a value.
plain_names = st.from_regex(r"[a-z][a-z0-9]{0,7}", fullmatch=True)

# Field overrides for text mode: what the text codec writes back exactly.
TEXT_OVERRIDES: dict[tuple[type[m.Message], str], st.SearchStrategy[Any]] = {
    (m.Say, "text"): nonempty_stripped,
    (m.Shout, "text"): nonempty_stripped,
    (m.AdminNotice, "text"): nonempty_stripped,
    (m.AdminCloseTable, "reason"): stripped,
    (m.AdminCloseTables, "reason"): stripped,
    (m.CloseTable, "reason"): stripped,
    (m.AdminKick, "reason"): stripped,
    (m.AdminBan, "reason"): stripped,
    (m.AdminShutdown, "reason"): stripped,
    (m.Hello, "client"): st.just("text"),
    (m.Hello, "protocol"): st.just(m.PROTOCOL),
    (m.Hello, "versions"): st.lists(st.integers(1, 0xFFFF), min_size=1, max_size=4).map(tuple),
    (m.HelpText, "lines"): texts.map(lambda t: (t,)),
    # an optional line in words: none, or some words (an empty one is written as none)
    (m.Presence, "text"): st.none() | texts.filter(bool),
    (m.Watcher, "text"): st.none() | texts.filter(bool),
    (m.CreateTable, "options"): options,
    (m.SetOptions, "options"): st.dictionaries(option_keys, payload_values, min_size=1, max_size=4),
    # a tournament's format is one of two words; the pairs kept apart are two plain names
    (m.CreateTournament, "format"): st.sampled_from(["swiss", "arena"]),
    # a table option named as one of the tournament's own settings would be read as that
    (m.CreateTournament, "options"): options.filter(lambda d: not set(d) & HOST_SETTINGS),
    (m.CreateTournament, "apart"): st.lists(
        st.tuples(plain_names, plain_names).map(" ".join), max_size=3
    ).map(tuple),
}


def message_strategy(cls: type[m.Message], text: bool = False) -> st.SearchStrategy[m.Message]:
    """Any valid message of class ``cls``."""
    hints = typing.get_type_hints(cls, include_extras=True)
    kwargs = {}
    for name, _required, _default in cls._wire:
        strategy = FIELD_STRATEGIES[hints[name].__metadata__[0]]
        if text:
            strategy = TEXT_OVERRIDES.get((cls, name), strategy)
        kwargs[name] = strategy
    return st.builds(cls, **kwargs)


ALL_CLASSES = list(m.TYPES.values())


def messages(text: bool = False) -> st.SearchStrategy[m.Message]:
    return st.one_of([message_strategy(cls, text) for cls in ALL_CLASSES])
