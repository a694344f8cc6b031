"""Pulses drawn from pre-rendered patches: a glow that pulses through its nine brightness
steps, a caret that blinks, a button asking to be pressed look the same again and again.

Between two whole redraws of the canvas (`App.draw`) a visible scene's picture changes only
by its pulses (game/ui/screen/scene.py), so the pixels of a canvas rect are fixed by the keys of
the pulses that reach into it. The first time a rect is drawn with a set of keys the loop
keeps a copy of its pixels; when the same keys come round again it blits that copy instead
of walking the scenes' drawing: after one cycle of a glow, each of its redraws is one opaque
blit. A rect is copied only once its keys come round a second time, and never again once
it has shown more than VARIED different keys (the turn ring's colour, a countdown's bar:
their looks seldom repeat, so copying them would be work for nothing). What is kept is
forgotten at every whole redraw (an event, a new state)."""

from __future__ import annotations

import operator
from collections import OrderedDict

import pygame

PER_RECT = 24  # copies kept for one rect, the least recently used dropped first (a ring: 22)
VARIED = 24  # a rect seen with more keys than this is not copied any more (until cleared)
MAX_BYTES = 32 << 20  # all copies together; beyond this they are all dropped


class PatchCache:
    """Copies of canvas rects, each under the pulse keys that rect was drawn with."""

    def __init__(self) -> None:
        self._rects: dict[tuple, OrderedDict] = {}
        self._seen: dict[tuple, set] = {}  # the keys each rect was drawn with
        self._bytes = 0
        self.hits = 0
        self.misses = 0

    def clear(self) -> None:
        self._rects.clear()
        self._seen.clear()
        self._bytes = 0

    def get(self, rect: pygame.Rect, sig: tuple) -> pygame.Surface | None:
        kept = self._rects.get(tuple(rect))
        patch = kept.get(sig) if kept is not None else None
        if patch is None:
            self.misses += 1
            return None
        kept.move_to_end(sig)
        self.hits += 1
        return patch

    def keep(
        self, canvas: pygame.Surface, rect: pygame.Rect, sig: tuple, made: pygame.Surface | None = None
    ) -> None:
        """Copy `rect` of the canvas as it is drawn now (or `made`, a surface made from it:
        its scaled picture), under `sig`, if it was drawn with these keys before (and its
        keys are not too varied to come round again); copied only when kept."""
        where = tuple(rect)
        seen = self._seen.setdefault(where, set())
        if len(seen) > VARIED:
            return
        if sig not in seen:
            seen.add(sig)
            return
        kept = self._rects.setdefault(where, OrderedDict())
        if sig in kept:
            return
        patch = (canvas.subsurface(rect) if made is None else made).copy()
        size = patch.get_width() * patch.get_height() * patch.get_bytesize()
        if self._bytes + size > MAX_BYTES:
            self._rects.clear()
            self._bytes = 0
            kept = self._rects.setdefault(where, OrderedDict())
        kept[sig] = patch
        self._bytes += size
        if len(kept) > PER_RECT:
            old = kept.popitem(last=False)[1]
            self._bytes -= old.get_width() * old.get_height() * old.get_bytesize()


JOIN_SLACK = 1.3  # two overlapping pulse rects become one region when their union is no bigger


def join(rects: list[pygame.Rect], slack: float = JOIN_SLACK) -> list[pygame.Rect]:
    """Overlapping rects joined where their union is at most `slack` times their areas (a
    row of glows' top strips becomes one strip); rects that only touch stay apart (a ring's
    strip beside a glow's: their looks change at different times)."""
    out: list[pygame.Rect] = []
    pending = [pygame.Rect(r) for r in rects]
    while pending:
        r = pending.pop()
        for i, o in enumerate(out):
            if not o.colliderect(r):
                continue
            u = o.union(r)
            if u.width * u.height <= slack * (o.width * o.height + r.width * r.height):
                del out[i]
                pending.append(u)  # grown: it may reach another one now
                break
        else:
            out.append(r)
    return out


class PulseRegions:
    """The visible pulses' rects joined into regions (`join`), worked out once while the
    pulses stay where they are: the regions a changed pulse reaches and, for any rect, the
    pulses reaching into it (its patch's signature), looked up instead of comparing every
    rect with every other one each frame (a waiting table has 68 strips)."""

    def __init__(self, canvas: pygame.Rect) -> None:
        self.canvas = canvas
        self._rects: list[pygame.Rect] = []
        self._keys: list = []
        self.regions: list[pygame.Rect] = []
        self._reach: dict[tuple, list[int]] = {}  # a pulse's rect -> the regions it reaches
        self._members: dict[tuple, object] = {}  # a rect -> picks its pulses' keys
        self._changed: list[pygame.Rect] = []  # the changed rects asked last
        self._reached: list[pygame.Rect] = []  # and the regions they reach

    def areas(self, changed: list[pygame.Rect], looks: list[tuple[object, pygame.Rect]]) -> list[pygame.Rect] | None:
        """The regions the changed rects reach, given the pulses now (`looks`); None when a
        changed rect is no pulse's rect now (a pulse moved: its old place changed too)."""
        self._keys = [key for key, _ in looks]
        rects = [r for _, r in looks]
        if rects != self._rects:  # compared in C, rect by rect
            self._plan(rects)
        if changed == self._changed:  # the same pulses as last time (a glow's every step)
            return self._reached
        reached: set[int] = set()
        for rect in changed:
            regions = self._reach.get(tuple(rect))
            if regions is None:
                return None
            reached.update(regions)
        self._changed = [pygame.Rect(r) for r in changed]
        self._reached = [self.regions[i] for i in sorted(reached)]
        return self._reached

    def _plan(self, rects: list[pygame.Rect]) -> None:
        self._rects = [pygame.Rect(r) for r in rects]  # copies: the scenes' may change
        joined = join([r.clip(self.canvas) for r in self._rects])
        self.regions = [r for r in joined if r.width > 0 and r.height > 0]
        self._reach = {
            tuple(r): [i for i, g in enumerate(self.regions) if g.colliderect(r)] for r in self._rects
        }
        self._members = {}
        self._changed, self._reached = [], []

    def signature(self, rect: pygame.Rect) -> tuple:
        """The keys of the pulses reaching into `rect` now, in the scenes' order."""
        where = tuple(rect)
        keys_of = self._members.get(where)
        if keys_of is None:
            members = [j for j, r in enumerate(self._rects) if r.colliderect(rect)]
            keys_of = self._members[where] = _picker(members)
        return keys_of(self._keys)


def _picker(members: list[int]):
    """keys -> the tuple of keys[j] for j in members (operator.itemgetter, done in C)."""
    if not members:
        return lambda keys: ()
    if len(members) == 1:
        j = members[0]
        return lambda keys: (keys[j],)
    return operator.itemgetter(*members)
