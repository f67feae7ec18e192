"""Can wrong-secret spam keep a name's owner out? The owner's claim time, alone and under spam.

Run: ``python bench/claims.py [--claims 20] [--spammers 4]``.

One server in this process on 127.0.0.1 at the production scrypt cost (2^14,
hashed in the worker thread). Phase 1: the owner claims his name ``--claims``
times alone; the median is the reference (one hash plus a round trip). Phase 2:
``--spammers`` connections, each from its own loopback address (127.0.0.2, ...),
send wrong secrets for the same name in a loop (paced just under the flood
guard's rate, which would otherwise drop them), and the owner, from 127.0.0.1,
claims again ``--claims`` times. Both phases come from the same run and server.

The documented delay (docs/protocol.md, section 8): a right secret is answered
after at most one check per other address claiming at that moment, so the
target is that every claim under spam succeeds and the slowest takes at most
(1 + spammers) times the reference, plus 100 ms of scheduling slack.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import trio  # noqa: E402

from bench.wireconn import HOST, Conn  # noqa: E402
from protocol import messages as m  # noqa: E402
from server.app import Server  # noqa: E402
from server.core.config import ServerConfig  # noqa: E402
from server.store.base import MemoryStore  # noqa: E402


async def connect_from(port: int, address: str) -> Conn:
    c = Conn(await trio.open_tcp_stream(HOST, port, local_address=address))
    await c.request(m.Hello())
    return c


async def owner_claims(owner: Conn, n: int) -> tuple[list[float], int]:
    """Seconds each of ``n`` right claims took, and how many succeeded."""
    times, ok = [], 0
    for _ in range(n):
        t0 = time.perf_counter()
        reply = await owner.request(m.ClaimName(name="owner", secret="right"))
        times.append(time.perf_counter() - t0)
        ok += isinstance(reply, m.Named)
        await trio.sleep(0.02)
    return times, ok


async def main(args: argparse.Namespace) -> None:
    config = ServerConfig(host=HOST, port=0, trusted_addresses=())
    server = Server(config, MemoryStore())
    counts = {"name_taken": 0, "rate_limited": 0, "other": 0}
    async with trio.open_nursery() as nursery:
        port = await nursery.start(server.serve)
        owner = await connect_from(port, "127.0.0.1")
        await owner.request(m.ClaimName(name="owner", secret="right"))  # first use
        alone, ok_alone = await owner_claims(owner, args.claims)
        done = trio.Event()

        async def spam(address: str) -> None:
            c = await connect_from(port, address)
            while not done.is_set():
                reply = await c.request(m.ClaimName(name="OWNER", secret="guess"))
                code = getattr(reply, "code", "other")
                counts[code if code in counts else "other"] += 1
                await trio.sleep(0.025)

        async with trio.open_nursery() as spammers:
            for i in range(args.spammers):
                spammers.start_soon(spam, f"127.0.0.{2 + i}")
            await trio.sleep(0.5)  # the spam is under way, and the back-off has begun
            spammed, ok_spammed = await owner_claims(owner, args.claims)
            done.set()
        server.shutdown()
        nursery.cancel_scope.cancel()
    reference = statistics.median(alone)
    target = (1 + args.spammers) * reference + 0.100
    worst = max(spammed)
    print(f"owner alone:      {ok_alone}/{args.claims} claims in, median {reference * 1e3:.1f} ms")
    print(
        f"under {args.spammers} spammers: {ok_spammed}/{args.claims} claims in, "
        f"median {statistics.median(spammed) * 1e3:.1f} ms, worst {worst * 1e3:.1f} ms"
    )
    print(
        f"spam replies: {counts['name_taken']} name_taken (hashed), "
        f"{counts['rate_limited']} rate_limited (refused unhashed), {counts['other']} other"
    )
    met = ok_spammed == args.claims and worst <= target
    print(
        f"target: every claim in, worst <= {target * 1e3:.1f} ms "
        f"((1 + {args.spammers}) x reference + 100 ms): {'met' if met else 'NOT met'}"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--claims", type=int, default=20)
    parser.add_argument("--spammers", type=int, default=4)
    trio.run(main, parser.parse_args())
