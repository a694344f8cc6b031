"""A small scene stack: push / pop / replace, with transparent overlays.

The top scene gets the input and updates; scenes below an overlay (`opaque = False`) are
still drawn, bottom first. A scene keeps its widgets in `self.widgets`; the default handle
and draw go through them, and a widget with a `tip` shows its tooltip after a short hover.

Redrawing only what changed: the app's loop asks the stack for `changes()`, the canvas
rects whose picture would differ from the one last shown, and draws and presents only
those (game/ui/screen/app.py). A scene that moves every frame without saying where keeps
`animated = True` and is redrawn whole every frame. One with `animated = False` promises
that its picture changes only with an event (any event redraws the stack), `invalidate()`
(its own state changed), `look()` (a key of what else it shows), a tooltip coming up, or
its `pulses()`: things that change with time alone (a glow, a caret, a countdown, a drifting
card), each with a key of how it looks and its rect, redrawn there when the key changes,
at most every `pulse_step` seconds (a slow glow needs no 60 redraws a second; the title,
whose cards drift across the screen, sets 1/30).
"""

from __future__ import annotations

import contextlib

import pygame

from ..drawing.theme import LOGICAL_SIZE
from ..drawing.widgets import Button, TextField, Widget, _label, draw_tooltip
from .keys import Keymap

TIP_DELAY = 0.45
GLOW_MARGIN = 2 * 12  # a widget's glow spreads 8 px round it (and a shadow below)
WHOLE = pygame.Rect((0, 0), LOGICAL_SIZE)  # changes() naming this: redraw everything
PULSE_STEP = 1 / 20  # seconds between two redraws of what changes with time alone


