"""The message model: frozen, validated when built, a repr that rebuilds it."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from protocol_strategies import messages

import protocol
from protocol import messages as m
from protocol.errors import LocalProtocolError
from protocol.fields import check_legal


@pytest.mark.parametrize(
    ("make", "code"),
    [
        (lambda: m.Join(table="two words"), "bad_message"),
        (lambda: m.Join(table="t1", seat=True), "bad_message"),  # a bool is not a seat
        (lambda: m.Join(table="t1", seat=64), "bad_message"),
        (lambda: m.Join(table="#1"), "bad_message"),
        (lambda: m.Join(table="-"), "bad_message"),
        (lambda: m.Join(table="a=b"), "bad_message"),
        (lambda: m.Say(table="t1", text="two\nlines"), "bad_message"),
        (lambda: m.Say(table="t1", text="x" * 4001), "bad_message"),
        (lambda: m.Resume(table="t1", token="x", last_seq=-1), "bad_message"),
        (lambda: m.Act(table="t1", action="mvoe c4"), "bad_action"),
        (lambda: m.Snapshot("t1", 0, "sleeping", {}), "bad_message"),
        (lambda: m.Snapshot("t1", 0, "waiting", {1: 2}), "bad_message"),
        (lambda: m.TableEvent("t1", 1, {"seat": 2}), "bad_message"),  # no kind
        (lambda: m.Turn("t1", 1, 0, legal=("a | b",)), "bad_message"),
        (lambda: m.Turn("t1", 1, 0, clock=-1), "bad_message"),
        (lambda: m.Hello(versions=(0,)), "bad_message"),
        (lambda: m.Ok(id=-1), "bad_message"),
        (lambda: m.Record("t1", {}, full="yes"), "bad_message"),
    ],
)
def test_a_bad_field_raises_at_once(make, code):
    with pytest.raises(LocalProtocolError) as info:
        make()
    assert info.value.code == code


@given(messages())
def test_repr_rebuilds_and_messages_are_frozen(msg):
    assert eval(repr(msg), vars(protocol)) == msg
    field = msg._wire[0][0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(msg, field, getattr(msg, field))


def test_to_map_leaves_out_none_and_from_map_fills_defaults():
    msg = m.Snapshot("t1", 3, "waiting", {})
    data = msg.to_map()
    assert "seat" not in data and "id" not in data and data["legal"] == []
    assert m.from_map({"type": "snapshot", "table": "t1", "seq": 3, "state": "waiting", "view": {}})
    assert m.from_map(data) == msg


def test_lists_become_tuples_and_actions_are_normalised():
    msg = m.Turn("t1", 1, 0, legal=["play QH"])
    assert msg.legal == ("play QH",)
    assert m.Act("t1", "PLAY 10h last").action == "play TH last"


@pytest.mark.parametrize("cls", list(m.TYPES.values()), ids=list(m.TYPES))
def test_every_default_passes_its_own_check(cls):
    """Decoding fills a missing optional field with its default unchecked, so
    every default must be a value its checker accepts unchanged."""
    for name, check in cls._checks:
        f = next(f for f in dataclasses.fields(cls) if f.name == name)
        if f.default is not dataclasses.MISSING:
            assert check(f.default) == f.default, (cls.__name__, name)
        elif f.default_factory is not dataclasses.MISSING:
            value = f.default_factory()
            assert check(value) == value, (cls.__name__, name)


def test_decoding_reports_the_first_missing_field_before_a_bad_one():
    got = m.from_map({"type": "event", "table": "two words", "id": 4})
    assert isinstance(got, m.InvalidMessage)
    assert (got.code, got.id) == ("bad_message", 4)
    assert "missing field 'seq'" in got.text
    got = m.from_map({"type": "event", "table": "two words", "seq": 1, "event": {"kind": "x"}})
    assert isinstance(got, m.InvalidMessage) and got.text.startswith("TableEvent.table: ")


def _legal_by_the_rule(items: list) -> bool:
    """The rule for a list of legal actions, item by item, as the spec states it."""
    return all(
        type(a) is str
        and a != ""
        and a.isprintable()
        and "|" not in a
        and a[0] != " "
        and a[-1] != " "
        for a in items
    )


_NOTATION_CHARS = st.sampled_from(["a", "Q", "|", " ", "\n", "\x85", "\u2028", "é"])


@given(
    st.lists(
        st.one_of(st.text(_NOTATION_CHARS, max_size=6), st.integers(), st.none(), st.binary()),
        max_size=5,
    )
)
@example(["play QH", "a|b"]).via("an item holding the separator")
@example(["", "draw"]).via("an empty item")
@example(["draw", "play 7H "]).via("a space at an item's end")
def test_legal_lists_are_checked_by_the_rule_item_by_item(items: list) -> None:
    """check_legal checks the list in a few whole-list scans; it must agree with the rule."""
    try:
        got = check_legal(items)
    except LocalProtocolError:
        assert not _legal_by_the_rule(items)
    else:
        assert _legal_by_the_rule(items) and got == tuple(items)
