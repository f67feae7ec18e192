"""Stepping through finished games: the model, the viewer's keys, the command, and a record
fetched from a real server."""

from __future__ import annotations

import asyncio
import json
import random

import pytest
import trio
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

import engine
from client.net.connection import connect
from client.net.records import RecordError
from client.terminal.replay import Replay, ReplayApp
from protocol import messages as m
from switchboard.cli import main as cli_main
from switchboard.replay import fetch_record


def played(ruleset: str, seats: int, seed: int, steps: int) -> engine.Game:
    game = engine.new_game(ruleset, seats=seats, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.over:
            break
        game.apply(game.to_act, rng.choice(game.legal_actions(game.to_act)))
    return game


def test_every_step_is_the_game_replayed_to_that_point() -> None:
    game = played("switch", 3, 4, 25)
    record = game.record()
    replay = Replay(record, seat=1)
    assert replay.steps == len(record["actions"]) + 1
    for i in range(replay.steps):
        prefix = {**record, "actions": record["actions"][:i]}
        assert replay.view(i) == engine.replay(prefix).view(1)


def test_a_public_event_log_steps_event_by_event() -> None:
    game = played("kilodney", 4, 2, 12)
    events = []
    replayed = engine.new_game("kilodney", seats=4, seed=2)
    for seat, notation in game.record()["actions"]:
        events += [e.present(None) for e in replayed.apply(seat, notation)]
    log = {"ruleset": "kilodney", "seats": 4, "options": {}, "events": events}
    replay = Replay(log)
    assert not replay.full
    assert replay.steps == len(events) + 1
    last = replay.text(replay.steps - 1)
    assert "plays" in last and "step" in last


def test_viewer_keys_step_forward_back_and_jump() -> None:
    replay = Replay(played("abbott", 4, 9, 20).record())

    async def main() -> int:
        with create_pipe_input() as pipe:
            viewer = ReplayApp(replay, input=pipe, output=DummyOutput())
            task = asyncio.ensure_future(viewer.application.run_async())
            await asyncio.sleep(0.05)
            pipe.send_text("\x1b[C\x1b[C\x1b[Cn")  # Right x3, n
            await asyncio.sleep(0.1)
            assert viewer.i == 4
            pipe.send_text("\x1b[Dp")  # Left, p
            await asyncio.sleep(0.1)
            assert viewer.i == 2
            pipe.send_text("\x1b[F")  # End
            await asyncio.sleep(0.1)
            assert viewer.i == replay.steps - 1
            pipe.send_text("\x1b[H")  # Home
            await asyncio.sleep(0.1)
            assert viewer.i == 0
            pipe.send_text("q")
            return await asyncio.wait_for(task, 5)

    assert asyncio.run(main()) == 0


def test_the_command_prints_steps_from_a_file(tmp_path, capsys) -> None:
    record = played("abbott", 2, 1, 10).record()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    assert cli_main(["replay", str(path), "--print", "--step", "3"]) == 0
    out = capsys.readouterr().out
    assert "step 3/" in out and "a    b    c    d    e" in out and out.isascii()
    assert cli_main(["replay", str(path), "--print", "--step", "999"]) == 2


async def test_a_record_fetched_from_the_server_replays_the_game(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("SWITCHBOARD_CONFIG_DIR", str(tmp_path))
    from server.app import Server
    from server.core.config import ServerConfig

    async with trio.open_nursery() as nursery:
        # a lobby page of one table: the game's is on the second (a waiting one first)
        config = ServerConfig(host="127.0.0.1", port=0, scrypt_n=2**4, record_page=5, lobby_page=1)
        server = Server(config)
        port = await nursery.start(server.serve)
        async with connect("127.0.0.1", port, name="ann") as conn:
            await conn.request(m.CreateTable(ruleset="switch", seats=2))  # listed first
            made = await conn.request(m.CreateTable(ruleset="abbott", seats=4))
            await conn.join(made.table)
            await conn.request(m.StartGame(table=made.table))
            t = conn.state.tables[made.table]
            moves = 0
            with trio.fail_after(10):
                while moves < 3:
                    await trio.sleep(0.01)
                    if t.my_turn and not t.stale:
                        await conn.act(made.table, t.legal[0])
                        moves += 1
                while t.stale or conn.resyncing(made.table):
                    await trio.sleep(0.01)
            with pytest.raises(RecordError) as refused:  # bob is not at the running game
                await fetch_record("127.0.0.1", port, made.table, "bob")
            assert refused.value.code == "not_member"
            with trio.fail_after(30):
                while not t.view.get("over"):
                    await trio.sleep(0.01)
                    if t.my_turn and not t.stale and t.legal:
                        await conn.act(made.table, t.legal[0])
                while t.stale or conn.resyncing(made.table):
                    await trio.sleep(0.01)
            record = await fetch_record("127.0.0.1", port, made.table, "bob")
            assert record["full"]  # the game is over: the whole record, in pages of 5
            assert len(record["actions"]) > 5
            assert record["names"][0] == "ann"  # read from the lobby's pages
            replay = Replay(record)
            ours = {k: v for k, v in t.view.items() if k not in ("viewer",)}
            theirs = {k: v for k, v in replay.view(replay.steps - 1).items() if k != "viewer"}
            assert theirs == ours
            # A finished game's record needs no name: none is claimed where none was used.
            anonymous = await fetch_record("127.0.0.1", port, made.table, None)
            assert anonymous["actions"] == record["actions"]
        server.shutdown()


@pytest.mark.parametrize(
    ("ruleset", "seats"), [("abbott", 4), ("abbott", 2), ("j28", 4), ("kilodney", 5)]
)
def test_a_public_log_replays_with_a_board_and_names(ruleset: str, seats: int) -> None:
    """Before, a running game's record (its public log) replayed as bare events, and the
    shedding and kilodney games named every player "seat N"."""
    game = engine.new_game(ruleset, seats=seats, seed=3)
    rng = random.Random(3)
    events = [e.present(None) for e in game.opening_events]
    for _ in range(30):
        if game.over:
            break
        seat = game.to_act
        events += [e.present(None) for e in game.apply(seat, rng.choice(game.legal_actions(seat)))]
    names = ["ann", "bob", "cy", "di", "ed"][:seats]
    replay = Replay(
        {"ruleset": ruleset, "seats": seats, "options": {}, "events": events, "names": names}
    )
    board = replay.view(replay.steps - 1)
    real = game.view(None)
    for key in ("hand_sizes", "top", "pieces", "grid"):
        if key in real:
            assert board[key] == real[key], key
    text = replay.text(replay.steps - 1)
    assert "ann" in text and "seat 0" not in text, text


def test_replay_takes_its_seat_as_a_person_counts_seats() -> None:
    """``switchboard replay --seat 1`` is the first seat (the record's seat 0); 0 is refused."""
    import argparse

    import pytest

    from switchboard import replay as command

    parser = argparse.ArgumentParser()
    command.add_arguments(parser)
    assert parser.parse_args(["game.json", "--seat", "1"]).seat == 0
    assert parser.parse_args(["game.json"]).seat is None
    with pytest.raises(SystemExit):
        parser.parse_args(["game.json", "--seat", "0"])
