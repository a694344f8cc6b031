"""Labels over labels the layout audit cannot see (tests/ui/test_ui_layout.py): parts drawn into
cached images made before its probe starts (the negotiation panel's static layer), checked
here by drawing them straight onto a probed canvas, in every language at Large text."""

from __future__ import annotations

from dataclasses import replace

import pygame
import pytest

from game.ui import i18n
from game.ui.config import TEXT_SIZES
from game.ui.drawing import fonts
from game.ui.drawing.theme import LOGICAL_SIZE, THEME
from tools import layout_probe as probe
from tools import screenshot
from tools.autoplay import make_app
from tools.layout_probe import BoxKind

LANGS = ("en", "zh_Hant", "zh_Hans", "th")
GAP = 3  # lines closer than this read as one


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    app = make_app(tmp_path_factory.mktemp("overlap"), speed="fast")
    yield app
    for scene in reversed(app.stack.scenes):
        app.stack.scenes.remove(scene)
        scene.exit()
    app.shutdown()


@pytest.fixture
def large(app):
    """Each language at Large text and the roomiest readable minimum (20 px)."""

    def use(lang: str) -> None:
        app.set_language(lang)
        i18n._default._table = i18n.table(lang)
        THEME.configure(text_scale=TEXT_SIZES["large"], min_px=20)

    yield use
    THEME.configure(text_scale=TEXT_SIZES["normal"], min_px=18)
    app.set_language("en")
    i18n._default._table = i18n.table("en")


def texts(p: probe.LayoutProbe) -> list[probe.DrawnBox]:
    return [b for b in p.boxes if b.kind is BoxKind.TEXT and b.rect.w and b.rect.h]


@pytest.mark.parametrize("lang", LANGS)
def test_laid_cards_owners_keep_off_the_rows_header(app, large, lang):
    """The owner's name under each Clan card laid on the table stays above the rows'
    "Agreement" / "Pending" header (it sat on it at Large text)."""
    from game.ui.table.panels.deal import render_deal
    from game.ui.table.panels.geometry import laid_rects

    large(lang)
    screenshot.render(app, "table")
    table = app.stack.top
    v = table.seen
    assert v.negotiation.laid, "the scripted table has a Clan card laid"
    owners = {c.owner for c in v.negotiation.laid}  # a default name: "Player 5" reaches below
    v = replace(v, players=tuple(  # the line
        replace(pl, name=i18n.tr("player.default_name", n=pl.seat + 1)) if pl.seat in owners
        else pl for pl in v.players))  # fmt: skip
    canvas = probe.ProbeCanvas(LOGICAL_SIZE)
    with probe.probing(canvas) as p:
        render_deal(canvas, v, table.session.viewer, laid_rects(v), 0, 0)
    names = {v.players[c.owner].name for c in v.negotiation.laid}
    heads = {i18n.tr("term.agreement"), i18n.tr("table.pending")}
    owners = [b for b in texts(p) if b.label in names and b.rect.y < laid_rects(v)[0].bottom + 40]
    header = [b for b in texts(p) if b.label in heads]
    assert owners and len(header) == 2
    for o in owners:
        for h in header:
            assert not o.rect.inflate(0, 2 * GAP).colliderect(h.rect), (o.label, o.rect, h.rect)


@pytest.mark.parametrize("lang", LANGS)
def test_ledger_lines_keep_apart_and_keep_the_warning(app, large, lang):
    """The Boss's ledger box on space 7, warned that a proposal to Bruno covers S/L a second
    time: no line's ink touches the next at Large text (Thai marks ran into the line above
    at 25 px a line), and the warning is still there when fewer lines fit."""
    large(lang)
    screenshot.render_crowded(app, "ledger_redundant")
    p = probe_table(app)
    lines = [b for b in texts(p) if b.owner == "LedgerBox"]
    assert len(lines) >= 5  # six of them, the last row left out at Large's 25 px lines
    for i, a in enumerate(lines):
        for b in lines[i + 1 :]:
            assert not a.rect.colliderect(b.rect), (a.label, a.rect, b.label, b.rect)
    template = i18n.table(lang)["table.ledger.row_filled"]
    warning = template[: min(template.index("{group}"), template.index("{clans}"))]
    assert any(b.label.startswith(warning) for b in lines), [b.label for b in lines]


