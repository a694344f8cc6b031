"""Events become motion: the animation director keeps one timeline (`cursor`: when the
next event's animation starts) and stages what happens on it: tweened sprites flying,
banners, speech bubbles, sounds, the die rolling and the marker gliding round the ring.
What each event looks like is choreography.py's table (`ANIMATIONS`).

The table always draws the newest view; the director hides the few things still "in
flight" (a tile, the crown, a recruited placard) until their sprite lands.

The screen is never more than LAG_BOUND behind the state: each batch fed is due that long
after it arrived, and while what is queued would land later than that, the whole timeline
(every pending cue, its waits and its motion) plays faster, just enough to land each batch
by its due time (`pace`); when the events arrive no faster than they play, nothing changes.
A banner goes as soon as the moment it announces has ended in the state (a "going once"
with the window closed), whether it is on screen or still to come (choreography's
MOMENT_ENDS).
"""

from __future__ import annotations

import random

from ..drawing import draw
from ..drawing.theme import GOLD, THEME, seat_colour
from ..drawing.tween import Tweener
from . import layout as L
from .board import marker_token
from .choreography import ANIMATIONS, MOMENT_ENDS, NOT_ANIMATED
from .sprites import (
    BUBBLE_PAD,
    BUBBLE_TEXT_W,
    Banner,
    Bubble,
    Sprite,
    bubble_image,
    faded,
    gain_text,
    paid_out,
)

__all__ = ["ANIMATIONS", "LAG_BOUND", "NOT_ANIMATED", "Director", "gain_text", "paid_out"]

LAG_BOUND = 0.98  # seconds (real) a batch's animations may land after it arrived (goal: 1 s)
BANNER_GONE = 0.15  # seconds a banner whose moment ended takes to fade out


