"""A small scene stack: push / pop / replace, with transparent overlays.

The top scene gets the input and updates; scenes below an overlay (`opaque = False`) are
still drawn, bottom first. A scene keeps its widgets in `self.widgets`; the default handle
and draw go through them, and a widget with a `tip` shows its tooltip after a short hover.
"""

from __future__ import annotations

import pygame

from .keys import Keymap
from .widgets import Button, TextField, Widget, _label, draw_tooltip

TIP_DELAY = 0.45


class Scene:
    opaque = True
    name = "scene"

    def __init__(self, app) -> None:
        self.app = app
        self.widgets: list[Widget] = []
        self.t = 0.0
        self._hover: Widget | None = None
        self._hover_t = 0.0
        self.mouse = (0, 0)

    # lifecycle
    def enter(self) -> None:
        """Pushed or uncovered: (re)build widgets."""
        self.layout()

    def exit(self) -> None:
        pass

    def layout(self) -> None:
        """Build widgets for the current language and settings."""

    def relayout(self) -> None:
        """Language, palette or text size changed."""
        self.layout()

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
                draw_tooltip(surface, tip, self.mouse, avoid=(self._hover.rect,))

    def find(self, name: str) -> Widget | None:
        """The widget with this name (tests and shortcuts)."""
        for w in self.widgets:
            if w.name == name:
                return w
        return None


class SceneStack:
    def __init__(self) -> None:
        self.scenes: list[Scene] = []

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

    def handle(self, event) -> bool:
        top = self.top
        return top.handle(event) if top else False

    def update(self, dt: float) -> None:
        top = self.top
        if top is not None:
            top.update(dt)

    def draw(self, surface) -> None:
        for scene in self.visible():
            scene.draw(surface)
        if self.top is not None:
            self.top.draw_tooltip(surface)
