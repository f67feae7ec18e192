"""Strategies that misbehave, for ``test_thinking``: in a module of their own, which
imports nothing heavy, because each worker process that runs one imports it."""

from __future__ import annotations

import multiprocessing
import os
import random
import time
from pathlib import Path
from typing import Any


class Sleeper:
    """A search that never ends by itself: it notes its process id in ``path`` and sleeps."""

    name = "sleeper"
    slow = True

    def __init__(self, path: Path) -> None:
        self.path = path

    def choose(self, view: dict[str, Any], legal: Any, rng: random.Random) -> Any:
        part = self.path.with_suffix(".part")  # whole or absent: the test reads it meanwhile
        part.write_text(str(os.getpid()))
        part.replace(self.path)
        time.sleep(600)
        return legal[0]


class Crasher:
    """A search whose worker dies (``os._exit``) on its first ``crashes`` thoughts (counted
    in ``path``), then plays the first legal action. Only ever in a worker process."""

    name = "crasher"
    slow = True

    def __init__(self, path: Path, crashes: int) -> None:
        self.path, self.crashes = path, crashes

    def choose(self, view: dict[str, Any], legal: Any, rng: random.Random) -> Any:
        assert multiprocessing.parent_process() is not None, "a crasher crashes workers only"
        done = int(self.path.read_text()) if self.path.exists() else 0
        if done < self.crashes:
            self.path.write_text(str(done + 1))
            os._exit(3)
        return legal[0]


class Gated:
    """A search that waits for the file ``gate`` to exist, then notes ``label`` in ``log``
    (one line a thought) and plays the first legal action: the order of the lines is
    the order the workers were given."""

    name = "gated"
    slow = True

    def __init__(self, label: str, gate: Path, log: Path) -> None:
        self.label, self.gate, self.log = label, gate, log

    def choose(self, view: dict[str, Any], legal: Any, rng: random.Random) -> Any:
        while not self.gate.exists():
            time.sleep(0.01)
        with self.log.open("a") as out:
            out.write(self.label + "\n")
        return legal[0]
