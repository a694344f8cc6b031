"""The offer / proposal editor: tick sources from the choice's pool, dial an amount in
lo..hi, lay a needed Clan card from the hand (offers only), send or cancel.

Modal over the negotiation panel while open. Everything it can send comes from the
viewer's `legal.terms` (a TermsChoice) and `legal.fixed` (LayClan); it decides no rule.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache

import pygame

from game.rules import LayClan, LegalActions, Offer, Source, SourceKind, TermsChoice
from game.rules.ledger import needed_sources
from game.rules.seat_view import SeatView
from game.rules.state import Terms

from ...drawing import draw, fonts
from ...drawing.theme import CLAN_LETTERS, GOLD, TEXT, TEXT_DIM, THEME
from ...drawing.widgets import Button, Widget
from ...i18n import tr
from .. import layout as L
from ..reasons import ui_reason, why_off
from ..sentences import clan_word
from .fair import FairLine
from .geometry import rows_header_ink
from .ledger import LedgerBox
from .rows import Kind, terms_sentence
from .slots import source_label


@dataclass
class EditorState:
    """The open editor: the choice it edits (refreshed from each new LegalActions), whom
    it addresses, what is ticked and dialled, the Clan cards it offers to lay, and the clan
    of a card just laid from it (ticked once the laid card shows up in the pool)."""

    choice: TermsChoice
    seat: int
    sources: set[Source]
    amount: int
    lays: list[LayClan] = field(default_factory=list)
    lay_clan: int | None = None

    @property
    def id(self) -> tuple[str, int]:
        return (type(self.choice.action).__name__, self.seat)

    @property
    def slots(self) -> int:
        """Slots in the source rows: the sources, the Clan cards that can be laid from the
        editor, and with no source at all one more for the note saying so."""
        pool = self.choice.pool
        return len(pool) + len(self.lays) + (0 if pool else 1)


@dataclass(frozen=True)
class EditorGeometry:
    sources: list[pygame.Rect]
    amount_y: int
    range_h: int  # the range line's room: its ink fits, whatever the script and text size
    summary_h: int
    range_y: int
    summary_bottom: int
    buttons_y: int


def terms_seat(choice: TermsChoice) -> int:
    """The investor the terms are with: the one offering, or the one proposed to."""
    return choice.action.seat if isinstance(choice.action, Offer) else choice.action.to


def editor_rect() -> pygame.Rect:
    """Over the players' rows and their header (which rises with Large text)."""
    top = min(L.RIGHT.y + 296, rows_header_ink() - 4)
    return pygame.Rect(L.RIGHT.x + 16, top, L.RIGHT.width - 32, L.RIGHT.bottom - 8 - top)


def title_band() -> tuple[int, int]:
    """Where the title's line starts and where the first source row does, from the
    editor's top: the title's ink clear of the row however tall the text, the title
    rising into the top margin first (Large text, Thai marks)."""
    sample = draw.LINE_SAMPLE[THEME.lang]
    ink = fonts.render_text(sample, THEME.lang, THEME.font_px(28), TEXT, True).get_bounding_rect()
    y = max(4 - ink.top, min(18, 62 - 4 - ink.bottom))
    return y, max(62, y + ink.bottom + 4)


RANGE_H = 24  # the "any amount from ... to ..." line (and the fair price, coach's), at least
FAIR = (236, 206, 120)  # the fair-price line: the coach's gold, dimmed
SUMMARY_H = 28  # the summary line above Cancel and Send, at least
LINES_GAP = 3  # between the range's ink and the summary's


# the summary's sentences (rows.py: the viewer's own offer, the Boss's proposal; none)
SUMMARY_KEYS = (
    "row.offer.own",
    "row.offer_fee.own",
    "row.proposal.boss",
    "row.proposal_fee.boss",
    "table.editor.empty",
)