class Scene:
    opaque = True
    name = "scene"
    animated = True  # redrawn whole every frame (see the module docstring)
    pulse_step = PULSE_STEP
    # its picture is mostly one blit of a composed layer: one redraw clipped to the union of
    # the changed rects costs less than a pass per rect (the table's 16 glows round the board)
    clip_union = False
    # its pulses come round to the same looks (glow steps, a caret): their rects are kept
    # drawn under their keys and blitted back (game/ui/drawing/patches.py); not the title's cards
    keeps_patches = True

    def __init__(self, app) -> None:
        self.app = app
        self.widgets: list[Widget] = []
        self.t = 0.0
        self._hover: Widget | None = None
        self._hover_t = 0.0
        self.mouse = (0, 0)
        self._stale = True  # the picture last shown is out of date
        self._shown: tuple | None = None  # what the picture last shown depended on
        self._pulses_shown: list[tuple[object, pygame.Rect]] = []  # and its pulses()
        self._pulses_now: tuple[float, list] | None = None  # pulses() at this frame's time
        self._shown_t = 0.0  # the scene's time in the picture last shown
        # while the loop works out, draws and shows one picture (SceneStack.steady) nothing
        # the scene shows changes: what it works out for each step may be kept here
        self.memo: dict | None = None

    # lifecycle
    def enter(self) -> None:
        """Pushed or uncovered: (re)build widgets."""
        self.layout()
        self.invalidate()

    def exit(self) -> None:
        pass

    def layout(self) -> None:
        """Build widgets for the current language and settings."""

    def relayout(self) -> None:
        """Language, palette or text size changed."""
        self.layout()
        self.invalidate()

    # input
    def handle(self, event) -> bool:
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
        for w in list(self.widgets):
            if w.visible and w.handle(event):
                return True
        if event.type == pygame.KEYDOWN and TextField.focused_field is None:
            return self.press(event.key)
        return False

    # keys
    def keymap(self) -> Keymap:
        """The keys of this scene now: by default its shown buttons' hotkeys."""
        return Keymap.of_buttons(self.name, self.widgets)

    def commands(self) -> dict:
        """The scene's key commands that have no button (command -> callable -> handled)."""
        return {}

    def press(self, key: int) -> bool:
        """Run the command bound to `key`: click the shown button with that command, or
        call the scene's own command of that name."""
        command = self.keymap().command(key)
        if command is None:
            return False
        for w in self.widgets:
            if isinstance(w, Button) and w.command == command and w.visible:
                if w.enabled:
                    w.click()
                return w.enabled
        run = self.commands().get(command)
        return bool(run()) if run is not None else False

    def update(self, dt: float) -> None:
        self.t += dt
        self._pulses_now = None
        hover = None
        for w in reversed(self.widgets):
            if w.visible and w.tooltip() and w.rect.collidepoint(self.mouse):
                hover = w
                break
        if hover is not self._hover:
            self._hover, self._hover_t = hover, 0.0
        else:
            self._hover_t += dt

    def draw(self, surface) -> None:
        for w in self.widgets:
            if w.visible:
                w.draw(surface, self.t)

    def draw_tooltip(self, surface) -> None:
        if self._hover is not None and self._hover_t >= TIP_DELAY:
            tip = _label(self._hover.tooltip())
            if tip:
                draw_tooltip(surface, tip, self.mouse, avoid=(self._hover.rect,),
                             prefer=self.other_controls(self._hover))  # fmt: skip

    def other_controls(self, but) -> tuple[pygame.Rect, ...]:
        """The visible controls besides `but`: a tooltip keeps off their labels."""
        return tuple(w.rect for w in self.widgets if w.visible and w is not but)

    def find(self, name: str) -> Widget | None:
        """The widget with this name (tests and shortcuts)."""
        for w in self.widgets:
            if w.name == name:
                return w
        return None

    # redrawing only what changed
    def invalidate(self) -> None:
        """The whole picture is out of date (state the scene shows has changed)."""
        self._stale = True
        self._pulses_now = None

    def look(self):
        """A key of whatever else the picture shows (None: nothing else); the scene is
        redrawn whole when it differs from the key of the picture last shown."""
        return None

    def _shown_key(self) -> tuple:
        return self.look(), self._hover is not None and self._hover_t >= TIP_DELAY

    def pulses(self) -> list[tuple[object, pygame.Rect]]:
        """What changes with time alone, each as (a key of how it looks now, the canvas rect
        it covers): a pulsing widget's glow, a focused field's caret."""
        return [
            (w.pulse_key(self.t), w.rect.inflate(GLOW_MARGIN, GLOW_MARGIN))
            for w in self.widgets
            if w.visible and w.pulsing()
        ]

    def pulses_now(self) -> list[tuple[object, pygame.Rect]]:
        """pulses() once a frame: the loop asks for changes, the patches' keys and what was
        shown, all at one moment (the scene's time and state stand still meanwhile)."""
        if self._pulses_now is None or self._pulses_now[0] != self.t:
            self._pulses_now = (self.t, self.pulses())
        return self._pulses_now[1]

    def changes(self) -> list[pygame.Rect]:
        """The canvas rects whose picture differs from the one last shown ([WHOLE]: all)."""
        if self.animated or self._stale or self._shown_key() != self._shown:
            return [WHOLE]
        if self.t - self._shown_t < 0.9 * self.pulse_step:  # (frames come a little early)
            return []
        now = self.pulses_now()
        if len(now) != len(self._pulses_shown):
            return [WHOLE]
        return [
            rect if rect == was_rect else rect.union(was_rect)
            for (key, rect), (was, was_rect) in zip(now, self._pulses_shown, strict=True)
            if key != was or rect != was_rect
        ]

    def shown(self) -> None:
        """The picture of this moment is on screen."""
        self._stale = False
        self._shown = self._shown_key()
        self._pulses_shown = self.pulses_now()
        self._shown_t = self.t


