"""A small msgpack client for the browser tests: a player beside the browsers at one
table, over the binding the terminal client and bots use (docs/protocol.md, section 3).

Blocking, one reader thread: messages go into a list the test reads; ``request`` waits
for the reply with its id. ``play_when_my_turn`` plays the first legal action whenever
the table says it is this seat's turn (while ``paused`` is clear).
"""

from __future__ import annotations

import contextlib
import socket
import struct
import threading
import time
from typing import Any

import msgpack


class MsgpackPlayer:
    def __init__(self, port: int, name: str) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        self.sock.settimeout(None)
        self.received: list[dict[str, Any]] = []
        self.lock = threading.Condition()
        self.next_id = 1
        self.table: str | None = None
        self.seat: int | None = None
        self.acted = 0
        self.errors: list[dict[str, Any]] = []
        self.playing = threading.Event()  # set: play when it is our turn
        self.closed = False
        self.last_turn: tuple[Any, list[str]] = (None, [])
        threading.Thread(target=self._read, daemon=True).start()
        welcome = self.request({"type": "hello", "versions": [1], "client": "webtest"})
        assert welcome["type"] == "welcome", welcome
        named = self.request({"type": "claim_name", "name": name, "secret": "s3cret-" + name})
        assert named["type"] == "named", named
        self.name = named["name"]

    def _read(self) -> None:
        buf = b""
        try:
            while chunk := self.sock.recv(65536):
                buf += chunk
                while len(buf) >= 4 and len(buf) >= 4 + struct.unpack(">I", buf[:4])[0]:
                    (n,) = struct.unpack(">I", buf[:4])
                    msg = msgpack.unpackb(buf[4 : 4 + n])
                    buf = buf[4 + n :]
                    self._handle(msg)
        except OSError:
            pass
        finally:
            self.closed = True
            with self.lock:
                self.lock.notify_all()

    def _handle(self, msg: dict[str, Any]) -> None:
        if msg.get("type") == "ping":
            self.send({"type": "pong", "id": msg.get("id")})
        with self.lock:
            self.received.append(msg)
            self.lock.notify_all()
        if msg.get("type") == "turn" and msg.get("table") == self.table:
            self._maybe_play(msg.get("to_act"), msg.get("legal") or [])
        elif msg.get("type") == "snapshot" and msg.get("table") == self.table:
            self._maybe_play((msg.get("view") or {}).get("to_act"), msg.get("legal") or [])

    def start_playing(self) -> None:
        """Play from now on (at once, if the table is waiting for us)."""
        self.playing.set()
        self._maybe_play(*self.last_turn)

    def _maybe_play(self, to_act: Any, legal: list[str]) -> None:
        self.last_turn = (to_act, legal)
        if to_act == self.seat and legal and self.playing.is_set():
            self.acted += 1
            self.send({"type": "act", "table": self.table, "action": legal[0], "id": 0})

    def send(self, msg: dict[str, Any]) -> None:
        body = msgpack.packb(msg)
        with contextlib.suppress(OSError):
            self.sock.sendall(struct.pack(">I", len(body)) + body)

    def request(self, msg: dict[str, Any], timeout: float = 30.0) -> dict[str, Any]:
        with self.lock:
            self.next_id += 1
            rid = self.next_id
        self.send({**msg, "id": rid})
        return self.wait(lambda m: m.get("id") == rid, timeout)

    def wait(self, match: Any, timeout: float = 30.0, start: int = 0) -> dict[str, Any]:
        """The first message from ``start`` on that ``match`` accepts."""
        end = time.monotonic() + timeout
        with self.lock:
            while True:
                for msg in self.received[start:]:
                    if match(msg):
                        return msg
                left = end - time.monotonic()
                if left <= 0 or self.closed:
                    raise AssertionError(f"no such message: {self.received[-5:]}")
                self.lock.wait(left)

    def join(self, table: str) -> int:
        self.table = table
        seated = self.request({"type": "join", "table": table})
        assert seated["type"] == "seated", seated
        self.seat = seated["seat"]
        return int(self.seat)

    def say(self, text: str) -> None:
        reply = self.request({"type": "say", "table": self.table, "text": text})
        assert reply["type"] == "ok", reply

    def seen(self, kind: str) -> list[dict[str, Any]]:
        with self.lock:
            return [m for m in self.received if m.get("type") == kind]

    def close(self) -> None:
        """Hang up (shut down first: the reader thread holds the socket open otherwise)."""
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        with contextlib.suppress(OSError):
            self.sock.close()
