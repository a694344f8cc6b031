"""The table display (`main.py table`) is read from across a room: every text at least a
TV's 24 px, every part of the table at its own size, the room code and the address in
the hand's place (nobody holds a hand at a TV), a square left free beside the code for a
code phones can scan."""

from __future__ import annotations

import pygame
import pytest

from game.ui.drawing.theme import LOGICAL_SIZE, THEME
from game.ui.table import display
from game.ui.table import layout as table_layout
from tools import layout_probe as probe
from tools import screenshot
from tools.autoplay import clear_scenes, make_app
from tools.layout_probe import BoxKind


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    app = make_app(tmp_path_factory.mktemp("display"), speed="fast")
    app.screen = app.window.canvas = probe.ProbeCanvas(LOGICAL_SIZE)
    yield app
    clear_scenes(app)
    app.shutdown()


def drawn(app) -> list[probe.DrawnBox]:
    with probe.probing(app.screen) as p:
        THEME.epoch += 1
        app.draw()
    return [b for b in p.boxes if b.kind is BoxKind.TEXT and b.rect.w and b.rect.h]


def board_span(texts) -> int:
    words = [b.rect for b in texts if b.owner == "board.draw_space"]  # the spaces' words
    assert words, "the board's spaces were seen"
    return max(r.bottom for r in words) - min(r.top for r in words)


@pytest.mark.parametrize("phones", [False, True])
def test_the_join_strip_stands_in_the_hands_place(app, phones):
    """Nobody holds a hand at a TV: the room code and the address stand in the hand's place,
    under the board's spaces and clear of the log, and the board is drawn no smaller than
    at a player's table (grown 1.17x, it once narrowed the panel and the log to 14 px)."""
    clear_scenes(app)
    screenshot.render(app, "table")
    at_table = board_span(drawn(app))
    clear_scenes(app)
    screenshot.render(app, "display")
    if not phones:
        app.stack.top.session.phone_url = None
    texts = drawn(app)
    assert board_span(texts) >= at_table, (board_span(texts), at_table)
    session = app.stack.top.session
    code = [b for b in texts if b.label == " ".join(session.code)]
    address = [b for b in texts if b.label == session.address]
    assert code and address
    strip = display.strip_rect()
    spaces = [b.rect for b in texts if b.owner == "board.draw_space"]
    log = [b.rect for b in texts if b.owner.startswith("LogPanel")]
    assert strip.top >= max(r.bottom for r in spaces) and strip.bottom <= LOGICAL_SIZE[1]
    assert log and not any(strip.colliderect(r) for r in log)
    assert all(strip.contains(b.rect) for b in code + address)


def test_a_square_beside_the_code_is_left_free(app):
    """The strip leaves a square at its left end, beside the room code, that no word
    touches: the place for a code phones can scan."""
    clear_scenes(app)
    screenshot.render(app, "display")
    scene = app.stack.top
    strip = display.strip_rect()
    slot = scene.strip.code_slot(strip)
    assert slot.width == slot.height >= 60 and strip.contains(slot)
    texts = drawn(app)
    code = next(b for b in texts if b.label == " ".join(scene.session.code))
    assert slot.right < code.rect.x and abs(slot.centery - strip.centery) <= 2
    assert not [b.label for b in texts if b.rect.colliderect(slot)]
    assert all(not pygame.Rect(slot).colliderect(b.rect) for b in texts)


TV_LEAST_PX = 24  # a 10-foot UI's body text at 1080p (docs/UI.md, "Table display")
# the table's layout and readable minimum on each screen (App.fit_text): 1366x768 and up,
# and a 1280x720 screen (the layout audit's FITS)
FITS = {"standard 18px": (table_layout.STANDARD, 18), "compact 20px": (table_layout.COMPACT, 20)}


def fit_screen(app, fit: str) -> None:
    """Lay the stack out as App.fit_text does on that screen."""
    arrangement, min_px = FITS[fit]
    table_layout.use(arrangement)
    THEME.configure(min_px=min_px)
    for scene in app.stack.scenes:
        scene.relayout()


def show_display(app, players: int) -> None:
    """The scripted negotiation on the table display (screenshot.render's "display" at
    five players), settled."""
    from game.ui.sessions.lan import make_table

    session = screenshot.still_session(seat=None, players=players)
    session.update(0.0)
    screenshot._still(app, make_table(app, session))
    screenshot._frames(app, 20)


@pytest.mark.parametrize("players", [5, 6])
@pytest.mark.parametrize("lang", ["en", "th", "zh_Hant"])
@pytest.mark.parametrize("fit", FITS)
def test_every_text_is_readable_across_the_room(app, lang, fit, players):
    """Mid-negotiation with five or six players (offers on the table, the Boss's window
    counting down), every text the display draws, plates, board, panel, log and join
    strip, is at least TV_LEAST_PX logical px: 24 px on a 1920x1080 TV, and on a 1280x720
    one (the compact fit) the same height on the screen's glass. It measured 14 px (the
    log), 16 to 17 (the panel's rows), 18 (the plates) at 1920x1080."""
    try:
        app.set_language(lang)
        fit_screen(app, "standard 18px")
        clear_scenes(app)
        show_display(app, players)
        fit_screen(app, fit)
        texts = [b for b in drawn(app) if b.label.strip()]
        least: dict[str, int] = {}
        for b in texts:
            part = b.owner.split(".")[0]
            least[part] = min(least.get(part, b.px), b.px)
        assert {"PlayerPlates", "LogPanel", "rows", "JoinStrip"} <= least.keys(), least
        small = {part: px for part, px in least.items() if px < TV_LEAST_PX}
        assert not small, (small, [(b.label, b.owner, b.px) for b in texts if b.px < TV_LEAST_PX][:8])
    finally:
        clear_scenes(app)
        fit_screen(app, "standard 18px")
        app.set_language("en")


def test_a_small_tv_keeps_the_displays_layout_and_leaving_gives_the_window_its_own(app):
    """On a 1280x720 TV the display keeps the standard layout at 24 px (the compact one
    folds the log to make room for a hand nobody holds here); once it is closed, the
    window's own layout and minimum come back (compact, 20 px)."""
    try:
        clear_scenes(app)
        pygame.display.set_mode((1280, 720))  # the dummy driver's window at that size
        app.window.resized()
        screenshot.render(app, "display")
        app.fit_text()
        assert table_layout.ARRANGEMENT is table_layout.STANDARD
        assert THEME.min_px == TV_LEAST_PX
        texts = drawn(app)
        log = [b.rect for b in texts if b.owner.startswith("LogPanel")]
        assert log and min(r.x for r in log) < table_layout.COMPACT.log.x  # not folded
        clear_scenes(app)
        assert table_layout.ARRANGEMENT is table_layout.COMPACT and THEME.min_px == 20
    finally:
        clear_scenes(app)
        pygame.display.set_mode(LOGICAL_SIZE)
        app.window.resized()
        app.fit_text()
    assert table_layout.ARRANGEMENT is table_layout.STANDARD and THEME.min_px == 18
