"""Saved games: every unfinished hot-seat game kept (game/ui/sessions/autosave.py), the latest saved
first, each with its players, the deal tiles left and when it was last saved; Continue opens
it at the table, Delete asks first (a deleted game cannot be brought back)."""

from __future__ import annotations

import pygame

from ..drawing import draw
from ..drawing.theme import GOLD, TEXT, TEXT_DIM, WARN
from ..drawing.widgets import Button
from ..i18n import and_list, tr, tr_count
from ..screen.scene import Scene
from .common import backdrop, title_bar, when

PER_PAGE = 7
ROW = pygame.Rect(120, 180, 1680, 92)  # the first row; the others below it
ROW_GAP = 14
DIALOG_W, DIALOG_MIN_H = 800, 360  # "Delete this saved game?": it grows with its note
NOTE_TOP, BUTTONS_H = 120, 110  # the note starts under the question; the buttons' band


def progress(game) -> str:
    """"5 deal tiles left · 2025-03-04 18:22" (a save from before tiles were recorded: the
    date alone)."""
    parts = []
    if game.tiles_left is not None:
        n = game.tiles_left
        parts.append(tr_count("saved.tiles_left", n))
    parts.append(when(game.saved_at))
    return " · ".join(parts)


class SavedGamesScene(Scene):
    name = "saved_games"

    def __init__(self, app, games: list | None = None) -> None:
        """`games`: the list to show (the screenshot tool's samples); None reads the kept
        games from disk."""
        super().__init__(app)
        self._given = games
        self.games: list = []
        self.page = 0
        self.confirming = None  # the game "Delete this saved game?" asks about
        self.notice: str | None = None

    def enter(self) -> None:
        self._load()
        super().enter()

    def _load(self) -> None:
        if self._given is not None:
            self.games = list(self._given)
            return
        from ..sessions import autosave

        writer = getattr(self.app, "autosaver", None)
        if writer is not None:
            writer.flush(5.0)
        self.games, unreadable = autosave.kept_games()
        if unreadable:
            self.notice = tr("title.autosave_corrupt")
        self.page = min(self.page, max(0, self.pages - 1))

    @property
    def pages(self) -> int:
        return max(1, -(-len(self.games) // PER_PAGE))

    def shown(self) -> list:
        return self.games[self.page * PER_PAGE : (self.page + 1) * PER_PAGE]

    def row_rect(self, i: int) -> pygame.Rect:
        return ROW.move(0, i * (ROW.height + ROW_GAP))

    def layout(self) -> None:
        self.widgets = self._confirm_widgets() if self.confirming else self._list_widgets()

    def _list_widgets(self) -> list[Button]:
        out = []
        for i, game in enumerate(self.shown()):
            r = self.row_rect(i)
            out += [
                Button(
                    (r.right - 560, r.y + 14, 300, r.height - 28),
                    lambda: tr("title.continue"),
                    lambda g=game: self.open(g),
                    style="good",
                    size=26,
                    name=f"saved.continue.{i}",
                    tip=lambda g=game: tr_count(
                        "title.continue.desc", g.actions, players=and_list(g.names)
                    ),
                ),
                Button(
                    (r.right - 244, r.y + 14, 224, r.height - 28),
                    lambda: tr("saved.delete"),
                    lambda g=game: self.ask_delete(g),
                    style="danger",
                    size=26,
                    name=f"saved.delete.{i}",
                ),
            ]
        if self.pages > 1:
            out += [
                Button(
                    (1200, 960, 280, 70),
                    lambda: tr("saved.newer"),
                    lambda: self.turn(-1),
                    enabled=self.page > 0,
                    disabled_reason=lambda: tr("why_off.ui.page_first"),
                    size=26,
                    name="saved.newer",
                    hotkey=pygame.K_PAGEUP,
                ),
                Button(
                    (1520, 960, 280, 70),
                    lambda: tr("saved.older"),
                    lambda: self.turn(1),
                    enabled=self.page < self.pages - 1,
                    disabled_reason=lambda: tr("why_off.ui.page_last"),
                    size=26,
                    name="saved.older",
                    hotkey=pygame.K_PAGEDOWN,
                ),
            ]
        out.append(
            Button(
                (120, 960, 360, 70),
                lambda: tr("ui.back"),
                self.app.pop,
                size=28,
                name="saved.back",
                hotkey=pygame.K_ESCAPE,
            )
        )
        return out

    def _note(self) -> str:
        game = self.confirming
        return tr("saved.delete_note", players=and_list(game.names), progress=progress(game))

    def dialog_rect(self) -> pygame.Rect:
        """The question's dialog, tall enough for its note above the buttons at any text
        size (a long list of players wraps to four lines at Large)."""
        note_h = draw.wrapped_height(self._note(), 24, DIALOG_W - 100)
        h = max(DIALOG_MIN_H, NOTE_TOP + note_h + 16 + BUTTONS_H)
        return pygame.Rect(960 - DIALOG_W // 2, 500 - h // 2, DIALOG_W, h)

    def _confirm_widgets(self) -> list[Button]:
        dialog = self.dialog_rect()
        y = dialog.bottom - BUTTONS_H
        out = [
            Button(
                (dialog.x + 60, y, 320, 74),
                lambda: tr("saved.delete"),
                self.delete,
                style="danger",
                size=28,
                name="saved.confirm_delete",
            ),
            Button(
                (dialog.right - 380, y, 320, 74),
                lambda: tr("ui.cancel"),
                self.cancel_delete,
                style="primary",
                size=28,
                name="saved.cancel_delete",
                hotkey=pygame.K_ESCAPE,
            ),
        ]
        for w in out:
            w.panel = dialog
        return out

    # -- actions -----------------------------------------------------------------------

    def turn(self, step: int) -> None:
        self.page = max(0, min(self.pages - 1, self.page + step))
        self.layout()

    def open(self, game) -> None:
        from ..sessions.resume import continue_game

        why = continue_game(self.app, game.path)
        if why is not None:  # set aside or already over: the list without it
            self.notice = tr(why)
            self._load()
            self.layout()

    def ask_delete(self, game) -> None:
        self.confirming = game
        self.layout()

    def cancel_delete(self) -> None:
        self.confirming = None
        self.layout()

    def delete(self) -> None:
        from ..sessions.autosave import writer_for

        writer = writer_for(self.app)
        writer.discard(self.confirming.path)
        writer.flush(5.0)
        self.confirming = None
        self._load()
        self.layout()

    # -- drawing -----------------------------------------------------------------------

    def draw(self, surface) -> None:
        backdrop(surface, self.t, cards=False)
        title_bar(surface, tr("saved.title"), y=30)
        if not self.games:
            img = draw.fit(tr("saved.empty"), 26, 1600, TEXT_DIM)
            surface.blit(img, img.get_rect(center=(960, 400)))
        for i, game in enumerate(self.shown()):
            r = self.row_rect(i)
            draw.draw_panel(surface, r, alpha=200, radius=14, shadow=False)
            text_w = r.width - 600
            names = draw.fit(draw.ellipsize(", ".join(game.names), 26, text_w, True), 26,
                             text_w, TEXT, True)  # fmt: skip
            detail = draw.fit(progress(game), 22, text_w, TEXT_DIM)
            draw.blit_stacked(surface, ((names, 26, True), (detail, 22, False)), r.x + 24,
                              r.centery, gap=10)  # fmt: skip
        if self.pages > 1:
            page = tr("saved.page", page=self.page + 1, pages=self.pages)
            img = draw.fit(page, 24, 600, TEXT_DIM)
            surface.blit(img, img.get_rect(center=(840, 995)))
        if self.notice:
            img = draw.fit(self.notice, 24, 1600, WARN, True)
            surface.blit(img, img.get_rect(center=(960, 930)))
        if self.confirming is not None:
            self._draw_confirm(surface)
        super().draw(surface)

    def _draw_confirm(self, surface) -> None:
        dialog = self.dialog_rect()
        draw.draw_dialog(surface, dialog)
        title = draw.fit(tr("saved.delete_question"), 44, dialog.width - 80, GOLD, True)
        surface.blit(title, title.get_rect(center=(dialog.centerx, dialog.y + 70)))
        box = pygame.Rect(dialog.x + 50, dialog.y + NOTE_TOP, dialog.width - 100,
                          dialog.height - NOTE_TOP - BUTTONS_H)  # fmt: skip
        draw.blit_wrapped(surface, self._note(), box, 24, TEXT_DIM, align="center")
