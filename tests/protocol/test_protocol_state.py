"""The handshake, version negotiation and the allowed-message table."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from protocol import messages as m
from protocol.errors import LocalProtocolError
from protocol.state import ALLOWED, Session, State, negotiate


def test_only_unknown_versions_get_the_list_of_supported_ones():
    reply = negotiate(m.Hello(versions=(7, 9), id=1), supported=(1, 2))
    assert isinstance(reply, m.Error)
    assert reply.code == "bad_version" and reply.supported == (1, 2) and reply.id == 1
    assert "1, 2" in reply.text


def test_another_protocol_is_refused():
    reply = negotiate(m.Hello(protocol="http", versions=(1,)))
    assert reply.code == "bad_version" and reply.supported == m.VERSIONS


@given(
    st.sets(st.integers(1, 20), min_size=1, max_size=6),
    st.sets(st.integers(1, 20), min_size=1, max_size=6),
)
def test_several_offered_versions_get_the_highest_common_one(offered, supported):
    reply = negotiate(m.Hello(versions=tuple(offered)), supported=tuple(sorted(supported)))
    common = offered & supported
    if common:
        assert reply == m.Welcome(version=max(common))
    else:
        assert reply.code == "bad_version" and set(reply.supported) == supported


def test_a_whole_session_from_both_sides():
    server, client = Session(m.SERVER), Session(m.CLIENT)

    def c2s(msg):
        client.send(msg)
        return server.receive(msg)

    def s2c(msg):
        server.send(msg)
        assert client.receive(msg) is None

    assert c2s(m.Ping(id=1)) is None
    s2c(m.Pong(id=1))
    assert c2s(m.Hello(versions=(1,))) is None
    s2c(m.Welcome(version=1))
    assert server.state is client.state is State.READY
    assert c2s(m.ListTables(id=2)) is None
    s2c(m.Tables(tables=(), id=2))
    # Before a name, a client may not play; our own client code is told so at once.
    with pytest.raises(LocalProtocolError):
        client.send(m.Join(table="t1"))
    assert server.receive(m.Join(table="t1", id=3)).code == "need_name"
    assert c2s(m.ClaimName(name="ann", secret="s", id=4)) is None
    s2c(m.Named(name="ann", id=4))
    assert server.state is State.NAMED
    assert c2s(m.Join(table="t1", id=5)) is None
    assert server.receive(m.Hello(id=6)).code == "not_allowed"  # hello once only
    s2c(m.Goodbye(code="shutdown"))
    assert server.state is client.state is State.CLOSED
    with pytest.raises(LocalProtocolError):
        server.send(m.Notice(text="too late"))


def test_a_peer_sending_the_other_sides_messages_is_refused():
    server = Session(m.SERVER)
    server.receive(m.Hello())
    server.send(m.Welcome(version=1))
    reply = server.receive(m.Seated(table="t1", seat=0, token="x", id=2))
    assert reply.code == "not_allowed" and reply.id == 2
    client = Session(m.CLIENT)
    assert client.receive(m.Act(table="t1", action="draw")).code == "not_allowed"


def test_a_refusal_names_the_command_a_person_types():
    """Before: "claim a name first (name NAME SECRET) before 'create_table'"."""
    server = Session(m.SERVER)
    server.receive(m.Hello())
    server.send(m.Welcome(version=1))
    reply = server.receive(m.CreateTable(ruleset="switch", seats=2, id=1))
    assert reply.code == "need_name" and "before 'create'" in reply.text, reply.text
    assert "create_table" not in reply.text


def test_decoder_rejects_become_error_replies():
    server = Session(m.SERVER)
    assert server.receive(m.UnknownMessage("teleport", 3)).code == "unknown_type"
    assert server.state is State.AWAIT_HELLO


def test_every_client_message_is_allowed_once_named():
    for cls in m.TYPES.values():
        if m.SENDER[cls] != m.SERVER and cls is not m.Hello:
            assert cls in ALLOWED[(m.CLIENT, State.NAMED)]
        if m.SENDER[cls] != m.CLIENT and cls is not m.Welcome:
            assert cls in ALLOWED[(m.SERVER, State.READY)]
