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
written to the autosave's journal before any frame about it is sent (``net.host.journal``), so
``HostConfig.resume`` restarts a killed host at the last action anyone saw.

The host owns its collaborators and calls them one way: ``Connections`` (reading, the
watchdog, admission, rate limits, closing; ``net.host.connections``), ``Admission`` (what a
``hello`` lets in: version, room code, name; ``net.host.admission``), ``ActionCheck`` (what an
``action`` must pass; ``net.host.action_check``), ``SeatTable`` (seats, tokens, names, grace
periods, the seats file; ``net.host.seats``), ``SavedTable`` (the autosave, its journal and
resuming; ``net.host.saved_table``) and ``FanOut`` (views, updates, snapshots, the recent events;
``net.host.fanout``). ``net.host.thread.HostThread`` runs a Host in a thread. Every frame the host
sends goes through ``Connections.send`` (and ``protocol.encode``); ``HostHooks``
(``net.host.hooks``: the ``tap`` sees every frame) is how the tests and benchmarks audit what
leaves the host.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import ClassVar

from game.clock import Clock, LoopClock, Timer
from game.referee import Hooks, Referee
from game.rules import (
    Action,
    Game,
    IllegalAction,
    Phase,
    Settings,
    WindowMode,
    opening_events,
)
from game.rules.events import (
    Event,
)
from game.simulate import GameResult, result_of
from net import protocol as P
from net.discovery.announcer import Announcement, announce_wanted
from net.discovery.records import TablePace, clean_name
from net.host.action_check import ActionCheck, ActionRefusal
from net.host.admission import Admission, Admitted, Entry
from net.host.config import DEFAULT_TABLE_NAME, HostConfig, HostError
from net.host.connections import Connection, Connections
from net.host.fanout import FanOut
from net.host.hooks import HostHooks, Tap
from net.host.saved_table import SavedTable
from net.host.seats import SeatState, SeatTable

log = logging.getLogger(__name__)

# --------------------------------------------------------------------------- host


