"""One server per data directory: an OS file lock held for as long as the store is open.

Two servers on one directory would each replay the tables, settle prizes and hand
out transaction ids from their own memory, so the second would corrupt what the
first acknowledged. The store takes ``fcntl.flock`` on ``switchboard.lock`` in the
directory before it opens anything else, and writes its process id into the file
so that a refused server can say who holds it. The OS drops the lock when the
process ends, however it ends (``kill -9`` included), so a stale lock file never
keeps a server out.

>>> import tempfile, pathlib
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> first = DataDirLock(d); first.acquire()
>>> try:
...     DataDirLock(d).acquire()
... except DataDirLocked as exc:
...     exc.pid == os.getpid()
True
>>> first.release(); DataDirLock(d).acquire()
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path
from typing import IO

LOCK_NAME = "switchboard.lock"


class DataDirLocked(RuntimeError):
    """Another process holds the data directory."""

    def __init__(self, directory: Path, pid: int | None) -> None:
        who = f"process {pid}" if pid is not None else "another process"
        super().__init__(
            f"the data directory {directory} is in use by {who} (a server already runs on it);"
            " not starting"
        )
        self.directory = directory
        self.pid = pid


class DataDirLock:
    """The lock on one data directory; ``acquire`` or ``DataDirLocked``, then ``release``."""

    def __init__(self, directory: Path | str) -> None:
        self.directory = Path(directory)
        self.path = self.directory / LOCK_NAME
        self._file: IO[str] | None = None

    def acquire(self) -> None:
        """Take the lock without waiting and write our pid; ``DataDirLocked`` if it is held."""
        if self._file is not None:
            return
        self.directory.mkdir(parents=True, exist_ok=True)
        f = open(self.path, "a+", encoding="ascii")  # noqa: SIM115 - held until release
        try:
            fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            f.seek(0)
            text = f.read().strip()
            f.close()
            raise DataDirLocked(self.directory, int(text) if text.isdigit() else None) from None
        except BaseException:
            f.close()
            raise
        f.seek(0)
        f.truncate()
        f.write(f"{os.getpid()}\n")
        f.flush()
        self._file = f

    def release(self) -> None:
        """Let the lock go (the pid stays in the file: harmless, the lock is what counts)."""
        f, self._file = self._file, None
        if f is not None:
            with contextlib.suppress(OSError):
                fcntl.flock(f.fileno(), fcntl.LOCK_UN)
            f.close()