@lru_cache(maxsize=64)
def _ink_heights(lang: str, top_px: int, bottom_px: int, epoch: int) -> tuple[int, int]:
    """How tall the two lines' ink comes out in `lang`: the range and the fair price (the
    coach's) on top, the tallest of the summary's sentences below (names are Latin in
    every language)."""
    money = tr("money.amount", n=18)
    top = tr("table.editor.range", lo=money, hi=money) + tr("fair.investor_alone", amount=money)
    words = {"name": "Agy", "boss": "Agy", "sources": "G Goldman", "amount": money}
    bottoms = [tr(key, **words) for key in SUMMARY_KEYS]

    def ink(s: str, px: int) -> int:
        return fonts.render_text(s, lang, px, (255, 255, 255)).get_bounding_rect().height

    return ink(top, top_px), max(ink(s, bottom_px) for s in bottoms)


def line_rooms() -> tuple[int, int]:
    """The range and the summary lines' heights at the current text size and language: at
    least RANGE_H and SUMMARY_H, more where their inks need it (Thai, Large text)."""
    top, bottom = _ink_heights(THEME.lang, THEME.font_px(20), THEME.font_px(22), THEME.epoch)
    band = max(RANGE_H + SUMMARY_H, top + LINES_GAP + bottom)
    range_h = min(max(RANGE_H, top + LINES_GAP), band - bottom)
    return range_h, band - range_h


