"""The session's dispatch is one table from message type to handler."""

from __future__ import annotations

from protocol import messages as m
from server.core.commands import MASTER_MESSAGES
from server.operators.admin import ADMIN_TYPES
from server.transport import requests
from server.transport.requests import HANDLERS


def test_every_message_a_client_sends_has_one_handler() -> None:
    sent = {cls for cls, who in m.SENDER.items() if who == m.CLIENT}
    assert sent <= set(HANDLERS), sent - set(HANDLERS)
    assert all(m.SENDER[cls] != m.SERVER for cls in HANDLERS)  # nothing a server says


def test_the_game_masters_chips_and_admin_messages_are_in_the_same_table() -> None:
    assert {HANDLERS[t] for t in MASTER_MESSAGES} == {requests.master}
    assert {HANDLERS[t] for t in ADMIN_TYPES} == {requests.admin}
    assert HANDLERS[m.GetChips] is requests.chips
    assert HANDLERS[m.Ping] is requests.ping  # sent by either side; a client's is answered
