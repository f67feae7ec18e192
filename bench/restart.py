"""How long does a restart take with 1,000 open tables, and does it grow with their history?

Run: ``nice -n 19 python bench/restart.py [--tables 1000] [--actions 40] [--every 16]
[--runs 5]``.

Four SQLite data directories are made, each as a server leaves it: ``--tables`` open
tables of four seats held by players (who are gone: no bot and no clock moves after the
restart), each in the middle of a long game played at random (abbott, kilodney and the
shedding presets in turn), whose actions are stored as the server stores them, with a
snapshot every ``--every`` actions (what ``server.store.snapshots.due`` writes):

- ``1x``: ``--actions`` actions a table on average (40: 40,000 in all, over twice the
  17,000 the first measurement replayed);
- ``4x``: four times as many a table;
- ``1x replay`` and ``4x replay``: the same stores without their snapshots (a store made
  before snapshots), so the table is rebuilt by replaying every action, as before;
- and the reference, an empty data directory.

Each restart is a fresh process that imports the server first and then times
``Server.serve`` from its call until it listens (the store read, every table rebuilt,
the lobby open), and the process's CPU time over the same span (``cpu s``: all its
threads; on a shared machine, less disturbed by the other processes than the wall clock,
which is what the target is judged on). The runs are interleaved and the medians are
printed; with fewer than five a busy machine can hide a difference of 20%. The SQLite store
reads only the actions after each snapshot at start, and the rest when something first
needs a game's whole record; so the same process then asks every table for its whole
record and times that too (``whole records s``): what the restart left for later, paid
at most once a table, and only by a table whose record is needed.

Target: flat in history length, which here means the 4x restart takes at most 1.2x the
1x one (both from snapshots). The full replay's times are printed beside it.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import trio  # noqa: E402

import engine  # noqa: E402
from server.app import DB_NAME  # noqa: E402
from server.core.config import ServerConfig  # noqa: E402
from server.store.base import ActionTaken, GameStarted, SeatSet, TableCreated, Write  # noqa: E402
from server.store.snapshots import snapshot_of  # noqa: E402
from server.store.sqlite import SQLiteStore  # noqa: E402

TARGET = 1.2
#: Options that keep a random game going for hundreds of actions.
LONG = {"abbott": {"target": 1000}, "kilodney": {"target": 500}}
SHEDDING_LONG = {"target": 10000}


def table_writes(tid: int, ruleset: str, actions: int, every: int, rng: random.Random) -> list:
    """One table as a server leaves it: created, four named seats, a game of ``actions``
    random actions, each stored, and a snapshot every ``every`` of them."""
    options = {"turn_seconds": 0, **LONG.get(ruleset, SHEDDING_LONG)}
    writes: list[Write] = [TableCreated(tid, ruleset, 4, options, "p0", {})]
    writes += [SeatSet(tid, s, f"p{s}", bytes([s]) * 32) for s in range(4)]
    seed = rng.randrange(2**62)
    game = engine.new_game(ruleset, 4, seed, options)
    base = 1
    writes.append(GameStarted(tid, 1, seed, None, None, base))
    seq = base + len(game.opening_events)
    for i in range(actions):
        if game.over:
            break
        seat = game.to_act
        assert seat is not None
        events = game.apply(seat, rng.choice(game.legal_actions(seat)))
        seq += len(events)
        last = game.last_action
        assert last is not None
        writes.append(ActionTaken(tid, 1, i, seat, last[1]))
        if game.actions_taken % every == 0:
            writes.append(snapshot_of(tid, 1, game, seq))
    return writes


async def make_store(path: Path, tables: int, actions: int, every: int) -> int:
    """A data directory of ``tables`` open tables, ``actions`` a table on average;
    the actions stored."""
    rng = random.Random(actions)
    rulesets = engine.rulesets()
    store = SQLiteStore(path / DB_NAME)
    store.load()
    total = 0
    for tid in range(1, tables + 1):
        length = rng.randrange(actions // 2, actions * 3 // 2 + 1)
        writes = table_writes(tid, rulesets[tid % len(rulesets)], length, every, rng)
        total += sum(isinstance(w, ActionTaken) for w in writes)
        store.submit_nowait(*writes)
    await store.aclose()
    return total


def without_snapshots(source: Path, target: Path) -> None:
    target.mkdir()
    shutil.copy(source / DB_NAME, target / DB_NAME)
    conn = sqlite3.connect(target / DB_NAME)
    conn.execute("DELETE FROM snapshots")
    conn.commit()
    conn.close()


# A restart in a process of its own: imports first, then Server.serve timed until it listens.
_RESTART = """
import json, sys, time, trio
from pathlib import Path
from server.app import Server
from server.core.config import ServerConfig
config = ServerConfig(host="127.0.0.1", port=0, data_dir=Path(sys.argv[1]), log_level="warning")
async def main():
    async with trio.open_nursery() as nursery:
        server = Server(config)
        start, cpu = time.perf_counter(), time.process_time()
        await nursery.start(server.serve)
        took, cpu = time.perf_counter() - start, time.process_time() - cpu
        tables = list(server.lobby.tables.values())
        replayed = sum(t.replayed_because is not None for t in tables)
        later = time.perf_counter()
        actions = sum(len(t.game.record()["actions"]) for t in tables if t.game is not None)
        whole = time.perf_counter() - later
        print(json.dumps([took, cpu, len(tables), replayed, actions, whole]), flush=True)
        server.shutdown()