def editor_geometry(n_sources: int) -> EditorGeometry:
    """The editor's rows, top to bottom: title, the sources (rows of up to three: four go
    two by two; Clan cards to lay, or the note that there is nothing to offer, take the
    slots after them), the amount dial, the range and the summary line, Cancel and Send.
    Source rows get lower (down to 40 px; below 44 they lose their key caps) when the
    editor is short, then closer together, and then the gap above Cancel and Send, so
    the range and the summary lines never overlap (their room grows with the text size: line_rooms)."""
    r = editor_rect()
    per_row = 2 if n_sources == 4 else min(3, max(1, n_sources))
    rows = max(1, (n_sources + per_row - 1) // per_row)
    gap, h = 12, 50
    range_h, summary_h = line_rooms()
    top = title_band()[1]
    fixed = top + 6 + 60 + range_h + summary_h + 6 + 64  # title ... amount, lines, buttons
    fixed -= 3  # the summary's ink ends 3 px above the buttons (its line's descent, 6 before)
    apart = 8  # between source rows
    spare = r.height - fixed - rows * (h + apart)
    if spare < 0:
        h = max(40, h + spare // rows)
        short = r.height - fixed - rows * (h + apart)  # still: the rows closer together
        if short < 0:
            apart = max(4, apart + short // rows)
    bw = (r.width - 48 - gap * (per_row - 1)) // per_row
    sources = []
    for i in range(n_sources):
        row, col = divmod(i, per_row)
        sources.append(
            pygame.Rect(r.x + 24 + col * (bw + gap), r.y + top + row * (h + apart), bw, h)
        )
    amount_y = r.y + top + rows * (h + apart) + 6
    buttons_y = r.bottom - 64
    pad = max(0, min(3, buttons_y - (amount_y + 60 + range_h + summary_h)))
    return EditorGeometry(
        sources, amount_y, range_h, summary_h, amount_y + 60, buttons_y - pad, buttons_y
    )


class TermsEditor:
    """Holds the EditorState (None: closed); `on_change` tells the panel to rebuild."""

    def __init__(self, table, on_change: Callable[[], None]) -> None:
        self.table = table  # send, and the seat's view `seen` (which laid card is which clan)
        self.on_change = on_change
        self.state: EditorState | None = None
        self.fair = FairLine(table)
        self.fair_rect: pygame.Rect | None = None  # where the fair-price line was drawn
        self.ledger = LedgerBox()
        self.ledger_at: pygame.Rect | None = None  # the ledger box's place, from the deal

    def open(self, choice: TermsChoice | None, seat: int, pending: Terms | None) -> None:
        """Open on `choice`, addressed to `seat`; ticked and dialled as the coach's hint
        on the screen says, else as the pending terms were, else with the sources the deal
        still lacks ticked (game/rules/ledger.py) at the lowest amount."""
        if choice is None:
            return
        sources = set()
        amount = choice.lo
        if pending:
            pend_srcs = set(pending.sources)
            sources = {s for s in choice.pool if s in pend_srcs}
            amount = min(choice.hi, max(choice.lo, pending.amount))
        elif choice.pool:
            sources = set(needed_sources(self.table.seen, terms_seat(choice), choice.pool))
        hints = getattr(self.table, "hints", None)  # (a bare table in tests has none)
        suggested = hints.suggested_terms(choice) if hints is not None else None
        if suggested is not None:  # the coach's hint on the screen: its terms, dialled
            sources, amount = suggested
        self.state = EditorState(choice, seat, sources, amount)
        self.on_change()

    def close(self) -> None:
        self.state = None
        self.on_change()

    def refresh(self, legal: LegalActions) -> None:
        """Re-read the choice from the new legal actions; gone from them, the editor closes
        (quietly: the panel is rebuilding anyway)."""
        ed = self.state
        if ed is None:
            return
        for t in legal.terms:
            if type(t.action) is type(ed.choice.action) and getattr(
                t.action, "to", None
            ) == getattr(ed.choice.action, "to", None):
                fresh = set(t.pool) - set(ed.choice.pool)
                ed.choice = t
                ed.sources = {s for s in ed.sources if s in t.pool}
                clan, ed.lay_clan = ed.lay_clan, None
                if clan is not None:  # the card just laid from the editor: ticked
                    ed.sources |= {
                        s for s in fresh if s.kind is SourceKind.CARD and self._laid_clan(s) == clan
                    }
                ed.amount = min(t.hi, max(t.lo, ed.amount))
                return
        self.state = None

    def terms(self) -> tuple[int, tuple[Source, ...], int]:
        """The terms as dialled, as the ledger previews them: (investor, sources, amount)."""
        ed = self.state
        return (terms_seat(ed.choice), tuple(sorted(ed.sources)), ed.amount)

    def _laid_clan(self, src) -> int | None:
        return self.table.seen.source_clan(src)

    def _set_amount(self, x: int) -> None:
        ed = self.state
        ed.amount = min(ed.choice.hi, max(ed.choice.lo, x))
        self.on_change()

    def _toggle(self, src: Source) -> None:
        self.state.sources ^= {src}
        self.on_change()

    def _lay(self, a: LayClan) -> None:
        """Lay the card; the editor stays open and ticks the new source once it is laid."""
        self.state.lay_clan = int(a.clan)
        self.table.send(a)

    def _send(self, action) -> None:
        self.close()
        self.table.send(action)

    # -- widgets ---------------------------------------------------------------------------

    def widgets(self, v: SeatView, legal: LegalActions) -> list[Widget]:
        ed = self.state
        choice = ed.choice
        # a Clan card of a needed clan still in the hand can be laid from here (offers only)
        ed.lays = (
            [a for a in legal.fixed if isinstance(a, LayClan)]
            if isinstance(choice.action, Offer)
            else []
        )
        geo = editor_geometry(ed.slots)
        return (
            self._source_buttons(v, geo)
            + self._lay_buttons(geo)
            + self._amount_buttons(v, geo)
            + self._send_buttons(v, legal, geo)
        )

    def _source_buttons(self, v: SeatView, geo: EditorGeometry) -> list[Widget]:
        """Each source ticked by its clan's letter on the keyboard too (the first source of
        a clan, when a player holds both its placard and a laid card of it)."""
        ed = self.state
        out: list[Widget] = []
        lettered: set[int] = set()
        for i, src in enumerate(ed.choice.pool):
            on = src in ed.sources
            label = source_label(v, src)
            clan = v.source_clan(src)
            command = ""
            if clan is not None and clan not in lettered:
                lettered.add(clan)
                command = f"editor.clan.{CLAN_LETTERS[clan]}"  # its letter's key (keys.py)
            out.append(
                Button(
                    geo.sources[i],
                    label,
                    lambda s=src: self._toggle(s),
                    style="primary" if on else "ghost",
                    size=22,
                    name=f"editor.src.{i}",
                    command=command,
                    tip=tr("tip.editor.source", source=label),
                )
            )
        return out

    def _lay_buttons(self, geo: EditorGeometry) -> list[Widget]:
        """A Clan card of a needed clan still in the hand: lay it from here, then offer it;
        its button takes the slot after the sources."""
        ed = self.state
        out: list[Widget] = []
        for j, a in enumerate(ed.lays):
            word = clan_word(int(a.clan))
            out.append(
                Button(
                    geo.sources[len(ed.choice.pool) + j],
                    tr("table.editor.lay", clan=word),
                    lambda a=a: self._lay(a),
                    style="normal",
                    size=20,
                    name=f"editor.lay.{int(a.clan)}",
                    tip=tr("tip.editor.lay", clan=word),
                )
            )
        return out

    def _amount_buttons(self, v: SeatView, geo: EditorGeometry) -> list[Widget]:
        ed = self.state
        choice = ed.choice
        r = editor_rect()
        price = v.negotiation.price
        ay = geo.amount_y
        cx = r.x + 24
        amount = ed.amount
        return [
            Button(
                (cx, ay, 64, 58),
                "–",
                lambda: self._set_amount(ed.amount - 1),
                size=34,
                enabled=amount > choice.lo,
                name="editor.minus",
                tip=tr("tip.editor.minus"),
                disabled_reason=ui_reason("amount_lowest"),
            ),
            Button(
                (cx + 260, ay, 64, 58),
                "+",
                lambda: self._set_amount(ed.amount + 1),
                size=34,
                enabled=amount < choice.hi,
                name="editor.plus",
                tip=tr("tip.editor.plus"),
                disabled_reason=ui_reason("amount_highest"),
            ),
            Button(
                (cx + 340, ay, 220, 58),
                "+" + tr("phrase.one_dividend"),
                lambda: self._set_amount(ed.amount + price),
                size=22,
                enabled=amount + price <= choice.hi,
                name="editor.dividend",
                disabled_reason=ui_reason("amount_highest"),
                tip=lambda: tr("tip.one_dividend", amount=tr("money.amount", n=price)),
            ),
            Button(
                (cx + 572, ay, 136, 58),  # "ต่ำสุด $10M" at Large
                tr("table.min", amount=tr("money.amount", n=choice.lo)),
                lambda: self._set_amount(choice.lo),
                size=20,
                enabled=amount != choice.lo,
                name="editor.zero",
                disabled_reason=ui_reason("amount_lowest"),
                tip=tr("tip.editor.min", amount=tr("money.amount", n=choice.lo)),
            ),
            Button(
                (cx + 720, ay, r.right - 24 - cx - 720, 58),
                tr("table.max", amount=tr("money.amount", n=choice.hi)),
                lambda: self._set_amount(choice.hi),
                size=22,
                enabled=amount != choice.hi,
                name="editor.max",
                disabled_reason=ui_reason("amount_highest"),
                tip=tr("tip.editor.max", amount=tr("money.amount", n=choice.hi)),
            ),
        ]

    def _send_buttons(self, v: SeatView, legal: LegalActions, geo: EditorGeometry) -> list[Widget]:
        ed = self.state
        r = editor_rect()
        action = ed.choice.make(tuple(ed.sources), ed.amount)
        offer = isinstance(action, Offer)
        return [
            Button(
                (r.right - 24 - 260, geo.buttons_y, 260, 56),
                tr("table.send_offer") if offer else tr("table.send_proposal"),
                lambda a=action: self._send(a),
                style="primary",
                size=26,
                enabled=action in legal,
                name="editor.send",
                disabled_reason=why_off(v, action),
                tip=tr("tip.send_offer" if offer else "tip.send_proposal"),
            ),
            Button(
                (r.right - 24 - 260 - 14 - 200, geo.buttons_y, 200, 56),
                tr("ui.cancel"),
                self.close,
                style="ghost",
                size=24,
                name="editor.cancel",
                tip=tr("tip.editor.cancel"),
            ),
        ]

    # -- drawing ---------------------------------------------------------------------------

    def draw(self, surface, v: SeatView) -> None:
        ed = self.state
        r = editor_rect()
        if self.ledger_at is not None and v.seat is not None:  # the figures after
            self.ledger.draw(surface, v, v.seat, self.ledger_at, self.terms())
        # opaque: the rows behind it must not show through (a faint "$2M offer" under it)
        draw.draw_panel(surface, r, fill=(28, 46, 40), alpha=255, edge=GOLD, radius=16)
        choice = ed.choice
        names = [p.name for p in v.players]
        if isinstance(choice.action, Offer):
            title = tr("table.editor.offer", name=names[v.negotiation.boss])
        else:
            title = tr("table.editor.propose", name=names[choice.action.to])
        surface.blit(draw.fit(title, 28, r.width - 48, TEXT, True), (r.x + 24, r.y + title_band()[0]))
        geo = editor_geometry(ed.slots)
        if not choice.pool:  # the note takes the slot after any Clan cards to lay
            note = tr("table.editor.lay_first") if ed.lays else tr("table.editor.no_sources")
            box = geo.sources[-1]
            text = draw.fit(note, 22, box.width, TEXT_DIM)
            surface.blit(text, text.get_rect(midleft=(box.x, box.centery)))
        amount = draw.text(tr("money.amount", n=ed.amount), 40, GOLD, True)
        surface.blit(amount, amount.get_rect(center=(r.x + 24 + 64 + 98, geo.amount_y + 29)))
        rng = tr(
            "table.editor.range",
            lo=tr("money.amount", n=choice.lo),
            hi=tr("money.amount", n=choice.hi),
        )
        line = pygame.Rect(r.x + 24, geo.range_y, r.width - 48, geo.range_h)
        self._draw_range(surface, v, rng, line)
        summary = draw.fit(self.summary(v), 22, r.width - 48, TEXT)
        ink = summary.get_bounding_rect()  # its ink, not its line's empty room, ends there
        surface.blit(summary, (r.x + 24, geo.summary_bottom - ink.bottom))

    def summary(self, v: SeatView) -> str:
        """The terms as dialled, in the sentence their row will show once sent, naming
        the player they are with ("You propose $2M to Bruno for L Liebgeld")."""
        ed = self.state
        if not ed.sources and ed.amount == 0:
            return tr("table.editor.empty")
        kind = Kind.OFFER if isinstance(ed.choice.action, Offer) else Kind.PROPOSAL
        seat = terms_seat(ed.choice)
        srcs = sorted(ed.sources)
        return terms_sentence(v, v.seat, seat, srcs, ed.amount, kind).text(v)

    def _draw_range(self, surface, v: SeatView, rng: str, line: pygame.Rect) -> None:
        """The range, and right of it the fair-price line (the coach's); when both do not
        fit, the fair price takes the line (the Min and Max buttons show the range too).
        The ink starts at the line's top (the summary's room lies under it)."""
        fair = self.fair.text(self.state.seat)
        self.fair_rect = None
        if fair is None:
            img = draw.fit(rng, 20, line.width, TEXT_DIM)
            surface.blit(img, (line.x, line.y - img.get_bounding_rect().y))
            return
        both = draw.text_width(rng, 20) + 32 + draw.text_width(fair, 20)
        img = draw.fit(fair, 20, line.width, FAIR)
        if both <= line.width:
            left = draw.fit(rng, 20, line.width, TEXT_DIM)
            y = line.y - min(left.get_bounding_rect().y, img.get_bounding_rect().y)
            surface.blit(left, (line.x, y))
            pos = img.get_rect(topright=(line.right, y))
        else:
            pos = img.get_rect(topleft=(line.x, line.y - img.get_bounding_rect().y))
        surface.blit(img, pos)
        self.fair_rect = pos
