"""Influence card faces, drawn procedurally and cached per (card, size, language, palette),
plus a cache of rotated faces for the hand fan (a rotozoom per card per frame would cost
tens of milliseconds; a cached rotation is one blit).
"""

from __future__ import annotations

import math
from functools import lru_cache

import pygame

from ..i18n import tr
from . import draw, fonts
from .theme import (
    CLAN_KEYS,
    CLAN_LETTERS,
    GREY_CARD,
    INK,
    PAPER,
    THEME,
    darken,
    lighten,
)

CARD_W, CARD_H = 132, 184  # the hand's size; the table uses smaller ones
TITLE_PX = 18  # every word on a card: the readable minimum (theme.MIN_TEXT_PX)
TEXT_MIN_W = 100  # narrower cards (on the table, flying) carry no words: they would not fit


def card_title(key: str) -> str:
    if key.startswith("clan_"):
        return tr("card.clan")
    if key == "travel_grey":
        return tr("card.travel_any")
    if key.startswith("travel_"):
        return tr("card.travel")
    return {"recruit": tr("card.recruitment"), "boss": tr("card.boss"), "stop": tr("card.stop")}[
        key
    ]


def card_name(key: str) -> str:
    """A card in words for the log and tooltips: "Travel C (Red)", "Clan card S"."""
    if key.startswith(("clan_", "travel_")) and key != "travel_grey":
        clan = CLAN_KEYS.index(key.split("_", 1)[1])
        return f"{card_title(key)} {CLAN_LETTERS[clan]}"
    return card_title(key)


def card_in_text(key: str) -> str:
    """A card as a sentence names it ("Mei discards {card}"), which is not always its
    title: Thai says การ์ดหยุด where the face says หยุด, and a clan's card names the clan as
    the sentence does (clan_word)."""
    clan = card_clan(key)
    kind = "travel_any" if key == "travel_grey" else key.split("_", 1)[0]
    kind = "recruitment" if kind == "recruit" else kind
    if clan is None:
        return tr(f"card.named.{kind}")
    return tr(f"card.named.{kind}", clan=tr(f"clan.{CLAN_KEYS[clan]}.word"))


def card_clan(key: str) -> int | None:
    if key.startswith(("clan_", "travel_")) and key != "travel_grey":
        return CLAN_KEYS.index(key.split("_", 1)[1])
    return None


