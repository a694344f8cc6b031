"""The rules reference in the chosen language, with the decisions of docs/RULES.md (how the digital
table plays "at any time", the negotiation limit, hidden money, ...). Scroll with the wheel,
the arrow keys or Page Up/Down; the contents on the left jump to a section."""

from __future__ import annotations

import pygame

from .. import draw
from ..i18n import tr
from ..scene import Scene
from ..theme import GOLD, TEXT, THEME
from ..widgets import Button
from .common import backdrop, title_bar

SECTIONS = (
    "goal",
    "setup",
    "turn",
    "negotiation",
    "agreements",
    "closing",
    "cards",
    "windows",
    "after",
    "end",
    "two_player",
    "variants",
    "table",
)
VIEW = pygame.Rect(560, 150, 1280, 820)
TEXT_SIZE = 26


class RulesScene(Scene):
    name = "rules"

    def __init__(self, app) -> None:
        super().__init__(app)
        self.scroll = 0.0
        self.goal = 0.0
        self._doc: pygame.Surface | None = None
        self._doc_key = None
        self.anchors: dict[str, int] = {}

    def layout(self) -> None:
        self.widgets = []
        y = 160
        for sec in SECTIONS:
            self.widgets.append(
                Button(
                    (80, y, 440, 54),
                    lambda s=sec: tr(f"rules.{s}.title"),
                    lambda s=sec: self.jump(s),
                    style="ghost",
                    size=22,
                    name=f"rules.toc.{sec}",
                )
            )
            y += 60
        self.widgets.append(
            Button(
                (80, 990, 260, 62),
                lambda: tr("ui.back"),
                self.app.pop,
                style="primary",
                size=28,
                name="back",
                hotkey=pygame.K_ESCAPE,
            )
        )

    def jump(self, sec: str) -> None:
        self.document()
        self.goal = float(self.anchors.get(sec, 0))

    def document(self) -> pygame.Surface:
        key = (THEME.epoch, THEME.lang)
        if self._doc is None or key != self._doc_key:
            self._doc = self._render()
            self._doc_key = key
        return self._doc

    def _render(self) -> pygame.Surface:
        width = VIEW.width - 80
        blocks = []
        total = 20
        for sec in SECTIONS:
            head = tr(f"rules.{sec}.title")
            body = tr(f"rules.{sec}.body")
            h = (
                draw.wrapped_height(head, 36, width, True)
                + 16
                + draw.wrapped_height(body, TEXT_SIZE, width, spacing=1.35)
                + 50
            )
            blocks.append((sec, head, body, h))
            total += h
        surf = pygame.Surface((VIEW.width, total + VIEW.height // 2), pygame.SRCALPHA)
        y = 20
        self.anchors = {}
        for sec, head, body, h in blocks:
            self.anchors[sec] = y - 10
            hh = draw.blit_wrapped(surf, head, pygame.Rect(40, y, width, 200), 36, GOLD, True)
            pygame.draw.line(surf, (120, 100, 50), (40, y + hh + 4), (40 + width, y + hh + 4), 2)
            draw.blit_wrapped(
                surf, body, pygame.Rect(40, y + hh + 16, width, 4000), TEXT_SIZE, TEXT, spacing=1.35
            )
            y += h
        return surf

    def max_scroll(self) -> float:
        return max(0.0, self.document().get_height() - VIEW.height)

    def handle(self, event) -> bool:
        if event.type == pygame.MOUSEWHEEL:
            self.goal -= event.y * 90
        elif event.type == pygame.KEYDOWN and event.key in (
            pygame.K_DOWN,
            pygame.K_UP,
            pygame.K_PAGEDOWN,
            pygame.K_PAGEUP,
            pygame.K_HOME,
            pygame.K_END,
        ):
            step = {
                pygame.K_DOWN: 80,
                pygame.K_UP: -80,
                pygame.K_PAGEDOWN: 700,
                pygame.K_PAGEUP: -700,
            }.get(event.key)
            if step is not None:
                self.goal += step
            elif event.key == pygame.K_HOME:
                self.goal = 0
            else:
                self.goal = self.max_scroll()
        else:
            return super().handle(event)
        self.goal = min(self.max_scroll(), max(0.0, self.goal))
        return True

    def update(self, dt: float) -> None:
        super().update(dt)
        self.goal = min(self.max_scroll(), max(0.0, self.goal))
        self.scroll += (self.goal - self.scroll) * min(1.0, dt * 12)

    def draw(self, surface) -> None:
        backdrop(surface, self.t, cards=False)
        title_bar(surface, tr("title.rules"), y=30)
        draw.draw_panel(surface, VIEW.inflate(20, 20), alpha=235)
        doc = self.document()
        area = pygame.Rect(0, int(self.scroll), VIEW.width, VIEW.height)
        surface.blit(doc, VIEW.topleft, area)
        # the scroll bar
        ms = self.max_scroll()
        if ms > 0:
            track = pygame.Rect(VIEW.right - 8, VIEW.y + 10, 6, VIEW.height - 20)
            pygame.draw.rect(surface, (50, 70, 60), track, border_radius=3)
            h = max(40, int(track.height * VIEW.height / doc.get_height()))
            y = track.y + int((track.height - h) * self.scroll / ms)
            pygame.draw.rect(surface, GOLD, (track.x, y, 6, h), border_radius=3)
        current = None
        for sec in SECTIONS:
            if self.anchors.get(sec, 0) <= self.scroll + 40:
                current = sec
        for w in self.widgets:
            if w.name == f"rules.toc.{current}":
                w.style = "normal"
            elif w.name.startswith("rules.toc."):
                w.style = "ghost"
        super().draw(surface)
