"""What the LAN client hands to its user: typed messages, the seat's legal actions, addresses.

Kept apart from the connection logic (``net.client.session``) so that screens and tests can build
and read these messages without a session. ``legal_for_view`` works a seat's legal actions
out from its own view (legal actions never depend on what a seat cannot see).
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass

from game.rules import (
    ActionFormatError,
    LegalActions,
    SetAskPreference,
    legal_actions,
    legal_from_data,
)
from game.rules.determinize import state_from_view
from game.rules.seat_view import SeatView

log = logging.getLogger(__name__)

#: Host error codes after which reconnecting cannot help.
FINAL_ERRORS = frozenset(
    {
        "version",
        "bad_code",
        "bad_name",
        "bad_token",
        "table_full",
        "too_many_attempts",
        "replaced",
    }
)
BULKY_KINDS = frozenset({"update", "snapshot"})
#: ``bye`` reasons after which the client does not reconnect.
FINAL_BYES = frozenset({"game_over", "left", "replaced"})
#: ``bye`` reasons that say the host itself is closing the table (it may come back with
#: ``--resume``), as opposed to a line that just went dead.
HOST_CLOSING_BYES = frozenset({"shutdown", "game_over"})


def parse_address(text: str, default_port: int | None = None) -> tuple[str, int]:
    """ "HOST:PORT" (IPv6: "[addr]:port") -> (host, port)."""
    text = text.strip()
    host, sep, port = text.rpartition(":")
    if not sep:
        if default_port is None:
            raise ValueError(f"address {text!r} needs a port (HOST:PORT)")
        host, port = text, str(default_port)
    host = host.strip("[]")
    if not host or not port.isdigit() or not 1 <= int(port) <= 65535:
        raise ValueError(f"bad address {text!r} (HOST:PORT)")
    return host, int(port)


# --------------------------------------------------------------------------- legal actions


def may_act(view: dict) -> bool:
    """False when the seat surely has no move (saves rebuilding a state): outside
    negotiation only the turn player moves, and an open window only asks its answerers."""
    seat = view.get("seat")
    if seat is None or view.get("phase") == "game_over":
        return False
    win = view.get("window")
    if win is not None:
        return seat in win.get("asked", ())
    return view.get("phase") == "negotiation" or view.get("turn") == seat


def legal_for_view(view: dict) -> LegalActions:
    """The seat's legal actions, worked out from its own view (exactly the host's, meta
    actions included: ``.moves()`` leaves those out)."""
    seat = view.get("seat")
    if seat is None or view.get("phase") == "game_over":
        return LegalActions()
    if not may_act(view):  # only the ask preference, which is always there
        asks = view["players"][seat]["asks_only_when_touched"]
        return LegalActions([SetAskPreference(seat, not asks)])
    return legal_actions(state_from_view(SeatView.from_data(view)), seat)


# --------------------------------------------------------------------------- messages


#: Longest reaction window (seconds, a day) a host takes, announces or welcomes with.
MAX_WINDOW = 86_400
#: How a table's reaction windows ask: game.rules.WindowMode's values.
WINDOW_MODES = ("ask_around", "real_time")


@dataclass(frozen=True, slots=True)
class TablePace:
    """How a table's reaction windows ask (``mode``, a WindowMode value) and how long each
    player has to answer one (``window``, whole seconds): the lobby lists it before anyone
    joins (the announcement's ``wm``/``win``), the room shows it to everyone seated (the
    ``welcome``)."""

    mode: str
    window: int

    def __post_init__(self) -> None:
        if self.mode not in WINDOW_MODES:
            raise ValueError(f"bad window mode {self.mode!r}")
        if type(self.window) is not int or not 1 <= self.window <= MAX_WINDOW:
            raise ValueError(f"bad window {self.window!r} (1..{MAX_WINDOW} s)")

    def to_data(self) -> dict:
        return {"mode": self.mode, "window": self.window}

    @classmethod
    def from_data(cls, data) -> TablePace | None:
        """The welcome's ``table.pace``: None when absent (an older host); ValueError if bad."""
        if data is None:
            return None
        if not isinstance(data, dict):
            raise ValueError(f"bad pace {data!r}")
        return cls(data.get("mode"), data.get("window"))


@dataclass(frozen=True)
class TableInfo:
    name: str
    seats: int
    code_required: bool
    started: bool
    hints: bool = True  # the host allows hints at its table (absent: an older host, allowed)
    pace: TablePace | None = None  # None: an older host, which does not say


