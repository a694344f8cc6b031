"""A bad network on loopback: a TCP proxy between a client and the host that delays,
jitters, stalls, blacks out, cuts and half-opens each connection (the kernel here has no
netem, so the faults are made in user space).

    proxy = BadNet(host_port, PROFILES["bad"], seed=1)
    port = await proxy.start()          # clients connect here instead of to the host
    link = proxy.links[-1]              # one per accepted connection
    link.outage(5.0)                    # nothing passes for 5 s, the connection stays open
    link.blackhole()                    # half-open: nothing passes ever again, nothing closes
    link.cut()                          # both sides closed
    await proxy.close()

Bytes keep their order in each direction: each chunk is delivered at its arrival time plus
the delay and the jitter, never before the chunk ahead of it (as TCP delivers), and never
during a stall or an outage (the bytes wait, as TCP's retransmissions make them wait).
A profile's random stalls, outages and cuts come from a seeded generator, so a run repeats.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import random
from collections import deque
from dataclasses import dataclass, field

LOOPBACK = "127.0.0.1"


@dataclass(frozen=True)
class Profile:
    """One network's faults, per direction (seconds, and events per second)."""

    delay: float = 0.0  # one-way delay
    jitter: float = 0.0  # plus up to this much more, uniformly
    bandwidth: float = 0.0  # bytes per second (0: no cap)
    stall_rate: float = 0.0  # stalls per second (a lost packet, to TCP)...
    stall: tuple[float, float] = (0.3, 1.5)  # ...each this long
    outage_rate: float = 0.0  # outages with the connection open, per second...
    outage: tuple[float, float] = (4.0, 20.0)  # ...each this long
    cut_rate: float = 0.0  # connections cut, per second
    half_open_rate: float = 0.0  # lines gone dark for good (nothing closes), per second


#: The profiles of the bench and the tests: a quiet LAN, a busy wifi, a bad one.
PROFILES: dict[str, Profile] = {
    "good": Profile(delay=0.002, jitter=0.003),
    "busy": Profile(delay=0.03, jitter=0.04, bandwidth=250_000, stall_rate=1 / 20),
    "bad": Profile(
        delay=0.08, jitter=0.12, bandwidth=100_000, stall_rate=1 / 6,
        outage_rate=1 / 240, outage=(4.0, 70.0), cut_rate=1 / 600, half_open_rate=1 / 900,
    ),  # fmt: skip
}


@dataclass
class Direction:
    """One way of one link: the chunks on their way (in order, each with the moment it
    is due), and until when nothing goes out at all."""

    writer: asyncio.StreamWriter
    queue: deque = field(default_factory=deque)  # (due, bytes)
    last: float = 0.0  # when the last chunk queued is due
    held_until: float = 0.0
    sent: int = 0
    wake: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass
class Link:
    """One client connection through the proxy (both directions)."""

    proxy: BadNet
    up: Direction  # client -> host
    down: Direction  # host -> client
    dark: bool = False  # half-open: every byte is dropped and nothing closes
    closed: bool = False
    tasks: list[asyncio.Task] = field(default_factory=list)

    def outage(self, seconds: float) -> None:
        """Nothing passes either way for ``seconds``; the bytes wait, the line stays open."""
        until = asyncio.get_running_loop().time() + seconds
        for d in (self.up, self.down):
            d.held_until = max(d.held_until, until)
        self.proxy.stats["outages"] += 1

    def blackhole(self) -> None:
        """Half-open (a phone that walked away): nothing passes, nobody is told."""
        self.dark = True
        self.proxy.stats["half_open"] += 1

    def cut(self) -> None:
        """Both sides see the connection end."""
        if self.closed:
            return
        self.closed = True
        self.proxy.stats["cuts"] += 1
        for d in (self.up, self.down):
            with contextlib.suppress(Exception):
                d.writer.transport.abort()
        for task in self.tasks:
            task.cancel()


