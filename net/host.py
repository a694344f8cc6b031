"""The LAN host: an asyncio TCP server and the only authority over the game.

    host = Host(HostConfig(seats=4, bots=["random"], code="ABCD"))
    await host.start()                  # listening; announced on the LAN
    await host.finished.wait()          # the game is over
    await host.close()

Every incoming action is checked, in order: the message shape, the sender's seat and token
(the connection must hold the seat), the game not over, the action in ``legal_actions`` for
that seat, the client's state version current (a stale action gets an ``error`` and a fresh
``snapshot``). It is then applied through the engine and every connection gets an
``update``: its own seat's redacted events, the new version, the top-level keys of its view
that changed and a short hash of its whole view; spectators get the public view.

Real-time reaction windows, "going once, going twice", the negotiation clock and the optional
turn clock run on the host's ``clock`` through ``game.referee``; bots fill empty seats and stand in
for players who dropped, until they rejoin with their seat's token. Every applied action is
written to the autosave's journal before any frame about it is sent (``net.journal``), so
``HostConfig.resume`` restarts a killed host at the last action anyone saw.

Every frame the host sends goes through ``Host._send`` (and ``protocol.encode``); ``tap``
sees them all, which is how the tests audit what leaves the host.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import hmac
import json
import logging
import random
import secrets
import threading
import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from game.bots import make_bot
from game.bots.base import Bot
from game.bots.names import bot_name
from game.clock import Clock, LoopClock, Timer
from game.referee import Hooks, Referee, Timing, listens
from game.rules import (
    Action,
    ActionFormatError,
    Game,
    IllegalAction,
    Phase,
    SaveError,
    Settings,
    Setup,
    Variant,
    WindowMode,
    action_from_data,
    legal_actions,
    opening_events,
)
from game.rules.engine import explain_illegal
from game.rules.events import (
    Event,
)
from game.rules.view import SECTIONS as _SECTIONS
from game.rules.view import events_for
from game.rules.view import hand_data as _hand_data
from game.simulate import GameResult, result_of

from . import protocol as P
from .discovery import TableAnnouncer, clean_name
from .journal import Autosaver, atomic_write, load_game

log = logging.getLogger(__name__)

SIDECAR_FORMAT = "imtheboss-lan-seats"
DEFAULT_TABLE_NAME = "I'm the Boss! table"
#: Events kept for the log of a seat that joins or rejoins a running game (hello.history):
#: the newest this many, each redacted for the receiving seat exactly as it was live.
HISTORY_EVENTS = 60
#: View sections that depend on who looks (with "hand", only in a seat's own view).
PER_SEAT_SECTIONS = frozenset({"seat", "players"})


def shared_sections(state) -> dict | None:
    """The view sections every audience sees alike, built once."""
    return {k: build(state, None) for k, build in _SECTIONS.items() if k not in PER_SEAT_SECTIONS}


def compose_view(shared: dict | None, state, seat: int | None) -> dict:
    """``view(state, seat)`` from the shared sections plus the seat's own ones."""
    out = {k: shared[k] if k in shared else build(state, seat) for k, build in _SECTIONS.items()}
    if seat is not None and 0 <= seat < state.players:
        out["hand"] = _hand_data(state.hands[seat])
    return out


class HostError(RuntimeError):
    """The host cannot start (bad resume file, port in use, bad settings)."""


@dataclass
class TokenBucket:
    """Up to `capacity` tokens, refilled at `rate` per second: the host's rate limits
    (messages per connection, wrong room codes per address)."""

    capacity: float
    rate: float
    tokens: float
    at: float

    def refill(self, now: float) -> float:
        if self.rate == float("inf"):  # no limit (avoids inf * 0 when no time has passed)
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


@dataclass
class HostConfig:
    seats: int = 4
    bots: list[str] = field(default_factory=lambda: ["random"])  # per seat, cycled
    code: str | None = None  # 4 letters; None: random
    name: str | None = None  # the table's name in the lobby (None: a default, or the resumed one)
    bind: str = "0.0.0.0"
    port: int = 0
    seed: int | None = None  # None: a secret random seed
    variants: frozenset[Variant] = frozenset()
    short_game: bool = False
    negotiation_limit: int = 60
    hidden_money: bool = True
    #: real time: every window asks everyone at once; ask-around: one player after the
    #: other, each with the window's length to answer (and the floor goes round)
    window_mode: WindowMode = WindowMode.REAL_TIME
    setup: Setup | None = None  # scenarios (tests)
    timing: Timing = field(default_factory=Timing)
    limits: Limits = field(default_factory=Limits)
    autosave: Path | None = None  # None: no autosave
    resume: Path | None = None  # a save to resume (autosaves go back to it)
    #: "batch": each action's journal line reaches the OS before its frames are sent and
    #: the disk right after (a killed host loses nothing; a power cut the last moments);
    #: "always": fdatasync before the frames (also survives a power cut; ~ms per action);
    #: "none": no fsync at all (tests, benchmarks).
    autosave_sync: str = "batch"
    compact_every: int = 256  # journal records between two rewrites of the whole save
    announce: bool = True  # zeroconf (never when bound to loopback)
    announce_addresses: list[str] | None = None


# --------------------------------------------------------------------------- helpers


def sidecar_path(save: Path) -> Path:
    """Where the seats' token digests live next to a save: ``<save>.seats.json``."""
    return save.with_name(save.name + ".seats.json")


class Connection:
    """One TCP connection (a player, a spectator, or someone still saying hello)."""

    _ids = iter(range(1, 1 << 62))

    def __init__(
        self, writer: asyncio.StreamWriter, now: float, burst: float, rate: float
    ) -> None:
        self.id = next(Connection._ids)
        self.writer = writer
        self.peer = writer.get_extra_info("peername")
        self.role: str | None = None  # None until a hello is accepted
        self.seat: int | None = None
        self.synced = False  # has a snapshot of the current game
        self.wants_legal = False  # hello asked for the seat's legal actions in every update
        self.wants_history = False  # hello asked for the recent events in its first snapshot
        self.is_bot = False  # hello says a program plays this seat: it never holds the start
        self.closed = False
        self.lingering = False  # closed for output, still read (and discarded) for a moment
        self.left = False  # said bye
        self.bad_codes = 0
        self.bucket = TokenBucket(burst, rate, burst, now)  # messages
        self.dropped = 0
        self.last_rate_error = -1e18
        self.opened = time.monotonic()

    @property
    def audience(self) -> int | None:
        return self.seat if self.role == "player" else None

    def __repr__(self) -> str:
        return f"<conn {self.id} {self.role} seat={self.seat}>"


