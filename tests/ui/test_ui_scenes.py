"""Every scene renders in every language (SDL dummy driver), the strings drawn are the
language's own, and the few symbols the UI draws besides translations have glyphs."""

import unicodedata

import pygame
import pytest

from game.ui import i18n
from game.ui.drawing import draw, fonts
from game.ui.drawing.theme import THEME
from tools.autoplay import make_app
from tools.screenshot import finished_game, render

SCENES = ("title", "newgame", "settings", "table", "handoff", "rules", "results")


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    app = make_app(tmp_path_factory.mktemp("scenes"))
    yield app
    app.shutdown()


def _colours(surface) -> int:
    small = pygame.transform.scale(surface, (192, 108))
    return len({small.get_at((x, y))[:3] for x in range(0, 192, 3) for y in range(0, 108, 3)})


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_scene_renders_in_every_language(app, lang):
    app.set_language(lang)
    assert THEME.lang == lang and i18n.current_language() == lang
    seen = {}
    for scene in SCENES:
        while app.stack.top is not None:
            app.stack.pop()
        render(app, scene, seed=3)
        top = app.stack.top
        assert top is not None, scene
        shot = app.screen.copy()
        seen[scene] = pygame.image.tobytes(pygame.transform.scale(shot, (96, 54)), "RGB")
        assert _colours(shot) > 40, f"{scene} in {lang} looks blank"
    # the scenes are different pictures
    assert len(set(seen.values())) == len(SCENES)
    while app.stack.top is not None:
        app.stack.pop()


def test_language_switch_rerenders_text(app):
    app.set_language("en")
    render(app, "title")
    en = pygame.image.tobytes(app.screen, "RGB")
    app.set_language("zh_Hans")
    app.step(0.05)
    zh = pygame.image.tobytes(app.screen, "RGB")
    assert en != zh
    app.set_language("en")
    while app.stack.top is not None:
        app.stack.pop()


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_ui_symbols_have_glyphs(lang):
    """Characters the UI draws outside the translation tables (money, ticks, arrows)."""
    extra = draw.SYMBOLS + "×✓—…•“”" + "0123456789"
    missing = fonts.missing_chars(extra, lang) + fonts.missing_chars(extra, lang, bold=True)
    assert not missing, f"{lang}: no glyph for {missing!r}"


def test_wrapping_keeps_thai_marks_and_breaks_cjk():
    pygame.font.init()
    THEME.configure(lang="th")
    text = i18n.table("th")["rules.cards.body"]
    lines = draw.wrap(text, 26, 600)
    assert len(lines) > 5
    for line in lines:  # no line starts with a combining mark torn from its letter
        assert not line or unicodedata.category(line[0]) not in ("Mn", "Mc")
        assert draw.text_width(line, 26) <= 600
    assert "".join(lines).replace(" ", "") == text.replace("\n", "").replace(" ", "")
    # a long Thai phrase split by cluster never puts a colon at the start of a line
    phrase = "ก" * 40 + ":" + "ข" * 40
    for width in range(120, 400, 7):
        parts = draw.wrap(phrase, 26, width)
        assert not any(line.startswith(":") for line in parts), width
        assert "".join(parts) == phrase
    THEME.configure(lang="zh_Hant")
    text = i18n.table("zh_Hant")["rules.windows.body"]
    lines = draw.wrap(text, 26, 500)
    assert all(draw.text_width(line, 26) <= 500 for line in lines)
    assert not any(line.startswith(("，", "。", "、")) for line in lines)  # kinsoku
    THEME.configure(lang="en")


def test_results_ranking_and_history_from_a_bot_game():
    final, history, names = finished_game(seed=5)
    money = [p.money for p in final.players]
    assert list(history.points[0]) == [0] * len(names)
    assert list(history.points[-1]) == money
    assert len(history.points) == final.deals_closed + 1
    assert sum(history.boss_deals) == final.deals_closed
    from game.ui.scenes.results import ranking

    places = ranking(money)
    assert places[0][0] == 1 and money[places[0][1]] == max(money)
    assert [m for _, m in sorted((p, money[s]) for p, s in places)] == sorted(money, reverse=True)
    assert ranking([5, 9, 9, 1]) == [(1, 1), (1, 2), (3, 0), (4, 3)]


def test_title_language_buttons_and_settings_toggles(app):
    from game.ui.scenes.title import TitleScene
    from tools.autoplay import click_widget

    while app.stack.top is not None:
        app.stack.pop()
    app.set_language("en")
    title = app.push(TitleScene(app))
    app.step(0.05)
    assert click_widget(title, "lang.th")
    app.step(0.05)
    assert app.config.language == "th" and THEME.lang == "th"
    assert click_widget(app.stack.top, "title.settings")
    app.step(0.05)
    settings = app.stack.top
    assert settings.name == "settings"
    assert click_widget(settings, "colour_blind")
    app.step(0.05)
    assert app.config.colour_blind and THEME.palette == "okabe_ito"
    from tools.autoplay import click

    click(settings.find("text_size").next.rect.center)  # the stepper's ▶
    app.step(0.05)
    assert app.config.text_size == "large" and THEME.text_scale > 1
    assert click_widget(settings, "variant.V3")
    app.step(0.05)
    assert app.config.variants == ["V3"]
    pygame.event.post(
        pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="", scancode=0)
    )
    app.step(0.05)
    assert app.stack.top is title
    # back to the defaults for the other tests of this module
    app.config.colour_blind = False
    app.config.text_size = "normal"
    app.config.variants = []
    app.set_language("en")
    while app.stack.top is not None:
        app.stack.pop()