def test_six_players_rows_end_above_the_banner(app):
    """With six players the five rows (and their buttons) end above the window's banner
    and the countdown's seconds: the last row sat under the banner, its Propose button
    under '4 s'."""
    from game.ui.table.panels.geometry import banner_top, row_seats, rows_top
    from game.ui.table.panels.window import countdown_rect

    screenshot.render_crowded(app, "table_6p")
    table = app.stack.top
    assert len(row_seats(table.seen)) == 5
    buttons = [w for w in table.widgets if w.name.startswith("neg.")]
    assert len({w.rect.y for w in buttons}) == 5, "a button in every row"
    assert all(w.rect.top >= rows_top() and w.rect.bottom <= banner_top() for w in buttons)
    assert banner_top() < countdown_rect("window").top - 30  # the seconds sit in the banner


@pytest.mark.parametrize("players", ["table", "table_6p"])
def test_bubbles_keep_off_the_panel_title_and_the_board(app, large, players):
    """A speech or a payment bubble over any player's plate, the longest at Large text,
    covers neither the panel's title ("Deal on space 2", "Bruno's turn") nor the board's
    top row: it hung 50 px into both."""
    from game.ui.table import layout as L
    from game.ui.table.sprites import Bubble

    large("en")
    if players == "table":
        screenshot.render(app, "table")
    else:
        screenshot.render_crowded(app, players)
    table = app.stack.top
    seats = range(len(table.seen.players))
    title_band = pygame.Rect(L.RIGHT.x, L.RIGHT.y + 18, L.RIGHT.width, 40)
    for t in (0.0, 1.0):  # as it appears and once it has risen
        table.director.bubbles = [Bubble(s, i18n.tr("phrase.last_offer"), t=t) for s in seats]
        canvas = probe.ProbeCanvas(LOGICAL_SIZE)
        with probe.probing(canvas) as p:
            table.director.draw_bubbles(canvas, table.seat_anchor, table.plates.rects.__getitem__)
        bubbles = [b.rect for b in p.boxes if b.kind is BoxKind.BUBBLE]
        assert len(bubbles) == len(seats)
        for r in bubbles:
            assert not r.colliderect(title_band) and r.bottom <= L.BOARD.y, (t, r)
    table.director.bubbles = []


def test_title_with_continue_keeps_its_rows_and_cards_apart(app):
    """On the title with Continue and Saved games, Settings' row stands clear of 'Play on
    the network' (it touched it), and no drifting card passes under a button (one sat
    under Settings), over a minute of drifting."""
    from game.ui.scenes.common import drifting_cards

    screenshot.render(app, "title_saved")
    title = app.stack.top
    by_name = {w.name: w.rect for w in title.widgets}
    assert "title.continue" in by_name
    assert by_name["title.settings"].top - by_name["title.lan"].bottom >= 24
    for step in range(0, 600):
        for img, rect in drifting_cards(step / 10):
            ink = img.get_bounding_rect().move(rect.topleft)
            over = [n for n, r in by_name.items() if r.colliderect(ink)]
            assert not over, (step / 10, ink, over)


@pytest.mark.parametrize("lang", LANGS)
def test_results_headings_end_left_of_the_chart(app, large, lang):
    """The ranking's headings ('Deals closed as Boss') end left of the chart's panel, which
    is drawn over them (the heading ran 50 px under it), and above the first row."""
    from game.ui.scenes.results import CHART

    large(lang)
    screenshot.render(app, "results")
    canvas = probe.ProbeCanvas(LOGICAL_SIZE)
    with probe.probing(canvas) as p:
        THEME.epoch += 1
        app.stack.top.draw(canvas)
    words = i18n.tr("results.deals_as_boss")
    heads = [b for b in texts(p) if b.rect.bottom < 290 and b.label.strip() in words]
    assert "".join(b.label for b in heads).replace(" ", "") == words.replace(" ", "")
    chart = CHART.inflate(20, 20)
    for b in heads:
        assert b.rect.right < chart.x and b.rect.bottom < 290, (b.label, b.rect)


