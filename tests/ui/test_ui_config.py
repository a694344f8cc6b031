"""Settings persistence (never in the real home), tweens, the scene stack and widgets."""

import json
import os

import pygame
import pytest

from game.ui import config as config_mod
from game.ui.config import Config
from game.ui.drawing.tween import EASINGS, Tweener
from game.ui.screen.scene import Scene, SceneStack


def test_config_round_trip_in_the_override_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("IMTHEBOSS_CONFIG_DIR", str(tmp_path / "cfg"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    cfg = Config(language="th", colour_blind=True, volume=0.3, variants=["V3", "V1"], names=["Mei"])
    path = cfg.save()
    assert path == tmp_path / "cfg" / "settings.json"
    back = Config.load()
    assert back.language == "th" and back.colour_blind and back.volume == 0.3
    assert back.variants == ["V1", "V3"] and back.names == ["Mei"]
    assert not (tmp_path / "home").exists()


def test_config_defaults_to_xdg_and_survives_a_bad_file(tmp_path, monkeypatch):
    monkeypatch.delenv("IMTHEBOSS_CONFIG_DIR", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("PYTEST_CURRENT_TEST", raising=False)
    assert config_mod.config_dir() == tmp_path / "xdg" / "imtheboss"
    folder = tmp_path / "xdg" / "imtheboss"
    folder.mkdir(parents=True)
    (folder / "settings.json").write_text(
        json.dumps(
            {
                "language": "fr",
                "volume": "loud",
                "seats": 9,
                "mute": True,
                "speed": "fast",
                "junk": 1,
            }
        )
    )
    cfg = Config.load()
    assert (
        cfg.language == "en"
        and cfg.volume == 0.7
        and cfg.seats == 6
        and cfg.mute
        and cfg.speed == "fast"
    )
    (folder / "settings.json").write_text("{not json")
    assert Config.load() == Config()


def test_a_setting_this_version_does_not_have_is_ignored_with_a_warning(tmp_path, caplog):
    """The clocks' old names (stop_seconds, negotiation_minutes...) are no longer read: a
    file naming one loads every other field and says which names it ignored."""
    (tmp_path / "settings.json").write_text(
        json.dumps({"stop_seconds": 8, "negotiation_minutes": 5, "window": 7, "seats": 3})
    )
    with caplog.at_level("WARNING", logger="game.ui.config"):
        cfg = Config.load(tmp_path)
    assert (cfg.window, cfg.seats, cfg.negotiation) == (7, 3, Config().negotiation)
    assert "'negotiation_minutes', 'stop_seconds'; ignored" in caplog.text


def test_settings_show_the_window_as_it_is_not_the_saved_preference(tmp_path, monkeypatch):
    """Started with --windowed while the saved preference says fullscreen: Settings say
    windowed; after F11 they say fullscreen, and switching there toggles the real window."""
    from game.ui.scenes.settings import SettingsScene
    from game.ui.screen.app import App

    monkeypatch.setenv("IMTHEBOSS_CONFIG_DIR", str(tmp_path / "config"))
    app = App(Config(fullscreen=True), windowed=True, sound=False, persist=False)
    app.present = False
    try:
        flips = []

        def toggle():  # the dummy driver has no fullscreen: the window's flag flips
            flips.append(app.window.fullscreen)
            app.window.fullscreen = not app.window.fullscreen

        monkeypatch.setattr(app.window, "toggle_fullscreen", toggle)
        app.push(SettingsScene(app))
        switch = app.stack.top.find("fullscreen")
        assert app.config.fullscreen and not app.window.fullscreen
        assert switch.get() is False  # the game runs in a window
        app.toggle_fullscreen()  # F11
        assert switch.get() is True
        switch.set(True)  # already fullscreen: nothing to toggle
        assert flips == [False]
        switch.set(False)
        assert flips == [False, True] and switch.get() is False
    finally:
        app.shutdown()


def test_under_pytest_without_override_no_home_is_touched(tmp_path, monkeypatch):
    monkeypatch.delenv("IMTHEBOSS_CONFIG_DIR", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    assert "PYTEST_CURRENT_TEST" in os.environ
    assert str(tmp_path / "home") not in str(config_mod.config_dir())


def test_tweens_finish_exactly_with_a_fixed_dt():
    class Box:
        x = 0.0
        y = 10.0

    box, done = Box(), []
    tw = Tweener()
    tw.animate(
        box, duration=0.5, ease="out_back", delay=0.25, x=100, y=0, on_done=lambda: done.append(1)
    )
    tw.update(0.2)
    assert box.x == 0.0 and tw.busy()
    for _ in range(10):  # 0.7 s in all: not quite there
        tw.update(0.05)
    assert box.x != 100 and not done
    tw.update(0.06)  # past 0.75 s: the delay plus the duration
    assert (box.x, box.y) == (100, 0) and done == [1] and not tw.busy()
    for name, ease in EASINGS.items():
        assert ease(0.0) == pytest.approx(0.0, abs=1e-9), name
        assert ease(1.0) == pytest.approx(1.0), name


def test_tween_chains_started_from_callbacks_and_finish_all():
    class Box:
        x = 0.0

    box = Box()
    tw = Tweener()
    tw.animate(box, duration=1.0, x=5, on_done=lambda: tw.animate(box, duration=1.0, x=9))
    tw.finish_all()
    assert box.x == 9 and not tw.busy()


def test_scene_stack_push_pop_replace_and_overlays():
    pygame.font.init()

    class S(Scene):
        def __init__(self, name, opaque=True):
            super().__init__(app=None)
            self.name, self.opaque, self.entered = name, opaque, 0

        def enter(self):
            self.entered += 1

    st = SceneStack()
    a, b, c = S("a"), S("b", opaque=False), S("c")
    st.push(a)
    st.push(b)
    assert [s.name for s in st.visible()] == ["a", "b"]  # an overlay shows what lies below
    st.push(c)
    assert [s.name for s in st.visible()] == ["c"]
    assert st.pop() is c and st.top is b and b.entered == 2
    st.replace(S("d"))
    assert [s.name for s in st.scenes] == ["d"]


def test_widgets_respond_to_synthetic_events():
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    pygame.font.init()
    from game.ui.drawing.widgets import Button, Stepper, Toggle

    hits = []
    b = Button((10, 10, 100, 40), "OK", lambda: hits.append("b"))
    down = pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(20, 20), button=1)
    up = pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(20, 20), button=1)
    assert b.handle(down) and b.handle(up) and hits == ["b"]
    b.enabled = False
    b.handle(down)
    b.handle(up)
    assert hits == ["b"]  # a disabled control does nothing
    state = {"on": False, "v": 2}
    t = Toggle((0, 100, 300, 50), "T", lambda: state["on"], lambda v: state.update(on=v))
    t.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(150, 120), button=1))
    assert state["on"]
    st = Stepper((0, 200, 400, 50), "S", [1, 2, 3], lambda: state["v"], lambda v: state.update(v=v))
    st.next.click()
    st.next.click()
    assert state["v"] == 1  # wraps round


