"""The title screen: Learn to play (the guided first game, first for a newcomer), Play (→ new game, defaults ready: one human and three bots), Continue
(the latest unfinished hot-seat game) and Saved games (all of them) while any is kept, Play
on the network (the LAN lobby), Settings, Rules, Watch a replay, Quit, and the language picker
(each language's name drawn in its own script). A kept game that cannot be read is set aside
with a clear message."""

from __future__ import annotations

import math

import pygame

from .. import i18n
from ..drawing import draw
from ..drawing.theme import GOLD, TEXT, TEXT_DIM, WARN
from ..drawing.widgets import Button
from ..i18n import and_list, tr, tr_count
from ..screen.scene import Scene
from .common import LanguageButton, backdrop, drifting_cards

ROW_Y = 280  # the small buttons' row under the big ones, a clear gap below the last


class TitleScene(Scene):
    name = "title"
    animated = False  # the drifting cards and the crown say where they move: pulses()
    # redrawn 30 times a second: the fastest card climbs 32 px/s (and sways 10), so each
    # redraw still moves it about a pixel, as at 60
    pulse_step = 1 / 30
    keeps_patches = False  # its cards drift on: their looks seldom come round again

    def __init__(self, app) -> None:
        super().__init__(app)
        self.kept: list = []  # the unfinished hot-seat games (autosave.KeptGame), latest first
        self.notice: str | None = None  # e.g. the autosave could not be read

    def enter(self) -> None:
        from ..sessions.lan import close_link

        close_link(self.app)  # back at the title: any LAN connection is over
        self._check_autosave()
        super().enter()

    @property
    def saved(self):
        """The game Continue opens: the latest saved (None when none is kept)."""
        return self.kept[0] if self.kept else None

    def _check_autosave(self) -> None:
        from ..sessions import autosave

        self.kept = []
        if not self.app.persist:
            return
        writer = getattr(self.app, "autosaver", None)
        if writer is not None:
            writer.flush(5.0)  # a game just left: its last save is being written
        self.kept, unreadable = autosave.kept_games()
        if unreadable:
            self.notice = tr("title.autosave_corrupt")

    def layout(self) -> None:
        app = self.app
        cx = 960
        w, h = 460, 78
        y = 500 if self.saved is not None else 520
        self.widgets = []
        quarter = (4 * w // 2 - 3 * 12) // 4  # the last row is twice as wide
        row_x = cx - (4 * quarter + 3 * 12) // 2
        if self.saved is not None:  # as wide as the last row: Continue, Saved games
            half = (4 * quarter + 3 * 12 - 12) // 2
            self.widgets += [
                Button(
                    (row_x, y, half, h - 8),
                    lambda: tr("title.continue"),
                    self.resume,
                    style="good",
                    size=30,
                    name="title.continue",
                    hotkey=pygame.K_c,
                    tip=lambda: tr_count(
                        "title.continue.desc",
                        self.saved.actions,
                        players=and_list(self.saved.names),
                    ),
                ),
                Button(
                    (row_x + half + 12, y, half, h - 8),
                    lambda: tr("title.saved_games", n=len(self.kept)),
                    self.saved_games,
                    size=30,
                    name="title.saved_games",
                    hotkey=pygame.K_g,
                    tip=lambda: tr("tip.title.saved_games"),
                ),
            ]
            y += 86
        self.widgets += [
            Button(
                (cx - w // 2, y, w, h),
                lambda: tr("title.learn"),
                self.learn,
                style="primary",
                size=34,
                icon="crown",
                name="title.learn",
                hotkey=pygame.K_l,
                tip=lambda: tr("tip.title.learn"),
            ),
            Button(
                (cx - w // 2, y + 94, w, h - 8),
                lambda: tr("title.play"),
                self.play,
                style="good",
                size=32,
                name="title.play",
                hotkey=pygame.K_RETURN,
            ),
            Button(
                (cx - w // 2, y + 180, w, h - 8),
                lambda: tr("title.lan"),
                self.lan,
                size=30,
                name="title.lan",
                hotkey=pygame.K_n,
            ),
        ]
        row = [
            ("title.settings", self.settings, pygame.K_s, "normal", None),
            ("title.rules", self.rules, pygame.K_r, "normal", None),
            ("title.replays", self.replays, pygame.K_w, "normal", "tip.title.replays"),
            ("title.quit", app.quit, pygame.K_q, "ghost", None),
        ]
        for i, (key, act, hotkey, style, tip) in enumerate(row):
            self.widgets.append(
                Button(
                    (row_x + i * (quarter + 12), y + ROW_Y, quarter, h - 14),
                    lambda key=key: tr(key),
                    act,
                    style=style,
                    size=26,
                    name=key,
                    hotkey=hotkey,
                    tip=(lambda tip=tip: tr(tip)) if tip else None,
                )
            )
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

    def resume(self) -> None:
        """Continue the latest kept hot-seat game where it stopped."""
        from ..sessions.resume import continue_game

        why = continue_game(self.app, self.saved.path)
        if why is None:
            return
        self._check_autosave()
        self.notice = tr(why)
        self.layout()

    def saved_games(self) -> None:
        from .saved_games import SavedGamesScene

        self.app.push(SavedGamesScene(self.app))

    def learn(self) -> None:
        """The guided first game: resumed or started over when one was left half-way."""
        from ..tutorial.choice import TutorialChoiceScene
        from ..tutorial.scene import saved_step, start_tutorial

        step = saved_step() if self.app.persist else 0
        if step > 0:
            self.app.push(TutorialChoiceScene(self.app, step))
        else:
            start_tutorial(self.app, resume=False)

    def lan(self) -> None:
        from .lobby import LobbyScene

        self.app.push(LobbyScene(self.app))

    def play(self) -> None:
        from .newgame import NewGameScene

        self.app.push(NewGameScene(self.app))

    def replays(self) -> None:
        from .replays import ReplayListScene

        self.app.push(ReplayListScene(self.app))

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

    def _moving(self) -> list[tuple[pygame.Surface, pygame.Rect]]:
        """What moves by itself: the drifting cards and the bobbing crown (picture, place)."""
        crown = draw.crown(150)
        bob = math.sin(self.t * 1.6) * 6
        return [*drifting_cards(self.t), (crown, crown.get_rect(center=(960, 150 + bob)))]

    def pulses(self) -> list[tuple[object, pygame.Rect]]:
        """The drifting cards and the crown too (each picture is kept, so `!=` tells)."""
        return super().pulses() + self._moving()

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
        at = sub.get_rect(center=(960, 430))  # under the title's ink (Large text, Chinese)
        at.y = max(at.y, r.y + 7 + img.get_bounding_rect().bottom + 6 - sub.get_bounding_rect().y)
        surface.blit(sub, at)
        if self.notice:
            note = draw.fit(self.notice, 24, 1400, WARN, True)
            r = note.get_rect(center=(960, max(474, at.bottom + 22))).inflate(40, 16)
            draw.draw_panel(surface, r, fill=(60, 36, 20), alpha=230, radius=12, shadow=False)
            surface.blit(note, note.get_rect(center=r.center))
        hint = draw.fit(tr("title.hint"), 20, 1600, TEXT_DIM)
        surface.blit(hint, hint.get_rect(center=(960, 1050)))
        super().draw(surface)
