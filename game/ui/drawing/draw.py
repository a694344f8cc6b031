"""Drawing helpers with caches: text in the current language, wrapped and fitted text,
rounded panels, clan chips, and the small procedural icons (crown, suitcase, coin, die,
card back, bot). Everything returned is cached: blit it, never draw on it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import pygame
from icu4py.breakers import CharacterBreaker

from . import fonts, linebreak
from .theme import (
    CLAN_LETTERS,
    GOLD,
    GOLD_DARK,
    INK,
    PANEL,
    PANEL_EDGE,
    PAPER,
    TEXT,
    THEME,
    WOOD_DARK,
    darken,
    lighten,
)

# Characters the UI draws besides translated text: all are in the fonts' BASE set
# (assets/fonts/subset_fonts.py); tests check that every one has a glyph.
SYMBOLS = "$×·–—…•✓✗←→↑↓+-/%#()[]:"


# --------------------------------------------------------------------------- text


def text(s: str, size: int, colour=TEXT, bold: bool = False) -> pygame.Surface:
    """Text in the current language at a logical size (scaled by the text-size setting)."""
    px = THEME.font_px(size)
    return fonts.render_text(s, THEME.lang, px, colour, bold)


def copy_of(img: pygame.Surface) -> pygame.Surface:
    """A copy of a cached background (a panel, a plate, the log, the felt) to draw on."""
    return img.copy()


def text_width(s: str, size: int, bold: bool = False) -> int:
    return _measure(s, THEME.lang, THEME.font_px(size), bold)[0]


@lru_cache(maxsize=4096)
def _measure(s: str, lang: str, px: int, bold: bool) -> tuple[int, int]:
    return fonts.text_size(s, lang, px, bold)


def text_height(s: str, size: int, bold: bool = False) -> int:
    """The height of s's own line (its faces' ascent and descent): a Latin label needs
    less than line_height(), which makes room for Thai and CJK faces too."""
    return _measure(s, THEME.lang, THEME.font_px(size), bold)[1]


# What sets a line's height: the scripts of each language's own texts. A Chinese name on an
# English or Thai screen is drawn by the last face of the chain (assets/fonts/fonts.json),
# a taller one, and does not make every line of those screens taller.
LINE_SAMPLE = {"en": "Agก้", "th": "Agก้", "zh_Hant": "Ag中ก้", "zh_Hans": "Ag中ก้"}


def line_height(size: int, bold: bool = False) -> int:
    return _measure(LINE_SAMPLE[THEME.lang], THEME.lang, THEME.font_px(size), bold)[1]


def fit(s: str, size: int, max_w: int, colour=TEXT, bold: bool = False):
    """Text shrunk (never below the theme's minimum) until it is at most max_w wide. Below the
    readable minimum it does not shrink: a box too small for its text is a layout bug
    (tests/ui/test_ui_layout.py finds it), not something to hide with unreadable type."""
    want = THEME.font_px(size)
    px = _fit_px(s, THEME.lang, want, max_w, bold, THEME.min_px)
    return fonts.render_text(s, THEME.lang, px, colour, bold)


@lru_cache(maxsize=4096)
def _fit_px(s: str, lang: str, px: int, max_w: int, bold: bool, min_size: int) -> int:
    while px > min_size and _measure(s, lang, px, bold)[0] > max_w:
        px -= 1 if px < 24 else 2
    return px


def fit_name(s: str, size: int, max_w: int, colour=TEXT, bold: bool = False):
    """A name shrunk like fit(), and only if it is still too wide at the readable minimum,
    cut with "…" there: for names whose full form is shown elsewhere (a plate, a row)."""
    px = _fit_px(s, THEME.lang, THEME.font_px(size), max_w, bold, THEME.min_px)
    return fit(_ellipsize_px(s, px, max_w, bold), size, max_w, colour, bold)


def ellipsize(s: str, size: int, max_w: int, bold: bool = False) -> str:
    """s cut with "…" so it is at most max_w wide at size."""
    return _ellipsize_px(s, THEME.font_px(size), max_w, bold)


def _ellipsize_px(s: str, px: int, max_w: int, bold: bool) -> str:
    lang = THEME.lang
    if _measure(s, lang, px, bold)[0] <= max_w:
        return s
    clusters = list(_clusters(s))
    while clusters and _measure("".join(clusters) + "…", lang, px, bold)[0] > max_w:
        clusters.pop()
    return "".join(clusters) + "…"


# A closing mark never starts a line and an opening one never ends it, even where a piece
# too long for its line is cut (UAX #14 sees to it everywhere else).
_NO_BREAK_BEFORE = set("，。、！？）」』】》〉”’：；…,.!?)]}:;%")
_NO_BREAK_AFTER = set("（「『【《〈“‘([{$")


@lru_cache(maxsize=4096)
def _clusters(s: str) -> tuple[str, ...]:
    """Grapheme clusters (ICU): a Thai vowel or tone mark stays on its letter, and so does
    SARA AM, which is a letter to unicodedata but a spacing mark to UAX #29."""
    return tuple(CharacterBreaker(s, "und"))


def _segments(s: str, lang: str) -> tuple[str, ...]:
    """s cut at its line-break opportunities, each piece with its trailing spaces: ICU's
    line BreakIterator, which follows UAX #14 in every script (Latin at spaces and after
    hyphens, CJK between ideographs but never before closing punctuation) and finds the
    words of Thai, written without spaces, in its dictionary, with the game's own words
    (assets/lang/th.words.txt) kept whole (linebreak.py)."""
    return linebreak.segments(s, lang)


def wrap(s: str, size: int, max_w: int, bold: bool = False, whole_words: bool = False) -> list[str]:
    """s in lines no wider than max_w. `whole_words`: break only between words, also in
    Chinese (a card's title: 旅行卡 / （任意部族）, never 任意部 / 族）)."""
    return list(_wrap(s, THEME.lang, THEME.font_px(size), max_w, bold, whole_words))


@lru_cache(maxsize=2048)
def _wrap(
    s: str, lang: str, px: int, max_w: int, bold: bool, whole_words: bool = False
) -> tuple[str, ...]:
    cut = linebreak.word_segments if whole_words else _segments
    lines: list[str] = []
    for para in s.split("\n"):
        line = ""
        for seg in cut(para, lang):
            cand = line + seg
            if line and _measure(cand.rstrip(), lang, px, bold)[0] > max_w:
                lines.append(line.rstrip())
                cand = seg
            if _measure(cand.rstrip(), lang, px, bold)[0] > max_w:  # wider than a whole line
                *full, cand = _hard_split(cand, lang, px, max_w, bold)
                lines.extend(full)
            line = cand
        lines.append(line.rstrip())
    return tuple(lines)


def _hard_split(s: str, lang: str, px: int, max_w: int, bold: bool) -> list[str]:
    """Cut a piece with no break opportunity that fits, the last resort: between its words
    (ICU's word iterator, the game's words whole), each with the marks it closes or opens and the spaces after it;
    only such a word wider than the whole line is cut between clusters, where a closing
    mark (":", ")", ...) still never starts a line: the cluster before it moves down too."""
    words: list[str] = []
    for word in linebreak.words(s, lang):
        glued = word.isspace() or word[0] in _NO_BREAK_BEFORE
        if words and (glued or words[-1][-1] in _NO_BREAK_AFTER):
            words[-1] += word
        else:
            words.append(word)
    pieces: list[str] = []
    for word in words:
        fits = _measure(word.rstrip(), lang, px, bold)[0] <= max_w
        pieces.extend([word] if fits else _clusters(word))
    out: list[str] = []
    cur: list[str] = []
    for piece in pieces:
        wide = _measure(("".join(cur) + piece).rstrip(), lang, px, bold)[0] > max_w
        if cur and wide and not piece.isspace():
            carry: list[str] = []
            while len(cur) > 1 and (carry or [piece])[0][0] in _NO_BREAK_BEFORE:
                carry.insert(0, cur.pop())
            out.append("".join(cur).rstrip())
            cur = carry
        cur.append(piece)
    out.append("".join(cur))
    return out


def blit_text(surface, s, pos, size, colour=TEXT, bold=False, anchor="topleft", max_w=None):
    img = fit(s, size, max_w, colour, bold) if max_w else text(s, size, colour, bold)
    rect = img.get_rect(**{anchor: (round(pos[0]), round(pos[1]))})
    surface.blit(img, rect)
    return rect


def blit_wrapped(surface, s, rect, size, colour=TEXT, bold=False, align="left", spacing=1.15):
    """Wrapped text inside rect (top aligned); returns the height used."""
    lh = round(line_height(size, bold) * spacing)
    y = rect.top
    for line in wrap(s, size, rect.width, bold):
        if line:
            img = text(line, size, colour, bold)
            if align == "center":
                x = rect.centerx - img.get_width() // 2
            elif align == "right":
                x = rect.right - img.get_width()
            else:
                x = rect.left
            surface.blit(img, (x, y))
        y += lh
    return y - rect.top


def _stack_bands(lines) -> list[pygame.Rect]:
    bands = []
    for img, size, bold in lines:
        ref = fonts.render_text("Agy", THEME.lang, THEME.font_px(size), TEXT, bold)
        bands.append(img.get_bounding_rect().union(ref.get_bounding_rect()))
    return bands


def stacked_height(lines, gap: int = 4) -> int:
    """How tall blit_stacked's block of `lines` is."""
    return sum(b.height for b in _stack_bands(lines)) + gap * (len(lines) - 1)


def blit_stacked(surface, lines, x: int, centery: int, gap: int = 4) -> list[pygame.Rect]:
    """Text lines one under the other from x, `gap` apart and the whole block centred on
    centery: rows of two lines (a name and its detail) stay apart at any text size, where
    fixed offsets let a tall script's marks run into the next line. `lines`: (image, size,
    bold); each line takes the room of a Latin capital and descender at its size (so rows
    keep one baseline) or more where its own ink reaches further. Returns where each
    image went."""
    bands = _stack_bands(lines)
    block = stacked_height(lines, gap)
    y = centery - block // 2
    out = []
    for (img, _, _), band in zip(lines, bands, strict=True):
        rect = img.get_rect(topleft=(x, y - band.y))
        surface.blit(img, rect)
        out.append(rect)
        y += band.height + gap
    return out


def wrapped_height(s: str, size: int, width: int, bold=False, spacing=1.15) -> int:
    return round(line_height(size, bold) * spacing) * len(wrap(s, size, width, bold))


# --------------------------------------------------------------------------- shapes


@lru_cache(maxsize=512)
def panel_surface(w: int, h: int, fill=PANEL, alpha=226, edge=PANEL_EDGE, radius=18, shadow=True):
    """A rounded translucent panel with a soft drop shadow (cached by size)."""
    pad = 10 if shadow else 0
    surf = pygame.Surface((w + 2 * pad, h + 2 * pad), pygame.SRCALPHA)
    if shadow:
        for i, a in enumerate((18, 26, 34)):
            r = pygame.Rect(pad - 6 + 2 * i, pad - 2 + 2 * i, w + 12 - 4 * i, h + 12 - 4 * i)
            pygame.draw.rect(surf, (0, 0, 0, a), r, border_radius=radius + 6 - 2 * i)
    body = pygame.Rect(pad, pad, w, h)
    pygame.draw.rect(surf, (*fill[:3], alpha), body, border_radius=radius)
    if edge is not None:
        pygame.draw.rect(surf, (*edge[:3], 255), body, width=2, border_radius=radius)
    return surf


def draw_panel(surface, rect, **kw) -> None:
    shadow = kw.get("shadow", True)
    img = panel_surface(rect.width, rect.height, **kw)
    pad = 10 if shadow else 0
    surface.blit(img, (rect.x - pad, rect.y - pad))


@lru_cache(maxsize=1)
def _veil() -> pygame.Surface:
    veil = pygame.Surface((1920, 1080), pygame.SRCALPHA)
    veil.fill((0, 0, 0, 170))
    return veil


def draw_dialog(surface, rect) -> None:
    """A modal dialog's ground: the canvas dimmed, then the dialog's panel at `rect`."""
    surface.blit(_veil(), (0, 0))
    draw_panel(surface, rect, alpha=245)


@lru_cache(maxsize=256)
def glow_surface(w: int, h: int, colour=(255, 230, 120), radius=14, spread=10):
    """A soft glow ring around a w x h rect (cached)."""
    surf = pygame.Surface((w + 2 * spread, h + 2 * spread), pygame.SRCALPHA)
    for i in range(spread, 0, -2):
        a = int(150 * (1 - i / spread) ** 1.6) + 12
        r = pygame.Rect(spread - i, spread - i, w + 2 * i, h + 2 * i)
        pygame.draw.rect(surf, (*colour[:3], a), r, width=2, border_radius=radius + i)
    pygame.draw.rect(
        surf, (*colour[:3], 230), (spread, spread, w, h), width=3, border_radius=radius
    )
    return surf


def glow_level(alpha: int) -> int:
    """The glow's brightness step for an alpha: 9 cached steps, no per-frame copy."""
    return max(0, min(8, round(alpha / 32)))


def band(rect: pygame.Rect, edge: int, corner: int) -> list[pygame.Rect]:
    """The strips of `rect` an outline drawn round its edge paints: top and bottom `corner`
    px tall across the whole width (the rounded corners lie in them), left and right `edge`
    px wide between them. The frame loop redraws and shows a pulsing outline there only;
    its inside is never touched (a third of the pixels of a space's glow)."""
    middle = rect.height - 2 * corner
    if middle <= 0 or 2 * edge >= rect.width:
        return [pygame.Rect(rect)]
    return [
        pygame.Rect(rect.x, rect.y, rect.width, corner),
        pygame.Rect(rect.x, rect.bottom - corner, rect.width, corner),
        pygame.Rect(rect.x, rect.y + corner, edge, middle),
        pygame.Rect(rect.right - edge, rect.y + corner, edge, middle),
    ]


def glow_band(rect: pygame.Rect, radius: int = 14, spread: int = 10) -> tuple[pygame.Rect, ...]:
    """Where draw_glow(rect, radius=radius, spread=spread) paints: its rings reach `spread`
    px out, its outline 3 px in, its corners (radius + spread) px along each edge. The same
    rects each time (cached; never change them): the table asks 20 times a second."""
    return _glow_band(tuple(rect), radius, spread)


@lru_cache(maxsize=256)
def _glow_band(rect: tuple, radius: int, spread: int) -> tuple[pygame.Rect, ...]:
    outer = pygame.Rect(rect).inflate(2 * spread, 2 * spread)
    return tuple(band(outer, spread + 3, spread + radius))


def draw_glow(surface, rect, colour=(255, 230, 120), radius=14, spread=10, alpha=255) -> None:
    level = glow_level(alpha)
    img = _glow_level(rect.width, rect.height, tuple(colour[:3]), radius, spread, level)
    surface.blit(img, (rect.x - spread, rect.y - spread))


@lru_cache(maxsize=512)
def _glow_level(w, h, colour, radius, spread, level):
    img = glow_surface(w, h, colour, radius, spread)
    if level >= 8:
        return img
    img = img.copy()
    img.fill((255, 255, 255, level * 32), special_flags=pygame.BLEND_RGBA_MULT)
    return img


def vertical_gradient(size, top, bottom) -> pygame.Surface:
    """A vertical gradient made by scaling a 1x2 strip (fast, no per-pixel loop)."""
    strip = pygame.Surface((1, 2))
    strip.set_at((0, 0), top)
    strip.set_at((0, 1), bottom)
    return pygame.transform.smoothscale(strip, size)


# --------------------------------------------------------------------------- clan chips


def clan_chip(clan: int, size: int, style: str = "solid") -> pygame.Surface:
    """A clan square: colour plus its letter. style: solid, dim (travelling or unusable),
    slot (an empty slot outline), small_text (no shadow)."""
    return _clan_chip(clan, size, style, THEME.palette, THEME.epoch)


@lru_cache(maxsize=512)
def _clan_chip(clan: int, size: int, style: str, palette: str, epoch: int) -> pygame.Surface:
    col = THEME.clan(clan)
    ink = THEME.clan_ink(clan)
    surf = pygame.Surface((size, size), pygame.SRCALPHA)
    r = pygame.Rect(0, 0, size, size)
    rad = max(3, size // 5)
    letter = CLAN_LETTERS[clan]
    px = max(9, int(size * 0.62))
    if style == "slot":
        pygame.draw.rect(surf, (*darken(col, 0.55), 150), r, border_radius=rad)
        _dashed_rect(surf, col, r.inflate(-2, -2), max(2, size // 14), rad)
        img = fonts.render_text(letter, "en", px, lighten(col, 0.2), True)
        img.set_alpha(200)
    else:
        pygame.draw.rect(surf, darken(col, 0.35), r, border_radius=rad)
        pygame.draw.rect(
            surf,
            col,
            r.inflate(-max(2, size // 12), -max(2, size // 12)).move(0, -1),
            border_radius=rad,
        )
        pygame.draw.rect(
            surf,
            lighten(col, 0.35),
            r.inflate(-size // 3, -size * 3 // 4).move(0, -size // 3),
            border_radius=rad,
        )
        img = fonts.render_text(letter, "en", px, ink, True)
    surf.blit(img, img.get_rect(center=(size // 2, size // 2 - max(1, size // 24))))
    if style == "dim":
        veil = pygame.Surface((size, size), pygame.SRCALPHA)
        pygame.draw.rect(veil, (20, 20, 20, 150), r, border_radius=rad)
        for x in range(-size, size, max(4, size // 5)):
            pygame.draw.line(veil, (255, 255, 255, 60), (x, size), (x + size, 0), 2)
        surf.blit(veil, (0, 0))
    return surf


def _dashed_rect(surf, colour, rect, width, radius) -> None:
    pygame.draw.rect(surf, colour, rect, width=width, border_radius=radius)
    gap = max(4, rect.width // 6)
    for x in range(rect.left + gap // 2 + radius, rect.right - radius, gap * 2):
        pygame.draw.line(surf, (0, 0, 0, 0), (x, rect.top), (x + gap // 2, rect.top), width + 1)
        pygame.draw.line(
            surf, (0, 0, 0, 0), (x, rect.bottom - 1), (x + gap // 2, rect.bottom - 1), width + 1
        )
    for y in range(rect.top + gap // 2 + radius, rect.bottom - radius, gap * 2):
        pygame.draw.line(surf, (0, 0, 0, 0), (rect.left, y), (rect.left, y + gap // 2), width + 1)
        pygame.draw.line(
            surf, (0, 0, 0, 0), (rect.right - 1, y), (rect.right - 1, y + gap // 2), width + 1
        )


# --------------------------------------------------------------------------- icons


@lru_cache(maxsize=64)
def crown(size: int, colour=GOLD) -> pygame.Surface:
    w, h = size, int(size * 0.8)
    surf = pygame.Surface((w, h), pygame.SRCALPHA)
    pts = [
        (0.05 * w, 0.9 * h),
        (0.0, 0.25 * h),
        (0.28 * w, 0.55 * h),
        (0.5 * w, 0.05 * h),
        (0.72 * w, 0.55 * h),
        (w, 0.25 * h),
        (0.95 * w, 0.9 * h),
    ]
    pygame.draw.polygon(surf, darken(colour, 0.35), [(x, y + 2) for x, y in pts])
    pygame.draw.polygon(surf, colour, pts)
    pygame.draw.polygon(surf, lighten(colour, 0.4), pts, width=max(1, size // 16))
    pygame.draw.rect(surf, darken(colour, 0.2), (0.08 * w, 0.78 * h, 0.84 * w, 0.14 * h))
    for cx in (0.0, 0.5, 1.0):
        x = min(w - size // 10, max(size // 10, cx * w))
        y = 0.25 * h if cx != 0.5 else 0.07 * h
        pygame.draw.circle(surf, (250, 250, 255), (x, y + size // 12), max(2, size // 16))
    pygame.draw.circle(surf, (220, 60, 60), (w / 2, 0.62 * h), max(2, size // 9))
    return surf


@lru_cache(maxsize=64)
def suitcase(size: int) -> pygame.Surface:
    """The travel marker."""
    w, h = size, int(size * 0.82)
    surf = pygame.Surface((w, h), pygame.SRCALPHA)
    body = pygame.Rect(0, int(h * 0.22), w, int(h * 0.78))
    pygame.draw.rect(surf, (70, 40, 20), body.move(0, 2), border_radius=max(2, size // 7))
    pygame.draw.rect(surf, (196, 120, 58), body, border_radius=max(2, size // 7))
    pygame.draw.rect(
        surf, (120, 70, 30), body, width=max(1, size // 14), border_radius=max(2, size // 7)
    )
    handle = pygame.Rect(int(w * 0.32), 0, int(w * 0.36), int(h * 0.3))
    pygame.draw.rect(
        surf, (90, 52, 24), handle, width=max(2, size // 10), border_radius=max(2, size // 9)
    )
    for fx in (0.28, 0.72):
        pygame.draw.line(
            surf,
            (240, 210, 150),
            (w * fx, body.top + 2),
            (w * fx, body.bottom - 3),
            max(1, size // 14),
        )
    return surf


@lru_cache(maxsize=64)
def coin(size: int) -> pygame.Surface:
    surf = pygame.Surface((size, size), pygame.SRCALPHA)
    c = size // 2
    pygame.draw.circle(surf, GOLD_DARK, (c, c + 1), c)
    pygame.draw.circle(surf, GOLD, (c, c), c - 1)
    pygame.draw.circle(
        surf, lighten(GOLD, 0.35), (c, c), c - max(2, size // 7), width=max(1, size // 14)
    )
    img = fonts.render_text("$", "en", max(8, int(size * 0.62)), darken(GOLD_DARK, 0.3), True)
    surf.blit(img, img.get_rect(center=(c, c)))
    return surf


@lru_cache(maxsize=64)
def bill(w: int, h: int) -> pygame.Surface:
    """One banknote of a money pile (drawn side-on in a stack)."""
    surf = pygame.Surface((w, h), pygame.SRCALPHA)
    pygame.draw.rect(surf, (36, 96, 52), (0, 0, w, h), border_radius=2)
    pygame.draw.rect(surf, (120, 190, 120), (1, 1, w - 2, h - 2), border_radius=2)
    pygame.draw.line(surf, (60, 130, 70), (3, h // 2), (w - 4, h // 2), 1)
    return surf


@lru_cache(maxsize=16)
def die_face(value: int, size: int, colour=(250, 250, 246)) -> pygame.Surface:
    surf = pygame.Surface((size, size), pygame.SRCALPHA)
    r = pygame.Rect(0, 0, size, size)
    rad = size // 5
    pygame.draw.rect(surf, (0, 0, 0, 90), r.move(2, 3), border_radius=rad)
    pygame.draw.rect(surf, darken(colour, 0.2), r, border_radius=rad)
    pygame.draw.rect(surf, colour, r.inflate(-4, -4).move(-1, -1), border_radius=rad)
    pip = max(3, size // 9)
    q = size / 4
    spots = {
        1: [(2, 2)],
        2: [(1, 1), (3, 3)],
        3: [(1, 1), (2, 2), (3, 3)],
        4: [(1, 1), (3, 1), (1, 3), (3, 3)],
        5: [(1, 1), (3, 1), (2, 2), (1, 3), (3, 3)],
        6: [(1, 1), (3, 1), (1, 2), (3, 2), (1, 3), (3, 3)],
    }[value]
    for sx, sy in spots:
        pygame.draw.circle(surf, INK, (round(sx * q), round(sy * q)), pip)
    return surf


@lru_cache(maxsize=32)
def bot_badge(size: int, colour=(150, 200, 230)) -> pygame.Surface:
    surf = pygame.Surface((size, size), pygame.SRCALPHA)
    head = pygame.Rect(size * 0.12, size * 0.28, size * 0.76, size * 0.6)
    pygame.draw.line(
        surf, colour, (size / 2, size * 0.28), (size / 2, size * 0.1), max(1, size // 12)
    )
    pygame.draw.circle(surf, colour, (size / 2, size * 0.1), max(2, size // 10))
    pygame.draw.rect(surf, colour, head, border_radius=max(2, size // 6))
    for fx in (0.36, 0.64):
        pygame.draw.circle(surf, (20, 30, 40), (size * fx, size * 0.55), max(2, size // 9))
    return surf


@lru_cache(maxsize=32)
def card_back(w: int, h: int) -> pygame.Surface:
    surf = pygame.Surface((w, h), pygame.SRCALPHA)
    r = pygame.Rect(0, 0, w, h)
    rad = max(4, w // 10)
    pygame.draw.rect(surf, (0, 0, 0, 80), r.move(2, 3), border_radius=rad)
    pygame.draw.rect(surf, (120, 26, 36), r, border_radius=rad)
    inner = r.inflate(-max(6, w // 8), -max(6, w // 8))
    pygame.draw.rect(surf, (168, 44, 52), inner, border_radius=rad)
    step = max(6, w // 7)
    clip = surf.get_clip()
    surf.set_clip(inner)
    for x in range(-h, w + h, step):
        pygame.draw.line(surf, (190, 70, 70), (x, inner.top), (x + h, inner.top + h), 1)
        pygame.draw.line(surf, (190, 70, 70), (x + h, inner.top), (x, inner.top + h), 1)
    surf.set_clip(clip)
    pygame.draw.rect(surf, GOLD, inner, width=max(1, w // 40), border_radius=rad)
    c = crown(max(10, w // 2))
    surf.blit(c, c.get_rect(center=r.center))
    return surf


def tile_face(number: int, price: int, w: int, h: int) -> pygame.Surface:
    return _tile_face(number, price, w, h, THEME.lang, THEME.epoch)


@lru_cache(maxsize=64)
def _tile_face(number: int, price: int, w: int, h: int, lang: str, epoch: int) -> pygame.Surface:
    from ..i18n import tr

    surf = pygame.Surface((w, h), pygame.SRCALPHA)
    r = pygame.Rect(0, 0, w, h)
    rad = max(4, min(w, h) // 8)
    pygame.draw.rect(surf, (0, 0, 0, 90), r.move(2, 3), border_radius=rad)
    pygame.draw.rect(surf, darken(PAPER, 0.25), r, border_radius=rad)
    pygame.draw.rect(surf, PAPER, r.inflate(-4, -4).move(-1, -1), border_radius=rad)
    pygame.draw.rect(surf, GOLD_DARK, r.inflate(-10, -10), width=2, border_radius=rad)
    num = fonts.render_text(str(number), "en", max(10, int(h * 0.42)), WOOD_DARK, True)
    surf.blit(num, num.get_rect(center=(w // 2, int(h * 0.36))))
    money = fit(tr("money.amount", n=price), max(9, int(h * 0.2)), w - 12, (40, 110, 60), True)
    surf.blit(money, money.get_rect(center=(w // 2, int(h * 0.74))))
    return surf


def pulse(t: float, speed: float = 2.0) -> float:
    """0..1..0 with period 1/speed seconds (for glows and attention marks)."""
    return 0.5 - 0.5 * math.cos(t * speed * 2 * math.pi)


@dataclass(frozen=True)
class Pulse:
    """A pulsing glow's alpha over time, base + amp * pulse(t, speed): drawing and the
    question whether the picture changed (its glow level) read the same one."""

    base: int
    amp: int
    speed: float = 2.0

    def alpha(self, t: float) -> int:
        return int(self.base + self.amp * pulse(t, self.speed))

    def level(self, t: float) -> int:
        return glow_level(self.alpha(t))
