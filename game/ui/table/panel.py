"""The right-hand panel: the turn (deal / roll / draw, discards, placing the marker) or, once
a deal is open, the negotiation (the deal as drawn, every player's row, the bottom bar), a
reaction window's banner and countdowns, and the terms editor over it while open.

This file composes the parts in `panels/` (one-way collaborators: they get the table and,
for the negotiation, the editor; none knows the panel), caches the static picture and keeps
the names the table and the tests use. Every control is enabled from the viewer's
LegalActions and nothing else: the panel decides no rule.
"""

from __future__ import annotations

import pygame

from game.rules import LegalActions, SetAskPreference, TermsChoice
from game.rules.seat_view import SeatView
from game.rules.state import Phase, Terms

from ..drawing import draw
from ..drawing.theme import GOLD, THEME
from ..drawing.widgets import KEYCAP_W, Button, Toggle, Widget
from ..i18n import tr
from . import layout as L
from .panels.deal import render_deal
from .panels.editor import EditorState, TermsEditor, editor_rect
from .panels.geometry import laid_rects
from .panels.negotiation import NegotiationPanel
from .panels.slots import fill_slots, marker_preview
from .panels.turn import TurnPanel
from .panels.window import draw_countdown
from .reasons import why_off

TARGET_PULSE = draw.Pulse(140, 115, 1.4)  # where a Travel card can go

__all__ = ["ActionPanel", "fill_slots", "marker_preview"]

PHRASES = ("phrase.too_expensive", "phrase.deal", "phrase.no_way", "phrase.last_offer")


