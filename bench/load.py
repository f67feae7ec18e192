"""Load on a real server process over loopback, beside a bare trio echo server as the floor.

    python bench/load.py                 # every figure (about three minutes on 2 cores)
    python bench/load.py --quick         # shorter runs
    python bench/load.py --quick --runs 4a --profile FILE   # one run, under cProfile
    python bench/load.py --quick --against TREE   # before (TREE) and after, interleaved

What it measures, each beside its reference from the same run:

1. an action's round trip on one table: ``act`` -> its ``ok`` (the figure the
   target is about: parsed, applied, stored and acknowledged), and ``act`` ->
   the resulting ``turn`` at every seat, against a same-sized frame echoed by a
   bare trio echo server (the floor: our ratio to it); ``ping`` -> ``pong`` is
   printed too, as the cost of the wire alone, with no verdict;
2. idle connections: measured by ``bench/connmem.py`` (RSS with 10,000 open,
   and after connect/close churn, beside a bare trio server);
3. 10 tables of 4 bot clients playing continuously: the reference for run 4's
   throughput (actions/s, round trips, the server's RSS and CPU);
4. 250 tables x 4 bots (1,000 connections): the same figures, (a) with bots
   that act the moment their turn comes (a closed loop: it measures the
   server's saturation throughput, and the round trip is then queueing), and
   (b) with bots that think ``--think`` seconds on average first (an offered
   load below saturation: the round trip is the server's latency under load).

Every figure with a goal prints its target and whether this run met it. Each
run also prints the server's CPU time per action, which a busy machine bends
far less than the latencies (a process waiting for a core spends no CPU): on a
shared machine, compare that figure between builds.

The server is ``switchboard serve`` in its own process (SQLite in a temporary
directory, WAL, group commit); the bots run in other processes (each a trio
run of many connections), so the server gets a core of its own on a 2-core
machine. Only 127.0.0.1 is used; the fd limit is raised with
``resource.setrlimit`` for the 1,000 connections of run 4.

Before and after: ``--against TREE`` runs the server of another checkout (``TREE``,
e.g. ``git worktree add ../before COMMIT``) and this one's by turns, ``--rounds``
rounds, each side going first every other round and each turn a fresh server, so that
the machine's load falls on both alike. A turn measures the echo floor, run 1 (act ->
ok on one table) and run 4a (saturation); the medians are printed side by side with
the ratio (after / before) and the targets: the server's CPU an action at saturation
at most ``CPU_TARGET`` of before, and act -> ok p50 at most 3x the echo.
"""

from __future__ import annotations

import argparse
import gc
import multiprocessing as mp
import os
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from bisect import bisect_right
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import trio  # noqa: E402

from bench.wireconn import HOST, Conn  # noqa: E402
from protocol import messages as m  # noqa: E402

PORT_LINE = re.compile(rb"listening on \S+ port (\d+)")

# 250 tables x 4 bots acting at once, measured on this 2-core machine before the
# performance work (the goal is twice this); the reference run 3 is from the same run.
BEFORE_ACTIONS_PER_S = 1_721
#: with --against: the server's CPU an action at saturation, at most this share of before
CPU_TARGET = 0.6


def verdict(met: bool) -> str:
    return "met" if met else "NOT met"


# --------------------------------------------------------------- processes
def raise_fd_limit() -> int:
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return hard


def _echo_main(conn: Any) -> None:
    raise_fd_limit()

    async def echo(stream: trio.SocketStream) -> None:
        try:
            while data := await stream.receive_some(65536):
                await stream.send_all(data)
        except trio.BrokenResourceError:
            pass

    async def main() -> None:
        listeners = await trio.open_tcp_listeners(0, host=HOST, backlog=4096)
        conn.send(listeners[0].socket.getsockname()[1])
        await trio.serve_listeners(echo, listeners)

    trio.run(main)


