"""The table display (`main.py table`) gives the TV to the board: the board drawn larger
than at a player's table, the room code and the address in a strip along the screen's
foot, a square left free beside the code for a code phones can scan."""

from __future__ import annotations

import pygame
import pytest

from game.ui import probe, screenshot
from game.ui.autoplay import clear_scenes, make_app
from game.ui.probe import BoxKind
from game.ui.theme import LOGICAL_SIZE, THEME


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


@pytest.mark.parametrize("phones", [False, True])
def test_the_board_takes_the_screen_and_the_join_strip_stays_small(app, phones):
    """On a 1920x1080 TV the board's spaces span at least 15% more than the table's 684 px
    (it was not enlarged), and the room code's strip takes at most a tenth of the screen's
    height (it took a fifth); with a phone page, whose QR code needs a taller strip, 10%
    more and an eighth."""
    def board_span(texts) -> int:
        words = [b.rect for b in texts if b.owner == "board.draw_space"]  # the spaces' words
        assert words, "the board's spaces were seen"
        return max(r.bottom for r in words) - min(r.top for r in words)

    screenshot.render(app, "table")
    at_table = board_span(drawn(app))
    screenshot.render(app, "display")
    if not phones:
        app.stack.top.session.phone_url = None
    texts = drawn(app)
    assert board_span(texts) >= (1.10 if phones else 1.15) * at_table, (board_span(texts), at_table)
    session = app.stack.top.session
    code = [b for b in texts if b.label == " ".join(session.code)]
    address = [b for b in texts if b.label == session.address]
    assert code and address
    strip_top = min(b.rect.top for b in code + address)
    assert strip_top >= LOGICAL_SIZE[1] * (0.875 if phones else 0.9) - 20, strip_top


def test_a_square_beside_the_code_is_left_free(app):
    """The strip leaves a square at its left end, beside the room code, that no word
    touches: the place for a code phones can scan."""
    screenshot.render(app, "display")
    scene = app.stack.top
    strip = scene.arrangement().strip
    slot = scene.strip.code_slot(strip)
    assert slot.width == slot.height >= 60 and strip.contains(slot)
    texts = drawn(app)
    code = next(b for b in texts if b.label == " ".join(scene.session.code))
    assert slot.right < code.rect.x and abs(slot.centery - strip.centery) <= 2
    assert not [b.label for b in texts if b.rect.colliderect(slot)]
    assert all(not pygame.Rect(slot).colliderect(b.rect) for b in texts)