@dataclass(eq=False)
class SeatState:
    index: int
    bot_kind: str
    name: str | None = None  # the human's name
    token_digest: str | None = None  # None: no human has claimed the seat
    conn: Connection | None = None
    grace: Timer | None = None
    grace_until: float | None = None
    bot: Bot | None = None
    joined: int = 0  # join order (the first seated human may start the game)
    remote_bot: bool = False  # its connection said hello as a bot (never the starter)

    @property
    def status(self) -> str:
        if self.conn is not None:
            return "human"
        if self.token_digest is None:
            return "open"
        if self.grace is not None and not self.grace.cancelled:
            return "away"
        return "bot"


# --------------------------------------------------------------------------- host


class Host:
    def __init__(
        self,
        config: HostConfig,
        *,
        clock: Clock | None = None,
        tap: Callable[[Connection, dict, bytes], None] | None = None,
    ) -> None:
        self.config = config
        self.timing = config.timing
        self.limits = config.limits
        self.clock = clock
        self.tap = tap
        if not 2 <= config.seats <= 6:
            raise HostError(f"seats must be 2..6, not {config.seats}")
        if not config.bots:
            raise HostError("at least one bot kind")
        code = P.normalize_code(config.code) if config.code else P.random_code()
        if code is None:
            raise HostError(f"room code must be {P.CODE_LENGTH} letters A-Z, not {config.code!r}")
        self.code = code
        self.name = clean_name(config.name or "")[:40] or DEFAULT_TABLE_NAME
        self.seats = [SeatState(i, config.bots[i % len(config.bots)]) for i in range(config.seats)]
        self.game: Game | None = None
        self.result: GameResult | None = None
        self.conns: set[Connection] = set()
        self.finished = asyncio.Event()
        self.stats: Counter = Counter()
        self.port: int | None = None
        self._server: asyncio.AbstractServer | None = None
        self._announcer: TableAnnouncer | None = None
        self._autosave: Autosaver | None = None
        self.resume_report = None  # what the journal gave back (a resumed host)
        self._views: dict[int | None, tuple[int, dict, str, P.ViewHasher]] = {}
        self._shared: tuple[int, dict | None] | None = None
        self._rng = random.Random(secrets.randbits(64))
        self._bot_seed = secrets.randbits(32)
        self._join_counter = 0
        self._code_buckets: dict[str, TokenBucket] = {}  # remote address -> wrong codes left
        self._lingering = 0
        self._meta_at: dict[int, float] = {}  # seat -> when its last preference was applied
        self._trimmed_at = (time.monotonic(), 0)  # (when, bytes_in) of the last memory trim
        self._trim_pending = False
        self._started_at = 0.0
        self._closing = False
        self._tasks: set[asyncio.Task] = set()
        # timers
        self._start_timer: Timer | None = None
        self._start_deadline: float | None = None
        # the game's clocks and bots (game.referee); its clock is set in start() if None
        self.referee = Referee(
            lambda: self.game.state,
            self.timing,
            clock,
            Hooks(
                apply=self._apply,
                bots=lambda: {s.index: s.bot for s in self.seats if s.bot is not None},
                plays=self._is_bot,
                people=self._people_seated,
                think=self._think,
                active=lambda: self.started and not self._closing,
                on_stage=self._broadcast_timers,
                on_phrase=self._say_phrase,
            ),
            rng=self._rng,
            stats=self.stats,
        )
        self._timers_sent = -1
        self._announced_free: int | None = None
        self._history: deque[tuple[int, Event]] = deque(maxlen=HISTORY_EVENTS)

    # ------------------------------------------------------------------ lifecycle

    @property
    def started(self) -> bool:
        return self.game is not None

    @property
    def over(self) -> bool:
        return self.game is not None and self.game.state.phase is Phase.GAME_OVER

    @property
    def state(self):
        return self.game.state

    async def start(self) -> None:
        """Listen (and announce). A resumed game is running from here on."""
        loop = asyncio.get_running_loop()
        if self.clock is None:
            self.clock = LoopClock(loop)
            self.referee.clock = self.clock
        if self.config.resume is not None:
            self._load_resume(Path(self.config.resume))
        try:
            self._server = await asyncio.start_server(
                self._on_client,
                self.config.bind,
                self.config.port,
                reuse_address=True,
                limit=self.limits.read_chunk,
            )
        except OSError as exc:
            raise HostError(
                f"cannot listen on {self.config.bind}:{self.config.port}: {exc}"
            ) from None
        self.port = self._server.sockets[0].getsockname()[1]
        if self._announce_wanted():
            await self._start_announcer()
        if self.game is not None:
            self._after_resume()
        elif self.timing.start_after is not None:
            self._start_deadline = self.clock.now() + self.timing.start_after
            self._start_timer = self.clock.call_at(self._start_deadline, self._start_timeout)

    def _announce_wanted(self) -> bool:
        if not self.config.announce:
            return False
        with contextlib.suppress(ValueError):
            import ipaddress

            if ipaddress.ip_address(self.config.bind).is_loopback:
                return False
        return True

    async def _start_announcer(self) -> None:
        bind = self.config.bind
        interfaces = None if bind in ("0.0.0.0", "") else [bind]
        try:
            self._announcer = TableAnnouncer(
                self.name,
                self.port,
                protocol_version=P.PROTOCOL_VERSION,
                seats_free=self._seats_free(),
                code_required=True,
                interfaces=interfaces,
                addresses=self.config.announce_addresses,
            )
            await self._announcer.start()
            self._announced_free = self._seats_free()
        except Exception as exc:  # discovery is a convenience: typed addresses still work
            log.warning("LAN announcement unavailable: %s", exc)
            self._announcer = None

    async def close(self, reason: str = "shutdown") -> None:
        """Say bye to everyone, stop listening, flush the autosave. Idempotent."""
        if self._closing:
            return
        self._closing = True
        self._cancel_all_timers()
        if self._start_timer:
            self._start_timer.cancel()
        for conn in list(self.conns):
            self._send(conn, {"t": "bye", "reason": reason})
            self._close_conn(conn, linger=False)
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 2)
        if self._announcer is not None:
            with contextlib.suppress(Exception):
                await self._announcer.close()
        for task in list(self._tasks):
            task.cancel()
        if self._autosave is not None:
            await self._autosave.flush()
            self._autosave.close()

    def _new_autosaver(self) -> None:
        """A full save of the game now and a fresh journal beside it."""
        if self._autosave is not None:
            self._autosave.close()
        cfg = self.config
        self._autosave = Autosaver(
            Path(cfg.autosave), self.game, compact_every=cfg.compact_every, sync=cfg.autosave_sync
        )
        self._autosave.start()

    def _spawn(self, coro) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ------------------------------------------------------------------ resume

    def _load_resume(self, path: Path) -> None:
        try:
            game, report = load_game(path)
        except SaveError as exc:
            raise HostError(str(exc)) from None
        self.resume_report = report
        if report.replayed or report.problem or report.ignored:
            log.warning(
                "resumed %s: %d saved actions, %d from the journal%s",
                path,
                report.saved,
                report.replayed,
                f"; dropped {report.dropped_lines} line(s): {report.problem}"
                if report.problem
                else (f"; journal ignored: {report.ignored}" if report.ignored else ""),
            )
        if game.state.players != len(self.seats):
            self.seats = [
                SeatState(i, self.config.bots[i % len(self.config.bots)])
                for i in range(game.state.players)
            ]
        side = sidecar_path(path)
        if side.exists():
            try:
                data = json.loads(side.read_text(encoding="utf-8"))
                if data.get("format") != SIDECAR_FORMAT or len(data["seats"]) != len(self.seats):
                    raise ValueError("not a seats file for this game")
                if self.config.code is None and P.normalize_code(data.get("code")):
                    self.code = P.normalize_code(data["code"])
                if isinstance(data.get("name"), str) and self.config.name is None:
                    self.name = clean_name(data["name"])[:40] or self.name
                for seat, d in zip(self.seats, data["seats"], strict=True):
                    digest = d.get("token_sha256")
                    if isinstance(digest, str) and len(digest) == 64:
                        seat.token_digest = digest
                        seat.name = d.get("name") if isinstance(d.get("name"), str) else None
                        seat.joined = int(d.get("joined", 0))
                    if isinstance(d.get("bot"), str):
                        seat.bot_kind = d["bot"]
            except (OSError, ValueError, KeyError, TypeError) as exc:
                raise HostError(f"{side}: {exc}") from None
        else:
            log.warning("%s: no seats file; every seat is open to newcomers", side)
        self._join_counter = max((s.joined for s in self.seats), default=0)
        self.game = game
        self.config.autosave = path

    def _after_resume(self) -> None:
        """Every claimed seat waits for its token for the grace period; bots play the rest."""
        self._started_at = time.perf_counter()
        self._new_autosaver()
        self._rebuild_history()
        for seat in self.seats:
            if seat.token_digest is not None:
                self._start_grace(seat)
            else:
                self._make_bot(seat)
        if self.over:
            self._game_over()
        else:
            self._after_change([])
            self._schedule_bots()

    # ------------------------------------------------------------------ seats

    def _seats_free(self) -> int:
        if self.over:
            return 0
        return sum(1 for s in self.seats if s.status == "open")

    def _seats_data(self) -> dict:
        now = self.clock.now()
        seats = []
        for s in self.seats:
            d = {"seat": s.index, "name": s.name, "status": s.status, "bot": None}
            if self.started and s.status in ("open", "bot"):
                d["bot"] = s.bot_kind
            if s.status == "away" and s.grace_until is not None:
                d["grace_ms"] = max(0, int((s.grace_until - now) * 1000))
            seats.append(d)
        starter = self._starter()
        start_ms = None
        if self._start_deadline is not None and not self.started:
            start_ms = max(0, int((self._start_deadline - now) * 1000))
        return {
            "t": "seats",
            "started": self.started,
            "over": self.over,
            "seats": seats,
            "starter": None if starter is None else starter.index,
            "start_ms": start_ms,
            "spectators": sum(1 for c in self.conns if c.role == "spectator"),
        }

    def _starter(self) -> SeatState | None:
        """The first seated person still connected. A bot client never holds the start (a
        table of bots starts when it is full, or after ``start_after``)."""
        humans = [s for s in self.seats if s.conn is not None and not s.remote_bot]
        return min(humans, key=lambda s: s.joined) if humans else None

    def _broadcast_seats(self) -> None:
        msg = self._seats_data()
        frame = P.encode(msg)
        for conn in list(self.conns):
            if conn.role is not None:
                self._send(conn, msg, frame)
        self._update_announcer()

    def _update_announcer(self) -> None:
        if self._announcer is None or self._closing:
            return
        free = self._seats_free()
        if free != self._announced_free:
            self._announced_free = free
            self._spawn(self._announcer.update(seats_free=free))

    def _write_sidecar(self) -> None:
        path = self.config.autosave
        if path is None:
            return
        data = {
            "format": SIDECAR_FORMAT,
            "version": 1,
            "code": self.code,
            "name": self.name,
            "seats": [
                {
                    "token_sha256": s.token_digest,
                    "name": s.name,
                    "bot": s.bot_kind,
                    "joined": s.joined,
                }
                for s in self.seats
            ],
        }
        try:
            atomic_write(sidecar_path(Path(path)), json.dumps(data, indent=1))
        except OSError as exc:
            log.error("cannot write the seats file: %s", exc)

    def _seat_names(self) -> list[str]:
        """The game's names: each person's, and readable bot names nobody uses (Ada, Bruno…)."""
        taken = {s.name for s in self.seats if s.token_digest and s.name}
        names = []
        for s in self.seats:
            if s.token_digest:
                names.append(s.name)
            else:
                names.append(bot_name(s.index, taken))
                taken.add(names[-1])
        return names

    def _make_bot(self, seat: SeatState) -> None:
        if seat.bot is None:
            bot = make_bot(seat.bot_kind, seat.index, self._bot_seed + seat.index)
            if self.game is not None and listens(bot):
                self._replay_into(bot, seat.index)
            seat.bot = bot

    def _replay_into(self, bot: Bot, seat: int) -> None:
        """A bot with memory taking over mid-game hears the game so far (its seat's view)."""
        g = self.game
        try:
            fresh = Game(list(g.names), g.seed, g.settings, g.setup)
            bot.observe(events_for(opening_events(fresh.state), seat))
            for action in g.log:
                bot.observe(events_for(fresh.apply(action), seat))
        except Exception:
            log.exception("replaying the game into bot %d failed", seat)

    def _is_bot(self, seat: int) -> bool:
        s = self.seats[seat]
        return self.started and s.bot is not None and s.status in ("open", "bot")

    def _people_seated(self) -> bool:
        """A person (not a bot client) is connected at a seat: bots give them a fair start."""
        return any(s.conn is not None and not s.remote_bot for s in self.seats)

    def _start_grace(self, seat: SeatState) -> None:
        if seat.grace is not None:
            seat.grace.cancel()
        seat.grace_until = self.clock.now() + self.timing.grace
        seat.grace = self.clock.call_at(seat.grace_until, partial(self._grace_over, seat))

    def _grace_over(self, seat: SeatState) -> None:
        seat.grace_until = None
        if seat.conn is not None:
            return
        if not self.started:
            self._free_seat(seat)
        else:
            self._make_bot(seat)
            log.info("seat %d: a bot plays until its player rejoins", seat.index)
        self._broadcast_seats()
        if self.started and not self.over:
            self._schedule_bots()

    def _free_seat(self, seat: SeatState) -> None:
        seat.token_digest = None
        seat.name = None
        seat.conn = None
        if seat.grace is not None:
            seat.grace.cancel()
        seat.grace = None
        self._write_sidecar()

    # ------------------------------------------------------------------ connections

    async def _on_client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        conn = Connection(writer, self.clock.now(), self.limits.burst, self.limits.rate)
        if hasattr(writer.transport, "max_size"):  # the selector transports' recv size
            writer.transport.max_size = self.limits.read_chunk
        if not self._admit():
            self._send(conn, P.error("too_many_connections"))
            self._close_conn(conn)
            return
        self.conns.add(conn)
        self.stats["connections"] += 1
        decoder = P.FrameDecoder(self.limits.max_frame)
        loop = asyncio.get_running_loop()
        limits = self.limits
        hello_by = loop.time() + limits.handshake_timeout
        partial_since: float | None = None
        watchdog: asyncio.TimerHandle | None = None

        def expire(why: str) -> None:
            self._fatal(conn, P.error("timeout", why))

        def arm() -> None:
            # One timer per connection, moved after every read (cheaper than a wait_for
            # task per read): no hello in time, a message left half-sent (counted from its
            # first byte, so trickling bytes does not help), or silence.
            nonlocal watchdog
            if watchdog is not None:
                watchdog.cancel()
            if conn.role is None:
                when, why = hello_by, "no hello in time"
            else:
                when, why = loop.time() + limits.idle_timeout, "silent for too long"
            if partial_since is not None and partial_since + limits.partial_timeout < when:
                when, why = partial_since + limits.partial_timeout, "a message was left half-sent"
            watchdog = loop.call_at(when, expire, why)

        try:
            arm()
            while not conn.closed:
                data = await reader.read(min(limits.read_chunk, decoder.room()))
                if not data or conn.closed:
                    break
                self.stats["bytes_in"] += len(data)
                try:
                    for raw in decoder.feed(data):
                        self._on_frame(conn, raw)
                        if conn.closed:
                            break
                except P.ProtocolError as exc:
                    self._fatal(conn, P.error(exc.code, exc.message))
                    break
                except Exception:  # a bug: never let one message take the host down
                    log.exception("internal error on a message from %r", conn)
                    self.stats["internal_errors"] += 1
                    self._fatal(conn, P.error("internal_error"))
                    break
                if not decoder.buffered:
                    partial_since = None
                elif partial_since is None:
                    partial_since = loop.time()
                arm()
            if watchdog is not None:
                watchdog.cancel()
            while conn.lingering and await reader.read(1 << 16):
                pass  # discarded, until the client closes or the linger time is over
        except (ConnectionError, OSError):
            pass
        except asyncio.CancelledError:
            pass
        finally:
            if watchdog is not None:
                watchdog.cancel()
            # A reset's exception keeps this frame alive in a reference cycle (its
            # traceback -> this frame -> conn -> the stream reader -> the exception) until
            # the garbage collector's rare full pass: hold no buffers in it meanwhile.
            decoder = data = None
            self._drop(conn, linger=False)

    def _admit(self) -> bool:
        """Room for one more connection? When full, the oldest connection that has not said
        hello yet makes room: players (at most one per seat) and a capped number of
        spectators can never fill the host, so a seat's owner always gets back in."""
        if self._closing:
            return False
        if len(self.conns) < self.limits.max_connections:
            return True
        pending = [c for c in self.conns if c.role is None]
        if not pending:
            return False
        oldest = min(pending, key=lambda c: c.id)
        self.stats["evicted"] += 1
        self._fatal(oldest, P.error("too_many_connections", "the host is full: a newer one won"))
        self.conns.discard(oldest)
        return True

    def _code_allowed(self, conn: Connection) -> bool:
        """May this connection's address try a room code now? (Wrong codes cost a token.)"""
        bucket = self._code_buckets.get(self._addr(conn))
        return bucket is None or bucket.refill(self.clock.now()) >= 1.0

    def _wrong_code(self, conn: Connection) -> None:
        key = self._addr(conn)
        bucket = self._code_buckets.get(key)
        if bucket is None:
            if len(self._code_buckets) >= 4096:  # bounded: forget the oldest address
                self._code_buckets.pop(next(iter(self._code_buckets)))
            refill = self.limits.code_refill
            rate = 1.0 / refill if refill > 0 else float("inf")
            burst = self.limits.code_burst
            bucket = self._code_buckets[key] = TokenBucket(burst, rate, burst, self.clock.now())
        bucket.take(self.clock.now())  # only asked after _code_allowed: a token is there

    @staticmethod
    def _addr(conn: Connection) -> str:
        peer = conn.peer
        return str(peer[0]) if isinstance(peer, tuple) and peer else "?"

    def _close_conn(self, conn: Connection, linger: bool = True) -> None:
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
                conn.lingering = True
                self._lingering += 1
                asyncio.get_running_loop().call_later(
                    self.limits.linger, self._end_linger, conn, transport
                )
                return
        except Exception:  # pragma: no cover - a transport that cannot half-close
            pass
        with contextlib.suppress(Exception):
            conn.writer.close()

    def _end_linger(self, conn: Connection, transport) -> None:
        self._lingering -= 1
        conn.lingering = False
        with contextlib.suppress(Exception):
            transport.abort()

    def _fatal(self, conn: Connection, msg: dict) -> None:
        log.debug("closing %r (%s): %s", conn, conn.peer, msg["code"])
        self.stats["errors." + msg["code"]] += 1
        self._send(conn, msg)
        self._drop(conn)

    def _drop(self, conn: Connection, linger: bool = True) -> None:
        """A connection ended (EOF, error, bye, replaced, timeout)."""
        self._close_conn(conn, linger)
        if conn not in self.conns:
            return
        self.conns.discard(conn)
        self._maybe_trim()
        if conn.role == "spectator":
            if not self._closing:
                self._broadcast_seats()
            return
        if conn.seat is None:
            return
        seat = self.seats[conn.seat]
        if seat.conn is not conn or self._closing:
            return
        seat.conn = None
        self._views.pop(seat.index, None)
        if conn.left:
            if not self.started:
                self._free_seat(seat)
            else:
                self._make_bot(seat)
                if not self.over:
                    self._schedule_bots()
        else:
            self._start_grace(seat)
        self._broadcast_seats()

    def _maybe_trim(self) -> None:
        """Give memory freed by ended connections back to the system, now or at the end
        of the trim interval (so the last of a burst of drops is not left out)."""
        if self._trim_pending or self._closing:
            return
        if self.stats["bytes_in"] - self._trimmed_at[1] < self.limits.trim_after_bytes:
            return
        wait = self._trimmed_at[0] + self.limits.trim_interval - time.monotonic()
        if wait > 0:
            self._trim_pending = True
            asyncio.get_running_loop().call_later(wait, self._trim)
        else:
            self._trim()

    def _trim(self) -> None:
        self._trim_pending = False
        self._trimmed_at = (time.monotonic(), self.stats["bytes_in"])
        if release_free_memory():
            self.stats["memory_trims"] += 1

    def _send(self, conn: Connection, msg: dict, frame: bytes | None = None) -> None:
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
        if self.tap is not None:
            self.tap(conn, msg, frame)
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
            self._close_conn(conn)

    def _reply_error(
        self, conn: Connection, code: str, message: str | None = None, **extra
    ) -> None:
        msg = P.error(code, message, **extra)
        if P.ERRORS[code][0]:
            self._fatal(conn, msg)  # counts it
        else:
            self.stats["errors." + code] += 1
            self._send(conn, msg)

    def _rate_ok(self, conn: Connection) -> bool:
        now = self.clock.now()
        if conn.bucket.take(now):
            return True
        conn.dropped += 1
        self.stats["rate_limited"] += 1
        if conn.dropped > self.limits.max_dropped:
            self._fatal(conn, P.error("rate_limited", "flooding: connection closed"))
        elif now - conn.last_rate_error >= 1.0:
            conn.last_rate_error = now
            self._send(conn, P.error("rate_limited"))
        return False

    def _on_frame(self, conn: Connection, raw) -> None:
        self.stats["frames_in"] += 1
        if not self._rate_ok(conn):
            return
        try:
            msg = P.check_client_message(raw)
        except P.ProtocolError as exc:
            extra = {}
            if isinstance(raw, dict) and raw.get("t") == "action":
                rid = raw.get("id")
                if isinstance(rid, int) and not isinstance(rid, bool) and 0 <= rid < 2**31:
                    extra["id"] = rid
            self._reply_error(conn, exc.code, exc.message, **extra)
            return
        kind = msg["t"]
        if conn.role is None and kind not in ("hello", "ping"):
            self._reply_error(conn, "not_joined", f"send 'hello' before '{kind}'")
            return
        getattr(self, "_msg_" + kind)(conn, msg)

    # ------------------------------------------------------------------ messages

    def _msg_ping(self, conn: Connection, msg: dict) -> None:
        self._send(conn, {"t": "pong", "n": msg.get("n")})

    def _msg_hello(self, conn: Connection, msg: dict) -> None:
        if conn.role is not None:
            self._reply_error(conn, "already_joined")
            return
        if msg["v"] not in P.SUPPORTED_VERSIONS:
            supported = ", ".join(map(str, P.SUPPORTED_VERSIONS))
            self._reply_error(
                conn, "version", f"this host speaks protocol {supported}, not {msg['v']}"
            )
            return
        conn.wants_legal = bool(msg.get("legal"))
        conn.wants_history = bool(msg.get("history"))
        conn.is_bot = bool(msg.get("bot"))
        if msg["role"] == "spectator":
            watching = sum(1 for c in self.conns if c.role == "spectator")
            if watching >= self.limits.max_spectators:
                self._reply_error(conn, "too_many_connections", "too many spectators")
                return
            conn.role = "spectator"
            self._welcome(conn, None, None)
            return
        token = msg.get("token")
        if token:
            self._rejoin(conn, token)
            return
        if not self._code_allowed(conn):
            self._reply_error(
                conn, "too_many_attempts", "too many wrong room codes from this address; wait"
            )
            return
        if P.normalize_code(msg.get("code")) != self.code:
            conn.bad_codes += 1
            self._wrong_code(conn)
            if conn.bad_codes >= self.limits.max_code_attempts:
                self._reply_error(conn, "too_many_attempts")
            else:
                self._reply_error(
                    conn, "bad_code", "wrong room code (4 letters, shown on the host)"
                )
            return
        name = clean_name(msg.get("name") or "")
        if not 1 <= len(name) <= P.MAX_NAME:
            self._reply_error(conn, "bad_name", f"a name needs 1..{P.MAX_NAME} characters")
            return
        if self.over:
            self._reply_error(conn, "table_full", "the game is over")
            return
        free = [s for s in self.seats if s.status == "open"]
        if not free:
            self._reply_error(conn, "table_full")
            return
        seat = free[0]
        taken = {s.name for s in self.seats if s is not seat and s.name}
        base, n = name, 2
        while name in taken:
            suffix = f" ({n})"
            name = base[: P.MAX_NAME - len(suffix)] + suffix
            n += 1
        token = P.new_token()
        seat.token_digest = P.token_digest(token)
        seat.name = name
        seat.conn = conn
        seat.remote_bot = conn.is_bot
        self._join_counter += 1
        seat.joined = self._join_counter
        conn.role = "player"
        conn.seat = seat.index
        self._write_sidecar()
        log.info("%s took seat %d", name, seat.index)
        self._welcome(conn, seat.index, token)
        if not self.started and all(s.conn is not None for s in self.seats):
            self._start_game()

    def _rejoin(self, conn: Connection, token: str) -> None:
        digest = P.token_digest(token)
        seat = next(
            (
                s
                for s in self.seats
                if s.token_digest is not None and hmac.compare_digest(s.token_digest, digest)
            ),
            None,
        )
        if seat is None:
            self._reply_error(conn, "bad_token")
            return
        old = seat.conn
        seat.conn = conn
        seat.remote_bot = conn.is_bot
        if old is not None:
            self._send(old, P.error("replaced"))
            self._send(old, {"t": "bye", "reason": "replaced"})
            self._close_conn(old)
        if seat.grace is not None:
            seat.grace.cancel()
            seat.grace = None
            seat.grace_until = None
        conn.role = "player"
        conn.seat = seat.index
        self.stats["rejoins"] += 1
        log.info("seat %d rejoined", seat.index)
        self._welcome(conn, seat.index, token)

    def _welcome(self, conn: Connection, seat: int | None, token: str | None) -> None:
        table = {
            "name": self.name,
            "seats": len(self.seats),
            "code_required": True,
            "started": self.started,
        }
        self._send(
            conn,
            {
                "t": "welcome",
                "v": P.PROTOCOL_VERSION,
                "role": conn.role,
                "seat": seat,
                "token": token,
                "table": table,
            },
        )
        self._broadcast_seats()
        if self.started:
            self._send_snapshot(conn, history=conn.wants_history)

    def _msg_bye(self, conn: Connection, msg: dict) -> None:
        conn.left = True
        self._send(conn, {"t": "bye", "reason": "left"})
        self._drop(conn)

    def _msg_say(self, conn: Connection, msg: dict) -> None:
        if conn.role != "player" or conn.seat is None:
            self._reply_error(conn, "not_seated")
            return
        out = {"t": "said", "seat": conn.seat, "phrase": msg["phrase"]}
        frame = P.encode(out)
        for c in list(self.conns):
            if c.role is not None:
                self._send(c, out, frame)

    def _msg_sync(self, conn: Connection, msg: dict) -> None:
        if not self.started:
            self._reply_error(conn, "not_started")
            return
        self.stats["syncs"] += 1
        self._send_snapshot(conn)

    def _msg_start(self, conn: Connection, msg: dict) -> None:
        if conn.role != "player" or conn.seat is None or self.seats[conn.seat].conn is not conn:
            self._reply_error(conn, "not_seated")
            return
        if self.started and not self.over:
            self._reply_error(conn, "already_started")
            return
        starter = self._starter()
        if starter is None or starter.index != conn.seat:
            self._reply_error(conn, "start_denied")
            return
        if self.over:
            self._new_round()
        self._start_game()

    def _msg_action(self, conn: Connection, msg: dict) -> None:
        rid = msg.get("id")
        try:
            action = action_from_data(msg["action"])
        except ActionFormatError as exc:
            self._reply_error(conn, "bad_action", str(exc), id=rid)
            return
        if conn.role != "player" or conn.seat is None:
            self._reply_error(conn, "not_seated", id=rid)
            return
        if self.seats[conn.seat].conn is not conn:
            self._reply_error(conn, "replaced", id=rid)
            return
        if action.seat != conn.seat:
            self._reply_error(
                conn, "wrong_seat", f"you hold seat {conn.seat}, not {action.seat}", id=rid
            )
            return
        if not self.started:
            self._reply_error(conn, "not_started", id=rid)
            return
        st = self.state
        if st.phase is Phase.GAME_OVER:
            self._reply_error(conn, "game_over", id=rid)
            return
        if action not in legal_actions(st, action.seat):
            rule, message = explain_illegal(st, action)
            self._reply_error(conn, "illegal", message, id=rid, rule=rule[:80])
            return
        if action.meta:
            now = self.clock.now()
            last = self._meta_at.get(action.seat)
            if last is not None and now - last < self.limits.meta_interval:
                self._reply_error(
                    conn, "rate_limited", "one preference change a second at most", id=rid
                )
                return
        if msg["version"] != st.actions_taken:
            self.stats["stale"] += 1
            self._reply_error(
                conn,
                "stale",
                f"made on version {msg['version']}, the game is at {st.actions_taken}",
                id=rid,
                version=st.actions_taken,
            )
            self._send_snapshot(conn)
            return
        if action.meta:
            self._meta_at[action.seat] = self.clock.now()
        self._apply(action, ack_conn=conn, ack=rid)

    # ------------------------------------------------------------------ the game

    def _start_timeout(self) -> None:
        self._start_timer = None
        if not self.started and not self._closing:
            self._start_game()

    def _new_round(self) -> None:
        """After a game: keep the seated humans, free everyone else, clear the game."""
        self._cancel_all_timers()
        for seat in self.seats:
            seat.bot = None
            if seat.conn is None:
                self._free_seat(seat)
        self.game = None
        self.result = None
        self._history.clear()
        self.finished = asyncio.Event()
        self._views.clear()
        for conn in self.conns:
            conn.synced = False

    def _start_game(self) -> None:
        if self._start_timer is not None:
            self._start_timer.cancel()
            self._start_timer = None
        self._start_deadline = None
        cfg = self.config
        names = self._seat_names()
        settings = Settings(
            players=len(self.seats),
            variants=cfg.variants,
            short_game=cfg.short_game,
            hidden_money=cfg.hidden_money,
            window_mode=WindowMode(cfg.window_mode),
            negotiation_limit=cfg.negotiation_limit,
        )
        seed = cfg.seed if cfg.seed is not None else secrets.randbits(62)
        self.game = Game(names, seed, settings, cfg.setup)
        self._started_at = time.perf_counter()
        for seat in self.seats:
            if seat.status == "open":
                self._make_bot(seat)
        if cfg.autosave is not None:
            self._new_autosaver()
            self._write_sidecar()
        log.info("game started: %s", ", ".join(names))
        self._after_change([])
        opening = opening_events(self.state)
        self._history.clear()
        self._remember(opening, self.state.actions_taken)
        for conn in list(self.conns):
            if conn.role is not None:
                self._send_snapshot(conn, opening)
        self._broadcast_seats()
        self._schedule_bots()

    def _apply(
        self, action: Action, ack_conn: Connection | None = None, ack: int | None = None
    ) -> bool:
        """Apply one action through the engine and tell everyone. False if illegal."""
        if self.over or self._closing:
            return False
        try:
            events = self.game.apply(action)
        except IllegalAction as exc:  # the host's own timers and bots only, never a client
            log.error("host action %r refused: %s", action, exc)
            return False
        self.stats["actions"] += 1
        if self._autosave is not None:
            # In the journal (the OS has it) before any frame tells anyone about it: a host
            # killed from here on resumes with this action.
            self._autosave.add(action)
        self._remember(events, self.state.actions_taken)
        self._after_change(events)
        self._broadcast_update(events, ack_conn, ack)
        if self.over:
            self.referee.observe(events)
            self._game_over()
        else:
            self.referee.after_action(events)
        return True

    def _game_over(self) -> None:
        self._cancel_all_timers()
        if self.result is None:
            kinds = [s.bot_kind if s.token_digest is None else "human" for s in self.seats]
            self.result = result_of(self.game, time.perf_counter() - self._started_at, kinds)
            log.info("game over: winners %s, money %s", self.result.winners, self.result.money)
        self._broadcast_seats()
        self.finished.set()

    # ------------------------------------------------------------------ updates

    def _audiences(self) -> dict[int | None, list[Connection]]:
        out: dict[int | None, list[Connection]] = {}
        for conn in self.conns:
            if not conn.synced or conn.closed:
                continue
            if conn.role == "player" and (
                conn.seat is None or self.seats[conn.seat].conn is not conn
            ):
                continue
            out.setdefault(conn.audience, []).append(conn)
        return out

    def _shared_now(self) -> dict | None:
        st = self.state
        if self._shared is None or self._shared[0] != st.actions_taken:
            self._shared = (st.actions_taken, shared_sections(st))
        return self._shared[1]

    def _current_view(self, aud: int | None) -> tuple[int, dict, str, P.ViewHasher]:
        st = self.state
        cached = self._views.get(aud)
        if cached is None or cached[0] != st.actions_taken:
            v = compose_view(self._shared_now(), st, aud)
            hasher = P.ViewHasher()
            cached = (st.actions_taken, v, hasher(v), hasher)
            self._views[aud] = cached
        return cached

    def _send_snapshot(
        self, conn: Connection, events: list[Event] = (), history: bool = False
    ) -> None:
        version, v, h, _ = self._current_view(conn.audience)
        msg = {
            "t": "snapshot",
            "version": version,
            "hash": h,
            "view": v,
            "events": events_for(list(events), conn.audience),
            "timers": self._timers_data(),
        }
        if conn.wants_legal and conn.role == "player":
            msg["legal"] = legal_actions(self.state, conn.seat).to_data()
        frame = None
        if history:
            msg["history"] = self._history_data(conn.audience)
            frame = self._fit_history(msg)
        self.stats["snapshots"] += 1
        self._send(conn, msg, frame)
        conn.synced = True

    # ------------------------------------------------------------------ history

    def _remember(self, events: list[Event], version: int) -> None:
        """Keep the newest events (with the version they led to) for joining seats' logs."""
        self._history.extend((version, e) for e in events)

    def _rebuild_history(self) -> None:
        """A resumed game: the recent events come from replaying its actions."""
        self._history.clear()
        g = self.game
        try:
            fresh = Game(list(g.names), g.seed, g.settings, g.setup)
            self._remember(opening_events(fresh.state), 0)
            for action in g.log:
                self._remember(fresh.apply(action), fresh.state.actions_taken)
        except Exception:
            log.exception("rebuilding the recent events failed")
            self._history.clear()

    def _history_data(self, audience: int | None) -> list[dict]:
        """The recent events as update-like batches, redacted for ``audience`` exactly as the
        live ``update`` frames were (``events_for``)."""
        out: list[dict] = []
        group: list[Event] = []
        version = None
        for v, e in list(self._history) + [(None, None)]:
            if v != version and group:
                out.append({"version": version, "events": events_for(group, audience)})
                group = []
            version = v
            if e is not None:
                group.append(e)
        return out

    def _fit_history(self, msg: dict) -> bytes:
        """Encode a snapshot with history, dropping its oldest batches until the frame is
        within ``MAX_FRAME``."""
        while True:
            try:
                return P.encode(msg)
            except ValueError:  # over MAX_FRAME
                if not msg["history"]:
                    raise
            drop = max(1, len(msg["history"]) // 4)
            msg["history"] = msg["history"][drop:]
            self.stats["history_trimmed"] += 1

    def _broadcast_update(
        self, events: list[Event], ack_conn: Connection | None, ack: int | None
    ) -> None:
        st = self.state
        version = st.actions_taken
        timers = None
        if self.referee.serial != self._timers_sent:
            timers = self._timers_data()
            self._timers_sent = self.referee.serial
        audiences = self._audiences()
        for aud in list(self._views):
            if aud not in audiences:
                del self._views[aud]
        shared = self._shared_now() if audiences else None
        memo: dict = {}
        out: list[tuple[Connection, dict, bytes | None]] = []
        # Events only differ between audiences when one of them hides something per seat.
        private = any(type(e).for_seat is not Event.for_seat for e in events)
        public_events = None if private else events_for(events, None)
        for aud, conns in audiences.items():
            prev = self._views.get(aud)
            if prev is None or prev[0] != version - 1:
                for conn in conns:  # pragma: no cover - every audience is one version behind
                    self._send_snapshot(conn)
                continue
            new = compose_view(shared, st, aud)
            delta = P.view_delta(prev[1], new)
            hasher = prev[3]
            h = hasher(new, delta, memo)
            msg = {
                "t": "update",
                "version": version,
                "base": version - 1,
                "hash": h,
                "events": events_for(events, aud) if private else public_events,
                "delta": delta,
            }
            if timers is not None:
                msg["timers"] = timers
            self._views[aud] = (version, new, h, hasher)
            frame = P.encode(msg)
            for conn in conns:
                extra = {}
                if conn is ack_conn and ack is not None:
                    extra["ack"] = ack
                if conn.wants_legal and aud is not None:
                    extra["legal"] = legal_actions(st, aud).to_data()
                if extra:
                    own = {**msg, **extra}
                    out.append((conn, own, P.encode(own)))
                else:
                    out.append((conn, msg, frame))
        # Every frame is built before the first is written: waking one client does not
        # slow the others' frames down.
        for conn, msg, frame in out:
            self._send(conn, msg, frame)

    def _broadcast_timers(self) -> None:
        if not self.started:
            return
        msg = {"t": "timers", "timers": self._timers_data()}
        self._timers_sent = self.referee.serial
        frame = P.encode(msg)
        for conn in list(self.conns):
            if conn.synced:
                self._send(conn, msg, frame)

    # ------------------------------------------------------------------ timers

    def _timers_data(self) -> dict:
        return self.referee.timers_data()

    def _say_phrase(self, seat: int, phrase: str) -> None:
        """A bot's phrase, said to everybody like a player's `say`."""
        out = {"t": "said", "seat": seat, "phrase": phrase.removeprefix("phrase.")}
        frame = P.encode(out)
        for c in list(self.conns):
            if c.role is not None:
                self._send(c, out, frame)

    def _think(self, call: Callable, done: Callable) -> None:
        """A bot that needs a view thinks in a thread, so the host keeps serving."""

        async def think() -> None:
            action = None
            try:
                action = await asyncio.to_thread(call)
            finally:
                done(action)

        self._spawn(think())

    def _schedule_bots(self) -> None:
        if self.started and not self.over and not self._closing:
            self.referee.schedule()

    def _after_change(self, events: list[Event]) -> None:
        self.referee.clocks_after(events)

    def _cancel_all_timers(self) -> None:
        self.referee.cancel_all()


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


# --------------------------------------------------------------------------- thread


class HostThread:
    """A Host on its own asyncio loop in a daemon thread (for the pygame windows).

    ht = HostThread(HostConfig(...)); ht.start()     # returns once listening
    ht.port, ht.code, ht.address                      # show them; connect a Client
    ht.stop()
    """

    def __init__(self, config: HostConfig) -> None:
        self.config = config
        self.host: Host | None = None
        self.error: BaseException | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._ready = threading.Event()
        self._thread: threading.Thread | None = None
        self.finished = threading.Event()

    def start(self, timeout: float = 15.0) -> HostThread:
        self._thread = threading.Thread(target=self._run, name="lan-host", daemon=True)
        self._thread.start()
        self._ready.wait(timeout)
        if self.error is not None:
            raise self.error
        if self.host is None or self.host.port is None:
            raise HostError("the host did not start")
        return self

    def _run(self) -> None:
        try:
            asyncio.run(self._main())
        except BaseException as exc:  # pragma: no cover - reported through start()
            self.error = exc
        finally:
            self._ready.set()
            self.finished.set()

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        host = Host(self.config)
        try:
            await host.start()
        except BaseException as exc:
            self.error = exc
            self._ready.set()
            return
        self.host = host
        self._ready.set()
        await self._stop.wait()
        await host.close()

    @property
    def port(self) -> int | None:
        return None if self.host is None else self.host.port

    @property
    def code(self) -> str | None:
        return None if self.host is None else self.host.code

    def stop(self, timeout: float = 5.0) -> None:
        if self._loop is not None and self._stop is not None:
            with contextlib.suppress(RuntimeError):
                self._loop.call_soon_threadsafe(self._stop.set)
        if self._thread is not None:
            self._thread.join(timeout)


def config_for_tests(**kw) -> HostConfig:
    """A loopback host with instant bots and room for bots' message rates (tests, bench)."""
    timing = kw.pop("timing", None) or Timing(
        bot_answer=0.0, bot_delay=0.0, bot_tick=0.005, fair_start=0.0
    )
    limits = kw.pop("limits", None) or Limits(rate=1000.0, burst=1000.0)
    return HostConfig(bind="127.0.0.1", announce=False, timing=timing, limits=limits, **kw)


__all__ = [
    "Host",
    "HostConfig",
    "HostError",
    "HostThread",
    "Limits",
    "Timing",
    "Autosaver",
    "sidecar_path",
    "config_for_tests",
]
