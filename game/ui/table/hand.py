"""The viewer's hand as a fan of cards. Cards that some legal action uses glow; the rest
are dimmed but still shown (their tooltip says what they do and when). Over the hand limit
the cards marked to discard stand raised, framed and tagged until the discard is confirmed.

Rotated faces come from cardart's cache (whole degrees), so a fan of 15 cards costs 15
blits a frame.
"""

from __future__ import annotations

import pygame

from .. import cardart, draw
from ..i18n import tr
from ..theme import BAD
from . import layout as L

ORDER = [
    "clan_red", "clan_blue", "clan_yellow", "clan_magenta", "clan_orange", "clan_green",
    "travel_red", "travel_blue", "travel_yellow", "travel_magenta", "travel_orange",
    "travel_green", "travel_grey", "boss", "recruit", "stop",
]  # fmt: skip


FAN_AREA = pygame.Rect(0, L.HAND.y - 70, L.HAND.right + 40, L.H - L.HAND.y + 70)
ONE_ROW_MAX = 9  # more cards than this go in two rows: one row would overlap their names
MARKED_LIFT = 34.0  # a card marked to discard stands this far up


def _kept_slots(old_cards, old_slots, cards):
    """The old slots of the cards still held, when `cards` is `old_cards` with some cards
    taken out (a play or a discard); None when cards were added or reordered."""
    if len(cards) >= len(old_cards) or len(old_slots) != len(old_cards):
        return None
    out, j = [], 0
    for i, key in enumerate(old_cards):
        if j < len(cards) and cards[j] == key:
            out.append(old_slots[i])
            j += 1
    return out if j == len(cards) else None


