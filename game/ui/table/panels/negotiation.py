"""The negotiation panel's controls: per other player a row of buttons (the Boss accepts
an offer, saying what he pays, counters or declines it, proposes or withdraws his own
proposal; an investor accepts a proposal, saying what he gets, declines it or withdraws
his offer), and the bottom bar (the Boss's calls, an investor's one Offer / Counter
button and Pass, or a reaction window's answers). One button for each thing one may do;
every button is enabled from the viewer's LegalActions."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pygame

from game.rules import (
    Accept,
    AcceptFormer,
    AcceptProposal,
    FailDeal,
    GoingOnce,
    LegalActions,
    Offer,
    PassFloor,
    Propose,
    TermsChoice,
    WindowMode,
    Withdraw,
)
from game.rules.seat_view import SeatView

from ...drawing import draw
from ...drawing.widgets import Button, Widget
from ...i18n import tr
from .. import layout as L
from ..reasons import why_off
from .editor import TermsEditor
from .geometry import (
    ACCEPT_BUTTON_MAX,
    ROW_BUTTON_MAX,
    bar_labels,
    bar_rect,
    bar_rects,
    grown,
    ink,
    row_seats,
    row_step,
    rows_top,
)
from .window import window_widgets

# what each of the Boss's bottom-bar buttons does
BOSS_BAR_TIPS = {
    "neg.going_once": "tip.going_once",
    "neg.accept_former": "tip.accept_former",
    "neg.fail": "tip.fail_deal",
    "neg.pass_floor": "tip.pass_floor_boss",
}


@dataclass(frozen=True)
class RowButton:
    """One button of a player's row, laid out right to left."""

    label: str
    press: Callable[[], None]
    enabled: bool
    name: str
    style: str
    tip: str
    reason: Callable[[], str]  # why it is off (read only then)


@dataclass(frozen=True)
class ViewerTerms:
    """The viewer's TermsChoices: a proposal per player (the Boss), or one offer."""

    by_target: dict[int, TermsChoice]
    offer: TermsChoice | None

    @classmethod
    def of(cls, legal: LegalActions) -> ViewerTerms:
        by_target, offer = {}, None
        for t in legal.terms:
            if isinstance(t.action, Propose):
                by_target[t.action.to] = t
            else:
                offer = t
        return cls(by_target, offer)


