"""Each limit's arithmetic: buckets, the flood guard, per-address counts, names and text."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from server.core.limits import (
    AddressBudget,
    AddressCounter,
    FloodGuard,
    NameError_,
    TokenBucket,
    Verdict,
    clean_name,
    clean_text,
    fold_name,
)


def test_bucket_allows_a_burst_then_the_rate() -> None:
    b = TokenBucket(rate=2.0, burst=4)
    assert [b.take(0.0) for _ in range(5)] == [True] * 4 + [False]
    assert b.wait_time(0.0) == pytest.approx(0.5)
    assert b.take(0.5) and not b.take(0.5)
    assert b.tokens(100.0) == 4  # never more than the burst


def test_bucket_ignores_time_going_backwards() -> None:
    b = TokenBucket(rate=1.0, burst=1)
    assert b.take(10.0)
    assert not b.take(5.0)
    assert not b.take(10.5)
    assert b.take(11.0)


@given(st.lists(st.floats(min_value=0, max_value=5), min_size=1, max_size=200))
def test_bucket_never_lets_more_through_than_burst_plus_rate_times_time(gaps: list[float]) -> None:
    rate, burst = 3.0, 5
    b = TokenBucket(rate, burst, now=0.0)
    now, passed = 0.0, 0
    for gap in gaps:
        now += gap
        passed += b.take(now)
    assert passed <= burst + rate * now + 1e-9


def test_guard_refuses_then_drops_a_flooder() -> None:
    g = FloodGuard(rate=10, burst=10, penalty_seconds=1, drop_after=5)
    verdicts = [g.check(0.0) for _ in range(20)]
    assert verdicts[:10] == [Verdict.OK] * 10
    assert verdicts[10:14] == [Verdict.REFUSE] * 4
    assert verdicts[14:] == [Verdict.DROP] * 6
    assert g.check(1000.0) is Verdict.DROP  # dropped stays dropped


def test_guard_penalty_refuses_even_with_tokens_back() -> None:
    g = FloodGuard(rate=100, burst=1, penalty_seconds=2, drop_after=100)
    assert g.check(0.0) is Verdict.OK
    assert g.check(0.0) is Verdict.REFUSE
    assert g.check(1.0) is Verdict.REFUSE  # tokens are back, the penalty is not over
    assert g.retry_after(1.0) == pytest.approx(2.0)  # the refusal at 1.0 extended it
    assert g.check(3.5) is Verdict.OK


def test_guard_forgives_strikes_after_good_behaviour() -> None:
    g = FloodGuard(rate=1, burst=1, penalty_seconds=0.5, drop_after=3, forgive_seconds=10)
    assert g.check(0.0) is Verdict.OK
    assert g.check(0.0) is Verdict.REFUSE
    assert g.check(0.1) is Verdict.REFUSE
    assert g.strikes == 2
    assert g.check(30.0) is Verdict.OK  # three quiet periods forgive both strikes
    assert g.strikes == 0


def test_a_steady_typist_is_never_refused() -> None:
    g = FloodGuard(rate=5, burst=10, penalty_seconds=2, drop_after=20)
    assert all(g.check(i * 0.25) is Verdict.OK for i in range(10_000))


def test_address_counter() -> None:
    c = AddressCounter(limit=3)
    assert all(c.acquire("a") for _ in range(3))
    assert not c.acquire("a")
    assert c.acquire("b")
    assert len(c) == 4
    c.release("a")
    assert c.acquire("a") and not c.acquire("a")
    for _ in range(3):
        c.release("a")
    c.release("b")
    assert len(c) == 0 and not c.counts
    unlimited = AddressCounter(limit=0)
    assert all(unlimited.acquire("x") for _ in range(1000))


def test_an_address_budget_is_one_bucket_per_address_and_bounded() -> None:
    budget = AddressBudget(rate=1.0, burst=3, exempt=("127.0.0.1",), max_keys=2)
    assert [budget.take("10.0.0.1", 0.0) for _ in range(4)] == [True] * 3 + [False]
    assert budget.wait_time("10.0.0.1", 0.0) == pytest.approx(1.0)
    assert budget.take("10.0.0.2", 0.0)  # another address has its own
    assert all(budget.take("127.0.0.1", 0.0) for _ in range(100))  # exempt: never refused
    assert len(budget) == 2  # the exempt one is not even kept
    assert budget.take("10.0.0.3", 0.0) and len(budget) == 2  # 10.0.0.1, least recent, forgotten
    assert budget.take("10.0.0.1", 0.0)  # and starts again with a full burst


@pytest.mark.parametrize(
    "raw, why",
    [
        ("", "empty"),
        ("   ", "empty"),
        ("x" * 25, "at most"),
        ("ann\x00", "only letters"),
        ("a\u202eb", "only letters"),
        ("ann lee", "only letters"),
        ("_ann", "starts with"),
        ("ann\nlee", "only letters"),
    ],
)
def test_bad_names_are_refused_with_a_reason(raw: str, why: str) -> None:
    with pytest.raises(NameError_, match=why):
        clean_name(raw)


def test_names_fold_for_collisions() -> None:
    assert clean_name("Zoë") == "Zoë"
    assert fold_name("ANN") == fold_name("ann") == fold_name(clean_name("Ａｎｎ"))
    assert clean_name("x" * 10, max_chars=10) == "x" * 10


@given(st.text(max_size=300), st.integers(min_value=0, max_value=200))
def test_clean_text_has_no_control_characters_and_is_bounded(raw: str, limit: int) -> None:
    out = clean_text(raw, limit)
    assert len(out) <= limit
    assert "\n" not in out and "\x1b" not in out and "\r" not in out
    assert all(c == " " or c.isprintable() for c in out)
    assert out == out.strip() and "  " not in out


@given(st.text(max_size=100))
def test_clean_name_output_is_clean_or_refused(raw: str) -> None:
    try:
        name = clean_name(raw)
    except NameError_:
        return
    assert 1 <= len(name) <= 24 and name[0].isalnum()
    assert all(c.isalnum() or c in "_-." for c in name)
    assert clean_name(name) == name
