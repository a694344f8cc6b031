"""The pause menu over the table (Esc): resume, rules, settings, leave the game.

"Leave the game" asks first. A hot-seat game is then left with its autosave kept (Continue on
the title picks it up) or, explicitly, abandoned (the autosave goes). Leaving a LAN seat gives
it to a bot (its token can still take it back). Over the LAN nothing pauses: the menu says so."""

from __future__ import annotations

import pygame

from ..drawing import draw
from ..drawing.theme import GOLD, TEXT_DIM
from ..drawing.widgets import Button
from ..i18n import tr
from ..screen import router
from ..screen.router import Route
from ..screen.scene import Scene

PANEL = pygame.Rect(960 - 320, 240, 640, 540)


class PauseScene(Scene):
    name = "pause"
    animated = False  # still unless an event, a tooltip or a glow says otherwise
    opaque = False

    def __init__(self, app, table) -> None:
        super().__init__(app)
        self.table = table

    def layout(self) -> None:
        self.widgets = self._confirm_widgets() if self.confirming else self._menu_widgets()
        for w in self.widgets:
            w.panel = PANEL

    confirming = False  # "Leave the game?" is being asked

    def _menu_widgets(self) -> list[Button]:
        w, h, x = 520, 74, 960 - 260
        y = 380
        return [
            Button(
                (x, y, w, h),
                lambda: tr("menu.resume"),
                self.app.pop,
                style="primary",
                size=30,
                name="menu.resume",
                hotkey=pygame.K_ESCAPE,
            ),
            Button(
                (x, y + 92, w, h),
                lambda: tr("title.rules"),
                self.rules,
                size=28,
                name="menu.rules",
                hotkey=pygame.K_r,
            ),
            Button(
                (x, y + 184, w, h),
                lambda: tr("title.settings"),
                self.settings,
                size=28,
                name="menu.settings",
                hotkey=pygame.K_s,
            ),
            Button(
                (x, y + 276, w, h),
                lambda: tr("menu.leave"),
                self.leave,
                style="danger",
                size=28,
                name="menu.leave",
                hotkey=pygame.K_q,
            ),
        ]

    def _confirm_widgets(self) -> list[Button]:
        w, h, x = 520, 74, 960 - 260
        y = 470
        live, lesson = self.table.session.live, self.table.session.lesson
        out = [
            Button(
                (x, y, w, h),
                lambda: tr("menu.leave" if live or lesson else "menu.leave_keep"),
                self.leave_keep,
                style="primary",
                size=28,
                name="menu.leave_keep",
                hotkey=pygame.K_RETURN,
            )
        ]
        if not live and not lesson:  # a lesson's progress stays; Start over is on the title
            out.append(
                Button(
                    (x, y + 92, w, h),
                    lambda: tr("menu.abandon"),
                    self.abandon,
                    style="danger",
                    size=28,
                    name="menu.abandon",
                )
            )
        out.append(
            Button(
                (x, y + 92 * len(out), w, h),
                lambda: tr("ui.cancel"),
                self.cancel_leave,
                size=28,
                name="menu.cancel_leave",
                hotkey=pygame.K_ESCAPE,
            )
        )
        return out

    def rules(self) -> None:
        from .rules import RulesScene

        self.app.push(RulesScene(self.app))

    def settings(self) -> None:
        from .settings import SettingsScene

        self.app.push(SettingsScene(self.app))

    def leave(self) -> None:
        """Ask first: "Leave the game?"."""
        self.confirming = True
        self.layout()

    def cancel_leave(self) -> None:
        self.confirming = False
        self.layout()

    def leave_keep(self) -> None:
        """Leave; a hot-seat game keeps its autosave (Continue offers it), a LAN seat goes
        to a bot."""
        if self.table.session.live:
            self.table.session.abandon()
        self.app.replace(router.scene(Route.TITLE, self.app))

    def abandon(self) -> None:
        """Leave and throw the game away: its autosave goes."""
        self.table.session.abandon()
        self.app.replace(router.scene(Route.TITLE, self.app))

    def draw(self, surface) -> None:
        draw.draw_dialog(surface, PANEL)
        session = self.table.session
        live = session.live
        if self.confirming:
            title = draw.fit(tr("menu.leave_question"), 48, 560, GOLD, True)
            surface.blit(title, title.get_rect(center=(960, 300)))
            note = tr(
                "menu.host_note"
                if session.owns_host
                else "menu.lan_leave_note"
                if live
                else "menu.lesson_leave_note"
                if session.lesson
                else "menu.leave_note"
            )
            draw.blit_wrapped(
                surface, note, pygame.Rect(960 - 280, 350, 560, 100), 22, TEXT_DIM, align="center"
            )
            super().draw(surface)
            return
        title = draw.fit(tr("menu.title_lan" if live else "menu.paused"), 48, 560, GOLD, True)
        surface.blit(title, title.get_rect(center=(960, 300)))
        if live:
            note = draw.fit(tr("menu.host_note" if session.owns_host else "menu.lan_note"), 22, 600, TEXT_DIM)
            surface.blit(note, note.get_rect(center=(960, 350)))
        super().draw(surface)
