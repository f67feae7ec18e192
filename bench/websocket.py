"""The WebSocket binding's cost beside msgpack's, measured in the same run.

    python bench/websocket.py            # 2,000 act -> ok round trips each; 1,000 idle each
    python bench/websocket.py --quick    # 300 round trips; 300 idle (a smoke run)

1. Round trip: one client acts at a table of its own (its opponents the server's bots) and
   waits for the ``ok`` that answers; the time from sending ``act`` to reading its ``ok``,
   p50 and p99, over msgpack and over the WebSocket (JSON), in alternating batches on one
   server so that both see the same machine; and the server's CPU time a round trip, which
   a loaded machine bends less than the wall clock.
2. Idle: the server's RSS growth for N connections that said hello and stay silent: N
   msgpack connections to one fresh server, N WebSockets (HTTP upgrade, then hello) to
   another, started alike.

Target (docs/operations.md, "The web client over HTTP"): the WebSocket at most 1.5x
msgpack on both, p99 round trip and memory per connection. The server is ``switchboard
serve`` in its own process (bench/load.py starts it); the clients run in this one. Only
127.0.0.1 is used.
"""

from __future__ import annotations

import argparse
import itertools
import json
import multiprocessing as mp
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import h11  # noqa: E402
import trio  # noqa: E402
from wsproto.connection import Connection, ConnectionType  # noqa: E402
from wsproto.events import TextMessage  # noqa: E402

from bench.load import proc_stats, raise_fd_limit, start_switchboard  # noqa: E402
from bench.wireconn import HOST, Conn, pop_server_frame  # noqa: E402
from protocol import messages as m  # noqa: E402
from protocol.json_codec import encode as json_encode  # noqa: E402

TARGET = 1.5  #: the WebSocket at most this many times msgpack
SETTINGS = "tables_per_name = 0\ntables_per_address = 0\n"


class WsConn(Conn):
    """The same client as ``bench.wireconn.Conn``, over the WebSocket binding."""

    def __init__(self, stream: trio.SocketStream) -> None:
        super().__init__(stream)
        self.ws = Connection(ConnectionType.CLIENT)
        self.buffer = bytearray()

    @classmethod
    async def open(cls, port: int, name: str | None = None) -> WsConn:
        return await cls.upgrade(await trio.open_tcp_stream(HOST, port), port, name)

    @classmethod
    async def upgrade(cls, stream: trio.SocketStream, port: int, name: str | None) -> WsConn:
        """The WebSocket over ``stream`` (connected to the server on ``HOST``); with a
        name, hello said and the name claimed."""
        http = h11.Connection(h11.CLIENT)
        headers = [
            ("host", f"{HOST}:{port}"),
            ("origin", f"http://{HOST}:{port}"),
            ("upgrade", "websocket"),
            ("connection", "Upgrade"),
            ("sec-websocket-key", "dGhlIHNhbXBsZSBub25jZQ=="),
            ("sec-websocket-version", "13"),
        ]
        await stream.send_all(http.send(h11.Request(method="GET", target="/ws", headers=headers)))
        await stream.send_all(http.send(h11.EndOfMessage()))
        while True:
            event = http.next_event()
            if event is h11.NEED_DATA:
                http.receive_data(await stream.receive_some(4096))
                continue
            assert isinstance(event, h11.InformationalResponse), event
            assert event.status_code == 101, event
            break
        c = cls(stream)
        c.buffer += http.trailing_data[0]
        if name is not None:
            await c.request(m.Hello())
            reply = await c.request(m.ClaimName(name=name, secret="benchpw"))
            assert isinstance(reply, m.Named), reply
        return c

    async def send(self, message: m.Message) -> None:
        await self.stream.send_all(self.ws.send(TextMessage(data=json_encode(message))))

    async def receive(self) -> m.Received:
        """The next message. The server's frames are read with the few lines of RFC 6455
        they need (a server's frames are unmasked, and this one never fragments), not
        with wsproto's parser: a browser reads them in native code, as the msgpack client
        reads its frames with msgpack's C extension, so the figure is the server's and
        the wire's rather than a Python parser's."""
        while not self.pending:
            buf = self.buffer
            while (frame := pop_server_frame(buf)) is not None:
                opcode, payload, final = frame
                assert final, "the server does not fragment"
                if opcode == 8:
                    raise EOFError
                if opcode == 1:
                    self.pending.append(m.from_map(json.loads(payload)))
            if self.pending:
                break
            data = await self.stream.receive_some(65536)
            if not data:
                raise EOFError
            buf += data
        return self.pending.pop(0)


# ------------------------------------------------------------------ round trips
class Player:
    """A client at a table of its own against the server's bots, timing act -> ok."""

    def __init__(self, conn: Conn) -> None:
        self.conn = conn
        self.table = ""
        self.ids = itertools.count(1_000_000)
        self.times: list[float] = []
        self.cpu = 0.0  #: the server's CPU seconds while this player acted

    async def sit(self) -> None:
        ok = await self.conn.request(m.CreateTable(ruleset="switch", seats=2))
        assert isinstance(ok, m.Ok), ok
        self.table = ok.table or ""
        seated = await self.conn.request(m.Join(table=self.table, seat=0))
        assert isinstance(seated, m.Seated), seated
        await self.conn.request(m.StartGame(table=self.table))

    async def act(self, count: int) -> None:
        """Play ``count`` actions, timing each from its ``act`` to its ``ok``."""
        done = 0
        while done < count:
            msg = await self.conn.receive()
            if isinstance(msg, m.Snapshot) and msg.state == "over":
                await self.conn.request(m.StartGame(table=self.table))
                continue
            if not (isinstance(msg, m.Turn) and msg.to_act == msg.seat and msg.legal):
                continue
            rid = next(self.ids)
            start = time.perf_counter()
            await self.conn.send(m.Act(table=self.table, action=msg.legal[0], id=rid))
            others = []  # events and turns that came before the ok: read after it
            while True:
                reply = await self.conn.receive()
                if getattr(reply, "id", None) == rid:
                    break
                others.append(reply)
            self.times.append(time.perf_counter() - start)
            self.conn.pending[:0] = others
            assert isinstance(reply, m.Ok), reply
            done += 1


