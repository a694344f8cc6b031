"""Colours, palettes and sizes: one place for the look of the table.

Clans are always drawn as colour *and* letter (C S W D G L, docs/RULES.md §9). The colour-blind
palette uses the Okabe-Ito colours, which stay distinct for the common colour-vision
deficiencies; the letters carry the meaning in every palette.

`THEME.epoch` changes whenever anything that affects rendered pixels changes (language,
palette, text size): every cache of drawn surfaces keys on it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

LOGICAL_SIZE = (1920, 1080)
# The smallest text drawn, in logical pixels: the 1920x1080 canvas shown on a 1280x720
# screen makes it 12 screen pixels, still readable. Nothing is drawn or shrunk below it;
# a smaller window raises it (`min_text_px`) so that text stays MIN_SCREEN_PX tall there.
MIN_TEXT_PX = 18
MIN_SCREEN_PX = 12
# The most the minimum rises: 20 px keeps text 12 px tall down to a 1152x648 window (the
# smallest the layouts are checked at); a smaller window shows the picture smaller still.
MAX_TEXT_PX = 20
# A canvas shown smaller than this (a 1280x720 screen, a 1152x648 window) takes the table's
# compact layout (table/layout.py), laid out for text of MAX_TEXT_PX at the least.
COMPACT_SCALE = 0.7
# The table display's least text, for a room (`Theme.floor_px`): a 10-foot UI's body text,
# 24 px at 1080p (Android TV's design guide; Xbox's 10-foot guidance asks the same), about
# half a degree at 3 m from a 55" TV (docs/UI.md, "Table display"). In logical px, so a
# 1280x720 TV of the same size shows it as tall (16 of its larger pixels).
TV_TEXT_PX = 24


def min_text_px(scale: float) -> int:
    """The smallest logical text size at `scale`: at least MIN_SCREEN_PX screen px where it
    can be. A compact canvas (under COMPACT_SCALE) uses MAX_TEXT_PX, which its layout
    gives room to: 13.3 screen px at 1280x720, 12 in a 1152x648 window (0.6)."""
    if scale < COMPACT_SCALE:
        return MAX_TEXT_PX
    return max(MIN_TEXT_PX, min(MAX_TEXT_PX, math.ceil(MIN_SCREEN_PX / scale - 1e-9)))

CLAN_KEYS = ("red", "blue", "yellow", "magenta", "orange", "green")
CLAN_LETTERS = ("C", "S", "W", "D", "G", "L")

PALETTES = {
    "standard": (
        (214, 48, 49),  # red / Cashman
        (36, 104, 214),  # blue / Sacks
        (246, 203, 40),  # yellow / Wadeworth
        (214, 64, 170),  # magenta / Dougherty
        (243, 136, 30),  # orange / Goldman
        (46, 160, 80),  # green / Liebgeld
    ),
    # Okabe & Ito (2008): vermillion, blue, yellow, reddish purple, orange, bluish green.
    "okabe_ito": (
        (213, 94, 0),
        (0, 114, 178),
        (240, 228, 66),
        (204, 121, 167),
        (230, 159, 0),
        (0, 158, 115),
    ),
}
# Letters on a clan chip: dark on light colours, light on dark ones.
INK_DARK = (24, 22, 20)
INK_LIGHT = (250, 248, 240)

# Seats: each player has a colour for the hand-off screen and name plates, distinct from
# the clan colours in hue and lightness band (they are never the only cue: names go with it).
SEAT_COLOURS = (
    (64, 170, 220),  # sky
    (150, 110, 210),  # violet
    (230, 120, 110),  # coral
    (120, 190, 120),  # sage
    (220, 180, 90),  # sand
    (150, 160, 175),  # slate
)

FELT = (18, 74, 52)
FELT_DARK = (10, 44, 32)
WOOD = (120, 78, 44)
WOOD_DARK = (74, 46, 24)
GOLD = (236, 190, 70)
GOLD_DARK = (160, 118, 30)
PAPER = (246, 240, 224)
INK = (30, 28, 26)
TEXT = (244, 240, 228)
TEXT_DIM = (176, 190, 180)
HINT = (120, 140, 130)  # an empty field's hint: dimmer than any value, never read as one
PANEL = (16, 38, 30)
PANEL_LIGHT = (30, 60, 48)
PANEL_EDGE = (70, 110, 90)
ACCENT = (255, 214, 90)
GOOD = (90, 200, 120)
BAD = (230, 90, 80)
WARN = (240, 170, 60)
DISABLED = (96, 106, 100)
GLOW = (255, 230, 120)

GREY_CARD = (140, 140, 146)


@dataclass
class Theme:
    palette: str = "standard"
    text_scale: float = 1.0
    lang: str = "en"
    window_px: int = MIN_TEXT_PX  # the window's readable minimum (min_text_px)
    floor_px: int = 0  # the scene's own least text, if higher (the display's TV_TEXT_PX)
    epoch: int = 0
    listeners: list = field(default_factory=list)

    @property
    def min_px(self) -> int:
        """The smallest text drawn: the window's minimum, or the scene's floor above it."""
        return max(self.window_px, self.floor_px)

    def clan(self, clan: int) -> tuple[int, int, int]:
        return PALETTES[self.palette][clan]

    def clan_ink(self, clan: int) -> tuple[int, int, int]:
        r, g, b = self.clan(clan)
        return INK_DARK if (0.299 * r + 0.587 * g + 0.114 * b) > 150 else INK_LIGHT

    def font_px(self, size: int) -> int:
        """`size` at the text size chosen. The readable minimum is where Normal starts, so
        Large grows a text lifted to it too (20 -> 25 px at 1280x720): every text at Large
        is text_scale times its Normal size; Small never goes under the minimum."""
        return max(self.min_px, round(max(self.min_px, size) * self.text_scale))

    def configure(self, *, palette=None, text_scale=None, lang=None, min_px=None,
                  floor_px=None) -> None:  # fmt: skip
        before = self.min_px
        if min_px is not None:
            self.window_px = min_px
        if floor_px is not None:
            self.floor_px = floor_px
        changed = self.min_px != before
        if palette is not None and palette != self.palette:
            self.palette, changed = palette, True
        if text_scale is not None and text_scale != self.text_scale:
            self.text_scale, changed = text_scale, True
        if lang is not None and lang != self.lang:
            self.lang, changed = lang, True
        if changed:
            self.epoch += 1
            for fn in list(self.listeners):
                fn()


THEME = Theme()


def seat_colour(seat: int) -> tuple[int, int, int]:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def lighten(colour, amount: float):
    return tuple(round(c + (255 - c) * amount) for c in colour[:3])


def darken(colour, amount: float):
    return tuple(round(c * (1 - amount)) for c in colour[:3])
