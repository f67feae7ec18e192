"""The bytes of a ``tables`` reply, its listing encoded once for every reply that shares it.

A ``tables`` reply is a message of its own per request (its ``id``), but its bulk, a
page of the lobby's listing, is one tuple shared by every reply until a table's summary
changes (``server.tables.listing.Listing.page``). Each codec keeps one
``SharedListing``: each page's tuple is encoded once, and each reply is its few other
fields around those bytes; when a summary changes, the new pages hold the same summary
objects for every other table, and only the new ones are encoded. The bytes are the very
ones the codec's own ``encode`` makes of the whole message.

Three codecs keep one: msgpack, JSON (a WebSocket's) and text mode, whose lines (a
sentence per table, or ``format json``'s one line) begin with the reply's id.

Why: with 2,000 tables the whole listing packs to about 370 KB of msgpack (530 KB of JSON),
which cost the event loop 2 ms a request in msgpack, 8 ms in JSON and 5 ms as text
mode's sentences, every other client's reply (a ping's pong) waiting behind it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, Generic, TypeVar

import msgpack

from protocol import messages as m
from protocol.json_codec import encode_map as json_encode_map
from protocol.msgpack_codec import HEADER
from protocol.payloads import TableSummary
from protocol.readable import Readable, page_line
from protocol.text_codec import LINE_COLUMNS, fit, format_lines

Summary = TableSummary
Listing = tuple[Summary, ...]
Encoded = TypeVar("Encoded")


class SharedListing(Generic[Encoded]):
    """The last listings' bytes in one codec (a lobby's pages), and their summaries'."""

    __slots__ = ("_array", "_item", "_listings", "_summaries")

    def __init__(
        self, item: Callable[[Summary], bytes], array: Callable[[list[bytes]], Encoded]
    ) -> None:
        self._item = item  #: one summary's bytes
        self._array = array  #: the listing's, from its items' bytes
        #: the last listings encoded, by identity: each tuple itself (so its identity is
        #: not reused) and its bytes
        self._listings: dict[int, tuple[Listing, Encoded]] = {}
        #: summaries encoded, by identity (each beside its summary)
        self._summaries: dict[int, tuple[Summary, bytes]] = {}

    def bytes_of(self, listing: Listing) -> Encoded:
        """The listing's bytes: the ones made before if it is a tuple kept; else its
        summaries encoded before as they were, the others encoded now."""
        hit = self._listings.get(id(listing))
        if hit is not None and hit[0] is listing:
            return hit[1]
        kept_items = self._summaries
        if len(kept_items) > SUMMARIES_KEPT:  # a lobby's worth of changed summaries
            kept_items.clear()
        items = []
        for summary in listing:
            key = id(summary)
            kept = kept_items.get(key)
            if kept is None or kept[0] is not summary:
                kept = kept_items[key] = (summary, self._item(summary))
            items.append(kept[1])
        data = self._array(items)
        if len(self._listings) >= LISTINGS_KEPT:
            self._listings.clear()
        self._listings[id(listing)] = (listing, data)
        return data


#: listings (pages) whose bytes a codec keeps, and summaries whose bytes it keeps, at
#: most: past them, all are made again as asked
LISTINGS_KEPT = 64
SUMMARIES_KEPT = 8_192


# ------------------------------------------------------------------ msgpack
_packer = msgpack.Packer(use_bin_type=True, autoreset=True)  #: as ``protocol.msgpack_codec``'s
_pack = _packer.pack
_msgpack = SharedListing(
    _pack, lambda items: b"".join([_packer.pack_array_header(len(items)), *items])
)


def msgpack_tables(message: m.Tables) -> bytes:
    """A ``tables`` reply's msgpack frame (``protocol.msgpack_codec.encode``'s bytes)."""
    listing = _msgpack.bytes_of(message.tables)
    fields = message.to_map()
    parts = [_packer.pack_map_header(len(fields))]
    for key, value in fields.items():
        parts.append(_pack(key))
        parts.append(listing if key == "tables" else _pack(value))
    return b"".join([HEADER.pack(sum(map(len, parts))), *parts])


