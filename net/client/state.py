"""The client's view of the game, held in one place: `ClientState`.

A client's user (the window's `Client`, a headless bot) follows the host through the typed
messages the session hands it (net/client/messages.py). What those messages add up to - its
seat and token, the table, the last view with its legal actions, who sits where, the host's
clocks, whether the link is up - is kept here, and `absorb` is the only code that changes
it. The window's `NetSession` reads its client's state rather than keeping its own copy,
and hears each message through the state's `listener` (a `ClientListener`) just before the
state takes it in: one dispatch, by the message's type (`functools.singledispatchmethod`),
for both.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import singledispatchmethod

from game.rules import LegalActions
from net.client.messages import (
    CountdownsChanged,
    Disconnected,
    GaveUp,
    HostCountdowns,
    Joined,
    Message,
    Reconnected,
    Said,
    Seats,
    ServerError,
    Snapshot,
    TableInfo,
    Update,
    ViewMessage,
)


class ClientListener:
    """What a client's user hears, one method per kind of message, each called just before
    the state takes the message in (so the state still says what was). Every method does
    nothing here: a user overrides those it needs."""

    def on_joined(self, msg: Joined) -> None: ...
    def on_reconnected(self, msg: Reconnected) -> None: ...
    def on_seats(self, msg: Seats) -> None: ...
    def on_snapshot(self, msg: Snapshot) -> None: ...
    def on_update(self, msg: Update) -> None: ...
    def on_error(self, msg: ServerError) -> None: ...
    def on_said(self, msg: Said) -> None: ...
    def on_gave_up(self, msg: GaveUp) -> None: ...
    def on_disconnected(self, msg: Disconnected) -> None: ...


@dataclass
class ClientState:
    """The seat as of the messages absorbed so far (`absorb` takes one in)."""

    role: str = "player"  # "player" or "spectator" (as asked, then as the host said)
    token: str | None = None  # the seat's reconnect token
    seat: int | None = None  # None: a spectator, or not joined yet
    table: TableInfo | None = None  # the table's name, size and pace (its welcome)
    joined: bool = False  # the host has accepted us (once; a reconnect keeps it)
    last: ViewMessage | None = None  # the last snapshot or update
    seats: Seats | None = None  # who sits where
    countdowns: HostCountdowns | None = None  # the host's running clocks
    connected: bool = False
    finished: bool = False  # the session ended for good (see the last Disconnected)
    listener: ClientListener = field(default_factory=ClientListener, repr=False)

    @property
    def view(self) -> dict | None:
        return self.last.view if self.last is not None else None

    @property
    def version(self) -> int | None:
        return self.last.version if self.last is not None else None

    @property
    def legal(self) -> LegalActions:
        """Our legal actions in the last view (empty for spectators and before any)."""
        return self.last.legal if self.last is not None else LegalActions()

    @singledispatchmethod
    def absorb(self, msg: Message) -> None:
        """Take one message in: the listener hears it, then the state changes (each kind
        below; a kind not registered changes nothing)."""

    @absorb.register
    def _joined(self, msg: Joined) -> None:
        self.listener.on_joined(msg)
        self.seat, self.token, self.table, self.role = msg.seat, msg.token, msg.table, msg.role
        self.joined = self.connected = True

    @absorb.register
    def _reconnected(self, msg: Reconnected) -> None:
        self.listener.on_reconnected(msg)
        self.connected = True

    @absorb.register
    def _snapshot(self, msg: Snapshot) -> None:
        self.listener.on_snapshot(msg)
        self.last = msg
        self.countdowns = msg.countdowns

    @absorb.register
    def _update(self, msg: Update) -> None:
        self.listener.on_update(msg)
        self.last = msg
        if msg.countdowns is not None:
            self.countdowns = msg.countdowns

    @absorb.register
    def _countdowns(self, msg: CountdownsChanged) -> None:
        self.countdowns = msg.countdowns

    @absorb.register
    def _seats(self, msg: Seats) -> None:
        self.listener.on_seats(msg)
        self.seats = msg

    @absorb.register
    def _error(self, msg: ServerError) -> None:
        self.listener.on_error(msg)

    @absorb.register
    def _said(self, msg: Said) -> None:
        self.listener.on_said(msg)

    @absorb.register
    def _gave_up(self, msg: GaveUp) -> None:
        self.listener.on_gave_up(msg)

    @absorb.register
    def _disconnected(self, msg: Disconnected) -> None:
        self.listener.on_disconnected(msg)
        self.connected = False
        self.finished = not msg.will_retry
