"""The action log in words ('Mei played Travel on Sacks'), built from redacted events.

The log keeps the events, not the sentences, so a language switch re-words the whole log.
"""

from __future__ import annotations

import pygame

from .. import cardart, draw
from ..i18n import tr
from ..theme import CLAN_KEYS, CLAN_LETTERS, FAMILY, TEXT, TEXT_DIM, THEME

MAX_LINES = 200


def clan_word(clan) -> str:
    """'S Sacks' for a clan given as key or index."""
    i = CLAN_KEYS.index(clan) if isinstance(clan, str) else int(clan)
    return f"{CLAN_LETTERS[i]} {FAMILY[i]}"


def money(n: int) -> str:
    return tr("money.amount", n=n)


class Describer:
    """Turns event data into a sentence. `laid` remembers which laid card id is whose."""

    def __init__(self, names: list[str]) -> None:
        self.names = names
        self.laid: dict[int, tuple[int, str]] = {}  # card id -> (owner, clan key)

    def name(self, seat: int | None) -> str:
        if seat is None or seat < 0:
            return tr("log.bank")
        return self.names[seat] if seat < len(self.names) else "?"

    def source(self, src) -> str:
        kind, ref = src
        if kind == "placard":
            return clan_word(ref)
        owner, clan = self.laid.get(ref, (None, None))
        if clan is None:
            return tr("log.a_clan_card")
        return tr(
            "log.clan_card_of", clan=CLAN_LETTERS[CLAN_KEYS.index(clan)], name=self.name(owner)
        )

    def sources(self, srcs) -> str:
        if not srcs:
            return tr("log.a_fee")
        return ", ".join(self.source(s) for s in srcs)

    def __call__(self, e: dict) -> str | None:
        t = e["type"]
        n = self.name
        if t == "game_started":
            return tr("log.game_started", name=n(e["first_player"]))
        if t == "marker_placed":
            return tr("log.marker_placed", name=n(e["seat"]), space=e["space"] + 1)
        if t == "turn_started":
            return tr("log.turn_started", name=n(e["seat"]))
        if t == "die_rolled":
            key = "log.rolled" if e["purpose"] == "move" else "log.rolled_end"
            return tr(key, name=n(e["seat"]), n=e["value"])
        if t == "cards_drawn":
            if e.get("cards"):
                return tr("log.you_drew", cards=", ".join(cardart.card_name(c) for c in e["cards"]))
            return tr("log.drew", name=n(e["seat"]), n=e["count"])
        if t == "deck_reshuffled":
            return tr("log.reshuffled")
        if t == "hand_limit_reached":
            return tr("log.hand_limit", name=n(e["seat"]), n=e["excess"], limit=e["limit"])
        if t == "card_discarded":
            return tr("log.discarded", name=n(e["seat"]), card=cardart.card_name(e["card"]))
        if t == "deal_opened":
            return tr(
                "log.deal_opened",
                name=n(e["seat"]),
                space=e["space"] + 1,
                amount=money(e["proceeds"]),
            )
        if t == "clan_laid":
            self.laid[e["card_id"]] = (e["seat"], e["clan"])
            return tr("log.clan_laid", name=n(e["seat"]), clan=clan_word(e["clan"]))
        if t == "card_played":
            card = e["card"]
            if card == "boss":
                return tr("log.played_boss", name=n(e["seat"]))
            if card == "recruit":
                return tr("log.played_recruit", name=n(e["seat"]), clan=clan_word(e["clan"]))
            return tr("log.played_travel", name=n(e["seat"]), target=self.source(e["target"]))
        if t == "stopped":
            return tr("log.stopped", name=n(e["seat"]))
        if t == "travel_sent":
            return tr("log.travel_sent", target=self.source(e["target"]))
        if t == "boss_changed":
            return tr("log.boss_changed", name=n(e["new"]))
        if t == "agreements_fell_back":
            return tr("log.fell_back")
        if t == "placard_recruited":
            return tr("log.recruited", name=n(e["new_owner"]), clan=clan_word(e["clan"]))
        if t == "offer_made":
            return tr(
                "log.offer",
                name=n(e["seat"]),
                sources=self.sources(e["sources"]),
                amount=money(e["amount"]),
            )
        if t == "proposed":
            return tr(
                "log.proposed",
                boss=n(e["boss"]),
                name=n(e["to"]),
                sources=self.sources(e["sources"]),
                amount=money(e["amount"]),
            )
        if t == "agreement_made":
            return tr(
                "log.agreement",
                name=n(e["seat"]),
                sources=self.sources(e["sources"]),
                amount=money(e["amount"]),
            )
        if t == "withdrawn":
            if e["seat"] == e["player"]:
                return tr("log.withdrawn_own", name=n(e["seat"]))
            return tr("log.withdrawn", name=n(e["seat"]), other=n(e["player"]))
        if t == "agreement_lapsed":
            return tr("log.lapsed", name=n(e["seat"]), source=self.source(e["source"]))
        if t == "quiet_round":
            return tr("log.quiet_round", name=n(e["boss"]))
        if t == "going_once_called":
            return tr("log.going_once", name=n(e["boss"]))
        if t == "call_cancelled":
            return tr("log.call_cancelled", name=n(e["seat"]))
        if t == "negotiation_limit_reached":
            return tr("log.limit_reached")
        if t == "deal_closed":
            return tr(
                "log.deal_closed",
                name=n(e["boss"]),
                space=e["space"] + 1,
                amount=money(e["proceeds"]),
            )
        if t == "paid":
            if e["payer"] < 0:
                return tr("log.paid_dividends", name=n(e["payee"]), amount=money(e["amount"]))
            return tr(
                "log.paid", payer=n(e["payer"]), name=n(e["payee"]), amount=money(e["amount"])
            )
        if t == "cards_returned":
            return tr("log.cards_returned", name=n(e["seat"]), n=len(e["cards"]))
        if t == "tile_placed":
            return tr("log.tile_placed", n=e["tile"], space=e["space"] + 1)
        if t == "deal_failed":
            return tr("log.deal_failed", name=n(e["boss"]))
        if t == "game_over":
            names = ", ".join(n(s) for s in e["winners"])
            return tr("log.game_over", names=names)
        if t == "phrase":
            return tr("log.says", name=n(e["seat"]), text=tr(e["key"]))
        if t == "gave_up":
            return tr("log.gives_up", name=n(e["seat"]), reason=tr(e["reason"]))
        if t == "table_cleared":
            self.laid.clear()
            return None
        return None  # window bookkeeping, passes and the floor: shown elsewhere, not logged


