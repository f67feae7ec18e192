"""Does a flooding client slow the other tables? p50/p99 action round trips with and without.

Run: ``python bench/flood.py [--tables 8] [--seconds 8] [--flooders 2]``.

One real server process on 127.0.0.1 (every limit on: no trusted address);
``--tables`` tables of four bot clients each play abbott (no clock) in this
process, acting ``--think`` seconds after their turn comes, and time each
action from ``act`` sent to its ``ok``. Phase 1 measures them alone. Phase 2
measures them again while ``--flooders`` other processes hammer the server:
each connects, names itself, and sends requests as fast as the socket takes
them (table lists, acts with no seat, talk, pings), reconnecting whenever the
server drops it. Both phases come from the same run and the same server, so
the second p99 is read against the first. The flood guard's work shows in the
flooders' counts: requests sent, refusals (``rate_limited``) and drops.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import trio  # noqa: E402

from bench.wireconn import Conn, memory_server  # noqa: E402
from protocol import messages as m  # noqa: E402
from protocol.msgpack_codec import encode  # noqa: E402


class Recorder:
    def __init__(self) -> None:
        self.rtts: list[float] = []
        self.on = False


async def seat_bot(conn: Conn, table: str, master: bool, think: float, rec: Recorder) -> None:
    """Act whenever this seat is to act; time act -> ok; the master restarts finished games."""
    rng = random.Random()
    sent: dict[int, float] = {}
    while True:
        msg = await conn.receive()
        if isinstance(msg, m.Ok) and msg.id in sent:
            t0 = sent.pop(msg.id)
            if rec.on:
                rec.rtts.append(time.perf_counter() - t0)
            continue
        legal: tuple[str, ...] = ()
        if isinstance(msg, m.Turn) and msg.to_act == msg.seat:
            legal = msg.legal
        elif isinstance(msg, m.Snapshot) and msg.state == "playing":
            if msg.view.get("to_act") == msg.seat:
                legal = msg.legal
        elif isinstance(msg, m.Snapshot) and msg.state == "over" and master:
            await conn.send(m.StartGame(table=table, id=next(conn.ids)))
        if legal:
            await trio.sleep(think)
            rid = next(conn.ids)
            sent[rid] = time.perf_counter()
            await conn.send(m.Act(table=table, action=rng.choice(legal), id=rid))


async def run_table(port: int, index: int, think: float, rec: Recorder, nursery) -> None:
    conns = [await Conn.open(port, f"t{index}p{i}") for i in range(4)]
    ok = await conns[0].request(
        m.CreateTable(ruleset="abbott", seats=4, options={"turn_seconds": 0})
    )
    assert isinstance(ok, m.Ok), ok
    table = ok.table
    for i, c in enumerate(conns):
        seated = await c.request(m.Join(table=table, seat=i))
        assert isinstance(seated, m.Seated), seated
    await conns[0].request(m.StartGame(table=table))
    for i, c in enumerate(conns):
        nursery.start_soon(seat_bot, c, table, i == 0, think, rec)


def flooder(port: int, index: int, seconds: float, out: multiprocessing.Queue) -> None:
    """A separate process: flood requests, reconnect when dropped; report what happened."""

    async def main() -> dict[str, int]:
        counts = {"sent": 0, "refused": 0, "drops": 0, "connects": 0}
        end = trio.current_time() + seconds
        burst = b"".join(
            encode(x)
            for x in (
                m.ListTables(id=1),
                m.Act(table="1", action="draw", id=2),
                m.Say(table="1", text="spam " * 40, id=3),
                m.Ping(id=4),
            )
        )
        while trio.current_time() < end:
            try:
                conn = await Conn.open(port, f"flood{index}x{counts['connects']}")
            except (OSError, EOFError, AssertionError, trio.BrokenResourceError):
                counts["drops"] += 1
                await trio.sleep(0.05)
                continue
            counts["connects"] += 1

            async def drain(conn: Conn = conn) -> None:
                while True:
                    msg = await conn.receive()
                    if isinstance(msg, m.Error) and msg.code == "rate_limited":
                        counts["refused"] += 1

            try:
                async with trio.open_nursery() as n:
                    n.start_soon(drain)
                    while trio.current_time() < end:
                        await conn.stream.send_all(burst)
                        counts["sent"] += 4
                    n.cancel_scope.cancel()
            except (EOFError, trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                counts["drops"] += 1
            except BaseExceptionGroup:
                counts["drops"] += 1
        return counts

    out.put(trio.run(main))


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


async def measure(port: int, args: argparse.Namespace) -> None:
    rec = Recorder()
    async with trio.open_nursery() as nursery:
        for i in range(args.tables):
            await run_table(port, i, args.think, rec, nursery)
        await trio.sleep(1.0)  # warm up
        phases = []
        for label, flooders in (("alone", 0), (f"{args.flooders} flooding", args.flooders)):
            ctx = multiprocessing.get_context("spawn")  # a forked child would inherit trio's run
            procs, queue = [], ctx.Queue()
            for i in range(flooders):
                p = ctx.Process(
                    target=flooder, args=(port, i, args.seconds + 0.5, queue), daemon=True
                )
                p.start()
                procs.append(p)
            if flooders:
                await trio.sleep(0.5)  # the flood is on before we measure
            rec.rtts, rec.on = [], True
            await trio.sleep(args.seconds)
            rec.on = False
            rtts = rec.rtts
            counts = [await trio.to_thread.run_sync(queue.get) for _ in procs]
            for p in procs:
                p.join()
            phases.append((label, rtts, counts))
        nursery.cancel_scope.cancel()
    print(
        f"{args.tables} tables x 4 bot clients, think {args.think * 1000:.0f} ms, "
        f"{args.seconds:.0f} s per phase, flood cool-off {args.cooloff:g} s"
    )
    print(f"{'phase':<14}{'actions':>9}{'act/s':>9}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}")
    for label, rtts, _ in phases:
        print(
            f"{label:<14}{len(rtts):>9}{len(rtts) / args.seconds:>9.0f}"
            f"{pct(rtts, 0.5) * 1000:>9.2f}{pct(rtts, 0.99) * 1000:>9.2f}"
            f"{(max(rtts) if rtts else float('nan')) * 1000:>9.2f}"
        )
    base, flooded = phases[0][1], phases[1][1]
    if base and flooded:
        print(f"p99 with the flood / p99 alone: {pct(flooded, 0.99) / pct(base, 0.99):.2f}x")
    for i, c in enumerate(phases[1][2]):
        print(
            f"flooder {i}: sent {c['sent']} requests, refused {c['refused']}, "
            f"dropped {c['drops']} times over {c['connects']} connections"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--flooders", type=int, default=1)
    parser.add_argument("--think", type=float, default=0.05, help="a bot's pause before acting")
    parser.add_argument(
        "--cooloff",
        type=float,
        default=10.0,
        help="the server's flood_cooloff_seconds (0: a dropped flooder reconnects at once)",
    )
    args = parser.parse_args()
    config = {
        "host": "127.0.0.1",
        "port": 0,
        "scrypt_n": 2,
        "trusted_addresses": [],
        "connections_per_address": 1000,
        "tables_per_name": 0,
        "flood_cooloff_seconds": args.cooloff,
    }
    with memory_server(config) as port:
        trio.run(measure, port, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
