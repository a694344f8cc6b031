"""The rules reference in the chosen language, with the decisions of docs/RULES.md (how the digital
table plays "at any time", the negotiation limit, hidden money, ...), explained with pictures drawn
by the game's own art (game/ui/drawing/rules_pictures.py). The contents on the left jump to a topic;
the wheel and Up/Down scroll, Page Up/Down go to the previous/next topic, Esc goes back."""

from __future__ import annotations

import pygame

from ..drawing import draw
from ..drawing.rules_pictures import PICTURES
from ..drawing.theme import GOLD, TEXT, THEME
from ..drawing.widgets import Button
from ..i18n import tr
from ..screen.scene import Scene
from .common import backdrop, title_bar

#: topic -> the paragraphs (translation keys) under its title and picture
TOPICS: dict[str, tuple[str, ...]] = {
    "goal": ("rules.goal.body",),
    "setup": ("rules.setup.body",),
    "turn": ("rules.turn.body",),
    "space": ("rules.space.body",),
    "cards": ("rules.cards.body",),
    "deal": ("rules.agreements.body", "rules.closing.body"),
    "floor": ("rules.floor.body",),
    "windows": ("rules.windows.body",),
    "realtime": ("rules.realtime.body",),
    "after": ("rules.after.body",),
    "end": ("rules.end.body",),
    "variants": ("rules.variants.body",),
    "two_player": ("rules.two_player.body",),
    "table": ("rules.table.body",),
}
SECTIONS = tuple(TOPICS)
VIEW = pygame.Rect(560, 150, 1280, 820)
TEXT_SIZE = 26


class RulesScene(Scene):
    name = "rules"
    animated = False  # moves only while it scrolls: look()

    def __init__(self, app) -> None:
        super().__init__(app)
        self.scroll = 0.0
        self.goal = 0.0
        self._doc: pygame.Surface | None = None
        self._doc_key = None
        self.anchors: dict[str, int] = {}

    def layout(self) -> None:
        self.widgets = []
        y = 150
        for sec in SECTIONS:
            self.widgets.append(
                Button(
                    (80, y, 440, 52),
                    lambda s=sec: tr(f"rules.{s}.title"),
                    lambda s=sec: self.jump(s),
                    style="ghost",
                    size=22,
                    name=f"rules.toc.{sec}",
                )
            )
            y += 58
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
        """The whole document, topic after topic: title, picture, paragraphs."""
        width = VIEW.width - 80
        blocks = []
        total = 20
        for sec, keys in TOPICS.items():
            head = tr(f"rules.{sec}.title")
            paragraphs = [p for key in keys for p in tr(key).split("\n")]
            picture = PICTURES[sec](width) if sec in PICTURES else None
            h = draw.wrapped_height(head, 36, width, True) + 24
            h += picture.get_height() + 20 if picture is not None else 0
            h += sum(
                draw.wrapped_height(p, TEXT_SIZE, width, spacing=1.35) + 12 for p in paragraphs
            )
            h += 50
            blocks.append((sec, head, picture, paragraphs, h))
            total += h
        surf = pygame.Surface((VIEW.width, total + VIEW.height), pygame.SRCALPHA)
        y = 20
        self.anchors = {}
        for sec, head, picture, paragraphs, h in blocks:
            self.anchors[sec] = y - 10
            hh = draw.blit_wrapped(surf, head, pygame.Rect(40, y, width, 200), 36, GOLD, True)
            pygame.draw.line(surf, (120, 100, 50), (40, y + hh + 4), (40 + width, y + hh + 4), 2)
            at = y + hh + 24
            if picture is not None:
                surf.blit(picture, (40, at))
                at += picture.get_height() + 20
            for p in paragraphs:
                at += draw.blit_wrapped(
                    surf, p, pygame.Rect(40, at, width, 4000), TEXT_SIZE, TEXT, spacing=1.35
                )
                at += 12
            y += h
        return surf

    def current(self) -> str:
        """The topic at the top of the view (the highlighted contents entry)."""
        self.document()
        here = SECTIONS[0]
        for sec in SECTIONS:
            if self.anchors.get(sec, 0) <= self.goal + 40:
                here = sec
        return here

    def step_topic(self, delta: int) -> None:
        i = SECTIONS.index(self.current()) + delta
        self.jump(SECTIONS[min(len(SECTIONS) - 1, max(0, i))])

    def max_scroll(self) -> float:
        return max(0.0, self.document().get_height() - VIEW.height)

    def handle(self, event) -> bool:
        if event.type == pygame.MOUSEWHEEL:
            self.goal -= event.y * 90
        elif event.type == pygame.KEYDOWN and event.key in KEYS:
            KEYS[event.key](self)
        else:
            return super().handle(event)
        self.goal = min(self.max_scroll(), max(0.0, self.goal))
        return True

    def update(self, dt: float) -> None:
        super().update(dt)
        self.goal = min(self.max_scroll(), max(0.0, self.goal))
        self.scroll += (self.goal - self.scroll) * min(1.0, dt * 12)

    def _scroll_bar(self) -> tuple[pygame.Rect, pygame.Rect] | None:
        """The scroll bar's track and thumb (None: the page fits)."""
        ms = self.max_scroll()
        if ms <= 0:
            return None
        track = pygame.Rect(VIEW.right - 8, VIEW.y + 10, 6, VIEW.height - 20)
        h = max(40, int(track.height * VIEW.height / self.document().get_height()))
        y = track.y + int((track.height - h) * self.scroll / ms)
        return track, pygame.Rect(track.x, y, 6, h)

    def look(self):
        bar = self._scroll_bar()
        return int(self.scroll), None if bar is None else bar[1].y

    def draw(self, surface) -> None:
        backdrop(surface, self.t, cards=False)
        title_bar(surface, tr("title.rules"), y=30)
        draw.draw_panel(surface, VIEW.inflate(20, 20), alpha=235)
        doc = self.document()
        area = pygame.Rect(0, int(self.scroll), VIEW.width, VIEW.height)
        surface.blit(doc, VIEW.topleft, area)
        bar = self._scroll_bar()
        if bar is not None:
            track, thumb = bar
            pygame.draw.rect(surface, (50, 70, 60), track, border_radius=3)
            pygame.draw.rect(surface, GOLD, thumb, border_radius=3)
        current = self.current()
        for w in self.widgets:
            if w.name == f"rules.toc.{current}":
                w.style = "normal"
            elif w.name.startswith("rules.toc."):
                w.style = "ghost"
        super().draw(surface)


def _scroll(by: float):
    def move(scene: RulesScene) -> None:
        scene.goal += by

    return move


#: the keys of the scene (Esc is the Back button's hotkey)
KEYS = {
    pygame.K_DOWN: _scroll(80),
    pygame.K_UP: _scroll(-80),
    pygame.K_PAGEDOWN: lambda scene: scene.step_topic(1),
    pygame.K_PAGEUP: lambda scene: scene.step_topic(-1),
    pygame.K_HOME: lambda scene: scene.jump(SECTIONS[0]),
    pygame.K_END: lambda scene: setattr(scene, "goal", scene.max_scroll()),
}
