"""The table display: the public board for everyone in the room, on the host's big screen.

A spectator's `NetSession` (view seat None): the board, the players' plates with their
connection states, the negotiation panel (read-only: a spectator has no legal actions),
the countdowns and the log. Nothing private ever reaches it (the host sends a spectator the
public view only).

The room reads it from across the room, so its least text is a TV's (`TV_TEXT_PX`, the
theme's floor while the display is on the stack) and every part stays at its own size:
the table's canvas is the screen's width already, so any part grown (the board, once)
narrows another (the panel and the log fell to 14-17 px). Nobody holds a hand at a TV:
the hand's place, under the board, holds the join strip (`strip_rect`): the room code,
the address, and a square beside the code (`JoinStrip.code_slot`) for a code a phone can
scan.
"""

from __future__ import annotations

import pygame

from ..drawing import draw
from ..drawing.qr import page_address, qr_surface
from ..drawing.theme import GOLD, TEXT, TEXT_DIM, THEME, TV_TEXT_PX
from ..i18n import tr
from . import layout as L
from .scene import TableScene

HINT_PX = 18


def strip_rect() -> pygame.Rect:
    """The join strip: the hand's place (under the board, beside the log)."""
    return L.HAND.copy()


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
        if key != self._key:
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

    def __init__(self, app, session, **kw) -> None:
        super().__init__(app, session, **kw)
        self.strip = JoinStrip()

    def enter(self) -> None:
        THEME.configure(floor_px=TV_TEXT_PX)  # the whole table laid out for it
        L.use(L.STANDARD)
        super().enter()

    def relayout(self) -> None:
        """The standard layout on every screen: the compact one gives a hand room at a small
        screen's 20 px by folding the log to a column, and here no hand is held."""
        L.use(L.STANDARD)
        super().relayout()

    def exit(self) -> None:
        super().exit()
        THEME.configure(floor_px=0)
        self.app.fit_text()  # the window's own minimum and layout again

    def _watching(self) -> int:
        seats = self.session.seats
        return seats.spectators if seats is not None else 0

    def _draw_public_hand_note(self, surface) -> None:
        """Nothing where a hand would be: the join strip is drawn there."""

    def draw(self, surface) -> None:
        super().draw(surface)
        s = self.session
        self.strip.draw(surface, strip_rect(), s.code, s.address, self._watching(), s.phone_url)

    def _refresh(self) -> None:
        super()._refresh()
        # a public screen: no greyed-out controls nobody here can use
        self.panel.widgets = [w for w in self.panel.widgets if getattr(w, "enabled", True)]
        self.widgets = [w for w in self.widgets if getattr(w, "enabled", True)]
