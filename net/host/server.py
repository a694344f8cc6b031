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

The game runs in ``LiveGame`` (``net.host.live_game``): one ``game.table.master.Master``, the one
submit path of every table, with the journal as its storage and the fan-out as its
transport. A client's action, a bot's and a time-up all go through ``Master.submit``;
every applied action is written to the autosave's journal before any frame about it is
sent (``net.host.journal``), so ``HostConfig.resume`` restarts a killed host at the last
action anyone saw. Bots fill empty seats and stand in for players who dropped or went
silent (``Lobby.conn_silent``: away, then a bot after the grace), until they rejoin with
their seat's token or are heard again.

The host owns its collaborators and calls them one way: ``Connections`` (reading, the
watchdog, admission, rate limits, closing; ``net.host.connections``), ``Admission`` (what a
``hello`` lets in: version, room code, name; ``net.host.admission``), ``ActionCheck`` (what an
``action`` must pass; ``net.host.action_check``), ``SeatTable`` (seats, tokens, names, grace
periods, the seats file; ``net.host.seats``), ``Lobby`` (the seats as everybody sees them and
their comings and goings; ``net.host.lobby``), ``LiveGame`` (the game, one round after
another; ``net.host.live_game``), ``SavedTable`` (the autosave, its journal and resuming;
``net.host.saved_table``) and ``FanOut`` (views, updates, snapshots, the recent events;
``net.host.fanout``). ``net.host.thread.HostThread`` runs a Host in a thread. Every frame the
host sends goes through ``Connections.send`` (and ``protocol.encode``); ``HostHooks``
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

