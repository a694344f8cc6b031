"""Large text scales the whole table (issue 32): every text of the table's stills is drawn
at least 10% larger at Large than at Normal (or as large as Large asks), at 1280x720 (the compact table, 20 px
minimum) and at 1920x1080 (the standard one, 18 px). A box sized in fixed pixels makes
`draw.fit` shrink its text back to the Normal size; this finds each such text."""

from __future__ import annotations

import pytest

from game.ui import probe
from game.ui.probe import BoxKind
from game.ui.table.panels import geometry
from game.ui.theme import THEME
from game.ui.widgets import KEYCAPS, keycap
from tests.ui import test_ui_layout as layout
from tests.ui.test_ui_layout import FITS, build, set_text, use_language

app = layout.app  # the layout audit's app, drawing on its probe canvas

TABLE_STILLS = ("table", "going_once", "boss_former")
GROWTH = 1.10  # Large is 1.18x: a text may lose a pixel or two to rounding, not more
# Exempt, by the width they share with no more to give: the deal's "on the table" line
# (its words end at the ledger box, the suitcases' labels at the next suitcase)
ON_TABLE_LINE = {"No cards laid, nobody travelling", "Travelling"}


def is_keycap(label: str) -> bool:
    """A shortcut's key cap on a button ("H", "Space"): never exempt as lifted to the
    minimum, since its cap has room to grow (widgets._button_surface)."""
    return (len(label) == 1 and label.isupper()) or label in {keycap(k) for k in KEYCAPS}


def is_phrase(p: probe.LayoutProbe, b: probe.DrawnBox) -> bool:
    """Whether text b is a quick phrase's label ("Too expensive"): exempt while the bottom
    row's phrases, ask toggle and Hint share the panel's width (phrase buttons grown at
    Large left the toggle room for three lines only: the control-label audit failed)."""
    return any(w.name.startswith("phrase.") and w.rect.contains(b.rect) for w in p.widgets)


def bar_room(p: probe.LayoutProbe, b: probe.DrawnBox) -> str | None:
    """Where text b sits in the bottom bar, whose width is the panel's: "full" (three or
    more buttons squeezed by geometry.bar_rects to share the bar's whole width), "slot"
    (a button of its fixed slots), or None (not a bar button's label)."""
    y = geometry.bar_rect(0, 3).y
    bar = sorted((w.rect for w in p.widgets if w.rect.y == y), key=lambda r: r.x)
    if not any(r.contains(b.rect) for r in bar):
        return None
    n = len(bar)
    room = geometry.bar_rect(n - 1, n).right - geometry.bar_rect(0, n).x
    squeezed = n >= 3 and bar[-1].right - bar[0].x >= room and len({r.width for r in bar}) > 1
    return "full" if squeezed else "slot"


def sizes(app, state: str, text_size: str, fit) -> dict[tuple[str, str], tuple[int, bool, str]]:
    """Each text of `state` drawn at `text_size`: (its string, its owner) -> (its largest
    px, whether `fit` shrank it below the size asked, its place in the bar), the words of
    ON_TABLE_LINE and the quick phrases left out."""
    set_text(app, text_size, fit)
    with probe.probing(app.screen) as p:
        THEME.epoch += 1
        app.draw()
    shrunk = {t.text for t in p.texts if t.final_px < t.requested_px}
    out: dict[tuple[str, str], tuple[int, bool, str | None]] = {}
    for b in p.boxes:
        exempt = b.label in ON_TABLE_LINE or is_phrase(p, b)
        if b.kind is BoxKind.TEXT and b.px and b.label.strip() and not exempt:
            key = (b.label, b.owner)
            px = max(out.get(key, (0,))[0], b.px)
            out[key] = (px, b.label in shrunk, bar_room(p, b))
    return out


@pytest.mark.parametrize("fit", FITS, ids=lambda f: f.name)
def test_large_text_scales_the_table(app, fit):
    """Paired by string and owner, every table text at Large is >= 10% larger than at
    Normal, or drawn at the full size Large asks for (one lifted to the readable minimum
    at Normal grows from its own size: 20 -> 21 px at 1280x720): none is held back by a
    box of fixed width."""
    small, paired, floored = [], 0, 0
    try:
        for state in TABLE_STILLS:
            use_language(app, "en")
            set_text(app, "normal", fit)
            build(app, state)
            normal = sizes(app, state, "normal", fit)
            large = sizes(app, state, "large", fit)
            for key in normal.keys() & large.keys():
                paired += 1
                (was, tight, _), (now, held, bar) = normal[key], large[key]
                # exempt: a squeezed bar's labels, and a bar slot's label that filled its
                # slot already at Normal ("Let the deal close")
                if bar == "full" or (bar == "slot" and tight):
                    continue
                if now < was * GROWTH and (held or is_keycap(key[0])):
                    small.append(f"[{state}] {key[0]!r} ({key[1]}): {was} px -> {now} px")
                floored += now < was * GROWTH and not held and not is_keycap(key[0])
    finally:
        set_text(app, "normal", FITS[0])
    print(f"{fit.name}: {paired} texts paired, {floored} lifted to the minimum at Normal")
    assert paired > 150, paired  # the stills' texts were seen at both sizes
    assert not small, f"{len(small)} of {paired} texts not larger at Large:\n" + "\n".join(
        sorted(set(small)))
