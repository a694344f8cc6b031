"""A layout probe: while one is active, the drawing helpers record every text they draw (its
requested and final size, the width it had to fit in), every string they cut short, and
every tooltip with the rectangles it must leave visible, and every control drawn (whether
it is on, and if not, the reason it gives). tests/ui/test_ui_layout.py renders
scenes under a probe and checks that nothing is clipped, shrunk too far or covered.

Where things land: drawn on a `ProbeCanvas`, every text image blitted onto the canvas is
recorded as a `DrawnBox` (its ink, the part the clip let through, and its owner: the
object whose method drew it), and so is every panel, dialog veil, bubble, tooltip and coach
panel, in drawing order. A text drawn into an image made while probing (a button's face, a
card, the board's middle) is found where that image lands. Not seen: images made before the
probe started by a cache that does not key on THEME.epoch, and the copies of images pygame
makes itself (pygame.transform's results): the board's felt layer is one.

Off by default: `ACTIVE` is None and each hook is a single `if` on it.
"""

from __future__ import annotations

import enum
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

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
    owner: int = 0  # id() of the widget: the texts it draws itself are its own
    order: int = 0  # its place in the drawing order (DrawnBox.order)


class BoxKind(enum.Enum):
    TEXT = "text"
    PANEL = "panel"  # a rounded panel (draw.draw_panel): texts drawn on it belong in it
    VEIL = "veil"  # a modal dialog dims everything drawn before it
    BUBBLE = "bubble"
    TOOLTIP = "tooltip"
    COACH = "coach"
    COVER = "cover"  # something laid over what was drawn (a deal tile on its space)


@dataclass(frozen=True)
class DrawnBox:
    """Something drawn on the canvas. For a text, `rect` is its ink (unclipped) and `shown`
    the part of the image the canvas's clip let through (smaller: the text was cut)."""

    kind: BoxKind
    label: str
    rect: pygame.Rect
    shown: pygame.Rect
    full: pygame.Rect  # the whole image's rect, unclipped
    owner: str  # who drew it: "Class:name" or "module.function"
    owner_id: int  # id() of that object (0 for a function)
    order: int
    px: int = 0  # a text's size in logical pixels


_SKIPPED = {str(Path(__file__).with_name(n)) for n in ("probe.py", "draw.py")}


def _caller() -> tuple[str, int]:
    """The object (or function) outside draw.py and this module that is drawing."""
    frame = sys._getframe(2)
    while frame is not None and frame.f_code.co_filename in _SKIPPED:
        frame = frame.f_back
    if frame is None:
        return "?", 0
    obj = frame.f_locals.get("self")
    if obj is None:
        return f"{Path(frame.f_code.co_filename).stem}.{frame.f_code.co_name}", 0
    name = getattr(obj, "name", "")
    return (f"{type(obj).__name__}:{name}" if isinstance(name, str) and name
            else type(obj).__name__), id(obj)  # fmt: skip


