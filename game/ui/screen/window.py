"""The real window: the scenes draw on a 1920x1080 logical canvas; this module sizes the
window to the desktop, shows the canvas scaled into it (letterbox bars, never a crop) and maps
mouse positions back to canvas coordinates.

Why not pygame.SCALED: it opens a 1920x1080 window whatever the desktop (mostly off-screen on a
1280x720 one), ignores later size requests and shows a centre crop when the window is smaller
than the logical size. Doing the scaling ourselves gives exact control of the window.

Geometry (`fit_rect`, `default_window_size`, `clamp_window_size`, `centred_position`) is pure,
so it is tested without a display; `GameWindow` owns the pygame display.
"""

from __future__ import annotations

import contextlib
import math
import os
import warnings
from dataclasses import dataclass

import pygame

from ..drawing.patches import PatchCache
from ..drawing.theme import LOGICAL_SIZE
from . import x11

Size = tuple[int, int]

WINDOW_FRACTION = 0.9  # the first window: 90% of the desktop (room for panels and a title bar)
DECORATION = 48  # height kept free for a window manager's title bar when a size is asked for
MIN_WINDOW = (320, 180)  # the smallest window (as small as --size accepts)
LETTERBOX = (0, 0, 0)
HEADLESS_DRIVERS = ("dummy", "offscreen")  # no desktop: the window is the logical size
# SDL's hint (read when the window's surface is made): on X11 the window's own shared-memory
# image, not a texture through a renderer. The renderer re-uploads the whole surface at every
# present, a few rects or not; without a GPU (Mesa's llvmpipe, Xvfb) a 1920x1080 flip then
# costs ~13 ms of CPU, against ~0.03 ms (the X server copies) and ~0.01 ms for a small rect.
X11_FRAMEBUFFER_HINT = ("SDL_FRAMEBUFFER_ACCELERATION", "0")


# -- geometry ------------------------------------------------------------------------------