class NegotiationPanel:
    def __init__(self, table, editor: TermsEditor) -> None:
        self.table = table  # send
        self.editor = editor
        self.buttons_left: dict[int, int] = {}  # row's seat -> where its buttons begin

    def widgets(self, v: SeatView, legal: LegalActions, viewer: int | None) -> list[Widget]:
        if self.editor.state is not None:  # the editor is modal: only its own controls
            return self.editor.widgets(v, legal)
        terms = ViewerTerms.of(legal)
        self.buttons_left = {}
        out: list[Widget] = []
        seats = row_seats(v)
        step = row_step(len(seats))
        for i, seat in enumerate(seats):
            out += self._row(v, legal, viewer, seat, rows_top() + i * step, step, terms)
        return out + self._bottom_bar(v, legal, viewer, terms)

    # -- the rows --------------------------------------------------------------------------

    def _row(self, v, legal, me, seat: int, y: int, step: int, terms: ViewerTerms) -> list[Widget]:
        if me is not None and me == v.negotiation.boss:
            buttons = self._boss_row(v, legal, me, seat, terms)
        elif me is not None and me == seat:
            buttons = self._own_row(v, legal, me, terms)
        else:
            buttons = []
        out: list[Widget] = []
        bx = L.RIGHT.right - 24
        for b in reversed(buttons):
            most = grown(ACCEPT_BUTTON_MAX if b.style == "good" else ROW_BUTTON_MAX)
            w = min(most, max(96, draw.text_width(b.label, 18, True) + 24))
            # a little taller where the label's ink needs it (Thai at Large text)
            h = max(step - 8, min(step - 4, ink(b.label, 18, True).height + 6))
            r = pygame.Rect(bx - w, y + (step - 2 - h) // 2, w, h)
            out.append(
                Button(
                    r,
                    b.label,
                    b.press,
                    style=b.style,
                    size=18,
                    enabled=bool(b.enabled),
                    name=b.name,
                    tip=b.tip,
                    disabled_reason=b.reason,
                )
            )
            bx -= w + 6
        if buttons:
            self.buttons_left[seat] = bx + 6
        return out

    def _boss_row(self, v, legal, me: int, seat: int, terms: ViewerTerms) -> list[RowButton]:
        """The Boss's row for `seat`: accept its offer (saying what he pays), counter it
        (or propose, or change his own proposal), decline it (or withdraw his own)."""
        send = self.table.send
        names = [p.name for p in v.players]
        pend = v.negotiation.pending.get(seat)
        theirs = pend is not None and not pend.by_boss
        out = []
        a_acc = Accept(me, seat)
        if theirs:
            amount = tr("money.amount", n=pend.amount)
            out.append(
                RowButton(
                    tr("row.accept_pay", amount=amount),
                    lambda a=a_acc: send(a),
                    a_acc in legal,
                    f"neg.accept.{seat}",
                    "good",
                    tr("tip.accept_offer_pays", name=names[seat], amount=amount),
                    why_off(v, a_acc),
                )
            )
        choice = terms.by_target.get(seat)
        label, tip = (
            ("action.counter", "tip.counter_offer") if theirs
            else ("row.change", "tip.change_proposal") if pend
            else ("table.propose", "tip.propose")
        )  # fmt: skip
        out.append(
            RowButton(
                tr(label),
                lambda c=choice, s=seat, p=pend: self.editor.open(c, s, p),
                choice is not None,
                f"neg.counter.{seat}",
                "normal",
                tr(tip, name=names[seat]),
                why_off(v, Propose(me, seat, (), 0)),
            )
        )
        a_wd = Withdraw(me, seat)
        if pend:
            out.append(
                RowButton(
                    tr("row.decline") if theirs else tr("action.withdraw"),
                    lambda a=a_wd: send(a),
                    a_wd in legal,
                    f"neg.withdraw.{seat}",
                    "ghost",
                    tr("tip.decline_offer" if theirs else "tip.withdraw_to", name=names[seat]),
                    why_off(v, a_wd),
                )
            )
        return out

    def _own_row(self, v, legal, me: int, terms: ViewerTerms) -> list[RowButton]:
        """An investor's own row: accept the Boss's proposal (saying what he gets), decline
        it or withdraw his own offer. Offering and countering are the bar's one button, and
        the row's while a window holds the bar and an offer may answer it ("going once")."""
        send = self.table.send
        names = [p.name for p in v.players]
        boss = v.negotiation.boss
        pend = v.negotiation.pending.get(me)
        out = []
        if pend and pend.by_boss:
            a = AcceptProposal(me)
            amount = tr("money.amount", n=pend.amount)
            out.append(
                RowButton(
                    tr("row.accept_get", amount=amount),
                    lambda a=a: send(a),
                    a in legal,
                    "neg.accept_proposal",
                    "good",
                    tr("tip.accept_proposal_pays", name=names[boss], amount=amount),
                    why_off(v, a),
                )
            )
        if v.window is not None and terms.offer is not None:
            label, tip = (
                ("action.offer", "tip.offer") if not pend
                else ("action.counter", "tip.counter_proposal") if pend.by_boss
                else ("row.change", "tip.change_offer")
            )  # fmt: skip
            out.append(
                RowButton(
                    tr(label),
                    lambda c=terms.offer, p=pend: self.editor.open(c, boss, p),
                    True,
                    "neg.offer",
                    "normal",
                    tr(tip, name=names[boss]),
                    why_off(v, Offer(me, (), 0)),
                )
            )
        if pend:
            a = Withdraw(me, me)
            proposal = pend.by_boss
            out.append(
                RowButton(
                    tr("row.decline") if proposal else tr("action.withdraw"),
                    lambda a=a: send(a),
                    a in legal,
                    "neg.withdraw.self",
                    "ghost",
                    tr("tip.decline_proposal", name=names[boss]) if proposal
                    else tr("tip.withdraw_own"),
                    why_off(v, a),
                )
            )
        return out

    # -- the bottom bar --------------------------------------------------------------------

    def _bottom_bar(self, v, legal, me, terms: ViewerTerms) -> list[Widget]:
        if v.window is not None:
            return window_widgets(v, legal, me, self.table.send)
        if me is None:
            return []
        if me == v.negotiation.boss:
            return self._boss_bar(v, legal, me)
        return self._investor_bar(v, legal, me, terms)

    def _boss_bar(self, v, legal: LegalActions, me: int) -> list[Widget]:
        """Going once, (accept the former agreements,) fail the deal, pass the floor."""
        send = self.table.send
        opts = [
            ("action.going_once", GoingOnce(me), "good", "neg.going_once"),
            ("action.fail_deal", FailDeal(me), "danger", "neg.fail"),
        ]
        if any(isinstance(a, AcceptFormer) for a in legal.fixed):
            opts.insert(
                1,
                ("table.accept_former", AcceptFormer(me), "normal", "neg.accept_former"),
            )
        if _has_floor(v):  # in real time there is no floor to pass
            opts.append(("table.pass_floor", PassFloor(me), "normal", "neg.pass_floor"))
        labels = bar_labels([key for key, _, _, _ in opts], 24)
        rects = bar_rects(labels, 24)
        return [
            Button(
                rects[i],
                label,
                lambda a=a: send(a),
                style=style,
                size=24,
                enabled=a in legal,
                name=name,
                tip=tr(BOSS_BAR_TIPS[name]),
                disabled_reason=why_off(v, a),
            )
            for i, (label, (_, a, style, name)) in enumerate(zip(labels, opts, strict=True))
        ]

    def _investor_bar(self, v, legal, me: int, terms: ViewerTerms) -> list[Widget]:
        """Offer to the Boss, or pass the floor."""
        send = self.table.send
        boss = v.negotiation.boss
        names = [p.name for p in v.players]
        a_pf = PassFloor(me)
        my_pending = v.negotiation.pending.get(me)
        n = 2 if _has_floor(v) else 1  # in real time there is no floor to pass
        label, tip = (
            ("table.offer", "tip.offer") if not my_pending
            else ("table.counter_proposal", "tip.counter_proposal") if my_pending.by_boss
            else ("table.change_offer", "tip.change_offer")
        )  # fmt: skip
        bar = [
            Button(
                bar_rect(0, n),
                tr(label),
                lambda c=terms.offer, p=my_pending: self.editor.open(c, boss, p),
                style="primary",
                size=26,
                enabled=terms.offer is not None,
                name="bar.offer",
                tip=tr(tip, name=names[boss]),
                disabled_reason=why_off(v, Offer(me, (), 0)),
            ),
        ]
        if n == 2:
            bar.append(
                Button(
                    bar_rect(1, 2),
                    tr("table.pass_floor"),
                    lambda a=a_pf: send(a),
                    style="normal",
                    size=26,
                    enabled=a_pf in legal,
                    name="neg.pass_floor",
                    tip=tr("tip.pass_floor"),
                    disabled_reason=why_off(v, a_pf),
                )
            )
        return bar


def _has_floor(v: SeatView) -> bool:
    """Ask-around: the floor goes round (docs/RULES.md §6); real time has none."""
    return v.settings.window_mode is WindowMode.ASK_AROUND
