"""Helpers shared by the tests (``tests/`` is on ``pythonpath``: ``from support import soak``)."""

from __future__ import annotations

import os

SOAK = os.environ.get("SWITCHBOARD_SOAK", "short")


def soak(short: int, long: int) -> int:
    """How many iterations a soak loop runs: ``short`` by default and in CI,
    ``long`` with ``SWITCHBOARD_SOAK=long``."""
    return long if SOAK == "long" else short
