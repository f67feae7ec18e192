"""The table's CPU time per action, in one process and without sockets: the steadiest
figure to compare two builds by on a shared machine.

    python bench/actioncpu.py                # 40 tables, 20,000 actions, 3 passes
    python bench/actioncpu.py --actions 5000 --passes 1

``bench/load.py`` measures the real server over loopback, where the figure a busy
machine bends least is the server's CPU per action, and even that moves by a fifth
from run to run when other work crowds the cores. This runs the part of it that is
ours alone: real ``server.tables.table.Table`` tasks (SQLite store in a temporary directory,
the default options: a turn clock runs) whose four seats are held by members that
encode everything delivered to them as a connection does (msgpack, with the shared
encodings) and act at once on their turn with their first legal action; a finished
game is started again. It leaves out what the kernel and trio's I/O cost (reading
and writing sockets) and decoding what clients send.

Beside it, from the same run, is the engine's floor: the same games replayed by the
engine alone, each action applied and every seat's view made once (what a table
cannot avoid doing). No target: a build is better if its figure is lower; the
median of the passes is printed, with every pass.

Before and after: ``python bench/actioncpu.py --against TREE`` measures this tree and
``TREE`` (another checkout, e.g. ``git worktree add ../before COMMIT``), one fresh
process per pass, the two trees taking turns (each going first every other round) so
that load on the machine falls on both alike; the medians are printed side by side
with their ratio (after / before) and the target (at most ``TARGET`` of before).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# The tree whose server is measured: this one, or the one a comparison's worker was given.
TREE = os.environ.get("BENCH_ACTIONCPU_TREE") or str(ROOT)
sys.path.insert(0, TREE)

import trio  # noqa: E402
import trio.testing  # noqa: E402

from engine.registry import record_start  # noqa: E402
from protocol import messages as m  # noqa: E402
from protocol.limits import DEFAULT_LIMITS  # noqa: E402
from server.core.commands import Act, Join, Start  # noqa: E402
from server.core.config import ServerConfig  # noqa: E402
from server.store.base import TableCreated  # noqa: E402
from server.store.sqlite import SQLiteStore  # noqa: E402
from server.tables.table import Table  # noqa: E402
from server.transport.framing import MsgpackFraming as Codec  # noqa: E402

RULESET = "kilodney"
#: the CPU an action may cost after, as a share of before (``--against``)
TARGET = 0.6
CONFIG = ServerConfig(host="127.0.0.1", port=0, scrypt_n=2)


class Player:
    """A seat's member: encodes what it is sent, and acts at once on its turn."""

    operator = False

    def __init__(self, name: str, seat: int, codec: Codec, run: Run) -> None:
        self.name, self.seat, self.codec, self.run = name, seat, codec, run
        self.token: str | None = None
        self.table: Table | None = None
        self.bytes = 0

    def deliver(self, message: m.Message) -> None:
        self.deliver_many((message,))

    def deliver_many(self, messages: Any) -> None:
        self.bytes += len(b"".join([self.codec.encode(x) for x in messages]))
        for x in messages:
            if isinstance(x, m.Seated):
                self.token = x.token
            elif isinstance(x, m.Turn) and x.to_act == self.seat and x.legal:
                self.run.act(self, x.legal[0])
            elif isinstance(x, m.Snapshot) and x.state == "over" and self.seat == 0:
                self.run.restart(self)


class Run:
    """Tables played until ``actions`` actions were taken in all."""

    def __init__(self, actions: int) -> None:
        self.actions = actions
        self.taken = 0
        self.req = 0
        self.done = trio.Event()
        self.games: list[dict[str, Any]] = []

    def act(self, player: Player, action: str) -> None:
        assert player.table is not None and player.token is not None
        self.taken += 1
        self.req += 1
        if self.taken >= self.actions:
            self.done.set()
        else:
            player.table.submit_nowait(Act(player, self.req, player.token, action))

    def restart(self, player: Player) -> None:
        assert player.table is not None and player.table.game is not None
        self.games.append(player.table.game.record())
        self.req += 1
        player.table.submit_nowait(Start(player, self.req))


