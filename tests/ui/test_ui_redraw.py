"""The loop draws and presents only what changed (game/ui/screen/app.py `refresh`, the scenes'
`changes()`): nothing while the picture stands still, the whole canvas after an event or a
new state, and only the rects of what moves by itself otherwise; what it paints in part is
exactly what a whole redraw paints. Counted draws and pixels, under the dummy driver."""

from __future__ import annotations

import pygame
import pytest

from game.ui.screen.scene import PULSE_STEP, TIP_DELAY, WHOLE, merge_rects
from tools.autoplay import make_app


@pytest.fixture
def app(tmp_path):
    app = make_app(tmp_path)
    app.present = True  # the dummy driver's window is shown too: the presents are counted
    yield app
    app.shutdown()


def frame(app) -> bool:
    """One frame of the app's own loop (App.run): update, then redraw what changed."""
    app.step(1 / 60, draw=False)
    return app.refresh()


def pixels(surface) -> bytes:
    return pygame.image.tobytes(surface, "RGB")


def same_as_whole_redraw(app) -> bool:
    """The canvas as the loop left it equals a whole redraw of the same moment (pulses are
    redrawn every PULSE_STEP: the loop runs on to a frame that drew)."""
    for _ in range(60):
        if frame(app):
            break
    shown = pixels(app.screen)
    app.draw()
    return shown == pixels(app.screen)


def motion(pos) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))


class PresentSpy:
    """Counts the window's presents, whole and in part, with the rects shown."""

    def __init__(self, app, monkeypatch) -> None:
        self.whole = 0
        self.parts: list[list[pygame.Rect]] = []
        window = app.window
        whole, part = window.present, window.present_rects

        def present(*a, **kw):
            self.whole += 1
            return whole(*a, **kw)

        def present_rects(rects, looks=None):
            self.parts.append([pygame.Rect(r) for r in rects])
            return part(rects, looks)

        monkeypatch.setattr(window, "present", present)
        monkeypatch.setattr(window, "present_rects", present_rects)


def test_a_still_menu_is_drawn_once_then_again_only_after_an_event(app, monkeypatch):
    from game.ui.scenes.settings import SettingsScene

    spy = PresentSpy(app, monkeypatch)
    app.push(SettingsScene(app))
    assert frame(app) and spy.whole == 1
    drawn = app.frames
    for _ in range(120):  # two seconds of nothing
        assert not frame(app)
    assert app.frames == drawn and spy.whole == 1 and not spy.parts
    motion((20, 20))  # the pointer moves: a hover may have changed
    assert frame(app) and app.frames == drawn + 1 and spy.whole == 2
    assert not frame(app)
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, size=(1920, 1080), w=1920, h=1080))
    assert frame(app) and spy.whole == 3  # a resized window is shown whole again


def test_the_title_redraws_only_where_its_cards_and_crown_moved(app, monkeypatch):
    from game.ui.scenes.title import TitleScene

    spy = PresentSpy(app, monkeypatch)
    app.push(TitleScene(app))
    frame(app)
    for _ in range(180):
        frame(app)
    assert spy.whole == 1 and 60 < len(spy.parts) <= 91  # the cards drift: 30 parts a second
    area = max(sum(r.width * r.height for r in rects) for rects in spy.parts)
    assert area < WHOLE.width * WHOLE.height // 4
    assert same_as_whole_redraw(app)


def _still_table(app):
    from game.ui.table.scene import TableScene
    from tools.screenshot import _still, table_session

    return _still(app, TableScene(app, table_session()))  # frozen: nobody acts, no clock runs


def test_a_waiting_table_redraws_its_pulsing_ring_not_the_table(app, monkeypatch):
    table = _still_table(app)
    spy = PresentSpy(app, monkeypatch)
    motion((20, 1070))  # over nothing with a tooltip
    frame(app)
    whole = spy.whole
    for _ in range(120):
        frame(app)
    assert spy.whole == whole and spy.parts  # only the glows and the ring, in part
    assert len(spy.parts) <= 2 / PULSE_STEP + 1  # the ring pulses smoothly: not every frame
    assert all(WHOLE not in rects for rects in spy.parts)
    assert same_as_whole_redraw(app)
    whole = spy.whole
    # a new state (Ann answers) is drawn whole
    from game.rules import Pass

    s = table.session
    s.frozen = False
    s.apply_scripted(Pass(s.game.state.window.waiting[0]))
    s.frozen = True
    table.director.quiet = True
    frame(app)
    assert spy.whole == whole + 1


