"""The layout probe: while one is active (`probing()`), it records every text the drawing
helpers draw (its requested and final size, the width it had to fit in), every string they
cut short, every tooltip with the rectangles it must leave visible, and every control drawn
(whether it is on, and if not, the reason it gives). tests/ui/test_ui_layout.py renders
scenes under a probe and checks that nothing is clipped, shrunk too far or covered.

Where things land: drawn on a `ProbeCanvas`, every text image blitted onto the canvas is
recorded as a `DrawnBox` (its ink, the part the clip let through, and its owner: the
object whose method drew it), and so is every panel, dialog veil, bubble, tooltip, coach
panel, tile cover and the marker's space, in drawing order. A text drawn into an image made
while probing (a button's face, a card, the board's middle) is found where that image lands.
Not seen: images made before the probe started by a cache that does not key on THEME.epoch,
and the copies of images pygame makes itself (pygame.transform's results): the board's felt
layer is one.

It observes from outside: the game has no hook for it. `probing()` wraps the drawing
functions and methods it reads (`_install`: draw.text, draw.fit, draw.draw_panel, the
controls' draw, ...), swaps `pygame.Surface` for `ProbeCanvas` while it has a canvas, and
puts every original back when it ends, on an exception too. The functions are wrapped where
their callers look them up: a module's attribute (callers write `draw.fit(...)`; inside
draw.py the module's globals are the same dict) or a class's method. What the game draws
with plain pygame calls it recognises by who draws it: the panel draw_tooltip draws is the
tooltip, the one LessonCoach.draw draws is the coach's, the box TableHints.draw asks
`box_rect` for is the hint's, what BoardRenderer.lay_tile covers is a tile, a bubble is an image
sprites.bubble_image made. The caches it must see past it bypasses from outside: a button's
face is drawn by the uncached function, the TV's join strip is drawn again.
"""

from __future__ import annotations

import enum
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pygame

from game.ui.drawing import draw, widgets
from game.ui.drawing.theme import THEME
from game.ui.table import anim, board, display, hints, sprites
from game.ui.table.panels import turn
from game.ui.tutorial import coach


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


_SKIPPED = {__file__, draw.__file__}


def _caller() -> tuple[str, int]:
    """The object (or function) outside draw.py and this module (its wrappers too) that is
    drawing."""
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
    # bubble images made while probing: id -> (the image, the words it says)
    bubbles: dict[int, tuple[pygame.Surface, str]] = field(default_factory=dict)

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

    def note_bubble(self, img: pygame.Surface, words: str) -> None:
        self.bubbles[id(img)] = (img, words)

    def note_bubble_blit(self, surface, source, dest, area) -> None:
        """A bubble's image landed (after the words in it): a box over what it hides."""
        bubble = self.bubbles.get(id(source))
        if bubble is None or bubble[0] is not source:
            return
        pos = dest.topleft if isinstance(dest, pygame.Rect) else dest
        size = pygame.Rect(area).size if area is not None else source.get_size()
        self.note_box(BoxKind.BUBBLE, bubble[1], pygame.Rect(pos, size), surface)

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
            ACTIVE.note_bubble_blit(self, source, dest, area)
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


# --------------------------------------------------------------------------- the wrappers
# Each takes the original and returns what stands in for it while probing. They run only
# while a probe is active (`probing` installs them), so ACTIVE is set.


def _arg(args: tuple, kw: dict, i: int, name: str, default):
    """A wrapped call's argument `name` (the i-th after the ones named in the wrapper)."""
    return kw[name] if name in kw else args[i] if len(args) > i else default


def _text(original):
    def text(s, size, *args, **kw):
        img = original(s, size, *args, **kw)
        px = THEME.font_px(size)
        ACTIVE.texts.append(TextRecord(s, px, px, img.get_width(), None))
        ACTIVE.note_text(img, s, px)
        return img

    return text


def _fit(original):
    def fit(s, size, max_w, *args, **kw):
        img = original(s, size, max_w, *args, **kw)
        want = THEME.font_px(size)
        bold = _arg(args, kw, 1, "bold", False)
        px = draw._fit_px(s, THEME.lang, want, max_w, bold, THEME.min_px)  # the size fit took
        ACTIVE.texts.append(TextRecord(s, want, px, img.get_width(), max_w))
        ACTIVE.note_text(img, s, px)
        return img

    return fit


def _ellipsize_px(original):
    def ellipsize_px(s, *args, **kw):
        shown = original(s, *args, **kw)
        if shown != s:
            ACTIVE.cuts.append(CutRecord(s, shown))
        return shown

    return ellipsize_px


def _copy_of(original):
    def copy_of(img):
        """A copy the probe sees into: what is drawn on a copy of a cached background (a
        panel, a plate, the log, the felt) is found where the copy lands. The same pixels
        (an add onto zeros)."""
        out = pygame.Surface(img.get_size(), img.get_flags(), img)  # a ProbeCanvas now
        out.fill((0, 0, 0, 0))
        out.blit(img, (0, 0), special_flags=pygame.BLEND_RGBA_ADD)
        return out

    return copy_of


