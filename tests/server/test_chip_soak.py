"""The chip ledger's promises across every way a real server stops.

A real ``switchboard serve`` process is driven through prizes (set, changed, set again,
set for the next game), games played to the end by people and bots, games ended by the
master, tables closed by their last player leaving and by an operator, house tables
abandoned, hand-overs and bursts of new names; and stopped with SIGTERM or ``kill -9``
at random points while bot games, prize changes and claims are in flight. After every
step the data directory is audited (``server.players.chip_audit``, what ``switchboard audit``
runs): all accounts sum to zero, balances plus held prizes equal every chip granted,
each game's prize was paid or returned exactly once or is still held for a game not yet
ended, every name has an account. ``SWITCHBOARD_SOAK=long`` runs it long; the figures
are printed (``-s``)."""

from __future__ import annotations

import random
import signal
from collections import Counter
from pathlib import Path

import pytest
import trio
from e2e_client import Client
from serverproc import start_server
from support import soak

from protocol import messages as m
from server.app import DB_NAME
from server.players.chip_audit import audit_file

RULESET = "switch"
SECRET = "soak-operator"
#: what a killed server does to a client that was talking to it
GONE = (OSError, EOFError, trio.BrokenResourceError, trio.ClosedResourceError, trio.TooSlowError)


class Soak:
    """The driver: clients of one server run, the names so far, the figures."""

    def __init__(self, rng: random.Random, data: Path) -> None:
        self.rng = rng
        self.data = data
        self.port = 0
        self.names: list[str] = []
        self.made = 0  #: names made up so far (claimed or not: a kill may cut one off)
        self.figures: Counter[str] = Counter()
        self.problems: list[str] = []

    async def client(self, name: str | None = None) -> Client:
        if name is None:
            name = f"n{self.made}"
            self.made += 1
        client = await Client.connect(self.port, name)
        if name not in self.names:
            self.names.append(name)
        return client

    def audit(self, when: str) -> None:
        result = audit_file(self.data / DB_NAME)
        self.figures["audits"] += 1
        self.figures["violations"] += len(result.problems)
        self.problems += [f"{when}: {p}" for p in result.problems]

    async def prize(self, client: Client, table: str) -> None:
        """A prize, changed now and then, and sometimes set twice."""
        balance = (await client.request(m.GetChips())).balance
        for _ in range(self.rng.choice([1, 1, 2, 3])):
            chips = self.rng.randrange(0, max(1, min(balance, 150)))
            await client.request(m.SetPrize(table=table, chips=chips))
            self.figures["prizes set"] += 1

    async def new_table(self, client: Client, seats: int = 2) -> str:
        reply = await client.request(m.CreateTable(ruleset=RULESET, seats=seats))
        assert isinstance(reply, m.Ok), reply
        self.figures["tables"] += 1
        return reply.table

    # ------------------------------------------------------------ steps
    async def game(self) -> None:
        """A master with a prize; his game finished, ended by him, or closed by leaving;
        then, often, a prize for the next game, left held."""
        ann = await self.client(self.rng.choice(self.names) if self.names else None)
        table = await self.new_table(ann)
        await ann.request(m.Join(table=table, seat=0))
        await self.prize(ann, table)
        assert isinstance(await ann.request(m.StartGame(table=table)), m.Ok)
        self.figures["games"] += 1
        fate = self.rng.choice(["finish", "finish", "end", "leave"])
        if fate == "finish":
            await ann.wait_for(lambda x: isinstance(x, m.Snapshot) and x.state == "playing")
            await ann.play(table, self.rng)
            self.figures["games finished"] += 1
        elif fate == "end":
            await ann.request(m.EndGame(table=table))
            self.figures["games ended by the master"] += 1
        else:
            await ann.request(m.Leave(table=table))  # the creator's table closes
            self.figures["tables closed by leaving"] += 1
        if fate != "leave" and self.rng.random() < 0.6:
            await self.prize(ann, table)  # for the next game: held across what follows
        await ann.aclose()

    async def hand_over(self) -> None:
        """The master hands the table on; the new master's prize replaces his."""
        ann = await self.client()
        bob_name = f"n{self.made}"
        bob = await self.client()
        table = await self.new_table(ann)
        await ann.request(m.Join(table=table, seat=0))
        await bob.request(m.Join(table=table, seat=1))
        await self.prize(ann, table)
        await ann.request(m.HandOver(table=table, name=bob_name))
        await self.prize(bob, table)
        assert isinstance(await bob.request(m.StartGame(table=table)), m.Ok)
        self.figures["games"] += 1
        self.figures["hand-overs"] += 1
        async with trio.open_nursery() as both:
            both.start_soon(ann.play, table, self.rng)
            both.start_soon(bob.play, table, self.rng)
        self.figures["games finished"] += 1
        await ann.aclose()
        await bob.aclose()

    async def operator_close(self) -> None:
        """A bot game with a prize, closed by an operator mid-game."""
        ann = await self.client()
        table = await self.new_table(ann)
        await self.prize(ann, table)
        await ann.request(m.StartGame(table=table))
        self.figures["games"] += 1
        op = await self.client()
        await op.request(m.AdminAuth(secret=SECRET))
        await op.request(m.AdminCloseTable(table=table, reason="soak"))
        self.figures["tables closed by an operator"] += 1
        await ann.aclose()
        await op.aclose()

    async def house(self) -> None:
        """Everyone leaves a running house table: its game is abandoned."""
        people = [await self.client() for _ in range(4)]
        tables = (await people[0].request(m.ListTables())).tables
        house = [t for t in tables if t["master"] is None and t["state"] != "playing"]
        if not house:
            return
        table, seats = house[0]["table"], house[0]["seats"]
        for person in people[:seats]:
            await person.request(m.Join(table=table))
        self.figures["games"] += 1
        for person in people[:seats]:
            await person.request(m.Leave(table=table))
        self.figures["house games abandoned"] += 1
        for person in people:
            await person.aclose()

    async def claims(self, n: int) -> None:
        """``n`` new names at once."""
        async with trio.open_nursery() as all_at_once:
            for _ in range(n):
                all_at_once.start_soon(self._claim)

    async def _claim(self) -> None:
        client = await self.client()
        self.figures["names claimed"] += 1
        await client.aclose()

    # ------------------------------------------------------ in flight
    async def busy(self) -> None:
        """Work a kill interrupts: a bot game with a prize, prize changes, claims."""
        try:
            async with trio.open_nursery() as work:
                work.start_soon(self._bot_game)
                work.start_soon(self.claims, self.rng.randrange(2, 12))
        except* GONE:
            pass  # the server died under it: what it did is for the audit to judge
        except* AssertionError:
            pass  # a request refused by a server shutting down

    async def _bot_game(self) -> None:
        ann = await self.client()
        table = await self.new_table(ann)
        await self.prize(ann, table)
        await ann.request(m.StartGame(table=table))
        self.figures["games"] += 1
        await ann.wait_for(lambda x: isinstance(x, m.Snapshot) and x.state == "over", 60)
        self.figures["games finished"] += 1
        await self.prize(ann, table)


