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