def test_leaving_fullscreen_is_remembered_for_the_next_launch(tmp_path, monkeypatch):
    """The README's promise: fullscreen the first time, then the way the player left it."""
    from game.ui.screen.app import App

    monkeypatch.setenv("IMTHEBOSS_CONFIG_DIR", str(tmp_path / "config"))
    assert Config.load().fullscreen  # the first start
    app = App(Config.load(), sound=False, persist=True)
    app.present = False
    try:
        def toggle():  # the dummy driver has no fullscreen: the window's flag flips
            app.window.fullscreen = not app.window.fullscreen

        monkeypatch.setattr(app.window, "toggle_fullscreen", toggle)
        app.window.fullscreen = True
        app.toggle_fullscreen()  # F11 out of fullscreen
    finally:
        app.shutdown()
    assert Config.load().fullscreen is False  # the next launch opens a window


def test_the_speed_setting_says_it_paces_the_bots_too():
    """Config.speed sets the animations and the bots' pace; labelled "Animation speed", a
    newcomer looking for faster bots did not find it. The label names the bots in each
    language with the word the New game screen uses for them."""
    import json
    from pathlib import Path

    for lang in ("en", "zh_Hant", "zh_Hans", "th"):
        table = json.loads(Path(f"assets/lang/{lang}.json").read_text(encoding="utf-8"))
        bot_word = table["newgame.bot"].split("·")[0].strip().lower()
        assert bot_word in table["settings.speed"].lower(), (lang, table["settings.speed"])