@dataclass(frozen=True)
class HostSeat:
    """A seat as the host's ``seats`` message lists it (the table's badges use
    game.ui.sessions.session_api.SeatInfo). ``status``: "open" (no player: a bot plays it once the game runs), "human"
    (connected), "away" (dropped; a bot takes over after ``grace`` seconds), "bot" (dropped:
    a bot plays until the player rejoins). ``newcomers``: a newcomer with the room code may
    take it (an open seat before the game; during one only if the host opened bot seats).
    ``via``: how a connected player reaches the host, "tcp" (a program) or "web" (a phone)."""

    seat: int
    name: str | None
    status: str
    bot: str | None
    grace: float | None  # seconds left, when "away"
    newcomers: bool = False
    via: str | None = None


@dataclass(frozen=True)
class HostCountdown:
    """A countdown the host runs, converted to this machine's ``time.monotonic()`` (the
    table draws it as a game.ui.sessions.session_api.Countdown)."""

    deadline: float
    total: float
    kind: str | None = None  # window kind: travel, boss, recruit, going_once
    stage: str | None = None  # going-once window: "going_once" then "going_twice"
    seats: tuple[int, ...] = ()  # turn clock: the seats it runs for

    def remaining(self, now: float | None = None) -> float:
        return max(0.0, self.deadline - (time.monotonic() if now is None else now))


@dataclass(frozen=True)
class HostCountdowns:
    window: HostCountdown | None = None  # the open reaction window
    negotiation: HostCountdown | None = None  # the negotiation clock
    turn: HostCountdown | None = None  # the optional turn clock


def countdowns_from(data: dict | None, now: float) -> HostCountdowns | None:
    if not isinstance(data, dict):
        return None

    def cd(d, **extra) -> HostCountdown | None:
        if not isinstance(d, dict):
            return None
        ms, total = d.get("ms"), d.get("total_ms")
        if not isinstance(ms, int) or not isinstance(total, int):
            return None
        return HostCountdown(now + ms / 1000, total / 1000, **extra)

    w, t = data.get("window"), data.get("turn")
    seats = t.get("seats") if isinstance(t, dict) else None
    return HostCountdowns(
        window=cd(w, kind=w.get("kind"), stage=w.get("stage")) if isinstance(w, dict) else None,
        negotiation=cd(data.get("negotiation")),
        turn=cd(t, seats=tuple(s for s in seats if isinstance(s, int)))
        if isinstance(seats, list)
        else cd(t),
    )


class Message:
    """Base of everything ``Client.poll()`` returns."""

    __slots__ = ()

    def __repr__(self) -> str:
        fields = ", ".join(f"{k}={getattr(self, k)!r}" for k in self.__slots__ if k != "view")
        return f"{type(self).__name__}({fields})"


class Joined(Message):
    """The host accepted us: our seat (None for a spectator) and its reconnect token."""

    __slots__ = ("seat", "token", "role", "table")

    def __init__(self, seat: int | None, token: str | None, role: str, table: TableInfo) -> None:
        self.seat, self.token, self.role, self.table = seat, token, role, table


class Reconnected(Message):
    """The connection came back (same seat, via its token); a Snapshot follows."""

    __slots__ = ("seat",)

    def __init__(self, seat: int | None) -> None:
        self.seat = seat


class Seats(Message):
    """Who sits where and whether they are connected (the lobby, then during the game)."""

    __slots__ = ("seats", "started", "over", "starter", "start_in", "spectators")

    def __init__(self, seats, started, over, starter, start_in, spectators) -> None:
        self.seats: tuple[HostSeat, ...] = seats
        self.started: bool = started
        self.over: bool = over
        self.starter: int | None = starter  # the seat that may send start_game()
        self.start_in: float | None = start_in  # seconds until the host starts by itself
        self.spectators: int = spectators


class ViewMessage(Message):
    __slots__ = ("version", "view", "events", "countdowns", "_legal")

    @property
    def legal(self) -> LegalActions:
        """The seat's legal actions in this view (computed once, on first use)."""
        if self._legal is None:
            self._legal = legal_for_view(self.view)
        return self._legal


