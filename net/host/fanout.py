"""The host's fan-out: what every connection is shown after each action.

Each audience (a seat, or ``None`` for spectators) has a cached view at the current version
(``net.host.views``: the public sections are built and compared once per action, a seat's
view is its last one with the changed keys replaced); an applied action becomes one
``update`` per audience (its redacted events, the top-level keys of its view that changed,
a hash of the whole view), encoded once and written to every connection of that audience. The newest events are kept (``history``) for the log of a seat that joins or rejoins.

``FanOut.publish`` is the Master's ``Transport.publish`` on the LAN host: the one place an
applied action becomes frames. ``FanOut`` only reads the game state and the connections and
seats it is given, and writes through ``out.send`` (the connections' single way out); it
never calls back into the host.
"""

from __future__ import annotations

import logging
from collections import Counter, deque
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Protocol

from game.rules import Game, legal_actions
from game.rules.events import Event
from game.rules.replay import fresh_start, replay_log
from game.rules.view import events_for
from net import protocol as P
from net.host.hooks import HostHooks
from net.host.views import CachedView, TableViews

if TYPE_CHECKING:
    from net.host.connections import Connection

log = logging.getLogger(__name__)

#: Events kept for the log of a seat that joins or rejoins a running game (hello.history):
#: the newest actions' whole batches holding at most this many events together, each
#: redacted for the receiving seat exactly as it was live.
HISTORY_EVENTS = 60


class RecentEvents:
    """The newest actions' events, one whole batch per action (never cut from the front:
    a batch is what one ``update`` carried), at most ``cap`` events in all - the newest
    batch is kept whatever its size."""

    def __init__(self, cap: int = HISTORY_EVENTS) -> None:
        self.cap = cap
        self.batches: deque[tuple[int, tuple[Event, ...]]] = deque()
        self.events = 0

    def add(self, version: int, events: Iterable[Event]) -> None:
        batch = tuple(events)
        if not batch:
            return
        self.batches.append((version, batch))
        self.events += len(batch)
        while self.events > self.cap and len(self.batches) > 1:
            self.events -= len(self.batches.popleft()[1])

    def clear(self) -> None:
        self.batches.clear()
        self.events = 0


class _PackedValues:
    """Maps packed from their values' bytes, each value object packed once (the audiences'
    deltas share the public sections' values). ``memo`` is the view hasher's (key ->
    (value, the pair's bytes), the very pair the delta needs): what the hash packed is not
    packed again."""

    def __init__(self, memo: dict[str, tuple[object, bytes]] | None = None) -> None:
        self._memo: dict[str, tuple[object, bytes]] = {} if memo is None else memo

    def map(self, data: dict) -> bytes:
        parts = [P.map_header(len(data))]
        memo = self._memo
        for k, v in data.items():
            hit = memo.get(k)
            if hit is None or hit[0] is not v:
                hit = memo[k] = (v, P.pack(k) + P.pack(v))
            parts.append(hit[1])
        return b"".join(parts)


class Outbox(Protocol):
    def send(self, conn: Connection, msg: dict, frame: bytes | None = None) -> None: ...