def test_a_table_under_the_pause_menu_is_not_redrawn_at_all(app):
    from game.ui.scenes.menu import PauseScene

    table = _still_table(app)
    app.push(PauseScene(app, table))
    assert frame(app)
    drawn = app.frames
    for _ in range(60):  # the table's time stands still under the menu: nothing pulses
        assert not frame(app)
    assert app.frames == drawn


def test_a_running_countdown_is_redrawn_where_it_is_drawn(app, monkeypatch):
    from game.ui.sessions.session_api import Countdown
    from game.ui.table.panels.window import countdown_area

    table = _still_table(app)
    left = [4.0]
    monkeypatch.setattr(table.session, "countdowns", lambda: [Countdown("window", left[0], 5.0)])
    frame(app)
    frame(app)
    spy = PresentSpy(app, monkeypatch)
    left[0] = 3.0
    for _ in range(round(PULSE_STEP * 60) + 1):  # within one pulse step
        frame(app)
    assert spy.parts and any(r.contains(countdown_area("window")) for r in spy.parts[-1])
    assert same_as_whole_redraw(app)


def test_a_tooltip_still_comes_up_when_the_pointer_rests(app):
    """The table counts a tooltip's delay on its clock from the moment the pointer rests
    on a thing: it keeps drawing until the tip shows."""
    from game.ui.table import layout as L

    table = _still_table(app)
    motion(L.SPACES[5].center)
    for _ in range(60):
        frame(app)
    assert table.tips.pending is not None and table.t - table.tips.pending[1] >= TIP_DELAY
    assert same_as_whole_redraw(app)


def test_close_rects_are_merged_and_big_ones_become_the_whole_canvas():
    a, b = pygame.Rect(0, 0, 100, 100), pygame.Rect(100, 0, 100, 100)
    assert merge_rects([a, b]) == [pygame.Rect(0, 0, 200, 100)]
    far = pygame.Rect(1500, 900, 50, 50)
    assert len(merge_rects([a, far])) == 2
    assert merge_rects([pygame.Rect(0, 0, 1920, 700)]) == [WHOLE]
    assert merge_rects([pygame.Rect(-50, -50, 100, 100)]) == [pygame.Rect(0, 0, 50, 50)]


def test_scaled_parts_lie_on_the_grid_where_canvas_and_window_pixels_meet():
    from game.ui.screen.window import fit_rect, scale_grid, scaled_parts

    for screen, grid in (((1280, 720), (3, 3)), ((1366, 768), (128, 45)), ((2560, 1440), (3, 3))):
        fit = fit_rect(screen)
        assert scale_grid(fit) == grid
        rect = pygame.Rect(301, 95, 40, 13)
        ((src, dst),) = scaled_parts([rect], fit)
        assert src.contains(rect)
        assert src.x % grid[0] == 0 and src.y % grid[1] == 0
        assert src.w <= rect.w + 2 * grid[0] and src.h <= rect.h + 2 * grid[1]
        # its window rect is exactly where the whole scaled picture shows those pixels
        assert dst.x - fit.x == src.x * fit.w / 1920 and dst.y - fit.y == src.y * fit.h / 1080
        assert dst.w == src.w * fit.w / 1920 and dst.h == src.h * fit.h / 1080