class Snapshot(ViewMessage):
    """The whole view (on joining, rejoining, after a desync or a stale action). ``events``
    is the opening deal at the start of a game, else empty. ``history`` (asked for in the
    hello) holds the game's recent events on joining or rejoining a running game, as
    ``(version, events)`` pairs, oldest first, redacted for us as they were live."""

    __slots__ = ("history",)

    def __init__(
        self,
        version: int,
        view: dict,
        events: list,
        countdowns: HostCountdowns | None,
        history: tuple[tuple[int, list], ...] = (),
    ) -> None:
        self.version, self.view, self.events, self.countdowns = version, view, events, countdowns
        self.history = history
        self._legal = None


def history_from(data) -> tuple[tuple[int, list], ...]:
    """The snapshot's ``history`` as (version, events) pairs; malformed batches are skipped."""
    out = []
    for batch in data or ():
        if not isinstance(batch, dict):
            continue
        version, events = batch.get("version"), batch.get("events")
        if type(version) is int and isinstance(events, list):
            out.append((version, [e for e in events if isinstance(e, dict) and "type" in e]))
    return tuple(out)


class Update(ViewMessage):
    """One action applied: its events (redacted for us) and the new view. ``changed``
    names the top-level view keys that changed; ``timers`` is None when unchanged;
    ``ack`` is the id of our own action that this update applied."""

    __slots__ = ("changed", "ack")

    def __init__(self, version, view, events, countdowns, changed, ack) -> None:
        self.version, self.view, self.events, self.countdowns = version, view, events, countdowns
        self.changed: frozenset[str] = changed
        self.ack: int | None = ack
        self._legal = None


class CountdownsChanged(Message):
    """A countdown changed between actions (e.g. "going once" became "going twice")."""

    __slots__ = ("countdowns",)

    def __init__(self, countdowns: HostCountdowns) -> None:
        self.countdowns = countdowns


class ServerError(Message):
    """The host refused something; ``id`` is the action's id, ``rule`` the broken rule;
    ``open_seats`` / ``bot_seats`` / ``held_seats`` (a refused seat) the seats a newcomer
    could take, those bots play and those people hold (``HeldSeat``), so the refusal can
    name them in the player's language."""

    __slots__ = (
        "code", "message", "id", "rule", "version", "open_seats", "bot_seats", "held_seats"
    )  # fmt: skip

    def __init__(
        self, code, message, id=None, rule=None, version=None, open_seats=None, bot_seats=None,
        held_seats=None,
    ) -> None:  # fmt: skip
        self.code, self.message, self.id, self.rule, self.version = code, message, id, rule, version
        self.open_seats, self.bot_seats = open_seats, bot_seats
        self.held_seats: list[HeldSeat] = [HeldSeat.from_data(h) for h in held_seats or ()]


class HeldSeat(Message):
    """A seat a person holds, as a refusal names it: ``away``, its holder dropped and the
    seat is kept for their token (only their own screen takes it back)."""

    __slots__ = ("seat", "name", "away")

    def __init__(self, seat: int, name: str, away: bool) -> None:
        self.seat, self.name, self.away = seat, name, away

    @classmethod
    def from_data(cls, d: dict) -> HeldSeat:
        return cls(d["seat"], d["name"], d["away"])


class Said(Message):
    __slots__ = ("seat", "phrase")

    def __init__(self, seat: int, phrase: str) -> None:
        self.seat, self.phrase = seat, phrase


class GaveUp(Message):
    """A host's bot Boss failed a deal, and why (a ``GAVE_UP_REASONS`` key), for the log."""

    __slots__ = ("seat", "reason")

    def __init__(self, seat: int, reason: str) -> None:
        self.seat, self.reason = seat, reason


class Disconnected(Message):
    """The connection is gone; ``will_retry``: the client is reconnecting by itself.
    ``host_closed``: the host said it was closing the table (a ``bye`` ``shutdown``) before
    the line closed; otherwise contact was lost (a crash, a cable, a silent host)."""

    __slots__ = ("reason", "will_retry", "host_closed")

    def __init__(self, reason: str, will_retry: bool, host_closed: bool = False) -> None:
        self.reason, self.will_retry, self.host_closed = reason, will_retry, host_closed


def sent_legal(msg: dict) -> LegalActions | None:
    """The legal actions the host sent (hello with ``legal``), or None."""
    data = msg.get("legal")
    if data is None:
        return None
    try:
        return legal_from_data(data)
    except (ActionFormatError, TypeError, ValueError):
        log.warning("the host sent unreadable legal actions; working them out here")
        return None
