"""Shared look of the menu scenes: the felt backdrop with drifting cards and a title bar."""

from __future__ import annotations

import math

import pygame

from .. import cardart, draw
from ..table.board import felt
from ..theme import GOLD, TEXT

_KEYS = (
    "boss",
    "clan_red",
    "travel_blue",
    "stop",
    "clan_yellow",
    "recruit",
    "clan_green",
    "travel_grey",
    "clan_magenta",
)


def backdrop(surface, t: float, cards: bool = True) -> None:
    surface.blit(_menu_felt(), (0, 0))
    if not cards:
        return
    for i, key in enumerate(_KEYS):
        phase = i * 1.7
        x = (i * 233 + t * (14 + i * 3)) % (1920 + 300) - 150
        y = 140 + (i * 157) % 760 + math.sin(t * 0.6 + phase) * 24
        angle = int(((i * 37) % 50) - 25 + math.sin(t * 0.4 + phase) * 4)
        img = cardart.rotated(key, angle, 110, 154, dim=True)
        surface.blit(img, img.get_rect(center=(int(x), int(y))))


_FELT: list[pygame.Surface] = []


def _menu_felt() -> pygame.Surface:
    """The table's felt, a little darker behind menus (made once)."""
    if not _FELT:
        f = felt().copy()
        f.fill((190, 200, 196), special_flags=pygame.BLEND_RGB_MULT)
        _FELT.append(f)
    return _FELT[0]


def title_bar(surface, text: str, y: int = 46) -> None:
    img = draw.fit(text, 56, 1500, GOLD, True)
    shadow = draw.fit(text, 56, 1500, (0, 0, 0), True)
    r = img.get_rect(midtop=(960, y))
    surface.blit(shadow, r.move(3, 4))
    surface.blit(img, r)
    pygame.draw.line(
        surface, (GOLD[0], GOLD[1], GOLD[2]), (r.left, r.bottom + 12), (r.right, r.bottom + 12), 3
    )


def section(surface, text: str, x: int, y: int, w: int) -> None:
    img = draw.fit(text, 30, w, TEXT, True)
    surface.blit(img, (x, y))
    pygame.draw.line(
        surface, (90, 130, 110), (x, y + img.get_height() + 6), (x + w, y + img.get_height() + 6), 2
    )
