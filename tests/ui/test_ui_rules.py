"""The Rules scene with pictures: every topic's picture and text render in every language
without a layout problem, the contents jump, the keys move between topics, Esc goes back."""

from __future__ import annotations

import pygame
import pytest

from game.ui import i18n
from game.ui.drawing import rules_pictures as pictures
from game.ui.drawing.theme import MIN_TEXT_PX, THEME
from game.ui.i18n import tr
from game.ui.scenes.rules import SECTIONS, TOPICS, VIEW, RulesScene
from tools import layout_probe as probe
from tools.autoplay import make_app


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    app = make_app(tmp_path_factory.mktemp("rules"), speed="fast")
    yield app
    app.set_language("en")
    app.shutdown()


@pytest.fixture
def rules(app):
    while app.stack.top is not None:
        app.stack.pop()
    app.set_language("en")
    scene = RulesScene(app)
    app.push(scene)
    app.step(1 / 30)
    yield scene
    while app.stack.top is not None:
        app.stack.pop()


def settle(app, frames: int = 60) -> None:
    for _ in range(frames):
        app.step(1 / 30)


def key(app, k) -> None:
    app.handle(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0))


def click(app, pos) -> None:
    app.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    app.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))


def test_every_topic_has_a_title_and_text_in_every_language():
    for lang in i18n.LANGUAGES:
        table = i18n.table(lang)
        for topic, keys in TOPICS.items():
            assert table[f"rules.{topic}.title"].strip(), (lang, topic)
            assert all(table[k].strip() for k in keys), (lang, topic)


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_picture_renders_readable_and_unclipped(app, lang):
    app.set_language(lang)
    width = VIEW.width - 80
    try:
        for topic, picture in pictures.PICTURES.items():
            THEME.epoch += 1  # cached faces and chips are drawn again, under the probe
            with probe.probing() as p:
                surf = picture(width)
            assert surf.get_width() == width, topic
            assert surf.get_bounding_rect().height > 50, f"{topic} drew nothing"
            assert p.texts, f"{topic} has no words"
            for t in p.texts:
                assert t.final_px >= MIN_TEXT_PX, (topic, t)
                assert t.max_w is None or t.width <= t.max_w + 1, (topic, t)
            assert not p.cuts, (topic, p.cuts)
    finally:
        app.set_language("en")


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_pictures_speak_the_language(app, lang):
    """The space picture labels its rows with the language's own words, the deal strip its
    steps, the real-time banner its countdown."""
    app.set_language(lang)
    try:
        THEME.epoch += 1
        with probe.probing() as p:
            pictures.space(1200)
            pictures.deal(1200)
            pictures.realtime(1200)
        drawn = {t.text for t in p.texts}
        assert tr("rules.pic.required") in drawn
        assert tr("rules.pic.group", k=2) in drawn  # space 1: two of Magenta, Orange, Green
        assert tr("rules.pic.group", k=1) in drawn  # space 7: three "1 of" pairs
        assert tr("window.countdown", s=2) in drawn
        wrapped = "".join(drawn).replace(" ", "")
        for step in pictures.DEAL_STEPS:
            first = tr(f"rules.pic.step.{step}").split()[0]
            assert first in wrapped, step
    finally:
        app.set_language("en")


def test_the_whole_document_has_an_anchor_per_topic_in_order(rules):
    rules.document()
    ys = [rules.anchors[t] for t in SECTIONS]
    assert ys == sorted(ys) and len(set(ys)) == len(ys)
    assert rules.max_scroll() >= ys[-1]  # the last topic can reach the top of the view


def test_the_contents_jump_to_their_topic(app, rules):
    for topic in ("deal", "floor", "goal", "table"):
        button = rules.find(f"rules.toc.{topic}")
        click(app, button.rect.center)
        settle(app)
        assert rules.current() == topic
        assert abs(rules.scroll - rules.anchors[topic]) < 2
        assert button.style == "normal"  # highlighted
        assert rules.find("rules.toc.setup").style == "ghost"


def test_page_keys_walk_the_topics_and_arrows_scroll(app, rules):
    for expected in SECTIONS[1:4]:
        key(app, pygame.K_PAGEDOWN)
        assert rules.current() == expected
    key(app, pygame.K_PAGEUP)
    assert rules.current() == SECTIONS[2]
    before = rules.goal
    key(app, pygame.K_DOWN)
    assert rules.goal == before + 80
    key(app, pygame.K_UP)
    key(app, pygame.K_UP)
    assert rules.goal == before - 80
    key(app, pygame.K_END)
    assert rules.goal == rules.max_scroll() and rules.current() == SECTIONS[-1]
    key(app, pygame.K_PAGEDOWN)  # no topic after the last
    assert rules.current() == SECTIONS[-1]
    key(app, pygame.K_HOME)
    assert rules.goal == rules.anchors[SECTIONS[0]] and rules.current() == SECTIONS[0]


def test_the_wheel_scrolls_and_escape_goes_back(app, rules):
    app.handle(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-3, flipped=False))
    assert rules.goal == 270
    app.handle(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=10, flipped=False))
    assert rules.goal == 0
    key(app, pygame.K_ESCAPE)
    assert app.stack.top is not rules
