"""Nothing clipped, nothing overlapping: every scene and table state the screenshot tool can
build, plus the crowded ones, drawn under a layout probe in each language and in a synthetic
"longest" language (each English string padded to the width of its widest translation).

Checked for every frame:
- every text is at least MIN_TEXT_PX (18 logical px: 12 screen px on a 1280x720 screen) and
  fits the width it was given (fit() never shrinks below the minimum, so a box too small
  shows up here); no string is cut short with "…" (all player names here are short);
- no two interactive widgets overlap, and each lies inside its panel and the screen;
- a tooltip lies on screen and covers neither the widget it explains nor the card pop-up;
- the tutorial's coach finds the widget its step points at, and its panel does not cover it.

Cost: ~20 states x 5 languages, each one settled frame (tooltip states a few dozen), on one
shared app: the whole module runs in well under a minute on a busy 2-core machine.
"""

from __future__ import annotations

import pygame
import pytest

from game.ui import fonts, i18n, probe, screenshot
from game.ui.autoplay import make_app
from game.ui.theme import MIN_TEXT_PX, THEME

LANGS = ("en", "zh_Hant", "zh_Hans", "th", "longest")
SCREEN = pygame.Rect(0, 0, 1920, 1080)
STILLS = (*screenshot.SCENES, *screenshot.LAN_SCENES, *screenshot.CROWDED_SCENES)
TIPS = ("tip_widget", "tip_card")


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    app = make_app(tmp_path_factory.mktemp("layout"), speed="fast")
    yield app
    clear(app)
    app.shutdown()


def clear(app) -> None:
    for scene in reversed(app.stack.scenes):
        app.stack.scenes.remove(scene)
        scene.exit()


def longest_table() -> dict[str, str]:
    """English padded with filler words until each string is as wide as the widest of its
    four translations (measured in each language's own font at one size)."""
    tables = {lang: i18n.table(lang) for lang in i18n.LANGUAGES}
    out = {}
    for key, en in tables["en"].items():
        if key.startswith(("language.", "key.", "clan.letter")):
            out[key] = en
            continue
        widths = [fonts.text_size(t[key], lang, 24, False)[0] for lang, t in tables.items()]
        s = en
        if fonts.text_size(s, "en", 24, False)[0] < max(widths):
            s += " "
        while fonts.text_size(s, "en", 24, False)[0] < max(widths):
            s += "x"
        out[key] = s
    return out


def use_language(app, lang: str) -> None:
    if lang == "longest":
        app.set_language("en")
        i18n._default._table = longest_table()
    else:
        app.set_language(lang)
        i18n._default._table = i18n.table(lang)
    THEME.epoch += 1  # every cached drawing is made again, under the probe


def build(app, state: str):
    """Put `state` on app's stack, settled; returns the widget rect the tooltip explains
    (tooltip states), else None."""
    clear(app)
    if state in screenshot.CROWDED_SCENES:
        screenshot.render_crowded(app, state)
        return None
    if state == "tip_widget":  # the reaction window's Stop! button, hovered
        screenshot.render(app, "table")
        table = app.stack.top
        target = table.find("win.stop")
    elif state == "tip_card":  # a Travel card picked (its pop-up open), another hovered
        table = screenshot.render_crowded(app, "hand_15")
        table.hand.selected = table.hand.cards.index("travel_grey")
        table._refresh()
        table.hand.update(1.0, (0, 0))
        target = None
        i = table.hand.cards.index("boss")
        pos = table.hand.card_rect(i).move(0, 10).center
        screenshot.pygame_mouse(app, pos)
        for _ in range(40):
            app.step(1 / 30)
        return table.hand.card_rect(i)
    else:
        screenshot.render(app, state)
        return None
    screenshot.pygame_mouse(app, target.rect.center)
    for _ in range(40):
        app.step(1 / 30)
    return target.rect


def widget_panels(scene) -> list[tuple[object, pygame.Rect]]:
    out = []
    for w in scene.widgets:
        if w.visible:
            out.append((w, w.panel if w.panel is not None else SCREEN))
    return out


def problems(app, p: probe.LayoutProbe, explained) -> list[str]:
    out = []
    for t in p.texts:
        if t.final_px < MIN_TEXT_PX:
            out.append(f"text {t.text!r} drawn at {t.final_px}px (asked {t.requested_px})")
        if t.max_w is not None and t.width > t.max_w + 1:
            out.append(f"text {t.text!r} is {t.width}px wide in a {t.max_w}px box")
    for c in p.cuts:
        out.append(f"text {c.text!r} cut to {c.shown!r}")
    scene = app.stack.top
    placed = widget_panels(scene)
    for i, (w, panel) in enumerate(placed):
        if not SCREEN.contains(w.rect):
            out.append(f"widget {w.name or w} {w.rect} leaves the screen")
        elif not panel.contains(w.rect):
            out.append(f"widget {w.name or w} {w.rect} leaves its panel {panel}")
        for v, _ in placed[i + 1 :]:
            if w.rect.colliderect(v.rect):
                out.append(f"widgets {w.name} {w.rect} and {v.name} {v.rect} overlap")
    for tip in p.tooltips:
        if not SCREEN.contains(tip.rect):
            out.append(f"tooltip {tip.text[:30]!r} {tip.rect} leaves the screen")
        for a in tip.avoid:
            if tip.rect.colliderect(a):
                out.append(f"tooltip {tip.text[:30]!r} {tip.rect} covers {a}")
    coach = getattr(scene, "coach", None)  # the tutorial's coach: never over what it points at
    if coach is not None:
        target = coach.target()
        if target is None and coach.session.step is not None and coach.session.step.point:
            out.append(f"the coach finds none of {coach.session.step.point}")
        elif target is not None and coach.rect.colliderect(target):
            out.append(f"the coach panel {coach.rect} covers the widget it points at {target}")
    if explained is not None and not p.tooltips:
        out.append("no tooltip was shown")
    elif explained is not None and not any(explained in tip.avoid for tip in p.tooltips):
        out.append(f"the tooltip does not know what it explains ({explained})")
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_nothing_clipped_nothing_overlapping(app, lang):
    report = []
    try:
        for state in (*STILLS, *TIPS):
            use_language(app, lang)
            explained = build(app, state)
            with probe.probing() as p:
                THEME.epoch += 1
                app.draw()
            report += [f"[{state}/{lang}] {msg}" for msg in problems(app, p, explained)]
    finally:
        use_language(app, "en")
    assert not report, f"{len(report)} layout problems:\n" + "\n".join(sorted(set(report)))