class Host:
    def __init__(
        self,
        config: HostConfig,
        *,
        clock: Clock | None = None,
        tap: Tap | None = None,
        hooks: HostHooks | None = None,
    ) -> None:
        self.config = config
        self.timing = config.timing
        self.limits = config.limits
        self.clock = clock
        self.hooks = hooks if hooks is not None else HostHooks()
        if tap is not None:
            self.hooks.tap = tap
        if not 2 <= config.seats <= 6:
            raise HostError(f"seats must be 2..6, not {config.seats}")
        if not config.bots:
            raise HostError("at least one bot kind")
        code = P.normalize_code(config.code) if config.code else P.random_code()
        if code is None:
            raise HostError(f"room code must be {P.CODE_LENGTH} letters A-Z, not {config.code!r}")
        self.code = code
        self.name = clean_name(config.name or "")[:40] or DEFAULT_TABLE_NAME
        self.seating = SeatTable(
            config.seats, config.bots, secrets.randbits(32), config.open_bot_seats
        )
        self.game: Game | None = None
        self.result: GameResult | None = None
        self.finished = asyncio.Event()
        self.stats: Counter = Counter()
        self.port: int | None = None
        self._server: asyncio.AbstractServer | None = None
        self.announcement = Announcement(config.bind, config.announce_addresses)
        self.saved = SavedTable(config, self.seating)  # the autosave and the seats file
        self._rng = random.Random(secrets.randbits(64))
        self._started_at = 0.0
        self._closing = False
        self._tasks: set[asyncio.Task] = set()
        # timers
        self._start_timer: Timer | None = None
        self._start_deadline: float | None = None
        self._timers_sent = -1
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
                on_remark=self._bot_remark,
            ),
            rng=self._rng,
            stats=self.stats,
        )
        self.connections = Connections(
            self.limits,
            self.stats,
            self.hooks,
            lambda: self.clock.now(),
            on_frame=self._on_frame,
            on_drop=self._conn_ended,
        )
        self.fanout = FanOut(self.connections, self.stats, self.hooks, lambda: self._timers_data())
        self.admission = Admission(self.connections, self.limits)
        self.action_check = ActionCheck(self.limits, self.stats)

    # ------------------------------------------------------------------ lifecycle

    @property
    def tap(self) -> Tap | None:
        return self.hooks.tap

    @tap.setter
    def tap(self, tap: Tap | None) -> None:
        self.hooks.tap = tap

    @property
    def conns(self) -> set[Connection]:
        return self.connections.conns

    @property
    def seats(self) -> list[SeatState]:
        return self.seating.seats

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
                self.connections.serve,
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
        if announce_wanted(self.config.announce, self.config.bind):
            await self.announcement.start(self.name, self.port, self._seats_free(), self._pace())
        if self.game is not None:
            self._after_resume()
        elif self.timing.start_after is not None:
            self._start_deadline = self.clock.now() + self.timing.start_after
            self._start_timer = self.clock.call_at(self._start_deadline, self._start_timeout)

    async def close(self, reason: str = "shutdown") -> None:
        """Say bye to everyone, stop listening, flush the autosave. Idempotent."""
        if self._closing:
            return
        self._closing = True
        self._cancel_all_timers()
        if self._start_timer:
            self._start_timer.cancel()
        self.connections.shutdown(reason)
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 2)
        await self.announcement.close()
        for task in list(self._tasks):
            task.cancel()
        await self.saved.close()

    def _spawn(self, coro) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ------------------------------------------------------------------ resume

    def _load_resume(self, path: Path) -> None:
        game, table = self.saved.load(path)
        if self.config.code is None and table.code:
            self.code = table.code
        if self.config.name is None and table.name:
            self.name = table.name
        self.game = game

    def _after_resume(self) -> None:
        """Every claimed seat waits for its token for the grace period; bots play the rest."""
        self._started_at = time.perf_counter()
        self.saved.restart(self.game)
        self.fanout.rebuild_history(self.game)
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

    def _pace(self) -> TablePace:
        """What the lobby shows of this table's windows (a resumed game keeps its mode)."""
        mode = self.game.state.settings.window_mode if self.game else self.config.window_mode
        return TablePace(WindowMode(mode).value, max(1, round(self.timing.window)))

    def _seats_free(self) -> int:
        return 0 if self.over else self.seating.free_count()

    def _seats_data(self) -> dict:
        now = self.clock.now()
        starter = self.seating.starter()
        start_ms = None
        if self._start_deadline is not None and not self.started:
            start_ms = max(0, int((self._start_deadline - now) * 1000))
        return {
            "t": "seats",
            "started": self.started,
            "over": self.over,
            "seats": self.seating.seats_data(now, self.started),
            "starter": None if starter is None else starter.index,
            "start_ms": start_ms,
            "spectators": sum(1 for c in self.conns if c.role == "spectator"),
        }

    def _broadcast_seats(self) -> None:
        self.fanout.to_all(self.conns, self._seats_data())
        self._update_announcer()

    def _update_announcer(self) -> None:
        if self._closing:
            return
        update = self.announcement.update(self._seats_free())
        if update is not None:
            self._spawn(update)

    def _write_sidecar(self) -> None:
        self.saved.write_seats(self.code, self.name)

    def _make_bot(self, seat: SeatState) -> None:
        self.seating.make_bot(seat, self.game)

    def _is_bot(self, seat: int) -> bool:
        return self.seating.is_bot(seat, self.started)

    def _start_grace(self, seat: SeatState) -> None:
        self.seating.start_grace(seat, self.clock, self.timing.grace, self._grace_over)

    def _grace_over(self, seat: SeatState) -> None:
        """Nobody came back in time: a waiting table frees the seat, a game gives it a bot."""
        if not self.started:
            self._free_seat(seat)
        else:
            self._make_bot(seat)
            log.info("seat %d: a bot plays until its player rejoins", seat.index)
        self._broadcast_seats()
        if self.started and not self.over:
            self._schedule_bots()

    def _free_seat(self, seat: SeatState) -> None:
        self.seating.free(seat)
        self._write_sidecar()

    # ------------------------------------------------------------------ connections

    def _conn_ended(self, conn: Connection) -> None:
        """A connection left (``Connections.on_drop``): its seat waits for it, or a bot or
        a newcomer takes it."""
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
        self.fanout.forget(seat.index)
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

    def _send(self, conn: Connection, msg: dict, frame: bytes | None = None) -> None:
        self.connections.send(conn, msg, frame)

    def _reply_error(
        self, conn: Connection, code: str, message: str | None = None, **extra
    ) -> None:
        self.connections.reply_error(conn, code, message, **extra)

    def _on_frame(self, conn: Connection, raw) -> None:
        self.stats["frames_in"] += 1
        if not self.connections.rate_ok(conn):
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
        handler = self.HANDLERS[kind]
        received = self.hooks.received
        if received is not None:
            received(conn, msg)
        handled = self.hooks.handled
        if handled is None:
            handler(self, conn, msg)
        else:
            began = time.perf_counter()
            handler(self, conn, msg)
            handled(conn, msg, time.perf_counter() - began)

    # ------------------------------------------------------------------ messages

    def _msg_ping(self, conn: Connection, msg: dict) -> None:
        self._send(conn, {"t": "pong", "n": msg.get("n")})

    def _msg_hello(self, conn: Connection, msg: dict) -> None:
        verdict = self.admission.check(conn, msg, code=self.code, over=self.over)
        if not isinstance(verdict, Admitted):
            self._reply_error(conn, verdict.code, verdict.message)
            return
        conn.wants_legal = bool(msg.get("legal"))
        conn.wants_history = bool(msg.get("history"))
        conn.is_bot = bool(msg.get("bot"))
        if verdict.entry is Entry.SPECTATOR:
            conn.role = "spectator"
            self._welcome(conn, None, None)
            return
        if verdict.entry is Entry.REJOIN:
            self._rejoin(conn, verdict.token)
            return
        claimed = self.seating.claim(conn, verdict.name)
        if claimed is None:
            self._refuse_seat(conn, "table_full")
            return
        seat, token = claimed
        name = seat.name
        conn.role = "player"
        conn.seat = seat.index
        self._write_sidecar()
        if seat.bot_from_start and self.started:
            log.info("%s took seat %d from its bot (bot seats are open to people)", name, seat.index)
        else:
            log.info("%s took seat %d", name, seat.index)
        self._welcome(conn, seat.index, token)
        if not self.started and self.seating.all_connected():
            self._start_game()

    def _rejoin(self, conn: Connection, token: str) -> None:
        seat = self.seating.by_token(token)
        if seat is None:
            self._refuse_seat(conn, "bad_token", "no seat has this token; ")
            return
        old = self.seating.take_back(seat, conn)
        if old is not None:
            self._send(old, P.error("replaced"))
            self._send(old, {"t": "bye", "reason": "replaced"})
            self.connections.close(old)
        conn.role = "player"
        conn.seat = seat.index
        self.stats["rejoins"] += 1
        log.info("seat %d rejoined", seat.index)
        self._welcome(conn, seat.index, token)

    def _refuse_seat(self, conn: Connection, code: str, why: str = "") -> None:
        """Refuse a seat, naming the seats a newcomer could take and those bots play."""
        words, open_, bots = self.seating.refusal(game_over=self.over)
        self._reply_error(conn, code, why + words, open_seats=open_, bot_seats=bots)

    def _welcome(self, conn: Connection, seat: int | None, token: str | None) -> None:
        table = {
            "name": self.name,
            "seats": len(self.seats),
            "code_required": True,
            "started": self.started,
            "hints": self.config.hints,
            "pace": self._pace().to_data(),
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
        self.connections.drop(conn)

    def _msg_say(self, conn: Connection, msg: dict) -> None:
        if conn.role != "player" or conn.seat is None:
            self._reply_error(conn, "not_seated")
            return
        self._broadcast({"t": "said", "seat": conn.seat, "phrase": msg["phrase"]})

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
        starter = self.seating.starter()
        if starter is None or starter.index != conn.seat:
            self._reply_error(conn, "start_denied")
            return
        if self.over:
            self._new_round()
        self._start_game()

    def _msg_action(self, conn: Connection, msg: dict) -> None:
        rid = msg.get("id")
        holds = conn.seat is not None and self.seats[conn.seat].conn is conn
        state = self.state if self.started else None
        verdict = self.action_check.check(
            conn, msg, holds_seat=holds, state=state, now=self.clock.now()
        )
        if isinstance(verdict, ActionRefusal):
            self._reply_error(conn, verdict.code, verdict.message, id=rid, **verdict.extra)
            if verdict.resync:
                self._send_snapshot(conn)
            return
        self._apply(verdict, ack_conn=conn, ack=rid)

    #: The handler of each kind of message a client sends (the kinds of P.CLIENT_MESSAGES).
    HANDLERS: ClassVar[dict[str, Callable[[Host, Connection, dict], None]]] = {
        "hello": _msg_hello,
        "action": _msg_action,
        "sync": _msg_sync,
        "start": _msg_start,
        "ping": _msg_ping,
        "say": _msg_say,
        "bye": _msg_bye,
    }

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
        self.fanout.reset()
        self.finished = asyncio.Event()
        for conn in self.conns:
            conn.synced = False

    def _start_game(self) -> None:
        if self._start_timer is not None:
            self._start_timer.cancel()
            self._start_timer = None
        self._start_deadline = None
        cfg = self.config
        names = self.seating.names()
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
        for seat in self.seating.bots_take_open_seats():
            self._make_bot(seat)
        if cfg.autosave is not None:
            self.saved.restart(self.game)
            self._write_sidecar()
        log.info("game started: %s", ", ".join(names))
        self._after_change([])
        opening = opening_events(self.state)
        self.fanout.history.clear()
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
        # In the journal (the OS has it) before any frame tells anyone about it: a host
        # killed from here on resumes with this action.
        self.saved.record(action)
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

    def _send_snapshot(
        self, conn: Connection, events: list[Event] = (), history: bool = False
    ) -> None:
        self.fanout.send_snapshot(self.state, conn, events, history)

    def _remember(self, events: list[Event], version: int) -> None:
        self.fanout.remember(events, version)

    def _broadcast_update(
        self, events: list[Event], ack_conn: Connection | None, ack: int | None
    ) -> None:
        timers = None
        if self.referee.serial != self._timers_sent:
            timers = self._timers_data()
            self._timers_sent = self.referee.serial
        audiences = self.fanout.audiences(self.conns, self.seats)
        self.fanout.broadcast_update(self.state, audiences, events, ack_conn, ack, timers)

    def _broadcast_timers(self) -> None:
        if not self.started:
            return
        msg = {"t": "timers", "timers": self._timers_data()}
        self._timers_sent = self.referee.serial
        self.fanout.to_all(self.conns, msg, synced=True)

    # ------------------------------------------------------------------ timers

    def _timers_data(self) -> dict:
        return self.referee.timers_data()

    def _people_seated(self) -> bool:
        """A person (not a bot client) is connected at a seat: bots give them a fair start."""
        return any(s.conn is not None and not s.remote_bot for s in self.seats)

    def _say_phrase(self, seat: int, phrase: str) -> None:
        """A bot's phrase, said to everybody like a player's `say`."""
        self._broadcast({"t": "said", "seat": seat, "phrase": phrase.removeprefix("phrase.")})

    def _broadcast(self, out: dict) -> None:
        """A host message to every connection that joined (players and spectators)."""
        self.fanout.to_all(self.conns, out)

    def _bot_remark(self, seat: int, remark, phrase: bool) -> None:
        """A bot Boss failing a deal says why to everybody's log (before the update)."""
        if remark.reason is not None and remark.action.type == "fail_deal":
            reason = remark.reason.removeprefix("reason.")
            self._broadcast({"t": "gave_up", "seat": seat, "reason": reason})

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

