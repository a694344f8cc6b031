"""The desktop's side of phones at the table: the phone page's QR code (game/ui/drawing/qr.py) holds
the address module for module, the table display and the room show it with "Scan to play
on your phone", and the plates and the room say who plays on a phone."""

from __future__ import annotations

import pygame
import pytest
import segno

from game.ui import i18n
from game.ui.drawing.qr import QUIET_ZONE, qr_modules, qr_surface
from tools import layout_probe as probe
from tools.autoplay import make_app
from tools.screenshot import render

URL = "http://192.168.1.5:8700/?code=KMRT"  # the stills' (tools/screenshot.py)


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    app = make_app(tmp_path_factory.mktemp("phones"))
    yield app
    app.shutdown()


def test_the_qr_code_is_the_addresss_matrix_in_whole_pixels_with_its_quiet_zone():
    want = [[bool(m) for m in row] for row in segno.make(URL, error="m").matrix]
    assert qr_modules(URL) == want
    surf = qr_surface(URL, 200)
    count = len(want) + 2 * QUIET_ZONE
    scale = surf.get_width() // count
    assert scale >= 4 and surf.get_width() == surf.get_height() == count * scale <= 200
    read = [
        [surf.get_at(((x + QUIET_ZONE) * scale + scale // 2,
                      (y + QUIET_ZONE) * scale + scale // 2))[:3] == (0, 0, 0)
         for x in range(len(want))]
        for y in range(len(want))
    ]  # fmt: skip
    assert read == want
    border = [surf.get_at((i, 0))[:3] for i in range(surf.get_width())]
    assert set(border) == {(255, 255, 255)}  # the quiet zone is light


def _texts(app, scene: str) -> list[str]:
    while app.stack.top is not None:
        app.stack.pop()
    with probe.probing() as p:  # from the first frame: cached pictures are drawn once
        render(app, scene)
    return [t.text for t in p.texts]


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_the_display_and_the_room_show_the_phone_page(app, lang):
    app.set_language(lang)
    for scene in ("display", "room"):
        texts = _texts(app, scene)
        joined = "".join(texts).replace(" ", "")  # the words, wrapped over lines
        assert i18n.tr("display.scan_phone").replace(" ", "") in joined, (scene, texts)
        assert "192.168.1.5:8700" in texts, scene
        assert app.stack.top.session.phone_url == URL


def test_who_plays_on_a_phone_is_shown_on_the_plates_and_in_the_room(app):
    app.set_language("en")
    texts = _texts(app, "display")
    assert i18n.tr("player.phone") in texts
    assert app.stack.top.session.seat_info(1).phone
    assert not app.stack.top.session.seat_info(0).phone
    texts = _texts(app, "room")
    assert i18n.tr("room.connected_phone") in texts and i18n.tr("room.connected") in texts


def test_without_a_phone_page_the_join_strip_keeps_the_desktop_hint(app):
    from game.ui.table.display import JoinStrip, strip_rect

    app.set_language("en")
    strip = JoinStrip()
    rect = pygame.Rect((0, 0), strip_rect().size)
    with probe.probing() as p:
        strip.render(rect, "KMRT", "192.168.1.5:40123", 0)
    words = " ".join(t.text for t in p.texts)
    assert i18n.tr("display.scan_phone") not in words and "computer" in words
    with probe.probing() as p:
        card = strip.render(rect, "KMRT", "192.168.1.5:40123", 0, URL)
    assert isinstance(card, pygame.Surface)
    assert "192.168.1.5:8700" in {t.text for t in p.texts}
    slot = JoinStrip.code_slot(rect)  # the QR code fills the square left for it
    qr = qr_surface(URL, slot.height)
    assert qr.get_width() >= 3 * (len(qr_modules(URL)) + 2 * QUIET_ZONE)
    corner = (slot.centerx - qr.get_width() // 2 + 1, slot.centery - qr.get_height() // 2 + 1)
    assert card.get_at(corner)[:3] == (255, 255, 255)  # the quiet zone, light