def _band(w: int, h: int) -> pygame.Rect:
    """The coloured band at the top of a face, before its title makes it taller."""
    inner = pygame.Rect(0, 0, w, h).inflate(-max(4, w // 22), -max(4, w // 22))
    return pygame.Rect(inner.x, inner.y, inner.width, int(h * 0.2))


def _title_layout(key: str, band: pygame.Rect) -> tuple[pygame.Rect, list[str], int, int]:
    """The title's lines in the band (grown to hold them), the first line's top and the
    line height. The name carries the clan letter: a card in the back row of a two-row hand
    shows little more than its band."""
    title = card_name(key)
    lines = draw.wrap(title, TITLE_PX, band.width - 10, True, whole_words=True)
    if THEME.lang == "en" and " " not in title and len(lines) > 1:
        lines = [title]  # one English word is never cut in two: it is squeezed to fit
    lh = draw.line_height(TITLE_PX, True)
    band = band.copy()
    band.height = max(band.height, lh * len(lines) + 4)
    return band, lines, band.centery - lh * len(lines) // 2, lh


def title_box(key: str, w: int = CARD_W, h: int = CARD_H) -> pygame.Rect:
    """Where the title's words lie on the face (the hand fan keeps this clear of other
    cards)."""
    band, lines, y, lh = _title_layout(key, _band(w, h))
    room = band.width - 8
    widths = [min(room, draw.text_width(line, TITLE_PX, True)) for line in lines]
    last = fonts.render_text(lines[-1], THEME.lang, THEME.font_px(TITLE_PX), INK, True)
    low = lh * (len(lines) - 1) + last.get_bounding_rect().bottom  # a Thai vowel below
    box = pygame.Rect(0, y, max(widths), max(lh * len(lines), low))
    box.centerx = band.centerx
    return box


def face(key: str, w: int = CARD_W, h: int = CARD_H) -> pygame.Surface:
    return _face(key, w, h, THEME.lang, THEME.palette, THEME.epoch)


def _fits(s: str, room: int, bold: bool) -> bool:
    """Whether s fits `room` at the readable minimum (fit() shrinks no further)."""
    return fonts.text_size(s, THEME.lang, THEME.min_px, bold)[0] <= room


@lru_cache(maxsize=256)
def _face(
    key: str, w: int, h: int, lang: str, palette: str, epoch: int, lower: bool = True,
    foot: bool = True,
) -> pygame.Surface:
    """`lower` False: the words under the picture are left out (a back-row card of a
    two-row hand shows only its top; a word half under the card in front reads badly).
    `foot` False: a Travel card's chip, low on the face, too (the screen's edge cuts the
    foot of a folded hand's card; the title names the clan)."""
    surf = pygame.Surface((w, h), pygame.SRCALPHA)
    r = pygame.Rect(0, 0, w, h)
    rad = max(5, w // 11)
    clan = card_clan(key)
    if clan is not None:
        accent = THEME.clan(clan)
    elif key == "travel_grey":
        accent = GREY_CARD
    elif key == "boss":
        accent = (212, 170, 60)
    elif key == "stop":
        accent = (200, 50, 50)
    else:  # recruit
        accent = (70, 140, 170)
    # body
    pygame.draw.rect(surf, darken(accent, 0.45), r, border_radius=rad)
    inner = r.inflate(-max(4, w // 22), -max(4, w // 22))
    pygame.draw.rect(surf, PAPER, inner, border_radius=rad - 1)
    band = _band(w, h)
    pygame.draw.rect(
        surf, accent, band, border_top_left_radius=rad - 1, border_top_right_radius=rad - 1
    )
    pygame.draw.rect(surf, lighten(accent, 0.3), (band.x, band.y, band.width, max(2, h // 60)))
    ink = THEME.clan_ink(clan) if clan is not None else (250, 248, 240)
    if key == "boss":
        ink = (40, 28, 10)
    # a small card shows its colour and picture, no words (the threshold grows with Large
    # text: the title screen's drifting cards ran their words over their chips)
    words = w >= TEXT_MIN_W * max(1.0, THEME.text_scale)
    low = words and lower  # the words under the picture
    if words:
        band, lines, y, lh = _title_layout(key, band)
        pygame.draw.rect(
            surf, accent, band, border_top_left_radius=rad - 1, border_top_right_radius=rad - 1
        )
        room = band.width - 8
        for line in lines:
            if draw.text_width(line, TITLE_PX, True) > room:  # the squeezed word: card art
                img = fonts.render_text(line, THEME.lang, THEME.font_px(TITLE_PX), ink, True)
                size = (room, max(1, img.get_height() * room // img.get_width()))
                img = pygame.transform.smoothscale(img, size)
            else:
                img = draw.fit(line, TITLE_PX, room, ink, True)
            surf.blit(img, img.get_rect(midtop=(band.centerx, y)))
            y += lh
    art = pygame.Rect(inner.x, band.bottom, inner.width, inner.bottom - band.bottom)
    cx, cy = art.centerx, art.y + int(art.height * 0.46)
    if key.startswith("clan_"):
        if not words:
            chip = draw.clan_chip(clan, int(w * 0.62))
            surf.blit(chip, chip.get_rect(center=(cx, art.centery)))
        else:
            lh = draw.line_height(TITLE_PX)
            below = 2 * lh  # the family's and the colour's lines under the chip, where
            if art.height - below - 10 < w // 5:  # they leave it room (at Large text a
                below, low = 0, False  # tall title takes it: the title names the clan)
            chip = draw.clan_chip(clan, max(w // 5, min(int(w * 0.46), art.height - below - 10)))
            surf.blit(chip, chip.get_rect(center=(cx, art.y + (art.height - below) // 2)))
            family = tr(f"clan.{CLAN_KEYS[clan]}.family")
            bold = draw.text_width(family, TITLE_PX, True) <= inner.width - 8
            if low and _fits(family, inner.width - 4, bold):  # else the title names it
                fam = draw.fit(family, TITLE_PX, inner.width - 4, INK, bold)  # narrow: light
                surf.blit(fam, fam.get_rect(midbottom=(cx, art.bottom - lh - 3)))
            colour = tr(f"clan.{CLAN_KEYS[clan]}")
            if low and _fits(colour, inner.width - 8, False):
                col = draw.fit(colour, TITLE_PX, inner.width - 8, darken(accent, 0.4))
                surf.blit(col, col.get_rect(midbottom=(cx, art.bottom - 2)))
    elif key.startswith("travel_"):
        sc = draw.suitcase(int(w * 0.5))
        surf.blit(sc, sc.get_rect(center=(cx, cy - int(h * 0.03))))
        if foot:
            _travel_chips(surf, clan, w, h, cx, art.bottom)
    elif key == "boss":
        cr = draw.crown(int(w * 0.56))
        surf.blit(cr, cr.get_rect(center=(cx, cy)))
        boss_says = tr("phrase.im_the_boss")
        if low and boss_says != card_name(key) and _fits(boss_says, inner.width - 8, True):
            sub = draw.fit(
                tr("phrase.im_the_boss"), TITLE_PX, inner.width - 8, darken(accent, 0.5), True
            )
            surf.blit(sub, sub.get_rect(center=(cx, art.bottom - int(h * 0.09))))
    elif key == "stop":
        rr = int(w * 0.3)
        pts = [
            (
                cx + rr * math.cos(math.radians(22.5 + 45 * i)),
                cy + rr * math.sin(math.radians(22.5 + 45 * i)),
            )
            for i in range(8)
        ]
        pygame.draw.polygon(surf, darken(accent, 0.3), [(x, y + 2) for x, y in pts])
        pygame.draw.polygon(surf, accent, pts)
        pygame.draw.polygon(surf, (255, 255, 255), pts, width=max(2, w // 40))
        word = tr("card.stop_sign")  # the sign's own word (停), not the card's name again
        if words and draw.text_width(word, TITLE_PX, True) <= int(rr * 1.8):
            label = draw.fit(word, TITLE_PX, int(rr * 1.8), (255, 255, 255), True)
            surf.blit(label, label.get_rect(center=(cx, cy)))
        elif low:  # too long for the sign: under it
            label = draw.fit(word, TITLE_PX, inner.width - 8, darken(accent, 0.3), True)
            surf.blit(label, label.get_rect(midbottom=(cx, art.bottom - 2)))
    else:  # recruitment: three figures, one pulled across
        fig = int(w * 0.13)
        for i, dx in enumerate((-1.3, 0, 1.3)):
            col = accent if i != 2 else darken(accent, 0.3)
            x = cx + dx * fig
            pygame.draw.circle(surf, col, (x, cy - fig * 0.9), fig * 0.45)
            pygame.draw.rect(
                surf,
                col,
                (x - fig * 0.55, cy - fig * 0.35, fig * 1.1, fig * 1.4),
                border_radius=max(2, fig // 3),
            )
        if low:
            tri = draw.fit("×3", TITLE_PX, inner.width, darken(accent, 0.4), True)
            surf.blit(tri, tri.get_rect(center=(cx, art.bottom - int(h * 0.1))))
    pygame.draw.rect(surf, darken(accent, 0.5), r, width=max(1, w // 60), border_radius=rad)
    return surf


def _travel_chips(surf, clan: int | None, w: int, h: int, cx: int, bottom: int) -> None:
    """A Travel card's clan under its suitcase, or the six clans of one for any clan."""
    if clan is not None:
        chip = draw.clan_chip(clan, int(w * 0.28))
        surf.blit(chip, chip.get_rect(center=(cx, bottom - int(h * 0.12))))
        return
    row = int(w * 0.13)
    x0 = cx - 3 * row
    for c in range(6):
        chip = draw.clan_chip(c, row - 2)
        surf.blit(chip, (x0 + c * row, bottom - int(h * 0.12) - row // 2))


FACE_SHIFT = (-2, -2)  # the face's centre from a rotated() image's centre (its shadow)


def rotated(
    key: str,
    angle: int,
    w: int = CARD_W,
    h: int = CARD_H,
    lift: bool = False,
    dim: bool = False,
    lower: bool = True,
    foot: bool = True,
) -> pygame.Surface:
    """The face rotated by a whole-degree angle (cached); lift adds a glow for valid plays,
    dim darkens a card no legal action uses now; lower False leaves out the words under
    the picture, foot False a Travel card's chip too (`_face`)."""
    return _rotated(
        key, int(angle), w, h, lift, dim, THEME.lang, THEME.palette, THEME.epoch, lower, foot
    )


@lru_cache(maxsize=1024)
def _rotated(key, angle, w, h, lift, dim, lang, palette, epoch, lower=True, foot=True) -> pygame.Surface:
    base = _face(key, w, h, lang, palette, epoch, lower, foot)
    if dim:
        base = base.copy()
        base.fill((150, 150, 150, 255), special_flags=pygame.BLEND_RGBA_MULT)
    if lift:
        spread = 9
        g = pygame.Surface((w + 2 * spread, h + 2 * spread), pygame.SRCALPHA)
        g.blit(draw.glow_surface(w, h, (255, 226, 110), max(5, w // 11), spread), (0, 0))
        g.blit(base, (spread, spread))
        base = g
    shadow = pygame.Surface((base.get_width() + 8, base.get_height() + 8), pygame.SRCALPHA)
    pygame.draw.rect(
        shadow, (0, 0, 0, 70), shadow.get_rect().inflate(-6, -6).move(3, 4), border_radius=12
    )
    shadow.blit(base, (2, 2))
    if angle == 0:
        return shadow
    return pygame.transform.rotozoom(shadow, angle, 1.0)


def small_back(w: int, h: int) -> pygame.Surface:
    return draw.card_back(w, h)
