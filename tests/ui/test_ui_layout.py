"""Nothing clipped, nothing overlapping: every scene and table state the screenshot tool can
build, plus the crowded ones, drawn under a layout probe in each language at each text size
(Small, Normal, Large) and each screen's readable minimum, and in a synthetic "longest"
language (each English string padded to the width of its widest translation).

Checked for every frame:
- every text is at least MIN_SCREEN_PX tall on each screen (its logical size times the
  screen's scale: 1280x720 fullscreen 0.667, a 1152x648 window 0.6, where the theme's
  minimum rises to 20 px) and fits the width it was given (fit() never shrinks below the minimum, so a box too small
  shows up here); no string is cut short with "…" (all player names here are short);
- no two interactive widgets overlap, and each lies inside its panel and the screen;
- a tooltip lies on screen, covers neither the widget it explains nor the card pop-up nor
  a title, and touches what it explains (TIP_REACH: it floated 150 px off); tooltips on a
  widget, a hand card, a space, a placard and a part of the panel;
- the tutorial's coach finds the widget its step points at, and its panel does not cover it;
- where each text landed (the probe's canvas): no text over another text or touching it on
  its line, nor over a widget it does not belong to; none cut by the clip or the screen, none
  spilling past the panel it starts in, none partly under a box drawn after it; no control
  on the edge of a drawn box; no bubble over a text or a widget.

Cost: each state is built once per language and drawn at every text size and minimum:
~34 states x 4 languages x 6 frames, plus the longest language at Normal, on one shared app.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame
import pytest

from game.tutorial import load_script
from game.ui import i18n
from game.ui.config import TEXT_SIZES
from game.ui.drawing import fonts
from game.ui.drawing.theme import LOGICAL_SIZE, MIN_SCREEN_PX, THEME, min_text_px
from game.ui.screen.window import fit_rect
from game.ui.table import layout as table_layout
from tools import layout_probe as probe
from tools import screenshot
from tools.autoplay import clear_scenes, make_app
from tools.layout_probe import BoxKind

pytestmark = pytest.mark.slow  # the layout audit: every scene, state, language and screen
LANGS = ("en", "zh_Hant", "zh_Hans", "th")
SCREEN = pygame.Rect(0, 0, 1920, 1080)
# The screens (fullscreen) and the small window the 12-px rule is checked for, as the scale
# the canvas is drawn at there; each gets the layout of its theme minimum.
SCREENS = {
    size: fit_rect(size).w / LOGICAL_SIZE[0]
    for size in ((1280, 720), (1366, 768), (1920, 1080), (2560, 1440), (1152, 648))
}


@dataclass(frozen=True)
class Fit:
    """What a screen lays the table out with: the layout and the readable minimum."""

    arrangement: table_layout.Arrangement
    min_px: int

    @property
    def name(self) -> str:
        return f"{self.arrangement.name} {self.min_px}px"


def fit_of(scale: float) -> Fit:
    return Fit(table_layout.for_scale(scale), min_text_px(scale))


# the standard layout at 18 px (1366x768 and up), the compact one at 20 px (1280x720 and
# the 1152x648 window)
FITS = sorted({fit_of(k) for k in SCREENS.values()}, key=lambda f: f.min_px)
GAP = 3  # texts on one line closer than this run together
STILLS = (*screenshot.SCENES, *screenshot.LAN_SCENES, *screenshot.CROWDED_SCENES)
TIPS = ("tip_widget", "tip_card", "tip_space", "tip_placard", "tip_panel")
# drawn things hovered on the table still: a top-row space beside the panel's title, a
# plate's placard, a part of the panel that explains itself (tips.py)
DRAWN_TIPS = {
    "tip_space": lambda table: table_layout.SPACES[4],
    "tip_placard": lambda table: next(iter(table.plates.placard_rects.values())),
    "tip_panel": lambda table: table.panel.hints(table.seen)[0][0],
}
# the lesson's every step (its coach panel, arrow and buttons), and a card's tooltip opened
# beside the coach: drawn at every text size but at one readable minimum each (alternating),
# which keeps the audit's time down
LESSON = tuple(f"lesson:{step.id}" for step in load_script().steps if step.id)
LESSON_TIPS = ("lesson_tip:hand", "lesson_tip:lay_clan")


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    app = make_app(tmp_path_factory.mktemp("layout"), speed="fast")
    app.screen = app.window.canvas = probe.ProbeCanvas(LOGICAL_SIZE)  # it sees where texts land
    yield app
    clear_scenes(app)
    app.shutdown()


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
    clear_scenes(app)
    if state.startswith(("lesson:", "lesson_tip:")):
        return build_lesson(app, state)
    if state in screenshot.CROWDED_SCENES:
        screenshot.render_crowded(app, state)
        return None
    if state in DRAWN_TIPS:
        screenshot.render(app, "table")
        rect = DRAWN_TIPS[state](app.stack.top)
        screenshot.pygame_mouse(app, rect.center)
        for _ in range(40):
            app.step(1 / 30, draw=False)  # its tooltip comes up; drawn once, below
        return rect
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
        return hover_card(app, table, table.hand.cards.index("boss"))
    else:
        screenshot.render(app, state)
        return None
    screenshot.pygame_mouse(app, target.rect.center)
    for _ in range(40):
        app.step(1 / 30, draw=False)  # its tooltip comes up; drawn once, below
    return target.rect


def build_lesson(app, state: str):
    """A lesson step, settled; for a `lesson_tip:` state, a hand card hovered until its
    tooltip shows (it returns the card's rect)."""
    from game.ui.tutorial.scene import render_still

    kind, step = state.split(":")
    table = render_still(app, step)
    screenshot._frames(app, 20)
    if kind == "lesson":
        return None
    return hover_card(app, table, len(table.hand.cards) - 1)


def hover_card(app, table, i: int) -> pygame.Rect:
    """The pointer on hand card i until its tooltip shows; the card's rect."""
    screenshot.pygame_mouse(app, table.hand.card_rect(i).move(0, 10).center)
    for _ in range(40):
        app.step(1 / 30, draw=False)  # its tooltip comes up; drawn once, below
    return table.hand.card_rect(i)


def hover_again(app, state: str, explained):
    """After a text size change the hand lays itself out again at once (its titles' size
    sets its rows): the pointer goes back onto the hovered card where it now stands."""
    hand = app.stack.top.hand if explained is not None else None
    if state == "tip_card":
        return hover_card(app, app.stack.top, hand.cards.index("boss"))
    if state.startswith("lesson_tip:"):
        return hover_card(app, app.stack.top, len(hand.cards) - 1)
    return explained


def widget_panels(scene) -> list[tuple[object, pygame.Rect]]:
    out = []
    for w in scene.widgets:
        if w.visible:
            out.append((w, w.panel if w.panel is not None else SCREEN))
    return out


def problems(app, p: probe.LayoutProbe, explained) -> list[str]:
    out = []
    scales = [k for k in SCREENS.values() if fit_of(k) == current_fit()]
    for t in p.texts:
        for k in scales:
            if t.final_px * k < MIN_SCREEN_PX - 1e-6:
                out.append(f"text {t.text!r} drawn at {t.final_px}px: {t.final_px * k:.1f} "
                           f"screen px at scale {k:.3f}")  # fmt: skip
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
        if tip.avoid and gap_between(tip.rect, tip.avoid[0]) > TIP_REACH:
            out.append(f"tooltip {tip.text[:30]!r} {tip.rect} floats "
                       f"{gap_between(tip.rect, tip.avoid[0])} px from what it explains "
                       f"{tip.avoid[0]}")  # fmt: skip
        box = next((b for b in p.boxes if b.kind is BoxKind.TOOLTIP and b.rect == tip.rect), None)
        for t in p.boxes:  # a title or a heading stays in sight
            if (t.kind is BoxKind.TEXT and is_title(t) and box is not None
                    and t.order < box.order and tip.rect.colliderect(t.rect)):  # fmt: skip
                out.append(f"tooltip {tip.text[:30]!r} {tip.rect} covers the title {t.label!r}")
    coach = getattr(scene, "coach", None)  # the tutorial's coach: never over what it points at
    if coach is not None and not coach.session.playing_out:
        for tip in p.tooltips:  # nor a tooltip over the coach (its text, its buttons)
            if tip.rect.colliderect(coach.rect):
                out.append(f"tooltip {tip.text[:30]!r} {tip.rect} covers the coach {coach.rect}")
        for r in coach.keep_clear()[1:] + coach.table_buttons():
            if coach.rect.colliderect(r):
                out.append(f"the coach panel {coach.rect} covers {r} (shown, or a button)")
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


TIP_REACH = 24  # a tooltip touches what it explains, or stands this close to it at most
TITLE_PX = 32  # texts this large are titles and headings: no tooltip covers them


def is_title(t: probe.DrawnBox) -> bool:
    """A title or heading: large words (not a figure like "$18M", not a slot's "?", not a
    big button's label: a tooltip keeps off the controls where it can, `prefer`)."""
    return (t.px >= TITLE_PX and sum(c.isalpha() for c in t.label) >= 3
            and t.owner != "widgets._button_surface")  # a button's label: a control's words


def gap_between(a: pygame.Rect, b: pygame.Rect) -> int:
    """The distance between two rects (0 where they touch or overlap)."""
    dx = max(0, b.left - a.right, a.left - b.right)
    dy = max(0, b.top - a.bottom, a.top - b.bottom)
    return max(dx, dy)


def _box(r: pygame.Rect) -> str:
    return f"({r.x},{r.y} {r.w}x{r.h})"


def _name(b) -> str:
    return f"{b.kind.value} {b.label[:40]!r} of {b.owner} {_box(b.rect)}"


def layers(boxes: list[probe.DrawnBox]) -> list[list[probe.DrawnBox]]:
    """The boxes cut at each dialog veil: what lies under a veil is not checked against
    what is drawn on it."""
    out: list[list[probe.DrawnBox]] = [[]]
    for b in boxes:
        if b.kind is BoxKind.VEIL:
            out.append([])
        else:
            out[-1].append(b)
    return out


# drawn over the table (a tooltip, the coach, a tile on its space): what they cover is hidden
OVERLAYS = (BoxKind.TOOLTIP, BoxKind.COACH, BoxKind.COVER)
POP_UP = "card.opt."  # the selected card's options, over the board


def covered(b: probe.DrawnBox, later: list[probe.DrawnBox], widgets=()) -> bool:
    """Whether something drawn after `b` hides it: a panel or bubble over all of it, a
    tooltip or the coach over any of it, the selected card's pop-up of options. `later`:
    the boxes that are not texts; `widgets`: the pop-up's."""
    return any(
        c.order > b.order
        and (c.rect.contains(b.rect) or (c.kind in OVERLAYS and c.rect.colliderect(b.rect)))
        for c in later
    ) or any(w.order > b.order and w.rect.colliderect(b.rect) for w in widgets)


def placement_problems(p: probe.LayoutProbe, names=()) -> list[str]:
    """Where things landed: texts over texts or widgets, cut, spilling, partly under a box;
    controls on a box's edge; bubbles over texts (a bubble rises over its speaker's plate:
    it may hide the plate's figures, never a name, a title or a control). The pairs are
    found with pygame's collidelistall (the audit's time is mostly here)."""
    out = []
    widgets = [w for w in p.widgets]
    for layer in layers(p.boxes):
        first = min((b.order for b in layer), default=0)
        last = max((b.order for b in layer), default=0)
        ws = [w for w in widgets if first <= w.order <= last or not layer]
        wrects = [w.rect for w in ws]
        drawn = [b for b in layer if b.kind is not BoxKind.TEXT]
        pop_up = [w for w in ws if w.name.startswith(POP_UP)]
        all_texts = [b for b in layer if b.kind is BoxKind.TEXT and b.rect.w and b.rect.h]
        texts = [b for b in all_texts if not covered(b, drawn, pop_up)]
        rects = [t.rect for t in texts]
        panels = [b for b in drawn if b.kind is BoxKind.PANEL]
        for t in texts:
            if not SCREEN.contains(t.rect):
                out.append(f"{_name(t)} is cut by the screen")
            elif t.rect.clip(t.shown) != t.rect:  # its ink, not the line's empty room
                out.append(f"{_name(t)} is cut by its clip {_box(t.shown)}")
            home = [q for q in panels if q.order < t.order and q.rect.collidepoint(t.rect.center)]
            if home:
                panel = min(home, key=lambda q: q.rect.w * q.rect.h)
                if not panel.rect.contains(t.rect):
                    out.append(f"{_name(t)} spills past its panel {_box(panel.rect)}")
            for q in panels:  # nothing drawn over part of it (over all of it: it is hidden)
                if q.order > t.order and q.rect.colliderect(t.rect):
                    out.append(f"{_name(t)} lies partly under the panel {_box(q.rect)} "
                               f"of {q.owner}")  # fmt: skip
        for i, a in enumerate(texts):
            for k in a.rect.inflate(2 * GAP, 0).collidelistall(rects[i + 1 :]):
                b = texts[i + 1 + k]
                if a.label == b.label and a.owner_id == b.owner_id:
                    continue  # a shadow or a redraw of the same words
                out.append(f"{_name(a)} and {_name(b)} overlap")
        for t in texts:
            for k in t.rect.collidelistall(wrects):
                w = ws[k]
                above = any(w.order < q.order < t.order and q.rect.contains(t.rect) for q in panels)
                if w.owner != t.owner_id and not above:
                    out.append(f"{_name(t)} lies on widget {w.name or '?'} {_box(w.rect)}")
        overlays = [b for b in drawn if b.kind in OVERLAYS]
        for q in panels:  # a control inside a drawn box or outside it, never on its edge
            if any(o.rect == q.rect for o in overlays):
                continue  # a tooltip's own panel: drawn over everything, not a box to sit in
            inner = q.rect.inflate(-4, -4)
            for k in inner.collidelistall(wrects):
                w = ws[k]
                if any(o.order > q.order and o.rect.contains(w.rect) for o in overlays):
                    continue  # the coach's own buttons, over the table
                if not q.rect.contains(w.rect) and not w.rect.contains(inner):
                    out.append(f"widget {w.name or '?'} {_box(w.rect)} sits on the edge of "
                               f"the box {_box(q.rect)} of {q.owner}")  # fmt: skip
        words = [t for t in all_texts if not (t.owner.startswith("PlayerPlates")
                                              and t.label not in names)]  # fmt: skip
        for bubble in (b for b in drawn if b.kind is BoxKind.BUBBLE):
            for k in bubble.rect.collidelistall([t.rect for t in words]):
                t = words[k]  # a plate's figures may lie under its speaker's bubble
                own = t.owner == "sprites.bubble_image" and t.label in bubble.label
                if t.order < bubble.order and not own:
                    out.append(f"bubble {bubble.label!r} {_box(bubble.rect)} covers {_name(t)}")
            for k in bubble.rect.collidelistall(wrects):
                w = ws[k]
                out.append(f"bubble {bubble.label!r} {_box(bubble.rect)} covers widget "
                           f"{w.name or '?'} {_box(w.rect)}")  # fmt: skip
    return out


TEXT_SIZE_NAMES = tuple(TEXT_SIZES)


def current_fit() -> Fit:
    return Fit(table_layout.ARRANGEMENT, THEME.min_px)


def set_text(app, text_size: str, fit: Fit) -> None:
    """Lay every scene on the stack out again at a text size, a readable minimum and the
    table's layout for them (as `App.fit_text` does)."""
    table_layout.use(fit.arrangement)
    THEME.configure(text_scale=TEXT_SIZES[text_size], min_px=fit.min_px)
    for scene in app.stack.scenes:
        scene.relayout()


def audit(app, lang: str, text_sizes, fits, lesson=True) -> tuple[int, list[str]]:
    """Every state in `lang`, drawn at each text size and minimum (the lesson's steps at
    one minimum each, in turn): (combinations, faults)."""
    report, combos = [], 0
    states = [(s, fits) for s in (*STILLS, *TIPS)]
    if lesson:
        lessons = (*LESSON, *LESSON_TIPS)
        states += [(s, fits[i % len(fits) :][:1]) for i, s in enumerate(lessons)]
    try:
        for state, mins in states:
            use_language(app, lang)
            set_text(app, "normal", FITS[0])
            explained = build(app, state)
            for size in text_sizes:
                for fit in mins:
                    set_text(app, size, fit)
                    explained = hover_again(app, state, explained)
                    with probe.probing(app.screen) as p:
                        THEME.epoch += 1
                        app.draw()
                    screens = [s for s, k in SCREENS.items() if fit_of(k) == fit]
                    combos += len(screens)
                    where = f"[{state}/{lang}/{size}/{fit.name}]"
                    names = getattr(app.stack.top, "names", ())
                    found = problems(app, p, explained) + placement_problems(p, names)
                    report += [f"{where} {msg}" for msg in found]
    finally:
        set_text(app, "normal", FITS[0])
        use_language(app, "en")
    return combos, report


@pytest.mark.parametrize("lang", LANGS)
def test_layout_audit(app, lang):
    combos, report = audit(app, lang, TEXT_SIZE_NAMES, FITS)
    print(f"layout audit {lang}: {combos} state x text size x screen combinations")
    assert not report, f"{len(report)} layout faults:\n" + "\n".join(sorted(set(report))[:80])


def test_longest_language_fits(app):
    combos, report = audit(app, "longest", ("normal",), FITS[:1], lesson=False)
    assert not report, f"{len(report)} layout faults:\n" + "\n".join(sorted(set(report)))


def test_small_screens_use_the_compact_layout(app):
    """A 1280x720 screen and a 1152x648 window take the compact layout at 20 px (what
    `App.fit_text` chooses from the window's scale), 1366x768 and up the standard one at
    18 px; on the compact table the log is folded to its column at the right edge, the hand
    has its wider room, and every text is at least 12 screen px at both small sizes."""
    assert [f.name for f in FITS] == ["standard 18px", "compact 20px"]
    assert fit_of(SCREENS[(1366, 768)]) == Fit(table_layout.STANDARD, 18)
    small = {size: SCREENS[size] for size in ((1280, 720), (1152, 648))}
    try:
        for size, scale in small.items():
            pygame.display.set_mode(size)  # the dummy driver's window at that size
            app.window.resized()
            app.fit_text()
            assert app.window.scale == pytest.approx(scale)
            assert current_fit() == Fit(table_layout.COMPACT, 20), size
            clear_scenes(app)
            screenshot.render(app, "table")
            with probe.probing(app.screen) as p:
                THEME.epoch += 1
                app.draw()
            tiny = [t for t in p.texts if t.final_px * scale < MIN_SCREEN_PX]
            assert p.texts and not tiny, (size, tiny[:5])
            least = min(t.final_px for t in p.texts) * scale
            print(f"{size}: smallest text {least:.1f} screen px")
            log = [b for b in p.boxes if b.kind is BoxKind.TEXT and b.owner.startswith("LogPanel")]
            folded = table_layout.COMPACT.log
            assert log and all(folded.x <= b.rect.x and b.rect.right <= folded.right for b in log)
            table = app.stack.top
            cards = [table.hand.card_rect(i) for i in range(len(table.hand.cards))]
            middle = (min(r.x for r in cards) + max(r.right for r in cards)) / 2
            assert abs(middle - table_layout.COMPACT.hand.centerx) < 30, middle  # not 648
            assert all(r.right <= table_layout.COMPACT.hand.right for r in cards)
    finally:
        pygame.display.set_mode(LOGICAL_SIZE)
        app.window.resized()
        app.fit_text()
        set_text(app, "normal", FITS[0])
    assert current_fit() == Fit(table_layout.STANDARD, 18)


def test_probe_finds_texts_drawn_into_images(app):
    """A text drawn into an image (a button's face) is found inside the button where the
    image lands on the canvas; what a dialog's veil covers is in an earlier layer."""
    clear_scenes(app)
    screenshot.render(app, "table")
    with probe.probing(app.screen) as p:
        THEME.epoch += 1
        app.draw()
    stop = next(w for w in p.widgets if w.name == "win.stop")
    words = [b for b in p.boxes if b.kind is BoxKind.TEXT and stop.rect.contains(b.rect)]
    assert words and words[0].owner == "widgets._button_surface", words
    clear_scenes(app)
    screenshot.render_crowded(app, "pause")
    with probe.probing(app.screen) as p:
        THEME.epoch += 1
        app.draw()
    under, *over = layers(p.boxes)
    assert over and under and all(b.order < over[0][0].order for b in under)


def control_label_faults(p: probe.LayoutProbe) -> list[str]:
    """Each control's own words (a button's face, a toggle's label): inside the control,
    clear of its other words (the key cap), never cut short with "…"."""
    cut = {c.shown for c in p.cuts}
    out = []
    for w in p.widgets:
        words = [b for b in p.boxes if b.kind is BoxKind.TEXT and b.rect.w and b.rect.h
                 and b.order > w.order and (b.owner_id == w.owner or (
                     b.owner == "widgets._button_surface" and w.rect.contains(b.full)))]  # fmt: skip
        for i, b in enumerate(words):
            if not w.rect.contains(b.rect) or b.rect.clip(b.shown) != b.rect:
                out.append(f"{w.name}: {b.label!r} {_box(b.rect)} leaves {_box(w.rect)}")
            if b.label in cut:
                out.append(f"{w.name}: its label cut to {b.label!r}")
            for c in words[i + 1 :]:
                if c.label != b.label and b.rect.inflate(2 * GAP, 0).colliderect(c.rect):
                    out.append(f"{w.name}: {b.label!r} runs into {c.label!r}")
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_control_labels_fit_at_large(app, lang):
    """At Large, at both readable minimums, every button's and toggle's label in every
    still fits its control whole: Thai 'Propose' inside its short row button, 'Going
    once…' clear of its key cap, the ask toggle's label on two lines without "…"."""
    faults, labels = [], 0
    try:
        for state in STILLS:
            use_language(app, lang)
            set_text(app, "normal", FITS[0])
            build(app, state)
            for fit in FITS:
                set_text(app, "large", fit)
                with probe.probing(app.screen) as p:
                    THEME.epoch += 1
                    app.draw()
                labels += len(p.widgets)
                faults += [f"[{state}/{fit.name}] {f}" for f in control_label_faults(p)]
    finally:
        set_text(app, "normal", FITS[0])
        use_language(app, "en")
    assert labels > 500, labels  # the stills' controls were seen
    assert not faults, f"{len(faults)} control labels cut:\n" + "\n".join(sorted(set(faults)))
