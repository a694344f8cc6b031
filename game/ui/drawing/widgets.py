"""Widgets: button, toggle, slider, stepper (a value chosen from a list), text field and
tooltips. Each keeps its rect in logical (1920x1080) coordinates; rendering is cached per
label, size, style and state, so drawing a widget is a blit. The button, the toggle and the
lobby's table row share one hit-test: `Clickable`.

Labels are callables or strings: a callable is re-evaluated when drawn, so a language switch
shows up at once.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from functools import lru_cache

import pygame

from . import draw, fonts
from .theme import (
    ACCENT,
    BAD,
    DISABLED,
    GOLD,
    HINT,
    INK,
    PANEL_EDGE,
    PANEL_LIGHT,
    TEXT,
    TEXT_DIM,
    THEME,
    darken,
    lighten,
)

Label = str | Callable[[], str]
BUTTON_GLOW = draw.Pulse(120, 135, 1.2)  # a button asking to be pressed


def _label(label: Label) -> str:
    return label() if callable(label) else label


STYLES = {
    # fill, edge, ink
    "primary": (GOLD, darken(GOLD, 0.4), INK),
    "normal": (PANEL_LIGHT, PANEL_EDGE, TEXT),
    "danger": ((170, 56, 50), (110, 30, 26), TEXT),
    "good": ((52, 140, 84), (26, 80, 44), TEXT),
    "ghost": ((30, 40, 36), (60, 80, 70), TEXT_DIM),
}


@lru_cache(maxsize=1024)
def _button_surface(
    label: str,
    w: int,
    h: int,
    style: str,
    state: str,
    size: int,
    epoch: int,
    icon_key,
    keycap: str | None = None,
):
    fill, edge, ink = STYLES[style]
    if state == "disabled":
        fill, edge, ink = darken(fill, 0.55), darken(edge, 0.3), DISABLED
    elif state == "hover":
        fill = lighten(fill, 0.14)
    elif state == "down":
        fill = darken(fill, 0.12)
    surf = pygame.Surface((w, h + 4), pygame.SRCALPHA)
    rad = min(16, h // 3)
    dy = 2 if state == "down" else 0
    pygame.draw.rect(surf, (0, 0, 0, 90), (0, 4, w, h), border_radius=rad)
    pygame.draw.rect(surf, edge, (0, dy, w, h), border_radius=rad)
    pygame.draw.rect(surf, fill, (2, dy + 2, w - 4, h - 4), border_radius=rad - 1)
    if state != "disabled":
        pygame.draw.rect(
            surf, lighten(fill, 0.18), (4, dy + 3, w - 8, max(2, h // 4)), border_radius=rad - 2
        )
    icon = None
    if icon_key is not None:
        icon = ICONS[icon_key](max(12, int(min(w, h) * 0.56)))
        if state == "disabled":
            icon = icon.copy()
            icon.set_alpha(90)
    cap = box = None
    if keycap:
        # the keyboard shortcut at the right end: the label is centred in what is left
        # from at least the readable minimum, so a cap lifted to it at Normal still grows at
        # Large (issue 32)
        cap = draw.text(keycap, max(16 if h >= 44 else 14, THEME.min_px), ink, True)
        box = pygame.Rect(0, 0, max(22, cap.get_width() + 8), min(h - 8, cap.get_height() + 2))
        box.midright = (w - 6, dy + h // 2)
    if box is not None and icon is not None and not label and h > w:
        # a narrow, tall icon button: the icon over its key cap
        box.midbottom = (w // 2, dy + h - 4)
        surf.blit(icon, icon.get_rect(center=(w // 2, dy + (box.top + 2) // 2)))
        pygame.draw.rect(surf, (*ink[:3], 70), box, width=1, border_radius=5)
        surf.blit(cap, cap.get_rect(center=box.center))
        return surf
    right = box.left - 6 if box is not None else w - 10
    avail = right - 10 - (icon.get_width() + 8 if icon else 0)
    img = draw.fit(label, size, max(20, avail), ink, True) if label else None
    total = (img.get_width() if img else 0) + (icon.get_width() + (8 if img else 0) if icon else 0)
    x = 10 + max(0, (right - 10 - total) // 2)
    if icon:
        surf.blit(icon, (x, dy + (h - icon.get_height()) // 2))
        x += icon.get_width() + 8
    if img:
        surf.blit(img, (x, _label_top(img, dy, h)))
    if cap is not None:
        pygame.draw.rect(surf, (*ink[:3], 70), box, width=1, border_radius=5)
        surf.blit(cap, cap.get_rect(center=box.center))
    return surf


def _label_top(img: pygame.Surface, dy: int, h: int) -> int:
    """Where a label's line goes in a button of height h: centred, but moved so that its
    ink stays inside the button's face (a Thai line box at Large is taller than a short
    button, while its letters fit)."""
    y = dy + (h - img.get_height()) // 2 - 1
    ink = img.get_bounding_rect()
    if ink.height == 0:
        return y
    if ink.height > h - 4:  # taller than the face: its middle on the button's middle
        return dy + h // 2 - ink.centery
    return min(max(y, dy + 2 - ink.top), dy + h - 2 - ink.bottom)


KEYCAP_W = 32  # what a one-letter key cap takes of a button's width

KEYCAPS = {
    pygame.K_SPACE: "key.space",
    pygame.K_RETURN: "key.enter",
    pygame.K_ESCAPE: "key.esc",
    pygame.K_END: "key.end",
    pygame.K_PAGEUP: "key.pageup",
    pygame.K_PAGEDOWN: "key.pagedown",
    pygame.K_UP: "↑",
    pygame.K_DOWN: "↓",
    pygame.K_LEFT: "←",
    pygame.K_RIGHT: "→",
    pygame.K_1: "1",
    **{getattr(pygame, f"K_{c}"): c.upper() for c in "abcdefghijklmnopqrstuvwxyz"},
}


def keycap(key: int | None) -> str | None:
    """The label of a shortcut key as printed on the keyboard (named keys translated)."""
    name = KEYCAPS.get(key) if key is not None else None
    if name is not None and name.startswith("key."):
        from ..i18n import tr

        return tr(name)
    return name


def _arrow(size: int, left: bool) -> pygame.Surface:
    surf = pygame.Surface((size, size), pygame.SRCALPHA)
    a, b = size * 0.28, size * 0.72
    pts = (
        [(b, a - size * 0.05), (a, size / 2), (b, b + size * 0.05)]
        if left
        else [(a, a - size * 0.05), (b, size / 2), (a, b + size * 0.05)]
    )
    pygame.draw.polygon(surf, (235, 232, 220), pts)
    return surf


ICONS: dict[str, Callable[[int], pygame.Surface]] = {
    "prev": lambda s: _arrow(s, True),
    "next": lambda s: _arrow(s, False),
    "crown": draw.crown,
    "suitcase": draw.suitcase,
    "coin": draw.coin,
    "bot": draw.bot_badge,
    "die": lambda s: draw.die_face(5, s),
}


class Widget:
    rect: pygame.Rect
    enabled: bool = True
    visible: bool = True
    tip: Label | None = None
    disabled_reason: Label | None = None  # why it is off, in the player's words
    name: str = ""  # a stable id: tests and keyboard shortcuts find widgets by it
    panel: pygame.Rect | None = None  # the box it belongs in (None: the screen)

    def tooltip(self) -> Label | None:
        """What hovering shows: while the control is off, why it is off (never the tip of
        what it would do)."""
        return self.tip if self.enabled else self.disabled_reason

    def handle(self, event) -> bool:
        return False

    def draw(self, surface, t: float) -> None:
        pass

    def hit(self, pos) -> bool:
        return self.visible and self.rect.collidepoint(pos)

    def pulsing(self) -> bool:
        """Whether its picture changes with time alone (a glow, a caret)."""
        return False

    def pulse_key(self, t: float):
        """How a pulsing widget looks at time t (redrawn when the key changes)."""
        return None


class Clickable(Widget):
    """A control the mouse hovers, presses and clicks on its rect: the one hit-test of the
    button, the toggle and the lobby's table row. A click is a left press and release on
    it; with `press_first` False a release on it will do (where the press began does not
    matter). `click` runs only while the control is enabled. No widget takes keyboard focus
    (keys reach buttons through their commands: scene.py)."""

    hover = False  # the pointer is over it
    down = False  # pressed on it, not released yet (only while enabled)
    press_first = True

    def handle(self, event) -> bool:
        if not self.visible:
            return False
        if event.type == pygame.MOUSEMOTION:
            self.hover = self.rect.collidepoint(event.pos)
            return False
        if event.type not in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP) or event.button != 1:
            return False
        on_it = self.rect.collidepoint(event.pos)
        if event.type == pygame.MOUSEBUTTONDOWN:
            if on_it:
                self.down = self.enabled
            return on_it  # a press on it is its, enabled or not
        pressed, self.down = self.down, False
        if not on_it or (self.press_first and not (pressed and self.enabled)):
            return False
        if self.enabled:
            self.click()
        return True

    def click(self) -> None:
        raise NotImplementedError


class Button(Clickable):
    def __init__(
        self,
        rect,
        label: Label,
        on_click: Callable[[], None] | None = None,
        style: str = "normal",
        enabled: bool = True,
        size: int = 26,
        icon: str | None = None,
        tip: Label | None = None,
        name: str = "",
        hotkey: int | None = None,
        sound: str | None = "ui_click",
        command: str = "",
        disabled_reason: Label | None = None,
    ) -> None:
        self.rect = pygame.Rect(rect)
        self.label = label
        self.on_click = on_click
        self.style = style
        self.enabled = enabled
        self.disabled_reason = disabled_reason
        self.size = size
        self.icon = icon
        self.tip = tip
        self.name = name
        self.hotkey = hotkey  # the key cap shown (the table sets it from its keymap)
        self.command = command or name  # what a key bound to it runs (keys.py)
        self.glow = False
        self.sound = sound

    def click(self) -> None:
        if not self.enabled or self.on_click is None:
            return
        if self.sound and Button.sounds is not None:
            Button.sounds.play(self.sound, 0.6)
        self.on_click()

    sounds = None  # set by the app: a Sounds instance for the click

    def pulsing(self) -> bool:
        return self.glow and self.enabled

    def pulse_key(self, t: float):
        return BUTTON_GLOW.level(t)

    def state(self) -> str:
        if not self.enabled:
            return "disabled"
        if self.down:
            return "down"
        if self.hover:
            return "hover"
        return "normal"

    def draw(self, surface, t: float) -> None:
        if not self.visible:
            return
        clip = surface.get_clip()
        if clip.size != surface.get_size() and not self.rect.inflate(16, 16).colliderect(clip):
            return  # a redraw of a part it does not reach (its glow spreads 8 px round it)
        if self.glow and self.enabled:
            draw.draw_glow(
                surface,
                self.rect,
                GOLD,
                radius=min(16, self.rect.height // 3),
                spread=8,
                alpha=BUTTON_GLOW.alpha(t),
            )
        img = _button_surface(
            _label(self.label),
            self.rect.width,
            self.rect.height,
            self.style,
            self.state(),
            self.size,
            THEME.epoch,
            self.icon,
            keycap(self.hotkey),
        )
        surface.blit(img, self.rect.topleft)


SWITCH_W = 72  # a toggle's switch, right of its label


class Toggle(Clickable):
    """A switch with a label on its left; value read and written through callables."""

    press_first = False

    def __init__(
        self,
        rect,
        label: Label,
        get: Callable[[], bool],
        set_: Callable[[bool], None],
        tip=None,
        name="",
        size=26,
        enabled=True,
        disabled_reason: Label | None = None,
    ):
        self.rect = pygame.Rect(rect)
        self.label = label
        self.get = get
        self.set = set_
        self.tip = tip
        self.name = name
        self.size = size
        self.enabled = enabled
        self.disabled_reason = disabled_reason

    def click(self) -> None:
        self.set(not self.get())
        if Button.sounds is not None:
            Button.sounds.play("ui_click", 0.6)

    def _step(self, size: int, lines: int) -> int:
        """Line to line: the label's own line height (its script's faces), closer for a
        label of several lines (the height keeps room for marks few lines need)."""
        lh = draw.text_height(_label(self.label), size)
        return lh if lines <= 1 else round(lh * 0.86)

    def _label_lines(self, text: str, room: int) -> tuple[int, list[str]]:
        """The label's size and lines: one line if it fits, else wrapped, smaller step by
        step (never below the readable minimum) until the lines fit the toggle's height.
        A label is never cut: one that still does not fit is a layout bug the layout
        test reports (its lines too many for the height, or too wide for the room)."""
        size = self.size
        while True:
            lines = [text] if draw.text_width(text, size) <= room else draw.wrap(text, size, room)
            fits = len(lines) * self._step(size, len(lines)) <= self.rect.height
            if fits or THEME.font_px(size - 2) >= THEME.font_px(size):  # as small as it gets
                break
            size -= 2
        return size, _balanced(text, size, room, lines)

    def _label_room(self) -> int:
        return self.rect.width - SWITCH_W - 18

    def label_fits(self) -> bool:
        """Whether the label fits whole at its own size, unshrunk: its lines within the
        toggle's height and its room left of the switch (a row gives way to it where it
        does not)."""
        room = self._label_room()
        size, lines = self._label_lines(_label(self.label), room)
        return (size == self.size and len(lines) * self._step(size, len(lines)) <= self.rect.height
                and all(draw.text_width(line, size) <= room for line in lines))  # fmt: skip

    def draw(self, surface, t: float) -> None:
        clip = surface.get_clip()
        if clip.size != surface.get_size() and not self.rect.colliderect(clip):
            return  # a redraw of a part it does not reach
        on = bool(self.get())
        sw = pygame.Rect(0, 0, SWITCH_W, 38)
        sw.midright = (self.rect.right - 4, self.rect.centery)
        ink = TEXT if self.enabled else DISABLED
        if self.hover and self.enabled:  # a faint lighter band (an opaque colour: the
            # surface has no alpha, so a translucent white would paint a white box)
            pygame.draw.rect(surface, (44, 78, 64), self.rect, border_radius=10)
        room = self._label_room()
        size, lines = self._label_lines(_label(self.label), room)
        lh = self._step(size, len(lines))
        y = self.rect.centery - lh * len(lines) // 2
        for line in lines:
            img = draw.fit(line, size, room, ink)
            surface.blit(img, (self.rect.x + 10, y))
            y += lh
        track = (70, 170, 100) if on else (70, 78, 74)
        if not self.enabled:
            track = darken(track, 0.4)
        pygame.draw.rect(surface, darken(track, 0.35), sw, border_radius=19)
        pygame.draw.rect(surface, track, sw.inflate(-4, -4), border_radius=17)
        knob_x = sw.right - 19 if on else sw.left + 19
        pygame.draw.circle(surface, (0, 0, 0, 80), (knob_x, sw.centery + 2), 15)
        pygame.draw.circle(surface, (245, 245, 240), (knob_x, sw.centery), 15)


def _balanced(text: str, size: int, room: int, lines: list[str]) -> list[str]:
    """The same number of lines, as even as they go: wrapped at the narrowest width that
    needs no more lines (no lone last word under a full line)."""
    if len(lines) < 2:
        return lines
    lo, hi = room // len(lines), room
    while lo < hi:
        mid = (lo + hi) // 2
        if len(draw.wrap(text, size, mid)) <= len(lines):
            hi = mid
        else:
            lo = mid + 1
    return draw.wrap(text, size, hi)


class Slider(Widget):
    def __init__(
        self,
        rect,
        label: Label,
        get: Callable[[], float],
        set_: Callable[[float], None],
        lo=0.0,
        hi=1.0,
        fmt=None,
        name="",
        size=26,
    ):
        self.rect = pygame.Rect(rect)
        self.label = label
        self.get = get
        self.set = set_
        self.lo, self.hi = lo, hi
        self.fmt = fmt or (lambda v: f"{round(v * 100)}%")
        self.name = name
        self.size = size
        self.drag = False
        self.tip = None

    def track(self) -> pygame.Rect:
        r = pygame.Rect(0, 0, int(self.rect.width * 0.42), 10)
        r.midright = (self.rect.right - 110, self.rect.centery)
        return r

    def _set_from(self, x: int) -> None:
        tr_ = self.track()
        frac = min(1.0, max(0.0, (x - tr_.left) / tr_.width))
        self.set(self.lo + frac * (self.hi - self.lo))

    def handle(self, event) -> bool:
        if (
            event.type == pygame.MOUSEBUTTONDOWN
            and event.button == 1
            and self.track().inflate(24, 30).collidepoint(event.pos)
        ):
            self.drag = True
            self._set_from(event.pos[0])
            return True
        if event.type == pygame.MOUSEMOTION and self.drag:
            self._set_from(event.pos[0])
            return True
        if event.type == pygame.MOUSEBUTTONUP and self.drag:
            self.drag = False
            return True
        return False

    def draw(self, surface, t: float) -> None:
        tr_ = self.track()
        label = draw.fit(_label(self.label), self.size, tr_.left - self.rect.left - 20, TEXT)
        surface.blit(label, label.get_rect(midleft=(self.rect.x + 10, self.rect.centery)))
        frac = (self.get() - self.lo) / (self.hi - self.lo)
        pygame.draw.rect(surface, (60, 70, 66), tr_, border_radius=5)
        fill = tr_.copy()
        fill.width = int(tr_.width * frac)
        pygame.draw.rect(surface, ACCENT, fill, border_radius=5)
        knob = (tr_.left + int(tr_.width * frac), tr_.centery)
        pygame.draw.circle(surface, (0, 0, 0, 90), (knob[0], knob[1] + 2), 15)
        pygame.draw.circle(surface, (245, 245, 240), knob, 15)
        val = draw.text(self.fmt(self.get()), self.size, TEXT_DIM)
        surface.blit(val, val.get_rect(midleft=(tr_.right + 24, self.rect.centery)))


class Stepper(Widget):
    """‹ value › : cycles through options (label per option from a callable)."""

    def __init__(
        self,
        rect,
        label: Label,
        options: list,
        get: Callable[[], object],
        set_: Callable[[object], None],
        show: Callable[[object], str] = str,
        name="",
        size=26,
        enabled=True,
        tip=None,
        value_w=None,
        disabled_reason: Label | None = None,
    ):
        self.rect = pygame.Rect(rect)
        self.label = label
        self.options = options
        self.get = get
        self.set = set_
        self.show = show
        self.name = name
        self.size = size
        self.enabled = enabled
        self.disabled_reason = disabled_reason
        self.tip = tip
        self.value_w = value_w
        vw = value_w or int(self.rect.width * 0.48)
        h = self.rect.height - 8
        self.box = pygame.Rect(0, 0, vw, h)
        self.box.midright = (self.rect.right - 4, self.rect.centery)
        self.prev = Button(
            (self.box.x, self.box.y, h, h),
            "",
            lambda: self.step(-1),
            icon="prev",
            name=name + ".prev",
        )
        self.next = Button(
            (self.box.right - h, self.box.y, h, h),
            "",
            lambda: self.step(1),
            icon="next",
            name=name + ".next",
        )

    def step(self, d: int) -> None:
        if not self.enabled:
            return
        cur = self.get()
        i = self.options.index(cur) if cur in self.options else 0
        self.set(self.options[(i + d) % len(self.options)])

    def handle(self, event) -> bool:
        self.prev.enabled = self.next.enabled = self.enabled
        return self.prev.handle(event) or self.next.handle(event)

    def draw(self, surface, t: float) -> None:
        self.prev.enabled = self.next.enabled = self.enabled  # drawn as the stepper is
        self.prev.disabled_reason = self.next.disabled_reason = self.disabled_reason
        ink = TEXT if self.enabled else DISABLED
        if self.label:
            label = draw.fit(
                _label(self.label), self.size, self.box.left - self.rect.left - 16, ink
            )
            surface.blit(label, label.get_rect(midleft=(self.rect.x + 10, self.rect.centery)))
        pygame.draw.rect(surface, (12, 26, 20), self.box, border_radius=10)
        pygame.draw.rect(surface, PANEL_EDGE, self.box, width=2, border_radius=10)
        self.prev.draw(surface, t)
        self.next.draw(surface, t)
        inner = self.box.width - 2 * self.box.height - 8
        val = draw.fit(self.show(self.get()), self.size, inner, ink, True)
        surface.blit(val, val.get_rect(center=self.box.center))


PENCIL_ROOM = 22  # a text field's pencil, at its right end while it is not being typed in


def pencil(surface, center, colour) -> pygame.Rect:
    """A small pencil, drawn (no font needed): the mark of a field one can write in."""
    cx, cy = center
    body = [(cx - 7, cy + 5), (cx + 4, cy - 6), (cx + 8, cy - 2), (cx - 3, cy + 9)]
    pygame.draw.polygon(surface, colour, body, width=2)
    pygame.draw.polygon(surface, colour, [(cx - 7, cy + 5), (cx - 3, cy + 9), (cx - 9, cy + 11)])
    return pygame.Rect(cx - 9, cy - 6, 18, 17)


class TextField(Widget):
    """One line of text; typed characters no font of the language can draw are refused."""

    focused_field: TextField | None = None

    def __init__(
        self,
        rect,
        get: Callable[[], str],
        set_: Callable[[str], None],
        placeholder: Label = "",
        max_len=16,
        name="",
        size=26,
    ):
        self.rect = pygame.Rect(rect)
        self.get = get
        self.set = set_
        self.placeholder = placeholder
        self.max_len = max_len
        self.name = name
        self.size = size
        self.tip = None
        self.rejected = 0.0

    @property
    def focused(self) -> bool:
        return TextField.focused_field is self

    def focus(self) -> None:
        TextField.focused_field = self
        with contextlib.suppress(pygame.error):
            pygame.key.start_text_input()

    def blur(self) -> None:
        if TextField.focused_field is self:
            TextField.focused_field = None

    def handle(self, event) -> bool:
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            if self.rect.collidepoint(event.pos):
                self.focus()
                return True
            self.blur()
            return False
        if not self.focused:
            return False
        if event.type == pygame.TEXTINPUT:
            self.insert(event.text)
            return True
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_BACKSPACE:
                self.set(self.get()[:-1])
                return True
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_TAB, pygame.K_ESCAPE):
                self.blur()
                return True
            return True  # typing keys never reach the scene's shortcuts
        return False

    def pulsing(self) -> bool:
        return self.focused or self.rejected > 0

    def pulse_key(self, t: float):
        # the red edge of a refused character fades out one drawn frame at a time
        return self.caret_on(t), self.rejected

    def caret_on(self, t: float) -> bool:
        """The caret blinks: shown for half of each second."""
        return int(t * 2) % 2 == 0

    def insert(self, s: str) -> None:
        cur = self.get()
        ok = "".join(ch for ch in s if ch.isprintable() and not fonts.missing_chars(ch, THEME.lang))
        if ok != s:
            self.rejected = 0.6
        self.set((cur + ok)[: self.max_len])

    def draw(self, surface, t: float) -> None:
        pygame.draw.rect(surface, (10, 22, 18), self.rect, border_radius=10)
        edge = ACCENT if self.focused else PANEL_EDGE
        if self.rejected > 0:
            edge = BAD
            self.rejected = max(0.0, self.rejected - 1 / 60)
        pygame.draw.rect(surface, edge, self.rect, width=2, border_radius=10)
        value = self.get()
        room = self.rect.width - 28 - (0 if self.focused else PENCIL_ROOM)
        if value:
            img = draw.fit(value, self.size, room, TEXT)
        else:
            img = draw.fit(_label(self.placeholder), self.size, room, HINT)
        surface.blit(img, img.get_rect(midleft=(self.rect.x + 14, self.rect.centery)))
        if not self.focused:  # a field one can type in, not a value shown (a newcomer's read)
            pencil(surface, (self.rect.right - 12 - PENCIL_ROOM // 2, self.rect.centery), HINT)
        if self.focused and self.caret_on(t):
            x = self.rect.x + 14 + (img.get_width() if value else 0) + 2
            pygame.draw.line(
                surface, ACCENT, (x, self.rect.centery - 14), (x, self.rect.centery + 14), 2
            )


TIP_GAP = 10  # a tooltip beside what it explains stands this far from it
TIP_REACH = 24  # and never further: it touches what it explains (it floated 150 px off)


def tooltip_rect(
    w: int, h: int, pos, avoid: tuple[pygame.Rect, ...], screen, prefer=()
) -> pygame.Rect:
    """Where a w x h tooltip goes: by the pointer or beside what it explains (`avoid[0]`),
    never further from it than TIP_REACH, never over the rects in `avoid` (it, then what
    must stay in view: a pop-up, the lesson's coach) and always on screen; off the rects
    in `prefer` too (the other controls, whose labels it would hide) wherever such a place
    exists, else at least off the first of them. Beside it: below, above, right and left,
    each slid along its side; else the place beside it that covers the least of `avoid`."""
    sw, sh = screen
    area = pygame.Rect(8, 8, sw - 16, sh - 16)
    first = pygame.Rect(pos[0] + 22, pos[1] + 26, w, h)
    if first.right > area.right:
        first.x = pos[0] - w - 16
    if first.bottom > area.bottom:
        first.y = pos[1] - h - 16
    cands = [first]
    x = min(max(pos[0] - w // 2, area.x), area.right - w)
    y = min(max(pos[1] - h // 2, area.y), area.bottom - h)
    prefer = [pygame.Rect(p) for p in prefer]
    if avoid:
        u = avoid[0]
        xs = (x, u.left, u.right - w)  # below / above: by the pointer, or either end
        ys = (y, u.top, u.bottom - h)  # right / left: likewise
        for g in (TIP_GAP, TIP_REACH):  # (the farthest it may stand: past a neighbour)
            cands += [pygame.Rect(cx, u.bottom + g, w, h) for cx in xs]
            cands += [pygame.Rect(cx, u.top - g - h, w, h) for cx in xs]
            cands += [pygame.Rect(u.right + g, cy, w, h) for cy in ys]
            cands += [pygame.Rect(u.left - g - w, cy, w, h) for cy in ys]
        cands = [r for r in cands if _gap(r, u) <= TIP_REACH]
    for hard in ([*avoid, *prefer], [*avoid, *prefer[:1]], list(avoid)):
        for r in cands:
            if area.contains(r) and r.collidelist(hard) < 0:
                return r
    placed = [r.clamp(area) for r in cands]
    return min(placed, key=lambda r: sum(r.clip(a).width * r.clip(a).height for a in avoid))


def _gap(a: pygame.Rect, b: pygame.Rect) -> int:
    """The distance between two rects (0 where they touch or overlap)."""
    return max(0, b.left - a.right, a.left - b.right, b.top - a.bottom, a.top - b.bottom)


def draw_tooltip(
    surface, text: str, pos, max_w: int = 560, size: int = 24, avoid=(), prefer=()
) -> pygame.Rect:
    """A wrapped tooltip box near pos, kept on screen and off the rects in `avoid` (and,
    where it can, off those in `prefer`)."""
    lines = draw.wrap(text, size, max_w)
    lh = round(draw.line_height(size) * 1.15)
    w = min(max_w, max((draw.text_width(line, size) for line in lines), default=0)) + 32
    h = lh * len(lines) + 24
    avoid = tuple(pygame.Rect(a) for a in avoid)
    rect = tooltip_rect(w, h, pos, avoid, surface.get_size(), prefer)
    draw.draw_panel(surface, rect, fill=(250, 246, 232), alpha=250, edge=(150, 120, 70), radius=12)
    yy = rect.y + 12
    for line in lines:
        if line:
            surface.blit(draw.text(line, size, INK), (rect.x + 16, yy))
        yy += lh
    return rect
