"""Tweens that own their timing, so scenes stay declarative:

    tweens.animate(sprite, duration=0.4, ease="out_back", delay=0.1, x=800, y=300)

Every numeric attribute named is interpolated from its value when the tween *starts* (after
its delay) to the target. `update(dt)` advances everything; a test or benchmark drives it
with a fixed dt, so animations finish deterministically. `on_done` runs once, at the end.
"""

from __future__ import annotations

import math
from collections.abc import Callable


def linear(t: float) -> float:
    return t


def in_quad(t: float) -> float:
    return t * t


def out_quad(t: float) -> float:
    return 1 - (1 - t) * (1 - t)


def in_out_quad(t: float) -> float:
    return 2 * t * t if t < 0.5 else 1 - (-2 * t + 2) ** 2 / 2


def out_cubic(t: float) -> float:
    return 1 - (1 - t) ** 3


def in_out_cubic(t: float) -> float:
    return 4 * t**3 if t < 0.5 else 1 - (-2 * t + 2) ** 3 / 2


def out_back(t: float) -> float:
    c1 = 1.70158
    c3 = c1 + 1
    return 1 + c3 * (t - 1) ** 3 + c1 * (t - 1) ** 2


def out_elastic(t: float) -> float:
    if t in (0.0, 1.0):
        return t
    return 2 ** (-10 * t) * math.sin((t * 10 - 0.75) * (2 * math.pi) / 3) + 1


def out_bounce(t: float) -> float:
    n1, d1 = 7.5625, 2.75
    if t < 1 / d1:
        return n1 * t * t
    if t < 2 / d1:
        t -= 1.5 / d1
        return n1 * t * t + 0.75
    if t < 2.5 / d1:
        t -= 2.25 / d1
        return n1 * t * t + 0.9375
    t -= 2.625 / d1
    return n1 * t * t + 0.984375


EASINGS: dict[str, Callable[[float], float]] = {
    f.__name__: f
    for f in (
        linear,
        in_quad,
        out_quad,
        in_out_quad,
        out_cubic,
        in_out_cubic,
        out_back,
        out_elastic,
        out_bounce,
    )
}


class Tween:
    __slots__ = ("target", "goal", "start", "duration", "delay", "ease", "on_done", "t", "done")

    def __init__(self, target, duration, ease, delay, on_done, goal: dict[str, float]):
        self.target = target
        self.goal = goal
        self.start: dict[str, float] | None = None
        self.duration = max(0.0, duration)
        self.delay = max(0.0, delay)
        self.ease = EASINGS[ease] if isinstance(ease, str) else ease
        self.on_done = on_done
        self.t = 0.0
        self.done = False

    def update(self, dt: float) -> float:
        """Advance; returns the time left over after finishing (0 while running)."""
        if self.done:
            return dt
        if self.delay > 0:
            if dt < self.delay:
                self.delay -= dt
                return 0.0
            dt -= self.delay
            self.delay = 0.0
        if self.start is None:
            self.start = {k: float(getattr(self.target, k)) for k in self.goal}
        self.t += dt
        frac = 1.0 if self.duration == 0 else min(1.0, self.t / self.duration)
        k = self.ease(frac)
        for name, end in self.goal.items():
            a = self.start[name]
            setattr(self.target, name, a + (end - a) * k)
        if frac >= 1.0:
            for name, end in self.goal.items():
                setattr(self.target, name, end)
            self.done = True
            if self.on_done is not None:
                self.on_done()
            return self.t - self.duration
        return 0.0


class Tweener:
    """All running tweens of a scene. `speed` scales time (the animation-speed setting)."""

    def __init__(self) -> None:
        self.tweens: list[Tween] = []
        self.speed = 1.0

    def animate(
        self,
        target,
        duration: float = 0.3,
        ease: str | Callable[[float], float] = "out_cubic",
        delay: float = 0.0,
        on_done: Callable[[], None] | None = None,
        **goal: float,
    ) -> Tween:
        tw = Tween(target, duration, ease, delay, on_done, goal)
        self.tweens.append(tw)
        return tw

    def wait(self, delay: float, on_done: Callable[[], None]) -> Tween:
        """Call on_done after delay seconds (a tween of nothing)."""
        return self.animate(_NOTHING, duration=0.0, delay=delay, on_done=on_done)

    def update(self, dt: float) -> None:
        dt *= self.speed
        if not self.tweens:
            return
        running = self.tweens
        self.tweens = []
        for tw in running:
            tw.update(dt)
        # tweens started from on_done callbacks were appended to the new list
        self.tweens = [tw for tw in running if not tw.done] + self.tweens

    def cancel(self, target) -> None:
        self.tweens = [tw for tw in self.tweens if tw.target is not target]

    def finish_all(self) -> None:
        """Jump every tween (and the ones their callbacks start) to its end."""
        for _ in range(100):
            if not self.tweens:
                return
            self.update(1e6 / max(self.speed, 1e-6))

    def busy(self) -> bool:
        return bool(self.tweens)

    def __len__(self) -> int:
        return len(self.tweens)


class _Nothing:
    pass


_NOTHING = _Nothing()
