"""Crash recovery: a real ``switchboard serve`` process killed with SIGKILL at random
moments under bot load, again and again. After each restart every acknowledged
action is in the store, every table is back, and the client resumes its seats with
its tokens, catching up without a gap or a duplicate.

The "random moment" is a random number of events received, not a sleep: the kill
lands wherever the server happens to be (mid-commit, mid-send, between tables).
"""

from __future__ import annotations

import json
import random
import signal
import sqlite3
from pathlib import Path
from typing import Any

import pytest
import trio
from e2e_client import Client
from serverproc import start_server
from support import soak

import engine
from protocol import messages as m

RULESETS = ["switch", "kilodney", "abbott"]


def stored_tables(db: Path) -> dict[int, dict[str, Any]]:
    """What the database holds, read directly: each open table's games and actions."""
    conn = sqlite3.connect(db)
    out: dict[int, dict[str, Any]] = {}
    for tid, ruleset, seats, options in conn.execute(
        "SELECT id, ruleset, seats, options FROM tables WHERE closed = 0"
    ):
        games = []
        for number, seed, seq in conn.execute(
            "SELECT game, seed, seq FROM games WHERE table_id = ? ORDER BY game", (tid,)
        ):
            actions = conn.execute(
                "SELECT seat, notation FROM actions WHERE table_id = ? AND game = ? ORDER BY idx",
                (tid, number),
            ).fetchall()
            games.append((seed, seq, actions))
        out[tid] = {"ruleset": ruleset, "seats": seats, "options": json.loads(options),
                    "games": games}  # fmt: skip
    conn.close()
    return out


def replayed_events(t: dict[str, Any], seat: int) -> dict[int, dict[str, Any]]:
    """Every event of every stored game of a table as ``seat`` sees it, by seq."""
    out = {}
    for seed, seq, actions in t["games"]:
        game = engine.new_game(t["ruleset"], t["seats"], seed, t["options"])
        batches = [game.opening_events]  # the first deal, numbered right after the start
        batches.extend(game.apply(s, notation) for s, notation in actions)
        for batch in batches:
            for ev in batch:
                seq += 1
                out[seq] = ev.present(seat)
    return out


def is_subsequence(short: list[str], long: list[str]) -> bool:
    it = iter(long)
    return all(any(x == y for y in it) for x in short)


