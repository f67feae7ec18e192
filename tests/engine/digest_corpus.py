"""What the engine's recorded corpora share: games replayed digest by digest.

A corpus (``test_shedding_corpus.py``, ``test_abbott_corpus.py``) is a gzipped JSON
list of game records, each with a short digest per action of everything observable
after it and one long digest of the whole chain. Each family's test says what is
observable (its ``observed``) and how a record's game starts; the writing, reading
and replaying are the same for every family, and live here once.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import engine

#: Bytes of each action's digest: a divergence goes on into every later action, so
#: a short digest per action misses it only by chance repeated action after action;
#: each game's whole chain is also checked with a long one.
SHORT = 2

#: What a family's test digests after an action: the game, the action's events, its number.
Observe = Callable[[engine.Game, list[engine.Event], int], bytes]


def digests(
    game: engine.Game, actions: list[list[Any]], observed: Observe
) -> tuple[list[bytes], str]:
    """Play ``actions`` on ``game`` (fresh from its record's start) and digest what is
    observable after each: the short digests and the whole chain's."""
    chain = hashlib.blake2b(observed(game, game.opening_events, 1), digest_size=16)
    short = []
    for n, (seat, text) in enumerate(actions):
        data = observed(game, game.apply(seat, text), n)
        chain.update(data)
        short.append(hashlib.blake2b(data, digest_size=SHORT).digest())
    return short, chain.hexdigest()


def write(
    path: Path,
    records: Iterable[dict[str, Any]],
    replay: Callable[[dict[str, Any]], tuple[list[bytes], str]],
) -> None:
    """Write ``records`` with their digests (``replay`` makes them) to ``path``."""
    games: list[dict[str, Any]] = []
    for record in records:
        short, chain = replay(record)
        packed = base64.b64encode(b"".join(short)).decode()
        games.append({"record": record, "digests": packed, "chain": chain})
    text = json.dumps(games, separators=(",", ":"))
    path.write_bytes(gzip.compress(text.encode(), 9, mtime=0))
    actions = sum(len(g["record"]["actions"]) for g in games)
    print(f"{len(games)} games, {actions} actions, {path.stat().st_size} bytes")


def split(packed: str) -> list[bytes]:
    """A game's stored short digests, one an action."""
    raw = base64.b64decode(packed)
    return [raw[i : i + SHORT] for i in range(0, len(raw), SHORT)]


def read(path: Path) -> list[dict[str, Any]]:
    """The corpus at ``path``: each game's record, digests and chain."""
    games: list[dict[str, Any]] = json.loads(gzip.decompress(path.read_bytes()))
    return games


def first_difference(
    entry: dict[str, Any], replay: Callable[[dict[str, Any]], tuple[list[bytes], str]]
) -> tuple[int | None, bool]:
    """Replay ``entry``'s record: the first action whose digest differs (None: none),
    and whether the whole chain (the opening included) is the same."""
    short, chain = replay(entry["record"])
    want = split(entry["digests"])
    first = next((i for i, (a, b) in enumerate(zip(short, want, strict=True)) if a != b), None)
    return first, chain == entry["chain"]
