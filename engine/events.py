"""Events: what happened, presented differently to each seat.

An event carries the fields everyone may see (spectators included) and, per
seat, the extra fields only that seat may see. A draw shows its cards to the
drawer and only a count to everyone else:

>>> e = Event("draw", {"seat": 2, "count": 1}, {2: {"cards": ["QH"]}})
>>> e.present(2)
{'kind': 'draw', 'seat': 2, 'count': 1, 'cards': ['QH']}
>>> e.present(0), e.present(None)
({'kind': 'draw', 'seat': 2, 'count': 1}, {'kind': 'draw', 'seat': 2, 'count': 1})

Every value is a primitive (str, int, bool, None, list, dict), so a presented
event goes onto the wire as it is.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened in a game."""

    kind: str
    public: Mapping[str, Any] = field(default_factory=dict)
    private: Mapping[int, Mapping[str, Any]] = field(default_factory=dict)

    def present(self, seat: int | None) -> dict[str, Any]:
        """The event as ``seat`` may see it; ``None`` is a spectator."""
        out: dict[str, Any] = {"kind": self.kind, **self.public}
        if seat is not None and seat in self.private:
            out.update(self.private[seat])
        return out
