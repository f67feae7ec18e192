"""Figures for the terminal client, each beside its reference measured in the same run.

1. Start-up: `switchboard play` with no address (a local server, bots, the
   full-screen board) in a real pseudo-terminal, from the process starting to
   the board on screen: the median of 5 runs. References: `python -c pass` and
   `python -c "import prompt_toolkit, trio"` in the same run.
2. Redraw: from an event reaching the client to the screen redrawn, over a
   hand played against bots (the application writing real escape sequences
   to a throwaway terminal). Reference: a redraw with nothing changed.

    python bench/client.py [--runs 5] [--events 300]
"""

from __future__ import annotations

import argparse
import asyncio
import fcntl
import io
import os
import pty
import select
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def timed(argv: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, check=True, cwd=ROOT)
    return time.perf_counter() - start


def startup_once(game: str, marker: bytes) -> float:
    """Seconds from spawning `switchboard play` in an 80x24 pty to ``marker`` on screen."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = {
        **os.environ,
        "TERM": "xterm-256color",
        "SWITCHBOARD_CONFIG_DIR": tempfile.mkdtemp(),
        "LANG": "C.UTF-8",
    }
    argv = [sys.executable, "-m", "switchboard", "play", "--game", game, "--name", "bench"]
    start = time.perf_counter()
    proc = subprocess.Popen(
        argv, stdin=slave, stdout=slave, stderr=slave, cwd=ROOT, env=env, close_fds=True
    )
    os.close(slave)
    seen = b""
    took = None
    try:
        deadline = start + 30
        while time.perf_counter() < deadline:
            ready, _, _ = select.select([master], [], [], 0.05)
            if not ready:
                continue
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            seen += chunk
            if b"\x1b[6n" in chunk:  # answer a cursor position request as a terminal would
                os.write(master, b"\x1b[1;1R")
            if marker in seen:
                took = time.perf_counter() - start
                break
        os.write(master, b"\x04")  # Ctrl-D: quit
        proc.wait(10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
    if took is None:
        raise RuntimeError(f"the board never appeared; the screen said: {seen[-500:]!r}")
    return took


async def redraw_latencies(events: int) -> tuple[list[float], list[float]]:
    """(event -> redraw times, idle redraw times) in seconds, from one local game."""
    from prompt_toolkit.data_structures import Size
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output.vt100 import Vt100_Output

    from switchboard.play import play_async

    class Sink(io.StringIO):
        encoding = "utf-8"

        def isatty(self) -> bool:
            return True

    output = Vt100_Output(Sink(), lambda: Size(rows=24, columns=80), term="xterm-256color")
    latencies: list[float] = []
    idle: list[float] = []
    with create_pipe_input() as pipe:
        holder: dict[str, object] = {}
        ready = asyncio.Event()

        def on_ready(app: object, session: object) -> None:
            holder["app"] = app
            ready.set()

        task = asyncio.ensure_future(
            play_async(
                None,
                game="kilodney",
                seats=6,
                name="bench",
                bot_delay=0.002,
                input=pipe,
                output=output,
                on_ready=on_ready,
            )
        )
        await asyncio.wait_for(ready.wait(), 30)
        app = holder["app"]
        app.on_redraw = latencies.append  # type: ignore[attr-defined]
        deadline = time.monotonic() + 60
        while len(latencies) < events and time.monotonic() < deadline:
            t = app.table  # type: ignore[attr-defined]
            if t is not None and t.my_turn:
                seq = t.seq
                pipe.send_text(t.legal[0] + "\r")
                while app.table.seq == seq and time.monotonic() < deadline:  # type: ignore[attr-defined]
                    await asyncio.sleep(0.001)
            await asyncio.sleep(0.001)
        app.on_redraw = None  # type: ignore[attr-defined]
        # The reference: redraws with nothing changed, measured the same way.
        application = app.application  # type: ignore[attr-defined]
        for _ in range(100):
            done = asyncio.Event()

            def handler(_app: object, d: asyncio.Event = done) -> None:
                d.set()

            start = time.perf_counter()
            application.after_render += handler
            application.invalidate()
            await done.wait()
            idle.append(time.perf_counter() - start)
            application.after_render -= handler
            await asyncio.sleep(0.002)
        pipe.send_text("\x04")
        await asyncio.wait_for(task, 10)
    return latencies, idle


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--events", type=int, default=300)
    parser.add_argument("--game", default="switch")
    args = parser.parse_args()

    py = sys.executable
    ref_pass = statistics.median(timed([py, "-c", "pass"]) for _ in range(args.runs))
    ref_import = statistics.median(
        timed([py, "-c", "import prompt_toolkit, trio"]) for _ in range(args.runs)
    )
    starts = [startup_once(args.game, b"Your hand") for _ in range(args.runs)]
    print(f"start-up to a playable board ({args.game}, median of {args.runs}):")
    print(f"  switchboard play          {statistics.median(starts) * 1000:8.0f} ms")
    print(f"  reference: python -c pass {ref_pass * 1000:8.0f} ms")
    print(f"  reference: import prompt_toolkit, trio {ref_import * 1000:8.0f} ms")
    print(f"  runs: {', '.join(f'{s * 1000:.0f}' for s in starts)} ms")

    lat, idle = asyncio.run(redraw_latencies(args.events))
    print(f"event arriving -> screen redrawn ({len(lat)} events, kilodney 6 seats, 80x24):")
    print(f"  p50 {pct(lat, 0.5) * 1000:6.2f} ms   p99 {pct(lat, 0.99) * 1000:6.2f} ms")
    print(
        f"  reference: a redraw with nothing changed p50 {pct(idle, 0.5) * 1000:6.2f} ms"
        f"   p99 {pct(idle, 0.99) * 1000:6.2f} ms"
    )


if __name__ == "__main__":
    main()
