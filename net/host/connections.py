"""The host's connections: reading, the watchdog, admission, rate limits, closing.

Every TCP connection is read in bounded chunks and cut into frames (``FrameDecoder``); one
timer per connection closes it when it sends no hello in time, leaves a message half-sent or
stays silent. Admission keeps room for seat owners, token buckets limit messages per
connection and wrong room codes per address, and a fatal error is followed by a linger (FIN,
then reading for a moment) so the client sees it. ``Connections.send`` is the single way out
for every frame (``HostHooks.tap`` sees them all).

A probe every second pings each seated connection that has been quiet for
``Limits.probe_interval`` (it must answer ``pong``) and reports one silent for
``Limits.away_after`` while its line stays open (a phone asleep, a half-open line).

``Connections`` knows nothing of seats or the game: it hands each frame to ``on_frame``,
each ended connection to ``on_drop``, each silent one to ``on_silent`` and each silent one
heard again to ``on_heard``, the callbacks the host gives it.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from net import protocol as P
from net.host.hooks import HostHooks

log = logging.getLogger(__name__)

_INF = float("inf")

#: the last ``rate_limited`` error's message, before a flooding connection is closed
FLOODING = "flooding: connection closed"


@dataclass
class TokenBucket:
    """Up to `capacity` tokens, refilled at `rate` per second: the host's rate limits
    (messages per connection, wrong room codes per address)."""

    capacity: float
    rate: float
    tokens: float
    at: float

    def refill(self, now: float) -> float:
        if self.rate == _INF:  # no limit (avoids inf * 0 when no time has passed)
            self.tokens = self.capacity
        else:
            self.tokens = min(self.capacity, self.tokens + (now - self.at) * self.rate)
        self.at = now
        return self.tokens

    def take(self, now: float) -> bool:
        """Spend a token if there is one."""
        if self.refill(now) >= 1.0:
            self.tokens -= 1.0
            return True
        return False


@dataclass
class Limits:
    max_frame: int = P.MAX_FRAME
    max_connections: int = 32
    rate: float = 30.0  # messages per second per connection (token bucket)...
    burst: float = 60.0  # ...with this bucket size
    max_dropped: int = 300  # messages over the rate before the connection is closed
    handshake_timeout: float = 10.0  # seconds to send a hello
    idle_timeout: float = 60.0  # silence before a joined connection is closed (pings count)
    #: a seated connection silent this long gets a ``ping`` it must answer (``pong``),
    #: and another each time as long again passes without a word
    probe_interval: float = 4.0
    #: a seated connection silent this long is reported silent (its seat shows ``away``;
    #: a phone that sleeps with its connection open): three probes went unanswered
    away_after: float = 12.0
    partial_timeout: float = 10.0  # a message left half-sent this long closes the connection
    max_write_buffer: int = 1 << 20  # bytes queued to a client that does not read
    #: bytes read from a socket at a time (asyncio's default buffers 256 KiB per read:
    #: under a flood of full frames from every connection those buffers, freed and
    #: reallocated at every read, left the allocator holding ~200 MiB it never gave back)
    read_chunk: int = 16 * 1024
    #: after a connection ends, return freed memory to the system (glibc's malloc_trim)
    #: when this many bytes were read since the last time, at most every trim_interval s
    trim_after_bytes: int = 8 << 20
    trim_interval: float = 5.0
    max_code_attempts: int = 5  # wrong room codes per connection
    #: after a fatal error the host stops sending (FIN) but keeps reading this long before
    #: closing, so the error is not lost to a reset while the client is still sending
    linger: float = 2.0
    max_lingering: int = 64  # beyond this many lingering connections, close at once
    max_spectators: int = 8  # so that watchers can never crowd players out
    #: a preference (``set_ask_preference``) is always legal and each one is an action
    #: everyone receives and the autosave keeps: at most one per seat this often
    meta_interval: float = 1.0
    #: wrong room codes per remote address (all its connections together): a bucket of
    #: ``code_burst`` refilled one every ``code_refill`` seconds; while it is empty the
    #: address's codes are not even checked (a 4-letter code cannot be brute-forced).
    code_burst: float = 10.0
    code_refill: float = 6.0


class Connection:
    """One TCP connection (a player, a spectator, or someone still saying hello)."""

    _ids = iter(range(1, 1 << 62))

    def __init__(self, writer: TransportWriter, now: float, burst: float, rate: float) -> None:
        self.id = next(Connection._ids)
        self.writer = writer
        self.peer = writer.get_extra_info("peername")
        self.role: str | None = None  # None until a hello is accepted
        self.via = "tcp"  # how it reached the host: "tcp", or "web" (a phone's WebSocket)
        self.seat: int | None = None
        self.synced = False  # has a snapshot of the current game
        self.wants_legal = False  # hello asked for the seat's legal actions in every update
        self.wants_history = False  # hello asked for the recent events in its first snapshot
        self.is_bot = False  # hello says a program plays this seat: it never holds the start
        self.closed = False
        self.left = False  # said bye
        self.bad_codes = 0
        self.bucket = TokenBucket(burst, rate, burst, now)  # messages
        self.dropped = 0
        self.last_rate_error = -1e18
        self.opened = time.monotonic()
        self.heard_at = 0.0  # loop time of the last bytes read (set when the connection opens)
        self.probed_at = 0.0  # loop time of the last ping the host sent it
        self.probes = 0  # pings sent (their ``n``)
        self.silent = False  # reported silent (``on_silent``) and not heard since

    @property
    def audience(self) -> int | None:
        return self.seat if self.role == "player" else None

    def __repr__(self) -> str:
        return f"<conn {self.id} {self.role} seat={self.seat}>"


@dataclass
class TrimMark:
    """When memory was last given back, and how many bytes had been read by then."""

    at: float
    bytes_in: int


class Connections:
    def __init__(
        self,
        limits: Limits,
        stats: Counter,
        hooks: HostHooks,
        now: Callable[[], float],
        on_frame: Callable[[Connection, object], None],
        on_drop: Callable[[Connection], None],
        on_silent: Callable[[Connection], bool] | None = None,
        on_heard: Callable[[Connection], None] | None = None,
    ) -> None:
        """``on_silent(conn)``: a seated connection said nothing for ``away_after``
        seconds (it stays open; True: noted, else asked again a tick later);
        ``on_heard(conn)``: a noted one spoke again, before its frames."""
        self.limits = limits
        self.stats = stats
        self.hooks = hooks
        self.now = now  # the host's clock
        self.on_frame = on_frame  # a decoded frame from a connection
        self.on_drop = on_drop  # a connection left the set (after it was closed)
        self.on_silent = on_silent
        self.on_heard = on_heard
        self._probe_handle: asyncio.TimerHandle | None = None
        self.conns: set[Connection] = set()
        self.closing = False  # the host is shutting down: no admissions, no trims
        self._code_buckets: dict[str, TokenBucket] = {}  # remote address -> wrong codes left
        self._lingering = 0
        self._trimmed = TrimMark(time.monotonic(), 0)
        self._trim_pending = False

    def __iter__(self):
        return iter(self.conns)

    def __len__(self) -> int:
        return len(self.conns)

    # ------------------------------------------------------------------ reading

    def protocol(self) -> ConnectionProtocol:
        """A new connection's protocol (``loop.create_server``'s factory)."""
        return ConnectionProtocol(self)

    # ------------------------------------------------------------------ admission, limits

    def admit(self) -> bool:
        """Room for one more connection? When full, the oldest connection that has not said
        hello yet makes room: players (at most one per seat) and a capped number of
        spectators can never fill the host, so a seat's owner always gets back in."""
        if self.closing:
            return False
        if len(self.conns) < self.limits.max_connections:
            return True
        pending = [c for c in self.conns if c.role is None]
        if not pending:
            return False
        oldest = min(pending, key=lambda c: c.id)
        self.stats["evicted"] += 1
        self.fatal(oldest, P.error("too_many_connections", "the host is full: a newer one won"))
        self.conns.discard(oldest)
        return True

    def code_allowed(self, conn: Connection) -> bool:
        """May this connection's address try a room code now? (Wrong codes cost a token.)"""
        bucket = self._code_buckets.get(_addr(conn))
        return bucket is None or bucket.refill(self.now()) >= 1.0

    def wrong_code(self, conn: Connection) -> None:
        key = _addr(conn)
        bucket = self._code_buckets.get(key)
        if bucket is None:
            if len(self._code_buckets) >= 4096:  # bounded: forget the oldest address
                self._code_buckets.pop(next(iter(self._code_buckets)))
            refill = self.limits.code_refill
            rate = 1.0 / refill if refill > 0 else float("inf")
            burst = self.limits.code_burst
            bucket = self._code_buckets[key] = TokenBucket(burst, rate, burst, self.now())
        bucket.take(self.now())  # only asked after code_allowed: a token is there

    @property
    def code_addresses(self) -> int:
        """How many remote addresses have a wrong-code bucket (bounded)."""
        return len(self._code_buckets)

    def rate_ok(self, conn: Connection) -> bool:
        now = self.now()
        if conn.bucket.take(now):
            return True
        conn.dropped += 1
        self.stats["rate_limited"] += 1
        if conn.dropped > self.limits.max_dropped:
            self.fatal(conn, P.error("rate_limited", FLOODING))
        elif now - conn.last_rate_error >= 1.0:
            conn.last_rate_error = now
            self.send(conn, P.error("rate_limited"))
        return False

    # ------------------------------------------------------------------ closing

    def close(self, conn: Connection, linger: bool = True) -> None:
        """No more frames to ``conn``. With ``linger``, what was sent goes out followed by
        a FIN while the host keeps reading for ``Limits.linger`` seconds: closing a socket
        with unread input makes the kernel send a reset, and a client still writing (a ping,
        the rest of a flood) could then lose the error it was sent."""
        if conn.closed:
            return
        conn.closed = True
        transport = conn.writer.transport
        try:
            if (
                linger
                and self._lingering < self.limits.max_lingering
                and transport is not None
                and not transport.is_closing()
                and transport.can_write_eof()
            ):
                transport.write_eof()
                self._lingering += 1
                asyncio.get_running_loop().call_later(
                    self.limits.linger, self._end_linger, transport
                )
                return
        except Exception:  # pragma: no cover - a transport that cannot half-close
            pass
        with contextlib.suppress(Exception):
            conn.writer.close()

    def _end_linger(self, transport) -> None:
        self._lingering -= 1
        with contextlib.suppress(Exception):
            transport.abort()

    def fatal(self, conn: Connection, msg: dict) -> None:
        log.debug("closing %r (%s): %s", conn, conn.peer, msg["code"])
        self.stats["errors." + msg["code"]] += 1
        self.send(conn, msg)
        self.drop(conn)

    def drop(self, conn: Connection, linger: bool = True) -> None:
        """A connection ended (EOF, error, bye, replaced, timeout): closed, out of the set,
        and then (once) ``on_drop``."""
        self.close(conn, linger)
        if conn not in self.conns:
            return
        self.conns.discard(conn)
        self._maybe_trim()
        self.on_drop(conn)

    def shutdown(self, reason: str) -> None:
        """The host stops: bye to everyone, every connection closed at once."""
        self.closing = True
        self.stop_probing()
        for conn in list(self.conns):
            self.send(conn, {"t": "bye", "reason": reason})
            self.close(conn, linger=False)

    def _maybe_trim(self) -> None:
        """Give memory freed by ended connections back to the system, now or at the end
        of the trim interval (so the last of a burst of drops is not left out)."""
        if self._trim_pending or self.closing:
            return
        if self.stats["bytes_in"] - self._trimmed.bytes_in < self.limits.trim_after_bytes:
            return
        wait = self._trimmed.at + self.limits.trim_interval - time.monotonic()
        if wait > 0:
            self._trim_pending = True
            asyncio.get_running_loop().call_later(wait, self._trim)
        else:
            self._trim()

    def _trim(self) -> None:
        self._trim_pending = False
        self._trimmed = TrimMark(time.monotonic(), self.stats["bytes_in"])
        if release_free_memory():
            self.stats["memory_trims"] += 1

    # ------------------------------------------------------------------ presence

    def start_probing(self) -> None:
        """Check every second, on the loop's clock (like the watchdog), that each seated
        connection is heard: a quiet one gets a ``ping`` every ``probe_interval``, one
        silent for ``away_after`` is reported to ``on_silent``. The host asks, so a
        client that sleeps with its connection open (a phone) is noticed in seconds."""
        if self._probe_handle is None and not self.closing:
            loop = asyncio.get_running_loop()
            tick = min(1.0, self.limits.probe_interval / 4)
            self._probe_handle = loop.call_later(tick, self._probe)

    def stop_probing(self) -> None:
        if self._probe_handle is not None:
            self._probe_handle.cancel()
            self._probe_handle = None

    def _probe(self) -> None:
        self._probe_handle = None
        limits = self.limits
        now = asyncio.get_running_loop().time()
        for conn in list(self.conns):
            if conn.role != "player" or conn.closed:
                continue
            quiet = now - conn.heard_at
            if quiet >= limits.probe_interval and now - conn.probed_at >= limits.probe_interval:
                conn.probed_at = now
                conn.probes = (conn.probes + 1) % (2**31)
                self.stats["probes"] += 1
                self.send(conn, {"t": "ping", "n": conn.probes})
            # reported until someone minds (a seat in a game, not one in the lobby)
            noted = quiet >= limits.away_after and not conn.silent and self.on_silent is not None
            if noted and self.on_silent(conn):
                conn.silent = True
                self.stats["silent"] += 1
        self.start_probing()

    def heard(self, conn: Connection, now: float) -> None:
        """Bytes came from ``conn``: a connection reported silent is back (at once)."""
        conn.heard_at = now
        if conn.silent:
            conn.silent = False
            self.stats["heard_again"] += 1
            if self.on_heard is not None:
                self.on_heard(conn)

    # ------------------------------------------------------------------ sending

    def send(self, conn: Connection, msg: dict, frame: bytes | None = None) -> None:
        """The single way out: every frame to every connection passes here."""
        if conn.closed:
            return
        transport = conn.writer.transport
        if transport is None or transport.is_closing():
            # The peer vanished and its reader has not run yet (a burst of drops, each
            # telling the others): asyncio would log a warning for every frame written.
            self.stats["frames_to_closing"] += 1
            return
        if frame is None:
            frame = P.encode(msg)
        tap = self.hooks.tap
        if tap is not None:
            tap(conn, msg, frame)
        self.stats["frames_out"] += 1
        self.stats["bytes_out"] += len(frame)
        try:
            conn.writer.write(frame)
            if transport.get_write_buffer_size() > self.limits.max_write_buffer:
                # No error message: it would only join the unread pile.
                log.warning("%r does not read; closing", conn)
                self.stats["errors.slow_reader"] += 1
                conn.closed = True
                transport.abort()
        except (ConnectionError, OSError, RuntimeError, AttributeError):
            self.close(conn)

    def reply_error(self, conn: Connection, code: str, message: str | None = None, **extra) -> None:
        """An error to ``conn``; a fatal one (``protocol.ERRORS``) also closes it."""
        msg = P.error(code, message, **extra)
        if P.ERRORS[code][0]:
            self.fatal(conn, msg)  # counts it
        else:
            self.stats["errors." + code] += 1
            self.send(conn, msg)


