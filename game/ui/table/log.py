"""The action log in words ('Mei played Travel on Sacks'), built from redacted events.

The log keeps the events, not the sentences, so a language switch re-words the whole log.
"""

from __future__ import annotations

from collections.abc import Callable

import pygame

from .. import cardart, draw
from ..i18n import tr
from ..theme import CLAN_KEYS, CLAN_LETTERS, FAMILY, TEXT, TEXT_DIM, THEME
from ..widgets import ICONS, Button
from . import layout as L
from .events import PHRASE, SEAT_BACK, SEAT_DROPPED

GOLD_SOFT = (235, 200, 110)


def _list_icon(size: int) -> pygame.Surface:
    """Three lines of text: the history."""
    surf = pygame.Surface((size, size), pygame.SRCALPHA)
    for k in range(3):
        y = size * (0.22 + 0.28 * k)
        pygame.draw.line(surf, (235, 232, 220), (size * 0.1, y), (size * 0.9, y), max(2, size // 9))
    return surf


def _close_icon(size: int) -> pygame.Surface:
    surf = pygame.Surface((size, size), pygame.SRCALPHA)
    w = max(2, size // 8)
    a, b = size * 0.18, size * 0.82
    pygame.draw.line(surf, (40, 30, 10), (a, a), (b, b), w)
    pygame.draw.line(surf, (40, 30, 10), (a, b), (b, a), w)
    return surf


ICONS.setdefault("log.history", _list_icon)
ICONS.setdefault("log.close", _close_icon)

MAX_LINES = 200


def clan_word(clan) -> str:
    """'S Sacks' for a clan given as key or index."""
    i = CLAN_KEYS.index(clan) if isinstance(clan, str) else int(clan)
    return f"{CLAN_LETTERS[i]} {FAMILY[i]}"


def money(n: int) -> str:
    return tr("money.amount", n=n)


# how a list of sources is worded: Clan cards first, then placards
SOURCE_GROUPS = (
    ("card", "log.src.card", "log.src.cards"),
    ("placard", "log.src.placard", "log.src.placards"),
)


def and_list(items: list[str]) -> str:
    """'W', 'W and G', 'C, W and G' in the current language."""
    if len(items) <= 1:
        return "".join(items)
    first = items[0]
    for item in items[1:-1]:
        first = tr("log.list", first=first, rest=item)
    return tr("log.and", first=first, last=items[-1])


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

    def letter(self, src) -> str:
        kind, ref = src
        if kind == "placard":
            return CLAN_LETTERS[int(ref)]
        clan = self.laid.get(ref, (None, None))[1]
        return "?" if clan is None else CLAN_LETTERS[CLAN_KEYS.index(clan)]

    def sources(self, srcs) -> str:
        """One player's sources: 'Clan cards W and G and placard C' (or 'a fee')."""
        if not srcs:
            return tr("log.a_fee")
        parts = []
        for kind, one, many in SOURCE_GROUPS:
            letters = [self.letter(s) for s in srcs if s[0] == kind]
            if letters:
                parts.append(tr(one if len(letters) == 1 else many, clans=and_list(letters)))
        return and_list(parts)

    def __call__(self, e: dict) -> str | None:
        """The event's sentence; None for the events deliberately not logged (and for a
        table cleared, which only forgets the laid cards)."""
        say = SENTENCES.get(e["type"])
        return None if say is None else say(self, e)

    # -- one sentence builder per logged event ----------------------------------------------

    def _game_started(self, e: dict) -> str:
        return tr("log.game_started", name=self.name(e["first_player"]))

    def _marker_placed(self, e: dict) -> str:
        return tr("log.marker_placed", name=self.name(e["seat"]), space=e["space"] + 1)

    def _die_rolled(self, e: dict) -> str:
        key = "log.rolled" if e["purpose"] == "move" else "log.rolled_end"
        return tr(key, name=self.name(e["seat"]), n=e["value"])

    def _cards_drawn(self, e: dict) -> str:
        if e.get("cards"):
            return tr("log.you_drew", cards=", ".join(cardart.card_name(c) for c in e["cards"]))
        return tr("log.drew", name=self.name(e["seat"]), n=e["count"])

    def _hand_limit(self, e: dict) -> str:
        return tr("log.hand_limit", name=self.name(e["seat"]), n=e["excess"], limit=e["limit"])

    def _discarded(self, e: dict) -> str:
        return tr("log.discarded", name=self.name(e["seat"]), card=cardart.card_name(e["card"]))

    def _deal_opened(self, e: dict) -> str:
        return tr(
            "log.deal_opened",
            name=self.name(e["seat"]),
            space=e["space"] + 1,
            amount=money(e["proceeds"]),
        )

    def _clan_laid(self, e: dict) -> str:
        self.laid[e["card_id"]] = (e["seat"], e["clan"])
        return tr("log.clan_laid", name=self.name(e["seat"]), clan=clan_word(e["clan"]))

    def _card_played(self, e: dict) -> str:
        card = e["card"]
        name = self.name(e["seat"])
        if card == "boss":
            return tr("log.played_boss", name=name)
        if card == "recruit":
            return tr("log.played_recruit", name=name, clan=clan_word(e["clan"]))
        return tr("log.played_travel", name=name, target=self.source(e["target"]))

    def _travel_sent(self, e: dict) -> str:
        return tr("log.travel_sent", target=self.source(e["target"]))

    def _boss_changed(self, e: dict) -> str:
        return tr("log.boss_changed", name=self.name(e["new"]))

    def _recruited(self, e: dict) -> str:
        return tr("log.recruited", name=self.name(e["new_owner"]), clan=clan_word(e["clan"]))

    def _offer(self, e: dict) -> str:
        return tr(
            "log.offer",
            name=self.name(e["seat"]),
            sources=self.sources(e["sources"]),
            amount=money(e["amount"]),
        )

    def _proposed(self, e: dict) -> str:
        return tr(
            "log.proposed",
            boss=self.name(e["boss"]),
            name=self.name(e["to"]),
            sources=self.sources(e["sources"]),
            amount=money(e["amount"]),
        )

    def _agreement(self, e: dict) -> str:
        return tr(
            "log.agreement",
            name=self.name(e["seat"]),
            sources=self.sources(e["sources"]),
            amount=money(e["amount"]),
        )

    def _withdrawn(self, e: dict) -> str:
        if e["seat"] == e["player"]:
            return tr("log.withdrawn_own", name=self.name(e["seat"]))
        return tr("log.withdrawn", name=self.name(e["seat"]), other=self.name(e["player"]))

    def _lapsed(self, e: dict) -> str:
        return tr("log.lapsed", name=self.name(e["seat"]), source=self.source(e["source"]))

    def _deal_closed(self, e: dict) -> str:
        return tr(
            "log.deal_closed",
            name=self.name(e["boss"]),
            space=e["space"] + 1,
            amount=money(e["proceeds"]),
        )

    def _paid(self, e: dict) -> str:
        if e["payer"] < 0:
            return tr("log.paid_dividends", name=self.name(e["payee"]), amount=money(e["amount"]))
        return tr(
            "log.paid",
            payer=self.name(e["payer"]),
            name=self.name(e["payee"]),
            amount=money(e["amount"]),
        )

    def _cards_returned(self, e: dict) -> str:
        count = len(e["cards"])
        key = "log.cards_returned_one" if count == 1 else "log.cards_returned"
        return tr(key, name=self.name(e["seat"]), n=count)

    def _tile_placed(self, e: dict) -> str:
        return tr("log.tile_placed", n=e["tile"], space=e["space"] + 1)

    def _game_over(self, e: dict) -> str:
        return tr("log.game_over", names=", ".join(self.name(s) for s in e["winners"]))

    def _says(self, e: dict) -> str:
        return tr("log.says", name=self.name(e["seat"]), text=tr(e["key"]))

    def _table_cleared(self, e: dict) -> None:
        """No sentence: the laid cards are gone, so their ids are forgotten."""
        self.laid.clear()
        return None


def _fixed(key: str):
    """A builder for a sentence that names no one."""
    return lambda d, e: tr(key)


def _seat(key: str):
    """A builder for a sentence naming only the event's seat."""
    return lambda d, e: tr(key, name=d.name(e["seat"]))


def _boss(key: str):
    """A builder for a sentence naming only the event's Boss."""
    return lambda d, e: tr(key, name=d.name(e["boss"]))


# event type -> its sentence: (describer, event) -> the sentence (None: bookkeeping only)
SENTENCES: dict[str, Callable[[Describer, dict], str | None]] = {
    "game_started": Describer._game_started,
    "marker_placed": Describer._marker_placed,
    "turn_started": _seat("log.turn_started"),
    "die_rolled": Describer._die_rolled,
    "cards_drawn": Describer._cards_drawn,
    "deck_reshuffled": _fixed("log.reshuffled"),
    "hand_limit_reached": Describer._hand_limit,
    "card_discarded": Describer._discarded,
    "deal_opened": Describer._deal_opened,
    "clan_laid": Describer._clan_laid,
    "card_played": Describer._card_played,
    "stopped": _seat("log.stopped"),
    "travel_sent": Describer._travel_sent,
    "boss_changed": Describer._boss_changed,
    "agreements_fell_back": _fixed("log.fell_back"),
    "placard_recruited": Describer._recruited,
    "offer_made": Describer._offer,
    "proposed": Describer._proposed,
    "agreement_made": Describer._agreement,
    "withdrawn": Describer._withdrawn,
    "agreement_lapsed": Describer._lapsed,
    "quiet_round": _boss("log.quiet_round"),
    "going_once_called": _boss("log.going_once"),
    "call_cancelled": _seat("log.call_cancelled"),
    "negotiation_limit_reached": _fixed("log.limit_reached"),
    "deal_closed": Describer._deal_closed,
    "paid": Describer._paid,
    "cards_returned": Describer._cards_returned,
    "tile_placed": Describer._tile_placed,
    "deal_failed": _boss("log.deal_failed"),
    "game_over": Describer._game_over,
    "table_cleared": Describer._table_cleared,
    PHRASE: Describer._says,
    SEAT_DROPPED: _seat("net.dropped"),  # LAN: a player's connection (net_session.py)
    SEAT_BACK: _seat("net.back"),
}

# events deliberately not logged: window bookkeeping, passes and the floor are shown on the
# panel; a dealt hand is in the fan, the marker's move on the board; an ask preference is the player's own business
SILENT_IN_LOG = frozenset(
    {
        "hand_dealt",
        "marker_moved",
        "window_opened",
        "asked",
        "passed",
        "window_closed",
        "offer_lapsed",
        "floor_passed",
        "ask_preference_set",
    }
)

IMPORTANT = {
    "deal_closed",
    "deal_failed",
    "boss_changed",
    "game_over",
    "deal_opened",
    "agreement_made",
}

COMPACT_SIZE = 18  # the log under the panel: 12 lines or more at 1920x1080
FULL_SIZE = 20  # the full-height history
PAD = 8
SIDE = 40  # the column on the right: the history button, then the scroll bar
JUMP_H = 30  # the "jump to latest" bar while scrolled back


def line_step(size: int) -> int:
    """Distance between log lines: tight for Latin and Chinese, roomier for Thai marks."""
    return round(THEME.font_px(size) * (1.45 if THEME.lang == "th" else 1.1))


class LogPanel:
    """The log's events, its scroll position (lines back from the newest) and whether the
    full-height history is open. Lines that arrive while scrolled back do not move the view:
    they are counted in `unseen` and the "jump to latest" bar says how many."""

    def __init__(self, names: list[str]) -> None:
        self.describe = Describer(names)
        self.events: list[dict] = []
        self._lines: list[tuple[str, bool]] | None = None
        self._surfaces: dict[bool, tuple[tuple, pygame.Surface]] = {}
        self.scroll = 0
        self.unseen = 0
        self.expanded = False
        self._lines_epoch = -1

    def add(self, e: dict) -> None:
        """Feed one (redacted) event; the way every table fills its log."""
        self.events.append(e)
        del self.events[: -MAX_LINES * 2]
        self._lines = None
        if self.describe(e) and self.scroll > 0:
            self.scroll += 1
            self.unseen += 1
            self.scroll = min(self.scroll, self.max_scroll())

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

    # -- scrolling and the history ---------------------------------------------------------

    @property
    def at_latest(self) -> bool:
        return self.scroll == 0

    def max_scroll(self) -> int:
        return max(0, len(self.lines()) - 1)

    def scroll_by(self, n: int) -> None:
        """Positive: back in time."""
        self.scroll = max(0, min(self.max_scroll(), self.scroll + n))
        if self.scroll == 0:
            self.unseen = 0

    def jump_to_latest(self) -> None:
        self.scroll = 0
        self.unseen = 0

    def toggle_expanded(self) -> None:
        self.expanded = not self.expanded

    def jump_text(self) -> str:
        if self.unseen:
            return tr("log.new_lines", n=self.unseen)
        return tr("log.scrolled_back")

    def widgets(self, on_change) -> list[Button]:
        """The history button of the compact log, the close button of the history, and the
        "jump to latest" bar of each shown log while scrolled back."""

        def act(fn):
            def run():
                fn()
                on_change()

            return run

        out = [
            Button(
                self._history_button_rect(L.LOG),
                "",
                act(self.toggle_expanded),
                style="primary" if self.expanded else "ghost",
                icon="log.close" if self.expanded else "log.history",
                name="log.history",
                hotkey=pygame.K_h,
                tip=lambda: tr("tip.log.close") if self.expanded else tr("tip.log.history"),
                sound=None,
            )
        ]
        rects = [L.LOG] + ([L.LOG_FULL] if self.expanded else [])
        if self.expanded:
            out.append(
                Button(
                    self._history_button_rect(L.LOG_FULL),
                    "",
                    act(self.toggle_expanded),
                    style="primary",
                    icon="log.close",
                    name="log.close",
                    tip=lambda: tr("tip.log.close"),
                    sound=None,
                )
            )
        if not self.at_latest:
            for i, r in enumerate(rects):
                out.append(
                    Button(
                        self.jump_rect(r),
                        self.jump_text,
                        act(self.jump_to_latest),
                        style="primary",
                        size=16,
                        name="log.latest" if i == 0 else "log.latest.full",
                        hotkey=pygame.K_END if i == 0 else None,
                        tip=lambda: tr("tip.log.latest"),
                        sound=None,
                    )
                )
        return out

    @staticmethod
    def _history_button_rect(rect: pygame.Rect) -> pygame.Rect:
        return pygame.Rect(rect.right - PAD - 34, rect.y + PAD, 34, 34)

    @staticmethod
    def jump_rect(rect: pygame.Rect) -> pygame.Rect:
        return pygame.Rect(
            rect.x + PAD, rect.bottom - PAD - JUMP_H, rect.width - 2 * PAD - SIDE, JUMP_H
        )

    @staticmethod
    def scrollbar_rect(rect: pygame.Rect) -> pygame.Rect:
        top = rect.y + PAD + 42
        return pygame.Rect(rect.right - PAD - 22, top, 10, rect.bottom - PAD - top)

    def text_rect(self, rect: pygame.Rect) -> pygame.Rect:
        bottom = rect.bottom - PAD - (JUMP_H + 4 if not self.at_latest else 0)
        if rect.height > L.LOG.height:  # the history: its title first
            return pygame.Rect(
                rect.x + PAD + 6, rect.y + 48, rect.width - 2 * PAD - 6 - SIDE, bottom - rect.y - 48
            )
        return pygame.Rect(
            rect.x + PAD + 6, rect.y + PAD, rect.width - 2 * PAD - 6 - SIDE, bottom - rect.y - PAD
        )

    def rows(self, rect: pygame.Rect, size: int) -> list[tuple[str, bool]]:
        """The wrapped rows shown in rect, oldest first, ending `scroll` lines back."""
        inner = self.text_rect(rect)
        step = line_step(size)
        fit = max(1, inner.height // step)
        rows: list[tuple[str, bool]] = []
        lines = self.lines()
        end = len(lines) - self.scroll
        for text, important in reversed(lines[max(0, end - fit) : end]):
            block = [(w, important) for w in draw.wrap(text, size, inner.width, important)]
            rows = block + rows
            if len(rows) >= fit:
                break
        return rows[-fit:]

    # -- drawing ------------------------------------------------------------------------------

    def surface(self, rect: pygame.Rect) -> tuple[pygame.Surface, tuple[int, int]]:
        """The compact log (cached), and where it goes."""
        return self._cached(rect, COMPACT_SIZE), (rect.x - 10, rect.y - 10)

    def draw(self, surface, rect: pygame.Rect) -> None:
        img, pos = self.surface(rect)
        surface.blit(img, pos)

    def draw_history(self, surface) -> None:
        if self.expanded:
            surface.blit(
                self._cached(L.LOG_FULL, FULL_SIZE), (L.LOG_FULL.x - 10, L.LOG_FULL.y - 10)
            )

    def _cached(self, rect: pygame.Rect, size: int) -> pygame.Surface:
        lines = self.lines()
        key = (id(lines), len(lines), self.scroll, self.unseen, rect.size, THEME.epoch)
        big = size == FULL_SIZE
        got = self._surfaces.get(big)
        if got is None or got[0] != key:
            got = (key, self._render(rect, size))
            self._surfaces[big] = got
        return got[1]

    def _render(self, rect: pygame.Rect, size: int) -> pygame.Surface:
        if size == FULL_SIZE:  # the history covers the board: opaque, so it reads cleanly
            panel = draw.panel_surface(rect.width, rect.height, alpha=240)
            surf = pygame.Surface(panel.get_size(), pygame.SRCALPHA)
            pygame.draw.rect(
                surf, (16, 28, 23), (10, 10, rect.width, rect.height), border_radius=18
            )
            surf.blit(panel, (0, 0))
            head = draw.fit(tr("log.history_title"), 26, rect.width - 80, TEXT, True)
            surf.blit(head, (10 + PAD + 6, 10 + PAD + 2))
        else:
            surf = draw.panel_surface(rect.width, rect.height, alpha=210).copy()
        ox, oy = 10 - rect.x, 10 - rect.y
        inner = self.text_rect(rect).move(ox, oy)
        step = line_step(size)
        rows = self.rows(rect, size)
        y = inner.bottom - step * len(rows)
        newest = self.at_latest
        for i, (line, important) in enumerate(rows):
            fade = not newest or i < len(rows) - 6
            col = (255, 226, 140) if important else (TEXT_DIM if fade else TEXT)
            img = draw.text(line, size, col, important)
            surf.blit(img, img.get_rect(midleft=(inner.x, y + step // 2)))
            y += step
        self._scrollbar(surf, self.scrollbar_rect(rect).move(ox, oy), len(rows))
        return surf

    def _scrollbar(self, surf, track: pygame.Rect, shown: int) -> None:
        total = len(self.lines())
        pygame.draw.rect(surf, (255, 255, 255, 22), track, border_radius=5)
        if total <= 0:
            return
        frac = min(1.0, max(1, shown) / total)
        h = max(18, int(track.height * frac))
        # the thumb's bottom sits at the newest shown line
        end = (total - self.scroll) / total
        bottom = track.y + int(track.height * end)
        thumb = pygame.Rect(track.x, max(track.y, bottom - h), track.width, h)
        thumb.bottom = min(track.bottom, max(thumb.bottom, track.y + h))
        pygame.draw.rect(
            surf, (170, 200, 185) if self.at_latest else GOLD_SOFT, thumb, border_radius=5
        )
