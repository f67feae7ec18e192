"""A notice about a table names it in its ``table`` field, so a client files it in that
table's log without reading the English (a server-wide notice names none)."""

from __future__ import annotations

import trio
import trio.testing
from test_gamemaster import open_table

from protocol import messages as m


async def test_a_notice_about_a_table_carries_the_table(nursery: trio.Nursery) -> None:
    s = await open_table(nursery, ["ann", "bob"], {"turn_seconds": 0})
    ann, bob = s.members
    assert isinstance(await s.master(ann, "unseat", seat=1), m.Ok)
    told = [x for x in bob.got if isinstance(x, m.Notice) and "unseated" in x.text]
    assert [x.table for x in told] == [str(s.table.id)], told
    await s.table.close("the evening is over")
    for _ in range(5):
        await trio.testing.wait_all_tasks_blocked()
    closed = [x for x in ann.got if isinstance(x, m.Notice) and "closed" in x.text]
    assert [x.table for x in closed] == [str(s.table.id)], closed
