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

from game.rules import Source
from game.rules.ledger import Cover, Ledger, Preview, Row, ledger, preview

from ... import draw
from ...i18n import tr
from ...theme import BAD, CLAN_LETTERS, GOLD, GOOD, TEXT, TEXT_DIM, THEME
from .. import layout as L

LINE = 25  # one line of the box
LINES = 6  # the box holds six lines: two of money, up to three rows, one of news
SIZE = 20
BOX_X = 540  # the box's least left edge, from the panel's left (the slots end before it)
PENDING = (240, 200, 110)  # the pending terms' colour in the rows


@dataclass(frozen=True)
class Line:
    label: str
    value: str
    colour: tuple[int, int, int] = TEXT_DIM
    bold: bool = False


def ledger_rect(left: int | None = None) -> pygame.Rect:
    """Where the box sits (logical): right of the slots and the cards on the table, above
    the players' rows. `left`: the first free x, when the slots or cards reach further."""
    r = L.RIGHT
    x = max(r.x + BOX_X, left or 0)
    return pygame.Rect(x, r.y + 136, r.right - 24 - x, LINES * LINE + 8)  # ends above the editor


def money(n: int) -> str:
    return tr("money.amount", n=n)


def row_label(row: Row) -> str:
    """'C W' for the required clans, '1 of S/L' for a choice group."""
    letters = [CLAN_LETTERS[c] for c in row.clans]
    if row.required:
        return " ".join(letters)
    return f"{tr('table.k_of', k=row.count)} {'/'.join(letters)}"


def _place_text(place, names: list[str]) -> str:
    if place.cover is Cover.OPEN:
        return tr("table.ledger.open")
    who = {
        Cover.OWN: lambda: tr("table.ledger.own"),
        Cover.LAID: lambda: tr("table.ledger.laid"),
        Cover.AGREED: lambda: tr("table.ledger.agreed", name=names[place.seat]),
        Cover.USED: lambda: tr("table.ledger.used", name=names[place.seat]),
    }[place.cover]()
    return f"{CLAN_LETTERS[place.clan]} {who}"


def row_lines(led: Ledger, names: list[str]) -> list[Line]:
    out = []
    for row in led.rows:
        text = " · ".join(_place_text(p, names) for p in row.places)
        out.append(Line(row_label(row), text, GOOD if row.full else (240, 190, 90)))
    return out


def _change(now: int, after: int | None) -> str:
    if after is None or after == now:
        return money(now)
    return f"{money(now)} → {money(after)}"


def warnings(pv: Preview) -> list[Line]:
    out = []
    if pv.adds_nothing:
        groups = ", ".join(row_label(r) for r in pv.redundant) or tr("table.ledger.no_row")
        out.append(Line(tr("table.ledger.redundant", group=groups), "", BAD, True))
    if pv.over:
        out.append(Line(tr("table.ledger.over", amount=money(-pv.after.keeps)), "", BAD, True))
    return out


def boss_lines(v: dict, led: Ledger, pv: Preview | None, names: list[str]) -> list[Line]:
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
    news = warnings(pv) if pv is not None else _offer_lines(v, names)
    rows = row_lines(after or led, names)
    return money_lines + rows[: LINES - len(money_lines) - len(news)] + news


def _offer_lines(v: dict, names: list[str]) -> list[Line]:
    """What accepting each pending offer would leave the Boss (red: it adds nothing or goes
    over the proceeds)."""
    out = []
    for seat, terms in sorted(v["negotiation"]["pending"].items(), key=lambda e: int(e[0])):
        if terms["by_boss"]:
            continue
        p = preview(v, int(seat), _sources(terms), terms["amount"])
        colour = BAD if p.adds_nothing or p.over else PENDING
        text = tr("table.ledger.if_accept", name=names[int(seat)], amount=money(p.after.keeps))
        out.append(Line(text, "", colour))
    return out[:1] if len(out) == 1 else out[:2]


def investor_lines(v: dict, me: int, led: Ledger, pv: Preview | None, names) -> list[Line]:
    """What the seat's agreement pays it, and what the terms on the table (or in the editor)
    would; then the rows, so a seat sees whether its source is still needed."""
    out = [Line(tr("table.ledger.paid_you"), money(led.paid_to(me)), GOLD, True)]
    terms = v["negotiation"]["pending"].get(str(me))
    if pv is None and terms is not None:
        pv = preview(v, me, _sources(terms), terms["amount"])
    if pv is not None:
        out.append(Line(tr("table.ledger.would_pay"), money(pv.after.paid_to(me)), GOLD))
    out += row_lines(pv.after if pv is not None else led, names)
    if pv is not None:
        out += warnings(pv)[: max(0, LINES - len(out))]
    return out


def _sources(terms: dict) -> tuple[Source, ...]:
    return tuple(Source.from_data(s) for s in terms["sources"])


class LedgerBox:
    """Draws the box; its figures cached per view version and terms (the editor draws it
    every frame while open)."""

    def __init__(self) -> None:
        self._key = None
        self._lines: list[Line] = []

    def lines(self, v: dict, viewer: int, terms=None) -> list[Line]:
        """`terms`: (seat, sources, amount) in the editor, or None."""
        key = (v["version"], viewer, terms, THEME.epoch, THEME.lang)
        if key != self._key:
            names = [p["name"] for p in v["players"]]
            led = ledger(v)
            pv = None if terms is None else preview(v, *terms)
            if viewer == v["negotiation"]["boss"]:
                self._lines = boss_lines(v, led, pv, names)[:LINES]
            else:
                self._lines = investor_lines(v, viewer, led, pv, names)[:LINES]
            self._key = key
        return self._lines

    def draw(self, surf, v: dict, viewer: int, rect: pygame.Rect, terms=None) -> None:
        """Onto `surf` at `rect` (already in the surface's coordinates)."""
        back = pygame.Surface(rect.size, pygame.SRCALPHA)  # translucent on any surface
        pygame.draw.rect(back, (255, 255, 255, 16), back.get_rect(), border_radius=10)
        surf.blit(back, rect)
        x, w = rect.x + 12, rect.width - 24
        y = rect.y + 4
        for line in self.lines(v, viewer, terms):
            if line.value:
                val = draw.fit(line.value, SIZE, w * 3 // 5, line.colour, line.bold)
                surf.blit(val, val.get_rect(topright=(x + w, y)))
                room = w - val.get_width() - 12
                lab = draw.fit(line.label, SIZE, room, TEXT if line.bold else TEXT_DIM, line.bold)
            else:
                lab = draw.fit(line.label, SIZE, w, line.colour, line.bold)
            surf.blit(lab, (x, y))
            y += LINE
