"""What connections cost the server in memory, beside a bare trio server doing the same.

    python bench/connmem.py            # 0, 10k, 50k churn cycles each way; 10,000 idle
    python bench/connmem.py --quick    # 0, 1k, 5k cycles; 1,000 idle (a smoke run)

1. Churn: a client connects, says hello, reads the welcome and closes, over and
   over (a few at a time). The server's RSS after 0, 10k and 50k cycles, beside
   a bare trio server that echoes the same hello. Target: memory returns to its
   level, i.e. RSS after the last step is within ``CHURN_SLACK_MB`` of RSS
   after the first (a connection that lives on after its close grows it by
   tens of KB each: 40,000 of them would be over a gigabyte).
1b. Abrupt churn, as crashed clients and attackers close: each cycle one of
   three, in turn: hello and at once a TCP reset (``SO_LINGER`` 0) without
   reading the welcome; hello, half a frame, reset; hello and a burst of
   requests, reset while the replies are being written. The server's RSS after
   5k warm-up cycles and after 50,000 more, beside the bare trio server. Target:
   growth over the 50,000 within ``CHURN_SLACK_MB`` (anything a close left in a
   reference cycle stays until a rare full collection: about 10 KB a cycle).
2. Idle: 10,000 connections that said hello and then stay silent, the server's
   RSS with them open, beside the bare trio server's. Target: < 150 MB.

The server is ``switchboard serve`` in its own process (SQLite in a temporary
directory; its gc settings are the ones it ships with); the clients run in
another process. Only 127.0.0.1 is used; the fd limit is raised to its hard
limit for both servers and the clients.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import socket
import struct
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import trio  # noqa: E402

from bench.load import proc_stats, raise_fd_limit, start_echo, start_switchboard  # noqa: E402
from bench.wireconn import HOST  # noqa: E402
from protocol import messages as m  # noqa: E402
from protocol.msgpack_codec import encode  # noqa: E402

#: churn: RSS may end this far above where it stood after the first step
CHURN_SLACK_MB = 10.0
#: idle: the goal for 10,000 idle connections (hello said)
IDLE_TARGET_MB = 150.0

HELLO = encode(m.Hello(id=1))
#: hello and the first bytes of a frame that never comes whole
HALF_FRAME = HELLO + b"\x00\x00\x00\x40ab"
#: hello and requests whose replies are still being written when the client resets
BURST = HELLO + b"".join(encode(m.Help(id=i)) for i in range(2, 40))
#: SO_LINGER on, 0 s: close() sends a reset, not a FIN
RESET = struct.pack("ii", 1, 0)


def _churn_main(port: int, cycles: int, parallel: int, out: Any) -> None:
    """Connect, hello, read the reply, close: ``cycles`` times, ``parallel`` at once."""

    async def one_client(n: int) -> None:
        for _ in range(n):
            stream = await trio.open_tcp_stream(HOST, port)
            await stream.send_all(HELLO)
            await stream.receive_some(4096)
            await stream.aclose()

    async def main() -> None:
        async with trio.open_nursery() as nursery:
            share = cycles // parallel
            for i in range(parallel):
                nursery.start_soon(one_client, share + (i < cycles % parallel))

    trio.run(main)
    out.send(cycles)


def _abrupt_main(port: int, cycles: int, parallel: int, out: Any) -> None:
    """Connect and end abruptly, ``cycles`` times, ``parallel`` at once (see 1b)."""
    openings = (HELLO, HALF_FRAME, BURST)

    async def one_client(n: int, first: int) -> None:
        for i in range(n):
            sock = trio.socket.socket()
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            await sock.connect((HOST, port))
            await sock.send(openings[(first + i) % 3])
            await trio.sleep(0)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, RESET)
            sock.close()

    async def main() -> None:
        async with trio.open_nursery() as nursery:
            share = cycles // parallel
            for i in range(parallel):
                nursery.start_soon(one_client, share + (i < cycles % parallel), i)

    trio.run(main)
    out.send(cycles)


def churn(pid: int, port: int, cycles: int, parallel: int = 8, abrupt: bool = False) -> None:
    parent, child = mp.Pipe()
    target = _abrupt_main if abrupt else _churn_main
    p = mp.Process(target=target, args=(port, cycles, parallel, child))
    p.start()
    parent.recv()
    p.join()
    time.sleep(1.0)  # the server closes the last ones


def _idle_main(port: int, count: int, ready: Any, done: Any) -> None:
    raise_fd_limit()

    async def main() -> None:
        streams = []
        limiter = trio.CapacityLimiter(200)

        async def one() -> None:
            async with limiter:
                stream = await trio.open_tcp_stream(HOST, port)
                await stream.send_all(HELLO)
                await stream.receive_some(4096)
                streams.append(stream)

        async with trio.open_nursery() as nursery:
            for _ in range(count):
                nursery.start_soon(one)
        ready.send(len(streams))
        await trio.to_thread.run_sync(done.recv)
        for stream in streams:
            await stream.aclose()

    trio.run(main)


def idle(pid: int, port: int, count: int) -> tuple[float, float, int]:
    """(RSS before, RSS with ``count`` idle connections open, connections opened)."""
    rss0, _ = proc_stats(pid)
    ready_parent, ready_child = mp.Pipe()
    done_parent, done_child = mp.Pipe()
    p = mp.Process(target=_idle_main, args=(port, count, ready_child, done_child))
    p.start()
    opened = ready_parent.recv()
    time.sleep(1.0)
    rss1, _ = proc_stats(pid)
    done_parent.send(True)
    p.join()
    time.sleep(1.0)
    return rss0, rss1, opened


def abrupt_churn(
    pid: int, port: int, echo_pid: int, echo_port: int, steps: tuple[int, ...]
) -> None:
    """Section 1b: RSS after each step of abrupt cycles, ours beside the bare server's."""
    print("\n1b. abrupt churn: hello then a reset, half a frame, a reset mid-reply;"
          " server RSS (MB)")  # fmt: skip
    print(f"   {'cycles':>8} {'switchboard':>12} {'bare trio':>10}")
    ours, bare = [], []
    done = 0
    for step in steps:
        churn(pid, port, step - done, abrupt=True)
        churn(echo_pid, echo_port, step - done, abrupt=True)
        done = step
        ours.append(proc_stats(pid)[0])
        bare.append(proc_stats(echo_pid)[0])
        print(f"   {step:>8} {ours[-1]:>12.1f} {bare[-1]:>10.1f}")
    growth = ours[-1] - ours[1]
    verdict = "met" if growth <= CHURN_SLACK_MB else "NOT met"
    print(f"   growth over the {steps[-1] - steps[1]:,} cycles after the first {steps[1]:,}:"
          f" switchboard {growth:+.1f} MB, bare trio {bare[-1] - bare[1]:+.1f} MB;"
          f" target <= {CHURN_SLACK_MB:.0f} MB: {verdict}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="1k/5k cycles, 1,000 idle")
    parser.add_argument("--skip-churn", action="store_true")
    parser.add_argument("--skip-idle", action="store_true")
    parser.add_argument("--skip-abrupt", action="store_true")
    parser.add_argument("--abrupt-steps", type=int, nargs="+", metavar="CYCLES",
                        help="the abrupt churn's steps, in cycles from the start"
                        " (0 5000 55000; 0 1500 15000 30000: two runs of 15,000)")  # fmt: skip
    args = parser.parse_args()
    raise_fd_limit()
    mp.set_start_method("fork")
    steps = (0, 1_000, 5_000) if args.quick else (0, 10_000, 50_000)
    abrupt_steps = (0, 1_000, 6_000) if args.quick else (0, 5_000, 55_000)
    if args.abrupt_steps:
        abrupt_steps = tuple(args.abrupt_steps)
    idle_count = 1_000 if args.quick else 10_000

    echo_proc, echo_port = start_echo()
    server, port = start_switchboard(Path(tempfile.mkdtemp(prefix="sb-connmem-")))
    print(f"{os.cpu_count()} cores; python {sys.version.split()[0]}; trio {trio.__version__};"
          f" load average {os.getloadavg()[0]:.1f} at the start")  # fmt: skip
    try:
        if not args.skip_churn:
            print("\n1. churn: connect, hello, close; server RSS (MB) after each step")
            print(f"   {'cycles':>8} {'switchboard':>12} {'bare trio':>10}")
            ours, bare = [], []
            done = 0
            for step in steps:
                churn(server.pid, port, step - done)
                churn(echo_proc.pid, echo_port, step - done)
                done = step
                ours.append(proc_stats(server.pid)[0])
                bare.append(proc_stats(echo_proc.pid)[0])
                print(f"   {step:>8} {ours[-1]:>12.1f} {bare[-1]:>10.1f}")
            growth = ours[-1] - ours[1]
            verdict = "met" if growth <= CHURN_SLACK_MB else "NOT met"
            print(f"   growth from {steps[1]:,} to {steps[-1]:,} cycles: switchboard"
                  f" {growth:+.1f} MB, bare trio {bare[-1] - bare[1]:+.1f} MB;"
                  f" target <= {CHURN_SLACK_MB:.0f} MB: {verdict}")  # fmt: skip
        if not args.skip_abrupt:
            abrupt_churn(server.pid, port, echo_proc.pid, echo_port, abrupt_steps)
        if not args.skip_idle:
            print(f"\n2. {idle_count:,} idle connections (hello said): server RSS (MB) with them")
            s0, s1, n = idle(server.pid, port, idle_count)
            e0, e1, ne = idle(echo_proc.pid, echo_port, idle_count)
            per = (s1 - s0) * 1024 / max(n, 1)
            eper = (e1 - e0) * 1024 / max(ne, 1)
            print(f"   switchboard {s1:.0f} MB ({per:.1f} KiB each over {s0:.0f} MB);"
                  f" bare trio {e1:.0f} MB ({eper:.1f} KiB each over {e0:.0f} MB)")  # fmt: skip
            if idle_count == 10_000:
                verdict = "met" if s1 < IDLE_TARGET_MB else "NOT met"
                print(f"   target < {IDLE_TARGET_MB:.0f} MB at 10,000: {verdict}")
            else:
                projected = s0 + per * 10_000 / 1024
                print(f"   at 10,000 that is about {projected:.0f} MB (target"
                      f" < {IDLE_TARGET_MB:.0f} MB; without --quick: the verdict)")  # fmt: skip
    finally:
        server.terminate()
        server.wait(timeout=15)
        echo_proc.terminate()


if __name__ == "__main__":
    main()
