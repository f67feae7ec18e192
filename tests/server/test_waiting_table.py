"""A new table waits for people: nothing starts until its game master says so, and then
the seats still empty are played by server bots. Its snapshot names its game before the
first deal, so the creator sees what he opened (the view is still empty then)."""

from __future__ import annotations

import trio
from e2e_client import Client

from protocol import messages as m


async def test_a_new_table_waits_and_its_snapshot_names_its_game(running) -> None:
    ann = await Client.connect(running.port, "ann")
    created = await ann.request(m.CreateTable(ruleset="kilodney", seats=4))
    assert isinstance(created, m.Ok), created
    table = created.table
    assert isinstance(await ann.request(m.Join(table=table)), m.Seated)
    first = await ann.wait_for(lambda x: isinstance(x, m.Snapshot) and x.table == table)
    assert (first.state, first.view, first.ruleset) == ("waiting", {}, "kilodney")
    assert first.players == ("ann", None, None, None)

    await trio.sleep(0.5)  # no bot sits down, no deal: the table waits for people
    look = await ann.request(m.Look(table=table))
    assert isinstance(look, m.Snapshot)
    assert (look.state, look.players, look.ruleset) == ("waiting", first.players, "kilodney")

    bob = await Client.connect(running.port, "bob")  # who joins sees the same
    assert isinstance(await bob.request(m.Join(table=table)), m.Seated)
    seen = await bob.wait_for(lambda x: isinstance(x, m.Snapshot) and x.table == table)
    assert seen.ruleset == "kilodney"

    assert isinstance(await ann.request(m.StartGame(table=table)), m.Ok)
    dealt = await ann.wait_for(
        lambda x: isinstance(x, m.Snapshot) and x.table == table and x.state == "playing"
    )
    assert dealt.players[:2] == ("ann", "bob")
    assert all(p is not None and p.startswith("bot:") for p in dealt.players[2:])
    assert dealt.ruleset == dealt.view["ruleset"] == "kilodney"


async def test_at_nc_the_creator_reads_the_game_of_his_waiting_table(running) -> None:
    stream = await trio.open_tcp_stream("127.0.0.1", running.port)
    await stream.send_all(b"name ann\ncreate kilodney 4\n")
    said = b""
    with trio.fail_after(10):
        while b"\nview 1" not in said or not said.endswith(b"\n"):
            said += await stream.receive_some(65536)
    view = next(line for line in said.decode().splitlines() if line.startswith("view 1"))
    assert view.startswith("view 1 · table 1, kilodney, waiting · seats: ann (you"), view
    await stream.aclose()