class FanOut:
    def __init__(
        self,
        out: Outbox,
        stats: Counter,
        hooks: HostHooks,
        countdowns_data: Callable[[], dict],
        conns: Callable[[], Iterable[Connection]] = tuple,
        seats: Callable[[], Sequence] = tuple,
    ) -> None:
        self.out = out
        self.stats = stats
        self.hooks = hooks
        self.countdowns_data = countdowns_data  # the countdowns shown with a snapshot
        self.conns = conns  # every connection
        self.seats = seats  # the table's seats (who holds each)
        self.tables = TableViews()
        self.history = RecentEvents()

    # ------------------------------------------------------------------ views

    def reset(self) -> None:
        """A new game: no views, no history."""
        self.tables.reset()
        self.history.clear()

    def forget(self, audience: int | None) -> None:
        """An audience lost its connection: its next one starts from a snapshot."""
        self.tables.forget(audience)

    @staticmethod
    def audiences(conns: Iterable[Connection], seats: Sequence) -> dict[int | None, list]:
        """The synced open connections by audience (a player only while it holds its seat)."""
        out: dict[int | None, list[Connection]] = {}
        for conn in conns:
            if not conn.synced or conn.closed:
                continue
            if conn.role == "player" and (conn.seat is None or seats[conn.seat].conn is not conn):
                continue
            out.setdefault(conn.audience, []).append(conn)
        return out

    def current_view(self, state, aud: int | None) -> CachedView:
        return self.tables.view_of(state, aud)

    # ------------------------------------------------------------------ frames

    def send_snapshot(
        self, state, conn: Connection, events: Sequence[Event] = (), history: bool = False
    ) -> None:
        if self.hooks.snapshot is not None:
            self.hooks.snapshot(conn, list(events))
        cached = self.current_view(state, conn.audience)
        msg = {
            "t": "snapshot",
            "version": cached.version,
            "hash": cached.hash,
            "view": cached.view,
            "events": events_for(list(events), conn.audience),
            "timers": self.countdowns_data(),
        }
        if conn.wants_legal and conn.role == "player":
            msg["legal"] = legal_actions(state, conn.seat).to_data()
        frame = None
        if history:
            msg["history"] = self.history_data(conn.audience)
            frame = self.fit_history(msg)
        self.stats["snapshots"] += 1
        self.out.send(conn, msg, frame)
        conn.synced = True

    def publish(self, state, events: list[Event], origin, countdowns: dict | None) -> None:
        """An applied action (journalled already): its ``update`` to every synced connection
        (with ``timers`` if they changed since the last frame that carried them; ``origin``:
        the connection and the action id to acknowledge), then its events kept for joiners."""
        self.stats["actions"] += 1
        try:
            frames = self._update_frames(state, events, origin, countdowns)
            # Every frame is built before the first is written: waking one client does not
            # slow the others' frames down.
            send = self.out.send
            for conn, msg, frame in frames:
                send(conn, msg, frame)
        finally:  # after the frames, not on their way; kept even if one could not be made
            self.remember(events, state.actions_taken)

    def _update_frames(
        self, state, events: list[Event], origin, countdowns: dict | None
    ) -> list[tuple[Connection, dict, bytes | None]]:
        """Each synced connection's ``update`` about the action, as (connection, message,
        frame); an audience that is not one version behind gets its snapshot at once."""
        if self.hooks.update is not None:
            self.hooks.update(list(events))
        ack_conn, ack = origin if origin is not None else (None, None)
        audiences = self.audiences(self.conns(), self.seats())
        version = state.actions_taken
        views = self.tables.audiences
        for aud in list(views):
            if aud not in audiences:
                del views[aud]
        memo: dict = {}
        out: list[tuple[Connection, dict, bytes | None]] = []
        # Events only differ between audiences when one of them hides something per seat.
        private = any(type(e).for_seat is not Event.for_seat for e in events)
        public_events = None if private else events_for(events, None)
        packed = _PackedValues(memo)  # the pairs the hashes packed
        events_packed = None if private else P.pack(public_events)
        tail = [("timers", P.pack(countdowns))] if countdowns is not None else []
        head = [("version", P.pack(version)), ("base", P.pack(version - 1))]
        for aud, conns in audiences.items():
            step = self.tables.advance(state, aud, memo)
            if step is None:
                for conn in conns:  # pragma: no cover - every audience is one version behind
                    self.send_snapshot(state, conn)
                continue
            cached, delta = step
            seen = events_for(events, aud) if private else public_events
            msg = {
                "t": "update",
                "version": version,
                "base": version - 1,
                "hash": cached.hash,
                "events": seen,
                "delta": delta,
            }
            if countdowns is not None:
                msg["timers"] = countdowns
            # the frame from its parts: the delta's shared values and the events packed once
            fields = [
                *head,
                ("hash", P.pack(cached.hash)),
                ("events", events_packed if events_packed is not None else P.pack(seen)),
                ("delta", packed.map(delta)),
                *tail,
            ]
            frame = P.encode_map("update", fields)
            for conn in conns:
                extra = {}
                if conn is ack_conn and ack is not None:
                    extra["ack"] = ack
                if conn.wants_legal and aud is not None:
                    extra["legal"] = legal_actions(state, aud).to_data()
                if extra:
                    own = {**msg, **extra}
                    more = [(k, P.pack(v)) for k, v in extra.items()]
                    out.append((conn, own, P.encode_map("update", fields + more)))
                else:
                    out.append((conn, msg, frame))
        return out

    def to_all(self, conns: Iterable[Connection], msg: dict, *, synced: bool = False) -> None:
        """One message, encoded once, to every joined (or, with ``synced``, synced)
        connection."""
        frame = P.encode(msg)
        for conn in list(conns):
            if conn.synced if synced else conn.role is not None:
                self.out.send(conn, msg, frame)

    # ------------------------------------------------------------------ history

    def remember(self, events: Iterable[Event], version: int) -> None:
        """Keep the newest events (with the version they led to) for joining seats' logs."""
        self.history.add(version, events)

    def rebuild_history(self, game: Game) -> None:
        """A resumed game: the recent events come from replaying its actions."""
        self.history.clear()
        try:
            for version, events in replay_log(fresh_start(game), game.log):
                self.remember(events, version)
        except Exception:
            log.exception("rebuilding the recent events failed")
            self.history.clear()

    def history_data(self, audience: int | None) -> list[dict]:
        """The recent events as update-like batches, redacted for ``audience`` exactly as the
        live ``update`` frames were (``events_for``)."""
        return [
            {"version": v, "events": events_for(list(batch), audience)}
            for v, batch in self.history.batches
        ]

    def fit_history(self, msg: dict) -> bytes:
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
