"""Operator commands over a fake server: refused without the secret, each command's effect."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest
import trio
import trio.testing

from protocol import messages as m
from server.operators.admin import (
    Admin,
    BanList,
    DropConnection,
    Operator,
    RateMeter,
    announce_points,
    read_secret,
    shutdown_countdown,
)


class FakeServer:
    def __init__(self) -> None:
        self.sent: list[m.Message] = []
        self.closed: list[tuple[str, str]] = []
        self.kicked: list[str] = []
        self.shutdowns = 0
        self.actions = 0

    def connection_list(self) -> list[dict[str, Any]]:
        return [{"id": 1, "name": "ann", "peer": "127.0.0.1", "codec": "text", "tables": ["1"]}]

    def table_list(self) -> list[dict[str, Any]]:
        return [{"table": "1", "ruleset": "abbott", "state": "playing"}]

    async def close_table(self, table: str, reason: str) -> bool:
        await trio.lowlevel.checkpoint()
        if table != "1":
            return False
        self.closed.append((table, reason))
        return True

    def kick(self, name: str, reason: str) -> int:
        self.kicked.append(name)
        return 2

    def broadcast(self, message: m.Message) -> int:
        self.sent.append(message)
        return 3

    def request_shutdown(self) -> None:
        self.shutdowns += 1

    def stats(self) -> dict[str, Any]:
        return {"connections": 4, "tables": 1, "store_queue": 0, "actions_total": self.actions}


EVERY_COMMAND = [
    m.AdminConnections(id=1),
    m.AdminTables(id=1),
    m.AdminCloseTable(table="1", id=1),
    m.AdminKick(name="ann", id=1),
    m.AdminBan(name="ann", id=1),
    m.AdminNotice(text="hello", id=1),
    m.AdminShutdown(seconds=5, id=1),
    m.AdminStats(id=1),
]


@pytest.mark.parametrize("msg", EVERY_COMMAND, ids=lambda x: x.type)
async def test_every_admin_command_is_refused_without_the_secret(msg: m.Message) -> None:
    server = FakeServer()
    admin = Admin(server, "s3cret")
    op = Operator()
    reply = await admin.handle(op, msg)
    assert isinstance(reply, m.Error) and reply.code == "forbidden" and reply.id == 1
    assert await admin.handle(op, m.AdminAuth(secret="guess")) == m.Error(
        code="forbidden", text="wrong operator secret"
    )
    assert isinstance(await admin.handle(op, msg), m.Error)
    assert not (server.sent or server.closed or server.kicked or server.shutdowns)
    assert not admin.bans.names()


async def test_no_secret_configured_means_no_operators() -> None:
    admin = Admin(FakeServer(), None)
    op = Operator()
    for secret in ("", "anything"):
        reply = await admin.handle(op, m.AdminAuth(secret=secret or "x"))
        assert isinstance(reply, m.Error) and "no operator secret" in reply.text
    assert not op.authenticated


async def test_wrong_secrets_drop_the_connection() -> None:
    admin = Admin(FakeServer(), "s3cret", auth_attempts=3)
    op = Operator()
    for _ in range(2):
        assert isinstance(await admin.handle(op, m.AdminAuth(secret="no")), m.Error)
    with pytest.raises(DropConnection):
        await admin.handle(op, m.AdminAuth(secret="no"))


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


async def test_wrong_secrets_are_counted_per_address_across_connections() -> None:
    clock = FakeClock()
    admin = Admin(FakeServer(), "s3cret", auth_attempts=3, backoff=(1.0, 60.0, 3600.0, 20),
                  clock=clock)  # fmt: skip
    first, second = Operator(), Operator()  # two connections from one address
    wrong = await admin.handle(first, m.AdminAuth(secret="no"), peer="10.0.0.9")
    assert isinstance(wrong, m.Error) and wrong.code == "forbidden"
    # the next connection from there waits 1 s: not even the right secret is compared
    waited = await admin.handle(second, m.AdminAuth(secret="s3cret"), peer="10.0.0.9")
    assert isinstance(waited, m.Error) and waited.code == "rate_limited"
    assert not second.authenticated
    # another address is not held up by this one
    assert isinstance(
        await admin.handle(Operator(), m.AdminAuth(secret="s3cret"), peer="10.0.0.7"), m.Ok
    )
    # the wait doubles with each wrong secret: 1 s, then 2 s, then 4 s
    for wait in (1.0, 2.0, 4.0):
        clock.now += wait
        reply = await admin.handle(Operator(), m.AdminAuth(secret="no"), peer="10.0.0.9")
        assert reply.code == "forbidden", (clock.now, reply)
    clock.now += 7.9
    early = await admin.handle(Operator(), m.AdminAuth(secret="s3cret"), peer="10.0.0.9")
    assert early.code == "rate_limited"
    clock.now += 0.1
    right = await admin.handle(Operator(), m.AdminAuth(secret="s3cret", id=5), peer="10.0.0.9")
    assert right == m.Ok(text="operator", id=5)


async def test_wrong_secrets_from_many_addresses_slow_everyone() -> None:
    clock = FakeClock()
    admin = Admin(FakeServer(), "s3cret", backoff=(1.0, 60.0, 3600.0, 20), clock=clock)
    for i in range(20):  # one guess from each of 20 addresses: the allowance
        reply = await admin.handle(Operator(), m.AdminAuth(secret="no"), peer=f"10.1.0.{i}")
        assert reply.code == "forbidden"
    reply = await admin.handle(Operator(), m.AdminAuth(secret="no"), peer="10.2.0.1")
    assert reply.code == "forbidden"  # the 21st: from now on everyone waits
    fresh = await admin.handle(Operator(), m.AdminAuth(secret="s3cret"), peer="10.3.0.1")
    assert fresh.code == "rate_limited"
    clock.now += 1.0
    assert isinstance(
        await admin.handle(Operator(), m.AdminAuth(secret="s3cret"), peer="10.3.0.1"), m.Ok
    )


async def test_the_secret_is_never_logged(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    admin = Admin(FakeServer(), "s3cret-Zq9")
    await admin.handle(Operator(), m.AdminAuth(secret="guess-Xw7"), peer="10.0.0.1")
    await admin.handle(Operator(), m.AdminAuth(secret="s3cret-Zq9"), peer="10.0.0.2")
    assert [r.getMessage() for r in caplog.records] == ["admin.auth_failed", "admin.auth"]
    for record in caplog.records:
        text = repr(vars(record))
        assert "s3cret-Zq9" not in text and "guess-Xw7" not in text


async def test_commands_with_the_secret(tmp_path: Path) -> None:
    server = FakeServer()
    bans = BanList(tmp_path / "bans.txt")
    admin = Admin(server, "s3cret", bans=bans)
    op = Operator()
    assert await admin.handle(op, m.AdminAuth(secret="s3cret", id=9)) == m.Ok(text="operator", id=9)
    conns = await admin.handle(op, m.AdminConnections())
    assert isinstance(conns, m.Connections) and conns.connections[0]["name"] == "ann"
    tables = await admin.handle(op, m.AdminTables())
    assert isinstance(tables, m.Tables) and tables.tables[0]["ruleset"] == "abbott"
    assert isinstance(await admin.handle(op, m.AdminCloseTable(table="1")), m.Ok)
    assert server.closed == [("1", "closed by an operator")]
    missing = await admin.handle(op, m.AdminCloseTable(table="99"))
    assert isinstance(missing, m.Error) and missing.code == "no_table"
    assert (await admin.handle(op, m.AdminKick(name="bob"))).text == "kicked 2 connection(s)"
    await admin.handle(op, m.AdminBan(name="Troll"))
    assert bans.is_banned("troll") and server.kicked == ["bob", "Troll"]
    assert BanList(tmp_path / "bans.txt").is_banned("TROLL")  # survives a restart
    await admin.handle(op, m.AdminNotice(text="maintenance at noon"))
    assert server.sent == [m.Notice(text="maintenance at noon")]
    reply = await admin.handle(op, m.AdminShutdown(seconds=0))
    assert isinstance(reply, m.Ok) and server.shutdowns == 1


async def test_stats_report_uptime_and_actions_per_second(
    autojump_clock: trio.testing.MockClock,
) -> None:
    server = FakeServer()
    admin = Admin(server, "s3cret")
    op = Operator(authenticated=True)
    first = await admin.handle(op, m.AdminStats())
    assert isinstance(first, m.Stats)
    assert first.stats["connections"] == 4 and first.stats["store_queue"] == 0
    await trio.sleep(10)
    server.actions = 500
    stats = admin.stats()
    assert stats["uptime"] == pytest.approx(10.0)
    assert stats["actions_per_second"] == pytest.approx(50.0)
    assert stats["actions_total"] == 500


def test_rate_meter_forgets_outside_its_window() -> None:
    meter = RateMeter(window=10)
    meter.sample(0.0, 0)
    meter.sample(100.0, 1000)
    assert meter.rate(105.0, 1050) == pytest.approx(10.0)


async def test_shutdown_countdown_announces_then_returns(
    autojump_clock: trio.testing.MockClock,
) -> None:
    sent: list[tuple[float, int | None]] = []
    start = trio.current_time()
    await shutdown_countdown(
        12, "upgrade", lambda msg: sent.append((trio.current_time() - start, msg.shutdown_in))
    )
    assert trio.current_time() - start == pytest.approx(12.0)
    assert [left for _, left in sent] == [12, 10, 5, 4, 3, 2, 1]
    assert all(t == pytest.approx(12 - left) for t, left in sent)
    assert announce_points(3) == [3, 2, 1]


async def test_admin_shutdown_runs_the_countdown_in_the_servers_nursery(
    autojump_clock: trio.testing.MockClock,
) -> None:
    server = FakeServer()
    admin = Admin(server, "s3cret")
    op = Operator(authenticated=True)
    async with trio.open_nursery() as nursery:
        await admin.handle(op, m.AdminShutdown(seconds=30, reason="upgrade"), nursery=nursery)
        await trio.sleep(1)
        assert admin.stats()["shutdown_in"] == pytest.approx(29.0)
        assert server.shutdowns == 0
        await admin.handle(op, m.AdminShutdown(seconds=5), nursery=nursery)  # a shorter count
    assert server.shutdowns == 1
    assert server.sent[-1].shutdown_in == 1  # type: ignore[attr-defined]


def test_secret_file(tmp_path: Path) -> None:
    f = tmp_path / "secret"
    f.write_text("from-file\n")
    assert read_secret("inline", f) == "from-file"
    assert read_secret("inline", None) == "inline"
    assert read_secret("", None) is None
    assert read_secret(None, tmp_path / "missing") is None


async def test_other_addresses_never_lock_the_operator_out_of_loopback() -> None:
    clock = FakeClock()
    admin = Admin(FakeServer(), "s3cret", backoff=(1.0, 600.0, 3600.0, 20), clock=clock)
    for round_ in range(8):  # 8 addresses guess again as each may: up to 64 wrong secrets
        clock.now += 2.0**round_
        for i in range(8):
            reply = await admin.handle(Operator(), m.AdminAuth(secret="no"), peer=f"10.1.0.{i}")
            assert reply.code in ("forbidden", "rate_limited")
    outsider = await admin.handle(Operator(), m.AdminAuth(secret="s3cret"), peer="10.3.0.1")
    assert outsider.code == "rate_limited"  # everyone else waits, as before
    for peer in ("127.0.0.1", "::1"):
        reply = await admin.handle(Operator(), m.AdminAuth(secret="s3cret"), peer=peer)
        assert isinstance(reply, m.Ok), (peer, reply)


async def test_a_configured_operator_address_is_not_held_back_by_others() -> None:
    clock = FakeClock()
    admin = Admin(FakeServer(), "s3cret", backoff=(1.0, 600.0, 3600.0, 2), clock=clock,
                  operator_addresses=("10.9.9.9",))  # fmt: skip
    for i in range(5):
        await admin.handle(Operator(), m.AdminAuth(secret="no"), peer=f"10.1.0.{i}")
    assert (
        await admin.handle(Operator(), m.AdminAuth(secret="s3cret"), peer="127.0.0.1")
    ).code == "rate_limited"  # loopback is not the operator's address on this server
    ok = await admin.handle(Operator(), m.AdminAuth(secret="s3cret"), peer="10.9.9.9")
    assert isinstance(ok, m.Ok)


async def test_the_operator_address_keeps_its_own_back_off() -> None:
    clock = FakeClock()
    admin = Admin(FakeServer(), "s3cret", backoff=(1.0, 600.0, 3600.0, 20), clock=clock)
    await admin.handle(Operator(), m.AdminAuth(secret="no"), peer="127.0.0.1")
    reply = await admin.handle(Operator(), m.AdminAuth(secret="s3cret"), peer="127.0.0.1")
    assert reply.code == "rate_limited" and "wait 1.0 s" in reply.text


async def test_the_refusal_says_the_real_wait_never_zero() -> None:
    clock = FakeClock()
    admin = Admin(FakeServer(), "s3cret", backoff=(1.0, 600.0, 3600.0, 20), clock=clock)
    await admin.handle(Operator(), m.AdminAuth(secret="no"), peer="10.0.0.9")
    seen = []
    for left in (0.96, 0.5, 0.04, 0.001):
        clock.now = 1.0 - left
        reply = await admin.handle(Operator(), m.AdminAuth(secret="s3cret"), peer="10.0.0.9")
        assert reply.code == "rate_limited"
        seen.append(reply.text.rsplit("wait ", 1)[1])
    assert seen == ["1.0 s", "0.5 s", "0.1 s", "0.1 s"]
