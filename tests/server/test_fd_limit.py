"""Out of file descriptors, the server refuses newcomers at once and logs a line now and then.

A real server in a subprocess whose descriptor limit is lowered (``RLIMIT_NOFILE``,
set before it starts). Clients connect until one is not served; from then on every
new client must see its connection end promptly (not wait for a reply that never
comes), the log must say so in a line or two (not a traceback per attempt), and once
connections close the server serves again.
"""

from __future__ import annotations

import resource
import socket
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FD_LIMIT = 64

RUNNER = textwrap.dedent(
    """
    import sys, trio
    from server.app import Server
    from server.core.config import ServerConfig
    from server.core.logfmt import configure
    from server.store.base import MemoryStore
    configure("info")
    config = ServerConfig(host="127.0.0.1", port=0, scrypt_n=2)
    async def main():
        async with trio.open_nursery() as nursery:
            port = await nursery.start(Server(config, MemoryStore()).serve)
            print(port, flush=True)
    trio.run(main)
    """
)

#: a client that gets no answer within this long is hanging (the old behaviour)
HANG = 5.0


def _lower_fd_limit() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (FD_LIMIT, FD_LIMIT))


def _try_client(port: int) -> tuple[str, socket.socket]:
    """'served' (a welcome came), 'refused' (closed or reset) or 'hang' (nothing)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=HANG)
    try:
        sock.sendall(b"hello\n")
        reply = sock.recv(200)
    except TimeoutError:
        return "hang", sock
    except OSError:  # reset: closed with our hello unread
        return "refused", sock
    return ("served" if reply.startswith(b"welcome") else "refused"), sock


def test_out_of_descriptors_new_clients_are_refused_at_once_and_logged_once() -> None:
    server = subprocess.Popen(
        [sys.executable, "-c", RUNNER],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_lower_fd_limit,
    )
    held: list[socket.socket] = []
    try:
        port = int(server.stdout.readline())  # type: ignore[union-attr]
        outcome = "served"
        for _ in range(FD_LIMIT * 2):  # bounded: the limit is reached well before
            outcome, sock = _try_client(port)
            if outcome != "served":
                sock.close()
                break
            held.append(sock)
        assert 0 < len(held) < FD_LIMIT
        assert outcome == "refused", f"the first client over the limit got {outcome}"
        later = []
        for _ in range(20):
            outcome, sock = _try_client(port)
            later.append(outcome)
            sock.close()
        assert set(later) == {"refused"}, later
        # room again: the server serves the next client
        for sock in held[:5]:
            sock.close()
        del held[:5]
        outcomes = []
        for _ in range(10):
            outcome, sock = _try_client(port)
            outcomes.append(outcome)
            if outcome == "served":
                held.append(sock)
                break
            sock.close()
        assert outcomes[-1] == "served", outcomes
    finally:
        for sock in held:
            sock.close()
        server.terminate()
        _out, err = server.communicate(timeout=15)
    fd_lines = [line for line in err.splitlines() if "out of file descriptors" in line]
    assert 1 <= len(fd_lines) <= 3, err
    assert "Traceback" not in err, err
