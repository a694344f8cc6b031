"""The table display: the public board for everyone in the room, on the host's big screen.

A spectator's `NetSession` (view seat None): the board, the players' plates with their
connection states, the negotiation panel (read-only: a spectator has no legal actions),
the countdowns and the log. Nothing private ever reaches it (the host sends a spectator the
public view only).

The room looks at the board, so the display gives it the screen (`DisplayArrangement`): the table
is drawn as usual on a canvas of its own, then laid out anew on the window's canvas, the
board grown to the screen's height (less a strip for joining along its foot), the panel
and the log beside it in the rest of the width. The strip holds the room code and the address,
with a square place left beside the code (`JoinStrip.code_slot`) for a code a phone can
scan. On a screen too small for the panel's text once narrowed (the readable minimum,
`MIN_SCREEN_PX`), the table keeps its own places and the strip stands where a hand would.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from .. import draw, probe
from ..i18n import tr
from ..qr import page_address, qr_surface
from ..theme import GOLD, LOGICAL_SIZE, MIN_SCREEN_PX, TEXT, TEXT_DIM, THEME
from . import layout as L
from .board import felt
from .scene import TableScene

BOARD_GROWTH = 1.25  # the most the display grows the board (the screen's height allows 1.17)
STRIP_H = 96  # the join strip under the board, at least (taller where its words need it)
PHONE_STRIP_H = 124  # with a phone page: its QR code (37 modules with the quiet zone) at 3 px a module
MARGIN = 8
HINT_PX = 18


@dataclass(frozen=True)
class Part:
    """A rect of the table's own canvas and where it lands on the display (scaled)."""

    src: pygame.Rect
    dst: pygame.Rect

    @property
    def scale(self) -> float:
        return self.dst.width / self.src.width


@dataclass(frozen=True)
class DisplayArrangement:
    parts: tuple[Part, ...]
    strip: pygame.Rect  # the join strip

    def to_display(self, rect: pygame.Rect) -> pygame.Rect:
        """Where a rect of the table's canvas shows on the display (what covers it all)."""
        out = []
        for p in self.parts:
            clip = rect.clip(p.src)
            if clip.w and clip.h:
                k = p.scale
                out.append(pygame.Rect(p.dst.x + (clip.x - p.src.x) * k - 1,
                                       p.dst.y + (clip.y - p.src.y) * k - 1,
                                       clip.w * k + 3, clip.h * k + 3))  # fmt: skip
        return out[0].unionall(out[1:]) if out else pygame.Rect(rect.x, rect.y, 0, 0)

    def to_table(self, pos: tuple[int, int]) -> tuple[int, int]:
        """The table's canvas point shown at a display point (the pointer)."""
        for p in self.parts:
            if p.dst.collidepoint(pos):
                k = p.scale
                return (round(p.src.x + (pos[0] - p.dst.x) / k),
                        round(p.src.y + (pos[1] - p.dst.y) / k))  # fmt: skip
        return (-1, -1)  # the strip, a margin: nothing of the table's


def enlarged(strip_h: int = 0) -> DisplayArrangement:
    """The board grown (by BOARD_GROWTH at most) to the screen's height less a strip of
    `strip_h` (STRIP_H at least) along the foot of the screen, the panel and the log
    beside the board."""
    w, h = LOGICAL_SIZE
    top = L.BOARD.y - 8
    plates = pygame.Rect(0, 0, w, top)
    board_src = pygame.Rect(0, top, L.RIGHT.x, L.BOARD.bottom + 16 - top)
    grow = min(BOARD_GROWTH, (h - MARGIN - max(STRIP_H, strip_h) - 2 - top) / board_src.h)
    board = pygame.Rect(0, top, round(board_src.w * grow), round(board_src.h * grow))
    panel_src = pygame.Rect(L.RIGHT.x - 8, top, w - L.RIGHT.x + 8, L.RIGHT.bottom + 4 - top)
    k = (w - board.right) / panel_src.w
    panel = pygame.Rect(board.right, top, w - board.right, round(panel_src.h * k))
    strip = pygame.Rect(L.MARGIN, board.bottom + 2, w - 2 * L.MARGIN, 0)
    strip.height = h - MARGIN - strip.y
    log_src = pygame.Rect(L.LOG.x - 8, L.LOG.y - 4, w - L.LOG.x + 8, h - L.LOG.y + 4)
    room = pygame.Rect(board.right, panel.bottom, panel.w, strip.y - 8 - panel.bottom)
    kl = min(room.w / log_src.w, room.h / log_src.h)
    log = pygame.Rect(0, 0, round(log_src.w * kl), round(log_src.h * kl))
    log.bottomright = room.bottomright
    parts = (Part(plates, plates), Part(board_src, board), Part(panel_src, panel), Part(log_src, log))
    return DisplayArrangement(parts, strip)


