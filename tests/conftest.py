"""Shared test settings.

``SWITCHBOARD_SOAK=short`` (set by CI) shrinks soak and property tests so the
whole suite stays within minutes on a 2-core machine; ``long`` grows them.
"""

from __future__ import annotations

from hypothesis import HealthCheck, settings
from support import SOAK

settings.register_profile(
    "short", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "long", max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("long" if SOAK == "long" else "short")
