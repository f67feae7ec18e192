"""Seats end to end, as a cheating player would try them: a seat has one connection (a
resume moves it), a hand is shown to one person a game (no seat hopping), and a table
that closes under a burst of requests still answers each of them once."""

from __future__ import annotations

import trio
from e2e_client import Client

from protocol import messages as m


async def started_table(
    port: int, name: str, *, companion: Client | None = None
) -> tuple[Client, str]:
    """A client at seat 0 of a new started table of switch; a companion, if any, at seat 3
    (so the table stays open when the first leaves); the other seats are server bots."""
    c = await Client.connect(port, name)
    ok = await c.request(m.CreateTable(ruleset="switch", seats=4))
    assert isinstance(await c.request(m.Join(table=ok.table, seat=0)), m.Seated)
    if companion is not None:
        assert isinstance(await companion.request(m.Join(table=ok.table, seat=3)), m.Seated)
    assert isinstance(await c.request(m.StartGame(table=ok.table)), m.Ok)
    return c, ok.table


async def connect_from(port: int, address: str, name: str) -> Client:
    """A named client whose socket is bound to ``address`` (all of 127.0.0.0/8 is loopback)."""
    client = Client(await trio.open_tcp_stream("127.0.0.1", port, local_address=address))
    assert isinstance(await client.request(m.Hello()), m.Welcome)
    assert isinstance(await client.request(m.ClaimName(name=name, secret="pw")), m.Named)
    return client


def viewers(client: Client, table: str) -> set[int]:
    """Every seat whose private view this connection was shown at ``table``."""
    seen = set()
    for msg in client.inbox:
        is_view = isinstance(msg, (m.Snapshot, m.Turn)) and msg.table == table and msg.view
        if is_view and msg.view.get("viewer") is not None:
            seen.add(msg.view["viewer"])
    return seen


# ------------------------------------------------------- one seat, one connection
async def test_a_resume_moves_the_seat_and_the_old_connection_can_no_longer_act(running):
    holder, table = await started_table(running.port, "held")
    token = holder.tokens[table]
    b1 = await Client.connect(running.port, "held")
    b2 = await Client.connect(running.port, "held")

    async def resume(c: Client) -> None:
        seated = await c.request(m.Resume(table=table, token=token, last_seq=0))
        assert isinstance(seated, m.Seated), seated

    async with trio.open_nursery() as nursery:  # two resumes race
        nursery.start_soon(resume, b1)
        nursery.start_soon(resume, b2)
    codes = []
    for c in (holder, b1, b2):
        reply = await c.request(m.Act(table=table, action="draw"))
        codes.append(reply.code if isinstance(reply, m.Error) else "ok")
    # exactly one connection holds the seat; the others are told why they cannot act
    assert sorted(code == "bad_token" for code in codes) == [False, True, True], codes
    superseded = [c for c, code in zip((holder, b1, b2), codes, strict=True) if code == "bad_token"]
    for c in superseded:
        error = next(x for x in reversed(c.inbox) if isinstance(x, m.Error))
        assert "elsewhere" in error.text
    for c in (holder, b1, b2):
        await c.aclose()


# ---------------------------------------------------------- no seat hopping
async def test_a_player_who_leaves_cannot_read_a_bots_hand_and_come_back(running):
    companion = await Client.connect(running.port, "companion")
    hopper, table = await started_table(running.port, "hopper", companion=companion)
    await hopper.wait_for(lambda x: isinstance(x, m.Turn))
    assert isinstance(await hopper.request(m.Leave(table=table)), m.Ok)
    refused = await hopper.request(m.Join(table=table, seat=1))
    assert isinstance(refused, m.Error) and refused.code == "other_hand", refused
    back = await hopper.request(m.Join(table=table))  # his own seat is his to take back
    assert isinstance(back, m.Seated) and back.seat == 0, back
    await hopper.request(m.Ping())
    assert viewers(hopper, table) == {0}
    for c in (hopper, companion):
        await c.aclose()


async def test_a_second_name_from_the_same_address_cannot_take_a_bots_seat(running):
    player, table = await started_table(running.port, "first")
    second = await Client.connect(running.port, "second")
    refused = await second.request(m.Join(table=table, seat=2))
    assert isinstance(refused, m.Error) and refused.code == "other_hand", refused
    # nor by claiming the second name on the first connection: a seated one keeps its name
    refused = await player.request(m.ClaimName(name="third", secret="pw"))
    assert isinstance(refused, m.Error) and refused.code == "not_allowed", refused
    # nor by a second name whose connection was shown a hand (it left, so it may rename)
    companion = await connect_from(running.port, "127.0.0.9", "companion")  # another machine
    assert isinstance(await companion.request(m.Join(table=table, seat=3)), m.Seated)
    assert isinstance(await player.request(m.Leave(table=table)), m.Ok)
    assert isinstance(await player.request(m.ClaimName(name="third", secret="pw")), m.Named)
    refused = await player.request(m.Join(table=table, seat=1))
    assert isinstance(refused, m.Error) and refused.code == "other_hand", refused
    await player.request(m.Ping())
    assert viewers(player, table) == {0} and viewers(second, table) == set()
    for c in (player, second, companion):
        await c.aclose()


# ------------------------------------------------- every request gets one reply
async def test_requests_to_a_table_that_closes_under_them_each_get_one_reply(running):
    for round_ in range(5):
        c = await Client.connect(running.port, f"last{round_}")
        ok = await c.request(m.CreateTable(ruleset="switch", seats=4))
        table = ok.table
        assert isinstance(await c.request(m.Join(table=table, seat=0)), m.Seated)
        # the last player leaves (the table closes) and, without waiting, asks more of it
        burst = [
            m.Leave(table=table, id=101),
            m.Join(table=table, id=102),
            m.Say(table=table, text="hello?", id=103),
            m.GetRecord(table=table, id=104),
            m.StartGame(table=table, id=105),
            m.Spectate(table=table, id=106),
            m.Join(table=table, seat=1, id=107),
        ]
        await c.stream.send_all(b"".join(c.codec.encode(x) for x in burst))
        ids = {x.id for x in burst}
        with trio.fail_after(10):
            while not ids <= {getattr(x, "id", None) for x in c.inbox}:
                await c._fill()
        await c.request(m.Ping())  # anything still on its way has arrived
        replies = [getattr(x, "id", None) for x in c.inbox]
        assert all(replies.count(i) == 1 for i in ids), replies
        await c.aclose()


async def test_a_connection_that_no_longer_holds_a_seat_may_change_its_name(running):
    master, table = await started_table(running.port, "boss")
    player = await connect_from(running.port, "127.0.0.8", "player")
    assert isinstance(await player.request(m.Join(table=table, seat=1)), m.Seated)
    refused = await player.request(m.ClaimName(name="renamed", secret="pw"))
    assert isinstance(refused, m.Error) and refused.code == "not_allowed", refused
    assert isinstance(await master.request(m.Unseat(table=table, seat=1)), m.Ok)
    renamed = await player.request(m.ClaimName(name="renamed", secret="pw"))
    assert isinstance(renamed, m.Named), renamed
    for c in (master, player):
        await c.aclose()
