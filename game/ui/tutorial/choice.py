"""Reopening a lesson left half-way: Resume at the step reached, or Start over (which
throws that progress away, so it is offered, never done silently), or Back."""

from __future__ import annotations

import pygame

from game.tutorial import load_script

from ..drawing import draw
from ..drawing.theme import GOLD, TEXT_DIM
from ..drawing.widgets import Button
from ..i18n import tr
from ..screen.scene import Scene

PANEL = pygame.Rect(960 - 340, 280, 680, 500)


class TutorialChoiceScene(Scene):
    name = "tutorial.choice"
    opaque = False

    def __init__(self, app, step: int) -> None:
        super().__init__(app)
        self.step = step
        self.total = len(load_script().steps)

    def layout(self) -> None:
        w, h, x = 520, 72, 960 - 260
        self.widgets = [
            Button((x, 470, w, h), tr("tutorial.resume", n=self.step + 1), self.resume,
                   style="primary", size=30, name="tutorial.resume", hotkey=pygame.K_RETURN),
            Button((x, 560, w, h), tr("tutorial.start_over"), self.start_over, size=28,
                   name="tutorial.start_over", tip=tr("tip.tutorial.start_over")),
            Button((x, 650, w, h - 8), tr("ui.back"), self.app.pop, style="ghost", size=26,
                   name="tutorial.back", hotkey=pygame.K_ESCAPE),
        ]  # fmt: skip
        for wdg in self.widgets:
            wdg.panel = PANEL

    def resume(self) -> None:
        from .scene import start_tutorial

        start_tutorial(self.app, resume=True)

    def start_over(self) -> None:
        from .scene import start_tutorial

        start_tutorial(self.app, resume=False)

    def draw(self, surface) -> None:
        draw.draw_dialog(surface, PANEL)
        title = draw.fit(tr("title.learn"), 48, 600, GOLD, True)
        surface.blit(title, title.get_rect(center=(960, 340)))
        note = tr("tutorial.resume_note", n=self.step + 1, total=self.total)
        draw.blit_wrapped(surface, note, pygame.Rect(960 - 300, 390, 600, 70), 24, TEXT_DIM,
                          align="center")  # fmt: skip
        super().draw(surface)
