"""Names that look alike are one name: the normal form (``server.core.namefold``) and its
use by claims, including names stored before the fold grew."""

from __future__ import annotations

import unicodedata

from e2e_client import Client
from hypothesis import given
from hypothesis import strategies as st

from protocol import messages as m
from server.core.limits import fold_name
from server.core.namefold import name_key
from server.players.accounts import Accounts, ClaimResult
from server.store.base import MemoryStore, NameClaimed

LOOK_ALIKES = [
    "\u0430uthA",  # Cyrillic a
    "authA\u0301",  # A and a combining acute accent
    "auth\u00c1",  # the same, precomposed
    "\uff41uthA",  # full-width a
    "\u0251uthA",  # Latin alpha
]


async def test_look_alike_names_are_refused_as_taken(running) -> None:
    owner = await Client.connect(running.port, "authA", secret="owner")
    other = await Client.connect(running.port)
    # the owner's secret proves every spelling, which is shown as first typed
    named = await owner.request(m.ClaimName(name=LOOK_ALIKES[0], secret="owner"))
    assert isinstance(named, m.Named) and named.name == "authA"
    for name in LOOK_ALIKES:  # five: a sixth wrong secret would start the back-off
        refused = await other.request(m.ClaimName(name=name, secret="someone_else"))
        assert isinstance(refused, m.Error) and refused.code == "name_taken", (name, refused)
    for c in (owner, other):
        await c.aclose()


def test_distinct_names_stay_distinct() -> None:
    names = ["ann", "anne", "bob", "rob", "ivan", "\u0418\u0432\u0430\u043d", "tim", "tom", "a.b"]
    assert len({name_key(n) for n in names}) == len(names)


NAME_CHARS = st.characters(categories=["L", "N", "Mn"]) | st.sampled_from("_-.0OolI1\u0430")


@given(st.text(NAME_CHARS, min_size=1, max_size=12))
def test_the_fold_is_a_normal_form(name: str) -> None:
    key = name_key(name)
    assert name_key(key) == key  # idempotent: a key is its own key
    assert name_key(name.casefold()) == key
    assert name_key(name.upper()) == name_key(name.lower()) or name.upper().casefold() != (
        name.lower().casefold()  # the few letters whose upper case is not a case variant
    )
    assert name_key(unicodedata.normalize("NFKC", name)) == key
    assert name_key(unicodedata.normalize("NFD", name)) == key


async def test_stored_names_that_now_fold_together_both_keep_working() -> None:
    """Two names claimed under the old fold (case only) that the new one makes one:
    each still proves its own secret under its own spelling; no third one can be claimed."""
    store = MemoryStore()
    hasher = Accounts(store, store.state, scrypt_n=2, max_chars=24)
    for display, secret in (("bob", "latin"), ("b\u043eb", "cyrillic")):
        salt = display.encode().ljust(16, b".")
        stored = NameClaimed(display.casefold(), display, salt, hasher._digest(secret, salt))
        await store.commit(stored)
    assert fold_name("bob") == fold_name("b\u043eb") and len(store.state.names) == 2
    names = Accounts(store, store.state, scrypt_n=2, max_chars=24)
    assert len(names) == 2
    assert await names.claim("bob", "latin") == ClaimResult(True, "bob")
    assert await names.claim("b\u043eb", "cyrillic") == ClaimResult(True, "b\u043eb")
    assert (await names.claim("B0B", "new")).code == "name_taken"
