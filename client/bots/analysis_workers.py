"""The after-game analysis shared among worker processes, for the command line and the client.

Judging a decision plays out dozens of sampled worlds: a game's hundred decisions take a
core for a minute, so they are cut into chunks judged by a pool of processes (``spawn``:
no fork of a process that runs threads, as the terminal client's does). Each decision
draws from its own generator, so the result is the same in one process or many.
``stop`` lets a caller in another thread (the client, when its person quits) end the
workers between chunks.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
from collections.abc import Callable
from typing import Any

from engine.analysis import Decision, Settings


class AnalysisStopped(Exception):
    """The analysis was stopped (``stop`` was set) before every decision was judged."""


#: Decisions a worker judges per task: enough to pay for replaying the record.
CHUNK = 6


def _quiet_worker() -> None:
    """Workers leave Ctrl-C to the parent, which ends them."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _start_pool(count: int) -> Any:
    """Worker processes that never see Ctrl-C: they are started with SIGINT
    ignored (a spawned interpreter keeps an ignored SIGINT ignored, so not even
    its imports can be interrupted) and keep ignoring it; the parent ends them."""
    main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
    try:
        return multiprocessing.get_context("spawn").Pool(count, initializer=_quiet_worker)
    finally:
        if main:
            signal.signal(signal.SIGINT, previous)


def _task(job: tuple[dict[str, Any], list[int], Settings]) -> list[Decision]:
    from engine.analysis import analyse

    record, indexes, settings = job
    return analyse(record, indexes, settings)


def run_analysis(
    record: dict[str, Any],
    settings: Settings,
    workers: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    stop: threading.Event | None = None,
) -> list[Decision]:
    """Every decision of ``record`` judged, in record order. ``workers`` 0 runs
    in this process; otherwise a pool of that many (default: the CPUs). ``stop``, once
    set, ends the work after the chunk in hand with ``AnalysisStopped``."""
    from engine.analysis import decision_points

    points = decision_points(record)
    chunks = [points[i : i + CHUNK] for i in range(0, len(points), CHUNK)]
    jobs = [(record, chunk, settings) for chunk in chunks]
    done: list[Decision] = []
    if progress:
        progress(0, len(points))
    if workers == 0 or len(jobs) <= 1:
        for job in jobs:
            if stop is not None and stop.is_set():
                raise AnalysisStopped
            done += _task(job)
            if progress:
                progress(len(done), len(points))
        return sorted(done, key=lambda d: d.index)
    count = workers or os.cpu_count() or 1
    pool = _start_pool(count)
    try:
        for part in pool.imap_unordered(_task, jobs):
            if stop is not None and stop.is_set():
                raise AnalysisStopped
            done += part
            if progress:
                progress(len(done), len(points))
        pool.close()
    except BaseException:
        pool.terminate()  # Ctrl-C (or any failure): end the workers now
        raise
    finally:
        pool.join()
    return sorted(done, key=lambda d: d.index)


__all__ = ["AnalysisStopped", "run_analysis"]