def start_echo() -> tuple[mp.Process, int]:
    parent, child = mp.Pipe()
    proc = mp.Process(target=_echo_main, args=(child,), daemon=True)
    proc.start()
    return proc, parent.recv()


def run_queue_wait(pid: int) -> float:
    """Seconds the process's threads have spent runnable but waiting for a CPU
    (/proc/PID/task/*/schedstat): high when other processes crowd the machine."""
    total = 0
    for tid in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
            total += int(f.read().split()[1])
    return total / 1e9


def proc_stats(pid: int) -> tuple[float, float]:
    """(RSS in MB, CPU seconds used so far) of a process, from /proc."""
    with open(f"/proc/{pid}/status") as f:
        rss = next(int(line.split()[1]) for line in f if line.startswith("VmRSS:")) / 1024
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return rss, cpu


# ------------------------------------------------------------------ client
def _percentiles(xs: list[float]) -> dict[str, float]:
    if not xs:
        return {"n": 0, "p50": float("nan"), "p99": float("nan")}
    xs = sorted(xs)
    return {
        "n": len(xs),
        "p50": xs[len(xs) // 2] * 1000,
        "p99": xs[min(len(xs) - 1, int(len(xs) * 0.99))] * 1000,
    }


def _pings_main(port: int, count: int, conn_out: Any) -> None:
    async def main() -> None:
        c = await Conn.open(port)
        times = []
        for i in range(count):
            t0 = time.perf_counter()
            await c.send(m.Ping(id=i + 1))
            while getattr(await c.receive(), "id", None) != i + 1:
                pass
            times.append(time.perf_counter() - t0)
        conn_out.send(times[count // 10 :])  # the first tenth warms up

    trio.run(main)


def measure_pings(port: int, count: int) -> dict[str, float]:
    parent, child = mp.Pipe()
    p = mp.Process(target=_pings_main, args=(port, count, child))
    p.start()
    times = parent.recv()
    p.join()
    return _percentiles(times)


def _tables_main(
    port: int, tables: int, seconds: float, prefix: str, out: Any, think: float = 0.0
) -> None:
    """Bot clients: ``tables`` tables of 4, playing games back to back for ``seconds``."""

    async def main() -> None:
        conns: list[list[Conn]] = []
        ids: list[str] = []
        for t in range(tables):
            row = []
            for seat in range(4):
                c = await Conn.open(port)
                await c.request(m.Hello())
                await c.request(m.ClaimName(name=f"{prefix}{t}x{seat}", secret="pw"))
                row.append(c)
            ok = await row[0].request(m.CreateTable(ruleset="kilodney", seats=4))
            for seat, c in enumerate(row):
                await c.request(m.Join(table=ok.table, seat=seat))
            conns.append(row)
            ids.append(ok.table)
        acts: list[tuple[int, int, float, int]] = []  # (table, seat, t0, trigger seq)
        sent: dict[int, float] = {}  # request id -> when its act was sent
        oks: list[float] = []  # act -> ok, seconds
        turns: list[list[tuple[list[int], list[float]]]] = [
            [([], []) for _ in range(4)] for _ in range(tables)
        ]
        acked = [0]
        errors = [0]
        stop = trio.current_time() + seconds
        rng = random.Random(1)

        async def bot(t: int, seat: int, c: Conn) -> None:
            base = (t * 4 + seat) * 100_000 + 1_000  # ids unique across this process's bots
            rid = iter(range(base, base + 99_000))
            while True:
                msg = await c.receive()
                now = time.perf_counter()
                if isinstance(msg, m.Turn):
                    seqs, times = turns[t][seat]
                    seqs.append(msg.seq)
                    times.append(now)
                elif isinstance(msg, m.Ok):
                    acked[0] += 1
                    if (t0 := sent.pop(msg.id, None)) is not None:
                        oks.append(now - t0)
                    continue
                elif isinstance(msg, m.Error):
                    errors[0] += 1
                    continue
                if isinstance(msg, m.Snapshot) and msg.state == "over" and seat == 0:
                    await c.send(m.StartGame(table=msg.table, id=next(rid)))
                    continue
                mine = isinstance(msg, m.Turn) and msg.to_act == seat
                mine |= (
                    isinstance(msg, m.Snapshot)
                    and msg.state == "playing"
                    and msg.view.get("to_act") == seat
                )
                if mine and msg.legal and trio.current_time() < stop:
                    if think:  # a bot's thinking time; the round trip starts when it acts
                        await trio.sleep(think * (0.5 + rng.random()))
                        now = time.perf_counter()
                    acts.append((t, seat, now, msg.seq))
                    act_id = next(rid)
                    sent[act_id] = now
                    await c.send(m.Act(table=msg.table, action=rng.choice(msg.legal), id=act_id))

        gc.freeze()  # the bots' own pauses must not count as the server's latency
        out.send("ready")  # set-up done; play when the parent says go (all processes at once)
        await trio.to_thread.run_sync(out.recv)
        stop = trio.current_time() + seconds
        t_start = time.perf_counter()
        async with trio.open_nursery() as nursery:
            for t, row in enumerate(conns):
                await row[0].send(m.StartGame(table=ids[t], id=999))
            for t, row in enumerate(conns):
                for seat, c in enumerate(row):
                    nursery.start_soon(bot, t, seat, c)
            await trio.sleep(seconds + 1.0)
            nursery.cancel_scope.cancel()
        elapsed = time.perf_counter() - t_start
        rtts = []
        for t, _seat, t0, trigger in acts:
            done = 0.0
            for s in range(4):
                seqs, times = turns[t][s]
                i = bisect_right(seqs, trigger)
                if i >= len(seqs):
                    done = -1.0
                    break
                done = max(done, times[i])
            if done > 0:
                rtts.append(done - t0)
        out.send({"actions": len(rtts), "elapsed": min(elapsed, seconds), "rtts": rtts,
                  "oks": oks, "errors": errors[0], "acked": acked[0]})  # fmt: skip

    raise_fd_limit()
    gc.set_threshold(10_000, 50, 100)  # as switchboard serve does
    trio.run(main)


def measure_tables(
    port: int,
    tables: int,
    seconds: float,
    procs: int,
    tag: str,
    server_pid: int,
    think: float = 0.0,
) -> dict[str, Any]:
    """``tables`` tables shared among ``procs`` client processes; CPU and RSS of the
    server and the clients over the play only (not the set-up)."""
    results = []
    per = [tables // procs + (1 if i < tables % procs else 0) for i in range(procs)]
    pipes = []
    for i, n in enumerate(per):
        parent, child = mp.Pipe()
        p = mp.Process(target=_tables_main, args=(port, n, seconds, f"{tag}{i}n", child, think))
        p.start()
        pipes.append((p, parent))
    for _p, parent in pipes:
        assert parent.recv() == "ready"
    _rss0, cpu0 = proc_stats(server_pid)
    wait0 = run_queue_wait(server_pid)
    client_cpu0 = sum(proc_stats(p.pid)[1] for p, _ in pipes)
    for _p, parent in pipes:
        parent.send("go")
    time.sleep(seconds)
    rss1, cpu1 = proc_stats(server_pid)
    wait1 = run_queue_wait(server_pid)
    client_cpu1 = sum(proc_stats(p.pid)[1] for p, _ in pipes)
    for p, parent in pipes:
        results.append(parent.recv())
        p.join()
    rtts = [x for r in results for x in r["rtts"]]
    actions = sum(r["actions"] for r in results)
    ok = _percentiles([x for r in results for x in r["oks"]])
    return {
        "actions_per_s": actions / seconds,
        **_percentiles(rtts),
        "ok_p50": ok["p50"],
        "ok_p99": ok["p99"],
        "errors": sum(r["errors"] for r in results),
        "server_cpu": (cpu1 - cpu0) / seconds,
        "client_cpu": (client_cpu1 - client_cpu0) / seconds,
        "server_rss": rss1,
        "server_waiting": (wait1 - wait0) / seconds,
    }


# -------------------------------------------------------------------- main
def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="short runs")
    parser.add_argument("--seconds", type=float, default=None, help="seconds per play run")
    parser.add_argument("--tables", type=int, default=250)
    parser.add_argument(
        "--think", type=float, default=0.5, help="bots' mean thinking time in run 4b (s)"
    )
    parser.add_argument("--client-procs", type=int, default=2)
    parser.add_argument("--profile", metavar="FILE", help="run the server under cProfile")
    parser.add_argument(
        "--runs", default="1,3,4a,4b", help="which runs, comma-separated (default: all)"
    )
    parser.add_argument("--against", metavar="TREE", help="compare with another checkout")
    parser.add_argument("--rounds", type=int, default=2, help="with --against: turns a side")
    args = parser.parse_args()
    seconds = args.seconds or (5.0 if args.quick else 15.0)
    raise_fd_limit()
    mp.set_start_method("fork")
    if args.against:
        compare(args, seconds)
        return

    echo_proc, echo_port = start_echo()
    tmp = Path(tempfile.mkdtemp(prefix="sb-load-"))
    server, port = start_switchboard(tmp, "send_queue = 4096\n", profile=args.profile)
    print(f"server pid {server.pid} port {port}; echo pid {echo_proc.pid} port {echo_port}")
    print(f"{os.cpu_count()} cores; python {sys.version.split()[0]}; trio {trio.__version__};"
          f" load average {os.getloadavg()[0]:.1f} at the start")  # fmt: skip
    wanted = set(args.runs.split(","))
    try:
        count = 2000 if args.quick else 5000
        if "1" in wanted:
            run_one(port, echo_port, count, seconds, server.pid)
        run_tables(args, port, seconds, server.pid, wanted)
    finally:
        server.terminate()  # SIGTERM: a graceful exit, which also writes the profile
        server.wait(30)
        echo_proc.terminate()
        if args.profile:
            import pstats

            pstats.Stats(args.profile).sort_stats("tottime").print_stats(25)


def _turn(tree: Path, args: argparse.Namespace, seconds: float, tag: str) -> dict[str, float]:
    """One side's turn of a comparison: a fresh server of ``tree``, the echo floor,
    run 1 and run 4a."""
    echo_proc, echo_port = start_echo()
    tmp = Path(tempfile.mkdtemp(prefix="sb-load-"))
    server, port = start_switchboard(tmp, "send_queue = 4096\n", tree=tree)
    try:
        count = 2000 if args.quick else 5000
        echo = measure_pings(echo_port, count)
        one = measure_tables(port, 1, seconds, 1, f"one{tag}", server.pid)
        many = measure_tables(port, args.tables, seconds, args.client_procs, f"s{tag}", server.pid)
    finally:
        server.terminate()
        server.wait(30)
        echo_proc.terminate()
    return {
        "echo_p50": echo["p50"],
        "ok_p50": one["ok_p50"],
        "ok_ratio": one["ok_p50"] / echo["p50"],
        "cpu_us": many["server_cpu"] / max(many["actions_per_s"], 1e-9) * 1e6,
        "actions_per_s": many["actions_per_s"],
        "waiting": many["server_waiting"],
    }


def compare(args: argparse.Namespace, seconds: float) -> None:
    """Before (``args.against``) and after (this tree), by turns; the medians side by side."""
    trees = {"before": Path(args.against).resolve(), "after": ROOT}
    print(f"before: {trees['before']}\nafter:  {trees['after']}")
    print(f"{os.cpu_count()} cores; python {sys.version.split()[0]}; trio {trio.__version__};"
          f" load average {os.getloadavg()[0]:.1f} at the start")  # fmt: skip
    got: dict[str, list[dict[str, float]]] = {"before": [], "after": []}
    for k in range(args.rounds):
        sides = list(trees.items())
        for side, tree in sides if k % 2 == 0 else sides[::-1]:
            r = _turn(tree, args, seconds, f"{side[0]}{k}x")
            got[side].append(r)
            print(f"   round {k + 1} {side:<6}: CPU {r['cpu_us']:.0f} µs an action at"
                  f" {r['actions_per_s']:.0f} actions/s ({100 * r['waiting']:.0f}% waiting"
                  f" for a CPU); act -> ok p50 {r['ok_p50']:.3f} ms = {r['ok_ratio']:.1f}x"
                  f" the echo's {r['echo_p50']:.3f}", flush=True)  # fmt: skip
    med = {side: {key: statistics.median(r[key] for r in runs) for key in runs[0]}
           for side, runs in got.items()}  # fmt: skip
    b, a = med["before"], med["after"]
    print(f"\nmedians of {args.rounds} turns a side ({args.tables} tables at saturation,"
          f" {seconds:.0f} s a run); load average {os.getloadavg()[0]:.1f} at the end")  # fmt: skip
    print(f"{'':<36}{'before':>10}{'after':>10}{'ratio':>8}")
    ratio = a["cpu_us"] / b["cpu_us"]
    print(f"{'server CPU an action (4a), µs':<36}{b['cpu_us']:>10.0f}{a['cpu_us']:>10.0f}"
          f"{ratio:>7.2f}x   target <= {CPU_TARGET}x: {verdict(ratio <= CPU_TARGET)}")  # fmt: skip
    speed = a["actions_per_s"] / b["actions_per_s"]
    print(f"{'actions/s at saturation (4a)':<36}{b['actions_per_s']:>10.0f}"
          f"{a['actions_per_s']:>10.0f}{speed:>7.2f}x")  # fmt: skip
    print(f"{'act -> ok p50 (run 1), ms':<36}{b['ok_p50']:>10.3f}{a['ok_p50']:>10.3f}"
          f"{a['ok_p50'] / b['ok_p50']:>7.2f}x")  # fmt: skip
    print(f"{'  as a multiple of the echo':<36}{b['ok_ratio']:>10.1f}{a['ok_ratio']:>10.1f}"
          f"{'':>8}   target <= 3x: {verdict(a['ok_ratio'] <= 3)}")  # fmt: skip


def cpu_line(res: dict[str, Any], procs: int) -> str:
    per_action = res["server_cpu"] / max(res["actions_per_s"], 1e-9) * 1e6
    return (f"   server RSS {res['server_rss']:.0f} MB, CPU {100 * res['server_cpu']:.0f}%"
            f" of a core = {per_action:.0f} µs an action"
            f" (and {100 * res['server_waiting']:.0f}% waiting for a CPU);"
            f" {procs} client processes CPU {100 * res['client_cpu']:.0f}%;"
            f" errors {res['errors']}")  # fmt: skip


def run_one(port: int, echo_port: int, count: int, seconds: float, server_pid: int) -> None:
    """Run 1: the round trip on one table, beside the echo floor."""
    echo = measure_pings(echo_port, count)
    ours = measure_pings(port, count)
    one = measure_tables(port, 1, seconds, 1, "one", server_pid)
    print("\n1. an action's round trip on one table of 4 bots (kilodney), ms")
    print(f"   echo floor (bare trio)     p50 {echo['p50']:.3f}  p99 {echo['p99']:.3f}")
    print(f"   ping -> pong (wire alone)  p50 {ours['p50']:.3f}  p99 {ours['p99']:.3f}"
          f"   ({ours['p50'] / echo['p50']:.1f}x echo)")  # fmt: skip
    ratio = one["ok_p50"] / echo["p50"]
    print(f"   act -> ok                  p50 {one['ok_p50']:.3f}  p99 {one['ok_p99']:.3f}"
          f"   {ratio:.1f}x echo; target p50 <= 3x echo: {verdict(ratio <= 3)}")  # fmt: skip
    print(f"   act -> turn at every seat  p50 {one['p50']:.3f}  p99 {one['p99']:.3f}"
          f"   ({one['p50'] / echo['p50']:.1f}x echo)")  # fmt: skip
    print(cpu_line(one, 1))


def run_tables(
    args: argparse.Namespace, port: int, seconds: float, server_pid: int, wanted: set[str]
) -> None:
    """Runs 3, 4a and 4b: many tables at once (4a's reference is run 3's, when run)."""
    runs = [
        ("3", 10, 0.0, "3. 10 tables x 4 bots acting at once (the reference for 4a)"),
        ("4a", args.tables, 0.0,
         f"4a. {args.tables} tables x 4 bots acting at once (saturation)"),
        ("4b", args.tables, args.think, f"4b. {args.tables} tables x 4 bots thinking"
         f" {args.think:g} s on average"),
    ]  # fmt: skip
    reference = None
    for key, n, think, label in runs:
        if key not in wanted:
            continue
        procs = min(args.client_procs, n)
        res = measure_tables(port, n, seconds, procs, f"b{n}t{think}", server_pid, think)
        print(f"\n{label} (kilodney, {seconds:.0f} s)")
        print(
            f"   actions/s {res['actions_per_s']:.0f}   act -> ok p50 {res['ok_p50']:.2f} ms"
            f"  p99 {res['ok_p99']:.2f} ms;  act -> turn at every seat p50 {res['p50']:.2f} ms"
            f"  p99 {res['p99']:.2f} ms"
        )
        print(cpu_line(res, procs))
        if key == "3":
            reference = res
        elif key == "4a":
            goal = 2 * BEFORE_ACTIONS_PER_S
            met = res["actions_per_s"] >= goal and res["p99"] < 100
            ref = "not run" if reference is None else f"{reference['actions_per_s']:.0f}"
            print(f"   reference (run 3): {ref} actions/s;"
                  f" target >= {goal:.0f} actions/s (2x the {BEFORE_ACTIONS_PER_S:,} measured"
                  f" before) and p99 < 100 ms: {verdict(met)}")  # fmt: skip
        else:
            print(f"   target: act -> turn at every seat p99 < 100 ms:"
                  f" {verdict(res['p99'] < 100)}")  # fmt: skip


def _drain(stream: Any) -> None:
    """Keep reading the server's log so that a full pipe never blocks it."""
    while stream.read1(65536):
        pass


def start_switchboard(
    tmp: Path, settings: str = "", profile: str | None = None, tree: Path = ROOT
) -> tuple[subprocess.Popen[bytes], int]:
    """``switchboard serve`` of ``tree`` on loopback, port 0, data in ``tmp``, a fast scrypt
    and room for many connections (plus ``settings``, TOML lines of ``[server]``); under
    cProfile writing ``profile`` if given. The process and its port; its log is drained."""
    config = tmp / "bench.toml"
    config.write_text("[server]\nscrypt_n = 2\nmax_connections = 30000\n" + settings)
    server = subprocess.Popen(
        [sys.executable, *(["-m", "cProfile", "-o", profile] if profile else []),
         "-m", "switchboard", "serve", "--host", HOST, "--port", "0",
         "--data", str(tmp), "--config", str(config)],
        stderr=subprocess.PIPE, cwd=tree, preexec_fn=raise_fd_limit,
    )  # fmt: skip
    buffer = b""
    while not (found := PORT_LINE.search(buffer)):
        chunk = server.stderr.read1(4096)  # type: ignore[union-attr]
        if not chunk:
            raise SystemExit("the server did not start:\n" + buffer.decode(errors="replace"))
        buffer += chunk
    threading.Thread(target=_drain, args=(server.stderr,), daemon=True).start()
    return server, int(found.group(1))


if __name__ == "__main__":
    main()
