"""The phone page's address as a QR code, drawn in pygame from segno's module matrix.

    card = phone_card(url, pygame.Rect(...))     # the code, "Scan to play on your phone"
    surface.blit(card, rect)                      # and the address, in one square-ish box

segno makes the code (error correction M: a TV's glare or a finger on the screen can hide
15% of it); the modules are drawn whole pixels wide, black on white with the four-module
quiet zone a camera needs on a dark table, so the picture stays sharp at any size.
"""

from __future__ import annotations

from functools import lru_cache

import pygame
import segno

from . import draw
from .i18n import tr
from .theme import TEXT, TEXT_DIM

QUIET_ZONE = 4  # modules of white around the code (ISO/IEC 18004)
DARK = (0, 0, 0)
LIGHT = (255, 255, 255)


def qr_modules(url: str) -> list[list[bool]]:
    """The code's modules, row by row (True: dark), without the quiet zone."""
    return [[bool(m) for m in row] for row in segno.make(url, error="m", micro=False).matrix]


@lru_cache(maxsize=8)
def qr_surface(url: str, size: int) -> pygame.Surface:
    """The code, quiet zone included, as large as whole-pixel modules allow within ``size``
    pixels square (never below one pixel a module)."""
    rows = qr_modules(url)
    count = len(rows) + 2 * QUIET_ZONE
    scale = max(1, size // count)
    surf = pygame.Surface((count * scale, count * scale))
    surf.fill(LIGHT)
    for y, row in enumerate(rows):
        for x, dark in enumerate(row):
            if dark:
                cell = ((x + QUIET_ZONE) * scale, (y + QUIET_ZONE) * scale, scale, scale)
                surf.fill(DARK, cell)
    return surf


def phone_card(url: str, rect: pygame.Rect, caption_size: int = 20) -> pygame.Surface:
    """The code on the left of a ``rect``-sized box (as tall as it), and beside it "Scan to
    play on your phone" and the page's host:port, for people joining with a phone
    (transparent background)."""
    surf = pygame.Surface(rect.size, pygame.SRCALPHA)
    code = qr_surface(url, rect.height)
    surf.blit(code, (0, (rect.height - code.get_height()) // 2))
    x = code.get_width() + 16
    w = rect.width - x
    if w < 80:
        return surf
    used = draw.blit_wrapped(
        surf, tr("display.scan_phone"), pygame.Rect(x, 8, w, rect.height // 2), caption_size + 4, TEXT, True
    )
    address = url.split("://", 1)[-1].split("/", 1)[0]  # host:port (the code is beside)
    draw.blit_wrapped(
        surf, address, pygame.Rect(x, 8 + used + 8, w, rect.height - used - 16), caption_size,
        TEXT_DIM,
    )  # fmt: skip
    return surf
