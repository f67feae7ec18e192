"""Claiming names: a wrong secret never keeps the owner out, wrong tries back off per
address, and every refusal carries the code of the rule that refused it."""

from __future__ import annotations

import trio
from e2e_client import TEST_CONFIG, Client

from protocol import messages as m
from server.app import Server
from server.players.accounts import Accounts, ClaimResult, claim_throttle
from server.store.base import MemoryStore, NameClaimed, StoredState


def accounts(state: StoredState | None = None, scrypt_n: int = 2) -> Accounts:
    store = MemoryStore()
    if state is not None:
        store.state = state
    return Accounts(store, store.state, scrypt_n=scrypt_n, max_chars=24)


async def test_wrong_secrets_in_flight_never_block_the_right_one() -> None:
    names = accounts()
    assert (await names.claim("owner", "right", "10.0.0.1")).new
    got: list[ClaimResult] = []

    async def spam(address: str) -> None:
        for _ in range(40):
            await names.claim("owner", "wrong", address)

    async def owner() -> None:
        for _ in range(20):
            got.append(await names.claim("Owner", "right", "10.0.0.1"))
            await trio.lowlevel.checkpoint()

    async with trio.open_nursery() as nursery:
        for i in range(4):
            nursery.start_soon(spam, f"10.0.1.{i}")
        nursery.start_soon(owner)
    assert [r.ok for r in got] == [True] * 20, {r.reason for r in got}


async def test_each_refusal_carries_its_own_code() -> None:
    names = accounts()
    await names.claim("ann", "secret", "a")
    assert (await names.claim("-x-", "s", "a")).code == "bad_name"
    assert (await names.claim("bob", "", "a")).code == "bad_message"  # its reason says "secret"
    assert (await names.claim("ann", "guess", "a")).code == "name_taken"
    assert (await names.claim("ann", "secret", "a")) == ClaimResult(True, "ann")


async def test_two_first_claims_of_one_name_race_and_one_wins() -> None:
    names = accounts()
    results: list[ClaimResult] = []

    async def claim(secret: str, address: str) -> None:
        results.append(await names.claim("newname", secret, address))

    async with trio.open_nursery() as nursery:
        nursery.start_soon(claim, "one", "a")
        nursery.start_soon(claim, "two", "b")
    assert sorted((r.ok, r.new, r.code) for r in results) == [
        (False, False, "name_taken"),
        (True, True, ""),
    ]


async def test_wrong_secrets_back_off_per_address(autojump_clock) -> None:
    names = accounts()
    throttle = claim_throttle()
    await names.claim("ann", "secret", "owner")
    for _ in range(throttle.free):
        assert (await names.claim("ann", "guess", "spammer")).code == "name_taken"
    assert (await names.claim("ann", "guess", "spammer")).code == "name_taken"  # back-off starts
    refused = await names.claim("ann", "secret", "spammer")  # even the right one, from there
    assert refused.code == "rate_limited" and "try again in 1.0 s" in refused.reason
    assert (await names.claim("ann", "secret", "owner")).ok  # the owner's address is not held
    await trio.sleep(throttle.base)
    assert (await names.claim("ann", "guess", "spammer")).code == "name_taken"
    refused = await names.claim("ann", "guess", "spammer")
    assert "try again in 2.0 s" in refused.reason  # doubled
    await trio.sleep(throttle.forget + throttle.cap)
    assert (await names.claim("ann", "secret", "spammer")).ok  # forgotten


async def test_names_stored_under_the_old_fold_keep_working() -> None:
    state = StoredState()
    other = accounts()
    for name, secret in (("Ann", "a1"), ("bob", "b1")):
        await other.claim(name, secret, "x")
    state.names = dict(other._store.state.names)  # type: ignore[attr-defined]
    names = accounts(state)
    assert (await names.claim("ANN", "a1", "x")) == ClaimResult(True, "Ann")
    assert (await names.claim("bob", "nope", "x")).code == "name_taken"
    assert len(names) == 2 and isinstance(state.names["ann"], tuple)
    assert NameClaimed  # the store's write is what both servers keep


# ------------------------------------------------------------ end to end
async def connect_from(port: int, address: str) -> Client:
    """A client whose socket is bound to ``address`` (any of 127.0.0.0/8 is loopback)."""
    stream = await trio.open_tcp_stream("127.0.0.1", port, local_address=address)
    client = Client(stream)
    assert isinstance(await client.request(m.Hello()), m.Welcome)
    return client


async def test_four_spammers_never_keep_the_owner_out(nursery: trio.Nursery) -> None:
    """Four addresses send wrong secrets for a name in a loop; its owner, from his own
    address, claims it twenty times over, and gets in every time (with real hashing
    in the worker thread, as in production, at a cost small enough for a test)."""
    config = TEST_CONFIG.replace(scrypt_n=2**10)
    server = Server(config, MemoryStore())
    port = await nursery.start(server.serve)
    owner = await connect_from(port, "127.0.0.1")
    assert isinstance(await owner.request(m.ClaimName(name="target", secret="mine")), m.Named)
    codes: list[str] = []

    async def spam(address: str, done: trio.Event) -> None:
        c = await connect_from(port, address)
        while not done.is_set():
            reply = await c.request(m.ClaimName(name="TARGET", secret="guess"))
            assert isinstance(reply, m.Error), reply
            codes.append(reply.code)
            await trio.sleep(0.025)  # under the flood guard's rate, which would drop it
        await c.aclose()

    done = trio.Event()
    async with trio.open_nursery() as spammers:
        for i in range(2, 6):
            spammers.start_soon(spam, f"127.0.0.{i}", done)
        for _ in range(20):
            named = await owner.request(m.ClaimName(name="target", secret="mine"))
            assert named == m.Named(name="target", id=named.id), named
            await trio.sleep(0.01)
        done.set()
    assert set(codes) <= {"name_taken", "rate_limited"} and "rate_limited" in codes
    await owner.aclose()
    server.shutdown()
