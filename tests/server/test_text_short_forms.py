"""At ``nc``, a card typed bare plays it the way the legal list offers it: when only
``play 3D last`` is listed, ``3d`` is that play with its call, not the card without it
(which the rules would let through, and punish with a draw later)."""

from __future__ import annotations

import trio
from e2e_client import Client

from protocol import messages as m


def listed_only_with_last(legal: tuple[str, ...]) -> str | None:
    """A play the list offers only with ``last`` (its plain form not listed), or None."""
    for action in legal:
        plain = action.removesuffix(" last")
        if action.startswith("play ") and plain != action and plain not in legal:
            return plain
    return None


async def test_a_bare_card_at_nc_plays_it_with_the_call_the_list_shows(running) -> None:
    person = await Client.connect(running.port, "ann", text=True)
    other = await Client.connect(running.port, "bob")
    created = await person.request(m.CreateTable(ruleset="switch", seats=2))
    assert isinstance(created, m.Ok), created
    table = created.table
    for seat, client in enumerate((person, other)):
        seated = await client.request(m.Join(table=table, seat=seat))
        assert isinstance(seated, m.Seated), seated

    async def bob_plays() -> None:  # bob draws whenever he may: ann gets down to two cards
        while True:
            msg = await other.next()
            if turn_of(msg, table) and msg.legal:
                action = "draw" if "draw" in msg.legal else msg.legal[0]
                await other.send(m.Act(table=table, action=action))

    async def one_game() -> str | None:
        """Play ann's turns until a play is offered only with ``last``; type it bare."""
        assert isinstance(await person.request(m.StartGame(table=table)), m.Ok)
        while True:
            msg = await person.next()
            if isinstance(msg, m.Snapshot) and msg.table == table and msg.state == "over":
                return None
            if not turn_of(msg, table) or not msg.legal:
                continue
            plain = listed_only_with_last(msg.legal)
            if plain is None:
                await person.send(m.Act(table=table, action=msg.legal[0]))
                continue
            typed = plain.removeprefix("play ").lower()
            await person.stream.send_all(f"{typed}\n".encode())  # as a person types it
            kinds = []  # the events of the play, up to the turn that follows them
            while not isinstance(after := await person.next(), m.Turn | m.Error):
                if isinstance(after, m.TableEvent) and after.table == table:
                    kinds.append((after.event.get("kind"), after.event.get("seat")))
            assert isinstance(after, m.Turn), after
            assert ("last", 0) in kinds, (typed, kinds)  # the call went with the card
            return typed

    typed = None
    async with trio.open_nursery() as nursery:
        nursery.start_soon(bob_plays)
        for _game in range(10):  # a deal may end before ann holds two cards: deal again
            if (typed := await one_game()) is not None:
                break
        nursery.cancel_scope.cancel()
    assert typed is not None, "no game offered a play only with last"


def turn_of(msg: m.Received, table: str) -> bool:
    """Whether ``msg`` says its receiver is to act at ``table``."""
    if isinstance(msg, m.Turn):
        return msg.table == table and msg.to_act is not None and msg.to_act == msg.seat
    if isinstance(msg, m.Snapshot):
        return msg.table == table and msg.state == "playing" and msg.view["to_act"] == msg.seat
    return False
