"""What the table scene talks to: a `Session`. Hot-seat play has `LocalSession`
(game/ui/session.py); a LAN client implements the same protocol on top of net/client.py.

The table scene never touches the engine's GameState. It only sees what a LAN client has:
per-seat views (`view(seat)`, plain data), the seat's `LegalActions`, and redacted events as
plain data, delivered in batches by `poll()`.
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


@dataclass(frozen=True)
class SeatInfo:
    """Who sits in a seat, for the badges on the table."""

    kind: str  # "human" (plays on this screen), "bot", or "remote" (a LAN player)
    bot_kind: str | None = None
    connected: bool = True
    local: bool = False  # this screen may act for the seat


@dataclass(frozen=True)
class Countdown:
    """A clock the host runs (real-time windows and the negotiation limit)."""

    kind: str  # "window" or "negotiation"
    remaining: float
    total: float


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
