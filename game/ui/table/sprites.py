"""What the animation director moves and draws: sprites, the big banners, the speech
bubbles over the plates (their images cached), and the money a payment's bubble shows."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import pygame

from ..drawing import draw, fonts
from ..drawing.theme import TEXT, THEME, darken
from ..i18n import tr
from . import layout as L


@dataclass
class Sprite:
    image: pygame.Surface
    x: float
    y: float
    alpha: float = 255.0
    scale: float = 1.0
    z: int = 0
    alive: bool = True

    def draw(self, surface) -> None:
        if self.alpha < 4:
            return
        img = self.image
        if abs(self.scale - 1.0) > 0.02:
            img = scaled(img, round(self.scale * 20))
        if self.alpha < 250:
            img = faded(img, int(self.alpha) // 32)
        surface.blit(img, img.get_rect(center=(round(self.x), round(self.y))))


_SCALED: dict = {}
_FADED: dict = {}


def faded(img: pygame.Surface, level: int) -> pygame.Surface:
    """img at alpha level*32 (8 cached steps per image instead of a copy per frame)."""
    key = (id(img), level)
    hit = _FADED.get(key)
    if hit is None:
        faded = img.copy()
        faded.fill((255, 255, 255, max(8, level * 32)), special_flags=pygame.BLEND_RGBA_MULT)
        if len(_FADED) > 600:
            _FADED.clear()
        _FADED[key] = (img, faded)  # keep img alive: its id stays unique while cached
        return faded
    return hit[1]


def scaled(img: pygame.Surface, step: int) -> pygame.Surface:
    """img scaled by step/20 (cached per source image and step)."""
    key = (id(img), step)
    hit = _SCALED.get(key)
    if hit is None:
        w, h = img.get_size()
        scaled = pygame.transform.smoothscale(img, (max(1, w * step // 20), max(1, h * step // 20)))
        if len(_SCALED) > 400:
            _SCALED.clear()
        _SCALED[key] = (img, scaled)  # keep img alive: its id stays unique while cached
        return scaled
    return hit[1]


@dataclass
class Banner:
    text: str
    colour: tuple
    y: float
    alpha: float = 0.0
    scale: float = 0.6
    alive: bool = True
    moment: str | None = None  # the event it announces: it goes when that moment ends

    def draw(self, surface) -> None:
        if self.alpha < 4:
            return
        img = banner_image(self.text, self.colour, THEME.epoch)
        if abs(self.scale - 1.0) > 0.02:
            img = scaled(img, max(1, round(self.scale * 20)))
        if self.alpha < 250:
            img = faded(img, int(self.alpha) // 32)
        surface.blit(img, img.get_rect(center=(L.W // 2 - 220, round(self.y))))


@lru_cache(maxsize=64)
def banner_image(text: str, colour: tuple, epoch: int) -> pygame.Surface:
    img = draw.fit(text, 76, 1100, colour, True)
    w, h = img.get_width() + 90, img.get_height() + 44
    surf = pygame.Surface((w, h), pygame.SRCALPHA)
    pygame.draw.rect(surf, (0, 0, 0, 150), (0, 6, w, h - 6), border_radius=28)
    pygame.draw.rect(surf, (20, 34, 28, 235), (0, 0, w, h - 6), border_radius=28)
    pygame.draw.rect(surf, colour, (0, 0, w, h - 6), width=4, border_radius=28)
    shadow = draw.fit(text, 76, 1100, (0, 0, 0), True)
    surf.blit(shadow, shadow.get_rect(center=(w // 2 + 3, (h - 6) // 2 + 4)))
    surf.blit(img, img.get_rect(center=(w // 2, (h - 6) // 2)))
    return surf


def paid_out(events: list[dict]) -> dict[int, int]:
    """What each player pays others in this batch of events (the Boss's agreements)."""
    out: dict[int, int] = {}
    for e in events:
        if e["type"] == "paid" and e["payer"] >= 0:
            out[e["payer"]] = out.get(e["payer"], 0) + e["amount"]
    return out


def gain_text(e: dict, paid: dict[int, int]) -> str:
    """The bubble over a payee: '+$8M', or for a Boss who pays the investors out of the
    dividends both figures, '+$18M, pays $10M' (the money shown is true)."""
    payee = e["payee"]
    gross = tr("money.amount", n=e["amount"])
    out = paid.get(payee, 0) if e["payer"] < 0 else 0
    if out:
        return tr("bubble.boss_gain", gross=gross, paid=tr("money.amount", n=out))
    return "+" + gross


@dataclass
class Bubble:
    seat: int
    text: str
    t: float = 0.0
    life: float = 2.6
    short: str = ""  # the same words in fewer, for a plate too narrow for them (Large text)


# the phrases said in fewer words where a bubble has no room for them
SHORT_PHRASES = {"phrase.deal_closed": "phrase.deal_closed.short"}


def phrase_bubble(seat: int, key: str, **kw) -> Bubble:
    """A player saying a table-talk phrase."""
    short = tr(SHORT_PHRASES[key]) if key in SHORT_PHRASES else ""
    return Bubble(seat, tr(key), short=short, **kw)


BUBBLE_TEXT_W = 460  # a bubble's words on one line, wrapped only past this
BUBBLE_PAD = 30  # the bubble round its words (both sides together)
BUBBLE_LINES = 2  # a bubble over a plate stays under the plate's name:
BUBBLE_MAX_H = 88  # its height, its tail included, at most
BUBBLE_FRAME_H = 30  # the body's room round its words and the tail


def _ink_bands(lines: list[pygame.Surface], size: int) -> list[pygame.Rect]:
    """Each line's band when stacked by ink: a Latin capital and descender at `size`, or
    more where the line's own ink reaches further (3 px apart)."""
    ref = fonts.render_text("Agy", THEME.lang, THEME.font_px(size), TEXT, True).get_bounding_rect()
    return [i.get_bounding_rect().union(ref).inflate(0, 3) for i in lines]


def bubble_words(text: str, width: int, short: str = "") -> str:
    """What a bubble `width` wide says: `text`, or `short` where text needs more lines
    than a bubble has, even at the readable minimum."""
    if short and len(draw.wrap(text, 1, width - BUBBLE_PAD, True)) > BUBBLE_LINES:
        return short
    return text


@lru_cache(maxsize=64)
def bubble_image(text: str, colour: tuple, epoch: int, width: int = BUBBLE_TEXT_W + BUBBLE_PAD,
                 short: str = ""):  # fmt: skip
    """A speech bubble at most `width` wide (its speaker's plate), its words on one line
    where they fit (shrunk down to the readable minimum), else on two: it rises over the
    speaker's plate, below the name. Words that need more lines say it `short` if they
    can."""
    text = bubble_words(text, width, short)
    room = width - BUBBLE_PAD
    one = fonts.text_size(text, THEME.lang, THEME.min_px, True)[0] <= min(room, BUBBLE_TEXT_W)
    lines = [draw.fit(text, 26, room, TEXT, True)] if one else []
    bands = [i.get_rect() for i in lines]
    for size in (26, 22, 1):  # two lines, smaller until they fit (1: the readable minimum)
        if lines:
            break
        parts = draw.wrap(text, size, room, True)
        lines = [draw.fit(line, size, room, TEXT, True) for line in parts]
        bands = [i.get_rect() for i in lines]
        if sum(b.height for b in bands) + BUBBLE_FRAME_H > BUBBLE_MAX_H:  # Large text:
            bands = _ink_bands(lines, size)  # the lines closer, by their ink
        tall = sum(b.height for b in bands) + BUBBLE_FRAME_H > BUBBLE_MAX_H
        if size != 1 and (len(parts) > BUBBLE_LINES or tall):
            lines = []
    img = pygame.Surface((max(i.get_width() for i in lines), sum(b.height for b in bands)), pygame.SRCALPHA)
    y = 0
    for line, band in zip(lines, bands, strict=True):
        img.blit(line, line.get_rect(midtop=(img.get_width() // 2, y - band.y)))
        y += band.height
    w, h = img.get_width() + BUBBLE_PAD, img.get_height() + BUBBLE_FRAME_H - 12
    surf = pygame.Surface((w, h + 12), pygame.SRCALPHA)
    body = pygame.Rect(0, 12, w, h)
    pygame.draw.polygon(
        surf, darken(colour, 0.45), [(w // 2 - 10, 13), (w // 2, 0), (w // 2 + 10, 13)]
    )
    pygame.draw.rect(surf, darken(colour, 0.45), body, border_radius=14)
    pygame.draw.rect(surf, colour, body, width=2, border_radius=14)
    surf.blit(img, img.get_rect(center=body.center))
    return surf
