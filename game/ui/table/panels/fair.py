"""The offer editor's fair-price line, worded from game/bots/fair_price.py: what the Boss can
likely pay you and what the other sellers ask, or (for a Boss) what each seat is likely to
ask. Part of the coach: shown only where hints are (the setting, and a LAN host's choice)."""

from __future__ import annotations

from game.bots.fair_price import Ask, FairPrice, fair_price

from ...i18n import tr
from ...theme import THEME
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


def fair_text(fp: FairPrice | None, names: list[str]) -> str | None:
    """The line for the editor (None: nothing to say)."""
    if fp is None:
        return None
    if fp.boss:
        return tr("fair.boss", asks=_asks(fp.asks, names)) if fp.asks else tr("fair.boss_none")
    if fp.can_pay is None:
        return tr("fair.not_needed")
    if fp.asks:
        return tr("fair.investor", amount=money(fp.can_pay), asks=_asks(fp.asks, names))
    return tr("fair.investor_alone", amount=money(fp.can_pay))


class FairLine:
    """The viewer's fair price, made again only when the view changes."""

    def __init__(self, table) -> None:
        self.table = table
        self._key = None
        self._text: str | None = None

    def text(self, v: dict) -> str | None:
        t = self.table
        hints = getattr(t, "hints", None)
        if hints is None or not hints.available():
            return None
        key = (v["version"], t.session.viewer, THEME.epoch)
        if key != self._key:
            self._key = key
            memory = hints.coach.memories[t.session.viewer]
            self._text = fair_text(fair_price(v, memory), t.names)
        return self._text
