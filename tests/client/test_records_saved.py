"""`record` saves each game to its own file in the user's data directory and says where."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

from harness import Driver, run_client

from client.net.config import records_dir


def test_record_names_each_file_for_its_game_and_says_where(tmp_path, monkeypatch) -> None:
    """Before, records were saved as <table>.json in the config directory: a private game is
    always table 1, so each record overwrote the last, and the names were seat numbers."""
    monkeypatch.setenv("SWITCHBOARD_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("SWITCHBOARD_RECORDS_DIR", str(tmp_path / "records"))

    async def script(d: Driver) -> None:
        await d.until(lambda: d.table is not None and d.table.view, what="the board")
        d.line("record")
        await d.until_screen("record saved to")
        d.line("record")
        await d.until(lambda: len(list((tmp_path / "records").iterdir())) == 2, what="two")
        d.line("quit")

    assert asyncio.run(run_client(script, game="kilodney", name="ann")) == 0
    files = sorted(p.name for p in (tmp_path / "records").iterdir())
    assert len(files) == 2
    for name in files:
        assert re.fullmatch(r"kilodney-\d{4}-\d\d-\d\d-\d{6}-1(~2)?\.json", name), name
    saved = json.loads((tmp_path / "records" / files[0]).read_text())
    assert saved["ruleset"] == "kilodney" and saved["names"][0] == "ann"


def test_the_records_directory_is_the_users_data_directory(monkeypatch) -> None:
    monkeypatch.delenv("SWITCHBOARD_RECORDS_DIR", raising=False)
    import platformdirs

    data = Path(platformdirs.user_data_dir("switchboard", appauthor=False))
    assert records_dir() == data / "records"
