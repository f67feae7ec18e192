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
        "INSERT INTO names (name, display, salt, digest, created)"
        " VALUES ('cy', 'cy', x'00', x'00', 0)",
        "1 names have no account: cy",
    ),
    "a prize held for an ended game": (
        "UPDATE chip_prizes SET game = 1",
        "table 1 game 1: a prize of 50 is still held though the game ended",
    ),
    # the ratings rebuilt to match, so only the missing result tells
    "a finished game with no result": (
        "DELETE FROM result_seats; DELETE FROM results; DELETE FROM tallies; DELETE FROM ratings",
        "table 1 game 1: finished but no result stored",
    ),
    "a result for an abandoned game": (
        "UPDATE games SET outcome = 'abandoned' WHERE table_id = 1 AND game = 1",
        "table 1 game 1: abandoned but has a result",
    ),
    "a result for a game never dealt": (
        "INSERT INTO results (table_id, game, ruleset, family, rated, at, players, shown,"
        " scores, places) SELECT table_id, 7, ruleset, family, rated, at, players, shown,"
        " scores, places FROM results",
        "table 1 game 7: a result for a game that was never dealt",
    ),
    # ann's winnings (hers as the winner or as the funder of a bot's share) moved to bob,
    # who did not play: every balance still the sum of its entries
    "a prize paid to a seat that did not win": (
        "UPDATE chip_entries SET account = 'bob' WHERE account = 'ann'"
        " AND txn = (SELECT id FROM chip_txns WHERE reason = 'prize won');"
        " UPDATE chip_accounts SET balance = balance - 100 WHERE account = 'ann';"
        " UPDATE chip_accounts SET balance = balance + 100 WHERE account = 'bob'",
        "table 1 game 1: bob was paid 100 (transaction",
    ),
    # a balanced grant from the mint: every sum still adds up
    "a second welcome to a name that has one": (
        "INSERT INTO chip_txns (id, at, reason) VALUES (90, 0, 'welcome');"
        " INSERT INTO chip_entries (txn, account, delta, balance)"
        " VALUES (90, '@mint', -500, 0), (90, 'ann', 500, 0);"
        " UPDATE chip_accounts SET balance = balance - 500 WHERE account = '@mint';"
        " UPDATE chip_accounts SET balance = balance + 500 WHERE account = 'ann'",
        "ann was welcomed again (transaction 90) without having expired",
    ),
    "chips from the mint for no welcome": (
        "INSERT INTO chip_txns (id, at, reason) VALUES (91, 0, 'gift');"
        " INSERT INTO chip_entries (txn, account, delta, balance)"
        " VALUES (91, '@mint', -300, 0), (91, 'bob', 300, 0);"
        " UPDATE chip_accounts SET balance = balance - 300 WHERE account = '@mint';"
        " UPDATE chip_accounts SET balance = balance + 300 WHERE account = 'bob'",
        "transaction 91 (gift) gives 300 chips from the mint",
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
        dst.executescript(sql)
        dst.commit()
        dst.close()
        assert cli_main(["audit", "--data", str(copy)]) == 1, what
        out = capsys.readouterr().out
        assert out.startswith("PROBLEMS") and said in out, (what, out)
    assert cli_main(["audit", "--data", str(tmp_path / "nowhere")]) == 2


async def test_audit_of_a_half_truncated_file_says_restore_from_a_backup(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data"
    await played(data)
    db = data / DB_NAME
    conn = sqlite3.connect(db)  # everything in the main file, none left in the WAL
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    size = db.stat().st_size
    with db.open("r+b") as f:
        f.truncate(size // 2)
    code = cli_main(["audit", "--data", str(data)])
    captured = capsys.readouterr()
    said = captured.out + captured.err
    assert code in (1, 2) and "restore it from a backup" in said, said
    assert "Traceback" not in said