@pytest.mark.parametrize("lang", LANGS)
def test_six_players_bubbles_at_once_stay_apart(app, large, lang):
    """Six players speaking at once, the longest phrase at Large text, and one of them paid
    at the same moment: no bubble lies over another (they ran 150 px into their
    neighbours' and a payment sat on its speaker's words: one blob), each stays over its
    own plate and under the plate's name."""
    from game.ui.table import layout as L
    from game.ui.table.sprites import Bubble, phrase_bubble

    large(lang)
    screenshot.render_crowded(app, "table_6p")
    table = app.stack.top
    seats = range(len(table.seen.players))
    phrases = [k for k in i18n.table(lang) if k.startswith("phrase.")]
    longest = max(phrases, key=lambda k: fonts.text_size(i18n.tr(k), lang, 26, True)[0])
    for t in (0.0, 1.0):
        table.director.bubbles = [phrase_bubble(s, longest, t=t + 0.1) for s in seats]
        table.director.bubbles.append(Bubble(0, i18n.tr("money.amount", n=4), t=t))
        canvas = probe.ProbeCanvas(LOGICAL_SIZE)
        with probe.probing(canvas) as p:
            table.director.draw_bubbles(canvas, table.seat_anchor, table.plates.rects.__getitem__)
        bubbles = [b for b in p.boxes if b.kind is BoxKind.BUBBLE]
        assert {b.label for b in bubbles} >= {i18n.tr("money.amount", n=4)}
        for i, a in enumerate(bubbles):
            for b in bubbles[i + 1 :]:
                assert not a.rect.colliderect(b.rect), (t, a.label, a.rect, b.label, b.rect)
        plates = L.player_rects(len(seats))
        names = [b for b in texts(probe_table(app)) if b.owner.startswith("PlayerPlates")
                 and b.label in {pl.name for pl in table.seen.players}]  # fmt: skip
        for b in bubbles:
            assert any(pl.x <= b.rect.x and b.rect.right <= pl.right for pl in plates), b
            assert b.rect.bottom <= L.BOARD.y, b
            for n in names:
                assert not b.rect.colliderect(n.rect), (b.label, b.rect, n.label, n.rect)
    table.director.bubbles = []


def probe_table(app) -> probe.LayoutProbe:
    canvas = app.screen
    app.screen = app.window.canvas = probe.ProbeCanvas(LOGICAL_SIZE)
    try:
        with probe.probing(app.screen) as p:
            THEME.epoch += 1
            app.draw()
    finally:
        app.screen = app.window.canvas = canvas
    return p


@pytest.mark.parametrize("lang", LANGS)
def test_rows_header_stands_above_the_first_row(app, large, lang):
    """The rows' header ("Agreement", "Offer / proposal") ends above the first player's
    row at Large text on either layout: the row's band cut through it at 1280x720."""
    from game.ui.table import layout as table_layout
    from game.ui.table.panels.deal import render_deal
    from game.ui.table.panels.geometry import laid_rects, rows_top

    large(lang)
    heads = {i18n.tr("term.agreement"), i18n.tr("table.pending")}
    try:
        for arrangement, min_px in ((table_layout.STANDARD, 20), (table_layout.COMPACT, 20)):
            table_layout.use(arrangement)
            THEME.configure(min_px=min_px)
            screenshot.render(app, "table")
            v = app.stack.top.seen
            canvas = probe.ProbeCanvas(LOGICAL_SIZE)
            with probe.probing(canvas) as p:
                render_deal(canvas, v, app.stack.top.session.viewer, laid_rects(v), 0, 0)
            header = [b for b in texts(p) if b.label in heads]
            assert len(header) == 2
            for h in header:
                assert h.rect.bottom <= rows_top() - 2, (arrangement.name, h.label, h.rect)
    finally:
        table_layout.use(table_layout.STANDARD)


def test_rows_header_sits_on_a_rule_over_the_rows(app):
    """The rows' header ("Agreement", "Offer / proposal") stands on a rule across the rows'
    width, so it reads as the head of the rows under it: drawn in the owners' size and colour
    just under the laid cards, a newcomer read it as the cards' caption ("Ann / Agreement")."""
    from game.ui.table import layout as table_layout
    from game.ui.table.panels.deal import render_deal
    from game.ui.table.panels.geometry import laid_rects, rows_top

    screenshot.render(app, "table")
    table = app.stack.top
    v = table.seen
    assert v.negotiation.laid, "the scripted table has a Clan card laid"
    canvas = pygame.Surface(LOGICAL_SIZE)
    canvas.fill((0, 0, 0))
    render_deal(canvas, v, table.session.viewer, laid_rects(v), 0, 0)
    y = rows_top() - 2
    right = table_layout.RIGHT
    xs = range(right.x + 24, right.right - 24, 4)
    lit = [x for x in xs if sum(canvas.get_at((x, y))[:3]) > 60]
    assert len(lit) >= 0.9 * len(xs), (len(lit), len(xs))


def test_a_toast_keeps_off_the_panels_buttons(app):
    """A short notice ("Mei is away") stands over the board, above the hand: centred on
    the whole window it lay across the panel's phrase buttons ("Too expensive")."""
    screenshot.render(app, "table")
    table = app.stack.top
    text = i18n.tr("net.dropped", name="Mei")
    table.toast = (text, 3.0, "info")
    p = probe_table(app)
    (label,) = [b for b in texts(p) if b.label == text]
    panel = next(
        b.rect for b in reversed(p.boxes)
        if b.kind is BoxKind.PANEL and b.rect.contains(label.rect)
    )
    buttons = [w.rect for w in table.widgets if getattr(w, "visible", True)]
    assert buttons and not [r for r in buttons if r.colliderect(panel)], panel
