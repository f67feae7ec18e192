"""Encode and decode rates of the wire protocol, beside plain msgpack of the same maps.

Run: ``python bench/protocol.py [--seconds S]``. For a typical table event, a
``turn`` as the server sends it after each event batch (with the seat's fresh
view) and a full snapshot (a real abbott view: the 6x6 grid, collections, best
hands; and a shedding seat's view), it measures messages/s of:

- msgpack codec: ``encode(msg)`` (message -> map -> frame) and the decoder
  (frame -> map -> validated message), each beside ``msgpack.packb`` /
  ``msgpack.unpackb`` of the same map, measured in the same run, and their
  ratio (our whole path: framing, limits, the depth scan, validation);
- ``model<``: the message model alone on the decoding side, ``unpackb`` then
  ``from_map`` (the map checked and made a message), beside ``unpackb``: what
  validation adds, without the framing and the depth scan;
- text codec: ``format_lines`` and ``parse_line``, beside ``json.dumps`` /
  ``json.loads`` of the same map (what the text tail costs at least).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import msgpack

import engine
from protocol import messages as m
from protocol.messages import from_map
from protocol.msgpack_codec import MsgpackDecoder, encode
from protocol.text_codec import format_lines, parse_line


def _batch(fn: Callable[[], object], seconds: float = 0.02) -> int:
    """How many calls of ``fn`` take about ``seconds``."""
    n = 1
    while True:
        start = time.perf_counter()
        for _ in range(n):
            fn()
        if time.perf_counter() - start > seconds:
            return n
        n *= 2


def _time(fn: Callable[[], object], n: int) -> float:
    start = time.perf_counter()
    for _ in range(n):
        fn()
    return (time.perf_counter() - start) / n


def rates(
    ours: Callable[[], object], ref: Callable[[], object], seconds: float
) -> tuple[float, float]:
    """Calls per second of ``ours`` and of ``ref``, measured in alternating
    batches of about 20 ms for ``seconds`` in all; each is its fastest batch.

    Why alternate: on a machine that is doing other work, two figures taken one
    after the other see different loads; batches taken in turn see the same,
    and the fastest batch of each is the one least disturbed."""
    n_ours, n_ref = _batch(ours), _batch(ref)
    best_ours = best_ref = float("inf")
    deadline = time.perf_counter() + seconds
    while True:
        best_ours = min(best_ours, _time(ours, n_ours))
        best_ref = min(best_ref, _time(ref, n_ref))
        if time.perf_counter() > deadline:
            return 1 / best_ours, 1 / best_ref


def samples() -> dict[str, m.Message]:
    """The messages measured: a typical event and full snapshots from real games."""
    out: dict[str, m.Message] = {
        "event": m.TableEvent("17", 1234, {"kind": "play", "seat": 2, "cards": ["QH"]}),
    }
    for name, seats in (("abbott", 4), ("switch", 4)):
        if name not in engine.rulesets():
            continue
        game = engine.new_game(name, seats=seats, seed=7)
        for _ in range(6):  # a few moves in, so the view has some history
            if game.over:
                break
            game.apply(game.to_act, game.legal_actions(game.to_act)[0])
        seat = game.to_act
        legal = tuple(str(a) for a in game.legal_actions(seat))
        # A turn as the server sends it after every event batch: the fresh view too.
        out[f"turn/{name}"] = m.Turn("17", 1234, seat, seat, legal, clock=60, view=game.view(seat))
        out[f"snapshot/{name}"] = m.Snapshot(
            table="17",
            seq=1234,
            state="playing",
            view=game.view(seat),
            seat=seat,
            legal=legal,
            players=("ann", "bob", "bot:default", "cy")[:seats],
            master="ann",
            clock=42.5,
        )
    return out


def cases(msg: m.Message) -> list[tuple[str, int, Callable[[], object], Callable[[], object], str]]:
    """(operation, bytes, ours, reference, reference name) for one message."""
    data = msg.to_map()
    frame = encode(msg)
    body = frame[4:]
    line = format_lines(msg)[0]
    text = json.dumps(data)
    assert parse_line(line) == msg
    decoder = MsgpackDecoder()  # one per connection, as a server holds it

    def decode_frame() -> object:
        decoder.receive_data(frame)
        return decoder.next_message()

    return [
        ("encode", len(frame), lambda: encode(msg), lambda: msgpack.packb(data), "msgpack.packb"),
        ("decode", len(frame), decode_frame, lambda: msgpack.unpackb(body), "msgpack.unpackb"),
        (
            "model<",
            len(frame),
            lambda: from_map(msgpack.unpackb(body)),
            lambda: msgpack.unpackb(body),
            "msgpack.unpackb",
        ),
        ("text>", len(line) + 1, lambda: format_lines(msg), lambda: json.dumps(data), "json.dumps"),
        ("text<", len(line) + 1, lambda: parse_line(line), lambda: json.loads(text), "json.loads"),
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=1.5, help="time per figure")
    args = ap.parse_args()
    s = args.seconds
    header = f"{'message':<18}{'bytes':>6}  {'op':<7}{'ours/s':>11}{'ref/s':>11}{'ratio':>7}  ref"
    print(header)
    print("-" * len(header))
    for label, msg in samples().items():
        for op, size, ours, ref, ref_name in cases(msg):
            r_ours, r_ref = rates(ours, ref, s)
            print(
                f"{label:<18}{size:>6}  {op:<7}{r_ours:>11,.0f}{r_ref:>11,.0f}"
                f"{r_ref / r_ours:>7.2f}  {ref_name}"
            )
    print("ratio = reference rate / our rate: how many times slower our layer is.")


if __name__ == "__main__":
    main()