class BadNet:
    """The proxy: listens on loopback, opens a connection to the host for each client."""

    def __init__(self, target_port: int, profile: Profile, *, seed: int = 0) -> None:
        self.target_port = target_port
        self.profile = profile
        self.rng = random.Random(seed)
        self.links: list[Link] = []
        self.stats: dict[str, int] = {"outages": 0, "half_open": 0, "cuts": 0, "stalls": 0}
        self._server: asyncio.AbstractServer | None = None

    async def start(self) -> int:
        self._server = await asyncio.start_server(self._accept, LOOPBACK, 0)
        return self._server.sockets[0].getsockname()[1]

    async def close(self) -> None:
        for link in self.links:
            link.cut()
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 1)

    async def _accept(self, c_reader, c_writer) -> None:
        try:
            h_reader, h_writer = await asyncio.open_connection(LOOPBACK, self.target_port)
        except OSError:
            c_writer.transport.abort()
            return
        link = Link(self, Direction(h_writer), Direction(c_writer))
        self.links.append(link)
        link.tasks = [
            asyncio.ensure_future(self._pump(link, c_reader, link.up)),
            asyncio.ensure_future(self._pump(link, h_reader, link.down)),
            asyncio.ensure_future(self._deliver(link, link.up)),
            asyncio.ensure_future(self._deliver(link, link.down)),
        ]
        p = self.profile
        if p.outage_rate + p.cut_rate + p.half_open_rate > 0:
            link.tasks.append(asyncio.ensure_future(self._weather(link)))

    async def _pump(self, link: Link, reader: asyncio.StreamReader, d: Direction) -> None:
        """Read one side as it comes and hand each chunk to the other side on time."""
        p, rng = self.profile, self.rng
        loop = asyncio.get_running_loop()
        try:
            while True:
                data = await reader.read(16384)
                if not data:
                    break
                if link.dark or link.closed:
                    continue
                now = loop.time()
                gap = max(0.001, now - max(d.last, d.held_until))
                if p.stall_rate > 0 and rng.random() < 1 - math.exp(-p.stall_rate * gap):
                    d.held_until = max(d.held_until, now + rng.uniform(*p.stall))
                    self.stats["stalls"] += 1
                when = max(now + p.delay + rng.uniform(0, p.jitter), d.held_until, d.last + 1e-6)
                if p.bandwidth > 0:
                    when = max(when, d.last + len(data) / p.bandwidth)
                d.last = when
                d.queue.append((when, data))
                d.wake.set()
        except (ConnectionError, OSError, asyncio.CancelledError):
            pass
        d.queue.append((None, b""))  # this side ended: the other is told once all is out
        d.wake.set()

    async def _deliver(self, link: Link, d: Direction) -> None:
        """Write each chunk when it is due and no stall or outage holds the line."""
        loop = asyncio.get_running_loop()
        while not link.closed:
            if not d.queue:
                d.wake.clear()
                await d.wake.wait()
                continue
            due, data = d.queue[0]
            wait = max(due or 0.0, d.held_until) - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
                continue  # an outage may have begun meanwhile
            d.queue.popleft()
            if link.dark:
                continue
            if due is None:  # the sending side ended by itself: no fault of the network
                link.cut()
                self.stats["cuts"] -= 1
                return
            if d.writer.transport.is_closing():  # that side ended: its bytes go nowhere
                continue
            with contextlib.suppress(Exception):
                d.writer.write(data)
                d.sent += len(data)

    async def _weather(self, link: Link) -> None:
        """A profile's outages, cuts and half-open lines, at random moments of its life."""
        p, rng = self.profile, self.rng
        rate = p.outage_rate + p.cut_rate + p.half_open_rate
        while not link.closed and not link.dark:
            await asyncio.sleep(rng.expovariate(rate))
            if link.closed:
                return
            pick = rng.random() * rate
            if pick < p.outage_rate:
                link.outage(rng.uniform(*p.outage))
            elif pick < p.outage_rate + p.cut_rate:
                link.cut()
            else:
                link.blackhole()

