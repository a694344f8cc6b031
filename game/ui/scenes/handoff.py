"""The hot-seat privacy screen: full screen in the next player's colour, "Pass to Mei",
nothing of the table visible until that player clicks (or presses Space / Enter)."""

from __future__ import annotations

import math

import pygame

from ..drawing import draw
from ..drawing.theme import darken, lighten, seat_colour
from ..i18n import tr
from ..screen.scene import Scene


class HandOffScene(Scene):
    name = "handoff"
    opaque = True

    def __init__(self, app, seat: int, player: str, on_reveal) -> None:
        super().__init__(app)
        self.seat = seat
        self.player = player
        self.on_reveal = on_reveal
        self.done = False
        self._bg: pygame.Surface | None = None

    def reveal(self) -> None:
        if self.done:
            return
        self.done = True
        self.app.sounds.play("ui_click")
        self.app.stack.remove(self)
        self.on_reveal()

    def handle(self, event) -> bool:
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            self.reveal()
            return True
        if event.type == pygame.KEYDOWN and event.key in (
            pygame.K_SPACE,
            pygame.K_RETURN,
            pygame.K_KP_ENTER,
        ):
            self.reveal()
            return True
        return event.type in (pygame.MOUSEBUTTONDOWN, pygame.KEYDOWN)

    def _background(self) -> pygame.Surface:
        if self._bg is None:
            col = seat_colour(self.seat)
            self._bg = draw.vertical_gradient(
                (1920, 1080), darken(col, 0.35), darken(col, 0.72)
            ).convert()
        return self._bg

    def draw(self, surface) -> None:
        surface.blit(self._background(), (0, 0))
        col = seat_colour(self.seat)
        pulse = draw.pulse(self.t, 0.6)
        ring = int(170 + 20 * pulse)
        pygame.draw.circle(surface, lighten(col, 0.15), (960, 380), ring, width=10)
        pygame.draw.circle(surface, darken(col, 0.15), (960, 380), ring - 26)
        hand = draw.card_back(120, 170)
        for k, ang in enumerate((-14, 0, 14)):
            img = pygame.transform.rotate(hand, ang)
            surface.blit(img, img.get_rect(center=(960 + (k - 1) * 46, 384 + abs(k - 1) * 10)))
        title = tr("handoff.pass_to", name=self.player)
        img = draw.fit(title, 96, 1700, (255, 255, 255), True)
        shadow = draw.fit(title, 96, 1700, (0, 0, 0), True)
        r = img.get_rect(center=(960, 680))
        surface.blit(shadow, r.move(4, 6))
        surface.blit(img, r)
        sub = draw.fit(tr("handoff.click_when", name=self.player), 40, 1600, lighten(col, 0.7))
        surface.blit(sub, sub.get_rect(center=(960, 800)))
        hint = draw.fit(tr("handoff.hint"), 26, 1600, lighten(col, 0.45))
        hint.set_alpha(int(150 + 100 * math.sin(self.t * 3) ** 2))
        surface.blit(hint, hint.get_rect(center=(960, 980)))
