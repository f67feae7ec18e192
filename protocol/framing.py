"""What the two stream splitters share: a byte buffer, the complete pieces cut
from it, and the rule that a stream is dead after its first failure.

``MsgpackDecoder`` cuts length-prefixed frames and ``LineReader`` cuts lines;
only the cutting differs, so the failure state, its replay on every later call
and the byte accounting live here once.
"""

from __future__ import annotations

from collections import deque

from protocol.errors import RemoteProtocolError
from protocol.limits import Limits

NO_PIECES: tuple[()] = ()


class Splitter:
    """Buffered bytes in, complete pieces (``_chunks``) out; dead after a failure."""

    #: the error code ``_fail`` gives when the caller names none
    fail_code = "bad_frame"

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._buffer = bytearray()
        #: complete pieces not yet taken; a deque only while there are some (an idle
        #: connection's empty deque would cost 760 bytes, 7 MB over 10,000 connections)
        self._chunks: deque[bytes | bytearray] | tuple[()] = NO_PIECES
        #: why the stream broke (message, code), once it has. The words are kept, not the
        #: exception: a raised exception holds its traceback, whose frames hold the
        #: connection that owns this splitter, and that cycle would outlive the connection.
        self._failure: tuple[str, str] | None = None
        self._eof = False

    @property
    def failed(self) -> bool:
        """True once the stream broke; the splitter is then never used again."""
        return self._failure is not None

    def _fail(self, message: str, code: str | None = None) -> RemoteProtocolError:
        """Break the stream for good: note why, drop every byte held."""
        self._failure = (message, self.fail_code if code is None else code)
        self._buffer.clear()
        self._chunks = NO_PIECES
        return RemoteProtocolError(*self._failure)

    def _check(self) -> None:
        """Raise again the failure that broke the stream, if it broke."""
        if self._failure is not None:
            message, code = self._failure
            raise RemoteProtocolError(f"the stream already failed: {message}", code)

    def _pieces(self) -> deque[bytes | bytearray]:
        """The queue of complete pieces, made when the first is cut."""
        chunks = self._chunks
        if type(chunks) is not deque:
            chunks = self._chunks = deque()
        return chunks

    def _take(self) -> bytes | bytearray:
        """The next complete piece (there is one: the caller checked ``_chunks``)."""
        chunks = self._chunks
        assert type(chunks) is deque
        piece = chunks.popleft()
        if not chunks:
            self._chunks = NO_PIECES
        return piece

    @property
    def buffered(self) -> int:
        """Bytes held: the incomplete piece plus complete pieces not yet taken."""
        return len(self._buffer) + sum(map(len, self._chunks))
