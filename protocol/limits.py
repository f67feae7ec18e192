"""How much a peer may send: one frozen dataclass, checked before memory is committed.

The server builds one from its configuration (``Limits(max_frame=...)``) and
hands it to every decoder; the defaults suit a LAN or public game server
(the largest legitimate message, a record export of a long game, is well
under 1 MiB).

>>> Limits().max_frame
1048576
>>> Limits(max_frame=10).max_frame
10
>>> Limits(max_depth=0)
Traceback (most recent call last):
...
ValueError: Limits.max_depth must be at least 1, not 0
"""

from __future__ import annotations

from dataclasses import dataclass, fields


@dataclass(frozen=True, slots=True)
class Limits:
    """Input limits for the decoders (both codecs).

    - ``max_frame``: bytes in one msgpack frame body; checked from the 4-byte
      header, so a frame that claims more fails before its body is buffered.
    - ``max_depth``: nesting of maps and arrays in one message (the message
      map itself is depth 1). msgpack has no option for this, so the decoder
      scans the decoded payload iteratively (no recursion to exhaust).
    - ``max_str``, ``max_bin``, ``max_array``, ``max_map``: passed to msgpack
      as ``max_str_len`` etc., which refuses a longer item from its header
      before allocating it. Binary is never used by this protocol (0).
    - ``max_line``: bytes in one text-mode line, newline included; a longer
      line is refused as soon as that many bytes arrive without a newline.
    """

    max_frame: int = 1 << 20
    max_depth: int = 16
    max_str: int = 1 << 16
    max_bin: int = 0
    max_array: int = 10_000
    max_map: int = 1_000
    max_line: int = 4096

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            low = 0 if f.name == "max_bin" else 1
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise ValueError(f"Limits.{f.name} must be at least {low}, not {value!r}")
        if self.max_frame > 0xFFFFFFFF:
            raise ValueError("Limits.max_frame must fit the 4-byte frame header")


DEFAULT_LIMITS = Limits()
