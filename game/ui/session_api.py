"""What the table scene talks to: a `Session`. Hot-seat play has `LocalSession`
(game/ui/session.py); a LAN client has `NetSession` (game/ui/net_session.py) on top of
net/client/session.py.

The table scene never touches the engine's GameState. It only sees what a LAN client has:
per-seat views (`view(seat)`, plain data), the seat's `LegalActions`, and redacted events as
plain data, delivered in batches by `poll()`.

Optional extras the table looks for with getattr: `notice() -> str | None` (a line shown
over the board, e.g. "Reconnecting…" on LAN) and `live` (True: events arrive at someone
else's pace, so the table skips animations it has fallen behind on).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from game.rules import Action, LegalActions


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


@dataclass(frozen=True)
class Countdown:
    """A clock the host runs (real-time windows and the negotiation limit)."""

    kind: str  # "window", "negotiation" or "turn"
    remaining: float
    total: float
    stage: str | None = None  # a "going once" window: "going_once", then "going_twice"
    seats: tuple[int, ...] = ()  # the turn clock: whom it runs for


@runtime_checkable
class Session(Protocol):
    seats_local: tuple[int, ...]  # seats this screen may act for
    viewer: int | None  # the seat whose private view is shown (None: the public table)
    hold: bool  # set by the table while it animates: a local host waits before bots act

    @property
    def players(self) -> int: ...

    def view(self, seat: int | None) -> dict: ...

    def legal(self, seat: int) -> LegalActions: ...

    def send(self, action: Action) -> None: ...

    def say(self, seat: int, phrase: str) -> None:
        """A quick phrase ("phrase.too_expensive") shown as a speech bubble: no rules effect."""

    def poll(self) -> list[UpdateBatch]: ...

    def waiting_for(self) -> list[int]: ...

    def decision_seat(self) -> int | None:
        """The local seat whose private decision the game needs now (hand-off target)."""

    def countdowns(self) -> list[Countdown]: ...

    def seat_info(self, seat: int) -> SeatInfo: ...

    def update(self, dt: float) -> None: ...