def percentile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(len(xs) * q))] * 1000


async def round_trips(port: int, count: int, pid: int, batch: int = 10) -> list[Player]:
    """Both players' timed actions, alternating batches; each player's ``cpu`` is the
    server's CPU seconds spent while its batches ran (its bots' moves included)."""
    players = [Player(await Conn.open(port, "benchmp")), Player(await WsConn.open(port, "benchws"))]
    for p in players:
        await p.sit()
    for p in players:
        await p.act(20)  # warm up
        p.times.clear()
    while len(players[1].times) < count:
        for p in players:
            before = proc_stats(pid)[1]
            await p.act(min(batch, count - len(p.times)))
            p.cpu += proc_stats(pid)[1] - before
    return players


# ------------------------------------------------------------------------ idle
def _idle_main(port: int, count: int, websocket: bool, ready: Any, done: Any) -> None:
    raise_fd_limit()

    async def main() -> None:
        conns: list[Conn] = []
        limiter = trio.CapacityLimiter(100)
        kind = WsConn if websocket else Conn

        async def one() -> None:
            async with limiter:
                c = await kind.open(port)
                reply = await c.request(m.Hello())
                assert isinstance(reply, m.Welcome), reply
                conns.append(c)

        async with trio.open_nursery() as nursery:
            for _ in range(count):
                nursery.start_soon(one)
        ready.send(len(conns))
        await trio.to_thread.run_sync(done.recv)
        for c in conns:
            await c.stream.aclose()

    trio.run(main)


def idle_growth(websocket: bool, count: int) -> tuple[float, float, int]:
    """(RSS before in MB, KiB per idle connection, connections opened) on a fresh server."""
    server, port = start_switchboard(Path(tempfile.mkdtemp(prefix="sb-wsbench-")), SETTINGS)
    try:
        time.sleep(1.0)
        rss0, _ = proc_stats(server.pid)
        ready_parent, ready_child = mp.Pipe()
        done_parent, done_child = mp.Pipe()
        p = mp.Process(target=_idle_main, args=(port, count, websocket, ready_child, done_child))
        p.start()
        opened = ready_parent.recv()
        time.sleep(1.0)
        rss1, _ = proc_stats(server.pid)
        done_parent.send(True)
        p.join()
        return rss0, (rss1 - rss0) * 1024 / max(opened, 1), opened
    finally:
        server.terminate()
        server.wait(timeout=15)


def verdict(ratio: float) -> str:
    return "met" if ratio <= TARGET else "NOT met"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="300 round trips, 300 idle")
    parser.add_argument("--skip-idle", action="store_true")
    args = parser.parse_args()
    raise_fd_limit()
    mp.set_start_method("fork")
    count = 300 if args.quick else 2_000
    idle_count = 300 if args.quick else 1_000
    print(f"{os.cpu_count()} cores; python {sys.version.split()[0]}; trio {trio.__version__};"
          f" load average {os.getloadavg()[0]:.1f} at the start")  # fmt: skip

    server, port = start_switchboard(Path(tempfile.mkdtemp(prefix="sb-wsbench-")), SETTINGS)
    try:
        players = trio.run(round_trips, port, count, server.pid)
    finally:
        server.terminate()
        server.wait(timeout=15)
    mp_times, ws_times = players[0].times, players[1].times
    print(f"\n1. act -> ok round trip, {count:,} each, alternating batches (ms)")
    print(f"   {'':10} {'p50':>7} {'p99':>7} {'server CPU a round trip':>24}")
    for name, p in zip(("msgpack", "websocket"), players, strict=True):
        cpu = p.cpu / len(p.times) * 1e6
        print(f"   {name:10} {percentile(p.times, 0.5):7.3f} {percentile(p.times, 0.99):7.3f}"
              f" {cpu:21.0f} us")  # fmt: skip
    for q, label in ((0.5, "p50"), (0.99, "p99")):
        ratio = percentile(ws_times, q) / percentile(mp_times, q)
        print(f"   {label}: websocket {ratio:.2f}x msgpack; target <= {TARGET}x: {verdict(ratio)}")
    ratio = (players[1].cpu / len(ws_times)) / (players[0].cpu / len(mp_times))
    print(f"   server CPU: websocket {ratio:.2f}x msgpack (the bots' moves included in both)")

    if not args.skip_idle:
        print(f"\n2. {idle_count:,} idle connections (hello said), each on a fresh server")
        base_mp, per_mp, n_mp = idle_growth(False, idle_count)
        base_ws, per_ws, n_ws = idle_growth(True, idle_count)
        print(f"   msgpack   {per_mp:5.1f} KiB each ({n_mp:,} over {base_mp:.0f} MB)")
        print(f"   websocket {per_ws:5.1f} KiB each ({n_ws:,} over {base_ws:.0f} MB)")
        ratio = per_ws / per_mp if per_mp > 0 else float("inf")
        print(f"   websocket {ratio:.2f}x msgpack; target <= {TARGET}x: {verdict(ratio)}")


if __name__ == "__main__":
    main()
