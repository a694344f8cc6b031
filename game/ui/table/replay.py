"""The replay viewer: the ordinary table scene over a `ReplaySession`, with a control bar
where the negotiation panel's buttons would be (a replay takes no moves).

Space plays and pauses, Left / Right step one action back or forward, Up / Down jump to the
previous or next deal; the timeline has a tick per deal (a click jumps to the nearest);
"show hand of" picks whose view is drawn (every hand only once the game is over); speed
scales the pace and the animations. Stepping forward animates the action's events; any
other move rebuilds the table quietly (the log is rebuilt from the replayed events).
"""

from __future__ import annotations

import pygame

from ..drawing import cardart, draw
from ..drawing.theme import GOLD, PANEL_EDGE, TEXT, TEXT_DIM, seat_colour
from ..drawing.widgets import Button, Stepper, Widget
from ..i18n import tr
from ..screen import router
from ..screen.router import Route
from ..sessions.replay_session import ALL_HANDS, ReplaySession
from . import layout as L
from .commands import LOG_PAGE
from .keys import REPLAY_KEYMAPS, Overlay
from .log import LogPanel
from .panels.geometry import grown
from .scene import MoneyHistory, TableScene

SPEEDS = (0.5, 1.0, 2.0, 4.0)
STEP_PAUSE = 0.5  # seconds between two actions at speed 1 (after their animations)
BAR = pygame.Rect(L.RIGHT.x + 12, L.RIGHT.bottom - 120, L.RIGHT.width - 24, 112)
TIMELINE = pygame.Rect(BAR.x + 300, BAR.y + 12, BAR.width - 316, 40)
ROW_Y = BAR.y + 60  # the buttons' row


class Timeline(Widget):
    """The game's actions as a bar, a tick where each deal opens; a click jumps to the
    deal nearest to it."""

    def __init__(self, rect, session: ReplaySession, on_jump) -> None:
        self.rect = pygame.Rect(rect)
        self.session = session
        self.on_jump = on_jump
        self.name = "replay.timeline"
        self.tip = lambda: tr("tip.replay.timeline")

    def x_of(self, index: int) -> int:
        return self.rect.x + round(self.rect.width * index / max(1, self.session.length))

    def deal_near(self, x: int) -> int | None:
        deals = self.session.deals
        if not deals:
            return None
        return min(range(len(deals)), key=lambda k: abs(self.x_of(deals[k]) - x))

    def handle(self, event) -> bool:
        if (
            event.type == pygame.MOUSEBUTTONDOWN
            and event.button == 1
            and self.rect.collidepoint(event.pos)
        ):
            k = self.deal_near(event.pos[0])
            if k is not None:
                self.on_jump(k)
            return True
        return False

    def draw(self, surface, t: float) -> None:
        r = self.rect
        track = pygame.Rect(r.x, r.centery - 6, r.width, 12)
        pygame.draw.rect(surface, (12, 26, 20), track, border_radius=6)
        done = track.copy()
        done.width = self.x_of(self.session.index) - r.x
        pygame.draw.rect(surface, (60, 130, 96), done, border_radius=6)
        pygame.draw.rect(surface, PANEL_EDGE, track, width=2, border_radius=6)
        current = self.session.deal_at()
        for k, start in enumerate(self.session.deals):
            x = self.x_of(start)
            colour = GOLD if k == current else TEXT_DIM
            pygame.draw.line(
                surface, colour, (x, r.y + 4), (x, r.bottom - 4), 3 if k == current else 2
            )
        knob = (self.x_of(self.session.index), r.centery)
        pygame.draw.circle(surface, (20, 20, 20), knob, 11)
        pygame.draw.circle(surface, GOLD, knob, 9)


