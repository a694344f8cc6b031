"""The bot scheduler's clock (game/table/bot_schedule.py: the LAN host, hot-seat and simulations): every
countdown (reaction windows, the negotiation clock, the turn clock, grace periods, bots'
pauses, rate limits) reads ``now()`` and schedules with ``call_at``.

``LoopClock`` is real time on the running asyncio loop. ``ManualClock`` only moves when a
test calls ``advance``: timers then fire in deadline order, each seeing ``now()`` equal to
its own deadline, so timer tests are exact and need no sleeps.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # asyncio and logging load threads and sockets: not for a simulation
    import asyncio


_NEVER = float("inf")


def _log_failure() -> None:
    import logging

    logging.getLogger(__name__).exception("timer callback failed")


class Timer:
    """A scheduled callback; ``cancel()`` is idempotent."""

    __slots__ = ("when", "callback", "cancelled", "_handle")

    def __init__(self, when: float, callback: Callable[[], None]) -> None:
        self.when = when
        self.callback = callback
        self.cancelled = False
        self._handle: asyncio.TimerHandle | None = None

    def cancel(self) -> None:
        self.cancelled = True
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None


class Clock:
    """Interface: ``now()`` in seconds (monotonic) and ``call_at(when, callback)``."""

    def now(self) -> float:  # pragma: no cover - interface
        raise NotImplementedError

    def call_at(self, when: float, callback: Callable[[], None]) -> Timer:  # pragma: no cover
        raise NotImplementedError

    def call_later(self, delay: float, callback: Callable[[], None]) -> Timer:
        return self.call_at(self.now() + max(0.0, delay), callback)

    def next_deadline(self) -> float:
        """The earliest deadline of a pending timer (``inf``: none). A clock that cannot
        tell says ``-inf``: anything may be due, so nobody may jump the queue."""
        return float("-inf")


def _run(timer: Timer) -> None:
    if timer.cancelled:
        return
    timer.cancelled = True  # fired: a later cancel() is a no-op
    try:
        timer.callback()
    except Exception:  # a timer must never take the host down
        _log_failure()


class LoopClock(Clock):
    """Real time on an asyncio loop (the loop running when it is created, or ``loop``)."""

    def __init__(self, loop: asyncio.AbstractEventLoop | None = None) -> None:
        if loop is None:
            import asyncio

            loop = asyncio.get_running_loop()
        self.loop = loop

    def now(self) -> float:
        return self.loop.time()

    def call_at(self, when: float, callback: Callable[[], None]) -> Timer:
        timer = Timer(when, callback)
        timer._handle = self.loop.call_at(when, _run, timer)
        return timer


class ManualClock(Clock):
    """A clock that stands still until ``advance(seconds)``. ``strict``: a failing callback
    raises out of ``advance`` instead of being logged (a simulation: a broken bot driver or
    a game that never ends must stop the run with its own error, not leave a quiet table)."""

    def __init__(self, start: float = 1000.0, *, strict: bool = False) -> None:
        self._now = start
        self.strict = strict
        self._heap: list[tuple[float, int, Timer]] = []
        self._seq = itertools.count()

    def now(self) -> float:
        return self._now

    def call_at(self, when: float, callback: Callable[[], None]) -> Timer:
        timer = Timer(when, callback)
        heapq.heappush(self._heap, (when, next(self._seq), timer))
        return timer

    def call_later(self, delay: float, callback: Callable[[], None]) -> Timer:
        """``Clock.call_later`` in one call: a simulation schedules every bot move so."""
        when = self._now + max(0.0, delay)
        timer = Timer(when, callback)
        heapq.heappush(self._heap, (when, next(self._seq), timer))
        return timer

    def pending(self) -> list[float]:
        """Deadlines of the timers not yet fired nor cancelled."""
        return sorted(when for when, _, t in self._heap if not t.cancelled)

    def next_deadline(self) -> float:
        heap = self._heap
        while heap and heap[0][2].cancelled:  # fired or cancelled: advance would skip it
            heapq.heappop(heap)
        return heap[0][0] if heap else _NEVER

    def advance(self, seconds: float = 0.0) -> int:
        """Move time forward, firing every timer due by then (also ones that due timers
        schedule within the span); returns how many fired."""
        end = self._now + max(0.0, seconds)
        fired = 0
        while self._heap and self._heap[0][0] <= end:
            when, _, timer = heapq.heappop(self._heap)
            if timer.cancelled:
                continue
            self._now = max(self._now, when)
            if self.strict:
                timer.cancelled = True  # fired, as _run marks it
                timer.callback()
            else:
                _run(timer)
            fired += 1
        self._now = end
        return fired

    def tick(self, seconds: float) -> int:
        """A frame: time moves to the frame's end first, then every timer due by then fires
        seeing that end (what a screen shows happens at frame times, so a pause counted from
        a moment the screen showed is never shortened by part of a frame)."""
        self._now += max(0.0, seconds)
        return self.advance(0.0)

    def jump(self, seconds: float) -> None:
        """Move ``now()`` forward without firing anything (a still picture of a running
        countdown); timers now due fire at the next ``advance``."""
        self._now += max(0.0, seconds)
