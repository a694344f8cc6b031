"""A text field reads as a place to write, not as a value shown: while it is not being typed
in, a pencil stands at its right end (a newcomer took the New game screen's name fields for
values); while it is focused the pencil gives its room to the text and the caret."""

from __future__ import annotations

import pygame

from game.ui.drawing import theme
from game.ui.drawing.widgets import PENCIL_ROOM, TextField

BG = (0, 0, 0)


def _drawn(focused: bool) -> tuple[pygame.Surface, TextField]:
    pygame.init()
    surface = pygame.Surface((300, 60))
    surface.fill(BG)
    field = TextField((10, 5, 280, 50), lambda: "", lambda s: None, placeholder="Bruno")
    if focused:
        TextField.focused_field = field
    try:
        field.draw(surface, 0.75)  # the caret's off half-second
    finally:
        TextField.focused_field = None
    return surface, field


def _pencil_pixels(surface: pygame.Surface, field: TextField) -> int:
    cx = field.rect.right - 12 - PENCIL_ROOM // 2
    hint = pygame.Color(theme.HINT)
    return sum(
        1
        for x in range(cx - 10, cx + 11)
        for y in range(field.rect.centery - 8, field.rect.centery + 13)
        if surface.get_at((x, y))[:3] == hint[:3]
    )


def test_a_field_not_typed_in_shows_a_pencil():
    surface, field = _drawn(focused=False)
    assert _pencil_pixels(surface, field) >= 20


def test_a_focused_field_gives_the_pencils_room_to_the_text():
    surface, field = _drawn(focused=True)
    assert _pencil_pixels(surface, field) == 0