def _draw_panel(original):
    def draw_panel(surface, rect, **kw):
        by = sys._getframe(1)  # who draws the panel says what it is
        if by.f_code is widgets.draw_tooltip.__code__:
            text, avoid = by.f_locals["text"], by.f_locals["avoid"]
            ACTIVE.tooltips.append(TooltipRecord(text, pygame.Rect(rect), avoid))
            ACTIVE.note_box(BoxKind.TOOLTIP, text, rect, surface)
        elif by.f_code is coach.LessonCoach.draw.__code__:
            # an overlay: what it covers is hidden, not overlapped
            ACTIVE.note_box(BoxKind.COACH, "coach", rect, surface)
        ACTIVE.note_box(BoxKind.PANEL, "", rect, surface)
        return original(surface, rect, **kw)

    return draw_panel


def _draw_dialog(original):
    def draw_dialog(surface, rect):
        ACTIVE.note_box(BoxKind.VEIL, "", surface.get_rect(), surface)  # its veil has no box
        return original(surface, rect)

    return draw_dialog


def _control_draw(original):
    def draw(self, surface, *args, **kw):
        if self.visible:  # note the control as drawn (tests look for reasons)
            reason = None if self.enabled else widgets._label(self.disabled_reason or "")
            ACTIVE.widgets.append(WidgetRecord(self.name, self.rect.copy(), self.enabled,
                                               reason or None, id(self), ACTIVE.next_order()))  # fmt: skip
        return original(self, surface, *args, **kw)

    return draw


def _uncached(original):
    return original.__wrapped__  # an lru_cache's function: images made while probing


def _hint_box(original):
    def box_rect(self, *args, **kw):
        box = original(self, *args, **kw)
        by = sys._getframe(1)
        if by.f_code is hints.TableHints.draw.__code__:  # the coach's box over the log
            ACTIVE.note_box(BoxKind.COACH, "hint", box, by.f_locals["surface"])
        return box

    return box_rect


def _lay_tile(original):
    def lay_tile(self, surf, space, *args, **kw):
        ACTIVE.note_box(BoxKind.COVER, "tile", space, surf)  # it hides the space's words
        return original(self, surf, space, *args, **kw)

    return lay_tile


def _marker_plate(original):
    def marker_plate(self, surf, *args, **kw):
        box = original(self, surf, *args, **kw)
        ACTIVE.note_box(BoxKind.PANEL, "marker space", box, surf)  # its texts belong in it
        return box

    return marker_plate


def _bubble_image(original):
    def bubble_image(text, colour, epoch, *args, **kw):
        img = original(text, colour, epoch, *args, **kw)
        width = _arg(args, kw, 0, "width", sprites.BUBBLE_TEXT_W + sprites.BUBBLE_PAD)
        ACTIVE.note_bubble(img, sprites.bubble_words(text, width, _arg(args, kw, 1, "short", "")))
        return img

    return bubble_image


def _faded(original):
    def faded(img, *args, **kw):
        out = original(img, *args, **kw)
        bubble = ACTIVE.bubbles.get(id(img))
        if bubble is not None and bubble[0] is img:
            ACTIVE.note_bubble(out, bubble[1])
        return out

    return faded


def _drawn_again(original):
    def draw(self, *args, **kw):
        self._key = None  # its cached picture is made again, where the probe sees into it
        return original(self, *args, **kw)

    return draw


#: (where, its attribute, the wrapper's maker): what `probing` wraps
WRAPPED = (
    (draw, "text", _text),
    (draw, "fit", _fit),
    (draw, "_ellipsize_px", _ellipsize_px),
    (draw, "copy_of", _copy_of),
    (draw, "draw_panel", _draw_panel),
    (draw, "draw_dialog", _draw_dialog),
    (widgets.Button, "draw", _control_draw),
    (widgets.Toggle, "draw", _control_draw),
    (widgets.Stepper, "draw", _control_draw),
    (widgets, "_button_surface", _uncached),
    (hints.TableHints, "box_rect", _hint_box),
    (board.BoardRenderer, "lay_tile", _lay_tile),
    (turn.TurnPanel, "_marker_plate", _marker_plate),
    (anim, "bubble_image", _bubble_image),  # anim's names: draw_bubbles looks them up there
    (anim, "faded", _faded),
    (display.JoinStrip, "draw", _drawn_again),
)


def _install(saved: list) -> None:
    """Put the wrappers in place, noting each original in `saved` as it goes."""
    for owner, name, wrapper in WRAPPED:
        original = vars(owner)[name]  # a class's own function, not an inherited one
        saved.append((owner, name, original))
        setattr(owner, name, wrapper(original))


@contextmanager
def probing(canvas: pygame.Surface | None = None) -> Iterator[LayoutProbe]:
    """Record into a fresh probe for the duration of the block; with a canvas, every
    surface made meanwhile is a ProbeCanvas and the boxes drawn on `canvas` are recorded.
    The wrappers go in at the outermost probe and come out when it ends."""
    global ACTIVE
    previous, surface, saved = ACTIVE, pygame.Surface, []
    try:
        if previous is None:
            _install(saved)
        ACTIVE = LayoutProbe(canvas=canvas)
        if canvas is not None:
            pygame.Surface = ProbeCanvas
        yield ACTIVE
    finally:
        ACTIVE = previous
        pygame.Surface = surface
        for owner, name, original in reversed(saved):
            setattr(owner, name, original)
