"""A crowd of addresses pushing at once, against a real server, each figure beside its
quiet reference from the same run.

    python bench/crowd.py             # both parts, about five minutes
    python bench/crowd.py --quick     # shorter runs
    python bench/crowd.py --part flood  # or: thinking, pipeliners, burst, listing,
                                        #     fragments, supply

1. **Flood** (with 200 tables in the lobby, then 2,000): honest players' ``ping`` ->
   ``pong`` p99, five players from 127.0.3.1-5 (not trusted; each sits at a table he
   made) pinging in turn every 5 ms (each every 25 ms), quiet and while a crowd asks
   for record pages and the lobby, every connection within its own limits (a record
   page every 0.2 s, the lobby every 0.5 s): (a) 64 connections from one address
   (127.0.0.2), (b) 64 connections from four addresses
   (127.0.0.2-5, 16 each), (c) 64 from 64 addresses and (d) 250 from 250, one each
   (127.0.0.2 on; ``--addresses``), each run over msgpack and then over WebSockets at
   ``/ws`` (the crowd and the pinger both; ``--over``). The lobby asked for is its first
   page (``lobby_page`` tables, as every client gets it), the records a finished game's.
   The quiet reference is interleaved with the flood: the crowd asks in every other window of
   ``WINDOW`` seconds and is still in the others, and each ping counts for the window
   it was sent in (not in a window's first ``SETTLE`` seconds, while the last one's
   replies drain), so quiet and flooded pings see the same load from the machine's
   other jobs. Target: the flooded p99 within 2x the quiet one. Each run also prints
   how many of the crowd's requests were answered and refused a second of flood:
   the budgets per address at work; and the server's wait for a core (runnable but not
   running, from /proc/PID/task/*/schedstat), milliseconds a second in the quiet windows and
   in the flooded ones: a ping that waited while the server waited for the machine.
   ``--repeat N`` runs each N times and prints the median ratio.
2. **Thinking**: a victim table (one person from 127.0.0.6, three search bots) and
   the person's wait for his turn (his seat to act again after the bots have moved),
   quiet, then while four addresses (127.0.0.2-5) fill their quota of 8 tables each
   with tables of four search bots (32 tables, every seat thinking), then the same with
   each of those tables watched by its creator. No target in numbers: a table where
   someone is thinks before tables of bots alone, and among those the fair share
   bounds the wait by the thoughts under way and one thought of each other owner
   (``server.tables.thinking.FairQueue``); first come, first served, the victim waited
   behind all 32 tables' queue.
3. **Pipeliners**: connections that each send 90 ``list_rulesets`` (22 KB replies) and
   never read, inside every per-connection and per-address limit: 256 from four
   addresses (127.0.0.2-5), then 512 from eight. The server's RSS before them (the
   reference), at its peak while they hold their sockets, and after they reset them.
   Target: the peak within the bytes a server may hold unsent (``send_server_bytes``,
   128 MiB) of the reference, and what stays after they leave within 16 MB of it.
4. **Burst**: 1,280 connections at once from 20 addresses (127.0.1.2-21, 64 each), each
   one ``GET /`` (the web client's page) read whole, kept open until all are served;
   the server's CPU for them, beside the same burst of msgpack ``hello`` and ``ping``
   (the reference), three of each in turn. Target: a page costs about what a ping does
   (within 1.5x).

5. **Listing**: the server's CPU for one ``list_tables`` at 2,000 tables (``--tables``),
   a page of ``lobby_page`` tables and the whole lobby in one listing (a server whose
   ``lobby_page`` is the lobby's size: as every listing was before pages), beside a
   ``ping``'s (the reference), over msgpack and ``/ws``, one request after another from
   one client: CPU time, which a loaded machine bends less than a latency.
6. **Fragments**: 40 WebSockets from two addresses (127.0.0.2-3), each sending a ping in
   64 frames (the most a message may have) as often as its requests a second allow (each
   frame past a message's first is charged as one): another WebSocket's ping p99 beside
   its quiet reference, interleaved as in the flood. Target: within 2x.
7. **Supply**: 400 addresses (``--addresses``' largest) at once each create tables and
   sit at every one until refused (a seated table never closes by itself), while the
   host reads the lobby's total; then 20 new addresses each create their first table,
   timed beside the same creates on the quiet server. Target: every newcomer served and
   never more than ``max_tables`` (2,000) open.

Only loopback addresses are used: 127.0.0.2 and up reach a server on 127.0.0.1 on
Linux without any setup. The server is ``switchboard serve`` in its own process
(SQLite in a temporary directory); the crowd and the measuring clients run in other
processes. The machine this runs on is shared: the load average is printed with each
run, since other processes waiting for the same cores bend every latency here. With two
cores or more the server runs on all but the last core, and the crowd and the honest
players on the last (``--no-pin`` to share them all): on a network the server has its
machine and the crowd and the players theirs, and on one machine's two cores the
clients' own work otherwise takes the core the server was about to wake on, which the
players' p99 then counts against the server. The players run at the usual priority and
the crowd at the lowest, so a player's process wakes as soon as his pong is in.
"""

from __future__ import annotations

import argparse
import itertools
import json
import multiprocessing as mp
import os
import re
import signal
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import msgpack  # noqa: E402
import trio  # noqa: E402
from wsproto.connection import Connection as WsConnection  # noqa: E402
from wsproto.connection import ConnectionType  # noqa: E402
from wsproto.events import TextMessage  # noqa: E402

from bench.load import (  # noqa: E402
    _percentiles,
    proc_stats,
    run_queue_wait,
    start_switchboard,
    verdict,
)
from bench.websocket import WsConn  # noqa: E402
from bench.wireconn import HOST, Conn, pop_server_frame  # noqa: E402
from protocol import messages as m  # noqa: E402
from protocol.json_codec import encode as json_encode  # noqa: E402
from protocol.msgpack_codec import HEADER, encode  # noqa: E402

