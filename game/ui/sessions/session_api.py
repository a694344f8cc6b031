"""What the table scene talks to: a `Session`, the one base every way of playing derives
from: `LocalSession` (hot-seat, game/ui/sessions/session.py; the lesson's `TutorialSession` on top of
it), `NetSession` (a LAN seat or the table display, game/ui/sessions/net_session.py, on top of
net/client/) and `ReplaySession` (a saved game played back, game/ui/sessions/replay_session.py).

The table scene never touches the engine's GameState. It only sees what a LAN client has:
per-seat views (`view(seat)`, plain data), the seat's `LegalActions`, and redacted events as
plain data, delivered in batches by `poll()`.

Every member the UI reads is declared here, with the default that fits a session that has
nothing to say about it (a hot-seat game is not `live`, has no `notice`, owns no host...);
a session overrides what it has. The scenes read them directly, never with getattr
(tests/ui/test_ui_session.py holds that).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from game.rules import Action, LegalActions

#: a seat a person plays on this screen (a seat's kind; any other kind is a bot spec)
HUMAN = "human"

if TYPE_CHECKING:
    from game.rules import Game


@dataclass
class UpdateBatch:
    """Events (plain data, already redacted for the screen's viewer) and the view version
    after them. `error` carries a refused action's reason (the UI shows it as a toast)."""

    events: list[dict] = field(default_factory=list)
    version: int = 0
    error: str | None = None
    toast: str | None = None  # a translated message to show (refusals and notices)
    toast_kind: str = "error"  # "error" (red) or "info"
    # events from before this screen followed the game (a LAN rejoin: the host's recent
    # events): the table logs them without animating them
    catch_up: bool = False


@dataclass(frozen=True)
class SeatInfo:
    """Who sits in a seat, for the badges on the table."""

    # "human" (plays on this screen), "bot", "remote" (a LAN player), or "unknown" (a replay
    # of a save that does not say: a plain plate, no badge)
    kind: str
    bot_kind: str | None = None
    connected: bool = True
    local: bool = False  # this screen may act for the seat
    # LAN only: "connected", "away" (dropped, a bot takes over after `grace` seconds) or
    # "standing_in" (the player dropped and a bot plays the seat until they rejoin)
    status: str | None = None
    grace: int | None = None  # whole seconds left, while "away"
    phone: bool = False  # LAN only: the player holds their hand on a phone (net/web)


@dataclass(frozen=True)
class Countdown:
    """A clock the host runs (real-time windows and the negotiation limit)."""

    kind: str  # "window", "negotiation" or "turn"
    remaining: float
    total: float
    stage: str | None = None  # a "going once" window: "going_once", then "going_twice"
    seats: tuple[int, ...] = ()  # the turn clock: whom it runs for


@dataclass(frozen=True)
class SeatChange:
    """From `at` actions on, `seat` is played by `kind` (a bot standing in for a person, or
    another bot)."""

    at: int
    seat: int
    kind: str


@dataclass(frozen=True)
class SeatRecord:
    """Who played each seat: `kinds` at the start, then `changes` in order."""

    kinds: tuple[str, ...]
    changes: tuple[SeatChange, ...] = ()

    def kind_at(self, seat: int, index: int) -> str:
        """Who played `seat` once `index` actions had been played."""
        kind = self.kinds[seat]
        for c in self.changes:
            if c.seat == seat and c.at <= index:
                kind = c.kind
        return kind

    def info_at(self, seat: int, index: int) -> SeatInfo:
        """The plate's badge for `seat` at that moment (a replay acts for nobody)."""
        kind = self.kind_at(seat, index)
        if kind == HUMAN:
            return SeatInfo(HUMAN, None, True, False)
        standing_in = self.kinds[seat] == HUMAN
        return SeatInfo("bot", kind, True, False, "standing_in" if standing_in else None)


@dataclass(frozen=True)
class FinishedGame:
    """A game this screen played to its end, for "Watch the replay" on the results: the
    rules Game with its log and who played each seat."""

    game: Game
    seats: SeatRecord


class Session:
    """The table's side of a game (see the module docstring). The methods without a body
    worth having raise NotImplementedError: every session has its own."""

    seats_local: tuple[int, ...] = ()  # seats this screen may act for
    viewer: int | None = None  # the seat whose private view is shown (None: the public table)
    hold: bool = False  # set by the table while it animates: a local host waits before bots act
    # events come at someone else's pace (LAN): the table skips animations it fell behind on
    live: bool = False
    lesson: bool = False  # the guided lesson: leaving keeps its step, nothing to abandon
    owns_host: bool = False  # this screen hosts the LAN table: leaving closes it for all
    # LAN: counts the games the connection has seen (a rematch starts a new table scene);
    # None where a session is one game
    serial: int | None = None
    hints_allowed: bool = True  # the coach may be asked (a LAN host or the lesson say no)
    hints_off_reason: str = "hint.off"  # the translation key saying why not
    host_away: object | None = None  # LAN: why the host is out of reach (None: it is not)
    phone_url: str | None = None  # LAN: the phone page's address, when the host serves phones
    busy: bool = False  # an action of this screen's is on its way (LAN: not yet answered)

    @property
    def players(self) -> int:
        raise NotImplementedError

    def view(self, seat: int | None) -> dict:
        raise NotImplementedError

    def legal(self, seat: int) -> LegalActions:
        raise NotImplementedError

    def send(self, action: Action) -> None:
        raise NotImplementedError

    def say(self, seat: int, phrase: str) -> None:
        """A quick phrase ("phrase.too_expensive") shown as a speech bubble: no rules effect."""

    def poll(self) -> list[UpdateBatch]:
        raise NotImplementedError

    def waiting_for(self) -> list[int]:
        raise NotImplementedError

    def decision_seat(self) -> int | None:
        """The local seat whose private decision the game needs now (hand-off target)."""
        return None

    def countdowns(self) -> list[Countdown]:
        return []

    def seat_info(self, seat: int) -> SeatInfo:
        raise NotImplementedError

    def update(self, dt: float) -> None:
        """Once a frame: the session's clocks, bots or link move on."""

    def notice(self) -> str | None:
        """A line shown over the board while something is not normal (LAN: "Reconnecting…")."""
        return None

    def finished_game(self) -> FinishedGame | None:
        """The game just finished, for "Watch the replay" (hot-seat, the lesson); None where
        this screen holds no game of its own (LAN, a replay)."""
        return None

    def keep_finished(self) -> None:
        """Keep the finished game for the title's "Watch a replay" (hot-seat, the lesson); a
        full or read-only disk costs the replay, never the results."""

    def abandon(self) -> None:
        """The player left on purpose (the pause menu): a hot-seat game's autosave goes, a
        LAN seat goes to a bot at once."""

    def close(self) -> None:
        """The table scene went away: release what the session runs (a bots' thread)."""
