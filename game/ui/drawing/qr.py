"""The phone page's address as a QR code, drawn in pygame from segno's module matrix.

    code = qr_surface(url, side)                  # the code, at most side x side pixels
    surface.blit(code, rect)                      # (the join strip, the room: beside
    page_address(url)                             # "Scan to play on your phone" and this)

segno makes the code (error correction M: a TV's glare or a finger on the screen can hide
15% of it); the modules are drawn whole pixels wide, black on white with the four-module
quiet zone a camera needs on a dark table, so the picture stays sharp at any size.
"""

from __future__ import annotations

from functools import lru_cache

import pygame
import segno

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


def page_address(url: str) -> str:
    """The page's host:port, shown beside its code (the room code stands beside it too)."""
    return url.split("://", 1)[-1].split("/", 1)[0]