class TransportWriter:
    """What a connection writes through: its transport (the part of asyncio's
    ``StreamWriter`` the host uses, without the stream)."""

    __slots__ = ("transport", "write")

    def __init__(self, transport: asyncio.Transport) -> None:
        self.transport = transport
        self.write = transport.write  # the transport's own: no call of ours in between

    def get_extra_info(self, name: str, default=None):
        return self.transport.get_extra_info(name, default)

    def close(self) -> None:
        self.transport.close()


def read_deadline(
    conn: Connection, limits: Limits, hello_by: float, last_read: float,
    partial_since: float | None = None,
) -> tuple[float, str]:
    """When a connection that stays as quiet as it is now is closed, and why: no hello in
    time, silent for too long, or a message left half-sent (TCP; a WebSocket message comes
    whole). One rule for both transports (this module's reader, net/web's)."""
    if conn.role is None:
        when, why = hello_by, "no hello in time"
    else:
        when, why = last_read + limits.idle_timeout, "silent for too long"
    if partial_since is not None and partial_since + limits.partial_timeout < when:
        when, why = partial_since + limits.partial_timeout, "a message was left half-sent"
    return when, why


class ConnectionProtocol(asyncio.Protocol):
    """One connection's life: admitted, read frame by frame, dropped.

    asyncio hands every chunk the socket gives (at most ``Limits.read_chunk`` bytes) to
    ``data_received``, which cuts it into frames (``FrameDecoder``) and hands each to
    ``Connections.on_frame`` at once: no reader task to wake and no future per read.

    One timer per connection closes it when it sends no hello in time, leaves a message
    half-sent (counted from its first byte, so trickling bytes does not help) or stays
    silent. A read only notes its time; the timer is moved when it fires early (the
    deadline went later) or when a read brings the deadline forward, so it fires exactly
    when a timer re-armed after every read would."""

    def __init__(self, connections: Connections) -> None:
        self.connections = connections
        self.conn: Connection | None = None
        self.decoder: P.FrameDecoder | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.watchdog: asyncio.TimerHandle | None = None
        self.hello_by = 0.0
        self.last_read = 0.0
        self.partial_since: float | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:
        owner = self.connections
        limits = owner.limits
        if hasattr(transport, "max_size"):  # the selector transports' recv size
            transport.max_size = limits.read_chunk
        conn = self.conn = Connection(
            TransportWriter(transport), owner.now(), limits.burst, limits.rate
        )
        if not owner.admit():
            owner.send(conn, P.error("too_many_connections"))
            owner.close(conn)
            return
        owner.conns.add(conn)
        owner.stats["connections"] += 1
        self.decoder = P.FrameDecoder(limits.max_frame)
        self.loop = loop = asyncio.get_running_loop()
        self.hello_by = self.last_read = conn.heard_at = loop.time()
        self.hello_by += limits.handshake_timeout
        self._arm(self._deadline()[0])

    def data_received(self, data: bytes) -> None:
        conn = self.conn
        if conn.closed:
            return  # lingering (or refused): read and discarded
        owner = self.connections
        owner.stats["bytes_in"] += len(data)
        decoder = self.decoder
        try:
            owner.heard(conn, self.loop.time())  # a silent seat is back before its frames
            while data and not conn.closed:
                room = decoder.room()  # the decoder never holds more than a frame
                piece, data = (data, b"") if len(data) <= room else (data[:room], data[room:])
                for raw in decoder.feed(piece):
                    owner.on_frame(conn, raw)
                    if conn.closed:
                        break
        except P.ProtocolError as exc:
            owner.fatal(conn, P.error(exc.code, exc.message))
        except Exception:  # a bug: never let one message take the host down
            log.exception("internal error on a message from %r", conn)
            owner.stats["internal_errors"] += 1
            owner.fatal(conn, P.error("internal_error"))
        if conn.closed:
            self._disarm()
            return
        loop = self.loop
        if not decoder.buffered:
            self.partial_since = None
        elif self.partial_since is None:
            self.partial_since = loop.time()
        self.last_read = loop.time()
        when = self._deadline()[0]
        watchdog = self.watchdog
        if watchdog is None or when < watchdog.when():
            self._arm(when)

    def eof_received(self) -> bool:
        self._ended()
        return True  # a lingering connection's transport stays until the linger ends

    def connection_lost(self, exc: Exception | None) -> None:
        self._ended()

    def _ended(self) -> None:
        self._disarm()
        if self.conn is not None:
            self.decoder = None
            self.connections.drop(self.conn, linger=False)

    def _deadline(self) -> tuple[float, str]:
        return read_deadline(
            self.conn, self.connections.limits, self.hello_by, self.last_read, self.partial_since
        )

    def _arm(self, when: float) -> None:
        if self.watchdog is not None:
            self.watchdog.cancel()
        self.watchdog = self.loop.call_at(when, self._expire)

    def _disarm(self) -> None:
        if self.watchdog is not None:
            self.watchdog.cancel()
            self.watchdog = None

    def _expire(self) -> None:
        self.watchdog = None
        conn = self.conn
        if conn.closed:
            return
        when, why = self._deadline()
        if when > self.loop.time():  # reads moved the deadline on since the timer was set
            self._arm(when)
            return
        self.connections.fatal(conn, P.error("timeout", why))


def _addr(conn: Connection) -> str:
    peer = conn.peer
    return str(peer[0]) if isinstance(peer, tuple) and peer else "?"


_malloc_trim = None


def release_free_memory() -> bool:
    """Collect garbage, then return the heap's free pages to the system (glibc
    ``malloc_trim``; elsewhere only the collection). Python frees a connection's buffers,
    but glibc keeps the pages for reuse and, fragmented by many buffer sizes, hardly ever
    reuses or returns them. True if pages were offered back."""
    global _malloc_trim
    gc.collect()  # closed connections' reference cycles (see Host._on_client) first
    if _malloc_trim is None:
        _malloc_trim = False
        with contextlib.suppress(OSError, AttributeError):
            import ctypes

            fn = ctypes.CDLL(None).malloc_trim
            fn.argtypes, fn.restype = [ctypes.c_size_t], ctypes.c_int
            _malloc_trim = fn
    if not _malloc_trim:
        return False
    _malloc_trim(0)
    return True