class Director:
    """Schedules animations for events on one timeline (`cursor`: when the next one starts)."""

    def __init__(self, table) -> None:
        self.table = table  # geometry: seat_anchor, placard_pos, card_pos, hand_anchor
        self.tweens = Tweener()
        self.sprites: list[Sprite] = []
        self.banners: list[Banner] = []
        self.bubbles: list[Bubble] = []
        self.cursor = 0.0  # seconds from now when the next event's animation starts
        self.clock = 0.0  # the timeline's seconds played (animation seconds, as the tweens')
        self.horizon = 0.0  # the timeline's moment when all staged so far is over
        self.real = 0.0  # real seconds the director has been updated
        self._due: list[tuple[float, float]] = []  # per batch: (timeline mark, real due time)
        self.marker_f: float | None = None  # the marker's drawn position (fractional space)
        self.die_face: int | None = None
        self.die_rolling = False
        self.die_y = 0.0
        self.rng = random.Random(5)
        self.quiet = False  # True: skip animations (the screenshot's setup, fast tests)
        self.paid_out: dict[int, int] = {}  # the batch being fed: what each player pays

    # -- public ---------------------------------------------------------------------------

    def busy(self) -> bool:
        return bool(self.tweens.tweens)

    def moving(self) -> bool:
        """Anything of the director's changes on screen every frame (or is about to)."""
        return bool(self.tweens.tweens or self.sprites or self.banners or self.bubbles or self.die_rolling)

    def pace(self, dt: float) -> float:
        """How many times its own pace the timeline plays in the next dt: 1, or just enough
        for every batch still to land to land by its due time."""
        self._due = [(mark, due) for mark, due in self._due if mark > self.clock + 1e-9]
        rate = 1.0
        for mark, due in self._due:
            left = max(dt, due - self.real - dt)  # landed a frame early: frames vary
            rate = max(rate, (mark - self.clock) / (self.tweens.speed * left))
        return rate

    def update(self, dt: float) -> None:
        played = dt * self.pace(dt)
        self.real += dt
        self.tweens.update(played)
        self.clock += played * self.tweens.speed
        self.cursor = max(0.0, self.cursor - played * self.tweens.speed)
        if self.die_rolling:
            self.die_face = self.rng.randint(1, 6)
        self.sprites = [s for s in self.sprites if s.alive]
        self.banners = [b for b in self.banners if b.alive]
        for b in self.bubbles:
            b.t += dt
        self.bubbles = [b for b in self.bubbles if b.t < b.life]

    def settle(self, events: list[dict]) -> None:
        """Events shown without animation (a Continue, a rejoin's catch-up): the board ends
        as if they had been animated: the die shows the last roll, the marker its space."""
        self.finish()
        self.marker_f = None  # drawn where the view says
        for e in events:
            if e["type"] == "die_rolled":
                self.die_face = e["value"]

    def finish(self) -> None:
        self.tweens.finish_all()
        self.clock = max(self.clock + self.cursor, self.horizon)
        self.cursor = 0.0
        self._due.clear()
        self.sprites.clear()
        self.banners.clear()
        self.die_rolling = False

    def draw(self, surface) -> None:
        for s in sorted(self.sprites, key=lambda s: s.z):
            s.draw(surface)
        for b in self.banners:
            b.draw(surface)

    # -- staging: what the choreography (choreography.py) schedules ---------------------

    def _reach(self, t: float) -> None:
        """Something staged goes on until `t` seconds from now (the horizon follows)."""
        self.horizon = max(self.horizon, self.clock + t)

    def at(self, delay: float, fn) -> None:
        self._reach(delay)
        if delay <= 0:
            fn()
        else:
            self.tweens.wait(delay, fn)

    def add_bubble(self, bubble: Bubble, delay: float) -> None:
        self.at(delay, lambda: self.bubbles.append(bubble))

    def sound(self, name: str, delay: float = 0.0, gain: float = 1.0) -> None:
        sounds = self.table.app.sounds
        self.at(delay, lambda: sounds.play(name, gain))

    def fly(
        self,
        image,
        start,
        end,
        delay=0.0,
        duration=0.45,
        ease="in_out_cubic",
        fade=True,
        z=1,
        scale=(1.0, 1.0),
        on_land=None,
        hold=0.12,
    ):
        sp = Sprite(
            image, start[0], start[1], alpha=0.0 if delay > 0 else 255.0, scale=scale[0], z=z
        )
        self._reach(delay + duration + (hold + 0.25 if fade else 0.0))
        self.sprites.append(sp)

        def landed():
            if on_land is not None:
                on_land()
            if fade:
                self.tweens.animate(
                    sp,
                    duration=0.25,
                    delay=hold,
                    alpha=0,
                    on_done=lambda: setattr(sp, "alive", False),
                )
            else:
                sp.alive = False

        self.tweens.animate(sp, duration=0.01, delay=delay, alpha=255)
        self.tweens.animate(
            sp,
            duration=duration,
            delay=delay,
            ease=ease,
            x=end[0],
            y=end[1],
            scale=scale[1],
            on_done=landed,
        )
        return sp

    def banner(
        self,
        text: str,
        colour=GOLD,
        delay: float = 0.0,
        hold: float = 0.9,
        moment: str | None = None,
        sound: str | None = None,
    ) -> None:
        """A big banner; `moment`: the event it announces (it goes when that moment ends,
        MOMENT_ENDS), `sound`: played as it comes up, unless it is gone by then."""
        b = Banner(text, colour, y=L.H * 0.42 + 30, moment=moment)
        self.banners.append(b)
        self._reach(delay + 0.35 + hold + 0.3)
        if sound is not None:
            sounds = self.table.app.sounds
            self.at(delay, lambda: b.alive and sounds.play(sound))
        self.tweens.animate(
            b, duration=0.35, delay=delay, ease="out_back", alpha=255, scale=1.0, y=L.H * 0.42
        )
        self.tweens.animate(
            b,
            duration=0.3,
            delay=delay + 0.35 + hold,
            alpha=0,
            y=L.H * 0.42 - 30,
            on_done=lambda: setattr(b, "alive", False),
        )

    # -- events ------------------------------------------------------------------------

    def feed(self, events: list[dict], viewer: int | None) -> None:
        if self.quiet:
            return
        self.paid_out = paid_out(events)
        for e in events:
            self._end_moments(e["type"])
            self._event(e, viewer)
        self._due.append((self.clock + self.cursor, self.real + LAG_BOUND))

    def _end_moments(self, event_type: str) -> None:
        """The banners announcing a moment this event ends go: faded out now if shown,
        never shown if still to come (the state has moved past them)."""
        for b in self.banners:
            if b.moment is None or event_type not in MOMENT_ENDS.get(b.moment, ()):
                continue
            self.tweens.cancel(b)
            b.moment = None
            if b.alpha < 4:
                b.alive = False
            else:
                self.tweens.animate(
                    b, duration=BANNER_GONE, alpha=0, on_done=lambda b=b: setattr(b, "alive", False)
                )

    def _event(self, e: dict, viewer: int | None) -> None:
        """One event's animation from the cursor on; the cursor then moves past it."""
        animate = ANIMATIONS.get(e["type"])
        c = self.cursor
        self.cursor = c + (animate(self, e, viewer, c) if animate is not None else 0.0)

    # -- the die and the marker ----------------------------------------------------------

    def roll(self, value: int, c: float) -> None:
        def start():
            self.die_rolling = True
            self.die_y = -60.0
            self.tweens.animate(self, duration=0.6, ease="out_bounce", die_y=0.0, on_done=stop)

        def stop():
            self.die_rolling = False
            self.die_face = value

        self.at(c, start)
        self._reach(c + 0.6)
        self.sound("dice_roll", c)

    def move_marker(self, path, c) -> float:
        if not path:
            return 0.0
        step = 0.16

        def hop(target: int) -> None:
            if self.marker_f is None:
                self.marker_f = float((target - 1) % 16)
            cur = self.marker_f % 16
            goal = float(target) if target >= cur else float(target) + 16
            self.marker_f = cur
            self.tweens.animate(
                self,
                duration=step * 0.9,
                ease="in_out_quad",
                marker_f=goal,
                on_done=lambda: setattr(self, "marker_f", goal % 16),
            )

        for k, sp in enumerate(path):
            self.at(c + step * k, lambda s=sp: hop(s))
        self.sound("card_place", c + step * len(path), 0.5)
        return step * len(path) + 0.1

    # -- drawing helpers the table uses --------------------------------------------------

    def draw_marker(self, surface, board, space: int | None) -> None:
        pos_space = self.marker_f if self.marker_f is not None else space
        if pos_space is None:
            return
        x, y = board.marker_pos(pos_space % 16)
        tok = marker_token()
        surface.blit(tok, tok.get_rect(center=(round(x), round(y))))

    def draw_die(self, surface, value: int | None) -> None:
        face = self.die_face if (self.die_rolling or self.die_face) else value
        if face is None:
            return
        img = draw.die_face(int(face), 64)
        surface.blit(img, img.get_rect(center=(L.DIE[0], round(L.DIE[1] + self.die_y))))

    def draw_bubbles(self, surface, anchor, plate=None) -> None:
        """Each bubble rises from under its player's plate, but no lower than BUBBLE_FLOOR:
        over the plate, never over the panel's title or the board's top row below it. With
        `plate` (a seat's plate rect) a bubble stays within its plate's width, so six
        players' bubbles at once stand apart; a seat shows its latest bubble only (a payment
        on top of a phrase made one blob)."""
        latest: dict[int, Bubble] = {}
        for b in self.bubbles:
            if b.seat not in latest or b.t <= latest[b.seat].t:
                latest[b.seat] = b
        for b in self.bubbles:
            if latest[b.seat] is not b:
                continue
            x, y = anchor(b.seat)
            home = plate(b.seat) if plate is not None else None
            width = home.width if home is not None else BUBBLE_TEXT_W + BUBBLE_PAD
            img = bubble_image(b.text, seat_colour(b.seat), THEME.epoch, width, b.short)
            alpha = 255 if b.t < b.life - 0.4 else int(255 * (b.life - b.t) / 0.4)
            rise = min(1.0, b.t * 5) * 14
            if alpha < 250:
                img = faded(img, alpha // 32)
            rect = img.get_rect(midtop=(x, y + 34 - rise))
            rect.bottom = min(rect.bottom, BUBBLE_FLOOR)
            if home is not None:
                rect.x = max(home.x, min(rect.x, home.right - rect.width))
            rect.x = max(L.MARGIN, min(rect.x, L.W - L.MARGIN - rect.width))  # on screen
            surface.blit(img, rect)


BUBBLE_FLOOR = L.PLAYERS.bottom + 6  # the plates' row ends there; the panel and board below
