"""The offer editor's fair-price line, worded from game/bots/fair_price.py: what the Boss can
likely pay you and what the other sellers ask, or (for a Boss) what the player his
proposal is addressed to likely asks. Part of the coach: shown only where hints are (the
setting, and a LAN host's choice)."""

from __future__ import annotations

from game.bots.fair_price import Ask, FairPrice, fair_price

from ...drawing.theme import THEME
from ...i18n import tr
from ..sentences import and_list, money


def _asks(asks: tuple[Ask, ...], names: list[str]) -> str:
    return and_list(
        [
            tr(
                "fair.offered" if a.offered else "fair.item",
                name=names[a.seat],
                amount=money(a.amount),
            )
            for a in asks
        ]
    )


def fair_text(fp: FairPrice | None, names: list[str], seat: int | None = None) -> str | None:
    """The line for the editor (None: nothing to say); for a Boss, about `seat`, the
    player his proposal is addressed to (every seat's when None)."""
    if fp is None:
        return None
    if fp.boss:
        if seat is not None:
            return _boss_to(fp, names, seat)
        return tr("fair.boss", asks=_asks(fp.asks, names)) if fp.asks else tr("fair.boss_none")
    if fp.can_pay is None:
        return tr("fair.not_needed")
    if fp.asks:
        return tr("fair.investor", amount=money(fp.can_pay), asks=_asks(fp.asks, names))
    return tr("fair.investor_alone", amount=money(fp.can_pay))


def _boss_to(fp: FairPrice, names: list[str], seat: int) -> str:
    """What the player addressed likely asks, their offer on the table, or that the
    cheapest cover does without them."""
    ask = next((a for a in fp.asks if a.seat == seat), None)
    if ask is None:
        return tr("fair.boss_seat_none", name=names[seat])
    key = "fair.boss_seat_offered" if ask.offered else "fair.boss_seat"
    return tr(key, name=names[seat], amount=money(ask.amount))


class FairLine:
    """The viewer's fair price, made again only when the view changes."""

    def __init__(self, table) -> None:
        self.table = table
        self._key = None
        self._text: str | None = None

    def text(self, seat: int | None = None) -> str | None:
        """`seat`: whom the editor's terms are with."""
        t = self.table
        hints = getattr(t, "hints", None)
        if hints is None or not hints.available():
            return None
        v = t.seen
        key = (v.version, t.session.viewer, seat, THEME.epoch)
        if key != self._key:
            self._key = key
            memory = hints.coach.memories[t.session.viewer]
            self._text = fair_text(fair_price(v, memory), t.names, seat)
        return self._text
