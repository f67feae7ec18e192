"""People at tables keep their turn times while four after-game analyses run.

    nice -n 10 python bench/analysis_load.py                  # 30 s quiet, 30 s loaded
    nice -n 10 python bench/analysis_load.py --seconds 60 --alone switch:4

One ``switchboard serve`` (SQLite in a temporary directory, the default settings but
``analysis_running = 4``, so that four run at once, and tables that stay open). First,
finished games to analyse: one of each family the analysis is measured on (``switch``
with 4 players, ``abbott`` with 2 and with 4, ``kilodney`` with 6), played to their end
by the server's bots alone. Then, each in a process of its own:

- an **honest client** pings (one ``ping`` every 50 ms, the next sent once the last's
  ``pong`` is in): its round trip, p50 and p99;
- a **seated person** plays 2-player ``switch`` against a search bot (which thinks in
  the thinking workers, where the analyses run): his **bot turn** is the time from his
  ``act`` sent to his next ``turn`` (the bot's move, thought and played), p50 and p99.

Both are measured **quiet** (``--seconds``, nothing else on the server: the reference),
then while the **four analyses** run, asked at once from four addresses (127.0.0.2 to
127.0.0.5, so each within its own budget): from the asks for ``--seconds`` or until the
first analysis ends, whichever comes first (all four running throughout). The targets are
the issue's: ping p99 and bot turn p99 while four run at most twice quiet. How far each
analysis got in the window is printed too.

Then, for each ``--alone`` family, the **wall time a player waits** at the server's default
settings (a second fresh server, ``analysis_running`` as it is): a game of it analysed
alone (``analyse`` to ``analysis``), the person's table thinking all the while.

The machine's load average is printed beside each phase: other processes waiting for
the same cores bend every latency here. The workers are ``bot_workers`` (0: one fewer
than the cores, at least one), the same pool the bots think in.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import random
import signal
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import trio  # noqa: E402

from bench.load import start_switchboard, verdict  # noqa: E402
from bench.searchload import loadavg, my_turn  # noqa: E402
from bench.wireconn import HOST, Conn  # noqa: E402
from protocol import messages as m  # noqa: E402
from server.core.config import ServerConfig  # noqa: E402
from server.tables.thinking import pool_size  # noqa: E402

FAMILIES = (("switch", 4), ("abbott", 2), ("abbott", 4), ("kilodney", 6))
ANALYSTS = ("127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5")
PING_EVERY = 0.05  #: seconds between an honest client's pings
PERSON_THINKS = 0.005  #: seconds the person waits after his turn comes, on average
#: tables that stay open for their analyses, as many as the bench makes
KEEP_TABLES = (
    "tables_per_name = 0\ntables_per_address = 0\n"
    "finished_table_seconds = 0\nempty_table_seconds = 0\n"
)


# ----------------------------------------------------------- the clients
def _pinger_main(port: int, pipe: Any) -> None:
    """Ping every ``PING_EVERY`` until told to stop: (when sent, round trip) each."""

    async def main() -> None:
        c = await Conn.open(port, "pinger")  # said hello: a connection that never does is closed
        times: list[tuple[float, float]] = []
        pipe.send("ready")
        async with trio.open_nursery() as nursery:
            nursery.start_soon(_stop_on, pipe, nursery.cancel_scope)
            for i in range(1, 10**9):
                t0 = time.perf_counter()
                await c.send(m.Ping(id=i))
                while getattr(await c.receive(), "id", None) != i:
                    pass
                times.append((t0, time.perf_counter() - t0))
                await trio.sleep(PING_EVERY)
        pipe.send(times)

    trio.run(main)


def _person_main(port: int, pipe: Any) -> None:
    """A person against a search bot at 2-player switch, game after game, until told to
    stop: (when he acted, the wait for his next turn) each."""

    async def main() -> None:
        c = await Conn.open(port, "person")
        made = await c.request(m.CreateTable(ruleset="switch", seats=2, options={}))
        assert isinstance(made, m.Ok) and made.table is not None, made
        table = made.table
        await c.request(m.Join(table=table, seat=0))
        await c.request(m.SeatBot(table=table, seat=1, strategy="search"))
        rid = iter(range(10**6, 10**9))
        waits: list[tuple[float, float]] = []
        pipe.send("ready")
        rng = random.Random(7)
        async with trio.open_nursery() as nursery:
            nursery.start_soon(_stop_on, pipe, nursery.cancel_scope)
            await c.send(m.StartGame(table=table, id=next(rid)))
            acted: float | None = None
            while True:
                msg = await c.receive()
                if isinstance(msg, m.Snapshot) and msg.state == "over":
                    acted = None  # the game ended on the bot's move (or his): not counted
                    await c.send(m.StartGame(table=table, id=next(rid)))
                elif my_turn(msg):
                    if acted is not None:
                        waits.append((acted, time.perf_counter() - acted))
                    await trio.sleep(PERSON_THINKS * 2 * rng.random())
                    acted = time.perf_counter()
                    await c.send(m.Act(table=table, action=msg.legal[0], id=next(rid)))  # type: ignore[union-attr]
        pipe.send(waits)

    trio.run(main)


async def _stop_on(pipe: Any, scope: trio.CancelScope) -> None:
    await trio.to_thread.run_sync(pipe.recv)
    scope.cancel()


class Client:
    """A measuring client in a process of its own: started, stopped, its samples."""

    def __init__(self, target: Any, port: int) -> None:
        spawn = mp.get_context("spawn")  # a fresh interpreter: no trio run inherited
        self.pipe, child = spawn.Pipe()
        self.proc = spawn.Process(target=target, args=(port, child), daemon=True)
        self.proc.start()

    async def ready(self) -> None:
        assert await trio.to_thread.run_sync(self.pipe.recv) == "ready"

    async def stop(self) -> list[tuple[float, float]]:
        self.pipe.send("stop")
        samples: list[tuple[float, float]] = await trio.to_thread.run_sync(self.pipe.recv)
        await trio.to_thread.run_sync(self.proc.join)
        return samples


# ------------------------------------------------------------ the games
async def bot_games(port: int, families: list[str]) -> list[tuple[str, str]]:
    """A game of each of ``families`` (``RULESET:SEATS``), played to its end by bots
    alone: (label, table) each."""
    master = await Conn.open(port, "master")
    made: list[tuple[str, str]] = []
    wanted = [(r, int(n)) for r, _, n in (f.partition(":") for f in families)]
    for ruleset, seats in wanted:
        create = m.CreateTable(ruleset=ruleset, seats=seats, options={"turn_seconds": 0})
        reply = await master.request(create)
        assert isinstance(reply, m.Ok) and reply.table is not None, reply
        started = await master.request(m.StartGame(table=reply.table))
        assert isinstance(started, m.Ok), started
        made.append((f"{ruleset} {seats}p", reply.table))
    tables = {t for _label, t in made}
    while True:
        await trio.sleep(1.0)
        listed = await master.request(m.ListTables())
        over = {t["table"] for t in listed.tables if t["state"] == "over"}  # type: ignore[union-attr]
        if tables <= over:
            return made


async def analyst(port: int, address: str, name: str) -> Conn:
    """A named connection from ``address`` (a loopback address of its own)."""
    stream = await trio.open_tcp_stream(HOST, port, local_address=address)
    c = Conn(stream)
    await c.request(m.Hello())
    reply = await c.request(m.ClaimName(name=name, secret="benchpw"))
    assert isinstance(reply, m.Named), reply
    return c


async def analyse(c: Conn, table: str, state: dict[str, Any]) -> None:
    """Ask for ``table``'s analysis and follow it: its progress (done, total) and, once
    it is in, its end time, in ``state[table]``."""
    reply = await c.request(m.Analyse(table=table))
    assert isinstance(reply, m.Ok), reply
    state[table] = (0, 0)
    while not isinstance(msg := await c.receive(), m.Analysis) or msg.table != table:
        if isinstance(msg, m.AnalysisProgress) and msg.table == table:
            state[table] = (msg.done, msg.total)
        elif isinstance(msg, m.Error):
            raise SystemExit(f"the analysis of table {table} failed: {msg.text}")
    state[table] = time.perf_counter()


# ------------------------------------------------------------ the figures
def p(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values``, nearest rank, in ms (nan: none)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def window(samples: list[tuple[float, float]], start: float, end: float) -> list[float]:
    return [took for at, took in samples if start <= at < end]


def line(name: str, pings: list[float], turns: list[float], seconds: float, load: str) -> str:
    return (f"{name:<34} {seconds:>6.0f} s  ping p50 {p(pings, .5):6.2f} p99 {p(pings, .99):7.2f}"
            f" ms ({len(pings)})  bot turn p50 {p(turns, .5):7.1f} p99 {p(turns, .99):7.1f} ms"
            f" ({len(turns)})  load {load}")  # fmt: skip


def target(what: str, loaded: float, quiet: float) -> str:
    return (f"{what} p99 with four analyses {loaded:.1f} ms beside quiet {quiet:.1f} ms"
            f" ({loaded / quiet:.1f}x): target <= 2x ({2 * quiet:.1f} ms): "
            f"{verdict(loaded <= 2 * quiet)}")  # fmt: skip


async def measure(port: int, games: list[tuple[str, str]], args: argparse.Namespace) -> None:
    """Quiet, then four analyses: the person's and the pinger's figures of each."""
    pinger, person = Client(_pinger_main, port), Client(_person_main, port)
    await pinger.ready()
    await person.ready()
    await trio.sleep(args.warm)  # the person's bot's worker started, the first games under way
    quiet_start = time.perf_counter()
    await trio.sleep(args.seconds)
    quiet_load = loadavg()
    analysts = [await analyst(port, a, f"analyst{i}") for i, a in enumerate(ANALYSTS)]
    state: dict[str, Any] = {}
    asked = time.perf_counter()
    async with trio.open_nursery() as nursery:
        for c, (_label, table) in zip(analysts, games, strict=True):
            nursery.start_soon(analyse, c, table, state)
        with trio.move_on_after(args.seconds):
            while not any(isinstance(v, float) for v in state.values()):
                await trio.sleep(0.2)
        nursery.cancel_scope.cancel()  # the window ends at the first analysis's end
    ended = time.perf_counter()
    loaded_load = loadavg()
    pings, turns = await pinger.stop(), await person.stop()
    quiet = (window(pings, quiet_start, asked), window(turns, quiet_start, asked))
    during = (window(pings, asked, ended), window(turns, asked, ended))
    print(line("quiet (no analysis)", *quiet, asked - quiet_start, quiet_load))
    print(line("four analyses running", *during, ended - asked, loaded_load))
    print(target("honest ping", p(during[0], 0.99), p(quiet[0], 0.99)))
    print(target("bot turn", p(during[1], 0.99), p(quiet[1], 0.99)))
    said = []
    for label, table in games:
        if isinstance(at := state.get(table), float):
            said.append(f"{label} done in {at - asked:.1f} s")
        else:
            done, total = at or (0, 0)
            said.append(f"{label} {done}/{total} decisions")
    print("the four analyses at the window's end:", ", ".join(said), flush=True)


async def alone(port: int, games: list[tuple[str, str]]) -> None:
    """Each game analysed alone, the person playing meanwhile: the wall time of each."""
    person = Client(_person_main, port)
    await person.ready()
    await trio.sleep(2.0)
    asker = await analyst(port, ANALYSTS[0], "asker")
    for label, table in games:
        mine: dict[str, Any] = {}
        t0 = time.perf_counter()
        await analyse(asker, table, mine)
        print(f"analysis wall time alone, the person's table thinking: {label}"
              f" {mine[table] - t0:.1f} s (load {loadavg()})", flush=True)  # fmt: skip
    turns = [took for _at, took in await person.stop()]
    print(f"  the person's bot turns meanwhile: p50 {p(turns, 0.5):.1f} ms, p99"
          f" {p(turns, 0.99):.1f} ms ({len(turns)})")  # fmt: skip


def serve(settings: str, run: Any, *args: Any) -> None:
    """A fresh server (``settings`` beside the defaults), its bots' games, then ``run``."""
    with tempfile.TemporaryDirectory() as tmp:
        server, port = start_switchboard(Path(tmp), KEEP_TABLES + settings)
        try:
            games = trio.run(bot_games, port, args[0])
            print(f"{len(games)} games played by bots to analyse; load average {loadavg()}",
                  flush=True)  # fmt: skip
            trio.run(run, port, games, *args[1:])
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=60)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=30.0, help="the quiet window (30)")
    ap.add_argument("--warm", type=float, default=5.0, help="seconds before measuring (5)")
    ap.add_argument("--alone", action="append", default=[], metavar="RULESET:SEATS",
                    help="then analyse a game of this family alone, timed (repeat)")  # fmt: skip
    args = ap.parse_args()
    known = {f"{r}:{n}" for r, n in FAMILIES}
    if bad := [a for a in args.alone if a not in known]:
        ap.error(f"--alone: {', '.join(bad)}; known: {', '.join(sorted(known))}")
    config = ServerConfig()
    workers = pool_size(config.bot_workers)
    print(f"bench/analysis_load.py: {os.cpu_count()} cores, {workers} thinking worker(s),"
          f" analysis_running 4, analysis_worlds {config.analysis_worlds}; load average"
          f" (1 / 5 min) {loadavg()}", flush=True)  # fmt: skip
    serve("analysis_running = 4\n", measure, [f"{r}:{n}" for r, n in FAMILIES], args)
    if args.alone:
        serve("", alone, args.alone)


if __name__ == "__main__":
    main()