async def tables_pass(count: int, actions: int, tmp: Path) -> tuple[float, list[dict[str, Any]]]:
    """CPU seconds per action of ``count`` tables playing ``actions`` actions; the
    records of the games they played (the floor replays them)."""
    store = SQLiteStore(tmp / f"bench-{time.monotonic_ns()}.sqlite3")
    store.load()  # opens it, as the server does at start
    codec = Codec(DEFAULT_LIMITS)
    run = Run(actions)
    async with trio.open_nursery() as nursery:
        players = []
        for t in range(1, count + 1):
            await store.commit(TableCreated(t, RULESET, 4, {}, "p0", {}))
            table = Table(t, RULESET, 4, {}, config=CONFIG, store=store, creator=f"t{t}p0")
            await nursery.start(table.run)
            for seat in range(4):
                player = Player(f"t{t}p{seat}", seat, codec, run)
                player.table = table
                await table.submit(Join(player, None, seat))
                players.append(player)
        await trio.testing.wait_all_tasks_blocked()
        cpu = time.process_time()
        for player in players[::4]:
            await player.table.submit(Start(player, None))  # type: ignore[union-attr]
        await run.done.wait()
        spent = time.process_time() - cpu
        tables = [p.table for p in players[::4] if p.table is not None]
        run.games += [t.game.record() for t in tables if t.game is not None]
        nursery.cancel_scope.cancel()
    await store.aclose()
    return spent / run.taken, run.games


def floor_per_action(games: list[dict[str, Any]]) -> float:
    """CPU seconds per action of the engine alone: apply each action, view every seat."""
    actions = 0
    cpu = time.process_time()
    for record in games:
        game = record_start(record)
        for seat, notation in record["actions"]:
            game.apply(seat, notation)
            for s in range(4):
                game.view(s)
            actions += 1
    return (time.process_time() - cpu) / max(actions, 1)


def _worker(tree: str, tables: int, actions: int) -> dict[str, float]:
    """One pass of ``tree``'s tables, in a fresh process: µs an action, and the floor."""
    out = subprocess.run(
        [sys.executable, __file__, "--worker", "--tables", str(tables), "--actions",
         str(actions), "--passes", "1"],
        env={**os.environ, "BENCH_ACTIONCPU_TREE": tree},
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    result: dict[str, float] = json.loads(out.stdout.splitlines()[-1])
    return result


def compare(against: str, tables: int, actions: int, passes: int) -> None:
    """``against`` (before) and this tree (after), a pass each in turn, each side going
    first every other round; the medians side by side, their ratio and the target."""
    trees = {"before": str(Path(against).resolve()), "after": TREE}
    print(f"before: {trees['before']}\nafter:  {trees['after']}")
    print(f"load average {os.getloadavg()[0]:.1f} at the start")
    got: dict[str, list[dict[str, float]]] = {"before": [], "after": []}
    for k in range(passes):
        sides = list(trees.items())
        for side, tree in sides if k % 2 == 0 else sides[::-1]:
            got[side].append(_worker(tree, tables, actions))
    print(f"{tables} tables of 4 members ({RULESET}), {actions} actions a pass,"
          f" {passes} passes a side; load average {os.getloadavg()[0]:.1f} at the end")  # fmt: skip
    ours = {side: statistics.median(r["us"] for r in runs) for side, runs in got.items()}
    floor = {side: statistics.median(r["floor"] for r in runs) for side, runs in got.items()}
    for side in trees:
        passes_text = ", ".join(f"{r['us']:.1f}" for r in got[side])
        print(f"   {side:<6} table + encoding {ours[side]:6.1f} µs an action (median;"
              f" passes {passes_text}); engine floor {floor[side]:5.1f}")  # fmt: skip
    ratio = ours["after"] / ours["before"]
    met = "met" if ratio <= TARGET else "NOT met"
    print(f"   after / before {ratio:.2f}x; target <= {TARGET}x: {met}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--actions", type=int, default=20_000)
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument("--against", metavar="TREE", help="compare with another checkout")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.against:
        compare(args.against, args.tables, args.actions, args.passes)
        return
    tmp = Path(tempfile.mkdtemp(prefix="sb-actioncpu-"))
    ours, floors = [], []
    for _ in range(args.passes):
        per_action, games = trio.run(tables_pass, args.tables, args.actions, tmp)
        ours.append(per_action * 1e6)
        floors.append(floor_per_action(games) * 1e6)
    shutil.rmtree(tmp, ignore_errors=True)
    if args.worker:
        print(json.dumps({"us": ours[0], "floor": floors[0]}))
        return
    print(f"{args.tables} tables of 4 members ({RULESET}), {args.actions} actions a pass")
    print(f"   table + encoding  {statistics.median(ours):6.1f} µs an action (median;"
          f" passes {', '.join(f'{x:.1f}' for x in ours)})")  # fmt: skip
    print(f"   engine floor      {statistics.median(floors):6.1f} µs an action"
          f" (apply + a view per seat)")  # fmt: skip
    print("   no target: compare builds by the first figure (lower is better)")


if __name__ == "__main__":
    main()
