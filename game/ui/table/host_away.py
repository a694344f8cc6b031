"""The question a LAN table asks when its host goes away: wait for it, or leave.

The session says why the host is out of reach (`NetSession.host_away`: it closed the table,
or contact was lost); the dialog says so over the board and offers Wait (the notice line
stays, the client keeps trying) or Leave (back to the title). It asks once per absence and
goes by itself when the host is back. While it is open it takes the input: nothing else at
the table can reach the host anyway.
"""

from __future__ import annotations

import pygame

from ..drawing import draw
from ..drawing.theme import GOLD, TEXT_DIM
from ..drawing.widgets import Button
from ..i18n import tr
from . import layout as L

RECT = pygame.Rect(0, 0, 620, 330)
RECT.center = L.CENTER.center


class HostAwayDialog:
    def __init__(self, session, on_leave) -> None:
        self.session = session
        self.on_leave = on_leave  # leave the table: the scene goes back to the title
        self.waiting = False  # the player chose Wait for this absence
        self.buttons: list[Button] = []

    @property
    def shown(self) -> bool:
        return self.session.host_away is not None and not self.waiting

    def sync(self) -> bool:
        """Follow the session (once a frame); True when the dialog appeared or went."""
        before = bool(self.buttons)
        if self.session.host_away is None:
            self.waiting = False  # the host is back: the next absence asks again
        if self.shown and not self.buttons:
            self.buttons = self._buttons()
        elif not self.shown:
            self.buttons = []
        if self.buttons:  # it gave up trying for good: only Leave is left
            self.buttons[0].enabled = self.session.status != "failed"
        return before != bool(self.buttons)

    def _buttons(self) -> list[Button]:
        w, h, gap = 260, 66, 24
        y = RECT.bottom - h - 28
        x = RECT.centerx - w - gap // 2
        return [
            Button(
                (x, y, w, h),
                lambda: tr("net.host_wait"),
                self.wait,
                style="primary",
                size=28,
                name="host_away.wait",
            ),
            Button(
                (x + w + gap, y, w, h),
                lambda: tr("net.host_leave"),
                self.on_leave,
                style="danger",
                size=28,
                name="host_away.leave",
            ),
        ]

    def wait(self) -> None:
        self.waiting = True  # the next sync() takes the dialog away

    def handle(self, event) -> bool:
        """The buttons' clicks (their keys, Esc and Q, are the table's Overlay.HOST_AWAY)."""
        return any(b.handle(event) for b in self.buttons)

    def draw(self, surface, t: float) -> None:
        if not self.buttons:
            return
        draw.draw_dialog(surface, RECT)
        title = draw.fit(self.session.notice() or "", 34, RECT.width - 60, GOLD, True)
        surface.blit(title, title.get_rect(midtop=(RECT.centerx, RECT.y + 34)))
        note = pygame.Rect(RECT.x + 40, RECT.y + 100, RECT.width - 80, 110)
        draw.blit_wrapped(surface, tr("net.host_wait_note"), note, 24, TEXT_DIM, align="center")
        for b in self.buttons:
            b.draw(surface, t)
