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

#: Stands for "not given" in ``Event.__init__`` (``None`` is a value a caller may pass).
_UNSET: Any = object()


@dataclass(frozen=True, slots=True, init=False)
class Event:
    """One thing that happened in a game."""

    kind: str
    public: Mapping[str, Any] = field(default_factory=dict)
    private: Mapping[int, Mapping[str, Any]] = field(default_factory=dict)

    def __init__(
        self,
        kind: str,
        public: Mapping[str, Any] = _UNSET,
        private: Mapping[int, Mapping[str, Any]] = _UNSET,
    ) -> None:
        """What the generated ``__init__`` does, in a third less time: every action
        makes an event or two, and a frozen dataclass sets each field through
        ``object.__setattr__``; the slots' own setters are the cheaper way in."""
        _set_kind(self, kind)
        _set_public(self, {} if public is _UNSET else public)
        _set_private(self, {} if private is _UNSET else private)

    def present(self, seat: int | None) -> dict[str, Any]:
        """The event as ``seat`` may see it; ``None`` is a spectator."""
        out: dict[str, Any] = {"kind": self.kind, **self.public}
        if seat is not None and seat in self.private:
            out.update(self.private[seat])
        return out


_set_kind = Event.__dict__["kind"].__set__
_set_public = Event.__dict__["public"].__set__
_set_private = Event.__dict__["private"].__set__
