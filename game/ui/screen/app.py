"""The pygame-ce application: one window showing a 1920x1080 logical canvas scaled to any
window, desktop or TV (game/ui/screen/window.py), a 60 FPS loop, a scene stack and the shared
services (settings, translator, sounds, theme).

Test hook: with $IMTHEBOSS_TEST_REPORT set to a file path, the app appends one line
`scene <name>` to that file whenever the top scene changes, and `window fullscreen` or
`window windowed` whenever the window has switched (tests/ui/test_ui_window.py drives the real
window through the X server and reads it). Nothing is written without the variable.

`App.step(dt)` runs one frame with a given dt: the loop uses the clock, tests and the
benchmark call it directly with a fixed dt so that animations finish deterministically.

Idle costs nothing: `refresh()` draws and presents only the canvas rects the scenes say
have changed (game/ui/screen/scene.py), nothing at all while the picture stands still: the
pulsing glows, rings or a countdown (about 20 times a second) from kept copies or a redraw
clipped round them, and a present of those rects only. The loop's frames update at 60 FPS
(the session's clocks, bots and network keep their pace) except while only pulses change:
then `frame()` sleeps until the next pulse step, on the X connection (input ends the sleep
and that frame draws whole; an animation brings back 60 FPS), and moves the scenes' clocks
on by whole steps. `step(dt)` (tests, screenshots, the benchmark) still redraws
everything.
"""

from __future__ import annotations

import contextlib
import os
import select
import time

import pygame

from .. import i18n
from ..config import Config, config_dir
from ..drawing import fonts
from ..drawing.patches import PatchCache, PulseRegions
from ..drawing.sound import Sounds
from ..drawing.theme import THEME, min_text_px
from ..drawing.widgets import Button, TextField
from ..table import layout as table_layout
from . import screens as _screens  # noqa: F401  every route known before a scene opens
from .scene import WHOLE, WHOLE_SHARE, Scene, SceneStack, merge_rects
from .window import GameWindow

