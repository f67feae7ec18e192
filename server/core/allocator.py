"""The C allocator told to give freed memory back to the system (glibc only).

What a server holds for its readers comes and goes in large pieces: a send queue's
batch joined for one write, a reply of hundreds of KB, each freed once written or once
its connection is let go. glibc serves a piece over its mmap threshold (128 KiB at
start) with a mapping of its own, unmapped when freed; but each such free raises the
threshold to the freed piece's size, so from then on pieces that size come from the
heap, whose freed space the process keeps. So memory that came back to the server
did not come back to the machine: 256 connections that never read and then reset left
14 MB behind, 512 left 43 MB (``bench/crowd.py --part pipeliners``); with the
threshold fixed, 6 and 8. ``M_MMAP_THRESHOLD`` fixes it (and so turns off its rise),
``M_TRIM_THRESHOLD`` hands back a heap's free top past 128 KiB.

Elsewhere (macOS, musl, a Python without ``ctypes``) nothing is done: the settings
are glibc's.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys

#: ``mallopt`` parameters (malloc.h)
M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3
#: both thresholds: glibc's own starting mmap threshold
THRESHOLD = 128 * 1024

_done = False


def return_freed_memory() -> bool:
    """Fix glibc's thresholds (once a process); whether they were set."""
    global _done
    if _done:
        return True
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):  # not glibc
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    _done = bool(mallopt(M_MMAP_THRESHOLD, THRESHOLD)) and bool(
        mallopt(M_TRIM_THRESHOLD, THRESHOLD)
    )
    return _done
