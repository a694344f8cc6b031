"""Helpers for the phone transport's tests: a host with phones on loopback, and a raw
WebSocket peer (aiohttp's client) that reads every message like ``net_helpers.Peer``."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import os
import socket
from typing import Any

import aiohttp
import msgpack

from net import protocol as P
from tests.net_helpers import CODE, LOOPBACK, Peer, start_host


async def start_phone_host(**kw):
    """``start_host`` with the phone server on an ephemeral loopback port."""
    kw.setdefault("phone_port", 0)
    return await start_host(**kw)


def ws_url(host, path: str = "/ws") -> str:
    return f"http://{LOOPBACK}:{host.phones.port}{path}"


class WebPeer(Peer):
    """A raw phone: binary WebSocket messages of msgpack, and every message back (reading,
    waiting and the protocol's steps as the TCP ``Peer``; only the transport differs)."""

    def __init__(self, session: aiohttp.ClientSession, ws: aiohttp.ClientWebSocketResponse):
        self.session, self.ws = session, ws
        self.inbox: list[dict] = []
        self.log: list[dict] = []
        self.seat: int | None = None
        self.token: str | None = None
        self.eof = False
        self.answers_pings = False
        self.close_code: int | None = None

    @classmethod
    async def connect(cls, host, **kw) -> WebPeer:
        session = aiohttp.ClientSession()
        try:
            ws = await session.ws_connect(ws_url(host), max_msg_size=1 << 22, **kw)
        except BaseException:
            await session.close()
            raise
        return cls(session, ws)

    def send(self, msg: Any) -> None:
        self.send_raw(msgpack.packb(msg, use_bin_type=True))

    def send_raw(self, data: bytes) -> None:
        asyncio.ensure_future(self._send(self.ws.send_bytes(data)))

    def send_text(self, text: str) -> None:
        asyncio.ensure_future(self._send(self.ws.send_str(text)))

    @staticmethod
    async def _send(coro) -> None:
        with contextlib.suppress(ConnectionError, RuntimeError):
            await coro

    async def _fill(self, timeout: float) -> bool:
        if self.eof:
            return False
        try:
            msg = await self.ws.receive(timeout)
        except TimeoutError:
            raise AssertionError(f"no message from the host for {timeout} s") from None
        if msg.type is not aiohttp.WSMsgType.BINARY:
            self.eof = True
            self.close_code = self.ws.close_code
            return False
        decoded = msgpack.unpackb(msg.data, raw=False)
        if self.answers_pings and isinstance(decoded, dict) and decoded.get("t") == "ping":
            self.send({"t": "pong", "n": decoded.get("n")})
        self.inbox.append(decoded)
        self.log.append(decoded)
        return True

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self.ws.close()
        await self.session.close()


def ws_frame(payload: bytes, opcode: int = 0x2) -> bytes:
    """One masked client WebSocket frame (RFC 6455 §5.2), FIN set."""
    head = bytearray([0x80 | opcode])
    n = len(payload)
    if n < 126:
        head.append(0x80 | n)
    elif n < 1 << 16:
        head += bytes([0x80 | 126]) + n.to_bytes(2, "big")
    else:
        head += bytes([0x80 | 127]) + n.to_bytes(8, "big")
    mask = os.urandom(4)
    return bytes(head) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


async def raw_websocket(host, rcvbuf: int = 4096, **headers) -> tuple:
    """A WebSocket opened by hand on a socket with a small receive buffer: (reader, writer)
    after the 101 answer. Reading it is up to the test (a slow reader never does)."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.connect((LOOPBACK, host.phones.port))
    sock.setblocking(False)
    reader, writer = await asyncio.open_connection(sock=sock)
    key = base64.b64encode(os.urandom(16)).decode()
    lines = [
        "GET /ws HTTP/1.1",
        f"Host: {LOOPBACK}:{host.phones.port}",
        "Upgrade: websocket",
        "Connection: Upgrade",
        f"Sec-WebSocket-Key: {key}",
        "Sec-WebSocket-Version: 13",
        *(f"{k}: {v}" for k, v in headers.items()),
    ]
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
    answer = await reader.readuntil(b"\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 101"), answer
    return reader, writer


@contextlib.contextmanager
def phone_host_thread(**kw):
    """A host with phones in its own thread (a real clock, instant bots), for tests that
    drive a browser from synchronous code: ``with phone_host_thread(seats=4) as ht:``
    then open ``ht.phone_url``. Keywords are HostConfig's (``phone_dir`` a page's folder)."""
    from net.host.thread import HostThread
    from tests.net_helpers import config_for_tests

    kw.setdefault("code", CODE)
    kw.setdefault("phone_port", 0)
    ht = HostThread(config_for_tests(**kw)).start()
    try:
        yield ht
    finally:
        ht.stop()


class WebBridge:
    """The project's own TCP clients (``BotPlayer``, ``ClientSession``) played as phones:
    each TCP client of the bridge gets a WebSocket to the host's ``/ws``; its frames go up as
    binary WebSocket messages and every WebSocket message comes down as is. ``received``
    keeps, per bridged client, the messages the host's WebSocket delivered, in order (what
    a phone would have got)."""

    def __init__(self, host) -> None:
        self.url = ws_url(host)
        self.received: list[list[bytes]] = []
        self.server: asyncio.AbstractServer | None = None
        self.port: int | None = None
        self._tasks: set[asyncio.Task] = set()

    async def start(self) -> WebBridge:
        self.server = await asyncio.start_server(self._client, LOOPBACK, 0)
        self.port = self.server.sockets[0].getsockname()[1]
        return self

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()
        for task in list(self._tasks):
            task.cancel()

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
        task = asyncio.current_task()
        self._tasks.add(task)
        got: list[bytes] = []
        self.received.append(got)
        try:
            async with (
                aiohttp.ClientSession() as session,
                session.ws_connect(self.url, max_msg_size=1 << 22) as ws,
            ):
                up = asyncio.ensure_future(self._up(reader, ws))
                try:
                    async for msg in ws:
                        if msg.type is not aiohttp.WSMsgType.BINARY:
                            break
                        got.append(msg.data)
                        writer.write(msg.data)
                finally:
                    up.cancel()
        except (aiohttp.ClientError, ConnectionError, OSError):
            pass
        except asyncio.CancelledError:  # the bridge closes: end quietly (asyncio's stream
            pass  # callback would log a cancelled handler's CancelledError as an error)
        finally:
            self._tasks.discard(task)
            writer.close()
            # a reset leaves its exception in the stream's "closed" future too: take it here
            # (only the protocol's __del__ would, and test_robust_host turns that off)
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await writer.wait_closed()

    @staticmethod
    async def _up(reader: asyncio.StreamReader, ws) -> None:
        decoder = P.FrameDecoder()
        try:
            while data := await reader.read(65536):
                for raw in decoder.feed(data):
                    await ws.send_bytes(P.encode(raw))
            await ws.close()
        except (aiohttp.ClientError, ConnectionError, OSError):
            pass  # the test's side went away: its reset is no failure of the bridge (an
            # exception left in this task was logged as "never retrieved" in a later test)
