"""A seated player's ping sent right behind a crowd's burst, beside the same ping quiet.

    python bench/lane.py                      # this tree
    python bench/lane.py --against TREE       # this tree and another checkout, in turn

What it measures: the round trip (``ping`` -> ``pong``) of an honest player seated at a
table he made, from an address of his own (not trusted), sent the moment after 200
connections of the crowd (one a loopback address, 127.0.0.2 on, none seated) have each
written two ``list_tables`` in one write, all within their budgets. The reference, in the
same round: the same player's ping with nobody asking. Twenty rounds, a second apart (the
crowd's budgets refill), the crowd reading every reply before the next.

Why: every request of such a burst reaches the server in the same few passes of its event
loop; served in arrival order, the ping waits for every listing ahead of it (2,000 tables
listed, a page of 50 each). The crowd's lane (``server.transport.crowd_lane``) starts one
message of connections without a seat each pass, so the ping waits for the reads of the
burst and a listing or two. Target: the burst's p50 within 2x the quiet one.

With ``--against``, each round runs on this tree's server and then on the other's (two
servers, each with its own lobby), so the machine's load falls on both alike. The
server runs on all but the last core and the clients on the last (two cores or more).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import trio  # noqa: E402

from bench.crowd import fill_lobby, loadavg, open_from, seated_player, stop_server  # noqa: E402
from bench.load import start_switchboard, verdict  # noqa: E402
from bench.wireconn import Conn  # noqa: E402
from protocol import messages as m  # noqa: E402
from protocol.msgpack_codec import encode  # noqa: E402

CROWD, EACH, ROUNDS = 200, 2, 20


class Side:
    """One server (this tree or the other) with its lobby, its crowd and its player."""

    def __init__(self, name: str, tree: Path, tmp: Path, player: int) -> None:
        settings = "tables_per_name = 0\nfinished_table_seconds = 0\n"
        self.name = name
        self.server, self.port = start_switchboard(tmp, settings, tree=tree)
        if len(cores := sorted(os.sched_getaffinity(0))) > 1:
            os.sched_setaffinity(self.server.pid, cores[:-1])
            os.sched_setaffinity(0, cores[-1:])
        self.player_no = player
        self.crowd: list[Conn] = []
        self.player: Conn | None = None
        self.quiet: list[float] = []
        self.burst: list[float] = []

    async def setup(self, tables: int) -> None:
        await fill_lobby(self.port, tables)
        self.player = await seated_player(self.port, False, self.player_no)
        self.crowd = [
            await open_from(f"127.0.{2 + i // 250}.{2 + i % 250}", self.port) for i in range(CROWD)
        ]

    async def ping(self) -> float:
        player = self.player
        assert player is not None
        t0 = time.perf_counter()
        await player.request(m.Ping())
        return time.perf_counter() - t0

    async def round(self) -> None:
        self.quiet.append(await self.ping())
        await trio.sleep(0.05)
        listings = encode(m.ListTables(id=9)) * EACH
        for c in self.crowd:
            await c.stream.send_all(listings)
        self.burst.append(await self.ping())
        async with trio.open_nursery() as nursery:  # every reply read before the next
            for c in self.crowd:
                nursery.start_soon(self._drain, c)

    @staticmethod
    async def _drain(c: Conn) -> None:
        for _ in range(EACH):
            while getattr(await c.receive(), "id", None) != 9:
                pass


async def run(sides: list[Side], tables: int, rounds: int) -> None:
    for side in sides:
        await side.setup(tables)
    for _ in range(rounds):
        for side in sides:
            await side.round()
            await trio.sleep(1.0)  # the crowd's budgets refill (2 listings a second)


def figures(side: Side) -> tuple[float, float, float, float]:
    q = [x * 1000 for x in side.quiet]
    b = [x * 1000 for x in side.burst]
    return statistics.median(q), max(q), statistics.median(b), max(b)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--against", metavar="TREE", help="another checkout, in turn with this")
    ap.add_argument("--tables", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=ROUNDS)
    args = ap.parse_args()
    print(f"bench/lane.py: {os.cpu_count()} cores; load average {loadavg()}")
    print(
        f"{CROWD} connections of a crowd each write {EACH} list_tables at once "
        f"({args.tables} tables listed), then a seated player pings; {args.rounds} rounds"
    )
    print()
    trees = [("this tree", ROOT)]
    if args.against:
        trees.append(("against", Path(args.against).resolve()))
    met = True
    with tempfile.TemporaryDirectory() as tmp:
        sides = []
        try:
            for i, (name, tree) in enumerate(trees):
                (Path(tmp) / name).mkdir()
                sides.append(Side(name, tree, Path(tmp) / name, 200 + i))
            trio.run(run, sides, args.tables, args.rounds)
        finally:
            for side in sides:
                stop_server(side.server)
    print("| server | quiet ping p50 / max | right behind the burst p50 / max | x quiet (p50) |"
          " target |")  # fmt: skip
    print("|---|---|---|---|---|")
    for side in sides:
        qp50, qmax, bp50, bmax = figures(side)
        ratio = bp50 / qp50
        ok = ratio <= 2.0
        met &= ok or side.name != "this tree"
        print(f"| {side.name} | {qp50:.2f} / {qmax:.2f} ms | {bp50:.2f} / {bmax:.2f} ms |"
              f" {ratio:.2f} | <= 2x: {verdict(ok)} |")  # fmt: skip
    print(f"load average after: {loadavg()}")
    print(f"target (this tree): the ping behind a burst within 2x quiet: {verdict(met)}")


if __name__ == "__main__":
    main()
