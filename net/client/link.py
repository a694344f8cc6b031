"""One connection to the host, read as the bytes arrive: the transport receives into one
buffer and the messages go to the session from the event loop's read callback.

A ``StreamReader`` would wake the session's task for every read (a future, a task step, a
copy out of its buffer): on a table, every client's loop does that for every action. Here
the read callback feeds the decoder, and the task only waits for the connection's end.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from net import protocol as P


class HostLink(asyncio.BufferedProtocol):
    """The bytes of one connection, cut into messages handed to ``on_raw`` (in order, in
    the loop's thread; ``stats`` counts the bytes and bad frames). ``ended`` resolves with why the connection ended: the host closed
    it or it broke (``closed`` says what the session makes of that), bad data came, or a
    message set ``final``; a handler's own exception (a bug) is raised from it."""

    def __init__(
        self,
        on_raw: Callable[[Any], None],
        stats: Counter,
        closed: Callable[[Exception | None], str],
        final: Callable[[], str | None],
    ) -> None:
        self.on_raw, self.stats, self.closed, self.final = on_raw, stats, closed, final
        self.decoder = P.FrameDecoder()
        self._buffer = memoryview(bytearray(self.decoder.max_frame))
        self.transport: asyncio.Transport | None = None
        self.last_rx = time.monotonic()
        self.ended: asyncio.Future[str] = asyncio.get_running_loop().create_future()

    def connection_made(self, transport) -> None:
        self.transport = transport
        self.last_rx = time.monotonic()  # the silence is counted from the connection, not the dial

    def get_buffer(self, sizehint: int) -> memoryview:
        # never more than the decoder has room for: a longer message cannot complete
        room = self.decoder.room()
        return self._buffer[:room] if room > 0 and not self.ended.done() else self._buffer

    def buffer_updated(self, nbytes: int) -> None:
        if self.ended.done():
            return
        self.last_rx = time.monotonic()
        self.stats["bytes_in"] += nbytes
        try:
            for raw in self.decoder.feed(self._buffer[:nbytes]):
                self.on_raw(raw)
        except P.ProtocolError as exc:
            self.stats["bad_frames"] += 1
            self._end(f"bad data from the host: {exc}")
            return
        except Exception as exc:  # a bug in a handler: the session's task raises it
            self.ended.set_exception(exc)
            self._close()
            return
        final = self.final()
        if final is not None:
            self._end(final)

    def eof_received(self) -> None:
        return None  # the transport closes: connection_lost follows

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.ended.done():
            self.ended.set_result(self.closed(exc))

    def _end(self, reason: str) -> None:
        if not self.ended.done():
            self.ended.set_result(reason)
        self._close()

    def _close(self) -> None:
        if self.transport is not None:
            self.transport.close()
