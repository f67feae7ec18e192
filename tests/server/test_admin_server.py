"""Operator commands over real sockets: refused without the secret, each one's effect."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio
from e2e_client import Client

import engine
from protocol import messages as m
from server.app import Server
from server.core.config import ServerConfig

RULESET = "abbott" if "abbott" in engine.rulesets() else engine.rulesets()[0]
SECRET = "opensesame"
CONFIG = ServerConfig(host="127.0.0.1", port=0, scrypt_n=2, operator_secret=SECRET)

ADMIN = [
    m.AdminConnections(),
    m.AdminTables(),
    m.AdminCloseTable(table="1"),
    m.AdminKick(name="ann"),
    m.AdminBan(name="ann"),
    m.AdminNotice(text="hello"),
    m.AdminShutdown(seconds=0),
    m.AdminStats(),
]


async def closed(client: Client) -> list[m.Received]:
    with trio.fail_after(5):
        try:
            while True:
                await client.next()
        except (EOFError, trio.BrokenResourceError):
            pass
    return client.inbox


@pytest.mark.parametrize("secret", [None, SECRET])
async def test_admin_commands_are_refused_without_the_secret(
    nursery: trio.Nursery, secret: str | None
) -> None:
    server = Server(CONFIG.replace(operator_secret=secret))
    port = await nursery.start(server.serve)
    ann = await Client.connect(port, "ann")
    table = (await ann.request(m.CreateTable(ruleset=RULESET, seats=4))).table
    for msg in ADMIN:
        reply = await ann.request(msg)
        assert isinstance(reply, m.Error) and reply.code == "forbidden", (msg, reply)
    wrong = await ann.request(m.AdminAuth(secret="guess"))
    assert isinstance(wrong, m.Error) and wrong.code == "forbidden"
    assert isinstance(await ann.request(m.AdminStats()), m.Error)
    # nothing happened: the table is open, ann is connected, the server runs
    listed = await ann.request(m.ListTables())
    assert [t["table"] for t in listed.tables] == [table]
    assert not ann.closed
    server.shutdown()


async def test_wrong_secrets_drop_the_connection_and_reconnecting_resets_nothing(
    nursery: trio.Nursery,
) -> None:
    # a long back-off, so that no machine is slow enough for it to pass within the test
    server = Server(CONFIG.replace(auth_backoff_seconds=600.0))
    port = await nursery.start(server.serve)
    guesser = await Client.connect(port, "guesser")
    wrong = await guesser.request(m.AdminAuth(secret="nope"))
    assert isinstance(wrong, m.Error) and wrong.code == "forbidden"
    refused = await guesser.request(m.AdminAuth(secret="nope"))  # within the back-off
    assert isinstance(refused, m.Error) and refused.code == "rate_limited"
    await guesser.send(m.AdminAuth(secret="nope", id=77))
    got = await closed(guesser)
    assert any(isinstance(x, m.Goodbye) for x in got) or guesser.closed
    # a new connection from the same address waits out the same back-off: even the
    # right secret is not looked at until then
    other = await Client.connect(port, "other")
    again = await other.request(m.AdminAuth(secret=SECRET))
    assert isinstance(again, m.Error) and again.code == "rate_limited"
    server.shutdown()


async def test_operator_commands(nursery: trio.Nursery, tmp_path: Path) -> None:
    server = Server(CONFIG.replace(data_dir=tmp_path))
    port = await nursery.start(server.serve)
    op = await Client.connect(port, "root")
    ann = await Client.connect(port, "ann")
    bob = await Client.connect(port, "bob")
    table = (await ann.request(m.CreateTable(ruleset=RULESET, seats=4))).table
    await ann.request(m.Join(table=table, seat=0))
    assert isinstance(await ann.request(m.SetPrize(table=table, chips=300)), m.Ok)
    assert isinstance(await op.request(m.AdminAuth(secret=SECRET)), m.Ok)

    conns = await op.request(m.AdminConnections())
    assert isinstance(conns, m.Connections)
    rows = {c["name"]: c for c in conns.connections}
    assert set(rows) >= {"root", "ann", "bob"}
    assert rows["ann"]["tables"] == [table] and rows["root"]["operator"]

    tables = await op.request(m.AdminTables())
    assert [(t["table"], t["prize"]) for t in tables.tables] == [(table, 300)]

    stats = await op.request(m.AdminStats())
    assert isinstance(stats, m.Stats)
    for key in ("uptime", "connections", "tables", "actions_per_second", "store_queue"):
        assert key in stats.stats, key
    assert stats.stats["connections"] == 3 and stats.stats["tables"] == 1

    assert isinstance(await op.request(m.AdminNotice(text="maintenance at noon")), m.Ok)
    heard = await bob.wait_for(lambda x: isinstance(x, m.Notice))
    assert heard.text == "maintenance at noon"

    closed_reply = await op.request(m.AdminCloseTable(table=table, reason="testing"))
    assert isinstance(closed_reply, m.Ok)
    await ann.wait_for(lambda x: isinstance(x, m.Notice) and "closed" in x.text)
    assert (await ann.request(m.GetChips())).balance == 1000  # the prize went back
    assert (await op.request(m.AdminCloseTable(table="99"))).code == "no_table"

    kicked = await op.request(m.AdminKick(name="BOB"))
    assert isinstance(kicked, m.Ok) and "1" in kicked.text
    got = await closed(bob)
    assert any(isinstance(x, m.Goodbye) and x.code == "kicked" for x in got)

    assert isinstance(await op.request(m.AdminBan(name="ann")), m.Ok)
    await closed(ann)
    again = await Client.connect(port)
    refused = await again.request(m.ClaimName(name="Ann", secret="pw"))
    assert isinstance(refused, m.Error) and refused.code == "banned"
    assert "ann" in (tmp_path / "bans.txt").read_text()  # survives a restart

    assert isinstance(await op.request(m.AdminShutdown(seconds=1, reason="upgrade")), m.Ok)
    countdown = await op.wait_for(lambda x: isinstance(x, m.Notice) and x.shutdown_in)
    assert countdown.shutdown_in == 1 and "upgrade" in countdown.text
    bye = await op.wait_for(lambda x: isinstance(x, m.Goodbye))
    assert bye.code == "shutdown"
