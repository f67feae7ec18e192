"""``switchboard audit``: the ledger's promises checked from the file, and what it says when
one is broken (each kind of damage made by hand in a copy of a real server's data)."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

import pytest
import trio
from e2e_client import TEST_CONFIG, Client

from protocol import messages as m
from server.app import DB_NAME, Server
from switchboard.cli import main as cli_main


async def played(data: Path) -> None:
    """A server's data: ann's prize paid for game 1, and one held for game 2."""
    server = Server(TEST_CONFIG.replace(data_dir=data, close_grace_seconds=0.5))
    async with trio.open_nursery() as nursery:
        port = await nursery.start(server.serve)
        ann = await Client.connect(port, "ann")
        await Client.connect(port, "bob")
        table = (await ann.request(m.CreateTable(ruleset="switch", seats=2))).table
        await ann.request(m.Join(table=table, seat=0))
        await ann.request(m.SetPrize(table=table, chips=100))
        await ann.request(m.StartGame(table=table))
        await ann.play(table, random.Random(4))
        assert isinstance(await ann.request(m.SetPrize(table=table, chips=50)), m.Ok)
        await ann.aclose()
        server.shutdown()


DAMAGE = {
    "a balance off its entries": (
        "UPDATE chip_accounts SET balance = balance + 5 WHERE account = 'ann'",
        "ann: balance",
    ),
    "a game paid twice": (
        "INSERT INTO chip_txns (id, at, reason, table_id, game)"
        " SELECT 99, at, reason, table_id, game FROM chip_txns WHERE reason = 'prize won'",
        "table 1 game 1: its prize was settled twice",
    ),
    "a name without chips": (
        "INSERT INTO names VALUES ('cy', 'cy', x'00', x'00', 0)",
        "1 names have no account: cy",
    ),
    "a prize held for an ended game": (
        "UPDATE chip_prizes SET game = 1",
        "table 1 game 1: a prize of 50 is still held though the game ended",
    ),
}


async def test_audit_passes_a_real_servers_data_and_names_each_kind_of_damage(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data"
    await played(data)
    assert cli_main(["audit", "--data", str(data), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] and report["prizes_settled"] == 1 and report["chips_held"] == 50
    for what, (sql, said) in DAMAGE.items():
        copy = tmp_path / what.replace(" ", "-")
        copy.mkdir()
        src, dst = sqlite3.connect(data / DB_NAME), sqlite3.connect(copy / DB_NAME)
        src.backup(dst)
        src.close()
        dst.execute(sql)
        dst.commit()
        dst.close()
        assert cli_main(["audit", "--data", str(copy)]) == 1, what
        out = capsys.readouterr().out
        assert out.startswith("PROBLEMS") and said in out, (what, out)
    assert cli_main(["audit", "--data", str(tmp_path / "nowhere")]) == 2
