"""Helpers for the LAN tests: a raw protocol peer, hosts on loopback, scenario setups."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

from game.bots import make_bot
from game.rules import (
    HOST,
    Card,
    Phase,
    Setup,
    TimeUp,
    default_action,
    legal_actions,
    view,
    waiting_for,
)
from game.rules.board import clan_from_key
from game.rules.cards import DECK_COUNTS, card_from_key
from game.rules.state import POOL
from game.table.bot_schedule import Timing
from game.table.clock import ManualClock
from net import protocol as P
from net.host.config import HostConfig
from net.host.connections import Limits
from net.host.server import Host


def config_for_tests(**kw) -> HostConfig:
    """A loopback host with instant bots and room for bots' message rates (tests, bench);
    windows close at their shown end (no ``late_margin``) unless a test asks for one."""
    kw.setdefault("late_margin", 0.0)
    timing = kw.pop("timing", None) or Timing(
        bot_answer=0.0, bot_delay=0.0, bot_tick=0.005, fair_start=0.0
    )
    limits = kw.pop("limits", None) or Limits(rate=1000.0, burst=1000.0)
    return HostConfig(bind="127.0.0.1", announce=False, timing=timing, limits=limits, **kw)


LOOPBACK = "127.0.0.1"
CODE = "ABCD"


def run(coro, timeout: float = 60.0):
    """Run a test scenario on a fresh loop, failing instead of hanging."""

    async def main():
        return await asyncio.wait_for(coro, timeout)

    return asyncio.run(main())


class Peer:
    """A raw protocol peer: sends any bytes, reads every message the host sends."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.decoder = P.FrameDecoder(1 << 20)
        self.inbox: list[dict] = []
        self.log: list[dict] = []
        self.seat: int | None = None
        self.token: str | None = None
        self.eof = False
        self.answers_pings = False  # answer the host's pings as it reads (a live client)

    @classmethod
    async def connect(cls, port: int) -> Peer:
        reader, writer = await asyncio.open_connection(LOOPBACK, port)
        return cls(reader, writer)

    def send(self, msg: Any) -> None:
        import msgpack

        self.writer.write(msgpack.packb(msg, use_bin_type=True))

    def send_raw(self, data: bytes) -> None:
        self.writer.write(data)

    async def _fill(self, timeout: float) -> bool:
        if self.eof:
            return False
        try:
            data = await asyncio.wait_for(self.reader.read(65536), timeout)
        except TimeoutError:
            raise AssertionError(f"no message from the host for {timeout} s") from None
        except (ConnectionError, OSError):
            data = b""
        if not data:
            self.eof = True
            return False
        for msg in self.decoder.feed(data):
            if self.answers_pings and isinstance(msg, dict) and msg.get("t") == "ping":
                self.send({"t": "pong", "n": msg.get("n")})
            self.inbox.append(msg)
            self.log.append(msg)
        return True

    async def recv(self, timeout: float = 5.0) -> dict:
        while not self.inbox:
            if not await self._fill(timeout):
                raise AssertionError("connection closed while waiting for a message")
        return self.inbox.pop(0)

    async def expect(self, t: str, timeout: float = 5.0, **fields) -> dict:
        """The next message of type ``t`` (others are skipped) with the given fields."""
        while True:
            msg = await self.recv(timeout)
            if msg.get("t") == t and all(msg.get(k) == v for k, v in fields.items()):
                return msg

    async def until(self, t: str, pred, timeout: float = 5.0) -> dict:
        """The next message of type ``t`` for which ``pred(msg)`` holds."""
        while True:
            msg = await self.expect(t, timeout)
            if pred(msg):
                return msg

    async def error(self, code: str, timeout: float = 5.0) -> dict:
        msg = await self.expect("error", timeout)
        assert msg["code"] == code, msg
        return msg

    async def closed(self, timeout: float = 5.0) -> list[dict]:
        """Read until the host closes the connection; returns what came meanwhile."""
        got = []
        while True:
            while self.inbox:
                got.append(self.inbox.pop(0))
            if not await self._fill(timeout):
                return got

    async def quiet(self) -> list[dict]:
        """Whatever has arrived without waiting long (a round trip with ping)."""
        self.send({"t": "ping", "n": 4242})
        got = []
        while True:
            msg = await self.recv()
            if msg.get("t") == "pong" and msg.get("n") == 4242:
                return got
            got.append(msg)

    async def hello(self, name: str = "P", code: str | None = CODE, **extra) -> dict:
        msg = {"t": "hello", "v": P.PROTOCOL_VERSION, "role": "player", "name": name, "code": code}
        msg.update(extra)
        self.send(msg)
        welcome = await self.expect("welcome")
        self.seat, self.token = welcome["seat"], welcome["token"]
        return welcome

    def act(self, action, version: int, id: int | None = None) -> None:
        msg = {"t": "action", "version": version, "action": action.to_data()}
        if id is not None:
            msg["id"] = id
        self.send(msg)

    async def close(self) -> None:
        self.writer.close()
        with contextlib.suppress(ConnectionError, OSError):
            await self.writer.wait_closed()