@dataclass
class LayoutProbe:
    texts: list[TextRecord] = field(default_factory=list)
    cuts: list[CutRecord] = field(default_factory=list)
    tooltips: list[TooltipRecord] = field(default_factory=list)
    widgets: list[WidgetRecord] = field(default_factory=list)
    boxes: list[DrawnBox] = field(default_factory=list)
    canvas: pygame.Surface | None = None  # the window's canvas: boxes on it go to `boxes`
    # text images made while probing: id -> (the image, kept alive so its id stays its own,
    # its text, its size in logical pixels)
    images: dict[int, tuple[pygame.Surface, str, int]] = field(default_factory=dict)

    def clear(self) -> None:
        self.texts.clear()
        self.cuts.clear()
        self.tooltips.clear()
        self.widgets.clear()
        self.boxes.clear()

    def next_order(self) -> int:
        return len(self.boxes) + len(self.widgets)

    def note_text(self, img: pygame.Surface, text: str, px: int) -> None:
        self.images[id(img)] = (img, text, px)

    def _list(self, surface) -> list[DrawnBox] | None:
        """Where a box drawn on `surface` goes: the probe's own list for the canvas, the
        image's list for an image drawn while probing (blitted later, its boxes move with
        it), None for anything else."""
        if surface is self.canvas:
            return self.boxes
        if isinstance(surface, ProbeCanvas):
            return surface.boxes()
        return None

    def note_box(self, kind: BoxKind, label: str, rect, surface) -> None:
        into = self._list(surface)
        if into is None:
            return
        owner, owner_id = _caller()
        rect = pygame.Rect(rect)
        shown = rect.clip(surface.get_clip())
        into.append(DrawnBox(kind, label, rect, shown, rect.copy(), owner, owner_id,
                             self.next_order()))  # fmt: skip

    def note_blit(self, surface, source, dest, area, shown: pygame.Rect) -> None:
        into = self._list(surface)
        if into is None:
            return
        pos = dest.topleft if isinstance(dest, pygame.Rect) else (int(dest[0]), int(dest[1]))
        src = pygame.Rect(area) if area is not None else source.get_rect()
        offset = (pos[0] - src.x, pos[1] - src.y)
        entry = self.images.get(id(source))
        if entry is not None and entry[0] is source:
            _, text, px = entry
            owner, owner_id = _caller()
            ink = source.get_bounding_rect().clip(src).move(offset)
            into.append(DrawnBox(BoxKind.TEXT, text, ink, shown.copy(), src.move(offset),
                                 owner, owner_id, self.next_order(), px))  # fmt: skip
            return
        inner = source.boxes() if isinstance(source, ProbeCanvas) else None
        if not inner:
            return
        owner, owner_id = _caller()
        window = src.move(offset).clip(shown)  # the part of the image that landed
        for b in inner:
            if area is not None and not src.colliderect(b.rect):
                continue  # scrolled out of the viewport `area`
            if area is not None and not src.contains(b.full):
                continue  # cut by a scrolling viewport's edge: that is the scrolling
            full = b.full.move(offset)
            into.append(DrawnBox(b.kind, b.label, b.rect.move(offset),
                                 b.shown.move(offset).clip(window), full,
                                 b.owner, b.owner_id or owner_id, self.next_order(), b.px))  # fmt: skip


_SURFACE = pygame.Surface


class ProbeCanvas(_SURFACE):
    """A surface that tells the active probe where each text image lands. While probing,
    every surface made is one (`pygame.Surface` is this class), so the texts drawn into an
    image (a card, the board's middle, a button's face) are found where the image lands."""

    def boxes(self) -> list[DrawnBox]:
        """What was drawn on it (made lazily: a copy or a conversion skips __init__)."""
        if "probe_boxes" not in self.__dict__:
            self.probe_boxes: list[DrawnBox] = []
        return self.probe_boxes

    def blit(self, source, dest, area=None, special_flags=0):  # noqa: D102 - pygame's blit
        shown = super().blit(source, dest, area, special_flags)
        if ACTIVE is not None:
            ACTIVE.note_blit(self, source, dest, area, shown)
        return shown

    def copy(self):  # noqa: D102 - pygame's copy, with what was drawn on it
        out = super().copy()
        out.boxes().extend(self.boxes())
        return out

    def fill(self, color, rect=None, special_flags=0):  # noqa: D102 - pygame's fill
        if rect is None and special_flags == 0:
            self.boxes().clear()  # drawn over: what it showed is gone
        return super().fill(color, rect, special_flags)


ACTIVE: LayoutProbe | None = None


@contextmanager
def probing(canvas: pygame.Surface | None = None) -> Iterator[LayoutProbe]:
    """Record into a fresh probe for the duration of the block; with a canvas, every
    surface made meanwhile is a ProbeCanvas and the boxes drawn on `canvas` are recorded."""
    global ACTIVE
    previous, ACTIVE = ACTIVE, LayoutProbe(canvas=canvas)
    if canvas is not None:
        pygame.Surface = ProbeCanvas
    try:
        yield ACTIVE
    finally:
        ACTIVE = previous
        pygame.Surface = _SURFACE
