"""What the decoding side would cost with validation in C: a probe for a decision.

Run: ``python bench/protocol_c.py [--seconds S]`` in a venv with the ``bench``
extra (it needs ``msgspec``, which the project itself does not use).

The wire once set itself the target that our model cost under 2x plain ``msgpack.unpackb`` of the
same map. In pure Python it costs 2.4-4.6x (``bench/protocol.py``): making and
checking an object field by field in Python costs about as much as msgpack's
C code takes to unpack the whole map. This probe measures the way out that
keeps the wire as it is: msgspec's typed decoding, which builds and checks
frozen Structs in C. Its Structs below check what ours check (word and seat
and sequence ranges, a payload's string keys, a legal list's notation), and
the snapshot gets the same nesting-depth scan as our decoder, since a
free-form ``view`` map has no schema to bound its depth.

Each row: messages/s of the msgspec decoder, of our decoder (``MsgpackDecoder``,
framing included) and of ``msgpack.unpackb``, all from the same run, and the
two ratios to ``unpackb``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Annotated, Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import msgpack

try:
    import msgspec
    from msgspec import Meta, Struct
except ImportError:  # pragma: no cover - a probe, not a dependency
    sys.exit("bench/protocol_c.py needs msgspec: pip install msgspec (it is in the bench extra)")

from bench.protocol import rates, samples
from protocol.fields import MAX_ID, MAX_SEAT, MAX_SEQ, TABLE_STATES, check_legal
from protocol.msgpack_codec import _CONTAINER_BYTES, MsgpackDecoder, depth_ok, encode

_NOT_WORD = r"\s=\x00-\x1f\x7f-\x9f\u2028\u2029"
Word = Annotated[str, Meta(pattern=f"^[^{_NOT_WORD}#][^{_NOT_WORD}]{{0,127}}$")]
Seq = Annotated[int, Meta(ge=0, le=MAX_SEQ)]
Seat = Annotated[int, Meta(ge=0, le=MAX_SEAT)]
Id = Annotated[int, Meta(ge=0, le=MAX_ID)]
Clock = Annotated[float, Meta(ge=0, le=1e9)]


class CTableEvent(Struct, tag="event", tag_field="type", frozen=True):
    table: Word
    seq: Seq
    event: dict[str, Any]
    id: Id | None = None

    def __post_init__(self) -> None:
        if type(self.event.get("kind")) is not str:
            raise ValueError("an event needs a string 'kind'")


class CTurn(Struct, tag="turn", tag_field="type", frozen=True):
    table: Word
    seq: Seq
    seat: Seat | None = None
    to_act: Seat | None = None
    legal: tuple[str, ...] = ()
    clock: Clock | None = None
    view: dict[str, Any] | None = None
    id: Id | None = None

    def __post_init__(self) -> None:
        check_legal(self.legal)


class CSnapshot(Struct, tag="snapshot", tag_field="type", frozen=True):
    table: Word
    seq: Seq
    state: str
    view: dict[str, Any]
    seat: Seat | None = None
    legal: tuple[str, ...] = ()
    players: tuple[Word | None, ...] = ()
    master: Word | None = None
    clock: Clock | None = None
    id: Id | None = None

    def __post_init__(self) -> None:
        if self.state not in TABLE_STATES:
            raise ValueError(f"{self.state!r} is not a table state")
        check_legal(self.legal)


_typed = msgspec.msgpack.Decoder(CTableEvent | CTurn | CSnapshot)


def decode_typed(body: bytes, max_depth: int = 16) -> Any:
    """The body as a checked Struct, with our decoder's depth rule on top."""
    msg = _typed.decode(body)
    headers = len(body) - len(body.translate(None, _CONTAINER_BYTES))
    view = getattr(msg, "view", None)  # the one free-form map deep enough to need it
    if headers > max_depth and view is not None and not depth_ok(view, max_depth - 1):
        raise ValueError("too deep")
    return msg


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=1.5, help="time per figure")
    s = ap.parse_args().seconds
    print(
        f"{'message':<18}{'bytes':>6}{'msgspec/s':>12}{'ours/s':>11}{'unpackb/s':>12}"
        f"{'msgspec':>9}{'ours':>7}"
    )
    for label, msg in samples().items():
        frame = encode(msg)
        body = frame[4:]
        decoder = MsgpackDecoder()

        def ours(decoder: MsgpackDecoder = decoder, frame: bytes = frame) -> object:
            decoder.receive_data(frame)
            return decoder.next_message()

        typed = decode_typed(body)  # the same message, field for field
        assert all(
            getattr(typed, k) == (tuple(v) if type(v) is list else v)
            for k, v in msg.to_map().items()
            if k != "type"
        )
        r_typed, r_ref = rates(
            lambda body=body: decode_typed(body), lambda body=body: msgpack.unpackb(body), s
        )
        r_ours, r_ref2 = rates(ours, lambda body=body: msgpack.unpackb(body), s)
        ref = max(r_ref, r_ref2)
        print(
            f"{label:<18}{len(frame):>6}{r_typed:>12,.0f}{r_ours:>11,.0f}{ref:>12,.0f}"
            f"{ref / r_typed:>8.2f}x{ref / r_ours:>6.2f}x"
        )
    print("ratio = unpackb's rate / the decoder's rate: how many times slower than plain msgpack.")


if __name__ == "__main__":
    main()