FPS = 60
IDLE_FPS = 20  # frames a second while only pulses change (they redraw at this rate anyway)
WHOLE_AREA = WHOLE_SHARE * WHOLE.width * WHOLE.height  # changed more than this: draw all
MAX_DT = 0.1  # a frame moves the clocks on by no more (a stall is not caught up)
IDLE_POLL = 0.01  # seconds between two looks for input while idle (its worst added delay)
REPORT_ENV = "IMTHEBOSS_TEST_REPORT"
RESIZE_EVENTS = (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED)


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
        self.window = GameWindow(
            fullscreen=self.config.fullscreen and not windowed, size=window_size
        )
        self.screen = self.window.canvas  # every scene draws here, in logical pixels
        self.report_path = os.environ.get(REPORT_ENV) or None
        self._reported: tuple[str | None, str] | None = None
        self._toggle_key_held: int | None = None  # F11 / Enter, down since it toggled
        pygame.display.set_caption(i18n.table(self.config.language)["app.title"])
        pygame.key.set_repeat(350, 40)
        self.sounds = Sounds(self.config.volume, self.config.mute, enabled=sound)
        Button.sounds = self.sounds
        self.stack = SceneStack()
        self.patches = PatchCache()  # rects drawn with their pulses' keys (patches.py)
        self.regions = PulseRegions(WHOLE)  # the pulses' rects joined, once per layout
        self.clock = pygame.time.Clock()
        self.running = True
        self._opening_keys: set[int] = set()  # keys held since they changed the scene
        self.present = True  # flip the display after drawing (tests may skip it)
        self.frames = 0  # pictures shown (whole or in part)
        self.partial_frames = 0  # of those, the ones redrawn only in part
        self.idle = False  # only pulses changed last frame: the next one sleeps on events
        self._owed = 0.0  # seconds of the clock not yet given to the scenes (paced frames)
        self.frame_started = time.perf_counter()
        self.first_frame_at: float | None = None
        self.lan = None  # the screen's LAN connection (a NetSession), see game/ui/sessions/lan.py
        self.autosaver = None  # the hot-seat autosave writer, see game/ui/sessions/autosave.py
        self.apply_config(save=False)

    # -- settings ----------------------------------------------------------------------

    def apply_config(self, save: bool = True) -> None:
        cfg = self.config
        cfg.sanitize()
        if i18n.current_language() != cfg.language:
            i18n.set_language(cfg.language)
        table_layout.use(table_layout.for_scale(self.window.scale))
        THEME.configure(
            palette="okabe_ito" if cfg.colour_blind else "standard",
            text_scale=cfg.text_scale,
            lang=cfg.language,
            min_px=min_text_px(self.window.scale),
        )
        self.sounds.set_volume(cfg.volume, cfg.mute)
        with contextlib.suppress(pygame.error):
            pygame.display.set_caption(i18n.tr("app.title"))
        for scene in self.stack.scenes:
            scene.relayout()
        if save and self.persist:
            with contextlib.suppress(OSError):  # a read-only home must not stop the game
                self.config.save()

    def fit_text(self) -> None:
        """The window's size changed: the readable minimum and the table's layout follow its
        scale (a 1280x720 screen or a 1152x648 window: the compact layout, no text below 20
        logical px), and a change lays every scene out again."""
        before = THEME.min_px
        moved = table_layout.use(table_layout.for_scale(self.window.scale))
        THEME.configure(min_px=min_text_px(self.window.scale))
        if THEME.min_px != before or moved:
            for scene in self.stack.scenes:
                scene.relayout()
            self.stack.invalidate()

    def set_language(self, lang: str) -> None:
        self.config.language = lang
        self.apply_config()

    def toggle_fullscreen(self) -> None:
        """F11 / Alt+Enter: desktop fullscreen, and back to the previous window size and place."""
        try:
            self.window.toggle_fullscreen()
        except pygame.error:
            return
        self.fit_text()
        self.config.fullscreen = self.window.fullscreen
        if self.persist:
            with contextlib.suppress(OSError):
                self.config.save()

    def mouse_pos(self) -> tuple[int, int]:
        """The mouse in logical (canvas) pixels: use this, never pygame.mouse.get_pos()."""
        return self.window.mouse_pos()

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
        self.stack.invalidate()  # any event (input, a resize, an expose) redraws the picture
        if event.type == pygame.QUIT:
            self.quit()
            return
        if event.type in RESIZE_EVENTS:
            self.window.resized()
            self.fit_text()
            return
        event = self.window.map_event(event)
        if self._fullscreen_key(event):
            return
        if event.type == pygame.KEYUP:
            self._opening_keys.discard(event.key)
        elif event.type == pygame.KEYDOWN and event.key in self._opening_keys:
            return  # the repeat of a key that opened this scene (L on the title: the lesson,
            # whose own L would open the history) counts only once released and pressed again
        top = self.stack.top
        self.stack.handle(event)
        if event.type == pygame.KEYDOWN and self.stack.top is not top and hasattr(event, "window"):
            self._opening_keys.add(event.key)  # from the window system: its release will come

    def _fullscreen_key(self, event) -> bool:
        """F11 or Alt+Enter toggles fullscreen once per press. pygame's key repeat cannot be
        told from a press, and a window re-created meanwhile can lose the key's release for
        a moment: without the held mark it would toggle straight back."""
        if event.type == pygame.KEYUP and event.key == self._toggle_key_held:
            self._toggle_key_held = None
            return True
        if event.type != pygame.KEYDOWN:
            return False
        toggles = event.key == pygame.K_F11 or (
            event.key == pygame.K_RETURN and event.mod & pygame.KMOD_ALT
        )
        if not toggles:
            self._toggle_key_held = None  # another key: repeats of the old one have stopped
            return False
        if self._toggle_key_held != event.key:
            self._toggle_key_held = event.key
            self.toggle_fullscreen()
        return True

    def step(self, dt: float, draw: bool = True) -> None:
        for event in pygame.event.get():
            self.handle(event)
            if not self.running:
                return
        self.stack.update(dt)
        if draw:
            self.draw()
        self._report()

    def _report(self) -> None:
        """The test hook (see the module docstring): what changed since the last frame."""
        if self.report_path is None:
            return
        top = self.stack.top
        state = (
            getattr(top, "name", None) if top is not None else None,
            "fullscreen" if self.window.fullscreen else "windowed",
        )
        lines = []
        if self._reported is None or state[0] != self._reported[0]:
            lines.append(f"scene {state[0]}")
        if self._reported is None or state[1] != self._reported[1]:
            lines.append(f"window {state[1]}")
        self._reported = state
        if lines:
            with contextlib.suppress(OSError), open(self.report_path, "a", encoding="utf-8") as fh:
                fh.write("".join(line + "\n" for line in lines))

    def draw(self) -> None:
        self.stack.draw(self.screen)
        self.stack.shown()
        self.patches.clear()  # a new picture: the pulses' kept rects are out of date
        self.window.scaled_patches.clear()
        if self.present:
            self.window.present()
        self._shown()

    def _shown(self) -> None:
        self.frames += 1
        if self.first_frame_at is None:
            self.first_frame_at = time.perf_counter()

    def refresh(self) -> bool:
        with self.stack.steady():
            return self._refresh()

    def _refresh(self) -> bool:
        """Draw and present what changed since the picture last shown; False: nothing did.

        The changed pulses' regions (their rects joined, game/ui/drawing/patches.py `PulseRegions`)
        drawn before with the same keys of the pulses reaching into them are blitted back
        from their kept copies. The other regions are a redraw of the whole stack clipped to
        each, or one redraw clipped to their union where the scenes say that is cheaper
        (`SceneStack.clip_union`), so they end up exactly as a whole redraw would paint
        them; only the regions are presented."""
        looks = self.stack.pulse_looks()
        rects = self.stack.changes(merged=looks is None)
        self.idle = rects[:1] != [WHOLE] and self.stack.pulse_step() >= 1 / IDLE_FPS
        if not rects:
            return False
        shown = rects if looks is None else self.regions.areas(rects, looks)
        if shown is None:  # a pulse moved: no kept copy shows its old place
            self.patches.clear()
            self.window.scaled_patches.clear()
            shown, looks = merge_rects(rects), None
        if shown[:1] == [WHOLE] or sum(r.width * r.height for r in shown) > WHOLE_AREA:
            self.draw()
            return True
        if looks is None:
            self._redraw(shown)
        else:
            self._refresh_regions(shown)
        self.stack.shown()
        if self.present:
            self.window.present_rects(shown, None if looks is None else self.regions.signature)
        self.partial_frames += 1
        self._shown()
        return True

    def _refresh_regions(self, regions: list[pygame.Rect]) -> None:
        """Each region from its kept copy under its pulses' keys, or redrawn (and kept)."""
        todo, kept = [], []
        for rect in regions:
            sig = self.regions.signature(rect)
            patch = self.patches.get(rect, sig)
            if patch is None:
                todo.append((rect, sig))
            else:
                kept.append((rect, patch))
        self._redraw([rect for rect, _ in todo])
        for rect, sig in todo:
            self.patches.keep(self.screen, rect, sig)
        self.screen.blits([(patch, rect) for rect, patch in kept], doreturn=False)

    def _redraw(self, rects: list[pygame.Rect]) -> None:
        """The whole stack drawn clipped to these rects (or to their union)."""
        if not rects:
            return
        screen = self.screen
        clips = [rects[0].unionall(rects[1:])] if self.stack.clip_union() else merge_rects(rects)
        for clip in clips:
            screen.set_clip(clip)
            self.stack.draw(screen)
        screen.set_clip(None)

    def run(self) -> int:
        while self.running and self.stack.top is not None:
            self.frame()
        return 0

    def frame(self) -> None:
        """One frame of the loop: while the picture last shown changed only by its pulses
        (or not at all), sleep up to a pulse step first (input ends the sleep), then update
        and show what changed. A frame after a sleep that no input ended moves the scenes'
        clocks on by whole pulse steps, the rest owed to the next frame (their time keeps
        pace with the clock to half a step): pulses looked at on a fixed grid of moments
        come round to the same looks (the table's ring, 22 steps a pulse) and are blitted
        back from kept copies (patches.py)."""
        paced, step = False, self.stack.pulse_step()
        if self.idle:
            paced = not self._sleep_on_events(self.frame_started + step - self._owed)
        dt = self.clock.tick(FPS) / 1000.0 + self._owed
        self.frame_started = time.perf_counter()
        self._owed = 0.0
        if paced:
            steps = max(1, min(round(dt / step), int(MAX_DT / step)))
            dt, self._owed = steps * step, min(dt - steps * step, MAX_DT)
        self.step(min(dt, MAX_DT), draw=False)
        self.idle = False
        if self.running and self.stack.top is not None:
            self.refresh()

    def _sleep_on_events(self, until: float) -> bool:
        """Sleep until `until` (perf_counter) or an event; True: an event ended it. On X11
        in select() on SDL's connection to the X server (input wakes it at once; SDL's
        queue and Xlib's are emptied first by peek()); elsewhere looking every IDLE_POLL s:
        pygame's event.wait(timeout) polls every millisecond, a core's 1.2% at 20 FPS."""
        fd = self.window.x_connection
        while (left := until - time.perf_counter()) > 0:
            if pygame.event.peek():
                return True
            if fd is None:
                time.sleep(min(IDLE_POLL, left))
                continue
            try:
                ready, _, _ = select.select([fd], [], [], left)
            except (OSError, ValueError):  # the connection went away: look as elsewhere
                self.window.x_connection = fd = None
                continue
            if ready:
                return True  # something came from the X server: the frame's pump reads it
        return False

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


__all__ = ["App", "config_dir", "parse_size"]
