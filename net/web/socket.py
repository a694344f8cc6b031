"""One phone's WebSocket as a host connection: the same ``Connection``, the same limits.

A WebSocket is plugged into ``net.host.connections`` through the part of an asyncio
transport the host uses (``WebSocketTransport``: write, the write buffer's size, close,
abort), so every frame still leaves through ``Connections.send`` (the tap sees it, a slow
reader is dropped past ``Limits.max_write_buffer``) and every message still arrives through
``Connections.on_frame`` (rate limits, admission, the handlers). What differs is the framing:
each binary WebSocket message is exactly one msgpack message (docs/PROTOCOL.md §1.1).

Frames go out in order through one sender task per socket (aiohttp's send is a coroutine;
the host's ``send`` is not): the bytes it has not written yet count as the write buffer.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable

from aiohttp import WSCloseCode, WSMsgType, web

from net import protocol as P
from net.host.connections import Connection, Connections, TransportWriter, read_deadline

log = logging.getLogger(__name__)

#: ``Connection.via`` of a phone's connection (a TCP client's is "tcp")
VIA_WEB = "web"


class WebSocketTransport:
    """The asyncio-transport face of a WebSocket (the calls ``Connections`` makes)."""

    def __init__(self, ws: web.WebSocketResponse, raw: asyncio.Transport) -> None:
        self.ws = ws
        self.raw = raw  # the TCP transport under the WebSocket (address, its buffer)
        self._queue: deque[bytes] = deque()
        self._queued = 0
        self._wake = asyncio.Event()
        self._closing = False
        self._aborted = False
        self.close_code = WSCloseCode.OK
        self.sender = asyncio.ensure_future(self._send_all())

    # ------------------------------------------------------------- the transport's calls

    def write(self, data: bytes) -> None:
        if self._closing:
            return
        self._queue.append(data)
        self._queued += len(data)
        self._wake.set()

    def get_write_buffer_size(self) -> int:
        raw = self.raw
        return self._queued + (0 if raw is None else raw.get_write_buffer_size())

    def is_closing(self) -> bool:
        return self._closing or self.raw is None or self.raw.is_closing()

    def can_write_eof(self) -> bool:
        return False  # a WebSocket closes with a close frame (and lingers reading for it)

    def write_eof(self) -> None:  # pragma: no cover - can_write_eof() says no
        self.close()

    def get_extra_info(self, name: str, default=None):
        return default if self.raw is None else self.raw.get_extra_info(name, default)

    def close(self) -> None:
        """What was written goes out, then the close frame."""
        self._closing = True
        self._wake.set()

    def abort(self) -> None:
        self._closing = self._aborted = True
        self._queue.clear()
        self._queued = 0
        if self.raw is not None:
            self.raw.abort()
        self._wake.set()

    # ------------------------------------------------------------- the sender

    async def _send_all(self) -> None:
        ws = self.ws
        try:
            while True:
                queue = self._queue
                while queue and not self._aborted:
                    data = queue.popleft()
                    self._queued -= len(data)
                    await ws.send_bytes(data)  # waits only when the socket's buffer is full
                if self._aborted:
                    return
                if self._closing:
                    await ws.close(code=self.close_code)
                    return
                self._wake.clear()
                await self._wake.wait()
        except (ConnectionError, RuntimeError, OSError):
            self._closing = True  # the peer went away: nothing more can be sent
        except asyncio.CancelledError:
            raise


#: what aiohttp's own refusals of a phone's bytes are on TCP: a message over the size
#: limit, and WebSocket framing that is not WebSocket (unmasked, a bad opcode, a torn
#: fragment, a text message that is not UTF-8)
REFUSALS = {
    WSCloseCode.MESSAGE_TOO_BIG: ("frame_too_large", "a message is longer than {max} bytes"),
    WSCloseCode.PROTOCOL_ERROR: ("bad_frame", "the bytes are not WebSocket frames"),
    WSCloseCode.INVALID_TEXT: ("bad_frame", "a text message that is not UTF-8"),
}


class PhoneSocket(web.WebSocketResponse):
    """aiohttp's WebSocket, which answers bytes it refuses (``REFUSALS``) as TCP does: the
    protocol's error first, then the close (aiohttp alone closes with 1009 or 1002 and no
    word). ``refuse`` is set by ``serve`` to send that error and wait for it to go out."""

    refuse: Callable[[int], Awaitable[None]] | None = None

    async def close(self, *, code: int = WSCloseCode.OK, message: bytes = b"", drain: bool = True):
        hook = self.refuse
        if code in REFUSALS and hook is not None:
            self.refuse = None
            await hook(code)
        return await super().close(code=code, message=message, drain=drain)


def one_message(decoder: P.FrameDecoder, data: bytes):
    """The one msgpack value a binary WebSocket message holds (ProtocolError otherwise)."""
    values = list(decoder.feed(data))
    if decoder.buffered:
        raise P.ProtocolError("bad_frame", "a WebSocket message ends inside a msgpack value")
    if len(values) != 1:
        raise P.ProtocolError(
            "bad_frame", f"a WebSocket message holds {len(values)} msgpack values, not 1"
        )
    return values[0]


async def serve(request: web.Request, connections: Connections) -> web.WebSocketResponse:
    """Upgrade ``request`` and run its connection until it ends (the handler of ``/ws``)."""
    limits = connections.limits
    ws = PhoneSocket(
        max_msg_size=limits.max_frame,
        compress=False,
        autoping=True,
        autoclose=True,
        heartbeat=None,  # the protocol's own ping and idle timeout keep watch
        timeout=limits.linger,  # how long a close waits for the phone's close frame
    )
    try:
        await ws.prepare(request)
    except (ConnectionError, RuntimeError):  # the phone went away during the upgrade
        return ws
    transport = WebSocketTransport(ws, request.transport)
    conn = Connection(TransportWriter(transport), connections.now(), limits.burst, limits.rate)
    conn.via = VIA_WEB
    conn.heard_at = asyncio.get_running_loop().time()  # heard from: the upgrade
    if not connections.admit():
        connections.send(conn, P.error("too_many_connections"))
        connections.close(conn)
        await _finish(transport, limits.linger)
        return ws
    connections.conns.add(conn)
    connections.stats["connections"] += 1
    connections.stats["web_connections"] += 1

    async def refuse(close_code: int) -> None:
        code, words = REFUSALS[close_code]
        transport.close_code = close_code
        connections.fatal(conn, P.error(code, words.format(max=limits.max_frame)))
        await _finish(transport, limits.linger)

    ws.refuse = refuse
    try:
        await _read(ws, conn, connections)
    finally:
        connections.drop(conn, linger=False)
        await _finish(transport, limits.linger)
    return ws


async def _read(ws: PhoneSocket, conn: Connection, connections: Connections) -> None:
    """Every message of the socket to ``on_frame``, under the host's timeouts: a hello within
    ``handshake_timeout``, then never silent for ``idle_timeout``."""
    limits = connections.limits
    loop = asyncio.get_running_loop()
    decoder = P.FrameDecoder(limits.max_frame)
    hello_by = loop.time() + limits.handshake_timeout
    last_read = loop.time()
    stats = connections.stats
    while not conn.closed:
        deadline, why = read_deadline(conn, limits, hello_by, last_read)
        left = deadline - loop.time()
        if left <= 0:
            connections.fatal(conn, P.error("timeout", why))
            return
        try:
            msg = await ws.receive(timeout=left)
        except TimeoutError:
            continue
        if msg.type is WSMsgType.BINARY:
            last_read = loop.time()
            stats["bytes_in"] += len(msg.data)
            connections.heard(conn, last_read)  # a silent seat is back before its frames
            try:
                value = one_message(decoder, msg.data)
                connections.on_frame(conn, value)
            except P.ProtocolError as exc:
                connections.fatal(conn, P.error(exc.code, exc.message))
            except Exception:  # a bug: never let one message take the host down
                log.exception("internal error on a message from %r", conn)
                stats["internal_errors"] += 1
                connections.fatal(conn, P.error("internal_error"))
        elif msg.type is WSMsgType.TEXT:
            stats["bytes_in"] += len(msg.data)
            connections.fatal(
                conn, P.error("bad_frame", "a text message: send msgpack in binary messages")
            )
        else:  # CLOSE, CLOSING, CLOSED, ERROR: the socket ended
            return


async def _finish(transport: WebSocketTransport, linger: float) -> None:
    """Wait for the sender to write what it holds and close: the close waits up to
    ``linger`` for the phone's close frame, reading (and dropping) what still comes."""
    transport.close()
    with contextlib.suppress(Exception):
        await asyncio.wait_for(asyncio.shield(transport.sender), linger + 1.0)
    if not transport.sender.done():
        transport.abort()
        transport.sender.cancel()