def fit_rect(window: Size, logical: Size = LOGICAL_SIZE) -> pygame.Rect:
    """The largest rect of the logical aspect ratio inside `window`, centred (letterbox)."""
    ww, wh = max(1, window[0]), max(1, window[1])
    lw, lh = logical
    if ww * lh <= wh * lw:  # narrower than the canvas: bars above and below
        w, h = ww, max(1, round(ww * lh / lw))
    else:  # wider: bars left and right
        w, h = max(1, round(wh * lw / lh)), wh
    return pygame.Rect((ww - w) // 2, (wh - h) // 2, w, h)


def default_window_size(desktop: Size, logical: Size = LOGICAL_SIZE) -> Size:
    """The first window: ~90% of the desktop, with the canvas's aspect ratio."""
    limit = (int(desktop[0] * WINDOW_FRACTION), int(desktop[1] * WINDOW_FRACTION))
    return fit_rect(limit, logical).size


def clamp_window_size(requested: Size, desktop: Size) -> tuple[Size, bool]:
    """`--size WxH` exactly when it fits on the desktop (with room for a title bar), else
    shrunk keeping its aspect ratio; the flag says whether it had to shrink."""
    w, h = requested
    room_w, room_h = desktop[0], max(MIN_WINDOW[1], desktop[1] - DECORATION)
    if w <= room_w and h <= room_h:
        return (w, h), False
    k = min(room_w / w, room_h / h)
    return (max(MIN_WINDOW[0], int(w * k)), max(MIN_WINDOW[1], int(h * k))), True


def centred_position(size: Size, desktop: Size) -> tuple[int, int]:
    """Top-left of a window centred on the desktop (never off its top-left corner)."""
    return max(0, (desktop[0] - size[0]) // 2), max(0, (desktop[1] - size[1]) // 2)


def to_logical(pos: tuple[float, float], fit: pygame.Rect, logical: Size = LOGICAL_SIZE) -> tuple[int, int]:
    """A window pixel -> the canvas pixel drawn there. Points on the bars map outside the
    canvas (negative or beyond its size), so they hit no widget."""
    x = (pos[0] - fit.x) * logical[0] / fit.w
    y = (pos[1] - fit.y) * logical[1] / fit.h
    return int(x // 1), int(y // 1)


def to_window(pos: tuple[float, float], fit: pygame.Rect, logical: Size = LOGICAL_SIZE) -> tuple[int, int]:
    """A canvas pixel -> the centre of the window pixel showing it (tests click through it)."""
    x = fit.x + (pos[0] + 0.5) * fit.w / logical[0]
    y = fit.y + (pos[1] + 0.5) * fit.h / logical[1]
    return int(x), int(y)


def scale_grid(fit: pygame.Rect, logical: Size = LOGICAL_SIZE) -> Size:
    """The canvas step (x, y) at which canvas and window pixel edges meet: 3 px at 1280x720
    (2/3), 128x45 at 1365x768. A part of the canvas cut on this grid and scaled on its own
    comes out as the same pixels as that part of the whole scaled picture (the filter's
    samples start on a pixel edge on both sides), give or take a step of rounding."""
    return logical[0] // math.gcd(logical[0], fit.w), logical[1] // math.gcd(logical[1], fit.h)


def scaled_parts(
    rects: list[pygame.Rect], fit: pygame.Rect, logical: Size = LOGICAL_SIZE
) -> list[tuple[pygame.Rect, pygame.Rect]]:
    """Each canvas rect grown out to the scale grid, with the window rect it is shown in."""
    (gx, gy), (lw, lh) = scale_grid(fit, logical), logical
    out = []
    for r in rects:
        x0, y0 = max(0, r.left // gx * gx), max(0, r.top // gy * gy)
        x1, y1 = min(lw, -(-r.right // gx) * gx), min(lh, -(-r.bottom // gy) * gy)
        if x1 <= x0 or y1 <= y0:
            continue
        src = pygame.Rect(x0, y0, x1 - x0, y1 - y0)
        left, top = x0 * fit.w // lw, y0 * fit.h // lh
        right, bottom = x1 * fit.w // lw, y1 * fit.h // lh
        dst = pygame.Rect(fit.x + left, fit.y + top, right - left, bottom - top)
        out.append((src, dst))
    return out


def window_rect(rect: pygame.Rect, fit: pygame.Rect, logical: Size = LOGICAL_SIZE) -> pygame.Rect:
    """The window pixels that show some of the canvas rect `rect` (rounded outwards)."""
    (lw, lh), (fw, fh) = logical, fit.size
    left, top = rect.left * fw // lw, rect.top * fh // lh
    right, bottom = -(-rect.right * fw // lw), -(-rect.bottom * fh // lh)
    return pygame.Rect(fit.x + left, fit.y + top, right - left, bottom - top)


def _sdl_window() -> pygame.Window:
    """The display module's window (pygame-ce deprecates the name, not the object)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return pygame.Window.from_display_module()


# -- the display -------------------------------------------------------------------------


@dataclass
class WindowedPlace:
    """Where the window was before going fullscreen (F11 brings it back there)."""

    size: Size
    position: tuple[int, int] | None


WHOLE_PART = 0.5  # scaled parts covering more of the canvas than this: scale it whole
PARTS_KEPT = 512  # the scaled parts of this many canvas rects kept at most (regions: ~40)
MOUSE_EVENTS = (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP)


class GameWindow:
    """The display window and the logical canvas shown in it."""

    def __init__(self, *, fullscreen: bool, size: Size | None = None, logical: Size = LOGICAL_SIZE) -> None:
        self.logical = logical
        self.headless = pygame.display.get_driver() in HEADLESS_DRIVERS
        # X11 without a window manager (kiosks, bare Xvfb): SDL's fullscreen request goes unheard
        self.managed = pygame.display.get_driver() != "x11" or x11.has_window_manager() is not False
        if pygame.display.get_driver() == "x11" and self.managed:
            # before the first set_mode; without a manager the window re-created for
            # fullscreen does not shrink back on the native framebuffer
            os.environ.setdefault(*X11_FRAMEBUFFER_HINT)
        self.desktop: Size = self._desktop_size()
        self.notice = ""  # a line for the terminal (the asked-for size had to shrink)
        if size is not None and not self.headless:
            size, shrunk = clamp_window_size(size, self.desktop)
            if shrunk:
                self.notice = (
                    f"note: the window was shrunk to {size[0]}x{size[1]} to fit the "
                    f"{self.desktop[0]}x{self.desktop[1]} desktop"
                )
        if size is None:
            size = logical if self.headless else default_window_size(self.desktop, logical)
        self.place = WindowedPlace(size, None if self.headless else centred_position(size, self.desktop))
        self.fullscreen = False
        self.surface: pygame.Surface
        self._open_windowed()
        self.canvas = pygame.Surface(logical).convert()
        self._scaled: pygame.Surface | None = None  # reused smoothscale target
        # scaled parts kept under their pulses' keys; the app clears them at a whole redraw
        self.scaled_patches = PatchCache()
        self._parts: dict[tuple, tuple] = {}  # a canvas rect -> its grown part, where shown
        self._parts_fit: pygame.Rect | None = None  # the picture's place they were made for
        self._recreated = False  # fullscreen is a window of its own (no window manager)
        # SDL's connection to the X server (one for all its windows): the idle loop sleeps on it
        self.x_connection: int | None = None if self.headless else x11.connection_fd()
        if fullscreen and not self.headless:
            self._enter_fullscreen()

    # -- opening -------------------------------------------------------------------------

    def _desktop_size(self) -> Size:
        with contextlib.suppress(pygame.error, IndexError):
            sizes = pygame.display.get_desktop_sizes()
            if sizes and sizes[0][0] > 0 and sizes[0][1] > 0:
                return sizes[0]
        return self.logical

    def _set_mode(self, size: Size, flags: int) -> None:
        self.surface = pygame.display.set_mode(size, flags)

    def _open_windowed(self) -> None:
        self._set_mode(self.place.size, pygame.RESIZABLE)
        if not self.headless:
            with contextlib.suppress(pygame.error):  # below this nothing is readable
                _sdl_window().minimum_size = MIN_WINDOW
        if self.place.position is not None:
            with contextlib.suppress(pygame.error):
                pygame.display.set_window_position(self.place.position)
        self.fullscreen = False

    def toggle_fullscreen(self) -> None:
        """Desktop fullscreen (the desktop's own resolution, no mode change), and back to the
        window's previous size and place."""
        if self.headless:
            return
        if self.fullscreen:
            self._leave_fullscreen()
        else:
            self._enter_fullscreen()
        self.resized()

    def _enter_fullscreen(self) -> None:
        window = _sdl_window()
        self.place = WindowedPlace(window.size, window.position)
        if self.managed:
            # the same window goes fullscreen: the window manager remembers where it was and
            # puts it back there on the way out (re-creating it would race with the manager)
            window.set_fullscreen(desktop=True)
            self._recreated = False
        else:  # nobody would move or resize it: a new window covering the desktop
            with contextlib.suppress(pygame.error):
                pygame.display.set_window_position((0, 0))
            self._set_mode(self.desktop, pygame.FULLSCREEN)
            self._recreated = True
        self.fullscreen = True

    def _leave_fullscreen(self) -> None:
        if self._recreated:
            self._open_windowed()
        else:
            _sdl_window().set_windowed()
        self.fullscreen = False
        self._recreated = False

    def resized(self) -> None:
        """The window manager (or the user) resized the window: scale to the new size."""
        surface = pygame.display.get_surface()
        if surface is not None:
            self.surface = surface
        self._scaled = None
        self.scaled_patches.clear()
        self._parts.clear()

    # -- drawing -------------------------------------------------------------------------

    @property
    def fit(self) -> pygame.Rect:
        return fit_rect(self.surface.get_size(), self.logical)

    @property
    def scale(self) -> float:
        """Screen pixels per canvas pixel (0.6 in a 1152x648 window)."""
        return self.fit.w / self.logical[0]

    def present(self, flip: bool = True) -> None:
        """Show the canvas in the window: letterbox bars, then the scaled picture."""
        surface = pygame.display.get_surface()
        if surface is None:
            return
        size = surface.get_size()
        self.surface = surface
        fit = fit_rect(size, self.logical)
        if fit.size == self.logical:
            surface.blit(self.canvas, fit.topleft)
        else:
            self._fill_bars(surface, fit)
            surface.blit(self._scale(fit.size), fit.topleft)
        if flip:
            pygame.display.flip()

    def present_rects(self, rects: list[pygame.Rect], signature=None) -> None:
        """Show only these canvas rects (what changed): at 1:1 a blit of each and one
        update. In a smaller window each rect is grown to the scale grid (`scaled_parts`)
        and scaled on its own (the same pixels as the whole picture's, or a few levels of
        rounding apart at sharp edges), and only the window pixels showing the rect itself
        are blitted and updated (`window_rect`); when the grown parts cover most of the
        canvas, or the window is larger than the canvas (smoothscale's growing filter
        samples off the grid), the whole picture is shown. Given `signature` (a rect -> the
        keys of the pulses reaching into it, patches.py `PulseRegions.signature`), a rect
        shown before with the same keys of the pulses reaching its window pixels is shown
        from its kept scaled copy."""
        surface = pygame.display.get_surface()
        if surface is None:
            return
        self.surface = surface
        fit = fit_rect(surface.get_size(), self.logical)
        if fit.size == self.logical:
            shown = [r.move(fit.topleft) for r in rects]
            canvas = self.canvas
            surface.blits([(canvas, dest, rect) for rect, dest in zip(rects, shown, strict=True)], doreturn=False)
            pygame.display.update(shown)
            return
        lw, lh = self.logical
        if fit.w % lw == 0 and fit.h % lh == 0:  # as _scale: pixel doubling at 4K
            scale = pygame.transform.scale
        elif fit.w <= lw:  # shrinking averages each window pixel's own canvas pixels
            scale = pygame.transform.smoothscale
        else:  # growing blends samples that do not start on the grid: shown whole
            self.present()
            return
        parts = self._scaled_parts(rects, fit, keep=signature is not None)
        if sum(src.w * src.h for src, _, _, _ in parts) > WHOLE_PART * lw * lh:
            self.present()
            return
        scaled: dict[tuple, pygame.Surface] = {}  # each grown part scaled once a frame
        for rect, (src, dst, inner, reach) in zip(rects, parts, strict=True):
            sig = None if signature is None else signature(reach)
            img = None if sig is None else self.scaled_patches.get(rect, sig)
            if img is None:
                whole = scaled.get(tuple(src))
                if whole is None:
                    whole = scaled[tuple(src)] = scale(self.canvas.subsurface(src), dst.size)
                img = whole.subsurface(inner.move(-dst.x, -dst.y))
                if sig is not None:
                    self.scaled_patches.keep(self.canvas, rect, sig, img)
            surface.blit(img, inner)
        pygame.display.update([inner for _, _, inner, _ in parts])

    def _scaled_parts(self, rects: list[pygame.Rect], fit: pygame.Rect, keep: bool) -> list[tuple]:
        """Each canvas rect's part in the window: its rect grown to the scale grid, the
        window rect that shows it, the window pixels that show the canvas rect itself (only
        they changed; the rest of the grown part is there for the filter's sake and stays
        as shown) and how far those pixels' canvas pixels reach (their pulses' keys say
        what they look like). With `keep` (the pulses' regions, which stay where they are)
        kept for each rect until the window changes (at most PARTS_KEPT rects)."""
        if self._parts_fit != fit or len(self._parts) > PARTS_KEPT:
            self._parts.clear()
            self._parts_fit = fit
        margin = 2 * (-(-self.logical[0] // fit.w) + 1)
        out = []
        for rect in rects:
            where = tuple(rect)
            part = self._parts.get(where)
            if part is None:
                ((src, dst),) = scaled_parts([rect], fit, self.logical) or [(rect, rect)]
                inner = window_rect(rect, fit, self.logical).clip(dst)
                part = (src, dst, inner, rect.inflate(margin, margin))
                if keep:
                    self._parts[where] = part
            out.append(part)
        return out

    def _fill_bars(self, surface: pygame.Surface, fit: pygame.Rect) -> None:
        w, h = surface.get_size()
        if fit.x > 0:
            surface.fill(LETTERBOX, (0, 0, fit.x, h))
            surface.fill(LETTERBOX, (fit.right, 0, w - fit.right, h))
        if fit.y > 0:
            surface.fill(LETTERBOX, (0, 0, w, fit.y))
            surface.fill(LETTERBOX, (0, fit.bottom, w, h - fit.bottom))

    def _scale(self, size: Size) -> pygame.Surface:
        lw, lh = self.logical
        if self._scaled is None or self._scaled.get_size() != size:
            self._scaled = pygame.Surface(size, 0, self.canvas)
        if size[0] % lw == 0 and size[1] % lh == 0:  # an exact multiple (4K): pixel doubling
            return pygame.transform.scale(self.canvas, size, self._scaled)
        return pygame.transform.smoothscale(self.canvas, size, self._scaled)

    # -- input ---------------------------------------------------------------------------

    def to_logical(self, pos: tuple[float, float]) -> tuple[int, int]:
        return to_logical(pos, self.fit, self.logical)

    def to_window(self, pos: tuple[float, float]) -> tuple[int, int]:
        return to_window(pos, self.fit, self.logical)

    def mouse_pos(self) -> tuple[int, int]:
        """pygame.mouse.get_pos() in canvas coordinates: the one to use in game/ui."""
        return self.to_logical(pygame.mouse.get_pos())

    def map_event(self, event: pygame.event.Event) -> pygame.event.Event:
        """A mouse event from SDL, in window pixels -> the same event in canvas pixels.

        Events the program posts itself (autoplay, screenshots, the benchmark, tests) carry no
        `window` attribute: they are in canvas pixels already and pass unchanged."""
        if event.type not in MOUSE_EVENTS or not hasattr(event, "window") or not hasattr(event, "pos"):
            return event
        fit = self.fit
        if fit.size == self.logical and fit.topleft == (0, 0):
            return event
        data = dict(event.dict)
        data["pos"] = to_logical(event.pos, fit, self.logical)
        if "rel" in data:
            kx, ky = self.logical[0] / fit.w, self.logical[1] / fit.h
            data["rel"] = (round(event.rel[0] * kx), round(event.rel[1] * ky))
        return pygame.event.Event(event.type, data)
