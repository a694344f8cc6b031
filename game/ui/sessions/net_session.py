"""A LAN seat, or the public table display, as a `Session` on top of `net.client.session.Client`.

The table scene draws a `NetSession` exactly like a hot-seat `LocalSession`: the seat's view,
its `LegalActions` and its redacted events, now from the host's `snapshot`/`update`
messages. Everything here runs in the UI thread and never blocks: `update(dt)` (once a
frame) drains `client.poll()`, and the client's own thread does the networking (including
reconnecting with the seat's token after a drop).

What the LAN adds to the table:
- countdowns from the host's clocks: the reaction window (with its "going once / going
  twice" stage), the negotiation clock and the optional turn clock;
- each seat's connection state for the player plates (connected, dropped with the grace
  period running, a bot standing in until the player rejoins);
- refusals as short toasts in the player's language. An action the host bounced as
  `stale` (someone else's move arrived first) is sent again, as long as it is still legal
  in the snapshot that follows, up to `RESEND_TRIES` sends in all; otherwise the player is
  told (a window's answer is not stale while its window is open: the host keeps it);
- quick phrases go to everybody (`say`) and come back from the host as speech bubbles;
- `notice()` while the link is down, in words that say why: "The host has closed the
  table" (it said bye) or "Lost contact with the host — trying again…" (it went silent);
  `host_away` says which, so the table can offer to wait or leave, and a host that comes
  back is announced ("The host is back");
- `hints_allowed`: whether the host lets its players ask for a hint (its `welcome`).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from enum import Enum

from game.rules import Action, LegalActions
from net import protocol as P
from net.client.session import (
    Client,
    Disconnected,
    GaveUp,
    Joined,
    Reconnected,
    Said,
    Seats,
    ServerError,
    Snapshot,
    Update,
)
from net.client.state import ClientListener

from ..i18n import and_list, tr
from .session_api import Countdown, SeatInfo, Session, UpdateBatch

# Host error codes -> what the player reads (None: nothing to say).
ERROR_KEYS = {
    "illegal": "table.refused",
    "wrong_seat": "table.refused",
    "bad_action": "table.refused",
    "not_seated": "table.refused",
    "game_over": "net.error.game_over",
    "not_started": "net.error.not_started",
    "stale": "net.error.stale",
    "rate_limited": "net.error.rate_limited",
    "start_denied": "net.error.start_denied",
    "already_started": None,
    "bad_code": "net.error.bad_code",
    "too_many_attempts": "net.error.too_many_attempts",
    "bad_name": "net.error.bad_name",
    "table_full": "net.error.table_full",
    "too_many_connections": "net.error.table_full",
    "bad_token": "net.error.bad_token",
    "version": "net.error.version",
    "replaced": "net.error.replaced",
}
#: How many times in all an action the host keeps bouncing as `stale` is sent, each time
#: only if the snapshot that follows still allows it, before the player is told.
RESEND_TRIES = 6

#: Errors after which the client gives up (the room shows them with a way back).
FINAL = frozenset(
    {"version", "bad_code", "bad_name", "bad_token", "table_full", "too_many_attempts"}
    | {"replaced", "too_many_connections"}
)


class HostAway(Enum):
    """Why a joined seat's host is out of reach (the client keeps trying to get back);
    the value is the notice's translation key."""

    CLOSED = "net.host_closed"  # it said bye: the host closed the table
    LOST = "net.host_lost"  # the line went dead without a word


#: What to do about a refusal that ends the connection (the room shows it under the
#: refusal); any other failure gets "room.failed_hint" (check the address and the code).
FAILURE_HINTS = {
    "bad_code": "room.failed_hint.bad_code",
    "too_many_attempts": "room.failed_hint.bad_code",
    "bad_token": "room.failed_hint.bad_token",
    "table_full": "room.failed_hint.table_full",
    "too_many_connections": "room.failed_hint.table_full",
}


