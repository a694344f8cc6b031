"""Tooltips on what the table draws rather than on its widgets: a board space's rules, a
card in the hand, a part of the panel, a placard. The thing under the pointer is followed
every frame; its tip comes up after TIP_DELAY of hovering (the widgets' own tooltips are
the scene's).

It reads the table's view, hand, panel, plates, log, pointer position and clock.
"""

from __future__ import annotations

import pygame

from ..drawing import cardart, draw
from ..drawing.widgets import draw_tooltip
from ..i18n import tr
from ..screen.scene import TIP_DELAY
from . import layout as L
from .board import space_rules_text
from .log import clan_word
from .pointer import in_history, space_at


def card_tip(key: str) -> str:
    """A card's title and what it does."""
    if key.startswith("clan_"):
        body = tr("tip.card.clan", clan=clan_word(key[5:]))
    elif key == "travel_grey":
        body = tr("tip.card.travel_grey")
    elif key.startswith("travel_"):
        body = tr("tip.card.travel", clan=clan_word(key[7:]))
    else:
        body = tr(
            {"boss": "tip.card.boss", "recruit": "tip.card.recruit", "stop": "tip.card.stop"}[key]
        )
    return f"{cardart.card_title(key)}\n{body}"


class TableTips:
    """The drawn thing under the pointer (`pending`: its text, since when, its key)."""

    def __init__(self, table) -> None:
        self.table = table
        self.pending: tuple[str, float, tuple] | None = None

    def waiting(self) -> bool:
        """A tip is on its way up: the frame must be drawn again while its delay runs."""
        return self.pending is not None and self.table.t - self.pending[1] < TIP_DELAY

    def follow(self) -> None:
        """The drawn thing under the pointer and since when (the scene's clock): its
        tooltip comes up after TIP_DELAY of hovering, drawn or not in between."""
        t = self.table
        pointed = self.pointed() if t.hand.drag is None else None
        if pointed is None:
            self.pending = None
        elif self.pending is None or self.pending[2] != pointed[0]:
            self.pending = (pointed[1], t.t, pointed[0])

    def draw(self, surface, keep: tuple[pygame.Rect, ...]) -> None:
        """The pending tip, once its delay is over, clear of `keep` and the fan's titles."""
        t = self.table
        if self.pending is None or t.t - self.pending[1] < TIP_DELAY:
            return
        pointed = self.pointed()
        if pointed is not None and pointed[0] == self.pending[2]:
            fan = t.hand.fan_area()  # off the other cards' titles where it can
            draw_tooltip(surface, pointed[1], t.mouse, avoid=(pointed[2], *keep),
                         prefer=(*self.titles(), *(() if fan is None else (fan,)),
                                 *t.other_controls(None)))  # fmt: skip

    def titles(self) -> tuple[pygame.Rect, ...]:
        """The deal's title ("Deal on space 1", panels/deal.py) and the Boss's name beside
        it (a title too at Large text), which a tip beside the move meter or a row's button
        would otherwise cover."""
        if self.table.seen.negotiation is None:
            return ()
        r = L.RIGHT
        title = pygame.Rect(r.x + 24, r.y + 18, 420, max(60, draw.line_height(34, True)))
        boss = pygame.Rect(r.x + 520, r.y + 16, r.width - 544, draw.line_height(28, True))
        return (title.union(boss),)

    def pointed(self) -> tuple[tuple, str, pygame.Rect] | None:
        """(key, text, rect) of the space, card, panel part or placard under the pointer."""
        t = self.table
        v, mouse, hand = t.seen, t.mouse, t.hand
        tip = None
        key = None
        over: pygame.Rect | None = None
        if in_history(t.log, mouse):
            return None
        space = space_at(mouse)
        if space is not None:
            key = ("space", space)
            over = L.SPACES[space]
            tip = space_rules_text(v.board.to_data(), space, v.price)
            if space in v.covered:
                tile = v.covered[space]
                tip = tr("deal.tile_number", n=tile) + "\n" + tip
        elif (
            t.session.viewer is not None
            and hand.hover is not None
            and hand.hover < len(hand.cards)
            and hand.hover != hand.selected  # its pop-up says it now
        ):
            key = ("card", hand.hover)
            tip = card_tip(hand.cards[hand.hover])
            over = hand.card_rect(hand.hover)
        elif hint := next((h for h in t.panel.hints(t.seen) if h[0].collidepoint(mouse)), None):
            key = ("hint", hint[1])
            tip = hint[1]
            over = hint[0]
        else:
            for clan, r in t.plates.placard_rects.items():
                if r.collidepoint(mouse):
                    key = ("placard", clan)
                    over = r
                    travelling = v.negotiation is not None and clan in v.negotiation.travel
                    tip = tr("tip.placard", clan=clan_word(clan)) + (
                        "\n" + tr("term.travelling") if travelling else ""
                    )
                    break
        if tip is None:
            return None
        return key, tip, over
