"""A real ``switchboard serve`` process for tests: started on 127.0.0.1, port 0, and
never outliving the test (it is killed when the test ends, or if the test process dies)."""

from __future__ import annotations

import contextlib
import ctypes
import os
import re
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import trio

PORT_LINE = re.compile(rb"listening on \S+ port (\d+)")


async def start_server(
    nursery: trio.Nursery, data: Path, config: Path
) -> tuple[Any, int, bytearray]:
    """A server process on 127.0.0.1, port 0: the process, the port its log names, and
    its log so far (which keeps growing as the process writes)."""
    proc = await nursery.start(
        partial_run_process,
        [sys.executable, "-m", "switchboard", "serve", "--host", "127.0.0.1", "--port", "0",
         "--data", str(data), "--config", str(config), "--log-level", "info"],
    )  # fmt: skip
    buffer = b""
    with trio.fail_after(30):
        while not (found := PORT_LINE.search(buffer)):
            chunk = await proc.stderr.receive_some(4096)
            assert chunk, f"the server exited: {buffer.decode(errors='replace')}"
            buffer += chunk
    log = bytearray(buffer)
    nursery.start_soon(drain, proc.stderr, log)
    return proc, int(found.group(1)), log


def _die_with_parent() -> None:  # pragma: no cover - runs in the child
    """Linux: the server dies if the test process dies, so no server outlives a test run."""
    with contextlib.suppress(OSError):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


class ServerProcess:
    """A child process with what the tests use of ``trio.Process``: ``pid``, ``stderr``
    (a trio stream), ``wait``, ``returncode``, ``send_signal``, ``kill``."""

    def __init__(self, popen: subprocess.Popen[bytes]) -> None:
        self.popen = popen
        self.pid = popen.pid
        assert popen.stderr is not None
        self.stderr = trio.lowlevel.FdStream(os.dup(popen.stderr.fileno()))
        popen.stderr.close()

    @property
    def returncode(self) -> int | None:
        return self.popen.poll()

    async def wait(self) -> int:
        while (code := self.popen.poll()) is None:
            await trio.sleep(0.01)
        return code

    def send_signal(self, sig: int) -> None:
        with contextlib.suppress(ProcessLookupError):
            self.popen.send_signal(sig)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


async def partial_run_process(cmd: list[str], *, task_status: Any) -> None:
    # Forked here, on the trio thread: PR_SET_PDEATHSIG fires when the *thread* that
    # forked the child exits, and trio's open_process forks in a worker thread that
    # exits after ten idle seconds, which killed any server that lived longer.
    proc = ServerProcess(subprocess.Popen(cmd, stderr=subprocess.PIPE, preexec_fn=_die_with_parent))
    try:
        task_status.started(proc)
        await proc.wait()
    finally:
        proc.kill()
        proc.popen.wait()


async def drain(stream: Any, log: bytearray) -> None:
    while chunk := await stream.receive_some(65536):
        log += chunk