def error_text(code: str, open_seats=None, bot_seats=None, held_seats=()) -> str | None:
    """The host's refusal in the player's language; a refused seat also names the seats a
    newcomer could take, or those bots play (seat numbers as the room shows them, from 1),
    and the people who hold the others (a seat kept for one who dropped, said so)."""
    key = ERROR_KEYS.get(code, "net.error.other")
    if key is None:
        return None
    text = tr(key, code=code) if key == "net.error.other" else tr(key)
    parts = []
    if open_seats:
        parts.append(tr("net.error.open_seats", seats=_seat_numbers(open_seats)))
    elif bot_seats:
        parts.append(tr("net.error.bot_seats", seats=_seat_numbers(bot_seats)))
    if held_seats:
        each = [
            tr("net.error.seat_kept" if h.away else "net.error.seat_held", n=h.seat + 1,
               name=h.name)
            for h in held_seats
        ]  # fmt: skip
        parts.append(tr("net.error.held_seats", seats=and_list(each)))
    if not parts:
        return text
    return tr("net.error.with_seats", error=text, seats=" ".join(parts))


def _bots_open_to_newcomers(msg: Seats) -> bool:
    """A game runs and newcomers may take its bots' seats."""
    return msg.started and not msg.over and any(s.newcomers and s.status == "open" for s in msg.seats)


def _seat_numbers(seats) -> str:
    return ", ".join(str(seat + 1) for seat in seats)


