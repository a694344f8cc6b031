"""The title screen: Play (→ new game, defaults ready: one human and three bots), Settings,
Rules, Quit, and the language picker (each language's name drawn in its own script)."""

from __future__ import annotations

import math

import pygame

from .. import draw, fonts, i18n
from ..i18n import tr
from ..scene import Scene
from ..theme import GOLD, TEXT, TEXT_DIM
from ..widgets import Button
from .common import backdrop


class LanguageButton(Button):
    """A button whose label is drawn in its own language's fonts."""

    def __init__(self, rect, lang: str, on_click, selected: bool, name: str) -> None:
        super().__init__(rect, "", on_click, style="primary" if selected else "normal", name=name)
        self.lang = lang

    def draw(self, surface, t: float) -> None:
        super().draw(surface, t)
        ink = (30, 28, 26) if self.style == "primary" else TEXT
        img = fonts.render_text(i18n.native_name(self.lang), self.lang, 28, ink, True)
        surface.blit(
            img,
            img.get_rect(center=(self.rect.centerx, self.rect.centery - (2 if self.down else 0))),
        )


class TitleScene(Scene):
    name = "title"

    def layout(self) -> None:
        app = self.app
        cx = 960
        w, h = 460, 78
        y = 520
        self.widgets = [
            Button(
                (cx - w // 2, y, w, h),
                lambda: tr("title.play"),
                self.play,
                style="primary",
                size=34,
                icon="crown",
                name="title.play",
                hotkey=pygame.K_RETURN,
            ),
            Button(
                (cx - w // 2, y + 96, w, h - 8),
                lambda: tr("title.settings"),
                self.settings,
                size=30,
                name="title.settings",
                hotkey=pygame.K_s,
            ),
            Button(
                (cx - w // 2, y + 184, w, h - 8),
                lambda: tr("title.rules"),
                self.rules,
                size=30,
                name="title.rules",
                hotkey=pygame.K_r,
            ),
            Button(
                (cx - w // 2, y + 272, w, h - 8),
                lambda: tr("title.quit"),
                app.quit,
                style="ghost",
                size=28,
                name="title.quit",
                hotkey=pygame.K_q,
            ),
        ]
        lw, gap = 220, 16
        x0 = cx - (4 * lw + 3 * gap) // 2
        for i, lang in enumerate(i18n.LANGUAGES):
            self.widgets.append(
                LanguageButton(
                    (x0 + i * (lw + gap), 960, lw, 62),
                    lang,
                    lambda lang=lang: app.set_language(lang),
                    app.config.language == lang,
                    f"lang.{lang}",
                )
            )

    def play(self) -> None:
        from .newgame import NewGameScene

        self.app.push(NewGameScene(self.app))

    def settings(self) -> None:
        from .settings import SettingsScene

        self.app.push(SettingsScene(self.app))

    def rules(self) -> None:
        from .rules import RulesScene

        self.app.push(RulesScene(self.app))

    def handle(self, event) -> bool:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.app.quit()
            return True
        return super().handle(event)

    def draw(self, surface) -> None:
        t = self.t
        backdrop(surface, t)
        # the crown and the title, with a little life
        bob = math.sin(t * 1.6) * 6
        cr = draw.crown(150)
        surface.blit(cr, cr.get_rect(center=(960, 150 + bob)))
        title = tr("app.title")
        img = draw.fit(title, 132, 1500, GOLD, True)
        shadow = draw.fit(title, 132, 1500, (20, 10, 0), True)
        r = img.get_rect(center=(960, 320))
        surface.blit(shadow, r.move(5, 7))
        surface.blit(img, r)
        sub = draw.fit(tr("title.subtitle"), 32, 1400, TEXT)
        surface.blit(sub, sub.get_rect(center=(960, 430)))
        hint = draw.fit(tr("title.hint"), 20, 1600, TEXT_DIM)
        surface.blit(hint, hint.get_rect(center=(960, 1050)))
        super().draw(surface)
