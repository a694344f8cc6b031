"""The host's game, one round after another: starting one (when every seat is taken, when a
player starts it, or ``start_after`` seconds after the host started), resuming a saved one,
its end and result, and clearing it for a new round.

A running game is one ``game.table.master.Master`` with the journal as its storage and the
fan-out as its transport. Every action, a client's, a bot's or a time-up, goes through
``submit``: the engine, then the journal (``SavedTable.record``: the OS has the action
before any frame about it leaves, so a host killed from then on resumes with it), the
countdowns, then ``FanOut.publish``: one ``update`` per audience (with the countdowns when
they changed), then the recent events kept for joiners; when the game ended, the Master
says so (``_game_over``: the result). The bots' phrases and remarks and the "going twice"
stage are frames to every connection too. Bots that need a view think on
``asyncio.to_thread``.

It knows the connections only through ``conns()`` and calls the host only through
``on_seats`` (the seats changed: tell everybody) and ``write_seats`` (the seats file).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING

from game.rules import Game, Phase, Settings, WindowMode, opening_events
from game.rules.events import Event
from game.table.bot_schedule import SeatPlayers
from game.table.clock import Clock, Timer
from game.table.master import Master, Transport
from game.table.results import GameResult, result_of
from net.host.config import HostConfig
from net.host.fanout import FanOut
from net.host.saved_table import SavedTable
from net.host.seats import SeatTable

if TYPE_CHECKING:
    from net.host.connections import Connection

log = logging.getLogger(__name__)


class LiveGame:
    def __init__(
        self,
        config: HostConfig,
        *,
        seat_table: SeatTable,
        saved: SavedTable,
        fanout: FanOut,
        conns: Callable[[], set[Connection]],
        stats: Counter,
        rng,
        spawn: Callable,
        on_seats: Callable[[], None],
        write_seats: Callable[[], None],
    ) -> None:
        self.config = config
        self.seat_table = seat_table
        self.saved = saved
        self.fanout = fanout
        self.stats = stats
        self.clock: Clock | None = None  # the host's, set when it starts
        self.game: Game | None = None
        self.master: Master | None = None
        self.result: GameResult | None = None
        self.finished = asyncio.Event()
        self.started_at = 0.0
        self.start_deadline: float | None = None  # start_after: the game starts by then
        self._start_timer: Timer | None = None
        self._conns = conns
        self._rng = rng
        self._spawn = spawn
        self._on_seats = on_seats
        self._write_seats = write_seats

    @property
    def started(self) -> bool:
        return self.game is not None

    @property
    def over(self) -> bool:
        return self.game is not None and self.game.state.phase is Phase.GAME_OVER

    @property
    def state(self):
        return self.game.state

    def countdowns_data(self) -> dict:
        return self.master.countdowns_data()

    def schedule(self) -> None:
        """The seats changed: the bots' moments are planned again."""
        if self.started and not self.over:
            self.master.schedule()

    def send_snapshot(self, conn: Connection, events: list[Event] = (), history=False) -> None:
        self.fanout.send_snapshot(self.game.state, conn, events, history)

    # ------------------------------------------------------------------ one game after another

    def start_after(self, seconds: float) -> None:
        """Start the game ``seconds`` from now unless it started before (bots fill seats)."""
        self.start_deadline = self.clock.now() + seconds
        self._start_timer = self.clock.call_at(self.start_deadline, self._start_timeout)

    def _start_timeout(self) -> None:
        self._start_timer = None
        if not self.started:  # (a host that closes cancels the timer)
            self.begin()

    def load(self, game: Game) -> None:
        """A saved game to resume: it runs once ``run`` is called."""
        self.game = game
        self.master = self._master(game)

    def begin(self) -> None:
        """A new game with the seated players; bots take the open seats; everyone joined
        gets the opening snapshot, then the seats."""
        self.stop_start_timer()
        cfg = self.config
        names = self.seat_table.names()
        settings = Settings(
            players=len(self.seat_table.seats),
            variants=cfg.variants,
            short_game=cfg.short_game,
            hidden_money=cfg.hidden_money,
            window_mode=WindowMode(cfg.window_mode),
            negotiation_limit=cfg.negotiation_limit,
        )
        seed = cfg.seed if cfg.seed is not None else secrets.randbits(62)
        self.load(Game(names, seed, settings, cfg.setup))
        for seat in self.seat_table.bots_take_open_seats():
            self.seat_table.make_bot(seat, self.game)
        if cfg.autosave is not None:
            self.saved.restart(self.game)
            self._write_seats()
        log.info("game started: %s", ", ".join(names))
        self.master.start()
        opening = opening_events(self.game.state)
        self.fanout.history.clear()
        self.fanout.remember(opening, self.game.state.actions_taken)
        for conn in list(self._conns()):
            if conn.role is not None:
                self.send_snapshot(conn, opening)
        self._on_seats()

    def run(self) -> None:
        """A loaded game runs from where it is (a resumed one that had ended is over at
        once: the Master says so)."""
        self.started_at = time.perf_counter()
        self.master.start()

    def stop_start_timer(self) -> None:
        if self._start_timer is not None:
            self._start_timer.cancel()
            self._start_timer = None
        self.start_deadline = None

    def stop(self) -> None:
        """Nothing more happens (the host closes)."""
        self.stop_start_timer()
        if self.master is not None:
            self.master.stop()

    def clear(self) -> None:
        """After a game: no game, no result, no views; every connection resyncs."""
        self.master.stop()
        self.game = None
        self.master = None
        self.result = None
        self.fanout.reset()
        self.finished = asyncio.Event()
        for conn in self._conns():
            conn.synced = False

    def _game_over(self) -> None:
        self.master.stop()
        if self.result is None:
            kinds = [s.bot_kind if s.token_digest is None else "human" for s in self.seat_table.seats]
            seconds = time.perf_counter() - self.started_at
            self.result = result_of(self.game, seconds, kinds)
            log.info("game over: winners %s, money %s", self.result.winners, self.result.money)
        self._on_seats()
        self.finished.set()

    def _master(self, game: Game) -> Master:
        self.started_at = time.perf_counter()
        seat_table = self.seat_table
        return Master(
            game,
            self.config.timing,
            self.clock,
            SeatPlayers(bots=seat_table.bots, plays=seat_table.plays, people=seat_table.people_seated),
            Transport(
                publish=self.fanout.publish,
                over=self._game_over,
                stage=self._stage,
                phrase=self._phrase,
                remark=self._remark,
            ),
            rng=self._rng,
            record=self.saved.record,
            think=self._think,
            late_margin=self.config.late_margin,
            stats=self.stats,
        )

    # ------------------------------------------------------------------ the transport

    def _stage(self) -> None:
        """The countdowns changed between actions ("going twice"): ``timers`` to everyone."""
        msg = {"t": "timers", "timers": self.countdowns_data()}
        self.fanout.to_all(self._conns(), msg, synced=True)

    def _phrase(self, seat: int, phrase: str) -> None:
        """A bot's phrase, said to everybody like a player's `say`."""
        said = {"t": "said", "seat": seat, "phrase": phrase.removeprefix("phrase.")}
        self.fanout.to_all(self._conns(), said)

    def _remark(self, seat: int, remark, phrase: bool) -> None:
        """A bot Boss failing a deal says why to everybody's log (before the update)."""
        if remark.reason is not None and remark.action.type == "fail_deal":
            reason = remark.reason.removeprefix("reason.")
            self.fanout.to_all(self._conns(), {"t": "gave_up", "seat": seat, "reason": reason})

    def _think(self, call: Callable, done: Callable) -> None:
        """A bot that needs a view thinks in a thread, so the host keeps serving."""

        async def think() -> None:
            action = None
            try:
                action = await asyncio.to_thread(call)
            finally:
                done(action)

        self._spawn(think())
