"""The messages the server builds on every action (events, turns, acknowledgements) are
made unchecked (``Message.trusted``), for speed. These tests play whole games of each
ruleset on an in-process table and check that every such message a seat or a spectator
was sent is exactly what the checked constructor makes of the same fields: equal, and
the same bytes on the wire. A value the checks would refuse or normalise fails here."""

from __future__ import annotations

import dataclasses

import pytest
import trio
import trio.testing
from support import Member

import engine
from protocol import messages as m
from protocol.msgpack_codec import encode
from server.core.commands import Act, Join, Start, Watch
from server.core.config import ServerConfig
from server.store.base import MemoryStore, TableCreated
from server.tables.table import Table

CONFIG = ServerConfig(host="127.0.0.1", port=0, scrypt_n=2)
TRUSTED = (m.Turn, m.TableEvent, m.Ok)


def checked(message: m.Message) -> m.Message:
    """The same message made by its checking constructor."""
    values = {f.name: getattr(message, f.name) for f in dataclasses.fields(message)}
    return type(message)(**values)


@pytest.mark.parametrize("ruleset", engine.rulesets())
async def test_every_event_turn_and_ok_is_what_the_checks_make(
    ruleset: str, nursery: trio.Nursery, autojump_clock: trio.testing.MockClock
) -> None:
    options = {"turn_seconds": 0}
    store = MemoryStore()
    await store.commit(TableCreated(1, ruleset, 4, options, "ann", {}))
    table = Table(1, ruleset, 4, options, config=CONFIG, store=store, creator="ann")
    await nursery.start(table.run)
    ann, bob, eve = Member("ann"), Member("bob"), Member("eve")
    await table.submit(Join(ann, 1, 0))
    await table.submit(Join(bob, 2, 2))
    await table.submit(Watch(eve, 3, None))
    await table.submit(Start(ann, 4))
    req = 10
    while table.game is None or not table.game.over:  # the people play their first legal
        await trio.sleep(1)
        game = table.game
        if game is None or game.over or game.to_act not in (0, 2):
            continue
        who = ann if game.to_act == 0 else bob
        req += 1
        await table.submit(Act(who, req, who.token(), str(game.legal_actions(game.to_act)[0])))
    await trio.sleep(1)
    sent = [x for member in (ann, bob, eve) for x in member.got if isinstance(x, TRUSTED)]
    kinds = {type(x) for x in sent}
    assert kinds == set(TRUSTED), kinds
    assert any(isinstance(x, m.Turn) and x.legal for x in sent)
    for message in sent:
        again = checked(message)
        assert again == message
        assert encode(again) == encode(message)


def test_trusted_refuses_a_missing_or_unknown_field() -> None:
    with pytest.raises(TypeError, match="missing field 'seq'"):
        m.Turn.trusted(table="1")
    with pytest.raises(TypeError, match="no field sequence"):
        m.Turn.trusted(table="1", seq=2, sequence=3)
    assert m.Ok.trusted(id=4) == m.Ok(id=4)