@pytest.mark.parametrize("screen, tolerance", [((1280, 720), 0), ((1366, 768), 8), ((1600, 900), 8)])
def test_a_scaled_window_shows_a_changed_rect_alone_and_as_the_whole_picture_would(app, screen, tolerance):
    """Only the changed part is scaled and shown (a mark on the window elsewhere stays), and
    it shows what scaling the whole canvas shows there (exact at 1280x720; elsewhere the
    filter's rounding can differ by a few levels of 255 at sharp edges)."""
    window = app.window
    pygame.display.set_mode(screen)
    window.resized()
    canvas = app.screen
    for i in range(0, 1920, 40):  # a busy picture: the filter's edges would show
        canvas.fill(((i * 7) % 256, (i * 3) % 200, 90), (i, 0, 20, 1080))
    window.present(flip=False)
    surface = pygame.display.get_surface()
    surface.fill((255, 0, 255), (0, 0, 4, 4))  # far from the change: must survive
    changed = pygame.Rect(700, 400, 260, 90)
    canvas.set_clip(changed)
    canvas.fill((250, 250, 10), changed.inflate(-40, -30))
    pygame.draw.line(canvas, (0, 0, 0), changed.topleft, changed.bottomright, 3)
    canvas.set_clip(None)
    window.present_rects([changed])
    part = pygame.image.tobytes(surface, "RGB")
    assert surface.get_at((1, 1))[:3] == (255, 0, 255)
    window.present(flip=False)
    whole = pygame.image.tobytes(surface, "RGB")
    w = surface.get_width()
    diffs = [
        abs(a - b)
        for k, (a, b) in enumerate(zip(part, whole, strict=True))
        if a != b and not (k // 3 % w < 4 and k // 3 // w < 4)
    ]
    assert max(diffs, default=0) <= tolerance



def _clips_of_a_refresh(app, monkeypatch, scene, rects) -> list[pygame.Rect]:
    """The clip of each pass through `scene`'s drawing when the loop redraws `rects`."""
    frame(app)
    clips = []
    real_draw = type(scene).draw

    def draw(surface):
        clips.append(surface.get_clip())
        real_draw(scene, surface)

    monkeypatch.setattr(scene, "draw", draw)
    monkeypatch.setattr(app.stack, "changes", lambda merged=True: list(rects))
    assert app.refresh()
    return clips


FAR_APART = [pygame.Rect(100, 100, 50, 50), pygame.Rect(1500, 900, 50, 50)]


def test_the_table_redraws_far_apart_rects_in_one_pass(app, monkeypatch):
    (clip,) = _clips_of_a_refresh(app, monkeypatch, _still_table(app), FAR_APART)
    assert all(clip.contains(r) for r in FAR_APART)
    monkeypatch.undo()
    assert same_as_whole_redraw(app)


def test_a_menu_redraws_far_apart_rects_in_a_pass_each(app, monkeypatch):
    from game.ui.scenes.settings import SettingsScene

    scene = app.push(SettingsScene(app))
    assert _clips_of_a_refresh(app, monkeypatch, scene, FAR_APART) == FAR_APART


class SleepSpy:
    """The loop's sleeps (game/ui/screen/app.py imports time): what it asked for, each time."""

    def __init__(self, monkeypatch) -> None:
        import game.ui.screen.app as app_module

        self.calls: list[float] = []
        real = app_module.time.sleep

        def sleep(seconds):
            self.calls.append(seconds)
            real(seconds)

        monkeypatch.setattr(app_module.time, "sleep", sleep)


def test_the_loop_sleeps_while_only_pulses_change_and_wakes_for_input(app, monkeypatch):
    from game.ui.screen.app import IDLE_FPS

    _still_table(app)
    for _ in range(3):
        app.frame()
    assert app.idle  # the ring pulses, nothing else: the next frame waits
    sleeps = SleepSpy(monkeypatch)
    app.frame()
    assert 0 < sum(sleeps.calls) <= app.stack.pulse_step() <= 1.1 / IDLE_FPS
    spy = PresentSpy(app, monkeypatch)
    sleeps.calls.clear()
    motion((400, 400))  # input: no sleep, and the frame draws whole
    app.frame()
    assert sleeps.calls == [] and spy.whole == 1 and not app.idle


def test_the_title_never_sleeps_its_cards_move_all_the_time(app, monkeypatch):
    from game.ui.scenes.title import TitleScene

    app.push(TitleScene(app))
    sleeps = SleepSpy(monkeypatch)
    for _ in range(10):
        app.frame()
        assert not app.idle
    assert sleeps.calls == []


def test_a_still_table_draws_and_presents_nothing_at_all(app, monkeypatch):
    """With its pulses at rest (their clock function held still) the waiting table stands
    still: over two seconds of frames on the fixed clock nothing is drawn or presented."""
    import game.ui.drawing.draw as draw

    _still_table(app)
    monkeypatch.setattr(draw, "pulse", lambda t, speed=2.0: 0.5)
    motion((20, 1070))
    frame(app)
    spy = PresentSpy(app, monkeypatch)
    drawn = app.frames
    for _ in range(120):
        assert not frame(app)
    assert app.frames == drawn and spy.whole == 0 and spy.parts == []


def _placing_table(app):
    """A hot-seat game (seed 3) whose first move is the person's: 16 spaces glow."""
    from game.rules import PlaceMarker
    from game.ui.config import Config
    from game.ui.scenes.newgame import build_session
    from game.ui.table.scene import TableScene

    session = build_session(Config(), seed=3)
    assert session.decision_seat() == session.viewer
    table = app.push(TableScene(app, session))
    for _ in range(1200):  # the deal's animation plays out
        app.step(1 / 60, draw=False)
        if not (table.director.moving() or table.hand.moving()):
            break
    assert sum(isinstance(a, PlaceMarker) for a in table.legal.fixed) == 16
    return table


def test_glows_come_round_and_are_blitted_back_as_a_whole_redraw_paints_them(app, monkeypatch):
    _placing_table(app)
    motion((20, 1070))
    frame(app)
    spy = PresentSpy(app, monkeypatch)
    for _ in range(120):  # two seconds: the glows pulse twice a second
        frame(app)
    hits, misses = app.patches.hits, app.patches.misses
    for _ in range(60):
        frame(app)
    assert spy.whole == 0 and spy.parts
    # now each glow's strips are blitted back (32 regions); only the turn ring's four strips
    # (its colour seldom repeats) are drawn
    assert app.patches.hits - hits >= 6 * (app.patches.misses - misses) > 0
    hits = app.patches.hits
    assert same_as_whole_redraw(app) and app.patches.hits > hits
    for _ in range(7):  # other moments of the cycle
        frame(app)
        assert same_as_whole_redraw(app)


def test_kept_patches_are_copied_on_a_second_sight_and_never_for_varied_looks():
    from game.ui.drawing.patches import VARIED, PatchCache

    canvas = pygame.Surface((64, 64))
    rect = pygame.Rect(8, 8, 16, 16)
    cache = PatchCache()
    assert cache.get(rect, (1,)) is None
    cache.keep(canvas, rect, (1,))  # seen once: not copied yet
    assert cache.get(rect, (1,)) is None
    canvas.fill((200, 10, 10))
    cache.keep(canvas, rect, (1,))
    patch = cache.get(rect, (1,))
    assert patch is not None and patch.get_at((0, 0))[:3] == (200, 10, 10)
    varied = pygame.Rect(30, 30, 8, 8)
    for k in range(VARIED + 2):  # a look that never comes round (a ring's colour)
        cache.keep(canvas, varied, (k,))
    cache.keep(canvas, varied, (0,))
    assert cache.get(varied, (0,)) is None
    cache.clear()
    assert cache.get(rect, (1,)) is None


@pytest.mark.parametrize("screen, tolerance", [((1280, 720), 0), ((1366, 768), 8)])
def test_a_scaled_window_shows_kept_glows_as_scaling_the_whole_picture_would(app, monkeypatch, screen, tolerance):
    """In a smaller window the glows' window pixels come from their kept scaled copies and
    show what scaling the whole canvas shows (exactly at 1280x720, 2/3: parts scaled alone
    are exact; within the filter's rounding at 1366x768)."""
    pygame.display.set_mode(screen)
    app.window.resized()
    _placing_table(app)
    motion((20, 1070))
    frame(app)
    for _ in range(180):
        frame(app)
    hits = app.window.scaled_patches.hits
    for _ in range(5):
        frame(app)
        shown = pygame.image.tobytes(pygame.display.get_surface(), "RGB")
        app.window.present(flip=False)
        whole = pygame.image.tobytes(pygame.display.get_surface(), "RGB")
        assert max((abs(a - b) for a, b in zip(shown, whole, strict=True) if a != b), default=0) <= tolerance
    assert app.window.scaled_patches.hits > hits


def _changed_outside_pulses(app, table, t1: float, t2: float) -> tuple[int, int]:
    """Whole redraws of the table at two moments: (pixels that differ, of those the ones
    outside every pulse rect whose key differs between the two moments)."""
    shots = []
    for t in (t1, t2):
        table.t = t
        table._pulses_now = None
        pulses = table.pulses_now()
        app.draw()
        shots.append((pulses, app.screen.copy()))
    (before, a), (after, b) = shots
    diff, back = a.copy(), b.copy()
    diff.blit(b, (0, 0), special_flags=pygame.BLEND_RGB_SUB)
    back.blit(a, (0, 0), special_flags=pygame.BLEND_RGB_SUB)
    diff.blit(back, (0, 0), special_flags=pygame.BLEND_RGB_ADD)  # |a - b|, black where same

    def differing() -> int:
        same = pygame.mask.from_threshold(diff, (0, 0, 0, 255), (1, 1, 1, 255))
        return WHOLE.width * WHOLE.height - same.count()

    changed = differing()
    for (was, r1), (key, r2) in zip(before, after, strict=True):
        if was != key:
            diff.fill((0, 0, 0), r1)
            diff.fill((0, 0, 0), r2)
    return changed, differing()


def test_pulse_rects_cover_every_pixel_their_drawing_changes(app):
    """The glows and the turn ring declare just the strips their outline paints (their
    insides stay as the static layer has them); whatever differs between two moments of a
    waiting table lies in the rects of the pulses whose keys differ."""
    from game.ui.table import layout as L

    table = _placing_table(app)
    motion((20, 1070))
    frame(app)
    glow = L.SPACES[0].inflate(16, 16)
    strips = [r for _, r in table.pulses() if glow.contains(r)]
    assert len(strips) > 1 and sum(r.w * r.h for r in strips) < glow.w * glow.h // 2
    for t1, t2 in ((0.0, 0.27), (1.3, 1.52), (2.05, 2.61)):
        changed, outside = _changed_outside_pulses(app, table, t1, t2)
        assert changed > 1000 and outside == 0
    table = _still_table(app)  # four rings (the seats asked) and a Travel target's glow
    frame(app)
    for t1, t2 in ((0.0, 0.3), (0.61, 0.95)):
        changed, outside = _changed_outside_pulses(app, table, t1, t2)
        assert changed > 1000 and outside == 0


def test_an_idle_loop_moves_the_clock_by_whole_pulse_steps_and_the_ring_comes_round(app, monkeypatch):
    """While only pulses change, a frame after a sleep no input ended moves the table's
    clock on by whole pulse steps, keeping pace with the real clock to half a step; its
    rings' colours then come round every 22 steps and are blitted back from kept copies."""
    from game.ui.table.players import RING_STEPS

    table = _still_table(app)  # four rings (the seats asked in a window) pulse
    motion((20, 1070))
    app.frame()
    app.frame()
    assert app.idle
    step = app.stack.pulse_step()
    ticks = iter([51, 50, 49, 53, 50, 48, 52, 51, 50, 57, 44, 50] * 40)  # ms, a real clock's jitter
    real = []

    class Clock:
        def tick(self, fps):
            real.append(next(ticks))
            return real[-1]

    monkeypatch.setattr(app, "_sleep_on_events", lambda until: False)  # slept, no input
    monkeypatch.setattr(app, "clock", Clock())
    t0 = table.t
    for _ in range(3 * RING_STEPS):
        app.frame()
        steps = (table.t - t0) / step
        assert abs(steps - round(steps)) < 1e-6
        assert abs(table.t - t0 - sum(real) / 1000) <= step / 2 + 1e-9
    misses, hits = app.patches.misses, app.patches.hits
    for _ in range(RING_STEPS):
        app.frame()
    assert app.patches.misses == misses and app.patches.hits > hits  # every ring blitted back
    monkeypatch.undo()
    assert same_as_whole_redraw(app)