class Player:
    """One client seated at seat 0 of several tables, acting on its turns."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng  #: its choice of move (the deals are the server's own)
        self.tables: list[str] = []
        self.tokens: dict[str, str] = {}
        self.last_seq: dict[str, int] = {}
        self.seen: dict[str, dict[int, dict[str, Any]]] = {}
        self.acked: dict[str, list[str]] = {}
        self.pending: dict[int, tuple[str, str]] = {}  # request id -> (table, action)
        self.busy: set[str] = set()  # tables with an act awaiting its reply
        self.unanswered: dict[str, int] = {}  # acts a kill cut off before their reply
        self.ids = iter(range(1000, 10**9))

    async def drive(self, client: Client, events_before_kill: int) -> None:
        """Play on every table until ``events_before_kill`` events have arrived."""
        count = 0
        while count < events_before_kill:
            msg = await client.next()
            table = getattr(msg, "table", None)
            if isinstance(msg, m.TableEvent):
                count += 1
                assert msg.seq == self.last_seq[table] + 1, (msg.seq, self.last_seq[table])
                self.seen[table][msg.seq] = msg.event
                self.last_seq[table] = msg.seq
            elif isinstance(msg, (m.Snapshot, m.Turn)):
                assert msg.seq >= self.last_seq.get(table, 0)
                self.last_seq[table] = msg.seq
            if isinstance(msg, (m.Ok, m.Error)) and msg.id in self.pending:
                t, action = self.pending.pop(msg.id)
                self.busy.discard(t)
                if isinstance(msg, m.Ok):
                    self.acked[t].append(action)
            elif (isinstance(msg, m.Snapshot) and msg.state == "over") or (
                isinstance(msg, m.Turn) and msg.to_act is None  # over, seen on a resume
            ):
                await client.send(m.StartGame(table=table, id=next(self.ids)))
            elif (
                isinstance(msg, (m.Turn, m.Snapshot))
                and table not in self.busy
                and msg.legal
                and (msg.to_act if isinstance(msg, m.Turn) else msg.view["to_act"]) == 0
            ):
                action = self.rng.choice(msg.legal)
                rid = next(self.ids)
                self.pending[rid] = (table, action)
                self.busy.add(table)
                await client.send(m.Act(table=table, action=action, id=rid))


@pytest.mark.slow
async def test_sigkill_loses_nothing_acknowledged(tmp_path, nursery):
    config = tmp_path / "switchboard.toml"
    config.write_text("[server]\nscrypt_n = 2\n")
    data = tmp_path / "data"
    rng = random.Random(7)
    player = Player(random.Random(8))
    for round_no in range(soak(20, 100)):
        proc, port, _log = await start_server(nursery, data, config)
        client = await Client.connect(port, "crash", secret="s3cret")
        if round_no == 0:
            for ruleset in RULESETS:
                ok = await client.request(m.CreateTable(ruleset=ruleset, seats=4))
                player.tables.append(ok.table)
                seated = await client.request(m.Join(table=ok.table, seat=0))
                player.tokens[ok.table] = seated.token
                player.seen[ok.table], player.acked[ok.table] = {}, []
                player.unanswered[ok.table] = 0
                player.last_seq[ok.table] = 0
                await client.send(m.StartGame(table=ok.table, id=next(player.ids)))
        else:
            # every table is back, and each seat resumes with its token
            listed = await client.request(m.ListTables())
            assert sorted(t["table"] for t in listed.tables) == sorted(player.tables)
            for table in player.tables:
                since = player.last_seq[table]
                resumed = await client.request(m.Resume(table=table, token=player.tokens[table],
                                                        last_seq=since))  # fmt: skip
                assert isinstance(resumed, m.Seated) and resumed.seat == 0, resumed
            player.busy.clear()
        await player.drive(client, rng.randrange(1, 120))
        proc.kill()  # SIGKILL: no goodbye, no last commit
        await proc.wait()
        for table, _action in player.pending.values():
            player.unanswered[table] += 1
        player.pending.clear()
        await client.aclose()

        stored = stored_tables(data / "switchboard.sqlite3")
        assert sorted(map(str, stored)) == sorted(player.tables)
        for table in player.tables:
            t = stored[int(table)]
            truth = replayed_events(t, 0)
            # every event the player was sent was durable before it was sent
            for seq, event in player.seen[table].items():
                assert truth[seq] == event, (table, seq)
            # every acknowledged action is there, in order; the only others are acts
            # whose reply the kill cut off (committed, not yet acknowledged)
            ours = [n for _seed, _seq, acts in t["games"] for s, n in acts if s == 0]
            assert is_subsequence(player.acked[table], ours)
            assert len(ours) <= len(player.acked[table]) + player.unanswered[table]
    # the load was real on every table
    assert all(len(player.acked[t]) > 5 for t in player.tables), player.acked


async def test_sigterm_says_goodbye_keeps_the_data_and_exits_0(tmp_path, nursery):
    config = tmp_path / "switchboard.toml"
    config.write_text("[server]\nscrypt_n = 2\n")
    proc, port, log = await start_server(nursery, tmp_path / "data", config)
    client = await Client.connect(port, "ann")
    ok = await client.request(m.CreateTable(ruleset="kilodney", seats=4))
    await client.request(m.Join(table=ok.table, seat=0))
    await client.request(m.Say(table=ok.table, text="last words"))
    proc.send_signal(signal.SIGTERM)
    bye = await client.wait_for(lambda x: isinstance(x, m.Goodbye))
    assert bye.code == "shutdown"
    with trio.fail_after(10):
        assert await proc.wait() == 0
    assert b"stopped; the store is closed" in log
    # the table, the seat and the talk are in the store
    conn = sqlite3.connect(tmp_path / "data" / "switchboard.sqlite3")
    assert conn.execute("SELECT name FROM seats").fetchall() == [("ann",)]
    assert conn.execute("SELECT text FROM talk").fetchall() == [("last words",)]
