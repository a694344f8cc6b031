"""The pygame-ce application: one window with a 1920x1080 logical surface (pygame.SCALED, so
it scales to any window or TV), a 60 FPS loop, a scene stack and the shared services
(settings, translator, sounds, theme).

`App.step(dt)` runs one frame with a given dt: the loop uses the clock, tests and the
benchmark call it directly with a fixed dt so that animations finish deterministically.
"""

from __future__ import annotations

import contextlib
import os
import time
import warnings

import pygame

from . import fonts, i18n
from .config import Config, config_dir
from .scene import Scene, SceneStack
from .sound import Sounds
from .theme import LOGICAL_SIZE, THEME
from .widgets import Button, TextField

FPS = 60


class App:
    def __init__(
        self,
        config: Config | None = None,
        *,
        windowed: bool = True,
        window_size: tuple[int, int] | None = None,
        sound: bool = True,
        persist: bool = True,
    ) -> None:
        self.t0 = time.perf_counter()
        self.config = config if config is not None else Config.load()
        self.persist = persist
        pygame.display.init()
        pygame.font.init()
        flags = pygame.SCALED | pygame.RESIZABLE
        if self.config.fullscreen and not windowed:
            flags |= pygame.FULLSCREEN
        with warnings.catch_warnings():  # SDL's software renderer (dummy driver, no GPU) says so
            warnings.filterwarnings("ignore", "no fast renderer available")
            self.screen = pygame.display.set_mode(LOGICAL_SIZE, flags)
        if window_size and not flags & pygame.FULLSCREEN:
            _resize_window(window_size)
        pygame.display.set_caption(i18n.table(self.config.language)["app.title"])
        pygame.key.set_repeat(350, 40)
        self.sounds = Sounds(self.config.volume, self.config.mute, enabled=sound)
        Button.sounds = self.sounds
        self.stack = SceneStack()
        self.clock = pygame.time.Clock()
        self.running = True
        self.present = True  # flip the display after drawing (tests may skip it)
        self.frames = 0
        self.first_frame_at: float | None = None
        self.lan = None  # the screen's LAN connection (a NetSession), see game/ui/lan.py
        self.autosaver = None  # the hot-seat autosave writer, see game/ui/autosave.py
        self.apply_config(save=False)

    # -- settings ----------------------------------------------------------------------

    def apply_config(self, save: bool = True) -> None:
        cfg = self.config
        cfg.sanitize()
        if i18n.current_language() != cfg.language:
            i18n.set_language(cfg.language)
        THEME.configure(
            palette="okabe_ito" if cfg.colour_blind else "standard",
            text_scale=cfg.text_scale,
            lang=cfg.language,
        )
        self.sounds.set_volume(cfg.volume, cfg.mute)
        with contextlib.suppress(pygame.error):
            pygame.display.set_caption(i18n.tr("app.title"))
        for scene in self.stack.scenes:
            scene.relayout()
        if save and self.persist:
            with contextlib.suppress(OSError):  # a read-only home must not stop the game
                self.config.save()

    def set_language(self, lang: str) -> None:
        self.config.language = lang
        self.apply_config()

    def toggle_fullscreen(self) -> None:
        try:
            pygame.display.toggle_fullscreen()
            self.config.fullscreen = not self.config.fullscreen
            if self.persist:
                self.config.save()
        except (pygame.error, OSError):
            pass

    # -- scenes ------------------------------------------------------------------------

    def push(self, scene: Scene) -> Scene:
        return self.stack.push(scene)

    def pop(self) -> Scene | None:
        return self.stack.pop()

    def replace(self, scene: Scene) -> Scene:
        return self.stack.replace(scene)

    def quit(self) -> None:
        self.running = False

    # -- the loop ----------------------------------------------------------------------

    def handle(self, event) -> None:
        if event.type == pygame.QUIT:
            self.quit()
            return
        if event.type == pygame.KEYDOWN and event.key == pygame.K_F11:
            self.toggle_fullscreen()
            return
        if (
            event.type == pygame.KEYDOWN
            and event.key == pygame.K_RETURN
            and event.mod & pygame.KMOD_ALT
        ):
            self.toggle_fullscreen()
            return
        self.stack.handle(event)

    def step(self, dt: float, draw: bool = True) -> None:
        for event in pygame.event.get():
            self.handle(event)
            if not self.running:
                return
        self.stack.update(dt)
        if draw:
            self.draw()

    def draw(self) -> None:
        self.stack.draw(self.screen)
        if self.present:
            pygame.display.flip()
        self.frames += 1
        if self.first_frame_at is None:
            self.first_frame_at = time.perf_counter()

    def run(self) -> int:
        while self.running and self.stack.top is not None:
            dt = self.clock.tick(FPS) / 1000.0
            self.step(min(dt, 0.1))
        return 0

    def shutdown(self) -> None:
        lan = getattr(self, "lan", None)
        if lan is not None:  # a LAN connection (and the table this screen hosts)
            self.lan = None
            lan.disconnect()
        saver = getattr(self, "autosaver", None)
        if saver is not None:  # the last hot-seat save reaches the disk
            saver.close()
        TextField.focused_field = None
        fonts.clear_caches()
        pygame.quit()


def _resize_window(size: tuple[int, int]) -> None:
    try:
        win = pygame.Window.from_display_module()
        win.size = size
    except (AttributeError, pygame.error):  # pragma: no cover - older pygame-ce
        pass


def parse_size(text: str | None) -> tuple[int, int] | None:
    if not text:
        return None
    try:
        w, h = (int(x) for x in text.lower().split("x"))
    except ValueError:
        raise SystemExit(f"error: --size must look like 1280x720, not {text!r}") from None
    if not (320 <= w <= 8192 and 240 <= h <= 8192):
        raise SystemExit("error: --size out of range")
    return w, h


def run_app(args) -> int:
    """`python main.py play`: the title screen, hot-seat games against bots or friends."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    config = Config.load()
    if getattr(args, "lang", None):
        config.language = args.lang
    size = parse_size(getattr(args, "size", None))
    windowed = bool(getattr(args, "windowed", False)) or size is not None
    try:
        app = App(config, windowed=windowed, window_size=size)
    except pygame.error as exc:
        print(f"error: cannot open a window: {exc}")
        return 1
    from .scenes.title import TitleScene

    app.push(TitleScene(app))
    try:
        return app.run()
    finally:
        if app.persist:
            with contextlib.suppress(OSError):
                app.config.save()
        app.shutdown()


__all__ = ["App", "run_app", "config_dir"]
