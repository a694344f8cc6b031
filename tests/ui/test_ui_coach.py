"""The lesson's coach leaves in view what it talks about, and names clans as the table does: at every step its panel covers
neither the widget it points at nor the areas the step names (the tile stack, a space, the
negotiation's rows, the hand, the die), nor the die while it rolls; its arrow meets the
target from above or below, never through the target's row; a card's tooltip never covers
the coach's panel and its buttons."""

from __future__ import annotations

import pygame
import pytest

from game.rules import Roll
from game.tutorial import load_script
from game.ui import i18n
from game.ui.drawing.theme import CLAN_KEYS, CLAN_LETTERS, THEME
from game.ui.table import layout as L
from game.ui.tutorial.coach import clan_words
from game.ui.tutorial.scene import render_still
from tools import layout_probe as probe
from tools.autoplay import DT, click_widget, make_app

SCRIPT = load_script()
ROLLS = ("bea_deal", "roll", "draw", "roll_again", "draw_again")  # a roll shows on the table


def target_row(target: pygame.Rect) -> pygame.Rect:
    """The target's height across the table area that holds it (its row of buttons)."""
    areas = (L.PLAYERS, L.RIGHT, L.HAND, L.LOG, L.BOARD)
    area = next((a for a in areas if a.collidepoint(target.center)), target)
    return pygame.Rect(area.x, target.y, area.width, target.height)


@pytest.fixture
def app(tmp_path):
    app = make_app(tmp_path, speed="fast")
    yield app
    app.shutdown()


def settle(app, frames: int = 12) -> None:
    for _ in range(frames):
        app.step(DT, draw=False)


def test_every_step_names_what_it_talks_about():
    """The steps whose text speaks of the tiles' price, a roll or the rows name them."""
    shows = {s.id: s.shows for s in SCRIPT.steps}
    assert {"tiles", "deal_value"} <= set(shows["space"])
    assert all("die" in shows[i] for i in ROLLS)
    assert all("rows" in shows[i] for i in ("accept_offer", "counter", "pass_floor"))


@pytest.mark.parametrize("step_id", [s.id for s in SCRIPT.steps])
def test_the_panel_covers_nothing_the_step_names(app, step_id):
    table = render_still(app, step_id)
    settle(app)
    coach, step = table.coach, table.session.step
    coach.layout()
    named = [table.widget_rect(n) for n in step.shows]
    assert None not in named, f"{step_id}: {step.shows} not all on the table"
    target = coach.target()
    if target is not None:
        named.append(target)
    if step_id in ROLLS:
        named.append(L.DIE_AREA)
    covered = [r for r in named if coach.rect.colliderect(r)]
    assert not covered, f"{step_id}: the panel {coach.rect} covers {covered}"


@pytest.mark.parametrize("step_id", [s.id for s in SCRIPT.steps if s.point])
def test_the_arrow_never_runs_through_the_targets_row(app, step_id):
    table = render_still(app, step_id)
    settle(app)
    coach = table.coach
    coach.layout()
    target = coach.target()
    assert target is not None
    path = coach.arrow(target)
    if path is None:  # only when the panel touches its target
        assert coach.rect.inflate(60, 60).colliderect(target), step_id
        return
    row = target_row(target)
    assert pygame.Rect(path[-1], (1, 1)).inflate(8, 8).colliderect(target)  # the tip
    for a, b in zip(path, path[1:], strict=False):
        assert not row.clipline(a, b), f"{step_id}: segment {a}-{b} crosses the row {row}"
    for a, b in zip(path[:-1], path[1:-1], strict=False):  # elbows: square, off the panel
        assert a[0] == b[0] or a[1] == b[1]
    with probe.probing():
        THEME.epoch += 1
        app.draw()  # it draws


def test_the_die_rolling_is_never_under_the_panel(app):
    table = render_still(app, "roll")
    settle(app)
    table.send(Roll(0))
    seen = 0
    for _ in range(40):
        app.step(1 / 30, draw=False)
        table.coach.layout()
        if table.director.die_rolling:
            seen += 1
            assert not table.coach.rect.colliderect(L.DIE_AREA)
    assert seen, "the die never rolled"
    assert not table.coach.rect.colliderect(L.DIE_AREA)  # the next step speaks of it


def test_a_card_tooltip_never_covers_the_coach(app):
    """Pointing at each card of the hand at the step that asks to lay one: no tooltip lies
    over the coach's panel (its text, Skip and Leave)."""
    table = render_still(app, "lay_clan")
    settle(app)
    coach = table.coach
    coach.layout()
    tips = []
    for i in range(len(table.hand.cards)):
        r = table.hand.card_rect(i)
        pos = (r.centerx, r.top + 12)
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
        for _ in range(40):
            app.step(1 / 30, draw=False)
        with probe.probing() as p:
            app.draw()
        tips += [(i, t.rect) for t in p.tooltips]
    assert len(tips) >= len(table.hand.cards) // 2, "hovering a card opens its tooltip"
    over = [(i, r) for i, r in tips if r.colliderect(coach.rect)]
    assert not over, f"tooltips over the coach {coach.rect}: {over}"


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_the_coach_names_a_clan_as_the_editor_does(app, lang):
    """At 'ask Bea for her placard' the editor's source button and the coach's text use
    the same words for the clan; no step's text names a clan by its colour alone, without
    the letter that the chips show."""
    app.set_language(lang)
    table = render_still(app, "ask_placard")
    settle(app)
    click_widget(table, "neg.counter.1")  # Propose on Bea's row: the editor opens
    settle(app, 4)
    sources = [w for w in table.widgets if w.name.startswith("editor.src.")]
    assert sources, "the editor shows Bea's placards"
    text, _ = table.coach.lines()
    words = [str(w.label() if callable(w.label) else w.label) for w in sources]
    blue = clan_words()[CLAN_LETTERS[1]]  # '藍色（S）' in Chinese, which names clans by colour
    assert any(blue in w for w in words), f"the editor says {words!r}, not {blue!r}"
    assert blue in text, f"the editor says {blue!r}, the coach: {text!r}"
    colours = [i18n.tr(f"clan.{k}") for k in CLAN_KEYS]
    for step in SCRIPT.steps:
        body = i18n.tr(step.text, **clan_words())
        wrong = i18n.tr(step.wrong, **clan_words()) if step.wrong else ""
        for word in clan_words().values():
            body, wrong = body.replace(word, ""), wrong.replace(word, "")
        named = [c for c in colours if c in body + wrong]
        assert not named, f"{step.id} ({lang}) names {named} by colour"
