"""A layout probe: while one is active, the drawing helpers record every text they draw (its
requested and final size, the width it had to fit in), every string they cut short, and
every tooltip with the rectangles it must leave visible, and every control drawn (whether
it is on, and if not, the reason it gives). tests/test_ui_layout.py renders
scenes under a probe and checks that nothing is clipped, shrunk too far or covered.

Off by default: `ACTIVE` is None and each hook is a single `if` on it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import pygame


@dataclass(frozen=True)
class TextRecord:
    """One string drawn: `width` is how wide it came out; `max_w` the room it had (None:
    no box was given, only the size can be checked)."""

    text: str
    requested_px: int
    final_px: int
    width: int
    max_w: int | None


@dataclass(frozen=True)
class CutRecord:
    """A string shortened with "…" to fit its room."""

    text: str
    shown: str


@dataclass(frozen=True)
class TooltipRecord:
    text: str
    rect: pygame.Rect
    avoid: tuple[pygame.Rect, ...]  # what the tooltip explains (and must not cover)


@dataclass(frozen=True)
class WidgetRecord:
    """A control drawn: off ones carry the reason their tooltip gives (None: no reason)."""

    name: str
    rect: pygame.Rect
    enabled: bool
    reason: str | None


@dataclass
class LayoutProbe:
    texts: list[TextRecord] = field(default_factory=list)
    cuts: list[CutRecord] = field(default_factory=list)
    tooltips: list[TooltipRecord] = field(default_factory=list)
    widgets: list[WidgetRecord] = field(default_factory=list)

    def clear(self) -> None:
        self.texts.clear()
        self.cuts.clear()
        self.tooltips.clear()
        self.widgets.clear()


ACTIVE: LayoutProbe | None = None


@contextmanager
def probing() -> Iterator[LayoutProbe]:
    """Record into a fresh probe for the duration of the block."""
    global ACTIVE
    previous, ACTIVE = ACTIVE, LayoutProbe()
    try:
        yield ACTIVE
    finally:
        ACTIVE = previous
