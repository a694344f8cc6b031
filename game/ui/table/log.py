"""The action log in words ('Mei played Travel on Sacks', worded by sentences.py), built
from redacted events: the compact log under the panel and the full-height history.

The log keeps the events, not the sentences, so a language switch re-words the whole log.
"""

from __future__ import annotations

import pygame

from ..drawing import draw
from ..drawing.theme import TEXT, TEXT_DIM, THEME
from ..drawing.widgets import ICONS, Button
from ..i18n import tr
from . import layout as L
from .sentences import SENTENCES, SILENT_IN_LOG, Describer, clan_word

__all__ = ["SENTENCES", "SILENT_IN_LOG", "Describer", "LogPanel", "clan_word"]

GOLD_SOFT = (235, 200, 110)


def _list_icon(size: int) -> pygame.Surface:
    """Three lines of text: the history."""
    surf = pygame.Surface((size, size), pygame.SRCALPHA)
    for k in range(3):
        y = size * (0.22 + 0.28 * k)
        pygame.draw.line(surf, (235, 232, 220), (size * 0.1, y), (size * 0.9, y), max(2, size // 9))
    return surf


def _close_icon(size: int) -> pygame.Surface:
    surf = pygame.Surface((size, size), pygame.SRCALPHA)
    w = max(2, size // 8)
    a, b = size * 0.18, size * 0.82
    pygame.draw.line(surf, (40, 30, 10), (a, a), (b, b), w)
    pygame.draw.line(surf, (40, 30, 10), (a, b), (b, a), w)
    return surf


ICONS.setdefault("log.history", _list_icon)
ICONS.setdefault("log.close", _close_icon)

MAX_LINES = 200


IMPORTANT = {
    "deal_closed",
    "deal_failed",
    "boss_changed",
    "game_over",
    "deal_opened",
    "agreement_made",
}

COMPACT_SIZE = 18  # the log under the panel: 12 lines or more at 1920x1080
FULL_SIZE = 20  # the full-height history
PAD = 8
# the history's buttons (w, h): in the compact log's side column its icon over the key cap
# of L; on the history the close icon beside the key cap of Esc
HISTORY_BUTTON, CLOSE_BUTTON = (34, 66), (88, 34)
SIDE = 40  # the column on the right: the history button, then the scroll bar
JUMP_H = 30  # the "jump to latest" bar while scrolled back


def line_step(size: int) -> int:
    """Distance between log lines: tight for Latin, a little more for Chinese (its ink
    fills the line), roomier for Thai marks."""
    return round(THEME.font_px(size) * {"th": 1.45, "zh_Hant": 1.2, "zh_Hans": 1.2}.get(THEME.lang, 1.1))


class LogPanel:
    """The log's events, its scroll position (lines back from the newest) and whether the
    full-height history is open. Lines that arrive while scrolled back do not move the view:
    they are counted in `unseen` and the "jump to latest" bar says how many."""

    def __init__(self, names: list[str], addressed: bool = True) -> None:
        self.describe = Describer(names, addressed)
        self.events: list[dict] = []
        self._lines: list[tuple[str, bool]] | None = None
        self._surfaces: dict[bool, tuple[tuple, pygame.Surface]] = {}
        self.scroll = 0
        self.unseen = 0
        self.expanded = False
        self._lines_epoch = -1

    def add(self, e: dict) -> None:
        """Feed one (redacted) event; the way every table fills its log."""
        self.events.append(e)
        del self.events[: -MAX_LINES * 2]
        self._lines = None
        if self.describe(e) and self.scroll > 0:
            self.scroll += 1
            self.unseen += 1
            self.scroll = min(self.scroll, self.max_scroll())

    def lines(self) -> list[tuple[str, bool]]:
        if self._lines is None or self._lines_epoch != THEME.epoch:
            self._lines_epoch = THEME.epoch
            d = Describer(self.describe.names, self.describe.addressed)
            out = []
            for e in self.events:
                s = d(e)
                if s:
                    out.append((s, e["type"] in IMPORTANT))
            self._lines = out[-MAX_LINES:]
        return self._lines

    def last(self) -> str | None:
        ls = self.lines()
        return ls[-1][0] if ls else None

    # -- scrolling and the history ---------------------------------------------------------

    @property
    def at_latest(self) -> bool:
        return self.scroll == 0

    def max_scroll(self) -> int:
        return max(0, len(self.lines()) - 1)

    def scroll_by(self, n: int) -> None:
        """Positive: back in time."""
        self.scroll = max(0, min(self.max_scroll(), self.scroll + n))
        if self.scroll == 0:
            self.unseen = 0

    def jump_to_latest(self) -> None:
        self.scroll = 0
        self.unseen = 0

    def toggle_expanded(self) -> None:
        self.expanded = not self.expanded

    def jump_text(self) -> str:
        if self.unseen:
            return tr("log.new_lines", n=self.unseen)
        return tr("log.scrolled_back")

    def widgets(self, on_change) -> list[Button]:
        """The history button of the compact log, the close button of the history, and the
        "jump to latest" bar of each shown log while scrolled back."""

        def act(fn):
            def run():
                fn()
                on_change()

            return run

        out = [
            Button(
                self._history_button_rect(L.LOG),
                "",
                act(self.toggle_expanded),
                style="primary" if self.expanded else "ghost",
                icon="log.close" if self.expanded else "log.history",
                name="log.history",
                tip=lambda: tr("tip.log.close") if self.expanded else tr("tip.log.history"),
                sound=None,
            )
        ]
        rects = [L.LOG] + ([L.LOG_FULL] if self.expanded else [])
        if self.expanded:
            out.append(
                Button(
                    self._history_button_rect(L.LOG_FULL),
                    "",
                    act(self.toggle_expanded),
                    style="primary",
                    icon="log.close",
                    name="log.close",
                    tip=lambda: tr("tip.log.close"),
                    sound=None,
                )
            )
        if not self.at_latest:
            for i, r in enumerate(rects):
                out.append(
                    Button(
                        self.jump_rect(r),
                        self.jump_text,
                        act(self.jump_to_latest),
                        style="primary",
                        size=16,
                        name="log.latest" if i == 0 else "log.latest.full",
                        tip=lambda: tr("tip.log.latest"),
                        sound=None,
                    )
                )
        return out

    @staticmethod
    def _history_button_rect(rect: pygame.Rect) -> pygame.Rect:
        w, h = HISTORY_BUTTON if rect.height <= L.LOG.height else CLOSE_BUTTON
        return pygame.Rect(rect.right - PAD - w, rect.y + PAD, w, h)

    @staticmethod
    def jump_rect(rect: pygame.Rect) -> pygame.Rect:
        return pygame.Rect(
            rect.x + PAD, rect.bottom - PAD - JUMP_H, rect.width - 2 * PAD - SIDE, JUMP_H
        )

    @staticmethod
    def scrollbar_rect(rect: pygame.Rect) -> pygame.Rect:
        top = LogPanel._history_button_rect(rect).bottom + 8
        return pygame.Rect(rect.right - PAD - 22, top, 10, rect.bottom - PAD - top)

    def text_rect(self, rect: pygame.Rect) -> pygame.Rect:
        bottom = rect.bottom - PAD - (JUMP_H + 4 if not self.at_latest else 0)
        if rect.height > L.LOG.height:  # the history: its title first
            return pygame.Rect(
                rect.x + PAD + 6, rect.y + 48, rect.width - 2 * PAD - 6 - SIDE, bottom - rect.y - 48
            )
        return pygame.Rect(
            rect.x + PAD + 6, rect.y + PAD, rect.width - 2 * PAD - 6 - SIDE, bottom - rect.y - PAD
        )

    def rows(self, rect: pygame.Rect, size: int) -> list[tuple[str, bool]]:
        """The wrapped rows shown in rect, oldest first, ending `scroll` lines back."""
        inner = self.text_rect(rect)
        step = line_step(size)
        fit = max(1, inner.height // step)
        rows: list[tuple[str, bool]] = []
        lines = self.lines()
        end = len(lines) - self.scroll
        for text, important in reversed(lines[max(0, end - fit) : end]):
            block = [(w, important) for w in draw.wrap(text, size, inner.width, important)]
            rows = block + rows
            if len(rows) >= fit:
                break
        return rows[-fit:]

    # -- drawing ------------------------------------------------------------------------------

    def surface(self, rect: pygame.Rect) -> tuple[pygame.Surface, tuple[int, int]]:
        """The compact log (cached), and where it goes."""
        return self._cached(rect, COMPACT_SIZE), (rect.x - 10, rect.y - 10)

    def draw(self, surface, rect: pygame.Rect) -> None:
        img, pos = self.surface(rect)
        surface.blit(img, pos)

    def draw_history(self, surface) -> None:
        if self.expanded:
            surface.blit(
                self._cached(L.LOG_FULL, FULL_SIZE), (L.LOG_FULL.x - 10, L.LOG_FULL.y - 10)
            )

    def _cached(self, rect: pygame.Rect, size: int) -> pygame.Surface:
        lines = self.lines()
        key = (id(lines), len(lines), self.scroll, self.unseen, rect.size, THEME.epoch)
        big = size == FULL_SIZE
        got = self._surfaces.get(big)
        if got is None or got[0] != key:
            got = (key, self._render(rect, size))
            self._surfaces[big] = got
        return got[1]

    def _render(self, rect: pygame.Rect, size: int) -> pygame.Surface:
        if size == FULL_SIZE:  # the history covers the board: opaque, so it reads cleanly
            panel = draw.panel_surface(rect.width, rect.height, alpha=240)
            surf = pygame.Surface(panel.get_size(), pygame.SRCALPHA)
            pygame.draw.rect(
                surf, (16, 28, 23), (10, 10, rect.width, rect.height), border_radius=18
            )
            surf.blit(panel, (0, 0))
            room = rect.width - 2 * PAD - 12 - CLOSE_BUTTON[0] - 12
            head = draw.fit(tr("log.history_title"), 26, room, TEXT, True)
            surf.blit(head, (10 + PAD + 6, 10 + PAD + 2))
        else:
            surf = draw.copy_of(draw.panel_surface(rect.width, rect.height, alpha=210))
        ox, oy = 10 - rect.x, 10 - rect.y
        inner = self.text_rect(rect).move(ox, oy)
        step = line_step(size)
        rows = self.rows(rect, size)
        y = inner.bottom - step * len(rows)
        newest = self.at_latest
        for i, (line, important) in enumerate(rows):
            fade = not newest or i < len(rows) - 6
            col = (255, 226, 140) if important else (TEXT_DIM if fade else TEXT)
            img = draw.text(line, size, col, important)
            surf.blit(img, img.get_rect(midleft=(inner.x, y + step // 2)))
            y += step
        self._scrollbar(surf, self.scrollbar_rect(rect).move(ox, oy), len(rows))
        return surf

    def _scrollbar(self, surf, track: pygame.Rect, shown: int) -> None:
        total = len(self.lines())
        pygame.draw.rect(surf, (255, 255, 255, 22), track, border_radius=5)
        if total <= 0:
            return
        frac = min(1.0, max(1, shown) / total)
        h = max(18, int(track.height * frac))
        # the thumb's bottom sits at the newest shown line
        end = (total - self.scroll) / total
        bottom = track.y + int(track.height * end)
        thumb = pygame.Rect(track.x, max(track.y, bottom - h), track.width, h)
        thumb.bottom = min(track.bottom, max(thumb.bottom, track.y + h))
        pygame.draw.rect(
            surf, (170, 200, 185) if self.at_latest else GOLD_SOFT, thumb, border_radius=5
        )