class HandFan:
    def __init__(self) -> None:
        self.cards: list[str] = []
        self.playable: set[str] = set()
        self.slots: list[tuple[float, float, int]] = []  # centre x, centre y, angle
        self.hover: int | None = None
        self.selected: int | None = None
        self.drag: int | None = None
        self.drag_pos = (0, 0)
        self.press: tuple[int, tuple[int, int]] | None = None
        self.lift = [0.0] * 0
        self.hidden: dict[str, int] = {}  # cards still flying in from the deck, by kind
        self._fan: pygame.Surface | None = None
        self._fan_key = None
        self.pointer = (0, 0)
        self.stale = False  # slots kept from before a play (the pointer is over the hand)
        self.focus: int | None = None  # the keyboard's place in the hand
        self.marked: frozenset[int] = frozenset()  # marked to discard (not yet confirmed)

    def set_hand(self, hand: dict[str, int], playable: set[str]) -> None:
        cards = [k for k in ORDER for _ in range(hand.get(k, 0))]
        if cards != self.cards:
            sel = (
                self.cards[self.selected]
                if self.selected is not None and self.selected < len(self.cards)
                else None
            )
            old_cards, old_slots = self.cards, self.slots
            self.cards = cards
            self.selected = cards.index(sel) if sel in cards else None
            self.hover = None
            self.drag = None
            if self.focus is not None:
                self.focus = min(self.focus, len(cards) - 1) if cards else None
            self._layout()
            kept = _kept_slots(old_cards, old_slots, cards)
            if kept is not None and FAN_AREA.collidepoint(self.pointer):
                # a card left the hand under the pointer: the rest stay where they are
                # until the pointer leaves the hand (no card slides under it)
                self.slots, self.stale = kept, True
        self.playable = playable

    def _layout(self) -> None:
        n = len(self.cards)
        self.lift = [0.0] * n
        self.stale = False
        if n == 0:
            self.slots = []
            return
        if n > ONE_ROW_MAX:
            self.slots = self._two_rows(n)
            return
        spacing = min(146.0, (L.HAND.width - cardart.CARD_W - 60) / max(1, n - 1))
        width = spacing * (n - 1)
        x0 = L.HAND.centerx - width / 2
        mid = (n - 1) / 2
        step = min(5.0, 36.0 / max(1, n))
        out = []
        for i in range(n):
            off = i - mid
            angle = round(-off * step)
            y = L.HAND.y + 118 + abs(off) ** 1.6 * 2.2
            out.append((x0 + i * spacing, y, angle))
        self.slots = out

    def _two_rows(self, n: int) -> list[tuple[float, float, int]]:
        """A big hand in two rows: the back row raised so its title bands show above the
        front row, each row spaced so that no card covers its neighbour's name."""
        back = (n + 1) // 2
        out = []
        for row, count in enumerate((back, n - back)):
            spacing = min(146.0, (L.HAND.width - cardart.CARD_W - 60) / max(1, count - 1))
            x0 = L.HAND.centerx - spacing * (count - 1) / 2 + (0 if row else spacing / 2 - 20)
            y = L.HAND.y + (90 if row == 0 else 138)  # the back row's bands just show
            out += [(x0 + k * spacing, y, 0) for k in range(count)]
        return out

    def update_pointer(self, mouse) -> None:
        """Close the gap a play left once the pointer is off the hand."""
        self.pointer = mouse
        if self.stale and not FAN_AREA.collidepoint(mouse):
            lift = self.lift
            self._layout()
            self.lift = lift[: len(self.cards)] + [0.0] * (len(self.cards) - len(lift))

    def card_rect(self, i: int) -> pygame.Rect:
        x, y, _ = self.slots[i]
        r = pygame.Rect(0, 0, cardart.CARD_W, cardart.CARD_H)
        r.center = (round(x), round(y - self.lift[i]))
        return r

    def at(self, pos) -> int | None:
        """The topmost card under pos (the fan overlaps: later cards lie on top)."""
        for i in range(len(self.cards) - 1, -1, -1):
            if self.card_rect(i).collidepoint(pos):
                return i
        return None

    def update(self, dt: float, mouse) -> None:
        self.update_pointer(mouse)
        self.hover = self.at(mouse) if self.drag is None else None
        for i in range(len(self.cards)):
            goal = self._lift_goal(i)
            self.lift[i] += (goal - self.lift[i]) * min(1.0, dt * 14)
            if abs(goal - self.lift[i]) < 0.5:
                self.lift[i] = goal

    def _lift_goal(self, i: int) -> float:
        goal = 44.0 if i == self.selected else 26.0 if i == self.hover else 0.0
        return max(goal, MARKED_LIFT) if i in self.marked else goal

    def moving(self) -> bool:
        """A card still rising or settling (or dragged): the fan changes every frame."""
        if self.drag is not None:
            return True
        return any(self.lift[i] != self._lift_goal(i) for i in range(len(self.cards)))

    def settled_fan(self) -> pygame.Surface | None:
        """The whole fan as one picture while nothing in it moves (None while a card lifts
        or is dragged): the table composes it into its static layer."""
        if self.drag is not None or any(abs(x - round(x)) >= 0.3 for x in self.lift):
            return None
        key = (
            tuple(self.cards),
            frozenset(self.playable),
            self.hover,
            self.selected,
            self.marked,
            tuple(sorted(self.hidden.items())),
            tuple(round(x) for x in self.lift),
            tuple(self.slots),
            cardart.THEME.epoch,
        )
        if key != self._fan_key:
            fan = pygame.Surface(FAN_AREA.size, pygame.SRCALPHA)
            self._draw_cards(fan, (-FAN_AREA.x, -FAN_AREA.y))
            self._fan, self._fan_key = fan, key
        return self._fan

    def draw(self, surface) -> None:
        self._draw_cards(surface)

    def hide(self, key: str) -> None:
        self.hidden[key] = self.hidden.get(key, 0) + 1

    def reveal(self, key: str) -> None:
        left = self.hidden.get(key, 0) - 1
        if left > 0:
            self.hidden[key] = left
        else:
            self.hidden.pop(key, None)

    def _skipped(self) -> set[int]:
        """Indices of the cards still in flight (the last ones of each hidden kind)."""
        out: set[int] = set()
        for key, count in self.hidden.items():
            idx = [i for i, k in enumerate(self.cards) if k == key]
            out.update(idx[-count:] if count else [])
        return out

    def _draw_cards(self, surface, offset=(0, 0)) -> None:
        ox, oy = offset
        skip = self._skipped() if self.hidden else ()
        up = [i for i in (self.selected, self.hover) if i is not None and i < len(self.cards)]
        order = [i for i in range(len(self.cards)) if i not in up] + list(dict.fromkeys(up))
        for i in order:  # the picked and the hovered card lie on top
            if i == self.drag or i in skip:
                continue
            key = self.cards[i]
            x, y, angle = self.slots[i]
            marked = i in self.marked
            ang = 0 if i in (self.hover, self.selected) or marked else angle
            img = cardart.rotated(key, ang, lift=key in self.playable, dim=key not in self.playable)
            at = img.get_rect(center=(round(x) + ox, round(y - self.lift[i]) + oy))
            surface.blit(img, at)
            if marked:
                self._draw_mark(surface, at)
        if self.drag is not None and self.drag < len(self.cards):
            img = cardart.rotated(self.cards[self.drag], 0, lift=True)
            surface.blit(img, img.get_rect(center=self.drag_pos))

    def _draw_mark(self, surface, at: pygame.Rect) -> None:
        """A card marked to discard: a red frame and a "Discard" tag just under its name
        (in two rows the front row hides the back row's feet; above the card, the panel
        would cover the tag of the last card)."""
        card = pygame.Rect(0, 0, cardart.CARD_W, cardart.CARD_H)
        card.center = at.center
        pygame.draw.rect(surface, BAD, card, width=5, border_radius=12)
        tag = draw.fit(tr("action.discard"), 20, card.width - 16, (255, 255, 255), True)
        band = pygame.Rect(card.x + 5, card.top + 42, card.width - 10, 28)
        pygame.draw.rect(surface, BAD, band, border_radius=8)
        surface.blit(tag, tag.get_rect(center=band.center))

    def anchor(self, i: int | None = None) -> tuple[float, float]:
        if not self.slots:
            return L.HAND_CENTER
        i = len(self.slots) - 1 if i is None else i
        x, y, _ = self.slots[min(i, len(self.slots) - 1)]
        return x, y
