"""Where should a small commit run? On the trio thread, or handed to the store's writer thread?

    python bench/commit.py [--writes 3000] [--tables 250]

``server.store.sqlite.SQLiteStore`` commits on the trio thread (``inline``, the
default under ``synchronous=NORMAL``) and keeps its writer thread for what may
block for long. This measures that choice beside the reference, the same store
with every commit handed to the writer thread (``inline=False``: a queue put,
the thread's transaction, and one ``trio.from_thread.run_sync`` to wake the
waiter), in the same run, on the same kind of file (WAL, ``synchronous=NORMAL``)
in a temporary directory:

1. one task committing one ``ActionTaken`` at a time (an action's acknowledgement
   on a quiet server waits for exactly this): latency p50 and p99;
2. ``--tables`` tasks each committing in a loop at once (a busy server's tables):
   commits per second, latency p99, and the trio thread's CPU per write (the
   server's table work is bound by that thread, so its cost is what matters).

Target: inline beats the thread hop at the p50 of (1) and costs the trio thread no
more per write in (2). Both print their verdict.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import trio  # noqa: E402

from server.store.base import ActionTaken  # noqa: E402
from server.store.sqlite import SQLiteStore  # noqa: E402


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))] * 1e6 if s else float("nan")


def verdict(met: bool) -> str:
    return "met" if met else "NOT met"


async def one_at_a_time(store: SQLiteStore, writes: int) -> list[float]:
    times = []
    for i in range(writes):
        t0 = time.perf_counter()
        await store.commit(ActionTaken(1, 1, i, 0, "draw"))
        times.append(time.perf_counter() - t0)
    return times[writes // 10 :]  # the first tenth warms up


async def many_at_once(store: SQLiteStore, tables: int, rounds: int) -> dict[str, float]:
    times: list[float] = []

    async def table(t: int) -> None:
        for r in range(rounds):
            t0 = time.perf_counter()
            await store.commit(ActionTaken(100 + t, 1, r, 0, "draw"))
            times.append(time.perf_counter() - t0)

    cpu0, t0 = time.thread_time(), time.perf_counter()
    async with trio.open_nursery() as nursery:
        for t in range(tables):
            nursery.start_soon(table, t)
    elapsed, cpu = time.perf_counter() - t0, time.thread_time() - cpu0
    n = tables * rounds
    return {"per_s": n / elapsed, "p99": pct(times, 0.99), "cpu_us": cpu / n * 1e6}


async def measure(inline: bool, writes: int, tables: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="sb-commit-") as tmp:
        store = SQLiteStore(Path(tmp) / "store.sqlite3", inline=inline)
        store.load()
        try:
            single = await one_at_a_time(store, writes)
            before = store.statistics()
            busy = await many_at_once(store, tables, max(1, 4 * writes // tables))
            after = store.statistics()
        finally:
            await store.aclose()
    return {
        "p50": pct(single, 0.5),
        "p99": pct(single, 0.99),
        **{f"busy_{k}": v for k, v in busy.items()},
        "per_commit": (after.writes - before.writes) / max(1, after.commits - before.commits),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--writes", type=int, default=3000)
    parser.add_argument("--tables", type=int, default=250)
    args = parser.parse_args()
    print(f"{os.cpu_count()} cores; load average {os.getloadavg()[0]:.1f} at the start")
    # interleaved, twice each, so a change in the machine's load shows as a spread
    runs: dict[bool, list[dict[str, float]]] = {True: [], False: []}
    for _ in range(2):
        for inline in (False, True):
            runs[inline].append(trio.run(measure, inline, args.writes, args.tables))
    best = {k: min(v, key=lambda r: r["p50"]) for k, v in runs.items()}
    hop, ours = best[False], best[True]
    print("1. one commit at a time, latency in µs (the better of two interleaved runs)")
    for label, r in (("writer thread (reference)", hop), ("trio thread (inline)", ours)):
        print(f"   {label:27} p50 {r['p50']:6.0f}  p99 {r['p99']:6.0f}")
    print(f"   target: inline p50 below the thread's: {verdict(ours['p50'] < hop['p50'])}")
    print(f"2. {args.tables} tables committing at once")
    for label, r in (("writer thread (reference)", hop), ("trio thread (inline)", ours)):
        print(f"   {label:27} {r['busy_per_s']:7.0f} commits/s  p99 {r['busy_p99']:6.0f} µs"
              f"  trio thread CPU {r['busy_cpu_us']:5.1f} µs a write;"
              f"  {r['per_commit']:.1f} writes a transaction")  # fmt: skip
    met = ours["busy_cpu_us"] <= hop["busy_cpu_us"]
    print(f"   target: inline costs the trio thread no more a write: {verdict(met)}")
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
