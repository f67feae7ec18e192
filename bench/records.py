"""Do record fetches stall the server? Another client's ping p99 while 8 clients fetch the
longest record in a loop, beside its p99 with no fetchers, from one run.

Run: ``python bench/records.py [--events 14000] [--seconds 5] [--fetchers 8]``.

One real server process on 127.0.0.1 with its default settings. Four server bots play a
long ``switch`` game (target 10000) while this script watches it; once its public log
holds ``--events`` events the master pauses it, so the record stays long and running
(a running hidden-hand game's record is its public log, the costly kind). Phase 1: a
pinger sends ``ping`` every 5 ms and times each ``pong``. Phase 2: the same while
``--fetchers`` clients, each watching the table (a running game's record is for its
members), ask for its record page after page, from the start again at the end, as fast
as the replies come; after a ``rate_limited`` refusal a fetcher waits 0.2 s, as the
terminal client does (``--hammer``: it asks again at once, which loopback, a trusted
address, may do without the request-rate guard that would drop a remote client).
Phase 1b, a control: the same number of clients in the same kind of process, each
pinging every 0.1 s instead, so that what the machine itself adds (a loaded CPU, the
clients' process) shows apart from what the record requests cost the server.
Target: phase 2's ping p99 within 2x of phase 1's.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import trio  # noqa: E402

from bench.wireconn import Conn, memory_server  # noqa: E402
from protocol import messages as m  # noqa: E402
from protocol.msgpack_codec import encode  # noqa: E402

TARGET = 2.0
CONTROL = "control"  #: a table name no server gives: the control clients only ping


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))] if s else float("nan")


async def long_paused_game(port: int, events: int) -> str:
    """A table whose running (paused) game has at least ``events`` events."""
    master = await Conn.open(port, "archivist")
    made = await master.request(
        m.CreateTable(ruleset="switch", seats=4, options={"target": 10000, "turn_seconds": 0})
    )
    table = made.table
    await master.request(m.Spectate(table=table))
    await master.send(m.StartGame(table=table))
    seq = 0
    while seq < events:
        msg = await master.receive()
        if isinstance(msg, m.Snapshot) and msg.state == "over":
            raise SystemExit("the game ended before it was long enough: ask for fewer --events")
        seq = max(seq, getattr(msg, "seq", 0) or 0)
    await master.send(m.PauseGame(table=table))
    while True:  # the pause's snapshot: nothing more happens at the table
        msg = await master.receive()
        if isinstance(msg, m.Snapshot) and msg.state == "paused":
            return table


async def pinger(port: int, seconds: float) -> list[float]:
    conn = await Conn.open(port)
    await conn.request(m.Hello())
    rtts = []
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        t = time.perf_counter()
        await conn.request(m.Ping())
        rtts.append((time.perf_counter() - t) * 1000)
        await trio.sleep(0.005)
    return rtts


async def fetcher(port: int, table: str, index: int, counts: dict[str, int], polite: bool) -> None:
    conn = await Conn.open(port, f"reader{index}")
    await conn.request(m.Spectate(table=table))
    if table == CONTROL:  # the control: as busy a client, asking for nothing costly
        while True:
            await conn.request(m.Ping())
            counts["pages"] += 1
            await trio.sleep(0.1)
    start = 0
    while True:
        reply = await conn.request(m.GetRecord(table=table, start=start))
        if isinstance(reply, m.Record):
            counts["pages"] += 1
            counts["events"] += len(reply.record["events"])
            start = reply.next or 0
        else:
            counts[reply.code] = counts.get(reply.code, 0) + 1
            if polite:  # as the client does (client/net/records.py): wait, then ask again
                await trio.sleep(0.2)


def fetchers(port: int, table: str, n: int, polite: bool, seconds: float, out: Any) -> None:
    """The fetchers, in a process of their own: decoding their pages must not slow the
    pinger's own loop, or the figure would measure this script, not the server."""
    counts = {"pages": 0, "events": 0}

    async def main() -> None:
        with trio.move_on_after(seconds):
            async with trio.open_nursery() as nursery:
                for i in range(n):
                    nursery.start_soon(fetcher, port, table, i, counts, polite)

    trio.run(main)
    out.put(counts)


async def with_clients(
    port: int, table: str, args: argparse.Namespace
) -> tuple[list[float], dict[str, int]]:
    """The pinger's round trips while ``args.fetchers`` clients in another process fetch
    ``table``'s record (``CONTROL``: ping every 0.1 s instead), and their counts."""
    spawn = multiprocessing.get_context("spawn")  # a fresh interpreter: no trio run inherited
    out: Any = spawn.Queue()
    proc = spawn.Process(
        target=fetchers,
        args=(port, table, args.fetchers, not args.hammer, args.seconds + 1.5, out),
    )
    proc.start()
    await trio.sleep(1.0)  # every client connected and busy
    rtts = await pinger(port, args.seconds)
    counts = await trio.to_thread.run_sync(out.get)
    proc.join()
    return rtts, counts


async def measure(port: int, args: argparse.Namespace) -> None:
    table = await long_paused_game(port, args.events)
    probe = await Conn.open(port, "prober")
    await probe.request(m.Spectate(table=table))
    first = await probe.request(m.GetRecord(table=table))
    size = len(encode(first))
    print(f"record: table {table}, a running (paused) switch game of {first.total} events,"
          f" in pages of {len(first.record['events'])} ({size} bytes a page)")  # fmt: skip
    alone = await pinger(port, args.seconds)
    control, _ = await with_clients(port, CONTROL, args)
    loaded, counts = await with_clients(port, table, args)
    print(f"{'phase':<28}{'pings':>7}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}")
    rows = (
        ("no fetchers", alone),
        (f"{args.fetchers} pinging clients (control)", control),
        (f"{args.fetchers} fetchers", loaded),
    )
    for name, rtts in rows:
        print(f"{name:<28}{len(rtts):>7}{pct(rtts, 0.5):>9.3f}{pct(rtts, 0.99):>9.3f}"
              f"{max(rtts):>9.3f}")  # fmt: skip
    refused = {k: v for k, v in counts.items() if k not in ("pages", "events")}
    print(f"fetchers got {counts['pages']} pages ({counts['events']} events), refusals {refused}")
    ratio = pct(loaded, 0.99) / pct(alone, 0.99)
    print(
        f"ping p99 with fetchers / with the control clients: "
        f"{pct(loaded, 0.99) / pct(control, 0.99):.2f}x (the machine's own share)"
    )
    verdict = "met" if ratio <= TARGET else "NOT met"
    print(f"ping p99 with fetchers / without: {ratio:.2f}x (target <= {TARGET:.0f}x): {verdict}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=14_000)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--fetchers", type=int, default=8)
    parser.add_argument(
        "--hammer",
        action="store_true",
        help="fetchers ask again at once after rate_limited (default: wait 0.2 s, as the client)",
    )
    args = parser.parse_args()
    with memory_server({"host": "127.0.0.1", "port": 0}) as port:
        trio.run(measure, port, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