class ReplayScene(TableScene):
    name = "replay"
    animated = True  # its own bar and controls besides the table's: redrawn every frame

    def __init__(self, app, session: ReplaySession, on_back=None) -> None:
        """`on_back`: where Escape and Back lead (default: the title)."""
        super().__init__(app, session)
        self.auto_results = False  # the game over is a moment of the replay, not the end
        self.on_back = on_back
        self.playing = False
        self.speed = 1.0
        self._wait = 0.0
        self.controls: list[Widget] = []

    @property
    def replay(self) -> ReplaySession:
        return self.session

    # -- commands ----------------------------------------------------------------------

    def toggle(self) -> None:
        if self.replay.at_end:
            self.playing = False
            return
        self.playing = not self.playing
        self._wait = 0.0

    def forward(self) -> None:
        self.playing = False
        self.director.finish()
        self.replay.forward()

    def back(self) -> None:
        self.playing = False
        self.replay.back()

    def jump(self, k: int) -> None:
        self.playing = False
        self.replay.jump_to_deal(k)

    def prev_deal(self) -> None:
        current = self.replay.deal_at()
        if current is None:
            self.replay.seek(0)
            self.playing = False
        elif self.replay.index > self.replay.deals[current]:
            self.jump(current)  # back to this deal's opening first
        else:
            self.jump(max(0, current - 1))

    def next_deal(self) -> None:
        current = self.replay.deal_at()
        k = 0 if current is None else current + 1
        if k < len(self.replay.deals):
            self.jump(k)

    def set_speed(self, speed: float) -> None:
        self.speed = speed
        self.director.tweens.speed = self.app.config.speed_factor * speed

    def set_choice(self, choice) -> None:
        self.replay.set_choice(choice)
        self.hand.selected = None

    def leave(self) -> None:
        if self.on_back is not None:
            self.on_back()
            return
        self.app.replace(router.scene(Route.TITLE, self.app))

    # -- widgets -----------------------------------------------------------------------

    def _controls(self) -> list[Widget]:
        x, h = BAR.x + 8, 48
        pw = grown(144)  # Play / Pause, its label grown with Large text; the rest moves on
        d = pw - 144
        play_label = lambda: tr("replay.pause") if self.playing else tr("replay.play")  # noqa: E731
        out: list[Widget] = [
            Timeline(TIMELINE, self.replay, self.jump),
            Button((x, ROW_Y, 76, h), "", self.back, icon="prev", name="replay.back",
                   tip=lambda: tr("tip.replay.back"), enabled=self.replay.index > 0,
                   disabled_reason=lambda: tr("why_off.ui.replay_start")),
            Button((x + 84, ROW_Y, pw, h), play_label, self.toggle, style="primary", size=24,
                   name="replay.play", tip=lambda: tr("tip.replay.play"),
                   enabled=not self.replay.at_end,
                   disabled_reason=lambda: tr("why_off.ui.replay_end")),
            Button((x + 236 + d, ROW_Y, 76, h), "", self.forward, icon="next", name="replay.forward",
                   tip=lambda: tr("tip.replay.forward"), enabled=not self.replay.at_end,
                   disabled_reason=lambda: tr("why_off.ui.replay_end")),
            Stepper((x + 320 + d, ROW_Y - 4, 250, h + 8), "", list(SPEEDS), lambda: self.speed,
                    self.set_speed, show=lambda s: tr("replay.speed", n=f"{s:g}"),
                    name="replay.speed", size=22, tip=lambda: tr("tip.replay.speed"),
                    value_w=246),
            Stepper((x + 582 + d, ROW_Y - 4, BAR.right - x - 590 - d, h + 8), "",
                    self.replay.viewer_choices(), lambda: self.replay.choice, self.set_choice,
                    show=self._choice_text, name="replay.hand_of", size=22,
                    tip=lambda: tr("tip.replay.hand_of"), value_w=BAR.right - x - 594 - d),
        ]  # fmt: skip
        for w in out:
            w.panel = L.RIGHT
        return out

    def _choice_text(self, choice) -> str:
        if choice == ALL_HANDS:
            return tr("replay.hand_all")
        if choice is None:
            return tr("replay.hand_table")
        return tr("replay.hand_of", name=self.names[choice])

    def layout(self) -> None:
        self.controls = self._controls()  # made once: a click's press and release meet
        super().layout()

    def _refresh(self) -> None:
        super()._refresh()
        self.panel.widgets = []  # a replay takes no moves: no panel controls
        enabled = {
            "replay.back": self.replay.index > 0,
            "replay.play": not self.replay.at_end,
            "replay.forward": not self.replay.at_end,
        }
        for w in self.controls:
            w.enabled = enabled.get(w.name, True)
            if w.name == "replay.hand_of":
                w.options = self.replay.viewer_choices()
        self.set_widgets(self.log_buttons + self.controls)

    def _log_changed(self) -> None:
        super()._log_changed()
        self.set_widgets(self.log_buttons + self.controls)

    def keymap(self):
        return REPLAY_KEYMAPS[Overlay.HISTORY if self.log.expanded else Overlay.NONE]

    def commands(self) -> dict:
        return {
            "replay.prev_deal": lambda: self.prev_deal() or True,
            "replay.next_deal": lambda: self.next_deal() or True,
            "replay.leave": lambda: self.leave() or True,
            "log.page_back": lambda: self._page_log(LOG_PAGE),
            "log.page_on": lambda: self._page_log(-LOG_PAGE),
        }

    # -- the frame ---------------------------------------------------------------------

    def _rebuild(self) -> None:
        """After a jump, a step back or another viewer: the table as if it had been there
        all along (log, money history and board settled, nothing animated)."""
        self.replay.rebuilt = False
        self.replay.poll()  # what was queued is in the events replayed below
        self.director.finish()
        self.log = LogPanel(self.names, addressed=False)  # a replay is nobody's "you"
        self.history = MoneyHistory(self.n)
        events = self.replay.events_so_far()
        for e in events:
            self.log.add(e)
            self.history.feed(e)
        self.director.settle(events)
        self._refresh()

    def update(self, dt: float) -> None:
        if self.replay.rebuilt:
            self._rebuild()
        if self.playing and not self.director.busy():
            self._wait += dt
            if self._wait >= STEP_PAUSE / self.speed:
                self._wait = 0.0
                self.replay.forward()
                if self.replay.at_end:
                    self.playing = False
        super().update(dt)
        if self.replay.rebuilt:
            self._rebuild()

    def draw(self, surface) -> None:
        super().draw(surface)
        draw.draw_panel(surface, BAR, fill=(16, 36, 30), alpha=245, radius=14, shadow=False)
        at = tr("replay.position", n=self.replay.index, total=self.replay.length)
        k = self.replay.deal_at()
        deal = (
            tr("replay.deal", n=k + 1, total=len(self.replay.deals))
            if k is not None
            else tr("replay.before_deals")
        )
        lines = (
            (draw.fit(at, 20, 280, TEXT, True), 20, True),
            (draw.fit(deal, 20, 280, TEXT_DIM), 20, False),
        )  # both above the buttons' row; at Large text in Thai only the first has room
        if draw.stacked_height(lines, 3) > ROW_Y - BAR.y - 6:
            lines = lines[:1]
        draw.blit_stacked(surface, lines, BAR.x + 12, (BAR.y + ROW_Y) // 2, gap=3)
        for w in self.controls:
            w.draw(surface, self.t)
        if self.replay.all_hands:
            self._draw_all_hands(surface)

    def _draw_all_hands(self, surface) -> None:
        """Game over, "all hands": every seat's remaining cards where the hand would be."""
        draw.draw_panel(surface, L.HAND, fill=(16, 36, 30), alpha=255, radius=14, shadow=False)
        hands = self.replay.shown_hands()
        cols = 2 if len(hands) > 3 else 1
        col_w = (L.HAND.width - 24) // cols
        rows = (len(hands) + cols - 1) // cols
        row_h = (L.HAND.height - 16) // max(1, rows)
        for i, (seat, hand) in enumerate(sorted(hands.items())):
            x = L.HAND.x + 12 + (i // rows) * col_w
            y = L.HAND.y + 8 + (i % rows) * row_h
            name = draw.fit(draw.ellipsize(self.names[seat], 20, 170, True), 20, 180,
                            seat_colour(seat), True)  # fmt: skip
            surface.blit(name, name.get_rect(midleft=(x + 6, y + row_h // 2)))
            keys = [k for k, n in sorted(hand.items()) for _ in range(n)]
            if not keys:
                none = draw.fit(tr("table.empty_hand"), 20, col_w - 220, TEXT_DIM)
                surface.blit(none, none.get_rect(midleft=(x + 200, y + row_h // 2)))
                continue
            ch = min(56, row_h - 8)
            cw = ch * 5 // 7
            step = min(cw + 4, (col_w - 220 - cw) // max(1, len(keys) - 1))
            for j, key in enumerate(keys):
                img = cardart.face(key, cw, ch)
                surface.blit(img, (x + 200 + j * step, y + (row_h - ch) // 2))