def in_place(strip_h: int = 0) -> DisplayArrangement:
    """The table where it stands, the strip (`strip_h` tall, STRIP_H at least) at the foot
    of the hand's place."""
    whole = pygame.Rect((0, 0), LOGICAL_SIZE)
    h = max(STRIP_H, strip_h)
    strip = pygame.Rect(L.HAND.x, L.H - MARGIN - h, L.HAND.width, h)
    return DisplayArrangement((Part(whole, whole),), strip)


def panel_scale(arrangement: DisplayArrangement) -> float:
    return min(p.scale for p in arrangement.parts)


class JoinStrip:
    """The room code and the address in a strip for people joining, with a square place
    beside the code for a code a phone can scan."""

    def __init__(self) -> None:
        self._img: pygame.Surface | None = None
        self._key = None

    @staticmethod
    def code_slot(strip: pygame.Rect) -> pygame.Rect:
        """The square left free at the strip's left end (on the display's canvas)."""
        side = strip.height - 12
        return pygame.Rect(strip.x + 6, strip.y + 6, side, side)

    def draw(self, surface, strip: pygame.Rect, code, address, watching: int,
             phone_url: str | None = None) -> None:  # fmt: skip
        key = (strip.size, code, address, watching, phone_url, THEME.epoch)
        if key != self._key or probe.ACTIVE is not None:
            self._img, self._key = self.render(strip, code, address, watching, phone_url), key
        draw.draw_panel(surface, strip, alpha=236)
        surface.blit(self._img, strip.topleft)

    def render(self, strip: pygame.Rect, code, address, watching: int,
               phone_url: str | None = None) -> pygame.Surface:  # fmt: skip
        """The strip's picture: with a phone page, its QR code in the square and "Scan to
        play on your phone" with the page's host:port where the desktop's join hint goes."""
        surf = pygame.Surface(strip.size, pygame.SRCALPHA)
        for img, pos in self._words(strip, code, address, watching):
            surf.blit(img, pos)
        hint = self._hint_rect(strip, code, address, watching)
        pygame.draw.line(surf, (70, 110, 90), (hint.x - 14, 14), (hint.x - 14, strip.height - 14), 2)
        if phone_url is None:
            draw.blit_wrapped(surf, tr("display.join_hint"), hint, HINT_PX, TEXT_DIM)
            return surf
        slot = self.code_slot(pygame.Rect((0, 0), strip.size))
        qr = qr_surface(phone_url, slot.height)
        surf.blit(qr, qr.get_rect(center=slot.center))
        used = draw.blit_wrapped(surf, tr("display.scan_phone"), hint, HINT_PX + 6, TEXT, True)
        page = page_address(phone_url)
        below = pygame.Rect(hint.x, hint.y + used + 6, hint.width, max(0, hint.height - used - 6))
        draw.blit_wrapped(surf, page, below, HINT_PX + 4, TEXT_DIM)
        return surf

    def height(self, width: int, code, address, watching: int,
               phone_url: str | None = None) -> int:  # fmt: skip
        """The strip's height at `width`: STRIP_H (PHONE_STRIP_H with a phone page's QR
        code), or what its words need."""
        least = STRIP_H if phone_url is None else PHONE_STRIP_H
        hint = self._hint_rect(pygame.Rect(0, 0, width, least), code, address, watching)
        words = tr("display.join_hint") if phone_url is None else tr("display.scan_phone")
        return max(least, draw.wrapped_height(words, HINT_PX, hint.width) + 22)

    def _words(self, strip: pygame.Rect, code, address, watching: int) -> list[tuple]:
        """The code and the address in two rows, each after its label (and after the code,
        how many watch): (image, its place on the strip) each."""
        h = strip.height
        x = self.code_slot(pygame.Rect((0, 0), strip.size)).right + 18
        rows = ((tr("lobby.room_code"), " ".join(code or "----"), GOLD),
                (tr("lobby.address"), address or "—", TEXT))  # fmt: skip
        labels = [draw.fit(label, 20, 220, TEXT_DIM, True) for label, _, _ in rows]
        values = [draw.fit(value, 34, 340, colour, True) for _, value, colour in rows]
        at = x + max(img.get_width() for img in labels) + 14
        out = []
        for i, (lab, val) in enumerate(zip(labels, values, strict=True)):
            mid = round(h / 2 + (i - 0.5) * min(h * 0.46, 56))
            out.append((lab, lab.get_rect(midleft=(x, mid)).topleft))
            out.append((val, val.get_rect(midleft=(at, mid)).topleft))
        if watching:
            seen = draw.fit(tr("room.watching", n=watching), 18, 160, TEXT_DIM)
            mid = out[1][1][1] + values[0].get_height() // 2
            out.append((seen, seen.get_rect(midleft=(at + values[0].get_width() + 18, mid)).topleft))
        return out

    def _hint_rect(self, strip: pygame.Rect, code, address, watching: int) -> pygame.Rect:
        words = self._words(strip, code, address, watching)
        x = max(pos[0] + img.get_width() for img, pos in words) + 28
        return pygame.Rect(x, 10, strip.width - 14 - x, strip.height - 16)


