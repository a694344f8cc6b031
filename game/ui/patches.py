"""Pulses drawn from pre-rendered patches: a glow that pulses through its nine brightness
steps, a caret that blinks, a button asking to be pressed look the same again and again.

Between two whole redraws of the canvas (`App.draw`) a visible scene's picture changes only
by its pulses (game/ui/scene.py), so the pixels of a canvas rect are fixed by the keys of
the pulses that reach into it. The first time a rect is drawn with a set of keys the loop
keeps a copy of its pixels; when the same keys come round again it blits that copy instead
of walking the scenes' drawing: after one cycle of a glow, each of its redraws is one opaque
blit. A rect is copied only once its keys come round a second time, and never again once
it has shown more than VARIED different keys (the turn ring's colour, a countdown's bar:
their looks seldom repeat, so copying them would be work for nothing). What is kept is
forgotten at every whole redraw (an event, a new state)."""

from __future__ import annotations

from collections import OrderedDict

import pygame

PER_RECT = 12  # copies kept for one rect, the least recently used dropped first (a glow: 9)
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

    @staticmethod
    def signature(rect: pygame.Rect, looks: list[tuple[object, pygame.Rect]]) -> tuple:
        """The keys of the pulses that reach into `rect`, in the scenes' order."""
        return tuple(key for key, r in looks if r.colliderect(rect))

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
        """Copy `rect` of the canvas as it is drawn now (or keep `made`, a surface made from
        it: its scaled picture), under `sig`, if it was drawn with these keys before (and
        its keys are not too varied to come round again)."""
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
        patch = canvas.subsurface(rect).copy() if made is None else made
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