RULESET = "switch"
SPAWN = mp.get_context("spawn")  # a fresh interpreter: no trio run inherited
#: seconds the crowd asks, then as long quiet, in turn: long enough that the burst each
#: address's budgets allow after a quiet window is a small part of the flood
WINDOW = 5.0
SETTLE = 0.5  #: the first seconds of a window, left out of both figures


def flooding(t0: float, now: float) -> bool:
    """Whether ``now`` (``time.time()``) falls in one of the crowd's windows."""
    return int((now - t0) / WINDOW) % 2 == 0


class WaitSampler:
    """The server's wait for a core (runnable, not running: ``run_queue_wait``), in the
    quiet windows and in the flooded ones, sampled every 0.1 s from a thread of the
    bench's: a ping that waits while the server's own work is small waited for the
    machine, not behind the crowd's requests (each sample counts for the window it ends
    in, but not in a window's first ``SETTLE`` seconds, as the pings)."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.waited = {True: 0.0, False: 0.0}  #: seconds waited, flooded and quiet
        self.spent = {True: 0.0, False: 0.0}  #: seconds sampled, flooded and quiet
        self.epoch = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self, epoch: float) -> None:
        self.epoch = epoch
        self._thread.start()

    def stop(self) -> dict[str, float]:
        """Milliseconds of wait a second, quiet and flooded."""
        self._stop.set()
        self._thread.join()
        return {
            name: 1e3 * self.waited[flood] / self.spent[flood] if self.spent[flood] else 0.0
            for name, flood in (("quiet", False), ("flooded", True))
        }

    def _run(self) -> None:
        try:
            before, then = run_queue_wait(self.pid), time.time()
        except OSError:  # no scheduler statistics on this system
            return
        while not self._stop.wait(0.1):
            waited, now = run_queue_wait(self.pid), time.time()
            if (now - self.epoch) % WINDOW >= SETTLE and now > self.epoch:
                flood = flooding(self.epoch, now)
                self.waited[flood] += waited - before
                self.spent[flood] += now - then
            before, then = waited, now


def loadavg() -> str:
    one, five, _fifteen = os.getloadavg()
    return f"{one:.1f} / {five:.1f}"


async def open_from(address: str, port: int, name: str | None = None, ws: bool = False) -> Conn:
    """A connection from ``address`` (a loopback one) to the server on ``HOST``: msgpack,
    or with ``ws`` a WebSocket at ``/ws`` (JSON, as the browser's)."""
    sock = trio.socket.socket()
    await sock.bind((address, 0))
    await sock.connect((HOST, port))
    stream = trio.SocketStream(sock)
    c = await WsConn.upgrade(stream, port, None) if ws else Conn(stream)
    await c.request(m.Hello())
    if name is not None:
        reply = await c.request(m.ClaimName(name=name, secret="benchpw"))
        assert isinstance(reply, m.Named), reply
    return c


def start_server(tmp: Path, settings: str = "", profile: str | None = None) -> tuple[Any, int]:
    # tables_per_name: the host makes the lobby's tables by itself
    return start_switchboard(
        tmp, "tables_per_name = 0\nfinished_table_seconds = 0\n" + settings, profile
    )


def stop_server(server: Any) -> None:
    server.send_signal(signal.SIGTERM)
    server.wait(timeout=60)


# ------------------------------------------------------------------ the pinger
#: the honest players of a run, taking turns to ping: each pings every 25 ms (as the
#: issue's honest player did, and inside an untrusted connection's 50 requests a second),
#: together every 5 ms
PLAYERS = 5
#: the next run's first player: each run's players are new, each from an address of his
#: own (127.0.3.1 on): not trusted, sharing no budget with the crowd or an earlier run's
_players = itertools.count(1, PLAYERS)


async def seated_player(port: int, ws: bool, player: int) -> Conn:
    """Honest player number ``player``, from 127.0.3.``player``, named, in a seat of a
    table he made (and waiting for its game, so the table's events do not mix with his
    pongs): a person playing, as the server sees one."""
    c = await open_from(f"127.0.3.{player}", port, f"player{player}", ws=ws)
    made = await c.request(m.CreateTable(ruleset=RULESET, seats=4, options={}))
    assert isinstance(made, m.Ok), made
    seated = await c.request(m.Join(table=str(made.table), seat=0))
    assert isinstance(seated, m.Seated), seated
    return c


def _pinger_main(port: int, seconds: float, ws: bool, first: int, out: Any) -> None:
    """``PLAYERS`` seated, untrusted players (``seated_player``, numbered from ``first``;
    over WebSockets with ``ws``) ping in turn, one every 5 ms, for ``seconds``; send back
    each ping's wall-clock time and round trip."""

    async def main() -> None:
        players = [await seated_player(port, ws, first + i) for i in range(PLAYERS)]
        times: list[tuple[float, float]] = []
        out.send("ready")
        await trio.to_thread.run_sync(out.recv)  # go
        stop = time.perf_counter() + seconds
        ids = itertools.count(1)
        for c in itertools.cycle(players):
            if time.perf_counter() >= stop:
                break
            rid = next(ids)
            sent, t0 = time.time(), time.perf_counter()
            await c.send(m.Ping(id=rid))
            while getattr(await c.receive(), "id", None) != rid:
                pass
            times.append((sent, time.perf_counter() - t0))
            await trio.sleep(0.005)
        out.send(times)

    trio.run(main)


# ------------------------------------------------------------------- the crowd
#: a reply's frame body opens with its map's header, then ``"type"`` (``to_map``'s order)
TYPE_KEY = msgpack.packb("type")
#: a JSON reply's type, in its first bytes
JSON_TYPE = re.compile(rb'"type":\s*"(\w+)"')


#: frames of the fragment flood's message (the most a WebSocket message may have), and the
#: ticks (0.1 s) between two: each frame past a message's first is charged as a request,
#: so a connection sends one every 1.4 s to stay within its 50 requests a second
FRAGMENTS, FRAGMENTED_EVERY = 64, 14


def fragmented(message: m.Message) -> bytes:
    """``message`` as a WebSocket text message in ``FRAGMENTS`` frames (masked), padded
    with a field the server ignores so that every frame carries a few bytes."""
    data = json_encode(message)[:-1] + ',"pad":"' + "x" * 10 * FRAGMENTS + '"}'
    ws = WsConnection(ConnectionType.CLIENT)
    size = -(-len(data) // FRAGMENTS)
    chunks = [data[i : i + size] for i in range(0, len(data), size)]
    return b"".join(
        ws.send(TextMessage(data=chunk, message_finished=i == len(chunks) - 1))
        for i, chunk in enumerate(chunks)
    )


def frame_of(message: m.Message, ws: bool) -> bytes:
    """A request's bytes on the wire: a msgpack frame, or a WebSocket text frame (masked,
    as a client's must be; the same mask each time it is sent, which the binding allows)."""
    if not ws:
        return encode(message)
    return WsConnection(ConnectionType.CLIENT).send(TextMessage(data=json_encode(message)))


class RawConn:
    """The crowd's side of a connection, as cheap as a client can be: requests sent as
    frames made once, replies read as plain maps (msgpack's C decoder, no message
    model), and a large reply (a lobby listing, a record page) only as far as its type,
    so that the crowd, running behind everyone for the CPU, keeps its pace, and its own
    decoding (another machine's work, in a real crowd) takes as little as it can of the
    cores the server and the pinger share with it."""

    def __init__(self, stream: trio.SocketStream, buffer: bytes = b"", ws: bool = False) -> None:
        self.stream = stream
        self.buffer = bytearray(buffer)
        self.ws = ws

    async def reply(self, frame: bytes) -> dict[str, Any]:
        """Send one request frame; the next map the server sends (the reply: nothing
        else is sent to a connection at no table)."""
        await self.stream.send_all(frame)
        if self.ws:
            return await self._ws_reply()
        while True:
            if len(self.buffer) >= 4:
                (size,) = HEADER.unpack_from(self.buffer)
                if len(self.buffer) >= 4 + size:
                    body = bytes(self.buffer[4 : 4 + size])
                    del self.buffer[: 4 + size]
                    if size > 2048 and body[1:6] == TYPE_KEY:  # its type: a fixstr
                        return {"type": body[7 : 7 + (body[6] & 0x1F)].decode()}
                    return msgpack.unpackb(body, raw=False)  # type: ignore[no-any-return]
            data = await self.stream.receive_some(1 << 20)
            if not data:
                raise EOFError
            self.buffer += data

    async def _ws_reply(self) -> dict[str, Any]:
        """The next text frame's map (RFC 6455's few lines: the server's frames are
        unmasked and whole); a large one read only as far as its type."""
        buf = self.buffer
        while True:
            while (frame := pop_server_frame(buf)) is not None:
                opcode, body, _final = frame
                n = len(body)
                if opcode == 8:
                    raise EOFError
                if opcode != 1:
                    continue  # a ping of the server's: nothing the crowd counts
                if n > 2048 and (kind := JSON_TYPE.search(body, 0, 64)) is not None:
                    return {"type": kind.group(1).decode()}
                return json.loads(body)  # type: ignore[no-any-return]
            data = await self.stream.receive_some(1 << 20)
            if not data:
                raise EOFError
            buf += data


def _crowd_main(
    port: int,
    addresses: list[str],
    each: int,
    table: str,
    ws: bool,
    kinds: tuple[str, ...],
    out: Any,
) -> None:
    """``each`` connections from every one of ``addresses``, each asking for a record
    page every 0.2 s and the lobby every 0.5 s (its own limits: 5/s and 2/s) in the
    flood's windows (``flooding``, from the epoch the go message brings) until told to
    stop; send back the answered and refused counts. It runs at the lowest priority
    (``nice`` 19), standing in for the other machines a crowd would come from: on the
    machine of the bench, its own CPU would otherwise delay the server and the pinger."""
    os.nice(19)

    async def main() -> None:
        conns = []
        for address in addresses:
            for _ in range(each):
                c = await open_from(address, port, ws=ws)
                conns.append(RawConn(c.stream, getattr(c, "buffer", b""), ws))
        record = frame_of(m.GetRecord(table=table, id=1), ws)
        listing = frame_of(m.ListTables(id=2), ws)
        pieces = fragmented(m.Ping(id=3)) if "fragments" in kinds else b""
        counts = {"record": 0, "tables": 0, "pong": 0, "refused": 0, "other": 0}
        stop = trio.Event()

        async def ask(c: RawConn, phase: float) -> None:
            """Every 0.1 s tick of a flood window: a record page on every second one, the
            lobby on every fifth (one request at a time on the connection, as a client's
            would be)."""
            await trio.sleep(phase)
            start = trio.current_time()
            for tick in itertools.count():
                if stop.is_set():
                    return
                if not flooding(epoch, time.time()):
                    await trio.sleep_until(start + (tick + 1) * 0.1)
                    continue
                asks = [record] if tick % 2 == 0 and "records" in kinds else []
                asks += [listing] if tick % 5 == 0 and "lobby" in kinds else []
                asks += [pieces] if tick % FRAGMENTED_EVERY == 0 and pieces else []
                for frame in asks:
                    reply = await c.reply(frame)
                    kind = reply.get("type")
                    if kind == "record":
                        counts["record"] += 1
                    elif kind == "tables":
                        counts["tables"] += 1
                    elif kind == "pong":
                        counts["pong"] += 1
                    elif kind == "error" and reply.get("code") == "rate_limited":
                        counts["refused"] += 1
                    else:
                        counts["other"] += 1
                await trio.sleep_until(start + (tick + 1) * 0.1)

        out.send("ready")
        epoch = await trio.to_thread.run_sync(out.recv)  # go: the windows' epoch
        async with trio.open_nursery() as nursery:
            for i, c in enumerate(conns):
                nursery.start_soon(ask, c, (i % 20) / 200)
            await trio.to_thread.run_sync(out.recv)  # stop
            stop.set()
        out.send(counts)

    trio.run(main)


async def fill_lobby(port: int, tables: int) -> str:
    """A finished game's table (four heuristic bots played it out) and ``tables`` - 1
    waiting tables, made by the host from 127.0.0.1; the finished table's id."""
    host = await open_from(HOST, port, "host")
    made = await host.request(m.CreateTable(ruleset=RULESET, seats=4, options={"turn_seconds": 0}))
    assert isinstance(made, m.Ok), made
    record_table = str(made.table)
    for seat in range(4):
        reply = await host.request(m.SeatBot(table=record_table, seat=seat, strategy="heuristic"))
        assert isinstance(reply, m.Ok), reply
    await host.request(m.StartGame(table=record_table))
    with trio.fail_after(120):
        while True:
            page = await host.request(m.GetRecord(table=record_table))
            if isinstance(page, m.Record) and page.full:
                break
            await trio.sleep(0.2)
    for _ in range(tables - 1):
        reply = await host.request(m.CreateTable(ruleset=RULESET, seats=4, options={}))
        assert isinstance(reply, m.Ok), reply
    return record_table


def flood_run(port: int, pid: int, seconds: float, crowd: tuple[list[str], int],
              table: str, pin: bool = False, ws: bool = False,
              asks: tuple[str, ...] = ("records", "lobby")) -> dict[str, Any]:  # fmt: skip
    """The pinger for ``seconds`` while ``crowd`` (addresses, connections each) asks in
    every other window, both over msgpack or (``ws``) both over WebSockets: the quiet and
    the flooded windows' figures."""
    ping_parent, ping_child = SPAWN.Pipe()
    player = next(_players)
    # daemons: a bench that fails takes its clients with it (none floods on unseen)
    pinger = SPAWN.Process(
        target=_pinger_main, args=(port, seconds, ws, player, ping_child), daemon=True
    )
    pinger.start()
    crowd_parent, crowd_child = SPAWN.Pipe()
    crowd_proc = SPAWN.Process(
        target=_crowd_main,
        args=(port, crowd[0], crowd[1], table, ws, asks, crowd_child),
        daemon=True,
    )
    crowd_proc.start()
    if pin:
        # The server on the first cores, the clients on the last one: their work stands
        # for other machines', as it would be on a real network.
        cores = sorted(os.sched_getaffinity(0))
        os.sched_setaffinity(pid, cores[:-1])
        for p in (pinger.pid, crowd_proc.pid):
            os.sched_setaffinity(p, cores[-1:])
    assert crowd_parent.recv() == "ready"
    assert ping_parent.recv() == "ready"
    _rss, cpu0 = proc_stats(pid)
    epoch = time.time() + 0.2
    sampler = WaitSampler(pid)
    sampler.start(epoch)
    crowd_parent.send(epoch)
    time.sleep(0.2)
    t0 = time.perf_counter()
    ping_parent.send("go")
    if not ping_parent.poll(seconds + 60):  # a pinger that failed never answers
        raise SystemExit("the pinger sent no figures back (its error is above)")
    times = ping_parent.recv()
    elapsed = time.perf_counter() - t0
    waits = sampler.stop()
    _rss, cpu1 = proc_stats(pid)
    pinger.join()
    crowd_parent.send("stop")
    counts = crowd_parent.recv()
    crowd_proc.join()
    quiet, flooded = [], []
    for sent, rtt in times:
        if (sent - epoch) % WINDOW >= SETTLE:
            (flooded if flooding(epoch, sent) else quiet).append(rtt)
    res = {"quiet": _percentiles(quiet), "flooded": _percentiles(flooded), "load": loadavg()}
    res["cpu"] = (cpu1 - cpu0) / elapsed
    res["wait"] = waits
    res["ratio"] = res["flooded"]["p99"] / res["quiet"]["p99"]
    res.update({k: v / (elapsed / 2) for k, v in counts.items()})  # a second of flood
    return res


def crowd_of(n: int) -> tuple[str, tuple[list[str], int]]:
    """A flood's crowd from ``n`` loopback addresses (127.0.0.2 on), 64 connections in
    all (at least one an address): its name and (addresses, connections each)."""
    addresses = [f"127.0.{2 + i // 250}.{2 + i % 250}" for i in range(n)]
    return f"{n} address{'es' if n > 1 else ''}", (addresses, max(1, 64 // n))


def part_flood(args: argparse.Namespace) -> bool:
    print("1. flood: a crowd asks for records and the lobby; another client's ping p99,")
    print(f"   quiet and flooded in turn, {WINDOW:.0f} s windows (the quiet ones the reference)")
    print()
    print("| tables | over | crowd | quiet p50 / p99 | flooded p50 / p99 | x quiet | target"
          " | records/s | lobby/s | refused/s | server CPU | server's wait for a core, quiet /"
          " flooded | load avg |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    met_all = True
    crowds = [crowd_of(n) for n in args.addresses]
    medians = []
    other = 0.0
    for tables in args.tables:
        with tempfile.TemporaryDirectory() as tmp:
            server, port = start_server(Path(tmp), profile=args.profile)
            try:
                table = trio.run(fill_lobby, port, tables)
                for (name, crowd), over in itertools.product(crowds, args.over):
                    ratios = []
                    for _ in range(args.repeat):
                        res = flood_run(port, server.pid, args.seconds, crowd, table, args.pin,
                                        ws=over == "ws", asks=tuple(args.asks))  # fmt: skip
                        ratios.append(res["ratio"])
                        other += res.get("other", 0)
                        q, f, w = res["quiet"], res["flooded"], res["wait"]
                        print(f"| {tables} | {over} | {name} | {q['p50']:.2f} / {q['p99']:.2f} ms |"
                              f" {f['p50']:.2f} / {f['p99']:.2f} ms | {res['ratio']:.2f} |"
                              f" <= 2x: {verdict(res['ratio'] <= 2.0)} |"
                              f" {res.get('record', 0):.0f} | {res.get('tables', 0):.1f} |"
                              f" {res.get('refused', 0):.0f} | {res['cpu']:.0%} |"
                              f" {w['quiet']:.0f} / {w['flooded']:.0f} ms/s |"
                              f" {res['load']} |", flush=True)  # fmt: skip
                    median = statistics.median(ratios)
                    medians.append((tables, f"{name} over {over}", median, len(ratios)))
                    met_all &= median <= 2.0
            finally:
                stop_server(server)
    if other:
        print(f"(the crowd got {other:.1f} replies a second that were not what it asked for)")
    print()
    for tables, name, median, n in medians:
        print(f"{tables} tables, {name}: median x quiet {median:.2f} over {n} run(s)")
    print(f"target: every flooded ping p99 within 2x the quiet one: {verdict(met_all)}")
    return met_all


# ------------------------------------------------------------------- supply
async def _newcomers(port: int, addresses: list[str]) -> list[tuple[bool, float]]:
    """Each of ``addresses`` (none holding a table) creates its first table, one after
    another: whether it was made, and how long its create took."""
    out = []
    for i, address in enumerate(addresses):
        c = await open_from(address, port, f"new{address.replace('.', '_')}n{i}")
        t0 = time.perf_counter()
        reply = await c.request(m.CreateTable(ruleset=RULESET, seats=4, options={}))
        out.append((isinstance(reply, m.Ok), time.perf_counter() - t0))
        await c.stream.aclose()
    return out


async def _seated_crowd(port: int, addresses: list[str]) -> tuple[int, int, float]:
    """Every one of ``addresses`` at once creates tables and sits at each until refused
    (tables it holds do not close: someone is seated); meanwhile the host (trusted) reads
    the lobby's total. The tables made, the most the lobby held at one look, and the
    seconds until no address could make more."""
    host = await open_from(HOST, port, "watcher")
    made, most, done = 0, 0, trio.Event()

    async def take(i: int, address: str) -> None:
        nonlocal made
        c = await open_from(address, port, f"seated{i}")
        while True:
            reply = await c.request(m.CreateTable(ruleset=RULESET, seats=4, options={}))
            if not isinstance(reply, m.Ok):
                return
            made += 1
            await c.request(m.Join(table=reply.table, seat=0))

    async def watch() -> None:
        nonlocal most
        while not done.is_set():
            page = await host.request(m.ListTables(count=0))
            if isinstance(page, m.Tables):
                most = max(most, page.total)
            await trio.sleep(0.5)

    t0 = time.perf_counter()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(watch)
        async with trio.open_nursery() as crowd:
            for i, address in enumerate(addresses):
                crowd.start_soon(take, i, address)
        took = time.perf_counter() - t0
        done.set()
    return made, most, took


async def _open_tables(port: int) -> int:
    """The tables the lobby lists now, as the host reads them."""
    page = await (await open_from(HOST, port)).request(m.ListTables(count=0))
    assert isinstance(page, m.Tables), page
    return page.total


def part_supply(args: argparse.Namespace) -> bool:
    n = max(args.addresses)
    print(f"7. supply: {n} addresses at once each create tables and sit at every one until")
    print("   refused; then 20 new addresses each create a first table. Their creates beside")
    print("   the same creates on the quiet server (the reference)")
    print()
    print("| crowd | tables made | most open at one look | max_tables | filled in |"
          " newcomers served | open after | newcomer create p50 / max | quiet p50 / max |"
          " load avg |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|---|")
    addresses = crowd_of(n)[1][0]
    quiet_addresses = [f"127.0.6.{i}" for i in range(2, 22)]
    new_addresses = [f"127.0.5.{i}" for i in range(2, 22)]
    with tempfile.TemporaryDirectory() as tmp:
        # the crowd's names are not what is measured: as if claimed before, over days
        server, port = start_server(Path(tmp), "new_names_server_burst = 100000\n")
        try:
            quiet = trio.run(_newcomers, port, quiet_addresses)
            made, most, took = trio.run(_seated_crowd, port, addresses)
            new = trio.run(_newcomers, port, new_addresses)
            after = trio.run(_open_tables, port)
        finally:
            stop_server(server)
    served = sum(ok for ok, _ in new)
    times = sorted(t for _, t in new)
    qtimes = sorted(t for _, t in quiet)
    limit = 2000  # max_tables's default, the bench's server's
    print(f"| {n} addresses | {made} | {most} | {limit} | {took:.1f} s |"
          f" {served} of {len(new)} | {after} |"
          f" {statistics.median(times) * 1e3:.0f} / {times[-1] * 1e3:.0f} ms |"
          f" {statistics.median(qtimes) * 1e3:.0f} / {qtimes[-1] * 1e3:.0f} ms |"
          f" {loadavg()} |", flush=True)  # fmt: skip
    met = served == len(new) and max(most, after) <= limit
    print()
    print(f"target: every newcomer served, never more than max_tables open: {verdict(met)}")
    return met


# ---------------------------------------------------------------- fragments
def part_fragments(args: argparse.Namespace) -> bool:
    print("6. fragments: 40 WebSockets from two addresses (127.0.0.2-3), each sending a ping")
    print(f"   in {FRAGMENTS} frames every {FRAGMENTED_EVERY / 10:.1f} s (within its requests a"
          " second, each frame past the first one)")  # fmt: skip
    print("   another client's ping p99 over a WebSocket, quiet and flooded in turn")
    print()
    print("| run | quiet p50 / p99 | flooded p50 / p99 | x quiet | target | pongs/s |"
          " refused/s | server CPU | load avg |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|")
    ratios = []
    with tempfile.TemporaryDirectory() as tmp:
        server, port = start_server(Path(tmp), profile=args.profile)
        try:
            table = trio.run(fill_lobby, port, 1)
            crowd = (["127.0.0.2", "127.0.0.3"], 20)
            for n in range(1, args.repeat + 1):
                res = flood_run(port, server.pid, args.seconds, crowd, table, args.pin,
                                ws=True, asks=("fragments",))  # fmt: skip
                ratios.append(res["ratio"])
                q, f = res["quiet"], res["flooded"]
                print(f"| {n} | {q['p50']:.2f} / {q['p99']:.2f} ms |"
                      f" {f['p50']:.2f} / {f['p99']:.2f} ms | {res['ratio']:.2f} |"
                      f" <= 2x: {verdict(res['ratio'] <= 2.0)} |"
                      f" {res.get('pong', 0):.0f} | {res.get('refused', 0):.0f} |"
                      f" {res['cpu']:.0%} | {res['load']} |", flush=True)  # fmt: skip
        finally:
            stop_server(server)
    median = statistics.median(ratios)
    print()
    print(f"median x quiet {median:.2f}; target within 2x: {verdict(median <= 2.0)}")
    return median <= 2.0


# ------------------------------------------------------------------ listing
async def _cpu_per(port: int, pid: int, make: Any, ws: bool, count: int) -> tuple[float, int]:
    """The server's CPU seconds a request (``make(id)`` makes one), from ``count`` asked
    one after another from 127.0.0.1, and the bytes of one reply (encoded as msgpack)."""
    c = await open_from(HOST, port, ws=ws)
    reply = None
    for _ in range(10):  # warm: the first page built, the codecs' caches filled
        reply = await c.request(make())
    assert reply is not None and not isinstance(reply, m.Error), reply
    before = proc_stats(pid)[1]
    for _ in range(count):
        await c.request(make())
    used = proc_stats(pid)[1] - before
    await c.stream.aclose()
    return used / count, len(encode(reply))


def part_listing(args: argparse.Namespace) -> None:
    print("5. listing: the server's CPU for one lobby listing, beside a ping's (the")
    print("   reference), a page (lobby_page, 50) and the whole lobby in one listing (as it")
    print("   was sent before pages), one request after another from one client")
    print()
    print("| tables | over | ping (reference) | a page | x ping | page bytes |"
          " whole listing | x ping | whole bytes | load avg |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|---|")
    pings, pages = (3000, 1000) if args.quick else (10000, 3000)
    unlimited = "lobby_per_second = 1000000.0\nlobby_burst = 1000000\n"
    for tables in args.tables:
        figures: dict[tuple[str, str], tuple[float, int]] = {}
        for kind, page in (("page", ""), ("whole", f"lobby_page = {tables}\n")):
            with tempfile.TemporaryDirectory() as tmp:
                server, port = start_server(Path(tmp), unlimited + page)
                try:
                    trio.run(fill_lobby, port, tables)
                    for over in args.over:
                        ws = over == "ws"
                        if kind == "page":
                            ping = lambda: m.Ping()  # noqa: E731
                            figures[over, "ping"] = trio.run(_cpu_per, port, server.pid, ping,
                                                             ws, pings)  # fmt: skip
                        listing = lambda: m.ListTables()  # noqa: E731
                        asked = pages // (5 if kind == "whole" else 1)
                        figures[over, kind] = trio.run(_cpu_per, port, server.pid, listing, ws,
                                                       asked)  # fmt: skip
                finally:
                    stop_server(server)
        for over in args.over:
            ping, _ = figures[over, "ping"]
            (page_cpu, page_bytes), (whole_cpu, whole_bytes) = (
                figures[over, "page"], figures[over, "whole"])  # fmt: skip
            print(f"| {tables} | {over} | {ping * 1e6:.0f} µs | {page_cpu * 1e6:.0f} µs |"
                  f" {page_cpu / ping:.1f} | {page_bytes / 1e3:.1f} KB |"
                  f" {whole_cpu * 1e6:.0f} µs | {whole_cpu / ping:.1f} |"
                  f" {whole_bytes / 1e3:.0f} KB | {loadavg()} |", flush=True)  # fmt: skip
    print()
    print("(CPU time from /proc, in clock ticks: each figure is a total over the requests,")
    print(" divided; bytes are a reply's as msgpack, whatever it was sent as)")


# -------------------------------------------------------------- pipeliners
def _pipeliners(port: int, addresses: list[str], each: int, asks: int) -> list[Any]:
    """``each`` connections from every one of ``addresses``, each sending hello and
    ``asks`` ``list_rulesets`` and reading nothing."""
    import socket

    data = encode(m.Hello(id=0)) + b"".join(
        encode(m.ListRulesets(id=i)) for i in range(1, asks + 1)
    )
    socks = []
    for address in addresses:
        for _ in range(each):
            sock = socket.socket()
            sock.bind((address, 0))
            sock.connect((HOST, port))
            sock.sendall(data)
            socks.append(sock)
    return socks


def _reset(socks: list[Any]) -> None:
    """Close every socket with a reset (linger 0), as a crowd that gives up does."""
    import socket
    import struct

    for sock in socks:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        sock.close()


def part_pipeliners(args: argparse.Namespace) -> bool:
    print("3. pipeliners: connections that ask for the rulesets 90 times and never read;")
    print("   the server's RSS before them (the reference), at its peak, and after they reset")
    print()
    print("| crowd | RSS before | RSS peak | peak - before | RSS after reset |"
          " after - before | load avg |")  # fmt: skip
    print("|---|---|---|---|---|---|---|")
    met = True
    limit = 128 * 1024 * 1024 / 1e6
    hold = 5.0 if args.quick else 10.0
    for n_addresses in (4, 8):
        addresses = [f"127.0.0.{i}" for i in range(2, 2 + n_addresses)]
        with tempfile.TemporaryDirectory() as tmp:
            server, port = start_server(Path(tmp), profile=args.profile)
            try:
                trio.run(fill_lobby, port, 1)  # the server warmed by a first client
                time.sleep(1.0)
                before, _ = proc_stats(server.pid)
                socks = _pipeliners(port, addresses, 64, 90)
                peak, end = before, time.time() + hold
                while time.time() < end:
                    peak = max(peak, proc_stats(server.pid)[0])
                    time.sleep(0.05)
                _reset(socks)
                time.sleep(3.0)
                after, _ = proc_stats(server.pid)
            finally:
                stop_server(server)
        print(f"| {len(socks)} from {n_addresses} addresses | {before:.0f} MB | {peak:.0f} MB |"
              f" {peak - before:+.0f} MB | {after:.0f} MB | {after - before:+.0f} MB |"
              f" {loadavg()} |", flush=True)  # fmt: skip
        met &= peak - before <= limit and after - before <= 16
    print()
    print(
        f"target: peak within {limit:.0f} MB of the reference, and back within 16 MB of it"
        f" once they leave: {verdict(met)}"
    )
    return met


# ------------------------------------------------------------------- burst
BROWSER_GET = (
    b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: Mozilla/5.0 (X11; Linux x86_64)\r\n"
    b"Accept: text/html\r\nAccept-Encoding: gzip, deflate\r\n\r\n"
)


async def _burst(port: int, data: bytes, until: bytes) -> None:
    """1,280 connections at once from 20 addresses, each sending ``data`` and reading
    until ``until`` arrives; all closed once every one is served."""
    streams: list[trio.SocketStream] = []

    async def one(address: str) -> None:
        sock = trio.socket.socket()
        await sock.bind((address, 0))
        await sock.connect((HOST, port))
        stream = trio.SocketStream(sock)
        await stream.send_all(data)
        got = b""
        while until not in got and (chunk := await stream.receive_some(65536)):
            got += chunk
        streams.append(stream)

    async with trio.open_nursery() as nursery:
        for i in range(1280):
            nursery.start_soon(one, f"127.0.1.{2 + i % 20}")
    for stream in streams:
        await stream.aclose()


def part_burst(args: argparse.Namespace) -> bool:
    print("4. burst: 1,280 connections at once from 20 addresses; the server's CPU for them")
    print()
    print("| round | msgpack hello + ping (reference) | GET / | x reference | load avg |")
    print("|---|---|---|---|---|")
    settings = "trusted_addresses = []\nconnections_per_address = 0\nhttp_address_burst = 100000\n"
    ping = encode(m.Hello(id=1)) + encode(m.Ping(id=2))
    ratios = []
    with tempfile.TemporaryDirectory() as tmp:
        server, port = start_server(Path(tmp), settings)
        try:
            trio.run(_burst, port, BROWSER_GET, b"</html>")  # warm: the page, the imports
            for n in range(1, 4):
                cpu = []
                for data, until in ((ping, b"pong"), (BROWSER_GET, b"</html>")):
                    time.sleep(1.0)
                    before = proc_stats(server.pid)[1]
                    trio.run(_burst, port, data, until)
                    time.sleep(0.5)
                    cpu.append(proc_stats(server.pid)[1] - before)
                ratios.append(cpu[1] / cpu[0])
                print(f"| {n} | {cpu[0]:.2f} s | {cpu[1]:.2f} s | {ratios[-1]:.2f} |"
                      f" {loadavg()} |", flush=True)  # fmt: skip
        finally:
            stop_server(server)
    median = statistics.median(ratios)
    print()
    print(f"median x reference {median:.2f}; target within 1.5x: {verdict(median <= 1.5)}")
    return median <= 1.5


# ---------------------------------------------------------------- thinking
def my_turn(msg: Any) -> bool:
    if isinstance(msg, m.Turn):
        return msg.to_act == msg.seat and bool(msg.legal)
    if isinstance(msg, m.Snapshot):
        return msg.state == "playing" and msg.view.get("to_act") == msg.seat and bool(msg.legal)
    return False


async def victim_waits(port: int, turns: int, limit: float) -> list[float]:
    """The person at a table with three search bots, from 127.0.0.6: the seconds from
    the start (or his own act) to his next turn, for his first ``turns`` turns that
    followed a bot's move (at most ``limit`` seconds in all)."""
    c = await open_from("127.0.0.6", port, "victim")
    made = await c.request(m.CreateTable(ruleset=RULESET, seats=4, options={"turn_seconds": 0}))
    assert isinstance(made, m.Ok), made
    table = str(made.table)
    for seat in (1, 2, 3):
        reply = await c.request(m.SeatBot(table=table, seat=seat, strategy="search"))
        assert isinstance(reply, m.Ok), reply
    await c.request(m.Join(table=table, seat=0))
    waits: list[float] = []
    rid = itertools.count(10**6)
    since = time.perf_counter()
    await c.send(m.StartGame(table=table, id=next(rid)))
    bot_moved = False
    with trio.move_on_after(limit):
        while len(waits) < turns:
            msg = await c.receive()
            if isinstance(msg, m.TableEvent) and msg.event.get("seat") not in (None, 0):
                bot_moved = True
            if my_turn(msg):
                if bot_moved:
                    waits.append(time.perf_counter() - since)
                bot_moved = False
                await c.send(m.Act(table=table, action=msg.legal[0], id=next(rid)))  # type: ignore[union-attr]
                since = time.perf_counter()
            elif isinstance(msg, m.Snapshot) and msg.state == "over":
                break
    return waits


async def warm_pool(port: int) -> None:
    """A search bot's first move at a table of the host's, then the table closed: the
    worker process is started (seconds, on a busy machine) before anything is timed."""
    host = await open_from(HOST, port, "warmer")
    made = await host.request(m.CreateTable(ruleset=RULESET, seats=2, options={"turn_seconds": 0}))
    assert isinstance(made, m.Ok), made
    for seat in (0, 1):
        await host.request(m.SeatBot(table=made.table, seat=seat, strategy="search"))
    await host.request(m.Spectate(table=made.table))
    await host.request(m.StartGame(table=made.table))
    with trio.fail_after(120):
        while True:
            msg = await host.receive()
            if isinstance(msg, m.TableEvent) and msg.event.get("seat") is not None:
                break
    await host.request(m.CloseTable(table=made.table))


async def fill_quotas(port: int, addresses: list[str], per_address: int, watch: bool) -> int:
    """Every one of ``addresses`` fills its quota of tables of four search bots, started
    (two names an address: a name may hold 4 tables), each watched by its creator if
    ``watch`` (so that its thoughts rank with a person's); how many tables."""
    made_tables = 0
    for a_i, address in enumerate(addresses):
        names = [await open_from(address, port, f"crowd{a_i}n{n}") for n in range(2)]
        for t in range(per_address):
            c = names[t % 2]
            made = await c.request(
                m.CreateTable(ruleset=RULESET, seats=4, options={"turn_seconds": 0})
            )
            if not isinstance(made, m.Ok):
                print(f"  ({address}: table {t + 1} refused: {made.text})")  # type: ignore[union-attr]
                break
            for seat in range(4):
                await c.request(m.SeatBot(table=made.table, seat=seat, strategy="search"))
            await c.request(m.StartGame(table=made.table))
            if watch:
                await c.request(m.Spectate(table=made.table))
            made_tables += 1
    return made_tables


def part_thinking(args: argparse.Namespace) -> None:
    print("2. thinking: a person with three search bots; his wait for his turn")
    print()
    print("| run | first wait | mean wait | worst wait | turns | load avg |")
    print("|---|---|---|---|---|---|")
    runs = [("quiet", 0, False), ("4 addresses x 8 search tables", 4, False),
            ("4 addresses x 8 search tables, each watched", 4, True)]  # fmt: skip
    for name, addresses, watch in runs:
        with tempfile.TemporaryDirectory() as tmp:
            server, port = start_server(Path(tmp), profile=args.profile)
            try:
                trio.run(warm_pool, port)
                if addresses:
                    crowd = [f"127.0.0.{i}" for i in range(2, 2 + addresses)]
                    made = trio.run(fill_quotas, port, crowd, 8, watch)
                    name = f"{name} ({made} tables)"
                    time.sleep(3.0)  # their thoughts queue up
                waits = trio.run(victim_waits, port, args.turns, args.wait_limit)
            finally:
                stop_server(server)
        if waits:
            print(f"| {name} | {waits[0]:.2f} s | {sum(waits) / len(waits):.2f} s |"
                  f" {max(waits):.2f} s | {len(waits)} | {loadavg()} |", flush=True)  # fmt: skip
        else:
            print(f"| {name} | none within {args.wait_limit:.0f} s | | | 0 | {loadavg()} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--part",
        choices=(
            "flood",
            "thinking",
            "pipeliners",
            "burst",
            "listing",
            "fragments",
            "supply",
            "both",
        ),
        default="both",
    )
    ap.add_argument("--seconds", type=float, default=60.0,
                    help="each flood run's length, half of it flooded (60)")  # fmt: skip
    ap.add_argument("--repeat", type=int, default=1, help="runs of each flood (1)")
    ap.add_argument(
        "--pin",
        action=argparse.BooleanOptionalAction,
        default=len(os.sched_getaffinity(0)) >= 2,
        help="the crowd on a core of its own, the server and the pinger on the"
        " others, as if the crowd were other machines (default: with 2+ cores)",
    )
    ap.add_argument("--turns", type=int, default=5, help="the victim's turns measured (5)")
    ap.add_argument("--quick", action="store_true", help="20 s flood runs, 3 turns")
    ap.add_argument("--tables", type=int, nargs="+", default=[200, 2000],
                    help="the lobby's sizes the flood is run with (200 2000)")  # fmt: skip
    ap.add_argument("--addresses", type=int, nargs="+", default=[1, 4, 64, 250],
                    help="the flood's crowds: so many addresses, 64 connections in all"
                    " (at least one an address) (1 4 64 250)")  # fmt: skip
    ap.add_argument("--over", nargs="+", choices=("msgpack", "ws"), default=["msgpack", "ws"],
                    help="the flood's transports: the crowd and the pinger over msgpack,"
                    " then both over WebSockets at /ws (msgpack ws)")  # fmt: skip
    ap.add_argument("--asks", nargs="+", choices=("records", "lobby", "fragments"),
                    default=["records", "lobby"],
                    help="what the flood's crowd asks for (records lobby): one alone"
                    " shows which costs the victim; fragments (over ws): a ping in 64"
                    " frames every 1.4 s")  # fmt: skip
    ap.add_argument("--profile", metavar="FILE",
                    help="the flood server under cProfile, written to FILE")  # fmt: skip
    args = ap.parse_args()
    args.wait_limit = 60.0  # the victim's turns are timed for at most this long
    if args.quick:
        args.seconds, args.turns, args.wait_limit = 20.0, 3, 20.0
    print(f"bench/crowd.py: {os.cpu_count()} cores; load average (1 / 5 min) {loadavg()}")
    print()
    if args.part in ("flood", "both"):
        part_flood(args)
        print()
    if args.part in ("thinking", "both"):
        part_thinking(args)
    if args.part == "pipeliners":
        part_pipeliners(args)
    if args.part == "burst":
        part_burst(args)
    if args.part == "listing":
        part_listing(args)
    if args.part == "fragments":
        part_fragments(args)
    if args.part == "supply":
        part_supply(args)


if __name__ == "__main__":
    main()
