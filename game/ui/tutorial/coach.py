"""The coach: a panel over the table with the step's text, a glow and an arrow on the
widget it names, and Next / Skip / Leave. A one-way collaborator: it reads the session's
step and the table's `widget_rect(name)`, and draws; the table asks it for its buttons.

The panel never covers what the step talks about: the widget pointed at, the areas the
step shows (the tile stack, a space, the negotiation's rows, the hand...) and the die while
it rolls; it takes the first of a few places that leaves them all in view. Its arrow
reaches the target from above or below, never through the target's row."""

from __future__ import annotations

import math
from itertools import pairwise

import pygame

from game.tutorial import Trigger

from ..drawing import draw
from ..drawing.theme import CLAN_LETTERS, GOLD, TEXT, TEXT_DIM, THEME, WARN
from ..drawing.widgets import Button
from ..i18n import tr
from ..table import layout as L
from ..table.sentences import clan_word

WIDTH = 540  # at Normal text: wider with Large text, so its lines keep the panel low
PAD = 20
TEXT_SIZE = 23
BUTTON_H = 50
GLOW = (255, 214, 90)


def clan_words() -> dict[str, str]:
    """The coach's texts name a clan by its letter ({S}) as the table does everywhere
    (the editor, the log, the hand, the buttons): 'S Sacks'."""
    return {letter: clan_word(i) for i, letter in enumerate(CLAN_LETTERS)}


def width() -> int:
    """The panel's width at the current text size."""
    return round(WIDTH * max(1.0, THEME.text_scale))


def candidate_rects(height: int) -> list[pygame.Rect]:
    """Where the panel may sit, best first: the middle of the board, over the log, the
    top of the board, the top of the negotiation panel, the bottom of the board, the
    middle of the negotiation panel, over the hand's left end, the board's top left."""
    out = []
    for place in (
        {"center": L.CENTER.center},
        {"bottomright": (L.W - L.MARGIN, L.H - 8)},
        {"midtop": (L.BOARD.centerx, L.BOARD.y + 8)},
        {"topright": (L.RIGHT.right - 8, L.RIGHT.y + 8)},
        {"midbottom": (L.BOARD.centerx, L.BOARD.bottom - 8)},
        {"midright": (L.RIGHT.right - 8, L.RIGHT.centery)},
        {"bottomleft": (L.MARGIN, L.H - 8)},
        {"topleft": (L.BOARD.x + 8, L.BOARD.y + 8)},
    ):
        r = pygame.Rect(0, 0, width(), height)
        setattr(r, *next(iter(place.items())))
        out.append(r.clamp(pygame.Rect(0, 0, L.W, L.H)))
    return out


def row_areas() -> tuple[pygame.Rect, ...]:
    """The areas a target's row runs across (a button's row in the panel, a card's hand...),
    in the table's layout of the moment (the compact one's hand and log differ)."""
    return (L.PLAYERS, L.RIGHT, L.HAND, L.LOG, L.BOARD)


LANE = 28  # how far from the target's row the arrow's elbow runs
CROSSING = 400  # an arrow crossing a control or a shown area: as bad as this many pixels


def target_row(target: pygame.Rect) -> pygame.Rect:
    """The row the target sits in: its height across the area that holds it."""
    area = next((a for a in row_areas() if a.collidepoint(target.center)), target)
    return pygame.Rect(area.x, target.y, area.width, target.height).union(target)


Point = tuple[int, int]


def _length(path: list[Point]) -> int:
    return sum(abs(a[0] - b[0]) + abs(a[1] - b[1]) for a, b in pairwise(path))


def _crosses(path: list[Point], rect: pygame.Rect) -> bool:
    return any(rect.clipline(a, b) for a, b in pairwise(path))


def arrow_paths(panel: pygame.Rect, target: pygame.Rect) -> list[list[Point]]:
    """Ways from the panel's edge to the target that meet it from above or below: straight
    when the panel lies over or under it, else with an elbow running along a lane just
    outside the target's row."""
    row = target_row(target)
    if L.HAND.collidepoint(target.center):  # a card: the lane runs above the whole fan
        row = row.union(L.HAND)
    lo, hi = max(panel.left, target.left), min(panel.right, target.right)
    tx = (lo + hi) // 2 if lo <= hi else target.centerx
    out = []
    for above in (True, False):
        tip = (tx, target.top - 2) if above else (tx, target.bottom + 2)
        lane = max(8, row.top - LANE) if above else min(L.H - 8, row.bottom + LANE)
        if panel.left <= tx <= panel.right and (
            panel.bottom <= tip[1] if above else panel.top >= tip[1]
        ):
            out.append([(tx, panel.bottom if above else panel.top), tip])
        elif panel.top + 12 <= lane <= panel.bottom - 12 and not panel.left <= tx <= panel.right:
            sx = panel.right if tx > panel.right else panel.left
            out.append([(sx, lane), (tx, lane), tip])
        else:
            sx = max(panel.left + 24, min(tx, panel.right - 24))
            sy = panel.bottom if lane > panel.centery else panel.top
            out.append([(sx, sy), (sx, lane), (tx, lane), tip])
    return out


