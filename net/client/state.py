"""The client's view of the game, held in one place: `ClientState`.

A client's user (the window's `Client`, a headless bot) follows the host through the typed
messages the session hands it (net/client/messages.py). What those messages add up to - its
seat and token, the table, the last view with its legal actions, who sits where, the host's
clocks, whether the link is up - is kept here, and `absorb` is the only code that changes
it. The window's `NetSession` reads its client's state rather than keeping its own copy.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from game.rules import LegalActions
from net.client.messages import (
    Disconnected,
    Joined,
    Message,
    Reconnected,
    Seats,
    Snapshot,
    TableInfo,
    Timers,
    TimersChanged,
    Update,
    ViewMessage,
)


@dataclass
class ClientState:
    """The seat as of the messages absorbed so far (`follow` takes a batch in order)."""

    role: str = "player"  # "player" or "spectator" (as asked, then as the host said)
    token: str | None = None  # the seat's reconnect token
    seat: int | None = None  # None: a spectator, or not joined yet
    table: TableInfo | None = None  # the table's name, size and pace (its welcome)
    joined: bool = False  # the host has accepted us (once; a reconnect keeps it)
    last: ViewMessage | None = None  # the last snapshot or update
    seats: Seats | None = None  # who sits where
    timers: Timers | None = None  # the host's running clocks
    connected: bool = False
    finished: bool = False  # the session ended for good (see the last Disconnected)

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

    def absorb(self, msg: Message) -> None:
        """Take one message in."""
        take = _ABSORB.get(type(msg))
        if take is not None:
            take(self, msg)

    def follow(
        self, messages: Iterable[Message], each: Callable[[Message], None] | None = None
    ) -> list[Message]:
        """Take `messages` in, oldest first, and return them. `each(msg)` sees every message
        just before the state takes it in, so it can tell what the message changes."""
        out = []
        for msg in messages:
            if each is not None:
                each(msg)
            self.absorb(msg)
            out.append(msg)
        return out

    def _joined(self, msg: Joined) -> None:
        self.seat, self.token, self.table, self.role = msg.seat, msg.token, msg.table, msg.role
        self.joined = self.connected = True

    def _reconnected(self, msg: Reconnected) -> None:
        self.connected = True

    def _view(self, msg: ViewMessage) -> None:
        self.last = msg
        if msg.timers is not None or isinstance(msg, Snapshot):
            self.timers = msg.timers

    def _timers(self, msg: TimersChanged) -> None:
        self.timers = msg.timers

    def _seats(self, msg: Seats) -> None:
        self.seats = msg

    def _disconnected(self, msg: Disconnected) -> None:
        self.connected = False
        self.finished = not msg.will_retry


#: what each kind of message changes (the others - errors, phrases - change nothing here)
_ABSORB: dict[type, Callable[[ClientState, Message], None]] = {
    Joined: ClientState._joined,
    Reconnected: ClientState._reconnected,
    Snapshot: ClientState._view,
    Update: ClientState._view,
    TimersChanged: ClientState._timers,
    Seats: ClientState._seats,
    Disconnected: ClientState._disconnected,
}