# --------------------------------------------------------------------- JSON
def _json(data: Mapping[str, Any]) -> bytes:
    return json_encode_map(data).encode()


_json_listing = SharedListing(_json, lambda items: b"[" + b",".join(items) + b"]")


def json_tables(message: m.Tables) -> bytes:
    """A ``tables`` reply's JSON text, as UTF-8 (``protocol.json_codec.encode``'s)."""
    listing = _json_listing.bytes_of(message.tables)
    parts = []
    for key, value in message.to_map().items():
        if key == "tables":
            parts.append(_json({key: 0})[1:-2] + listing)  # '"tables":' then the array
        else:
            parts.append(_json({key: value})[1:-1])  # '"key":value'
    return b"{" + b",".join(parts) + b"}"


# ---------------------------------------------------------------- text mode
def _one_line(summary: Summary, fmt: str) -> str:
    """Text mode's line for a listing of ``summary`` alone, with no id."""
    alone = m.Tables.trusted(tables=(summary,), total=1)
    lines = Readable().lines(alone) if fmt == "text" else None
    return (lines or format_lines(alone))[0]


def _sentence(summary: Summary) -> bytes:
    return _one_line(summary, "text").removeprefix("tables ").encode()  # "12 · switch, ..."


def _json_item(summary: Summary) -> bytes:
    return _one_line(summary, "json").removeprefix("tables [")[:-1].encode()  # "{...}"


_json_line = SharedListing(_json_item, lambda items: b"[" + b",".join(items) + b"]")
_sentences = SharedListing(_sentence, list)
#: sentences broken at 80 columns behind a head of a shape (``tables #7 ``), as the
#: codec breaks them (``protocol.text_codec.fit``): short ones are used as they are
_broken: dict[tuple[str, bytes], bytes] = {}
#: the most broken sentences kept (then they are all made again as asked)
BROKEN_KEPT = 20_000


def _fitted(shape: str, sentence: bytes) -> bytes:
    """``sentence`` behind a head of ``shape``, broken where the codec breaks it."""
    if len(shape) + len(sentence) <= LINE_COLUMNS:  # bytes: never fewer than characters
        return sentence
    key = (shape, sentence)
    broken = _broken.get(key)
    if broken is None:
        if len(_broken) >= BROKEN_KEPT:
            _broken.clear()
        parts = fit(shape + sentence.decode())
        broken = _broken[key] = "\n".join(parts)[len(shape) :].encode()
    return broken


def text_tables(message: m.Tables, fmt: str) -> bytes | None:
    """A ``tables`` reply's lines in text mode's ``fmt`` (``text``: a sentence a table,
    then which tables the page shows if not all; ``json``: one line), as
    ``protocol.text_codec.ServerTextCodec`` writes them; None for an empty page (a
    sentence of its own)."""
    if not message.tables:
        return None
    head = b"tables " if message.id is None else f"tables #{message.id} ".encode()
    if fmt == "text":
        shape = re.sub(r"\S", "x", head.decode())  # where the lines break: the head's shape
        sentences = [_fitted(shape, s) for s in _sentences.bytes_of(message.tables)]
        more = page_line(message)
        after = "".join(line + "\n" for line in fit(more)).encode() if more else b""
        return head + (b"\n" + head).join(sentences) + b"\n" + after
    # the page's fields as the codec writes them: each where it says more than the page
    # itself (``total`` where it is not the page's own count)
    keyed = [f"start={message.start}".encode()] if message.start else []
    keyed += [] if message.next is None else [f"next={message.next}".encode()]
    total = message.total
    keyed += [f"total={total}".encode()] if total != len(message.tables) else []
    return head + b"".join(k + b" " for k in keyed) + _json_line.bytes_of(message.tables) + b"\n"
