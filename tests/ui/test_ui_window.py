"""The game window on every screen size.

Pure geometry (letterbox, the first window, --size clamping, mouse mapping) and the canvas
scaled into a window of another size run under SDL's dummy driver. The real-window tests
start Xvfb with openbox at 1280x720, 1366x768, 1920x1080 and 2560x1440, start
`main.py play` in a subprocess, ask the X server where its window is, click the title
screen's buttons through xdotool (mapped from their logical rects through the window's
geometry) and read the scene that opened from the app's IMTHEBOSS_TEST_REPORT file. They
skip only when Xvfb, openbox, xdotool or xwininfo are missing or Xvfb cannot start.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pygame
import pytest

from game.ui.drawing.theme import LOGICAL_SIZE
from game.ui.screen.window import (
    clamp_window_size,
    default_window_size,
    fit_rect,
    to_logical,
    to_window,
)

ROOT = Path(__file__).resolve().parents[2]
DESKTOPS = [(1024, 600), (1280, 720), (1366, 768), (1280, 800), (1024, 768), (2560, 1080),
            (1920, 1080), (2560, 1440), (3840, 2160)]


# -- geometry ------------------------------------------------------------------------------


@pytest.mark.parametrize("window", [(1280, 720), (1280, 800), (1024, 768), (2560, 1080), (800, 600), (1366, 768)])
def test_fit_rect_letterboxes_inside_the_window(window):
    fit = fit_rect(window)
    assert pygame.Rect((0, 0), window).contains(fit)
    assert fit.w == window[0] or fit.h == window[1]  # touches two opposite sides
    assert abs(fit.w / fit.h - 16 / 9) < 0.01
    assert abs(fit.centerx - window[0] / 2) <= 1 and abs(fit.centery - window[1] / 2) <= 1


@pytest.mark.parametrize("desktop", DESKTOPS)
def test_first_window_is_ninety_percent_of_any_desktop(desktop):
    w, h = default_window_size(desktop)
    assert w <= desktop[0] * 0.9 and h <= desktop[1] * 0.9
    assert max(w / desktop[0], h / desktop[1]) > 0.88  # as big as 90% allows
    assert abs(w / h - 16 / 9) < 0.01


def test_size_is_honoured_when_it_fits_and_shrunk_keeping_its_shape_when_not():
    assert clamp_window_size((1280, 720), (1920, 1080)) == ((1280, 720), False)
    assert clamp_window_size((1000, 700), (1366, 768)) == ((1000, 700), False)
    (w, h), shrunk = clamp_window_size((1920, 1080), (1280, 720))
    assert shrunk and w <= 1280 and h <= 720 - 40
    assert abs(w / h - 16 / 9) < 0.01


@pytest.mark.parametrize("window", [(1280, 720), (1024, 768), (2560, 1080), (3840, 2160)])
def test_mouse_maps_back_to_what_is_drawn(window):
    fit = fit_rect(window)
    for logical in [(0, 0), (966, 700), (1919, 1079), (1078, 735)]:
        shown = to_window(logical, fit)
        assert fit.collidepoint(shown)
        back = to_logical(shown, fit)
        assert abs(back[0] - logical[0]) <= 1 and abs(back[1] - logical[1]) <= 1
    if fit.x > 0:  # a click on a bar hits nothing on the canvas
        assert to_logical((fit.x - 1, fit.centery), fit)[0] < 0


# -- the canvas in a window of another size (dummy driver) --------------------------------


@pytest.fixture
def small_app(tmp_path, monkeypatch):
    from game.ui.config import Config
    from game.ui.drawing.theme import THEME
    from game.ui.screen.app import App
    from game.ui.table import layout as table_layout

    monkeypatch.setenv("IMTHEBOSS_CONFIG_DIR", str(tmp_path))
    min_px, arrangement = THEME.min_px, table_layout.ARRANGEMENT
    app = App(Config(fullscreen=False), window_size=(1000, 1000), sound=False, persist=False)
    yield app
    app.shutdown()
    # the small window's readable minimum and layout are the next test's no more
    table_layout.use(arrangement)
    THEME.configure(min_px=min_px)


def _near(colour, want, tolerance: int = 6) -> bool:
    """Smoothscale rounds a colour by a few units."""
    return all(abs(a - b) <= tolerance for a, b in zip(colour[:3], want, strict=True))


def test_canvas_is_scaled_with_bars_not_cropped(small_app):
    assert small_app.screen.get_size() == LOGICAL_SIZE
    assert pygame.display.get_surface().get_size() == (1000, 1000)
    small_app.screen.fill((200, 30, 30))
    small_app.screen.fill((30, 200, 30), (1900, 1060, 20, 20))  # the bottom-right corner
    small_app.window.present(flip=False)
    shown = pygame.display.get_surface()
    fit = fit_rect((1000, 1000))
    assert fit.size == (1000, 562)
    assert shown.get_at((500, fit.y - 2))[:3] == (0, 0, 0)  # bar above
    assert shown.get_at((500, fit.bottom + 2))[:3] == (0, 0, 0)  # bar below
    assert _near(shown.get_at((500, 500)), (200, 30, 30))
    assert _near(shown.get_at((fit.right - 3, fit.bottom - 3)), (30, 200, 30))  # not cropped


def test_real_mouse_events_map_to_canvas_pixels_posted_ones_pass(small_app):
    fit = fit_rect((1000, 1000))
    real = pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=to_window((966, 700), fit), button=1, window=None)
    mapped = small_app.window.map_event(real)
    assert abs(mapped.pos[0] - 966) <= 1 and abs(mapped.pos[1] - 700) <= 1
    motion = pygame.event.Event(pygame.MOUSEMOTION, pos=(500, 500), rel=(10, 0), buttons=(0, 0, 0), window=None)
    assert small_app.window.map_event(motion).rel == (19, 0)
    posted = pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(966, 700), button=1)
    assert small_app.window.map_event(posted).pos == (966, 700)


def test_f11_toggles_once_per_press_however_long_it_is_held(small_app, monkeypatch):
    toggles = []
    monkeypatch.setattr(small_app.window, "toggle_fullscreen", lambda: toggles.append(1))
    f11 = {"key": pygame.K_F11, "mod": 0, "unicode": "", "scancode": 68}
    for _ in range(3):  # the press and two key repeats (a lost release looks the same)
        small_app.handle(pygame.event.Event(pygame.KEYDOWN, f11))
    assert len(toggles) == 1
    small_app.handle(pygame.event.Event(pygame.KEYUP, f11))
    enter = {"key": pygame.K_RETURN, "mod": pygame.KMOD_LALT, "unicode": "", "scancode": 40}
    small_app.handle(pygame.event.Event(pygame.KEYDOWN, enter))
    assert len(toggles) == 2


# -- real windows under Xvfb + openbox -----------------------------------------------------

TOOLS = ("Xvfb", "openbox", "xdotool", "xwininfo", "xprop")
TIMEOUT = 20.0


@dataclass
class Geometry:
    x: int
    y: int
    w: int
    h: int

    def within(self, screen: tuple[int, int]) -> bool:
        return self.x >= 0 and self.y >= 0 and self.x + self.w <= screen[0] and self.y + self.h <= screen[1]


def _poll(what: str, probe, timeout: float = TIMEOUT, describe=lambda: ""):
    """probe() until it returns something truthy; fail with `what` after timeout seconds."""
    end = time.monotonic() + timeout
    while True:
        value = probe()
        if value:
            return value
        if time.monotonic() > end:
            pytest.fail(f"timed out waiting for {what} {describe()}")
        time.sleep(0.1)


class XServer:
    """Xvfb on a free display (it picks one itself: -displayfd) with openbox managing it."""

    def __init__(self, size: tuple[int, int], wm: bool = True) -> None:
        self.size = size
        read, write = os.pipe()
        self.xvfb = subprocess.Popen(
            ["Xvfb", "-displayfd", str(write), "-screen", "0", f"{size[0]}x{size[1]}x24", "-nolisten", "tcp"],
            pass_fds=(write,),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(write)
        number = self._read_display(read)
        if number is None:
            self.xvfb.kill()
            self.xvfb.wait()
            pytest.skip("Xvfb could not start")
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("SDL_VIDEO")}
        self.env.update(DISPLAY=f":{number}", SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
        self.wm = None
        if wm:
            self.wm = subprocess.Popen(["openbox"], env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            _poll("openbox", lambda: "_NET_SUPPORTING_WM_CHECK(WINDOW)" in self.run("xprop", "-root"))

    def _read_display(self, fd: int) -> str | None:
        import select

        data = b""
        end = time.monotonic() + 10
        with os.fdopen(fd, "rb", buffering=0) as pipe:
            while not data.endswith(b"\n") and time.monotonic() < end:
                ready, _, _ = select.select([pipe], [], [], 0.2)
                if ready:
                    chunk = pipe.read(16)
                    if not chunk:
                        break
                    data += chunk
                elif self.xvfb.poll() is not None:
                    break
        return data.decode().strip() or None

    def run(self, *cmd: str) -> str:
        out = subprocess.run(cmd, env=self.env, capture_output=True, text=True, timeout=10)
        return out.stdout

    def close(self) -> None:
        for proc in (self.wm, self.xvfb):
            if proc is None:
                continue
            proc.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(5)
            if proc.poll() is None:
                proc.kill()
                proc.wait()


class Game:
    """`main.py play ...` on the X server, with its own settings folder and report file."""

    def __init__(self, x: XServer, tmp: Path, *args: str) -> None:
        self.x = x
        tmp.mkdir(parents=True)
        self.report = tmp / "report.txt"
        self.output: str | None = None
        env = dict(x.env, IMTHEBOSS_CONFIG_DIR=str(tmp / "config"), IMTHEBOSS_TEST_REPORT=str(self.report))
        self.proc = subprocess.Popen(
            [sys.executable, "main.py", "play", *args],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.wait_scene("title")

    def reported(self, kind: str) -> list[str]:
        """The values of the report's `<kind> <value>` lines (see game/ui/screen/app.py), in order."""
        with contextlib.suppress(OSError):
            lines = self.report.read_text().splitlines()
            return [ln.split()[1] for ln in lines if ln.startswith(kind + " ")]
        return []

    def wait_report(self, kind: str, value: str) -> None:
        def shown():
            if self.proc.poll() is not None:
                pytest.fail(f"the game exited: {self.proc.stdout.read()}")
            return self.reported(kind)[-1:] == [value]

        _poll(f"{kind} {value}", shown)

    def wait_scene(self, name: str) -> None:
        self.wait_report("scene", name)

    def toggle_fullscreen(self, mode: str) -> Geometry:
        """F11, then the game says it switched to `mode`; the window's settled geometry."""
        self.key("F11")
        self.wait_report("window", mode)
        full = Geometry(0, 0, *self.x.size)
        return self.settled(lambda g: (g == full) == (mode == "fullscreen"))

    def window(self) -> str | None:
        ids = self.x.run("xdotool", "search", "--onlyvisible", "--pid", str(self.proc.pid)).split()
        return ids[0] if ids else None

    def geometry(self) -> Geometry | None:
        wid = self.window()
        if wid is None:
            return None
        info = self.x.run("xwininfo", "-id", wid)
        fields = {}
        for key, label in (("x", "Absolute upper-left X"), ("y", "Absolute upper-left Y"),
                           ("w", "Width"), ("h", "Height")):
            m = re.search(rf"{label}:\s+(-?\d+)", info)
            if m is None:
                return None
            fields[key] = int(m.group(1))
        if "IsViewable" not in info:
            return None
        return Geometry(**fields)

    def frame(self) -> Geometry:
        """The window with its decorations (openbox's title bar and border)."""
        g = self.geometry()
        assert g is not None
        m = re.search(r"= (\d+), (\d+), (\d+), (\d+)", self.x.run("xprop", "-id", self.window(), "_NET_FRAME_EXTENTS"))
        left, right, top, bottom = (int(v) for v in m.groups()) if m else (0, 0, 0, 0)
        return Geometry(g.x - left, g.y - top, g.w + left + right, g.h + top + bottom)

    def settled(self, want=None) -> Geometry:
        """The window's geometry once it stops changing (and matches `want`, if given)."""
        last: list[Geometry | None] = [None]

        def stable():
            g = self.geometry()
            same = g is not None and g == last[0] and (want is None or want(g))
            last[0] = g
            return g if same else None

        return _poll("the window to settle", stable, describe=lambda: f"last seen {last[0]}")

    def click(self, logical: tuple[int, int]) -> None:
        g = self.settled()
        wx, wy = to_window(logical, fit_rect((g.w, g.h)))
        self.x.run("xdotool", "mousemove", str(g.x + wx), str(g.y + wy), "click", "1")

    def key(self, name: str) -> None:
        """Press a key in the game's window (a window just re-created may not have the focus yet)."""
        wid = _poll("the game's window", self.window)

        def focused() -> bool:
            if self.x.run("xdotool", "getwindowfocus").strip() == wid:
                return True
            self.x.run("xdotool", "windowfocus", wid)
            return False

        _poll("the keyboard focus", focused)
        self.x.run("xdotool", "key", name)

    def close(self) -> str:
        """Stop the game; its terminal output."""
        if self.output is not None:
            return self.output
        if self.proc.poll() is None:
            self.proc.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(5)
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
        self.output = self.proc.stdout.read()
        return self.output


