"""The table's countdowns: reaction windows with their "going once / going twice" stages, the
negotiation clock and the optional turn clock, and what happens when one runs out (everyone
still asked passes, ``TimeUp``, the waiting seat's default action).

``game.table.master.Master`` keeps them in step with the state after every applied action
(``after``, before the table is told, so an update carries the countdowns it caused); a
time-up is submitted through the Master like any other action. ``serial`` is bumped
whenever a countdown changes (the LAN host sends ``timers`` when it moved on).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

from game.rules import HOST, Action, Pass, Phase, TimeUp, asked_seats, default_action, waiting_for
from game.rules.events import (
    Asked,
    DealClosed,
    DealFailed,
    DealOpened,
    Event,
    WindowClosed,
    WindowOpened,
)
from game.table.clock import Clock, Timer


@dataclass
class WindowClock:
    id: int
    kind: str
    opened: float
    deadline: float  # the end every screen counts down to
    stage: str | None
    version: int = 0  # the state version the window (ask-around: this asking) opened at
    timers: list[Timer] = field(default_factory=list)


@dataclass
class Deadline:
    """The negotiation or turn clock while it runs: when it ends, the timer armed for then."""

    deadline: float
    timer: Timer
    serial: int = 0
    seats: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class Running:
    """A countdown as a screen shows it: its kind ("window", "negotiation", "turn"), the
    seconds left and in all."""

    kind: str
    left: float
    total: float


class Countdowns:
    def __init__(
        self,
        game_state: Callable,
        timing,
        clock: Clock,
        submit: Callable[[Action], bool],
        *,
        run_countdowns: bool = True,
        stats: Counter,
        on_stage: Callable[[], None],
        on_window_closed: Callable[[int], None],
        late_margin: float = 0.0,
    ) -> None:
        """``run_countdowns`` False runs no countdown at all (hot-seat ask-around: a person is never
        hurried); ``on_stage``: "going twice", tell the table now; ``on_window_closed(id)``:
        the bots' answers to that window are moot; ``late_margin``: a window that runs out
        is closed this many seconds after the end it shows (the LAN host: an answer made in
        time on a screen still reaches it), the same for every window and every seat."""
        self._state = game_state
        self.late_margin = late_margin
        self.timing = timing
        self.clock = clock
        self.run_countdowns = run_countdowns
        self.stats = stats
        self._submit = submit
        self._on_stage = on_stage
        self._on_window_closed = on_window_closed
        self.window: WindowClock | None = None
        self.negotiation: Deadline | None = None
        self.turn: Deadline | None = None
        self.serial = 0  # bumped whenever a countdown changes
        self.deal_fair_until = -1e18  # no bot plays into the deal before this (clock time)
        self._window_id = 0
        self._deal_serial = 0

    def _running(self, st=None) -> bool:
        return (st if st is not None else self._state()).phase is not Phase.GAME_OVER

    # ------------------------------------------------------------------ after an action

    def after(self, events: list[Event]) -> None:
        """Keep the countdowns in step with the state after an action (or a start/resume)."""
        if not self.run_countdowns:
            if any(type(e) is DealOpened for e in events):
                self.deal_fair_until = self.clock.now() + self.timing.fair_start
            return
        handlers = _CLOCK_EVENTS
        for e in events:
            on_event = handlers.get(type(e))
            if on_event is not None:
                on_event(self, e)
        st = self._state()
        if st.phase is Phase.GAME_OVER:
            self.cancel()
            return
        # A resumed game (no events) may sit in a window or a negotiation: fresh clocks.
        if (st.window is None) is not (self.window is None):
            if st.window is None:
                self._close_window()
            else:
                self._open_window(st.window.kind.value)
        neg = st.negotiation
        if neg is None:
            if self.negotiation is not None:
                self._stop_negotiation()
        elif self.negotiation is None and not neg.time_up:
            self._start_negotiation()
        if self.timing.turn > 0:
            self._restart_turn()

    def _on_window_opened(self, e: WindowOpened) -> None:
        self._open_window(e.kind)

    def _on_window_closed(self, e: WindowClosed) -> None:
        self._close_window()

    def _on_asked(self, e: Asked) -> None:
        if self.window is not None:  # ask-around: the next one asked gets the whole window
            self._open_window(self.window.kind)

    def _on_deal_opened(self, e: DealOpened) -> None:
        self.deal_fair_until = self.clock.now() + self.timing.fair_start
        self._start_negotiation()

    def _on_deal_ended(self, e: DealClosed | DealFailed) -> None:
        self._stop_negotiation()

    def resume_negotiation(self, seconds: float) -> None:
        """Run the negotiation clock on with ``seconds`` left (a restored game)."""
        n = self.negotiation
        if n is None:
            return
        n.timer.cancel()
        n.deadline = self.clock.now() + min(float(seconds), self.timing.negotiation)
        n.timer = self.clock.call_at(n.deadline, partial(self._negotiation_expired, n.serial))
        self.serial += 1

    def cancel(self) -> None:
        self._close_window()
        self._stop_negotiation()
        self._stop_turn()

    # ------------------------------------------------------------------ windows

    def _open_window(self, kind: str) -> None:
        self._close_window()
        self._window_id += 1
        now = self.clock.now()
        wid = self._window_id
        w = WindowClock(
            wid,
            kind,
            now,
            now + self.timing.window_length(kind),
            "going_once" if kind == "going_once" else None,
            self._state().actions_taken,
        )
        closes = w.deadline + self.late_margin
        w.timers.append(self.clock.call_at(closes, partial(self._window_expired, wid)))
        if kind == "going_once":
            w.timers.append(
                self.clock.call_at(now + self.timing.going_once, partial(self._going_twice, wid))
            )
        self.window = w
        self.serial += 1

    def _close_window(self) -> None:
        w = self.window
        if w is None:
            return
        for timer in w.timers:
            timer.cancel()
        self._on_window_closed(w.id)
        self.window = None
        self.serial += 1

    def _going_twice(self, wid: int) -> None:
        w = self.window
        if w is None or w.id != wid:
            return
        w.stage = "going_twice"
        self.serial += 1
        self._on_stage()

    def _window_expired(self, wid: int) -> None:
        """Time is up: everyone who has not answered passes (in seat order)."""
        while self.window is not None and self.window.id == wid and self._running():
            asked = asked_seats(self._state())
            if not asked:
                break
            self.stats["window_timeouts"] += 1
            if not self._submit(Pass(asked[0])):
                break

    # ------------------------------------------------------------------ negotiation, turn

    def _start_negotiation(self) -> None:
        self._stop_negotiation()
        if self.timing.negotiation <= 0:
            return
        self._deal_serial += 1
        deadline = self.clock.now() + self.timing.negotiation
        serial = self._deal_serial
        timer = self.clock.call_at(deadline, partial(self._negotiation_expired, serial))
        self.negotiation = Deadline(deadline, timer, serial)
        self.serial += 1

    def _stop_negotiation(self) -> None:
        if self.negotiation is not None:
            self.negotiation.timer.cancel()
            self.negotiation = None
            self.serial += 1

    def _negotiation_expired(self, serial: int) -> None:
        n = self.negotiation
        if n is None or n.serial != serial:
            return
        self.negotiation = None
        self.serial += 1
        neg = self._state().negotiation
        if neg is not None and not neg.time_up and self._running():
            self._submit(TimeUp(HOST))

    def _restart_turn(self) -> None:
        st = self._state()
        waiting = waiting_for(st) if st.window is None else []
        old = self.turn
        if old is not None:
            old.timer.cancel()
        if not waiting:
            if old is not None:
                self.turn = None
                self.serial += 1
            return
        deadline = self.clock.now() + self.timing.turn
        timer = self.clock.call_at(deadline, partial(self._turn_expired, st.actions_taken))
        self.turn = Deadline(deadline, timer, seats=list(waiting))
        self.serial += 1

    def _stop_turn(self) -> None:
        if self.turn is not None:
            self.turn.timer.cancel()
            self.turn = None
            self.serial += 1

    def _turn_expired(self, version: int) -> None:
        st = self._state()
        if not self._running(st) or st.actions_taken != version or st.window is not None:
            return
        for seat in waiting_for(st):
            action = default_action(st, seat)
            if action is not None:
                self.stats["turn_timeouts"] += 1
                self._submit(action)
                return

    def running(self) -> list[Running]:
        """The countdowns running now, window, negotiation and turn in that order."""
        now = self.clock.now()
        out = []
        w, n, t = self.window, self.negotiation, self.turn
        if w is not None:
            out.append(Running("window", max(0.0, w.deadline - now), w.deadline - w.opened))
        if n is not None:
            out.append(Running("negotiation", max(0.0, n.deadline - now), self.timing.negotiation))
        if t is not None:
            out.append(Running("turn", max(0.0, t.deadline - now), self.timing.turn))
        return out

    # ------------------------------------------------------------------ on the wire

    def countdowns_data(self) -> dict:
        """The countdowns as the protocol's ``timers`` (milliseconds left and in all)."""
        now = self.clock.now()

        def ms(deadline: float) -> int:
            return max(0, int(round((deadline - now) * 1000)))

        out: dict = {"window": None, "negotiation": None, "turn": None}
        w = self.window
        if w is not None:
            out["window"] = {
                "kind": w.kind,
                "stage": w.stage,
                "ms": ms(w.deadline),
                "total_ms": int(round((w.deadline - w.opened) * 1000)),
            }
        n = self.negotiation
        if n is not None:
            out["negotiation"] = {
                "ms": ms(n.deadline),
                "total_ms": int(self.timing.negotiation * 1000),
            }
        t = self.turn
        if t is not None:
            out["turn"] = {
                "seats": t.seats,
                "ms": ms(t.deadline),
                "total_ms": int(self.timing.turn * 1000),
            }
        return out


#: What each event means for the countdowns (events of other types change none).
_CLOCK_EVENTS: dict[type, Callable[[Countdowns, Event], None]] = {
    WindowOpened: Countdowns._on_window_opened,
    WindowClosed: Countdowns._on_window_closed,
    Asked: Countdowns._on_asked,
    DealOpened: Countdowns._on_deal_opened,
    DealClosed: Countdowns._on_deal_ended,
    DealFailed: Countdowns._on_deal_ended,
}