class Recorder:
    """A host ``tap``: every frame sent, with the host clock's time."""

    def __init__(self) -> None:
        self.frames: list[tuple[Any, dict, bytes]] = []
        self.host: Host | None = None

    def __call__(self, conn, msg, frame) -> None:
        self.frames.append((conn, msg, frame))

    def types(self) -> Counter:
        return Counter(m["t"] for _, m, _ in self.frames)


async def start_host(
    clock: ManualClock | None = None, tap: Callable | None = None, **kw
) -> tuple[Host, ManualClock]:
    clock = clock or ManualClock()
    kw.setdefault("code", CODE)
    kw.setdefault("timing", Timing())
    host = Host(config_for_tests(**kw), clock=clock, tap=tap)
    await host.start()
    return host, clock


async def seat_peers(host: Host, n: int) -> list[Peer]:
    peers = []
    for i in range(n):
        p = await Peer.connect(host.port)
        await p.hello(f"P{i}")
        peers.append(p)
    return peers


def scenario_setup(
    hands: list[list[str]],
    placards: dict[str, int],
    marker: int | None = 0,
    first_player: int = 0,
) -> Setup:
    """An explicit deal: these hands, these placards (clan key -> seat), the rest as deck."""
    owners = [POOL] * 6
    for clan, seat in placards.items():
        owners[clan_from_key(clan)] = seat
    cards = [tuple(card_from_key(c) for c in h) for h in hands]
    used = Counter(c for h in cards for c in h)
    deck = []
    for kind in Card:
        deck.extend([kind] * (DECK_COUNTS[kind] - used[kind]))
    random.Random(7).shuffle(deck)
    return Setup(
        placards=tuple(owners),
        hands=tuple(cards),
        deck=tuple(deck),
        first_player=first_player,
        marker=marker,
    )


def random_move(st, bots, rng: random.Random):
    """The next move of a table of random bots, as game.table.simulate's real-time driver picks it:
    a seat asked in a window answers; otherwise the first seat (in a shuffled order) with a
    move takes it; if nobody moves, the host's clock does (TimeUp, or the default action)."""
    waiting = waiting_for(st)
    if st.window is not None and waiting:
        seat = rng.choice(waiting)
        return bots[seat].choose(view(st, seat), legal_actions(st, seat).moves(), True)
    seats = list(range(st.players))
    rng.shuffle(seats)
    for seat in seats:
        legal = legal_actions(st, seat).moves()
        if legal:
            action = bots[seat].choose(view(st, seat), legal, seat in waiting)
            if action is not None:
                return action
    if st.negotiation is not None and not st.negotiation.time_up:
        return TimeUp(HOST)
    return default_action(st, waiting[0])


def play_random(host: Host, n: int, seed: int) -> None:
    """Apply up to `n` random actions through the host (as if every seat were a bot),
    stopping at game over."""
    st = host.state
    bots = [make_bot("random", s, seed) for s in range(st.players)]
    rng = random.Random(seed)
    for _ in range(n):
        if st.phase is Phase.GAME_OVER:
            return
        action = random_move(st, bots, rng)
        assert host.live.master.submit(action), action


def finish_game(host: Host, seed: int = 3, max_actions: int = 20000) -> None:
    """Play the host's game to its end with random decisions applied through the host,
    like game.table.simulate's real-time driver."""
    play_random(host, max_actions, seed)
    if host.state.phase is not Phase.GAME_OVER:
        raise AssertionError("game did not end")


#: Placards of the three-seat travel scenario: Mei C S, Ann W D, Bo G L.
TRAVEL_PLACARDS = {"red": 0, "blue": 0, "yellow": 1, "magenta": 1, "orange": 2, "green": 2}


def travel_setup() -> Setup:
    """Mei holds a Travel card for Ann's W placard; the others hold Recruitment and Boss."""
    hands = [
        ["travel_yellow", "clan_red", "recruit"],
        ["recruit", "recruit", "boss"],
        ["recruit", "clan_green", "boss"],
    ]
    return scenario_setup(hands, TRAVEL_PLACARDS, marker=0, first_player=0)