trio.run(main)
"""


def restart(path: Path) -> tuple[float, float, int, int, int, float]:
    out = subprocess.run(
        [sys.executable, "-c", _RESTART, str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
        timeout=120,
    )
    took, cpu, tables, replayed, actions, whole = json.loads(out.stdout.strip().splitlines()[-1])
    return took, cpu, tables, replayed, actions, whole


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--actions", type=int, default=40, help="a table's actions (average)")
    parser.add_argument(
        "--every",
        type=int,
        default=ServerConfig().snapshot_every,
        help="a snapshot every N actions",
    )
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="switchboard-restart-") as tmp:
        root = Path(tmp)
        cases: dict[str, Path] = {"empty store": root / "empty"}
        cases["empty store"].mkdir()
        sizes: dict[str, int] = {"empty store": 0}
        made = time.perf_counter()
        for scale in (1, 4):
            name = f"{scale}x"
            (root / name).mkdir()
            sizes[name] = trio.run(
                make_store, root / name, args.tables, scale * args.actions, args.every
            )
            without_snapshots(root / name, root / f"{name} replay")
            sizes[f"{name} replay"] = sizes[name]
            cases[name], cases[f"{name} replay"] = root / name, root / f"{name} replay"
        print(
            f"stores made in {time.perf_counter() - made:.1f} s: {args.tables} open tables,"
            f" a snapshot every {args.every} actions"
        )
        times: dict[str, list[float]] = {name: [] for name in cases}
        cpus: dict[str, list[float]] = {name: [] for name in cases}
        wholes: dict[str, list[float]] = {name: [] for name in cases}
        replays: dict[str, int] = {}
        width = 6 * args.runs + 2
        for _ in range(args.runs):  # interleaved, so a busy moment hits every case alike
            for name, path in cases.items():
                took, cpu, tables, replayed, actions, whole = restart(path)
                assert tables == (0 if name == "empty store" else args.tables), (name, tables)
                assert actions == sizes[name], (name, actions)  # every record whole
                times[name].append(took)
                cpus[name].append(cpu)
                wholes[name].append(whole)
                replays[name] = replayed
        print(
            f"{'case':<14}{'actions':>10}{'replayed':>10}{'median s':>10}{'runs s':>{width}}"
            f"{'cpu s':>8}{'whole records s':>17}"
        )
        for name in cases:
            runs = " ".join(f"{t:.3f}" for t in times[name])
            print(
                f"{name:<14}{sizes[name]:>10,}{replays[name]:>10}"
                f"{statistics.median(times[name]):>10.3f}{runs:>{width}}"
                f"{statistics.median(cpus[name]):>8.3f}{statistics.median(wholes[name]):>17.3f}"
            )
        one, four = (statistics.median(times[n]) for n in ("1x", "4x"))
        slow_one, slow_four = (statistics.median(times[n]) for n in ("1x replay", "4x replay"))
        ratio = four / one
        verdict = "met" if ratio <= TARGET else "NOT met"
        cpu_ratio = statistics.median(cpus["4x"]) / statistics.median(cpus["1x"])
        print(
            f"restart at 4x history / at 1x: {ratio:.2f}x from snapshots"
            f" (CPU time {cpu_ratio:.2f}x; full replay: {slow_four / slow_one:.2f}x);"
            f" target flat in history length (<= {TARGET}x): {verdict}"
        )
        print(
            f"beside the empty store's {statistics.median(times['empty store']):.3f} s:"
            f" 1x {one:.3f} s, 4x {four:.3f} s from snapshots;"
            f" 1x {slow_one:.3f} s, 4x {slow_four:.3f} s by full replay"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
