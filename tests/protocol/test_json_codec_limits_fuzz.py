"""Any text a peer sends the JSON codec gets a message or the protocol's own error, never
another exception (h11's fuzz invariant), and any object gets what msgpack would give it."""

from __future__ import annotations

import json
import random

from hypothesis import given
from hypothesis import strategies as st
from protocol_strategies import messages
from support import soak
from test_json_codec import outcome_json, outcome_msgpack

from protocol import messages as m
from protocol.errors import ProtocolError
from protocol.json_codec import JsonDecoder, encode
from protocol.limits import Limits

SMALL = Limits(max_frame=1 << 20, max_depth=4, max_str=40, max_array=8, max_map=8)
RECEIVED = (m.Message, m.UnknownMessage, m.InvalidMessage)

#: What both JSON and msgpack carry: no binary, integers msgpack holds, finite floats.
values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(1 << 63), (1 << 64) - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=50),
    lambda inner: st.lists(inner, max_size=10) | st.dictionaries(st.text(max_size=45), inner),
    max_leaves=30,
)
FIELD_NAMES = sorted({name for cls in m.TYPES.values() for name, _r, _d in cls._wire})


def decodes_or_errs(text: str, limits: Limits = SMALL) -> None:
    try:
        out = JsonDecoder(limits).decode(text)
    except ProtocolError:
        return
    assert isinstance(out, RECEIVED)


@given(st.text(max_size=400))
def test_fuzz_any_text(text):
    decodes_or_errs(text)


@given(st.binary(max_size=400))
def test_fuzz_any_bytes_as_text(data):
    decodes_or_errs(data.decode("utf-8", "surrogateescape"))  # lone surrogates included
    decodes_or_errs(data.decode("latin-1"))


@given(
    st.dictionaries(st.sampled_from([*FIELD_NAMES, "type", "x"]), values, max_size=8),
    st.sampled_from(list(m.TYPES)),
)
def test_any_object_gets_what_msgpack_gives_it(obj, type_name):
    """The same message, or the same error code, from either codec: a client sees one
    protocol whichever binding it speaks."""
    obj.setdefault("type", type_name)
    expected = outcome_msgpack(obj, SMALL)
    assert outcome_json(json.dumps(obj), SMALL) == expected
    assert outcome_json(json.dumps(obj, ensure_ascii=False), SMALL) == expected


@given(messages(), st.lists(st.tuples(st.integers(0, 10_000), st.text(max_size=3)), max_size=6))
def test_fuzz_mutated_messages(msg, mutations):
    text = encode(msg)
    for pos, piece in mutations:
        at = pos % (len(text) + 1)
        text = text[:at] + piece + text[at + 1 :]
    decodes_or_errs(text, Limits())


def test_soak_mutated_messages():
    """Many random edits of real messages (more under SWITCHBOARD_SOAK)."""
    rng = random.Random(28)
    seeds = [
        encode(m.Act("t1", "play QH 7D", id=3)),
        encode(m.CreateTable("switch", 4, options={"target": 50, "cards": ["7H"]}, id=1)),
        encode(m.Stats(stats={"a": [1, 2.5, {"b": None}], "c": True})),
    ]
    alphabet = '{}[]",:0123456789eE.-+\\u tnrfalsenull"\ud800é'
    for _ in range(soak(3_000, 300_000)):
        text = list(rng.choice(seeds))
        for _ in range(rng.randint(1, 4)):
            pos = rng.randrange(len(text))
            op = rng.randrange(3)
            if op == 0:
                text[pos] = rng.choice(alphabet)
            elif op == 1:
                text[pos:pos] = rng.choices(alphabet, k=rng.randint(1, 4))
            else:
                del text[pos : pos + rng.randint(1, 4)]
        decodes_or_errs("".join(text), Limits())
