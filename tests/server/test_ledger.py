"""The chip ledger: balanced transactions, prizes held, paid, split and returned, restarts."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from support import pay_prize, set_prize, soak

from server.players.chip_audit import audit_file
from server.players.ledger import (
    MINT,
    ChipError,
    Ledger,
    Transaction,
    held_account,
    split_prize,
    winning_seats,
)
from server.store.base import MemoryStore
from server.store.sqlite import SQLiteStore


def sqlite_ledger(path: Path) -> Ledger:
    """A ledger on a fresh ``SQLiteStore`` of ``path`` (a server starting)."""
    store = SQLiteStore(path)
    return Ledger(store, store.load().ledger)


async def test_new_names_get_1000_from_the_mint() -> None:
    ledger = Ledger(MemoryStore())
    assert await ledger.open_account("ann")
    assert not await ledger.open_account("ann")  # only once
    assert ledger.balance("ann") == 1000
    assert ledger.balance(MINT) == -1000
    ledger.check()
    with pytest.raises(ChipError):
        await ledger.open_account("@mint2")


async def test_prize_is_held_then_paid_to_the_winner() -> None:
    ledger = Ledger(MemoryStore())
    for n in ("ann", "bob"):
        await ledger.open_account(n)
    prize = await set_prize(ledger, 7, "ann", 100)
    assert prize is not None and prize.amount == 100
    assert ledger.balance("ann") == 900 and ledger.balance(held_account(7)) == 100
    ledger.check()
    assert await pay_prize(ledger, 7, ["bob"]) == {"bob": 100}
    assert ledger.balance("bob") == 1100 and ledger.prize(7) is None
    assert await pay_prize(ledger, 7, ["bob"]) == {}  # paid once, never twice
    ledger.check()
    entries = await ledger.statement("bob")
    assert [(e.reason, e.delta, e.balance) for e in entries] == [
        ("prize won", 100, 1100),
        ("welcome", 1000, 1000),
    ]


async def test_changing_the_prize_returns_the_old_one_in_one_transaction() -> None:
    ledger = Ledger(MemoryStore())
    await ledger.open_account("ann")
    await ledger.open_account("bob")
    await set_prize(ledger, 1, "ann", 300)
    await set_prize(ledger, 1, "ann", 1000)  # ann's whole balance once the 300 is back
    assert ledger.balance("ann") == 0 and ledger.prize(1).amount == 1000  # type: ignore[union-attr]
    await set_prize(ledger, 1, "bob", 50)  # the master role was handed on: ann is paid back
    assert ledger.balance("ann") == 1000 and ledger.balance("bob") == 950
    assert await set_prize(ledger, 1, "bob", 0) is None
    assert ledger.balance("bob") == 1000 and ledger.prize(1) is None
    ledger.check()


async def test_a_prize_beyond_the_balance_is_refused_and_changes_nothing() -> None:
    ledger = Ledger(MemoryStore())
    await ledger.open_account("ann")
    for bad in (1001, -1, True, 2.5):
        with pytest.raises(ChipError):
            await set_prize(ledger, 3, "ann", bad)  # type: ignore[arg-type]
    with pytest.raises(ChipError):
        await set_prize(ledger, 3, "nobody", 5)
    assert ledger.balance("ann") == 1000 and ledger.prize(3) is None
    ledger.check()


async def test_abandoned_game_returns_the_prize() -> None:
    ledger = Ledger(MemoryStore())
    await ledger.open_account("ann")
    await set_prize(ledger, 2, "ann", 250)
    assert await ledger.return_prize(2) == 250
    assert await ledger.return_prize(2) == 0
    assert ledger.balance("ann") == 1000
    ledger.check()


def test_split_rule() -> None:
    assert split_prize(10, ["a", "b", "c"], "f") == {"a": 4, "b": 3, "c": 3}
    assert split_prize(2, ["a", "b", "c"], "f") == {"a": 1, "b": 1}
    assert split_prize(9, [None, None], "f") == {"f": 9}
    assert split_prize(9, ["a", "a"], "f") == {"a": 9}  # one name holding two winning seats
    assert winning_seats([0, 0]) == [0, 1] and winning_seats([]) == []


def test_an_unbalanced_transaction_cannot_be_built() -> None:
    with pytest.raises(ChipError):
        Transaction(1, 0.0, "oops", None, None, (("ann", 5),), ())
    with pytest.raises(ChipError):
        Transaction(1, 0.0, "oops", None, None, (("ann", 0), ("bob", 0)), ())
    with pytest.raises(ChipError):
        Transaction(1, 0.0, "oops", None, None, (), ())


async def _random_history(
    make_ledger, rng: random.Random, steps: int, restarts: bool
) -> tuple[Ledger, dict[str, int]]:
    """Random opens, prizes, wins (shared and bot), abandonments and restarts against a model."""
    ledger = make_ledger()
    model: dict[str, int] = {}
    held: dict[int, tuple[str, int]] = {}
    names = [f"p{i}" for i in range(8)]
    for _ in range(steps):
        op = rng.random()
        if op < 0.15:
            name = rng.choice(names)
            if await ledger.open_account(name):
                model[name] = 1000
        elif op < 0.45 and model:
            table, funder = rng.randrange(6), rng.choice(sorted(model))
            old = held.get(table)
            back = old[1] if old and old[0] == funder else 0
            amount = rng.randrange(0, model[funder] + back + 20)
            try:
                await set_prize(ledger, table, funder, amount)
            except ChipError:
                assert amount > model[funder] + back
                continue
            if old:
                model[old[0]] += old[1]
                held.pop(table)
            if amount:
                model[funder] -= amount
                held[table] = (funder, amount)
        elif op < 0.7 and held:
            table = rng.choice(sorted(held))
            funder, amount = held.pop(table)
            winners = [rng.choice([*sorted(model), None]) for _ in range(rng.randint(1, 4))]
            for who, got in split_prize(amount, winners, funder).items():
                model[who] += got
            await pay_prize(ledger, table, winners)
        elif op < 0.85 and held:
            table = rng.choice(sorted(held))
            funder, amount = held.pop(table)
            model[funder] += amount
            await ledger.return_prize(table)
        elif restarts:
            await ledger.store.aclose()
            ledger = make_ledger()
            if rng.random() < 0.3:  # some tables did not survive the restart
                gone = [t for t in held if rng.random() < 0.5]
                await ledger.return_orphans(set(held) - set(gone))
                for t in gone:
                    funder, amount = held.pop(t)
                    model[funder] += amount
        ledger.check()
        assert {n: ledger.balance(n) for n in model} == model
        assert {t: (p.funder, p.amount) for t, p in ledger.prizes().items()} == held
        assert sum(model.values()) + sum(a for _, a in held.values()) == 1000 * len(model)
    return ledger, model


@pytest.mark.parametrize("seed", range(3))
async def test_conservation_in_memory_with_restarts(seed: int) -> None:
    store = MemoryStore()
    await _random_history(
        lambda: Ledger(store), random.Random(seed), soak(1000, 20000), restarts=True
    )


@pytest.mark.parametrize("seed", range(2))
async def test_conservation_on_sqlite_with_restarts(tmp_path: Path, seed: int) -> None:
    path = tmp_path / "switchboard.sqlite3"
    ledger, model = await _random_history(
        lambda: sqlite_ledger(path), random.Random(seed), soak(400, 5000), restarts=True
    )
    await ledger.store.aclose()
    # the sums only: this history plays no games (its prizes all name game 1)
    assert [p for p in audit_file(path).problems if " game " not in p] == []
    again = sqlite_ledger(path)
    again.check()
    assert {n: again.balance(n) for n in model} == model
    await again.store.aclose()


async def test_the_same_prize_again_writes_no_transaction(tmp_path: Path) -> None:
    """Setting the prize a table already holds moves nothing, so nothing is written."""
    path = tmp_path / "switchboard.sqlite3"
    ledger = sqlite_ledger(path)
    await ledger.open_account("ann")
    await set_prize(ledger, 1, "ann", 100)
    for _ in range(3):
        assert (await set_prize(ledger, 1, "ann", 100)).amount == 100  # type: ignore[union-attr]
    await ledger.store.aclose()
    result = audit_file(path)
    assert result.problems == [] and result.figures["transactions"] == 2  # welcome, prize
