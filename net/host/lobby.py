"""The table as everybody sees it: who sits where (the ``seats`` frame to every connection,
the free seats in the LAN announcement, the seats file beside the autosave) and the seats'
comings and goings: a connection that left, a grace period that ran out, a bot taking a
seat over.

The host owns a ``Lobby`` and calls it one way; the lobby reads the game through the
host's ``LiveGame`` (started, over, the start countdown) and tells it when the bots must
plan again (``LiveGame.schedule``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from game.rules import WindowMode
from net.discovery.announcer import Announcement
from net.discovery.records import TablePace
from net.host.config import HostConfig
from net.host.connections import TokenBucket
from net.host.fanout import FanOut
from net.host.live_game import LiveGame
from net.host.saved_table import SavedTable
from net.host.seats import SeatState, SeatTable

if TYPE_CHECKING:
    from net.host.connections import Connection

log = logging.getLogger(__name__)

#: ``seats`` frames are rate-limited by a token bucket: a change goes out at once while
#: the bucket holds a token (SEATS_BURST of them, one more every 1 / SEATS_RATE s); when it
#: is empty the change waits for the next token and goes out with whatever else changed
#: meanwhile. So a table where a few people come and go sees every change at once, and
#: spectators or phones churning get at most SEATS_RATE frames a second (docs/PROTOCOL.md
#: §4); a connection that joins is told the seats at once, on its own.
SEATS_BURST = 8
SEATS_RATE = 4.0


class Lobby:
    def __init__(
        self,
        config: HostConfig,
        *,
        seat_table: SeatTable,
        live: LiveGame,
        fanout: FanOut,
        saved: SavedTable,
        announcement: Announcement,
        conns: Callable[[], set[Connection]],
        identity: Callable[[], tuple[str, str]],
        closing: Callable[[], bool],
        spawn: Callable,
    ) -> None:
        """``identity()``: the room code and the table's name; ``closing()``: the host is
        closing (nothing more is told)."""
        self.config = config
        self.seat_table = seat_table
        self.live = live
        self.fanout = fanout
        self.saved = saved
        self.announcement = announcement
        self._conns = conns
        self._identity = identity
        self._closing = closing
        self._spawn = spawn
        self._seats_bucket: TokenBucket | None = None  # on the loop's clock, once running
        self._seats_due: asyncio.TimerHandle | None = None

    def pace(self) -> TablePace:
        """What the lobby shows of this table's windows (a resumed game keeps its mode)."""
        game = self.live.game
        mode = game.state.settings.window_mode if game else self.config.window_mode
        return TablePace(WindowMode(mode).value, max(1, round(self.config.timing.window)))

    def seats_free(self) -> int:
        return 0 if self.live.over else self.seat_table.free_count()

    def seats_data(self) -> dict:
        live = self.live
        now = live.clock.now()
        starter = self.seat_table.starter()
        start_ms = None
        if live.start_deadline is not None and not live.started:
            start_ms = max(0, int((live.start_deadline - now) * 1000))
        return {
            "t": "seats",
            "started": live.started,
            "over": live.over,
            "seats": self.seat_table.seats_data(now, live.started),
            "starter": None if starter is None else starter.index,
            "start_ms": start_ms,
            "spectators": sum(1 for c in self._conns() if c.role == "spectator"),
        }

    def broadcast(self, joined: Connection | None = None) -> None:
        """The seats to every connection that joined, and the free seats to the LAN: now, or
        when the rate limit (``SEATS_BURST``, ``SEATS_RATE``) has a token again.
        ``joined`` (a connection just welcomed) is told at once either way."""
        if self._seats_due is None:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:  # no loop (a test driving the lobby by hand): at once
                self._send_seats()
                return
            now = loop.time()
            bucket = self._seats_bucket
            if bucket is None:
                bucket = self._seats_bucket = TokenBucket(SEATS_BURST, SEATS_RATE, SEATS_BURST, now)
            if bucket.take(now):
                self._send_seats()
                return
            wait = (1.0 - bucket.tokens) / SEATS_RATE
            self._seats_due = loop.call_later(wait, self._send_due)
        # a frame is due, and will carry this change
        if joined is not None:
            self.fanout.to_all((joined,), self.seats_data())

    def _send_due(self) -> None:
        """The frame that waited for a token: it takes that token and goes out."""
        self._seats_due = None
        self._seats_bucket.take(asyncio.get_running_loop().time())
        self._send_seats()

    def _send_seats(self) -> None:
        if self._closing():
            return
        self.fanout.to_all(self._conns(), self.seats_data())
        update = self.announcement.update(self.seats_free())
        if update is not None:
            self._spawn(update)

    def write_sidecar(self) -> None:
        code, name = self._identity()
        self.saved.write_seats(code, name)

    def make_bot(self, seat: SeatState) -> None:
        self.seat_table.make_bot(seat, self.live.game)

    def start_grace(self, seat: SeatState) -> None:
        timing = self.config.timing
        self.seat_table.start_grace(seat, self.live.clock, timing.grace, self._grace_over)

    def _grace_over(self, seat: SeatState) -> None:
        """Nobody came back in time: a waiting table frees the seat, a game gives it a bot."""
        if not self.live.started:
            self.free_seat(seat)
        else:
            self.make_bot(seat)
            log.info("seat %d: a bot plays until its player rejoins", seat.index)
        self.broadcast()
        self.live.schedule()

    def free_seat(self, seat: SeatState) -> None:
        self.seat_table.free(seat)
        self.write_sidecar()

    def conn_ended(self, conn: Connection) -> None:
        """A connection left (``Connections.on_drop``): its seat waits for it, or a bot or
        a newcomer takes it."""
        if conn.role == "spectator":
            if not self._closing():
                self.broadcast()
            return
        if conn.seat is None:
            return
        seat = self.seat_table.seats[conn.seat]
        if seat.conn is not conn or self._closing():
            return
        seat.conn = None
        self.fanout.forget(seat.index)
        silent, seat.silent = seat.silent, False
        if conn.left:
            if not self.live.started:
                self.free_seat(seat)
            else:
                self.make_bot(seat)
                self.live.schedule()
        elif not silent:
            self.start_grace(seat)
        # silent already: its grace runs on from when it fell silent, or a bot plays it
        self.broadcast()

    def conn_silent(self, conn: Connection) -> bool:
        """A seated connection stopped answering (``Connections.on_silent``): during a
        game its seat is away for the grace period, then a bot plays it, while the
        connection stays open; it takes the seat back with its next byte. False: not
        during a game (asked again later: the game may start meanwhile)."""
        seat = self._held(conn)
        if seat is None or not self.live.started or self.live.over:
            return False
        seat.silent = True
        log.info("seat %d is silent: away", seat.index)
        self.start_grace(seat)
        self.broadcast()
        return True

    def conn_heard(self, conn: Connection) -> None:
        """A silent connection spoke again (``Connections.on_heard``): the seat is its
        player's at once (a bot standing in stops)."""
        seat = self._held(conn)
        if seat is None or not seat.silent:
            return
        seat.silent = False
        if seat.grace is not None:
            seat.grace.cancel()
            seat.grace = None
            seat.grace_until = None
        log.info("seat %d is back", seat.index)
        self.broadcast()
        self.live.schedule()

    def _held(self, conn: Connection) -> SeatState | None:
        """The seat ``conn`` holds now (None: a spectator, or a connection replaced)."""
        if conn.role != "player" or conn.seat is None or self._closing():
            return None
        seat = self.seat_table.seats[conn.seat]
        return seat if seat.conn is conn else None