class SceneStack:
    def __init__(self) -> None:
        self.scenes: list[Scene] = []
        self._shown: list[int] = []  # the ids of the scenes in the picture last shown

    @property
    def top(self) -> Scene | None:
        return self.scenes[-1] if self.scenes else None

    def push(self, scene: Scene) -> Scene:
        self.scenes.append(scene)
        scene.enter()
        return scene

    def pop(self) -> Scene | None:
        if not self.scenes:
            return None
        scene = self.scenes.pop()
        scene.exit()
        if self.scenes:
            self.scenes[-1].enter()
        return scene

    def replace(self, scene: Scene) -> Scene:
        while self.scenes:
            self.scenes.pop().exit()
        return self.push(scene)

    def remove(self, scene: Scene) -> None:
        if scene in self.scenes:
            top = scene is self.top
            self.scenes.remove(scene)
            scene.exit()
            if top and self.scenes:
                self.scenes[-1].enter()

    def visible(self) -> list[Scene]:
        out: list[Scene] = []
        for scene in reversed(self.scenes):
            out.append(scene)
            if scene.opaque:
                break
        return list(reversed(out))

    def invalidate(self) -> None:
        """Every scene is redrawn whole (an event may have changed any of them)."""
        for scene in self.scenes:
            scene.invalidate()

    def handle(self, event) -> bool:
        top = self.top
        return top.handle(event) if top else False

    def changes(self, merged: bool = True) -> list[pygame.Rect]:
        """The canvas rects to redraw: what changed in any visible scene, merged (or each
        pulse's own rect as it is, unless the whole canvas changed)."""
        visible = self.visible()
        if [id(s) for s in visible] != self._shown:
            return [WHOLE]
        rects: list[pygame.Rect] = []
        for scene in visible:
            rects += scene.changes()
        if merged or WHOLE in rects:
            return merge_rects(rects)
        return rects

    def pulse_step(self) -> float:
        """The shortest time between two redraws of a visible scene's pulses."""
        return min((scene.pulse_step for scene in self.visible()), default=PULSE_STEP)

    def pulse_looks(self) -> list[tuple[object, pygame.Rect]] | None:
        """Every visible scene's pulses now, bottom first (None: a scene keeps no patches)."""
        visible = self.visible()
        if not all(scene.keeps_patches for scene in visible):
            return None
        return [look for scene in visible for look in scene.pulses_now()]

    def clip_union(self) -> bool:
        """Whether every visible scene is cheaper redrawn once round all the changed rects."""
        return all(scene.clip_union for scene in self.visible())

    @contextlib.contextmanager
    def steady(self):
        """While the loop asks what changed, draws it and marks it shown, the visible scenes
        stand still: each may keep what it works out in its `memo` (the table's static
        layer, looked at three times a frame) until the picture is shown."""
        visible = self.visible()
        for scene in visible:
            scene.memo = {}
        try:
            yield
        finally:
            for scene in visible:
                scene.memo = None

    def shown(self) -> None:
        visible = self.visible()
        self._shown = [id(s) for s in visible]
        for scene in visible:
            scene.shown()

    def update(self, dt: float) -> None:
        top = self.top
        if top is not None:
            top.update(dt)

    def draw(self, surface) -> None:
        for scene in self.visible():
            scene.draw(surface)
        if self.top is not None:
            self.top.draw_tooltip(surface)


MERGE_SLACK = 1.3  # two rects become their union when it is at most this much bigger
WHOLE_SHARE = 0.5  # rects covering more than this share of the canvas: redraw it all


def merge_rects(rects: list[pygame.Rect]) -> list[pygame.Rect]:
    """Rects clipped to the canvas, overlapping or close ones joined (each is a separate
    clipped redraw); [WHOLE] when they cover most of it anyway."""
    out = [r.clip(WHOLE) for r in rects]
    out = [r for r in out if r.width > 0 and r.height > 0]
    merged = True
    while merged:
        merged = False
        for i in range(len(out)):
            for j in range(i + 1, len(out)):
                a, b = out[i], out[j]
                u = a.union(b)
                if u.width * u.height <= MERGE_SLACK * (a.width * a.height + b.width * b.height):
                    out[i] = u
                    del out[j]
                    merged = True
                    break
            if merged:
                break
    if sum(r.width * r.height for r in out) > WHOLE_SHARE * WHOLE.width * WHOLE.height:
        return [WHOLE]
    return out
