"""The ledger box beside the deal's slots: for the Boss the proceeds, the payments, what he
keeps and what fills each requirement row; for an investor what his agreement pays him.
With terms in the editor it shows the figures after them ("You keep $3M → $1M") and warns
when they cover a row already full or go over the proceeds; without, what accepting each
pending offer would leave the Boss.

The figures come from game/rules/ledger.py (the engine's settlement); this file only lays
them out."""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from game.rules.ledger import Cover, Ledger, Place, Preview, Row, ledger, preview
from game.rules.seat_view import SeatView

from ...drawing import draw, fonts
from ...drawing.theme import BAD, CLAN_LETTERS, GOLD, GOOD, TEXT, TEXT_DIM, THEME
from ...i18n import list_of, tr
from .. import layout as L
from ..sentences import clan_word

LINE = 25  # one line of the box, at least
INK_GAP = 1  # between one line's ink and the next's: apart, however tall the script
LINES = 6  # the box holds six lines: two of money, up to three rows, one of news
SIZE = 20
BOX_X = 500  # the box's least left edge, from the panel's left (the slots end before it)
PENDING = (240, 200, 110)  # the pending terms' colour in the rows


@dataclass(frozen=True)
class Line:
    label: str
    value: str
    colour: tuple[int, int, int] = TEXT_DIM
    bold: bool = False
    row: bool = False  # a requirement row: left out first when the box is short


TABLE_Y = 196  # the cards on the table start here, from the panel's top


def ledger_rect(slots_right: int, table_right: int) -> pygame.Rect:
    """Where the box sits (logical): right of the slots, above the players' rows and the
    editor; when the cards on the table reach under it, it stops above them (then it holds
    the two money lines only)."""
    r = L.RIGHT
    x = max(r.x + BOX_X, slots_right + 12)
    bottom = r.y + 136 + LINES * LINE + 8
    if table_right + 12 > x:
        bottom = r.y + TABLE_Y
    return pygame.Rect(x, r.y + 136, r.right - 24 - x, bottom - r.y - 136)


def money(n: int) -> str:
    return tr("money.amount", n=n)


def row_label(row: Row) -> str:
    """'C W' for the required clans, '1 of S/L' for a choice group."""
    letters = [CLAN_LETTERS[c] for c in row.clans]
    if row.required:
        return " ".join(letters)
    return tr("table.k_of_clans", k=row.count, clans="/".join(letters))


def _who(place, names: list[str], boss_name: str | None) -> str:
    """Who fills a place; `boss_name` None: the viewer is the Boss ("yours")."""
    own = (lambda: tr("table.ledger.own")) if boss_name is None else (lambda: boss_name)
    return {
        Cover.OPEN: lambda: tr("table.ledger.open"),
        Cover.OWN: own,
        Cover.LAID: own,  # his Clan card: his own too
        Cover.AGREED: lambda: names[place.seat],  # only agreements and his own fill places
        Cover.USED: lambda: tr("table.ledger.used", name=names[place.seat]),
    }[place.cover]()


def row_text(row: Row, names: list[str], boss_name: str | None) -> str:
    """'C S Mei · W yours · open': the places grouped by who fills them, open ones last
    (counted when more than one)."""
    groups: dict[tuple, list[str]] = {}
    for p in row.places:
        if p.cover is not Cover.OPEN:
            cover = Cover.OWN if p.cover is Cover.LAID else p.cover  # both the Boss's own
            groups.setdefault((cover, p.seat), []).append(CLAN_LETTERS[p.clan])
    parts = [
        f"{' '.join(clans)} {_who(Place(cover, None, seat), names, boss_name)}"
        for (cover, seat), clans in groups.items()
    ]
    n_open = row.count - row.filled
    if n_open:
        word = tr("table.ledger.open")
        parts.append(word if n_open == 1 else f"{n_open}× {word}")
    return " · ".join(parts)


def row_lines(led: Ledger, names: list[str], boss_name: str | None = None) -> list[Line]:
    return [
        Line(
            row_label(row),
            row_text(row, names, boss_name),
            GOOD if row.full else (240, 190, 90),
            row=True,
        )
        for row in led.rows
    ]


def _change(now: int, after: int | None) -> str:
    if after is None or after == now:
        return money(now)
    return f"{money(now)} → {money(after)}"