@pytest.mark.slow
async def test_every_prize_is_settled_once_across_kills_and_restarts(
    tmp_path: Path, nursery: trio.Nursery
) -> None:
    config = tmp_path / "switchboard.toml"
    config.write_text(
        "[server]\nscrypt_n = 2\nbot_delay_seconds = 0.002\n"
        f'operator_secret = "{SECRET}"\nopen_tables = ["{RULESET}"]\n'
    )
    data = tmp_path / "data"
    rng = random.Random(22)
    run = Soak(rng, data)
    steps = [run.game, run.game, run.game, run.hand_over, run.operator_close, run.house]
    for _ in range(soak(5, 100)):
        proc, run.port, server_log = await start_server(nursery, data, config)
        run.figures["server starts"] += 1
        run.audit("after a start")
        for _ in range(rng.randint(2, 5)):
            step = rng.choice(steps)
            if rng.random() < 0.2:
                await run.claims(rng.randrange(2, 20))
            else:
                try:
                    await step()
                except BaseException:
                    print(bytes(server_log).decode(errors="replace")[-3000:])  # the server said
                    raise
            run.audit(f"after {step.__name__}")
        how = rng.choice([signal.SIGTERM, signal.SIGKILL, signal.SIGKILL])
        async with trio.open_nursery() as flight:
            flight.start_soon(run.busy)
            await trio.sleep(rng.uniform(0, 0.4))
            proc.send_signal(how)
            with trio.fail_after(30):
                await proc.wait()
            flight.cancel_scope.cancel()
        assert how == signal.SIGKILL or proc.returncode == 0, proc.returncode
        run.figures["SIGTERM" if how == signal.SIGTERM else "kill -9"] += 1
        run.audit("after the stop")
    print(f"\nchip soak: {dict(sorted(run.figures.items()))}")
    assert run.problems == []
    assert run.figures["games finished"] and run.figures["kill -9"]
