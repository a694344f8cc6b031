"""The LAN client: connect, say hello, get a snapshot, then follow updates.

For a pygame loop (nothing here ever blocks a frame)::

    client = Client("192.168.1.5:40123", name="Mei", code="ABCD").start()
    ...each frame:
    for msg in client.poll():            # typed messages, oldest first
        if isinstance(msg, (Snapshot, Update)):
            animate(msg.events); redraw(msg.view)
        elif isinstance(msg, Seats): ...       # lobby / who is connected
        elif isinstance(msg, ServerError): toast(msg.code, msg.message)
        elif isinstance(msg, Disconnected): show("reconnecting..." if msg.will_retry else "lost")
    client.view, client.legal, client.countdowns  # state as of the last poll()
    client.send_action(action)           # stamped with the version the player saw
    client.close()

Headless bots: ``net.client.bot.play_bot(...)`` (``main.py join ADDR --bot random --headless``).

The client keeps its seat's view in step with the host: an update's ``base`` must be the
version it holds and the view it rebuilds must hash to the update's ``hash``; otherwise it
asks for a snapshot (``sync``). It reconnects by itself with backoff, using the seat's token,
and computes its own legal actions from its view (``legal_for_view``: legal actions never
depend on what a seat cannot see).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import queue
import random
import threading
import time
from collections import Counter
from collections.abc import Callable
from typing import Any, ClassVar

from game.rules import Action, LegalActions
from net import protocol as P
from net.client.follow import ViewFollower
from net.client.link import HostLink
from net.client.messages import (
    BULKY_KINDS,
    FINAL_BYES,
    FINAL_ERRORS,
    HOST_CLOSING_BYES,
    CountdownsChanged,
    Disconnected,
    GaveUp,
    HostCountdown,
    HostCountdowns,
    HostSeat,
    Joined,
    Message,
    Reconnected,
    Said,
    Seats,
    ServerError,
    Snapshot,
    TableInfo,
    TablePace,
    Update,
    countdowns_from,
    legal_for_view,
    may_act,
    parse_address,
)
from net.client.state import ClientState

#: The names screens, benches and tests import from here (the messages live in
#: ``net.client.messages``, the headless bot in ``net.client.bot``).
__all__ = [
    "FINAL_BYES",
    "FINAL_ERRORS",
    "HOST_CLOSING_BYES",
    "Client",
    "ClientSession",
    "HostCountdown",
    "Disconnected",
    "GaveUp",
    "Joined",
    "Message",
    "Reconnected",
    "Said",
    "HostSeat",
    "Seats",
    "ServerError",
    "Snapshot",
    "TableInfo",
    "HostCountdowns",
    "CountdownsChanged",
    "Update",
    "legal_for_view",
    "may_act",
    "parse_address",
]

log = logging.getLogger(__name__)

# --------------------------------------------------------------------------- session


class ClientSession:
    """The protocol on an asyncio loop: one seat's connection, reconnecting with backoff.

    ``on_message(msg)`` receives every typed message (in the loop's thread); an exception
    it raises is a bug in its owner and ``run()`` raises it, like a handler's. ``run()``
    returns when the session is over: closed, a final error, or no host for ``retry_for``
    seconds (then a last ``Disconnected(will_retry=False)``). ``kept_token``: the token is
    one this machine kept for the table (``main.py join`` found it), so a host that no
    longer knows it is asked again at once for a seat with ``name`` and ``code``.
    """

    def __init__(
        self,
        host: str,
        port: int,
        *,
        name: str | None = None,
        code: str | None = None,
        role: str = "player",
        token: str | None = None,
        on_message: Callable[[Message], None] | None = None,
        reconnect: bool = True,
        backoff: float = 0.2,
        max_backoff: float = 5.0,
        retry_for: float = 120.0,
        ping_interval: float = 15.0,
        connect_timeout: float = 5.0,
        want_legal: bool = False,
        want_history: bool = False,
        bot: bool = False,
        kept_token: bool = False,
    ) -> None:
        self.host, self.port = host, port
        # the token is one this machine kept for the table, not one the player gave: if the
        # host no longer knows it (a new game, another host), take a seat with name and code
        self.kept_token = kept_token
        self._hello_again = False  # the connection ends to say hello again at once
        self.want_legal = want_legal  # the host sends our legal actions in every update
        self.want_history = want_history  # the recent events on (re)joining a running game
        self.bot = bot  # a program plays this seat: the host never gives it the start
        self.name, self.code, self.role, self.token = name, code, role, token
        self.on_message = on_message or (lambda msg: None)
        self.reconnect = reconnect
        self.backoff, self.max_backoff, self.retry_for = backoff, max_backoff, retry_for
        self.ping_interval, self.connect_timeout = ping_interval, connect_timeout
        self.seat: int | None = None
        self.joined = False
        self.connected = False
        self.closed = False
        self.final: str | None = None  # why the session ended for good
        self.stats: Counter = Counter()
        self.follower = ViewFollower(self.stats, self.request_snapshot)
        self._transport: asyncio.Transport | None = None  # the connection, while it is up
        self._silent = False
        self._bye: str | None = None
        self.host_closed = False  # the host said bye (closing the table) since we last joined
        self._task: asyncio.Task | None = None
        self._ids = itertools.count(1)

    # -- sending ------------------------------------------------------------------

    def send(self, msg: dict) -> bool:
        """Send one message now if connected (False otherwise)."""
        transport = self._transport
        if transport is None or transport.is_closing():
            return False
        frame = P.encode(msg)
        self.stats["frames_out"] += 1
        self.stats["bytes_out"] += len(frame)
        transport.write(frame)
        return True

    def send_action(self, action: Action, version: int | None = None) -> int:
        """Send ``action`` made on ``version`` (default: the latest view); returns its id."""
        rid = next(self._ids)
        stamp = self.follower.version if version is None else version
        self.send(P.action_message(action.to_data(), stamp or 0, rid))
        return rid

    @property
    def view(self) -> dict | None:
        """The seat's view as the host's messages built it (on the session's loop)."""
        return self.follower.view

    @property
    def version(self) -> int | None:
        return self.follower.version

    def request_snapshot(self) -> None:
        self.follower.resyncing = True
        self.send({"t": "sync"})

    # -- running ------------------------------------------------------------------

    async def run(self) -> None:
        self._task = asyncio.current_task()
        attempt = 0
        down_since: float | None = None
        announced = False
        loop = asyncio.get_running_loop()
        try:
            while not self.closed:
                link = self._link()
                try:
                    await asyncio.wait_for(
                        loop.create_connection(lambda link=link: link, self.host, self.port),
                        self.connect_timeout,
                    )
                except (OSError, TimeoutError) as exc:
                    reason = f"cannot connect to {self.host}:{self.port}: {exc or 'timeout'}"
                    now = time.monotonic()
                    down_since = now if down_since is None else down_since
                    if not self.reconnect or now - down_since >= self.retry_for:
                        self._finish(reason)
                        return
                    if not announced:
                        announced = True
                        self.on_message(Disconnected(reason, True, self.host_closed))
                    await asyncio.sleep(self._delay(attempt))
                    attempt += 1
                    continue
                attempt = 0
                down_since = None
                announced = False
                reason = await self._connection(link)
                if self.closed:
                    return
                if self.final is not None:
                    self._finish(self.final)
                    return
                if self._hello_again:  # not a drop: straight back with the room code
                    self._hello_again = False
                    continue
                if not self.reconnect:
                    self._finish(reason)
                    return
                self.stats["reconnects"] += 1
                self.on_message(Disconnected(reason, True, self.host_closed))
                announced = True
                down_since = time.monotonic()
                await asyncio.sleep(self._delay(0))
        except asyncio.CancelledError:
            pass
        finally:
            self.connected = False

    def _delay(self, attempt: int) -> float:
        base = min(self.max_backoff, self.backoff * (2**attempt))
        return base * random.uniform(0.75, 1.25)

    def _finish(self, reason: str) -> None:
        self.final = self.final or reason
        self.closed = True
        self.on_message(Disconnected(reason, False, self.host_closed))

    def _link(self) -> HostLink:
        """A new connection's reader: from its first byte, what it reads goes to ``_on_raw``
        (a host may answer before the hello, e.g. that it is full)."""
        self._bye = None
        self._silent = False
        self.follower.resyncing = False
        return HostLink(self._on_raw, self.stats, self._lost, lambda: self.final)

    def _lost(self, exc: Exception | None) -> str:
        """Why the connection ended, when the host closed it or it broke."""
        if self._silent:
            return "the host went silent"
        if exc is not None:
            return f"connection lost: {exc}"
        return f"closed by the host ({self._bye})" if self._bye else "connection lost"

    async def _connection(self, link: HostLink) -> str:
        """One connection, from hello to its end; returns why it ended."""
        transport = link.transport
        self._transport = transport
        hello: dict[str, Any] = {"t": "hello", "v": P.PROTOCOL_VERSION, "role": self.role}
        if self.want_legal:
            hello["legal"] = True
        if self.want_history:
            hello["history"] = True
        if self.bot:
            hello["bot"] = True
        if self.role == "player":
            if self.token:
                hello["token"] = self.token
            else:
                if self.name:  # else the host refuses with bad_name: the caller names it
                    hello["name"] = self.name
                # typed with spaces or in lower case: the host wants exactly 4 letters
                hello["code"] = P.normalize_code(self.code) or self.code
        elif self.name:
            hello["name"] = self.name
        self.send(hello)
        pinger = asyncio.ensure_future(self._pinger(link))
        try:
            return await link.ended
        finally:
            pinger.cancel()
            self.connected = False
            self._transport = None
            with contextlib.suppress(Exception):
                transport.close()

    async def _pinger(self, link: HostLink) -> None:
        """Ping every ``ping_interval``; nothing heard for three of them: drop the line."""
        n = 0
        while True:
            await asyncio.sleep(self.ping_interval)
            if time.monotonic() - link.last_rx > 3 * self.ping_interval:
                self._silent = True
                link.transport.abort()
                return
            n = (n + 1) % (2**31)
            self.send({"t": "ping", "n": n})

    # -- receiving ----------------------------------------------------------------

    def _on_raw(self, raw: Any) -> None:
        # The view we already hold (the snapshot after a stale action): keep ours rather
        # than checking and hashing the same few kilobytes again.
        same = self.follower.holds(raw)
        if same:
            raw = {**raw, "view": {}}
        try:
            # Views, deltas and events are large and come often: their fields are checked,
            # their contents are guarded below instead of walked twice.
            deep = type(raw) is not dict or raw.get("t") not in BULKY_KINDS
            msg = P.check_host_message(raw, deep=deep)
        except P.ProtocolError as exc:
            self.stats["bad_messages"] += 1
            log.warning("ignoring a bad message from the host: %s", exc)
            return
        self.stats["messages_in"] += 1
        # Only what the host sent can be refused here (ProtocolError, raised where a
        # handler reads contents the check above leaves unchecked); any other exception
        # is a bug in the handler and propagates.
        try:
            out = self.follower.same_snapshot(msg) if same else self.HANDLERS[msg["t"]](self, msg)
        except P.ProtocolError as exc:
            self.stats["bad_messages"] += 1
            log.warning("bad %s from the host: %s", msg["t"], exc)
            if msg["t"] in ("update", "snapshot") and self.connected:
                self.request_snapshot()
            return
        if out is not None:
            self.on_message(out)

    # Each handler returns the typed message for ``on_message`` (None: nothing to hand on).

    def _on_welcome(self, msg: dict) -> Message:
        t = msg["table"]
        try:
            table = TableInfo(
                str(t.get("name", "")), int(t.get("seats", 0)),
                bool(t.get("code_required", True)), bool(t.get("started", False)),
                bool(t.get("hints", True)), TablePace.from_data(t.get("pace")),
            )  # fmt: skip
        except (TypeError, ValueError) as exc:
            raise P.ProtocolError("bad_message", f"welcome: bad table {exc!r}") from None
        self.connected = True
        self.host_closed = False
        seat, token = msg["seat"], msg["token"]
        out = Reconnected(seat) if self.joined else Joined(seat, token, msg["role"], table)
        self.joined = True
        self.seat = seat
        if token:
            self.token = token
        return out

    def _on_seats(self, msg: dict) -> Seats:
        seats = []
        for d in msg["seats"]:
            if not isinstance(d, dict):
                continue
            grace = d.get("grace_ms")
            seats.append(
                HostSeat(
                    d.get("seat"), d.get("name"), d.get("status"), d.get("bot"),
                    grace / 1000 if isinstance(grace, int) else None, d.get("newcomers") is True,
                    d.get("via") if d.get("via") in P.VIAS else None,
                )
            )  # fmt: skip
        start_ms = msg.get("start_ms")
        return Seats(
            tuple(seats), msg["started"], msg["over"], msg.get("starter"),
            None if start_ms is None else start_ms / 1000, msg["spectators"],
        )  # fmt: skip

    def _on_countdowns(self, msg: dict) -> CountdownsChanged | None:
        countdowns = countdowns_from(msg["timers"], time.monotonic())
        return CountdownsChanged(countdowns) if countdowns is not None else None

    def _on_error(self, msg: dict) -> ServerError | None:
        self.stats["errors." + msg["code"]] += 1
        if msg["code"] == "bad_token" and self.kept_token and self.code and not self.joined:
            log.info("the host does not know the kept token: joining with the room code")
            self.token, self.kept_token, self._hello_again = None, False, True
            return None  # the host closes this connection; the next says hello with the code
        if msg["code"] in FINAL_ERRORS:
            self.final = msg["code"] + ": " + msg["message"]
        return ServerError(
            msg["code"], msg["message"], msg.get("id"), msg.get("rule"), msg.get("version"),
            msg.get("open_seats"), msg.get("bot_seats"), msg.get("held_seats"),
        )  # fmt: skip

    def _on_pong(self, msg: dict) -> None:
        return None

    def _on_ping(self, msg: dict) -> None:
        """The host asks whether we are here: a host hears a silent seat as away."""
        self.stats["pings_answered"] += 1
        self.send({"t": "pong", "n": msg.get("n")})

    def _on_bye(self, msg: dict) -> None:
        self._bye = msg["reason"]
        self.host_closed = msg["reason"] in HOST_CLOSING_BYES
        if msg["reason"] in FINAL_BYES:
            self.final = self.final or f"bye: {msg['reason']}"

    #: The handler of each kind of message the host sends (the kinds of P.HOST_MESSAGES).
    #: A snapshot or an update is the follower's to check and apply (None: out of step).
    HANDLERS: ClassVar[dict[str, Callable[[ClientSession, dict], Message | None]]] = {
        "welcome": _on_welcome,
        "seats": _on_seats,
        "snapshot": lambda self, msg: self.follower.snapshot(msg),
        "update": lambda self, msg: self.follower.update(msg),
        "timers": _on_countdowns,
        "error": _on_error,
        "pong": _on_pong,
        "ping": _on_ping,
        "said": lambda self, msg: Said(msg["seat"], msg["phrase"]),
        "gave_up": lambda self, msg: GaveUp(msg["seat"], msg["reason"]),
        "bye": _on_bye,
    }

    async def close(self) -> None:
        """Leave: no more reconnecting. The seat stays ours (the token still works)."""
        self.closed = True
        transport = self._transport
        if transport is not None:
            with contextlib.suppress(Exception):
                transport.close()
        task = self._task
        if task is not None and task is not asyncio.current_task():
            task.cancel()
            with contextlib.suppress(BaseException):
                await task


# --------------------------------------------------------------------------- threaded


class Client:
    """A ClientSession on its own asyncio loop in a daemon thread, for the pygame loop.

    Every method returns at once and may be called from the UI thread. ``poll()`` hands
    over the messages received since the last call and takes them into ``state`` (a
    ``ClientState``: the seat, the table, the view and its legal actions, the seats, the
    clocks, *as of the last poll()*, so what the UI draws and what it sends agree); the
    properties (``view``, ``legal``, ``seats``, ``timers``, ...) read it. Keyword arguments go to ClientSession (``reconnect``,
    ``retry_for``, ``backoff``, ``ping_interval``...).
    """

    def __init__(
        self,
        address: str | tuple[str, int],
        *,
        name: str | None = None,
        code: str | None = None,
        role: str = "player",
        token: str | None = None,
        **session: Any,
    ) -> None:
        host, port = parse_address(address) if isinstance(address, str) else address
        self.address = (host, port)
        session.setdefault("want_history", True)  # a window's log shows the game so far
        self.name = name  # the name the hello gives (the host may make it unique)
        self._session_args = dict(name=name, code=code, role=role, token=token, **session)
        self._queue: queue.Queue[Message] = queue.Queue()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._session: ClientSession | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._ids = itertools.count(1)
        self.state = ClientState(role=role, token=token)  # as of the last poll()

    def start(self) -> Client:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="lan-client", daemon=True)
            self._thread.start()
            self._ready.wait(5)
        return self

    def _run(self) -> None:
        asyncio.run(self._main())

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        host, port = self.address
        self._session = ClientSession(host, port, on_message=self._queue.put, **self._session_args)
        self._ready.set()
        await self._session.run()

    def poll(self) -> list[Message]:
        """Every message since the last poll, oldest first, taken into ``state`` (whose
        ``listener`` hears each just before); never blocks."""
        out = []
        get, absorb = self._queue.get_nowait, self.state.absorb
        while True:
            try:
                msg = get()
            except queue.Empty:
                return out
            absorb(msg)
            out.append(msg)

    # the state as of the last poll(), read through
    role = property(lambda self: self.state.role)
    seat = property(lambda self: self.state.seat)
    token = property(lambda self: self.state.token)
    table = property(lambda self: self.state.table)
    view = property(lambda self: self.state.view)
    version = property(lambda self: self.state.version)
    seats = property(lambda self: self.state.seats)
    countdowns = property(lambda self: self.state.countdowns)
    connected = property(lambda self: self.state.connected)
    finished = property(lambda self: self.state.finished)  # the session ended for good

    @property
    def legal(self) -> LegalActions:
        """Our legal actions in the last polled view (empty for spectators)."""
        return self.state.legal

    def _call(self, fn: Callable, *args: Any) -> None:
        loop = self._loop
        if loop is not None:
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(fn, *args)

    def send_action(self, action: Action, version: int | None = None) -> int:
        """Send ``action`` stamped with ``version`` (default: the last polled one; 0 before
        any); returns its id (an ``Update`` with ``ack == id`` or a ``ServerError`` with
        ``id == id`` answers). The message is made here and written in the loop's thread."""
        rid = next(self._ids)
        stamp = self.version if version is None else version
        msg = P.action_message(action.to_data(), stamp or 0, rid)
        loop, session = self._loop, self._session
        if loop is not None and session is not None:
            with contextlib.suppress(RuntimeError):  # the loop closed: the session ended
                loop.call_soon_threadsafe(session.send, msg)
        return rid

    def request_snapshot(self) -> None:
        self._call(lambda: self._session and self._session.request_snapshot())

    def start_game(self) -> None:
        """Ask the host to start now (only the ``Seats.starter`` seat may); bots fill the
        empty seats. After a game: a rematch with the same seats."""
        self._call(lambda: self._session and self._session.send({"t": "start"}))

    def say(self, phrase: str) -> None:
        """One of ``protocol.PHRASES`` to the whole table."""
        if phrase not in P.PHRASES:
            raise ValueError(f"unknown phrase {phrase!r}")
        self._call(lambda: self._session and self._session.send({"t": "say", "phrase": phrase}))

    def leave(self) -> None:
        """Give the seat to a bot now (the token can still take it back) and close."""

        def go() -> None:
            if self._session is not None:
                self._session.final = "left"
                self._session.send({"t": "bye"})

        self._call(go)

    def close(self, timeout: float = 3.0) -> None:
        """Disconnect (no reconnecting) and stop the thread. Idempotent."""
        if self._thread is None:
            return
        if self._loop is not None and self._session is not None:
            closing = self._session.close()
            try:
                asyncio.run_coroutine_threadsafe(closing, self._loop)
            except RuntimeError:  # the session had ended and its loop closed already
                closing.close()
        self._thread.join(timeout)
        self._thread = None

    @property
    def stats(self) -> Counter:
        return self._session.stats if self._session is not None else Counter()

    def __enter__(self) -> Client:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()