def warnings(v: SeatView, pv: Preview, sources, names: list[str]) -> list[Line]:
    """Said before the terms are sent: that they add nothing to the deal, in plain words
    (its clan is in the deal already, or its row is full), and what accepting them would
    still pay all the same (the engine allows them: an agreement is paid whether or not
    its sources are used); that they go over the proceeds."""
    out = []
    if pv.adds_nothing:
        out.append(Line(_nothing_reason(v, pv, sources), "", BAD, True))
        paid = pv.after.paid_to(pv.seat) - pv.before.paid_to(pv.seat)
        if paid > 0:
            boss = v.seat == v.negotiation.boss
            key = "table.ledger.still_pays" if boss else "table.ledger.still_paid"
            out.append(Line(tr(key, name=names[pv.seat], amount=money(paid)), "", BAD))
    if pv.over:
        out.append(Line(tr("table.ledger.over", amount=money(-pv.after.keeps)), "", BAD, True))
    return out


def _nothing_reason(v: SeatView, pv: Preview, sources) -> str:
    """Why terms add nothing: the clans the deal already has, else the row already full
    and what fills it."""
    have = set(v.negotiation.committed)
    clans = sorted({c for s in sources if (c := v.source_clan(s)) is not None} & have)
    if clans:
        return tr("table.ledger.has_already", clans=list_of(clan_word(c) for c in clans))
    if not pv.redundant:
        return tr("table.ledger.no_place")
    row = pv.redundant[0]  # "S already fills 1 of S/L"
    filled = list_of(CLAN_LETTERS[p.clan] for p in row.places if p.clan is not None)
    return tr("table.ledger.row_filled", clans=filled, group=row_label(row))


def boss_lines(
    v: SeatView, led: Ledger, pv: Preview | None, names: list[str], sources=()
) -> list[Line]:
    """What the agreements pay out of the proceeds and what the Boss keeps, the rows (after
    the terms, if any), and the terms' warnings or what each pending offer would leave him.
    Warnings go before the last rows when the box is full."""
    after = pv.after if pv is not None else None
    money_lines = [
        Line(
            tr("table.ledger.paid_of", amount=money(led.proceeds)),
            _change(led.paid, after.paid if after else None),
        ),
        Line(tr("table.ledger.keep"), _change(led.keeps, after.keeps if after else None), GOLD, True),
    ]
    news = warnings(v, pv, sources, names) if pv is not None else _offer_lines(v, names)
    rows = row_lines(after or led, names)
    return money_lines + rows[: LINES - len(money_lines) - len(news)] + news


def _offer_lines(v: SeatView, names: list[str]) -> list[Line]:
    """What accepting each pending offer would leave the Boss (red: it adds nothing or goes
    over the proceeds)."""
    out = []
    for seat, terms in sorted(v.negotiation.pending.items()):
        if terms.by_boss:
            continue
        p = preview(v, seat, terms.sources, terms.amount)
        name, keeps = names[seat], p.after.keeps
        if p.over:  # what it costs him, and why the line is red
            text = tr("table.ledger.if_accept_over", name=name, amount=money(-keeps))
        elif p.adds_nothing:
            text = tr("table.ledger.if_accept_nothing", name=name, amount=money(keeps))
        else:
            text = tr("table.ledger.if_accept", name=name, amount=money(keeps))
        out.append(Line(text, "", BAD if p.over or p.adds_nothing else PENDING))
    return out[:1] if len(out) == 1 else out[:2]


def investor_lines(
    v: SeatView, me: int, led: Ledger, pv: Preview | None, names, sources=()
) -> list[Line]:
    """What the seat's agreement pays it (or that it has none yet), and what the terms on the
    table (or in the editor) would; then the rows, so a seat sees whether its source is
    still needed, and the terms' warnings (kept over the last rows when the box is full)."""
    if any(p.payee == me for p in led.payments):
        out = [Line(tr("table.ledger.paid_you"), money(led.paid_to(me)), GOLD, True)]
    else:  # "pays you $0M" would read as an agreement for nothing
        out = [Line(tr("table.ledger.no_agreement"), "", TEXT_DIM)]
    terms = v.negotiation.pending.get(me)
    if pv is None and terms is not None:
        sources = terms.sources
        pv = preview(v, me, sources, terms.amount)
    if pv is not None:
        out.append(Line(tr("table.ledger.would_pay"), money(pv.after.paid_to(me)), GOLD))
    news = warnings(v, pv, sources, names) if pv is not None else []
    rows = row_lines(pv.after if pv is not None else led, names, names[led.boss])
    return out + rows[: max(0, LINES - len(out) - len(news))] + news


