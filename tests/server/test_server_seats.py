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
