"""The turn panel, outside a deal: whose turn and what they may do (make a deal, roll or
draw, recruit over the hand limit), the marker's space large with who holds each clan, and
after the last turn the way to the results."""

from __future__ import annotations

import pygame

from game.rules import Draw, LegalActions, OpenDeal, Recruit, Roll
from game.rules.seat_view import SeatView
from game.rules.state import Phase

from ...drawing import draw
from ...drawing.theme import GOLD, TEXT, TEXT_DIM, seat_colour
from ...drawing.widgets import Button, Widget
from ...i18n import tr, tr_count
from .. import layout as L
from .. import status
from ..reasons import why_off
from ..sentences import clan_word, recruit_tip
from .geometry import discard_rect, main_rect, marker_box, recruit_rect
from .slots import marker_preview
from .window import draw_banner, window_widgets


class TurnPanel:
    def __init__(self, table) -> None:
        self.table = table  # send, show_results

    # -- widgets ---------------------------------------------------------------------------

    def widgets(self, v: SeatView, legal: LegalActions, viewer: int | None) -> list[Widget]:
        phase = v.phase
        if phase is Phase.GAME_OVER:
            return [self._results_button()]
        if v.window is not None:
            return window_widgets(v, legal, viewer, self.table.send)
        if phase in (Phase.TURN, Phase.MOVED):
            return self._deal_or_move(v, legal, viewer)
        if phase is Phase.DISCARD:  # the Recruitment row stays put when Discard appears
            return self._discard_confirm() + self._recruits(legal)
        return []

    def _results_button(self) -> Widget:
        return Button(
            main_rect(0, 1),
            tr("table.see_results"),
            self.table.show_results,
            style="primary",
            size=30,
            name="results",
            tip=tr("tip.see_results"),
        )

    def _deal_or_move(self, v: SeatView, legal: LegalActions, viewer: int | None) -> list[Widget]:
        """Make a deal, or roll (before moving) / draw (after)."""
        send = self.table.send
        phase = v.phase.value
        me = viewer is not None
        deal = OpenDeal(viewer) if me else None
        second = Roll(viewer) if phase == "turn" and me else Draw(viewer) if me else None
        second_label = (
            tr("action.roll") if phase == "turn" else tr_count("action.draw", v.draw_count)
        )
        return [
            Button(
                main_rect(0, 2),
                lambda: tr("phrase.lets_make_a_deal"),
                lambda a=deal: send(a),
                style="primary",
                size=30,
                icon="crown",
                enabled=me and deal in legal,
                name="turn.deal",
                tip=lambda: tr("tip.make_deal"),
                disabled_reason=why_off(v, deal),
            ),
            Button(
                main_rect(1, 2),
                second_label,
                lambda a=second: send(a),
                style="good",
                size=30,
                icon="die" if phase == "turn" else None,
                enabled=me and second in legal,
                name="turn.roll" if phase == "turn" else "turn.draw",
                tip=lambda p=phase: tr("tip.roll" if p == "turn" else "tip.draw"),
                disabled_reason=why_off(v, second),
            ),
        ]

    def _discard_confirm(self) -> list[Widget]:
        """Keep all / Discard N, once a card is marked (nothing is discarded before)."""
        n = len(self.table.discard.marked)
        if not n:
            return []
        label = tr_count("table.discard_confirm", n)
        return [
            Button(
                discard_rect(0),
                tr("ui.cancel"),
                self.table.keep_all,
                style="ghost",
                size=24,
                name="discard.keep",
                tip=tr("tip.discard_clear"),
            ),
            Button(
                discard_rect(1),
                label,
                self.table.confirm_discard,
                style="danger",
                size=26,
                name="discard.confirm",
                tip=tr("tip.discard_confirm"),
            ),
        ]

    def _recruits(self, legal: LegalActions) -> list[Widget]:
        send = self.table.send
        recruits = [a for a in legal.fixed if isinstance(a, Recruit)]
        return [
            Button(
                recruit_rect(i, len(recruits)),
                tr("table.recruit_clan", clan=clan_word(int(a.clan))),
                lambda a=a: send(a),
                size=24,
                name=f"recruit.{int(a.clan)}",
                tip=recruit_tip(self.table.seen, int(a.clan)),
            )
            for i, a in enumerate(recruits)
        ]

    # -- the static picture ----------------------------------------------------------------

    def render(self, surf, v: SeatView, viewer: int | None, ox: int, oy: int) -> None:
        """Title, prompt, a window's banner and the marker's space onto the panel surface
        (ox, oy: logical -> surface coordinates)."""
        r = L.RIGHT
        names = [p.name for p in v.players]
        turn = v.turn
        phase = v.phase
        if phase is Phase.GAME_OVER:
            title = tr("results.game_over")
            prompt = ""
        else:
            title = status.turn_title(v, viewer, names)
            prompt = status.turn_prompt(v, viewer, names)
        if v.window is not None:
            draw_banner(surf, v, v.window, names, viewer, r.x + ox, r.y + oy + r.height - 164)
        col = seat_colour(turn) if phase is not Phase.GAME_OVER else GOLD
        pygame.draw.rect(surf, col, (r.x + ox + 24, r.y + oy + 26, 10, 52), border_radius=5)
        head = draw.fit(title, 40, r.width - 90, TEXT, True)
        surf.blit(head, (r.x + ox + 48, r.y + oy + 22))
        below = r.y
        if prompt:
            top = max(80, 22 + head.get_bounding_rect().bottom + 8)  # under the title's ink
            below = r.y + top + draw.blit_wrapped(
                surf,
                prompt,
                pygame.Rect(r.x + ox + 48, r.y + oy + top, r.width - 96, 80),
                26,
                TEXT_DIM,
            )
        m = v.marker
        if m is None or phase is Phase.GAME_OVER:
            return
        self._marker_space(surf, v, m, ox, oy, below)

    def _marker_plate(self, surf, recruiting: bool, below: int, ox: int, oy: int) -> pygame.Rect:
        """The box the marker's space is shown in, under the prompt's last line (`below`,
        logical): drawn on surf, and its rect there."""
        box = marker_box(recruiting, below + 4).move(ox, oy)
        pygame.draw.rect(surf, (10, 30, 22, 200), box, border_radius=16)
        pygame.draw.rect(surf, (70, 110, 90), box, width=2, border_radius=16)
        return box

    def _marker_space(self, surf, v: SeatView, m: int, ox: int, oy: int, below: int) -> None:
        """The marker's space, large: its value and every group, each clan with its holder;
        its box under the prompt's last line (`below`, logical)."""
        sp = v.board.spaces[m]
        box = self._marker_plate(surf, v.phase is Phase.DISCARD, below, ox, oy)
        head = draw.fit(tr("table.space_here", n=m + 1), 28, box.width - 260, TEXT, True)
        surf.blit(head, (box.x + 20, box.y + 16))
        value = tr("money.amount", n=sp.dividends * v.price)
        val = draw.text(value, 44, GOLD, True)
        surf.blit(val, val.get_rect(topright=(box.right - 20, box.y + 8)))
        sub = draw.fit(f"{sp.dividends} × {tr('money.amount', n=v.price)}", 22, 240, TEXT_DIM)
        at = sub.get_rect(topright=(box.right - 20, box.y + 62))
        ink = val.get_bounding_rect().bottom + box.y + 8  # under the value's ink (Large text)
        at.y = max(at.y, ink + 3 - sub.get_bounding_rect().top)
        surf.blit(sub, at)
        # the groups flow left to right, wrapping onto a second line: every group shows
        chip, step, gap = 52, 100, 34
        low = max(90, chip + 4 + draw.line_height(16) + 4)  # a chip and its holder's name
        x, y = box.x + 20, min(box.y + 100, box.bottom - low)  # a short box: a little higher
        for kind, k, holders in marker_preview(sp, v):
            lab = draw.text(tr("table.k_of", k=k), 24, TEXT, True) if kind == "grp" else None
            width = (lab.get_width() + 14 if lab else 0) + len(holders) * step - (step - chip)
            if x > box.x + 20 and x + width > box.right - 20:
                x, y = box.x + 20, y + 92
            if lab is not None:
                surf.blit(lab, lab.get_rect(midleft=(x, y + chip // 2 + 2)))
                x += lab.get_width() + 14
            for c, who in holders:
                surf.blit(draw.clan_chip(c, chip), (x, y))
                if who:
                    nm = draw.fit_name(who, 16, 98, TEXT_DIM)
                    surf.blit(nm, nm.get_rect(midtop=(x + chip // 2, y + chip + 4)))
                x += step
            x += gap - (step - chip)