def best_arrow(
    panel: pygame.Rect, target: pygame.Rect, hard: list[pygame.Rect], soft: list[pygame.Rect]
) -> list[Point] | None:
    """The shortest way that never crosses the target's row, counting each `soft` area
    crossed as a detour and each `hard` one as a long one (None: the panel touches the
    target)."""
    row = target_row(target)

    def cost(p):
        crossed = sum(_crosses(p, r) for r in soft) + 4 * sum(_crosses(p, r) for r in hard)
        return _length(p) + CROSSING * crossed

    paths = [p for p in arrow_paths(panel, target) if not _crosses(p, row)]
    if not paths:
        return None
    best = min(paths, key=cost)
    return best if _length(best) >= 30 else None


class LessonCoach:
    def __init__(self, table, on_leave, on_finish, on_play_out) -> None:
        self.table = table
        self.session = table.session
        self.on_leave = on_leave
        self.on_finish = on_finish
        self.on_play_out = on_play_out
        self.rect = pygame.Rect(0, 0, width(), 100)
        self.buttons: list[Button] = []
        self._sig = None

    # -- what it says -----------------------------------------------------------------------

    def lines(self) -> tuple[str, str | None]:
        """(the step's text, the explanation of a wrong move or None)."""
        s = self.session
        step = s.step
        if step is None:
            return tr("tutorial.done"), None
        if not s.ready():
            return tr("tutorial.watch"), None
        clans = clan_words()
        return tr(step.text, **clans), (tr(s.wrong, **clans) if s.wrong else None)

    def target(self) -> pygame.Rect | None:
        """The rect of the first widget of the step's list that the table shows now."""
        step = self.session.step
        if step is None or not self.session.ready():
            return None
        for name in step.point:
            if name == "option":  # the selected card's button for the step's move
                r = self.table.option_rect(step.expects)
            else:
                r = self.table.widget_rect(name)
            if r is not None:
                return r
        return None

    def shown(self) -> list[pygame.Rect]:
        """The areas the step's text talks about that the table shows now, and the die
        while it rolls."""
        step = self.session.step
        names = step.shows if step is not None else ()
        out = [r for r in map(self.table.widget_rect, names) if r is not None]
        if self.table.director.die_rolling and L.DIE_AREA not in out:
            out.append(L.DIE_AREA)
        return out

    def keep_clear(self) -> list[pygame.Rect]:
        """What the panel must not cover: the widget pointed at, the selected card's pop-up
        of options (it opens over the board) and what the step shows."""
        target = self.target()
        out = [target.inflate(28, 28)] if target is not None else []
        out += [b.rect.inflate(12, 12) for b in self.table.card_buttons]
        return out + [r.inflate(12, 12) for r in self.shown()]

    def table_buttons(self) -> list[pygame.Rect]:
        """The table's live buttons (not the log's lines): better left uncovered too."""
        return [
            w.rect
            for w in self.table.widgets
            if isinstance(w, Button)
            and w not in self.buttons
            and w.visible
            and w.enabled
            and not w.name.startswith("log.")
        ]

    def signature(self):
        s = self.session
        clear = self.keep_clear() + self.table_buttons()
        return (s.step_index, s.ready(), s.wrong, tuple(tuple(r) for r in clear))

    # -- layout -----------------------------------------------------------------------------

    def _text_height(self) -> int:
        body, wrong = self.lines()
        inner = width() - 2 * PAD
        h = draw.wrapped_height(body, TEXT_SIZE, inner)
        if wrong:
            h += 12 + draw.wrapped_height(wrong, TEXT_SIZE, inner, True)
        return h

    def layout(self) -> list[Button]:
        """Place the panel where it covers neither the widget pointed at nor the card
        pop-up (and, where there is such a place, none of the table's buttons), and build
        its buttons (kept while nothing changed: a
        press and its release must reach the same button)."""
        sig = (self.signature(), THEME.epoch)
        if sig == self._sig and self.buttons:
            return self.buttons
        self._sig = sig
        height = PAD + 30 + self._text_height() + 16 + BUTTON_H + PAD
        must = self.keep_clear()
        better = must + self.table_buttons()
        rects = candidate_rects(height)
        # best clear of the log too (the lines it cites: "Cal rolled and drew 3 cards"),
        # then of the table's buttons (the phrase bar, the turn's buttons), then of what it
        # must leave in view, covering the least of the buttons
        tiers = (better + [L.LOG], better, must)
        self.rect = next(
            (r for clear in tiers for r in rects if r.collidelist(clear) < 0),
            min(rects, key=lambda r: sum(_area(r.clip(m)) for m in must)),
        )
        if self.rect.collidelist(better) >= 0:
            self.rect = min(
                (r for r in rects if r.collidelist(must) < 0),
                key=lambda r: sum(_area(r.clip(b)) for b in better),
            )
        s = self.session
        step = s.step
        y = self.rect.bottom - PAD - BUTTON_H
        x = self.rect.x + PAD
        w = (width() - 2 * PAD - 2 * 10) // 3
        self.buttons = []
        if step is None:
            half = (width() - 2 * PAD - 10) // 2
            self.buttons += [
                Button((x, y, half, BUTTON_H), tr("tutorial.play_out"), self.on_play_out,
                       size=22, name="coach.play_out", tip=tr("tip.tutorial.play_out")),
                Button((x + half + 10, y, half, BUTTON_H), tr("tutorial.finish"), self.on_finish,
                       style="primary", size=24, name="coach.finish"),
            ]  # fmt: skip
            for b in self.buttons:
                b.panel = self.rect
            return self.buttons
        if step.trigger is not Trigger.ACTION:
            self.buttons.append(
                Button((x, y, w, BUTTON_H), tr("tutorial.next"), self.next, style="primary",
                       size=24, enabled=s.ready(), name="coach.next",
                       disabled_reason=lambda: tr("why_off.ui.lesson_step"))
            )  # fmt: skip
        self.buttons.append(
            Button((x + w + 10, y, w, BUTTON_H), tr("tutorial.skip"), self.skip, size=22,
                   name="coach.skip", tip=tr("tip.tutorial.skip"))
        )  # fmt: skip
        self.buttons.append(
            Button((x + 2 * (w + 10), y, w, BUTTON_H), tr("tutorial.leave"), self.on_leave,
                   style="ghost", size=22, name="coach.leave", tip=tr("tip.tutorial.leave"))
        )  # fmt: skip
        for b in self.buttons:
            b.panel = self.rect
        return self.buttons

    def changed(self) -> bool:
        return (self.signature(), THEME.epoch) != self._sig

    # -- the buttons ------------------------------------------------------------------------

    def next(self) -> None:
        self.session.next()
        self.table.coach_changed()

    def skip(self) -> None:
        self.table.director.finish()  # what is being animated lands first
        self.session.skip()
        self.table.coach_changed()

    # -- drawing ----------------------------------------------------------------------------

    def draw(self, surface, t: float) -> None:
        if self.session.playing_out:
            return  # the lesson is over: the bots finish the game, the results follow
        target = self.target()
        if target is not None:
            draw.draw_glow(surface, target, GLOW, radius=12, spread=12,
                           alpha=int(150 + 105 * draw.pulse(t, 1.6)))  # fmt: skip
            pygame.draw.rect(surface, GOLD, target.inflate(8, 8), width=3, border_radius=12)
            self._arrow(surface, target, t)
        r = self.rect
        draw.draw_panel(surface, r, fill=(22, 40, 60), alpha=244, edge=GOLD, radius=18)
        s = self.session
        total = len(s.script.steps)
        head = tr("tutorial.step_of", n=min(s.step_index + 1, total), total=total)
        draw.blit_text(surface, head, (r.x + PAD, r.y + PAD - 4), 20, TEXT_DIM, True,
                       max_w=width() - 2 * PAD)  # fmt: skip
        body, wrong = self.lines()
        inner = pygame.Rect(r.x + PAD, r.y + PAD + 30, width() - 2 * PAD, r.height)
        used = draw.blit_wrapped(surface, body, inner, TEXT_SIZE, TEXT)
        if wrong:
            inner.y += used + 12
            draw.blit_wrapped(surface, wrong, inner, TEXT_SIZE, WARN, True)
        for b in self.buttons:
            b.draw(surface, t)

    def arrow(self, target: pygame.Rect) -> list[Point] | None:
        """The arrow's path from the panel to `target` (see best_arrow)."""
        buttons = [r for r in self.table_buttons() if r != target and not r.colliderect(target)]
        shown = [r for r in self.shown() if not r.colliderect(target)]  # not the one it enters
        return best_arrow(self.rect, target, shown, buttons)

    def _arrow(self, surface, target: pygame.Rect, t: float) -> None:
        path = self.arrow(target)
        if path is None:
            return
        (ax, ay), (tx, ty) = path[-2], path[-1]
        dist = math.hypot(tx - ax, ty - ay)
        ux, uy = (tx - ax) / dist, (ty - ay) / dist
        bob = 6 * draw.pulse(t, 2.0)
        end = (tx - ux * (4 + bob), ty - uy * (4 + bob))
        points = [*path[:-1], end]
        pygame.draw.lines(surface, GOLD, False, points, 6)
        for p in points[1:-1]:  # round elbows
            pygame.draw.circle(surface, GOLD, p, 3)
        left = (end[0] - ux * 26 - uy * 16, end[1] - uy * 26 + ux * 16)
        right = (end[0] - ux * 26 + uy * 16, end[1] - uy * 26 - ux * 16)
        pygame.draw.polygon(surface, GOLD, [end, left, right])


def _area(r: pygame.Rect) -> int:
    return r.width * r.height