class ActionPanel:
    def __init__(self, table) -> None:
        self.table = table
        self.widgets: list[Widget] = []
        self.terms_editor = TermsEditor(table, self._invalidate)
        self.turn = TurnPanel(table)
        self.negotiation = NegotiationPanel(table, self.terms_editor)
        self.card_rects: dict[int, pygame.Rect] = {}  # laid card id -> rect
        self._key = None
        self._static: pygame.Surface | None = None
        self._static_key = None
        self.travel_choice: str | None = None  # a Travel card waiting for its target

    # -- the editor (its state is what the table and the tests look at) ---------------------

    @property
    def editor(self) -> EditorState | None:
        return self.terms_editor.state

    def open_editor(self, choice: TermsChoice | None, seat: int, pending: Terms | None) -> None:
        """Open the terms editor on `choice` for `seat`."""
        self.terms_editor.open(choice, seat, pending)

    def close_editor(self) -> None:
        self.terms_editor.close()

    def _invalidate(self) -> None:
        self._key = None

    # -- building widgets --------------------------------------------------------------

    def rebuild(self, v: SeatView, legal: LegalActions, viewer: int | None) -> list[Widget]:
        ed = self.editor
        key = (
            v.version,
            viewer,
            THEME.epoch,
            None if ed is None else (ed.id, tuple(sorted(ed.sources)), ed.amount),
            self.travel_choice,
            self.table.hints.shown(),
            tuple(self.table.discard.marked),
        )
        if key == self._key:
            return self.widgets
        self._key = key
        self.card_rects = laid_rects(v)
        self.terms_editor.refresh(legal)
        if v.phase is Phase.NEGOTIATION:
            self.widgets = self.negotiation.widgets(v, legal, viewer)
        else:
            self.widgets = self.turn.widgets(v, legal, viewer)
        self.widgets += self._common_widgets(v, legal, viewer)
        box = editor_rect() if self.editor is not None else L.RIGHT
        for w in self.widgets:
            w.panel = box
        return self.widgets

    def _common_widgets(self, v, legal, viewer) -> list[Widget]:
        """The table talk phrases (only while the seat's view shows a negotiation running:
        they are negotiation talk), the ask-preference toggle and the Hint button, under
        everything else. Where the row is short (Large text, 1280x720) the last phrases
        give way until the toggle's label fits its lines: no label shrinks back."""
        if viewer is None or v.over or self.editor is not None:
            return []
        y = L.RIGHT.bottom - 54
        right = L.RIGHT.right - 24
        hints = self.table.hints
        tail: list[Widget] = []
        if hints.available():  # the Hint button closes the row (key H)
            w = max(90, draw.text_width(tr("table.hint"), 22, True) + 30 + KEYCAP_W)
            tail.append(
                Button(
                    (right - w, y, w, 42),
                    lambda: tr("table.hint"),
                    hints.toggle,
                    style="primary" if hints.shown() else "normal",
                    size=22,
                    name="hint",
                    sound=None,
                    tip=lambda: tr("tip.hint"),
                )
            )
            right -= w + 6
        phrases = list(PHRASES if v.negotiation is not None else ())
        while True:
            buttons = self._phrase_buttons(phrases, y)
            x = buttons[-1].rect.right + 8 if buttons else L.RIGHT.x + 24
            toggle = self._ask_toggle(v, legal, viewer, pygame.Rect(x + 6, y - 4, right - x - 6, 54))
            if not phrases or toggle.label_fits():
                return [*buttons, *tail, toggle]
            phrases.pop()

    def _phrase_buttons(self, keys: list[str], y: int) -> list[Widget]:
        out: list[Widget] = []
        x = L.RIGHT.x + 24
        widest = round(170 * max(1.0, THEME.text_scale))
        for key in keys:
            w = min(widest, max(90, draw.text_width(tr(key), 20, True) + 24))
            out.append(
                Button(
                    (x, y, w, 42),
                    lambda k=key: tr(k),
                    lambda k=key: self.table.say(k),
                    style="ghost",
                    size=20,
                    name=key,
                    sound=None,
                    tip=tr("tip.phrase"),
                )
            )
            x += w + 8
        return out

    def _ask_toggle(self, v, legal, viewer, rect: pygame.Rect) -> Toggle:
        """Ask me only when it touches me: two lines of Thai at 20 px in its 54 px."""
        pref = next((a for a in legal.fixed if isinstance(a, SetAskPreference)), None)
        current = v.players[viewer].asks_only_when_touched
        return Toggle(
            rect,
            lambda: tr("table.ask_pref"),
            lambda c=current: c,
            lambda _val, a=pref: self.table.send(a) if a is not None else None,
            tip=lambda: tr("table.ask_pref.desc"),
            name="pref.toggle",
            size=20,
            enabled=pref is not None,
            disabled_reason=why_off(v, SetAskPreference(viewer, not current)),
        )

    def hints(self, v: SeatView) -> list[tuple[pygame.Rect, str]]:
        """Tooltips of drawn (not clickable) parts of the panel: the negotiation's move meter,
        or the editor's fair-price line."""
        neg = v.negotiation
        if self.editor is not None:  # the editor's fair-price line (the coach's estimate)
            fair = self.terms_editor.fair_rect
            return [] if fair is None else [(fair, tr("tip.fair_price"))]
        if v.phase is not Phase.NEGOTIATION or neg is None:
            return []
        meter = pygame.Rect(L.RIGHT.x + 520, L.RIGHT.y + 52, 444, 46)  # and the line under it
        text = tr(
            "tip.moves", n=neg.actions, limit=neg.limit, name=self.table.names[neg.boss]
        )
        return [(meter, text)]

    # -- drawing ----------------------------------------------------------------------

    def static(self, v: SeatView, viewer: int | None) -> tuple[pygame.Surface, tuple[int, int]]:
        """The panel's unchanging parts for this view (cached), and where they go."""
        key = (v.version, viewer, THEME.epoch, self.editor is not None)
        if key != self._static_key:
            self._static = self._render_static(v, viewer)
            self._static_key = key
        return self._static, (L.RIGHT.x - 10, L.RIGHT.y - 10)

    def _render_static(self, v: SeatView, viewer: int | None) -> pygame.Surface:
        r = L.RIGHT
        surf = draw.copy_of(draw.panel_surface(r.width, r.height, alpha=222))
        ox, oy = 10 - r.x, 10 - r.y  # logical -> surface coordinates
        if v.phase is Phase.NEGOTIATION:
            at = render_deal(
                surf,
                v,
                viewer,
                self.card_rects,
                ox,
                oy,
                self.editor is None,
                self.negotiation.buttons_left,
            )
            self.terms_editor.ledger_at = at
        else:
            self.turn.render(surf, v, viewer, ox, oy)
        return surf

    def draw_live(self, surface, v: SeatView, session, t: float, glow_targets: set) -> None:
        """What changes from frame to frame: countdowns, target glows, the editor, widgets."""
        for cid, r in self.card_rects.items():
            if ("card", cid) in glow_targets:
                draw.draw_glow(
                    surface, r, GOLD, radius=8, spread=8, alpha=TARGET_PULSE.alpha(t)
                )
        for cd in session.countdowns():
            draw_countdown(surface, cd, self.table.names)
        if self.editor is not None:
            self.terms_editor.draw(surface, v)
        for w in self.widgets:
            w.draw(surface, t)