class LedgerBox:
    """Draws the box; its figures cached per view version and terms (the editor draws it
    every frame while open)."""

    def __init__(self) -> None:
        self._key = None
        self._lines: list[Line] = []

    def lines(self, v: SeatView, viewer: int, terms=None) -> list[Line]:
        """`terms`: (seat, sources, amount) in the editor, or None."""
        key = (v.version, viewer, terms, THEME.epoch, THEME.lang)
        if key != self._key:
            names = [p.name for p in v.players]
            led = ledger(v)
            pv = None if terms is None else preview(v, *terms)
            sources = () if terms is None else terms[1]
            if viewer == v.negotiation.boss:
                self._lines = boss_lines(v, led, pv, names, sources)[:LINES]
            else:
                self._lines = investor_lines(v, viewer, led, pv, names, sources)[:LINES]
            self._key = key
        return self._lines

    def draw(self, surf, v: SeatView, viewer: int, rect: pygame.Rect, terms=None) -> None:
        """Onto `surf` at `rect` (already in the surface's coordinates); as many lines as
        its height holds (the news, kept over the requirement rows above it). Lines are LINE
        apart, or further where a line's ink (Thai marks above, tails below, at Large
        text) would touch the one before."""
        back = pygame.Surface(rect.size, pygame.SRCALPHA)  # translucent on any surface
        pygame.draw.rect(back, (255, 255, 255, 16), back.get_rect(), border_radius=10)
        surf.blit(back, rect)
        x, w = rect.x + 12, rect.width - 24
        lines = list(self.lines(v, viewer, terms))
        shown = [self._images(line, w) for line in lines]
        at = _stack(shown, rect)
        while at is None:  # the last requirement row goes first, then the last line
            rows = [i for i, line in enumerate(lines) if line.row]
            i = rows[-1] if rows else len(lines) - 1
            del shown[i], lines[i]
            at = _stack(shown, rect)
        for (lab, val, _), y in zip(shown, at, strict=True):
            if val is not None:
                surf.blit(val, val.get_rect(topright=(x + w, y)))
            for img, dy in lab if isinstance(lab, list) else [(lab, 0)]:
                surf.blit(img, (x, y + dy))

    @staticmethod
    def _images(line: Line, w: int) -> tuple[pygame.Surface, pygame.Surface | None, pygame.Rect]:
        """A line's label and value (None: the label alone) and their ink, together."""
        if not line.value:  # on as many lines as it needs (Large text), never shrunk
            parts = [draw.fit(t, SIZE, w, line.colour, line.bold)
                     for t in draw.wrap(line.label, SIZE, w, line.bold)]  # fmt: skip
            if len(parts) == 1:
                return parts[0], None, parts[0].get_bounding_rect()
            lines = _stacked(parts)
            ink = lines[0][0].get_bounding_rect().unionall(
                [img.get_bounding_rect().move(0, dy) for img, dy in lines[1:]])
            return lines, None, ink
        ink = TEXT if line.bold else TEXT_DIM  # the shorter of label and value at its width
        lw = draw.text_width(line.label, SIZE, line.bold)
        vw = draw.text_width(line.value, SIZE, line.bold)
        least = [fonts.text_size(t, THEME.lang, THEME.min_px, line.bold)[0]
                 for t in (line.label, line.value)]  # fmt: skip
        if sum(least) + 12 > w:  # they cannot share one line: the value under the label
            lab = draw.fit(line.label, SIZE, w, ink, line.bold)
            val = draw.fit(line.value, SIZE, w, line.colour, line.bold)
            both = pygame.Surface((w, lab.get_height() + val.get_height()), pygame.SRCALPHA)
            both.blit(lab, (0, 0))
            both.blit(val, val.get_rect(topright=(w, lab.get_height())))
            return both, None, both.get_bounding_rect()
        if lw <= vw:
            lw = min(lw, w // 2)
            vw = w - lw - 12
        else:
            vw = min(vw, w // 2)
            lw = w - vw - 12
        if vw < least[1]:  # the shorter one whole at the readable minimum, at least
            vw, lw = least[1], w - least[1] - 12
        elif lw < least[0]:
            lw, vw = least[0], w - least[0] - 12
        lab = draw.fit(line.label, SIZE, lw, ink, line.bold)
        val = draw.fit(line.value, SIZE, vw, line.colour, line.bold)
        a, b = lab.get_bounding_rect(), val.get_bounding_rect()
        return lab, val, pygame.Rect(0, min(a.top, b.top), 1, max(a.bottom, b.bottom) - min(a.top, b.top))


def _stacked(parts: list[pygame.Surface]) -> list[tuple[pygame.Surface, int]]:
    """Lines of one label, one under the other: each with its offset down."""
    out, y = [], 0
    for part in parts:
        out.append((part, y))
        y += part.get_height()
    return out


def _stack(shown, rect: pygame.Rect) -> list[int] | None:
    """Where each line goes (its image's top), or None when their inks overrun `rect`."""
    out, y, ink_bottom = [], rect.y + 4 - LINE, rect.y + 1
    for _, _, ink in shown:
        y = max(y + LINE, ink_bottom + INK_GAP - ink.top)
        ink_bottom = y + ink.bottom
        if ink_bottom > rect.bottom:
            return None
        out.append(y)
    return out
