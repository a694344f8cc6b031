"""The table display: the public board for everyone in the room, on the host's big screen.

A spectator's `NetSession` (view seat None): the board, the players' plates with their
connection states, the negotiation panel (read-only: a spectator has no legal actions),
the countdowns and the log. Where a player's hand would be, the room code and the address
are shown big for people joining. Nothing private ever reaches it (the host sends a
spectator the public view only).
"""

from __future__ import annotations

import pygame

from .. import draw
from ..i18n import tr
from ..qr import phone_card
from ..theme import GOLD, TEXT, TEXT_DIM, THEME
from . import layout as L
from .scene import TableScene

#: the phone block at the card's right end: the QR code (as tall as the card) and its words
PHONE_BLOCK = 460


def join_card(
    code: str | None, address: str | None, width: int, height: int, phone_url: str | None = None
) -> pygame.Surface:
    """A panel with the room code and the address, big, for people joining; with a phone
    page, its QR code at the right end (game.ui.qr) instead of the desktop's join hint."""
    surf = draw.panel_surface(width, height, alpha=236).copy()
    ox, oy = 10, 10
    left = 500
    lab = draw.fit(tr("lobby.room_code"), 24, left - 60, TEXT_DIM, True)
    surf.blit(lab, (ox + 32, oy + 18))
    big = draw.fit(" ".join(code or "----"), 116, left - 60, GOLD, True)
    surf.blit(big, big.get_rect(midleft=(ox + 28, oy + (height + lab.get_height() + 18) // 2)))
    x = ox + left
    pygame.draw.line(surf, (70, 110, 90), (x - 24, oy + 22), (x - 24, oy + height - 22), 2)
    w = width - left - 30 - (PHONE_BLOCK + 24 if phone_url else 0)
    lab2 = draw.fit(tr("lobby.address"), 24, w, TEXT_DIM, True)
    surf.blit(lab2, (x, oy + 18))
    addr = draw.fit(address or "—", 50, w, TEXT, True)
    surf.blit(addr, (x, oy + 18 + lab2.get_height() + 4))
    top = oy + 18 + lab2.get_height() + 4 + addr.get_height() + 6
    if phone_url:
        block = pygame.Rect(0, 0, PHONE_BLOCK, height - 20)
        block.topright = (ox + width - 30, oy + 10)
        surf.blit(phone_card(phone_url, block), block)
        return surf
    draw.blit_wrapped(
        surf, tr("display.join_hint"), pygame.Rect(x, top, w, oy + height - top), 20, TEXT_DIM
    )
    return surf


class TableDisplayScene(TableScene):
    name = "table_display"

    def __init__(self, app, session, **kw) -> None:
        super().__init__(app, session, **kw)
        self._join_img: pygame.Surface | None = None
        self._join_key = None

    def _draw_public_hand_note(self, surface) -> None:
        s = self.session
        phone_url = getattr(s, "phone_url", None)
        key = (s.code, s.address, phone_url, THEME.epoch)
        if key != self._join_key:
            self._join_img = join_card(
                s.code, s.address, L.HAND.width, L.HAND.height, phone_url
            )
            self._join_key = key
        surface.blit(self._join_img, (L.HAND.x - 10, L.HAND.y - 10))
        seats = s.seats
        if seats is not None and seats.spectators:
            img = draw.fit(tr("room.watching", n=seats.spectators), 20, 300, TEXT_DIM)
            if phone_url:  # the top right holds the phone's words: the bottom right then
                at = {"bottomright": (L.HAND.right - 24, L.HAND.bottom - 12)}
            else:
                at = {"topright": (L.HAND.right - 24, L.HAND.y + 12)}
            surface.blit(img, img.get_rect(**at))

    def _refresh(self) -> None:
        super()._refresh()
        # a public screen: no greyed-out controls nobody here can use
        self.panel.widgets = [w for w in self.panel.widgets if getattr(w, "enabled", True)]
        self.widgets = [w for w in self.widgets if getattr(w, "enabled", True)]