IMPORTANT = {
    "deal_closed",
    "deal_failed",
    "boss_changed",
    "game_over",
    "deal_opened",
    "agreement_made",
}


class LogPanel:
    def __init__(self, names: list[str]) -> None:
        self.describe = Describer(names)
        self.events: list[dict] = []
        self._lines: list[tuple[str, bool]] | None = None
        self._surface: pygame.Surface | None = None
        self._key = None
        self.scroll = 0  # lines scrolled back from the newest
        self._lines_epoch = -1

    def add(self, e: dict) -> None:
        self.events.append(e)
        del self.events[: -MAX_LINES * 2]
        self._lines = None

    def lines(self) -> list[tuple[str, bool]]:
        if self._lines is None or self._lines_epoch != THEME.epoch:
            self._lines_epoch = THEME.epoch
            d = Describer(self.describe.names)
            out = []
            for e in self.events:
                s = d(e)
                if s:
                    out.append((s, e["type"] in IMPORTANT))
            self._lines = out[-MAX_LINES:]
        return self._lines

    def last(self) -> str | None:
        ls = self.lines()
        return ls[-1][0] if ls else None

    def surface(self, rect: pygame.Rect) -> tuple[pygame.Surface, tuple[int, int]]:
        lines = self.lines()
        key = (id(lines), len(lines), self.scroll, rect.size, THEME.epoch)
        if key != self._key or self._surface is None:
            self._surface = self._render(rect)
            self._key = key
        return self._surface, (rect.x - 10, rect.y - 10)

    def draw(self, surface, rect: pygame.Rect) -> None:
        img, pos = self.surface(rect)
        surface.blit(img, pos)

    def _render(self, rect: pygame.Rect) -> pygame.Surface:
        surf = draw.panel_surface(rect.width, rect.height, alpha=210).copy()
        size = 21
        lh = round(draw.line_height(size) * 1.12)
        inner = pygame.Rect(10 + 14, 10 + 10, rect.width - 28, rect.height - 20)
        rows: list[tuple[str, bool]] = []
        lines = self.lines()
        end = len(lines) - self.scroll
        for text, important in reversed(lines[max(0, end - 40) : end]):
            wrapped = draw.wrap(text, size, inner.width, important)
            block = [(w, important) for w in wrapped]
            rows = block + rows
            if len(rows) * lh > inner.height:
                break
        rows = rows[-(inner.height // lh) :]
        y = inner.bottom - lh * len(rows)
        for i, (line, important) in enumerate(rows):
            fade = i < len(rows) - 6
            col = (255, 226, 140) if important else (TEXT_DIM if fade else TEXT)
            surf.blit(draw.text(line, size, col, important), (inner.x, y))
            y += lh
        return surf