from game.rules import Game
from game.table.clock import Clock, LoopClock
from game.table.results import GameResult
from net import protocol as P
from net.discovery.announcer import Announcement, announce_wanted
from net.discovery.records import clean_name
from net.host.action_check import ActionCheck, ActionRefusal
from net.host.admission import Admission, Admitted, Entry
from net.host.config import DEFAULT_TABLE_NAME, HostConfig, HostError
from net.host.connections import Connection, Connections
from net.host.fanout import FanOut
from net.host.hooks import HostHooks, Tap
from net.host.live_game import LiveGame
from net.host.lobby import Lobby
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
        self.seat_table = SeatTable(
            config.seats, config.bots, secrets.randbits(32), config.open_bot_seats
        )
        self.stats: Counter = Counter()
        self.port: int | None = None
        self._server: asyncio.AbstractServer | None = None
        self.phones = None  # net.web.server.PhoneServer, when phones are served
        self.announcement = Announcement(config.bind, config.announce_addresses)
        self.saved = SavedTable(config, self.seat_table)  # the autosave and the seats file
        self._rng = random.Random(secrets.randbits(64))
        self._closing = False
        self._tasks: set[asyncio.Task] = set()
        self.connections = Connections(
            self.limits,
            self.stats,
            self.hooks,
            lambda: self.clock.now(),
            on_frame=self._on_frame,
            on_drop=lambda conn: self.lobby.conn_ended(conn),
            on_silent=lambda conn: self.lobby.conn_silent(conn),
            on_heard=lambda conn: self.lobby.conn_heard(conn),
        )
        countdowns = lambda: self.live.countdowns_data()  # noqa: E731 - the countdowns of a snapshot
        self.fanout = FanOut(
            self.connections, self.stats, self.hooks, countdowns,
            conns=lambda: self.conns, seats=lambda: self.seat_table.seats,
        )  # fmt: skip
        self.live = LiveGame(
            config,
            seat_table=self.seat_table,
            saved=self.saved,
            fanout=self.fanout,
            conns=lambda: self.conns,
            stats=self.stats,
            rng=self._rng,
            spawn=self._spawn,
            on_seats=lambda: self.lobby.broadcast(),
            write_seats=lambda: self.lobby.write_sidecar(),
        )
        self.lobby = Lobby(
            config,
            seat_table=self.seat_table,
            live=self.live,
            fanout=self.fanout,
            saved=self.saved,
            announcement=self.announcement,
            conns=lambda: self.conns,
            identity=lambda: (self.code, self.name),
            closing=lambda: self._closing,
            spawn=self._spawn,
        )
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
        return self.seat_table.seats

    @property
    def game(self) -> Game | None:
        return self.live.game

    @property
    def result(self) -> GameResult | None:
        return self.live.result

    @property
    def finished(self) -> asyncio.Event:
        return self.live.finished

    @property
    def started(self) -> bool:
        return self.live.started

    @property
    def over(self) -> bool:
        return self.live.over

    @property
    def state(self):
        return self.game.state

    async def start(self) -> None:
        """Listen (and announce). A resumed game is running from here on."""
        loop = asyncio.get_running_loop()
        if self.clock is None:
            self.clock = LoopClock(loop)
        self.live.clock = self.clock
        if self.config.resume is not None:
            self._load_resume(Path(self.config.resume))
        try:
            self._server = await loop.create_server(
                self.connections.protocol,
                self.config.bind,
                self.config.port,
                reuse_address=True,
            )
        except OSError as exc:
            raise HostError(
                f"cannot listen on {self.config.bind}:{self.config.port}: {exc}"
            ) from None
        self.port = self._server.sockets[0].getsockname()[1]
        await self._start_phones()
        self.connections.start_probing()
        if announce_wanted(self.config.announce, self.config.bind):
            await self.announcement.start(self.name, self.port, self.lobby.seats_free(), self.lobby.pace())
        if self.game is not None:
            self._after_resume()
        elif self.timing.start_after is not None:
            self.live.start_after(self.timing.start_after)

    async def close(self, reason: str = "shutdown") -> None:
        """Say bye to everyone, stop listening, flush the autosave. Idempotent."""
        if self._closing:
            return
        self._closing = True
        self.live.stop()
        self.connections.shutdown(reason)
        if self.phones is not None:
            await self.phones.close()
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 2)
        await self.announcement.close()
        for task in list(self._tasks):
            task.cancel()
        await self.saved.close()

    async def _start_phones(self) -> None:
        """The phone page and WebSocket on their own port (``HostConfig.phone_port``)."""
        if self.config.phone_port is None:
            return
        from net.web.files import PHONE_DIR, served_files
        from net.web.server import PhoneServer  # aiohttp is loaded only when phones are served

        files = served_files(Path(self.config.phone_dir or PHONE_DIR))
        self.phones = PhoneServer(
            self.connections, bind=self.config.bind, port=self.config.phone_port, files=files
        )
        try:
            await self.phones.start()
        except OSError as exc:
            self._server.close()
            raise HostError(f"cannot serve phones on {self.config.bind}: {exc}") from None

    @property
    def phone_url(self) -> str | None:
        """The address phones open (``http://LAN-ADDRESS:PORT/?code=CODE``), if served."""
        return None if self.phones is None else self.phones.url(self.code)

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
        self.live.load(game)

    def _after_resume(self) -> None:
        """Every claimed seat waits for its token for the grace period; bots play the rest."""
        self.saved.restart(self.game)
        self.fanout.rebuild_history(self.game)
        for seat in self.seats:
            if seat.token_digest is not None:
                self.lobby.start_grace(seat)
            else:
                self.lobby.make_bot(seat)
        self.live.run()

    # ------------------------------------------------------------------ connections

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

    def _msg_pong(self, conn: Connection, msg: dict) -> None:
        """The answer to the host's ``ping``: hearing it was the point (``Connections.heard``)."""

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
        claimed = self.seat_table.claim(conn, verdict.name)
        if claimed is None:
            self._refuse_seat(conn, "table_full")
            return
        seat, token = claimed
        name = seat.name
        conn.role = "player"
        conn.seat = seat.index
        self.lobby.write_sidecar()
        if seat.bot_from_start and self.started:
            log.info("%s took seat %d from its bot (bot seats are open to people)", name, seat.index)
        else:
            log.info("%s took seat %d", name, seat.index)
        self._welcome(conn, seat.index, token)
        if not self.started and self.seat_table.all_connected():
            self.live.begin()

    def _rejoin(self, conn: Connection, token: str) -> None:
        seat = self.seat_table.by_token(token)
        if seat is None:
            self._refuse_seat(conn, "bad_token", "no seat has this token; ")
            return
        old = self.seat_table.take_back(seat, conn)
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
        words, open_, bots, held = self.seat_table.refusal(game_over=self.over)
        self._reply_error(
            conn, code, why + words, open_seats=open_, bot_seats=bots, held_seats=held
        )

    def _welcome(self, conn: Connection, seat: int | None, token: str | None) -> None:
        table = {
            "name": self.name,
            "seats": len(self.seats),
            "code_required": True,
            "started": self.started,
            "hints": self.config.hints,
            "pace": self.lobby.pace().to_data(),
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
        self.lobby.broadcast(joined=conn)
        if self.started:
            self.live.send_snapshot(conn, history=conn.wants_history)

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
        self.live.send_snapshot(conn)

    def _msg_start(self, conn: Connection, msg: dict) -> None:
        if conn.role != "player" or conn.seat is None or self.seats[conn.seat].conn is not conn:
            self._reply_error(conn, "not_seated")
            return
        if self.started and not self.over:
            self._reply_error(conn, "already_started")
            return
        starter = self.seat_table.starter()
        if starter is None or starter.index != conn.seat:
            self._reply_error(conn, "start_denied")
            return
        if self.over:
            self._new_round()
        self.live.begin()

    def _msg_action(self, conn: Connection, msg: dict) -> None:
        rid = msg.get("id")
        holds = conn.seat is not None and self.seats[conn.seat].conn is conn
        state = self.state if self.started else None
        window_version = self.live.master.window_version() if state is not None else None
        verdict = self.action_check.check(
            conn, msg, holds_seat=holds, state=state, now=self.clock.now(),
            window_version=window_version,
        )  # fmt: skip
        if isinstance(verdict, ActionRefusal):
            self._reply_error(conn, verdict.code, verdict.message, id=rid, **verdict.extra)
            if verdict.resync:
                self.live.send_snapshot(conn)
            return
        self.live.master.submit(verdict, (conn, rid))  # origin: whom to acknowledge

    #: The handler of each kind of message a client sends (the kinds of P.CLIENT_MESSAGES).
    HANDLERS: ClassVar[dict[str, Callable[[Host, Connection, dict], None]]] = {
        "hello": _msg_hello,
        "action": _msg_action,
        "sync": _msg_sync,
        "start": _msg_start,
        "ping": _msg_ping,
        "pong": _msg_pong,
        "say": _msg_say,
        "bye": _msg_bye,
    }

    # ------------------------------------------------------------------ the game

    def _new_round(self) -> None:
        """After a game: keep the seated humans, free everyone else, clear the game."""
        self.live.stop()
        for seat in self.seats:
            seat.bot = None
            if seat.conn is None:
                self.lobby.free_seat(seat)
        self.live.clear()

    def _broadcast(self, out: dict) -> None:
        """A host message to every connection that joined (players and spectators)."""
        self.fanout.to_all(self.conns, out)

