"""Names have a lifecycle: new ones are rationed per address and over the whole server,
and a name that never finished a game expires after ``unplayed_name_days`` unused, its
chips back to the mint, its rows gone, and nothing else disturbed (the ledger audit,
ratings and records stay as they were)."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import trio
from support import set_prize

from server.players.accounts import Accounts, NewNameRate, new_name_rate
from server.players.chip_audit import audit_file
from server.players.ledger import MINT, Ledger
from server.players.rating_check import check_file
from server.store.base import (
    GameEnded,
    GamePlayers,
    GameResult,
    GameStarted,
    MemoryStore,
    NameSeen,
    Store,
    StoredState,
    TableClosed,
    TableCreated,
)
from server.store.sqlite import SQLiteStore

DAY = 86400.0
MONTH = 30 * DAY


def names_on(store: Store, state: StoredState, rate: NewNameRate | None = None) -> Accounts:
    ledger = Ledger(store, state.ledger)
    return Accounts(store, state, scrypt_n=2, max_chars=24, ledger=ledger, new_names=rate)


# ------------------------------------------------------------------ the ration
async def test_new_names_are_rationed_per_address(autojump_clock: trio.abc.Clock) -> None:
    store = MemoryStore()
    rate = NewNameRate(per_hour=60, burst=3, server_per_hour=6000, server_burst=100)
    names = names_on(store, store.state, rate)
    got = [await names.claim(f"a{i}", "pw", "10.0.0.2") for i in range(5)]
    assert [r.ok for r in got] == [True, True, True, False, False]
    assert got[3].code == "rate_limited" and "try again in 60 s" in got[3].reason
    assert len(names) == 3  # nothing hashed, stored or granted for a refused claim
    assert (await names.claim("b0", "pw", "10.0.0.3")).ok  # another address has its own
    assert (await names.claim("a0", "pw", "10.0.0.2")).ok  # proving a name: never rationed
    assert (await names.claim("l0", "pw", "127.0.0.1")).ok  # trusted: no ration
    await trio.sleep(60)
    assert (await names.claim("a3", "pw", "10.0.0.2")).ok  # one more a minute


async def test_new_names_are_rationed_over_the_whole_server(
    autojump_clock: trio.abc.Clock,
) -> None:
    """Many addresses each within their own ration still meet the server's: 250
    addresses cannot mint 250 names a minute. Trusted addresses are not counted."""
    store = MemoryStore()
    rate = NewNameRate(per_hour=60, burst=3, server_per_hour=120, server_burst=10)
    names = names_on(store, store.state, rate)
    got = [await names.claim(f"n{i}", "pw", f"10.1.{i}.1") for i in range(30)]
    assert sum(r.ok for r in got) == 10
    refused = [r for r in got if not r.ok]
    assert {r.code for r in refused} == {"rate_limited"}
    assert "try again in 30 s" in refused[0].reason
    assert (await names.claim("local", "pw", "127.0.0.1")).ok
    await trio.sleep(30)
    assert (await names.claim("later", "pw", "10.2.0.1")).ok
    # an address refused by the server's ration kept its own: it was not charged
    assert [r.ok for r in [await names.claim(f"m{i}", "pw", "10.1.20.1") for i in range(2)]] == [
        False,
        False,
    ]  # the server's bucket is empty again; the address's three are still there
    await trio.sleep(90)
    assert [(await names.claim(f"k{i}", "pw", "10.1.20.1")).ok for i in range(3)] == [True] * 3


async def test_a_crowd_taking_name_after_name_leaves_a_newcomer_his(
    autojump_clock: trio.abc.Clock,
) -> None:
    """Before, 20 addresses each within their own ration drained the server's (5 x 20 =
    100) and an honest guest from a new address waited."""
    store = MemoryStore()
    names = names_on(store, store.state, new_name_rate())
    crowd = [await names.claim(f"c{i}x{j}", "pw", f"10.3.{i}.1") for j in range(5)
             for i in range(20)]  # fmt: skip
    assert 20 <= sum(r.ok for r in crowd) < 100  # every first, not the reserve after
    guest = await names.claim("guest", "pw", "10.9.9.9")
    assert guest.ok, guest.reason


def test_the_configured_ration() -> None:
    rate = new_name_rate()
    assert (rate.addresses.burst, rate.addresses.rate * 3600) == (5, 20.0)
    assert (rate.server.burst, rate.server.rate * 3600, rate.reserve) == (100, 600.0, 25)
    assert rate.trusted == {"127.0.0.1", "::1"}


# ------------------------------------------------------------------ the expiry
def a_result(table: int, game: int, *players: str) -> GameResult:
    """An unrated finished game (no ratings to keep in step with a rebuild)."""
    places = tuple(range(len(players)))
    return GameResult(table, game, "kilodney", "kilodney", False, 1.0, players, players,
                      places, places)  # fmt: skip


async def lifecycle(store: Store, state: StoredState) -> tuple[Accounts, Ledger]:
    """ann never played; bob finished a game; cy is in use; dee put up a prize; eve never
    played but was seen last week; all claimed over a month ago."""
    names = names_on(store, state)
    ledger = names._ledger
    assert ledger is not None
    for who in ("ann", "bob", "cy", "dee", "eve"):
        assert (await names.claim(who, "pw", "127.0.0.1")).new
    players = ("bob", "bot:random")
    await store.commit(
        TableCreated(1, "kilodney", 2, {}, "bob", {}),
        GameStarted(1, 1, 5, None, None, 1),
        GamePlayers(1, 1, players, players, False),
        GameEnded(1, 1, [10, 0]),
        a_result(1, 1, *players),
        TableCreated(7, "kilodney", 2, {}, "dee", {}),
        TableCreated(8, "kilodney", 2, {}, "ann", {}),
    )
    await set_prize(ledger, 7, "dee", 300, 1)
    await set_prize(ledger, 8, "ann", 100, 1)
    await ledger.return_prize(8)  # ann's prize went back: her balance is whole again
    await store.commit(TableClosed(8))
    return names, ledger


async def test_a_name_that_never_finished_a_game_expires_and_its_chips_go_back() -> None:
    store = MemoryStore()
    names, ledger = await lifecycle(store, store.state)
    issued = -ledger.balance(MINT)
    now = names._seen["eve"] + MONTH + DAY
    await store.commit(NameSeen("eve", now - 7 * DAY))
    names._seen["eve"] = now - 7 * DAY
    gone = await names.expire_unplayed(MONTH, lambda name: name == "cy", at=now)
    assert gone == ["ann"]
    assert names.display("ann") is None and not ledger.has_account("ann")
    assert "ann" not in store.state.names and "ann" not in store.state.ledger.balances
    assert -ledger.balance(MINT) == issued - 1000  # her chips went back to the mint
    ledger.check()
    expired = [e for e in store.entries["ann"] if e.reason == "name expired"]
    assert [(e.delta, e.balance) for e in expired] == [(-1000, 0)]
    for kept in ("bob", "cy", "dee", "eve"):
        assert names.display(kept) == kept
    # the name is free: anyone may claim it, as a new name with new chips
    again = await names.claim("Ann", "new secret", "127.0.0.1")
    assert again.new and ledger.balance("Ann") == 1000
    ledger.check()


async def test_nothing_expires_before_its_time_or_when_switched_off() -> None:
    store = MemoryStore()
    names, _ledger = await lifecycle(store, store.state)
    soon = names._seen["ann"] + MONTH - DAY
    assert await names.expire_unplayed(MONTH, lambda name: False, at=soon) == []
    # a server with unplayed_name_days = 0 runs no sweep at all
    with trio.move_on_after(1) as scope:
        await names.sweep_forever(0, lambda name: False)
    assert not scope.cancelled_caught


async def test_a_name_proven_during_the_sweep_is_kept(autojump_clock: trio.abc.Clock) -> None:
    """A login renews a name (its use is stored), so an active name never expires,
    played or not."""
    store = MemoryStore()
    names = names_on(store, store.state)
    assert (await names.claim("ann", "pw", "127.0.0.1")).new
    names._seen["ann"] -= MONTH + DAY  # claimed a month ago ...
    assert (await names.claim("ann", "pw", "127.0.0.1")).ok  # ... and back today
    assert store.state.name_seen["ann"] > names._seen["ann"] - 1
    assert await names.expire_unplayed(MONTH, lambda name: False) == []


async def test_expiry_in_sqlite_keeps_the_audit_and_the_ratings_exact(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite3"
    store = SQLiteStore(path)
    state = store.load()
    names, _ledger = await lifecycle(store, state)
    now = names._seen["ann"] + MONTH + DAY
    assert sorted(await names.expire_unplayed(MONTH, lambda n: n == "cy", at=now)) == [
        "ann",
        "eve",
    ]
    await store.aclose()
    problems = audit_file(path).problems
    assert problems == [], problems
    disagree, _ratings, games = check_file(path)
    assert disagree == [] and games == 1
    with closing(sqlite3.connect(path)) as conn:
        left = {n for (n,) in conn.execute("SELECT name FROM names")}
        accounts = {a for (a,) in conn.execute("SELECT account FROM chip_accounts")}
    assert left == {"bob", "cy", "dee"} and not {"ann", "eve"} & accounts
    again = SQLiteStore(path)  # a restart knows them no more
    reloaded = again.load()
    assert set(reloaded.names) == {"bob", "cy", "dee"}
    assert set(reloaded.name_seen) == {"bob", "cy", "dee"}
    await again.aclose()