@pytest.fixture(scope="module")
def title_buttons(tmp_path_factory):
    """The logical rects of the title screen's buttons (built under the dummy driver)."""
    from game.ui.scenes.title import TitleScene
    from tools.autoplay import make_app

    app = make_app(tmp_path_factory.mktemp("title"))
    try:
        scene = TitleScene(app)
        app.push(scene)
        return {name: pygame.Rect(scene.find(name).rect) for name in ("title.rules", "title.settings")}
    finally:
        app.shutdown()


def _xserver(size, wm: bool = True):
    missing = [t for t in TOOLS if shutil.which(t) is None]
    if missing:
        pytest.skip(f"needs {', '.join(missing)} (Debian: xvfb openbox xdotool x11-utils)")
    return XServer(size, wm)


@contextlib.contextmanager
def _game(x, tmp, *args):
    game = Game(x, tmp, *args)
    try:
        yield game
    finally:
        game.close()


SCREENS = [(1280, 720), (1366, 768), (1920, 1080), (2560, 1440)]


@pytest.mark.slow
@pytest.mark.parametrize("screen", SCREENS, ids=lambda s: f"{s[0]}x{s[1]}")
def test_real_window_fits_the_screen_and_clicks_land(screen, tmp_path, title_buttons):
    x = _xserver(screen)
    try:
        # --windowed: ~90% of the screen, all of it on screen (title bar included)
        with _game(x, tmp_path / "windowed", "--windowed") as game:
            g = game.settled()
            assert g.within(screen), (g, screen)
            assert game.frame().within(screen), (game.frame(), screen)
            assert (g.w, g.h) == default_window_size(screen)
            game.click(title_buttons["title.rules"].center)
            game.wait_scene("rules")
            if screen == (1366, 768):  # F11 to desktop fullscreen and back to the same place
                game.key("Escape")
                game.wait_scene("title")
                assert game.toggle_fullscreen("fullscreen") == Geometry(0, 0, *screen)
                assert game.toggle_fullscreen("windowed") == g
            if screen == (2560, 1440):  # resized by hand: the picture scales, clicks still land
                game.key("Escape")
                game.wait_scene("title")
                x.run("xdotool", "windowsize", game.window(), "900", "900")
                game.settled(lambda g: (g.w, g.h) == (900, 900))
                game.click(title_buttons["title.settings"].center)
                game.wait_scene("settings")
        # the default start (settings say fullscreen): the whole screen at its own resolution
        with _game(x, tmp_path / "default") as game:
            g = game.settled()
            assert (g.x, g.y, g.w, g.h) == (0, 0, *screen)
            game.click(title_buttons["title.settings"].center)
            game.wait_scene("settings")
            g = game.toggle_fullscreen("windowed")  # F11: a window that fits, centred
            assert (g.w, g.h) == default_window_size(screen) and game.frame().within(screen)
            assert abs(g.x + g.w / 2 - screen[0] / 2) <= 2
        if screen == (1920, 1080):  # --size is honoured exactly when it fits
            with _game(x, tmp_path / "size", "--size", "1280x720") as game:
                g = game.settled()
                assert (g.w, g.h) == (1280, 720) and g.within(screen)
        if screen == (1280, 720):  # ... and shrunk to the screen, with a note, when not
            with _game(x, tmp_path / "big", "--size", "1920x1080") as game:
                g = game.settled()
                assert game.frame().within(screen) and g.w < 1280
                game.click(title_buttons["title.rules"].center)
                game.wait_scene("rules")
            assert "shrunk to" in game.close()
    finally:
        x.close()


@pytest.mark.slow
def test_without_a_window_manager_fullscreen_covers_the_screen(tmp_path, title_buttons):
    """No window manager moves or resizes anything: the game must place itself."""
    screen = (1366, 768)
    x = _xserver(screen, wm=False)
    try:
        with _game(x, tmp_path / "default") as game:
            assert game.settled() == Geometry(0, 0, *screen)
            game.click(title_buttons["title.rules"].center)
            game.wait_scene("rules")
        with _game(x, tmp_path / "windowed", "--windowed") as game:
            g = game.settled()
            assert g.within(screen) and (g.w, g.h) == default_window_size(screen)
            assert game.toggle_fullscreen("fullscreen") == Geometry(0, 0, *screen)
            assert game.toggle_fullscreen("windowed") == g
    finally:
        x.close()
