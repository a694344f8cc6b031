"""Shared look of the menu scenes: the felt backdrop with drifting cards and a title bar."""

from __future__ import annotations

import math
import time

import pygame

from .. import i18n
from ..drawing import cardart, draw, fonts
from ..drawing.theme import GOLD, TEXT
from ..drawing.widgets import Button
from ..i18n import tr
from ..table.board import felt

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
    for img, rect in drifting_cards(t):
        surface.blit(img, rect)


def drifting_cards(t: float) -> list[tuple[pygame.Surface, pygame.Rect]]:
    """The backdrop's cards at time t: each picture and where it goes."""
    out = []
    for i, key in enumerate(_KEYS):
        phase = i * 1.7
        # cards float up slowly in the side bands, clear of the title and the buttons (the
        # title's widest rows span x 496..1424; a card tilted 25 degrees is 166 px wide)
        band = (60, 392) if i % 2 == 0 else (1528, 1860)
        x = band[0] + (i * 151) % (band[1] - band[0]) + math.sin(t * 0.5 + phase) * 20
        y = 1230 - (i * 287 + t * (16 + i * 2)) % (1080 + 300)
        angle = int(((i * 37) % 50) - 25 + math.sin(t * 0.4 + phase) * 4)
        img = cardart.rotated(key, angle, 110, 154, dim=True)
        out.append((img, img.get_rect(center=(int(x), int(y)))))
    return out


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


def pace_text(pace) -> str:
    """'Ask around · 10 s to answer': a table's windows (a net TablePace), as the lobby
    lists the table and its room shows it."""
    return tr("lobby.pace", mode=tr(f"settings.window_mode.{pace.mode}"), s=pace.window)


def section(surface, text: str, x: int, y: int, w: int) -> None:
    img = draw.fit(text, 30, w, TEXT, True)
    y -= max(0, img.get_bounding_rect().bottom - 44)  # its ink above what the section holds
    surface.blit(img, (x, y))
    pygame.draw.line(
        surface, (90, 130, 110), (x, y + img.get_height() + 6), (x + w, y + img.get_height() + 6), 2
    )


def when(stamp: float) -> str:
    """A file's date and time as lists show it: digits, the same in every language."""
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(stamp))


class LanguageButton(Button):
    """A button whose label is drawn in its own language's fonts."""

    def __init__(self, rect, lang: str, on_click, selected: bool, name: str) -> None:
        super().__init__(rect, "", on_click, style="primary" if selected else "normal", name=name)
        self.lang = lang

    def draw(self, surface, t: float) -> None:
        super().draw(surface, t)
        ink = (30, 28, 26) if self.style == "primary" else TEXT
        img = fonts.render_text(i18n.native_name(self.lang), self.lang, 28, ink, True)
        surface.blit(
            img,
            img.get_rect(center=(self.rect.centerx, self.rect.centery - (2 if self.down else 0))),
        )