class NetSession(Session, ClientListener):
    """One connection to a LAN table: a player's seat, or the public view (spectator)."""

    live = True  # events come at the host's pace: the table may skip animations to keep up

    def __init__(
        self,
        client: Client,
        *,
        host=None,
        owns_host: bool = False,
        code: str | None = None,
        address: str | None = None,
        remember: Callable[[NetSession, str | None], None] | None = None,
        phone_url: str | None = None,
    ) -> None:
        self.client = client
        self.host = host  # a net.host.thread.HostThread when this screen hosts the table
        self.owns_host = owns_host  # stop it with the session (the lobby's own host)
        self.code = code or (host.code if host is not None else None)
        self.address = address or "{}:{}".format(*client.address)
        # the phone page's address (its QR code is shown for joining), when this screen hosts
        self.phone_url = phone_url or getattr(host, "phone_url", None)
        # called with the seat's token once joined as a player (persist it for a rejoin
        # after a restart), and with None when the host no longer knows the token
        self.remember = remember
        self.spectator = client.role == "spectator"
        self.seats_local: tuple[int, ...] = ()
        self.viewer: int | None = None
        self.hold = False
        # this machine's clock the countdowns are read against (a still picture freezes it)
        self.now: Callable[[], float] = time.monotonic
        self.status = "connecting"  # connecting, joined, reconnecting, failed
        self.unreachable = False  # not joined yet and the host did not answer: retrying
        self.failure: str | None = None  # why the connection ended for good (translated)
        self.failure_hint: str | None = None  # what to do about it (None: the room's default)
        self.host_away: HostAway | None = None  # joined, and the host is out of reach
        self.serial = 0  # counts the games seen (a rematch starts a new table scene)
        self.actions_sent = 0
        self.resent = 0
        self._batches: list[UpdateBatch] = []
        self._pending: dict[int, Action] = {}  # action id -> the action, until answered
        # bounced as stale: retry after the snapshot (the action, how often it was sent)
        self._resend: tuple[Action, int] | None = None
        self._sends: dict[int, int] = {}  # action id -> how often that action was sent
        self._away_until: dict[int, float] = {}  # seat -> monotonic end of its grace
        self.bot_seats_open = False  # a game runs and newcomers may take its bots' seats
        # the host is back: the seats it shows away lost it as we did (their drop and
        # return are the host's news, not theirs) until they are back or a bot takes over
        self._host_returned = False
        self._with_host: set[int] = set()
        self.start_at: float | None = None  # the host starts by itself then (monotonic)
        self._closed = False
        self._joined_token: str | None = None  # a seat's token to remember after this poll
        client.state.listener = self  # hears every message the client takes in (on_*)

    # -- what the host said, as the client holds it (net.client.state.ClientState) ----------

    joined = property(lambda self: self.client.state.joined)
    seats = property(lambda self: self.client.state.seats)  # who sits where (net Seats)
    _view = property(lambda self: self.client.state.view)
    table_name = property(lambda self: self._table("name"))
    table_pace = property(lambda self: self._table("pace"))  # its windows' mode and seconds

    def _table(self, field: str):
        table = self.client.state.table  # the host's welcome
        return getattr(table, field) if table is not None else None

    @property
    def table_seats(self) -> int:
        seats = self.client.state.seats
        return len(seats.seats) if seats is not None and seats.seats else self._table("seats") or 0

    @property
    def hints_allowed(self) -> bool:
        """Whether the host lets its players ask for a hint (its `welcome`)."""
        return bool(self._table("hints")) and not self.spectator

    # -- the table's Session -------------------------------------------------------------

    @property
    def players(self) -> int:
        if self._view is not None:
            return len(self._view["players"])
        return self.table_seats

    @property
    def has_view(self) -> bool:
        return self._view is not None

    @property
    def game_running(self) -> bool:
        return self._view is not None and self._view["phase"] != "game_over"

    @property
    def busy(self) -> bool:
        """An action of ours is on its way (not yet applied or refused)."""
        return bool(self._pending) or self._resend is not None

    @property
    def over(self) -> bool:
        return self._view is not None and self._view["phase"] == "game_over"

    def view(self, seat: int | None) -> dict:
        """The one view this connection has: the seat's own (a player) or the public table
        (the display). At the end of a game every figure in it is public anyway."""
        if self._view is None:
            raise RuntimeError("no view yet: the game has not started")
        return self._view

    def legal(self, seat: int | None) -> LegalActions:
        if seat is None or seat != self.viewer or not self.game_running:
            return LegalActions()
        return self.client.legal

    def waiting_for(self) -> list[int]:
        return list(self._view.get("waiting_for", ())) if self._view is not None else []

    def decision_seat(self) -> int | None:
        if self.viewer is not None and self.viewer in self.waiting_for():
            return self.viewer
        return None

    def send(self, action: Action) -> None:
        if self.viewer is None or action.seat != self.viewer:
            self._toast(tr("table.refused"))
            return
        if not self.client.connected:
            self._toast(tr("net.error.offline"))
            return
        rid = self.client.send_action(action)
        self._pending[rid] = action
        self.actions_sent += 1

    def say(self, seat: int, phrase: str) -> None:
        word = phrase.removeprefix("phrase.")
        if seat == self.viewer and word in P.PHRASES and self.client.connected:
            self.client.say(word)  # the host echoes it to everyone, us included

    def poll(self) -> list[UpdateBatch]:
        out, self._batches = self._batches, []
        return out

    def countdowns(self) -> list[Countdown]:
        countdowns = self.client.countdowns
        if countdowns is None or not self.game_running:
            return []
        now = self.now()
        out = []
        w = countdowns.window
        if w is not None and self._view.get("window") is not None:
            out.append(Countdown("window", w.remaining(now), w.total, stage=w.stage))
        n = countdowns.negotiation
        if n is not None and self._view.get("negotiation") is not None:
            out.append(Countdown("negotiation", n.remaining(now), n.total))
        t = countdowns.turn
        if t is not None and w is None:
            out.append(Countdown("turn", t.remaining(now), t.total, seats=tuple(t.seats)))
        return out

    def seat_info(self, seat: int) -> SeatInfo:
        local = seat == self.viewer
        info = None
        if self.seats is not None:
            info = next((s for s in self.seats.seats if s.seat == seat), None)
        if info is None or info.status == "human":
            phone = info is not None and info.via == "web"
            kind = "human" if local else "remote"
            return SeatInfo(kind, None, True, local, "connected", phone=phone)
        if info.status == "away":
            left = self._away_until.get(seat, 0.0) - self.now()
            return SeatInfo("remote", None, False, local, "away", max(0, math.ceil(left)))
        if info.status == "bot":
            return SeatInfo("bot", info.bot, False, local, "standing_in")
        return SeatInfo("bot", info.bot, True, False)  # an open seat a bot plays

    def notice(self) -> str | None:
        """A line for the top of the table while the link is not normal."""
        if self.status == "reconnecting":
            return tr((self.host_away or HostAway.LOST).value)  # set whenever joined
        if self.status == "failed":
            return self.failure or tr("net.lost_table")
        return None

    def close(self) -> None:
        """The table scene went away: the connection stays (results, a rematch); the
        owner ends it with `disconnect()`."""

    def abandon(self) -> None:
        """Leave the table on purpose (the pause menu): a bot takes the seat at once."""
        self.disconnect(leave=True)

    # -- the room (before and between games) --------------------------------------------

    @property
    def starter(self) -> int | None:
        return self.seats.starter if self.seats is not None else None

    @property
    def may_start(self) -> bool:
        return (
            self.viewer is not None
            and self.starter == self.viewer
            and self.client.connected
            and not self.game_running
        )

    @property
    def starts_in(self) -> int | None:
        """Whole seconds until the host starts the game by itself (`--start-after`)."""
        if self.start_at is None or self.game_running:
            return None
        return max(0, math.ceil(self.start_at - self.now()))

    def start_game(self) -> None:
        if self.may_start:
            self.client.start_game()

    def seat_name(self, seat: int) -> str | None:
        if self._view is not None and self.game_running:
            return self._view["players"][seat]["name"]
        if self.seats is not None:
            info = next((s for s in self.seats.seats if s.seat == seat), None)
            if info is not None:
                return info.name
        return None

    # -- the link -------------------------------------------------------------------------

    def update(self, dt: float) -> None:
        if self._closed:
            return
        self.client.poll()  # each message is heard below (on_*) as the state takes it in
        token, self._joined_token = self._joined_token, None
        if token is not None:  # once the client holds the welcome: the table's name is known
            self.remember(self, token)

    # The client's `ClientListener`: each message just before the client's state takes it in
    # (so `self._view`, `self.seats` still say what was).

    def on_joined(self, msg: Joined) -> None:
        self.status = "joined"
        self.viewer = msg.seat
        self.seats_local = (msg.seat,) if msg.seat is not None else ()
        if msg.seat is not None and msg.token and self.remember is not None:
            self._joined_token = msg.token  # kept once this poll is taken in

    def on_reconnected(self, msg: Reconnected) -> None:
        self.status = "joined"
        self._pending.clear()  # whatever was in flight may never have arrived
        back = "net.host_back" if self.host_away is HostAway.CLOSED else "net.reconnected"
        self._host_returned = self.host_away is not None
        self.host_away = None
        self._toast(tr(back), "info")

    def on_update(self, msg: Update) -> None:
        if msg.ack is not None:
            self._pending.pop(msg.ack, None)
            self._sends.pop(msg.ack, None)
        self._batches.append(UpdateBatch(list(msg.events), msg.version))

    def on_said(self, msg: Said) -> None:
        event = {"type": "phrase", "seat": msg.seat, "key": "phrase." + msg.phrase}
        self._batches.append(UpdateBatch([event], self._version()))

    def on_gave_up(self, msg: GaveUp) -> None:  # the log line as on one screen ("Dara gives up")
        event = {"type": "gave_up", "seat": msg.seat, "reason": "reason." + msg.reason}
        self._batches.append(UpdateBatch([event], self._version()))

    def on_disconnected(self, msg: Disconnected) -> None:
        if self.joined:
            self.host_away = HostAway.CLOSED if msg.host_closed else HostAway.LOST
        if msg.will_retry:
            self.status = "reconnecting" if self.joined else "connecting"
            self.unreachable = not self.joined
            return
        self.status = "failed"
        if self.failure is None:
            self.failure = (
                tr("net.host_closed" if msg.host_closed else "net.lost_table")
                if self.joined
                else tr("net.cannot_connect", address=self.address)
            )

    def _version(self) -> int:
        return self._view["version"] if self._view is not None else 0

    def on_seats(self, msg: Seats) -> None:
        old = {s.seat: s for s in self.seats.seats} if self.seats is not None else {}
        now = self.now()
        for s in msg.seats:
            if s.status == "away" and s.grace is not None:
                self._away_until[s.seat] = now + s.grace
            else:
                self._away_until.pop(s.seat, None)
            before = old.get(s.seat)
            if before is None or not msg.started or s.seat == self.viewer:
                continue
            name = s.name or self.seat_name(s.seat) or "?"
            if self._host_returned and before.status == "human" and s.status == "away":
                self._with_host.add(s.seat)
                continue
            if s.seat in self._with_host and s.status != "away":
                self._with_host.discard(s.seat)
                if s.status == "bot":  # not back in time after all
                    self._toast(tr("net.dropped", name=name), "info")
                    self._log_seat(s.seat, "seat_dropped")
                continue
            if before.status == "human" and s.status in ("away", "bot"):
                self._toast(tr("net.dropped", name=name), "info")
                self._log_seat(s.seat, "seat_dropped")
            elif before.status in ("away", "bot") and s.status == "human":
                self._toast(tr("net.back", name=name), "info")
                self._log_seat(s.seat, "seat_back")
        open_bots = _bots_open_to_newcomers(msg)  # every screen is told, once
        if open_bots and not self.bot_seats_open:
            self._toast(tr("net.bot_seats_open"), "info")
        self.bot_seats_open = open_bots
        self._host_returned = False
        self.start_at = None if msg.start_in is None else now + msg.start_in

    def _log_seat(self, seat: int, kind: str) -> None:
        """A line for the table's log ("Ann dropped out", "Ann is back"): the link's own
        news, made here as an event the log words like the game's."""
        if self.game_running:
            self._batches.append(UpdateBatch([{"type": kind, "seat": seat}], self._version()))

    def on_snapshot(self, msg: Snapshot) -> None:
        before = self._view
        new_game = (
            before is None
            or any(e.get("type") == "game_started" for e in msg.events)
            or (before["phase"] == "game_over" and msg.view["phase"] != "game_over")
        )
        if new_game:
            self.serial += 1
            self._batches = []
            self._pending.clear()
            self._resend = None
        self._catch_up(msg, -1 if new_game else before["version"])
        self._batches.append(UpdateBatch(list(msg.events), msg.version))
        resend, self._resend = self._resend, None
        if resend is not None:
            action, sends = resend
            if action in msg.legal:
                rid = self.client.send_action(action, msg.version)
                self._pending[rid] = action
                self._sends[rid] = sends + 1
                self.resent += 1
            else:
                self._toast(tr("net.error.stale"), version=msg.version)

    def _catch_up(self, msg: Snapshot, seen: int) -> None:
        """The host's recent events (a rejoin) newer than version `seen`: for the log only."""
        missed = [e for version, events in msg.history if version > seen for e in events]
        if missed:
            self._batches.append(UpdateBatch(missed, msg.version, catch_up=True))

    def on_error(self, msg: ServerError) -> None:
        action = self._pending.pop(msg.id, None) if msg.id is not None else None
        sends = self._sends.pop(msg.id, 1) if msg.id is not None else 1
        if msg.code == "rate_limited":
            self._pending.clear()  # dropped unread: none of them will be answered
        if msg.code == "stale" and action is not None and sends < RESEND_TRIES:
            self._resend = (action, sends)  # a snapshot follows: again if still legal
            return
        text = error_text(msg.code, msg.open_seats, msg.bot_seats, msg.held_seats)
        if msg.code in FINAL:
            self.failure = text
            self.failure_hint = tr(FAILURE_HINTS.get(msg.code, "room.failed_hint"))
            if self.joined and msg.code != "replaced":
                return
        if msg.code == "bad_token" and self.remember is not None:
            self.remember(self, None)  # forget a token the host no longer knows
        if text is not None:
            self._toast(text)

    def _toast(self, text: str, kind: str = "error", version: int | None = None) -> None:
        version = self._version() if version is None else version
        self._batches.append(UpdateBatch([], version, None, text, kind))

    def disconnect(self, leave: bool = False) -> None:
        """End the link (and the host, when this screen started it). A screen that hosts
        stops its host first: every other seat hears the host close the table, not this
        screen's player drop out."""
        if self._closed:
            return
        self._closed = True
        hosting = self.owns_host and self.host is not None
        if hosting:
            self.host.stop()
        elif leave and self.client.connected:
            self.client.leave()
        if leave and self.joined and self.remember is not None:
            self.remember(self, None)  # left on purpose: no "Rejoin" offer for it
        if not self.client.finished:  # else its thread has ended already
            self.client.close()