class TableDisplayScene(TableScene):
    name = "table_display"
    keeps_patches = False  # its pulses' rects are scaled: a kept copy could miss an edge

    def __init__(self, app, session, **kw) -> None:
        super().__init__(app, session, **kw)
        self.strip = JoinStrip()
        self._table = pygame.Surface(LOGICAL_SIZE)  # the table's own canvas

    def arrangement(self) -> DisplayArrangement:
        """The board enlarged where the narrowed panel's text stays readable on this
        screen, else the table where it stands."""
        s = self.session
        width = enlarged().strip.width
        strip_h = self.strip.height(width, s.code, s.address, self._watching(), s.phone_url)
        grown = enlarged(strip_h)
        smallest = THEME.min_px * panel_scale(grown) * self.app.window.scale
        return grown if smallest >= MIN_SCREEN_PX and not L.compact() else in_place(strip_h)

    def _watching(self) -> int:
        seats = self.session.seats
        return seats.spectators if seats is not None else 0

    def _draw_public_hand_note(self, surface) -> None:
        """Nothing where a hand would be: the join strip is drawn on the display itself."""

    def draw(self, surface) -> None:
        where = self.arrangement()
        if probe.ACTIVE is not None or self._table.get_size() != LOGICAL_SIZE:
            self._table = pygame.Surface(LOGICAL_SIZE)  # seen by the probe while probing
        self._table.fill((0, 0, 0))
        mark = probe.ACTIVE.marks() if probe.ACTIVE is not None else None
        super().draw(self._table)
        if mark is not None:  # the controls and tooltips drawn land where their part does
            probe.ACTIVE.moved_since(mark, where.to_display)
        surface.blit(felt(), (0, 0))
        for part in where.parts:
            if part.scale == 1:
                surface.blit(self._table, part.dst, part.src)
            else:
                src = self._table.subsurface(part.src)
                surface.blit(pygame.transform.smoothscale(src, part.dst.size), part.dst)
                probe.note_scaled(surface, self._table, part.src, part.dst)
        s = self.session
        self.strip.draw(surface, where.strip, s.code, s.address, self._watching(), s.phone_url)

    def pulses(self) -> list[tuple[object, pygame.Rect]]:
        where = self.arrangement()
        return [(key, where.to_display(rect)) for key, rect in super().pulses()]

    def handle(self, event) -> bool:
        if hasattr(event, "pos") and event.type != pygame.MOUSEWHEEL:
            attrs = {k: v for k, v in event.dict.items() if k != "pos"}
            event = pygame.event.Event(event.type, pos=self.arrangement().to_table(event.pos),
                                       **attrs)  # fmt: skip
        return super().handle(event)

    def _refresh(self) -> None:
        super()._refresh()
        # a public screen: no greyed-out controls nobody here can use
        self.panel.widgets = [w for w in self.panel.widgets if getattr(w, "enabled", True)]
        self.widgets = [w for w in self.widgets if getattr(w, "enabled", True)]
