"""The viewer's hand as a fan of cards held by a person. Copies of a card lie in one group,
a small pile with its count; the groups spread so that no card covers another's title (two
staggered rows past one_row_max() groups, the back row's titles above the front row). Cards
that some legal action uses glow; the rest are dimmed but still shown (their tooltip says
what they do and when). The selected card stands raised in a gold frame. Over the hand
limit the marked cards stand raised, framed and tagged until the discard is confirmed; a
click on a group marks one more of its copies.

When a card leaves the hand its gap closes within the card's own flight (CLOSE_TIME): the
others slide together as it flies. A play under the pointer holds them a moment first
(HOLD_MAX: no card slides under a click that follows at once), never longer.

Rotated faces come from cardart's cache (whole degrees), so a fan of 15 groups costs 15
blits a frame.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pygame

from ..drawing import cardart, draw
from ..drawing.theme import BAD, GOLD, PANEL
from ..drawing.tween import out_cubic
from ..i18n import tr
from . import layout as L

ORDER = [
    "clan_red", "clan_blue", "clan_yellow", "clan_magenta", "clan_orange", "clan_green",
    "travel_red", "travel_blue", "travel_yellow", "travel_magenta", "travel_orange",
    "travel_green", "travel_grey", "boss", "recruit", "stop",
]  # fmt: skip


# the fan's own picture: room for the hand of either layout (table/layout.py)
_WIDEST = max(L.STANDARD.hand.right, L.COMPACT.hand.right)
FAN_AREA = pygame.Rect(0, L.HAND.y - 80, _WIDEST + 40, L.H - L.HAND.y + 80)
EDGE = 6  # room at the hand's ends (the least room between two cards: the layout's card_gap)
MAX_SPACING = 150.0  # one row; two rows spread wider, the back row showing between
TWO_ROW_SPACING = 210.0  # the front row's cards


def one_row_max() -> int:
    """Groups in one row while every card keeps the layout's gap from its neighbours (9 in
    the standard layout's hand, 10 in the compact one's)."""
    gap = L.ARRANGEMENT.card_gap
    return 1 + int((L.HAND.width - 2 * EDGE - cardart.CARD_W) // (cardart.CARD_W + gap))



# two rows: the front row's centre, its foot on the screen's bottom edge; the back row
# stands above it by the back row's titles and a count badge (`row_step`)
FRONT_Y = L.H - 4 - cardart.CARD_H // 2
PILE_STEP = 4  # each copy behind a group's card lies this far up and right
PILE_MAX = 2  # copies drawn behind
MARKED_LIFT = 34.0  # a card marked to discard stands this far up
SELECTED_LIFT, HOVER_LIFT = 44.0, 26.0
SLIDE_RATE = 12.0  # a new card's room opens at this rate (per second, exponential)
CLOSE_TIME = 0.45  # seconds after a card left its gap is closed (a card's flight from the hand)
HOLD_MAX = 0.15  # seconds the others wait under the pointer before they start closing it
BADGE_H, BADGE_PX = 24, 20
FOOT = 4  # the card's margin under its lowest words and chip


@dataclass(frozen=True)
class Group:
    """The copies of one card in the hand: cards[start : start + count] of the fan."""

    key: str
    start: int
    count: int

    @property
    def indices(self) -> range:
        return range(self.start, self.start + self.count)


def group_cards(cards: list[str]) -> list[Group]:
    out: list[Group] = []
    for i, key in enumerate(cards):
        if out and out[-1].key == key:
            out[-1] = Group(key, out[-1].start, out[-1].count + 1)
        else:
            out.append(Group(key, i, 1))
    return out


def _turn(point: tuple[float, float], angle: float) -> tuple[float, float]:
    """A point relative to a card's centre, turned as rotozoom turns the card (degrees,
    counter-clockwise on screen)."""
    a = math.radians(angle)
    x, y = point
    return x * math.cos(a) + y * math.sin(a), -x * math.sin(a) + y * math.cos(a)


class HandFan:
    """The fan's geometry and drawing. `hover`, `selected`, `drag`, `focus` and `marked`
    name cards by their place in `cards` (a group by its first card: the engine's actions
    name a card, not a copy)."""

    def __init__(self) -> None:
        self.cards: list[str] = []
        self.groups: list[Group] = []
        self._group_of: list[int] = []  # card index -> group index
        self.playable: set[str] = set()
        self.slots: list[tuple[float, float, float]] = []  # per group: centre x, y, angle
        self.goals: list[tuple[float, float, float]] = []  # where the slots are going
        # a play left a gap under the pointer: the slots wait until it leaves this area
        self.hold: pygame.Rect | None = None
        self.closing = False  # a card left: the others have not yet closed its gap
        self.gap_t = 0.0  # seconds since it left
        self._gap_from: tuple[float, list] | None = None  # (gap_t, slots) as the slide began
        self.hover: int | None = None
        self.selected: int | None = None
        self.drag: int | None = None
        self.drag_pos = (0, 0)
        self.press: tuple[int, tuple[int, int]] | None = None
        self.lift: list[float] = []  # per group
        self.hidden: dict[str, int] = {}  # cards still flying in from the deck, by kind
        self._fan: pygame.Surface | None = None
        self._fan_key = None
        self.pointer = (0, 0)
        self.focus: int | None = None  # the keyboard's place in the hand
        self.marked: frozenset[int] = frozenset()  # marked to discard (not yet confirmed)
        self._epoch = -1  # the theme the goals were laid out for

    # -- the hand ------------------------------------------------------------------------

    def set_hand(self, hand: dict[str, int], playable: set[str]) -> None:
        cards = [k for k in ORDER for _ in range(hand.get(k, 0))]
        if cards != self.cards:
            self._regroup(cards)
        elif self._epoch != cardart.THEME.epoch:  # the titles' size changed: so do the rows,
            self.goals = self._layout(len(self.groups))  # at once (no card slides for it)
            self.slots = list(self.goals)
        self._epoch = cardart.THEME.epoch
        self.playable = playable

    def _regroup(self, cards: list[str]) -> None:
        sel = self.key_of(self.selected)
        focus = None if self.focus is None else self.group_index(self.focus)
        old_keys = [g.key for g in self.groups]
        old_slots = dict(zip(old_keys, self.slots, strict=True))
        old_lift = dict(zip(old_keys, self.lift, strict=True))
        area = self.fan_area()
        over = area is not None and area.collidepoint(self.pointer)
        self.cards = cards
        self.groups = group_cards(cards)
        self._group_of = [g for g, grp in enumerate(self.groups) for _ in grp.indices]
        keys = [g.key for g in self.groups]
        self.selected = self.first(sel)
        if focus is not None:
            self.focus = self.groups[min(focus, len(keys) - 1)].start if keys else None
        self.hover = None
        self.drag = None
        self.goals = self._layout(len(keys))
        self.slots = [old_slots.get(k, goal) for k, goal in zip(keys, self.goals, strict=True)]
        self.lift = [old_lift.get(k, 0.0) for k in keys]
        # a card left the hand under the pointer: the rest wait until it leaves (HOLD_MAX at most)
        gone = len(keys) < len(old_keys) and set(keys) <= set(old_keys)
        if self.closing or set(old_keys) - set(keys):
            self.closing, self.gap_t, self._gap_from = True, 0.0, None
        self.hold = area if over and gone else None

    def key_of(self, i: int | None) -> str | None:
        return self.cards[i] if i is not None and 0 <= i < len(self.cards) else None

    def first(self, key: str | None) -> int | None:
        """The first card of `key` in the fan (None: none held)."""
        return self.cards.index(key) if key in self.cards else None

    def group_index(self, i: int) -> int:
        return self._group_of[i]

    def starts(self) -> list[int]:
        """Each group's first card, left to right (back row first): the keys' order."""
        return [g.start for g in self.groups]

    def marked_in(self, g: int) -> int:
        return sum(1 for i in self.groups[g].indices if i in self.marked)

    # -- where the groups lie --------------------------------------------------------------

    def _layout(self, n: int) -> list[tuple[float, float, float]]:
        if n == 0:
            return []
        if n > one_row_max():
            return self._two_rows(n)
        room = L.HAND.width - 2 * EDGE - cardart.CARD_W
        spacing = min(MAX_SPACING, room / max(1, n - 1))
        x0 = L.HAND.centerx - spacing * (n - 1) / 2
        mid = (n - 1) / 2
        step = min(4.0, 24.0 / n)  # degrees: the tops spread apart, the feet come together
        out = []
        for i in range(n):
            off = i - mid
            y = L.HAND.y + 118 + abs(off) ** 1.6 * 2.2
            out.append((x0 + i * spacing, y, -off * step))
        return out

    def _two_rows(self, n: int) -> list[tuple[float, float, float]]:
        """A big hand in two rows, the front row shifted half a card: the back row's titles
        and tops show above the front row and between its cards. The hand folds down (the
        front row's feet below the screen's edge) as far as the back row needs to stay
        under the bottom row's requirements (`L.HAND_CEILING`)."""
        back = (n + 1) // 2
        front = n - back
        keys = [g.key for g in self.groups]
        dy = row_step(keys[:back], any(g.count > 1 for g in self.groups[back:]))
        room = L.HAND.width - 2 * EDGE - cardart.CARD_W
        spacing = min(TWO_ROW_SPACING, room / (back - 1 + (0.5 if front == back else 0)))
        width = spacing * (back - 1 + (0.5 if front == back else 0))
        x0 = L.HAND.centerx - width / 2
        piles = [min(PILE_MAX, g.count - 1) for g in self.groups[:back]]
        lift = BADGE_H - 4 - cardart.FACE_SHIFT[1]  # a badge over its pile's corner
        over = max((PILE_STEP * p + lift for p in piles if p), default=0)
        top = FRONT_Y - dy - cardart.CARD_H // 2 - over  # the back row's highest point
        sink = max(0, L.HAND_CEILING - top)
        front_y, back_y = float(FRONT_Y + sink), float(FRONT_Y - dy + sink)
        out = [(x0 + k * spacing, back_y, 0.0) for k in range(back)]
        out += [(x0 + (k + 0.5) * spacing, front_y, 0.0) for k in range(front)]
        return out

    def rest_top(self) -> int:
        """The top of the highest card at rest (a two-row hand's back row reaches above
        the hand's area)."""
        return min((round(y) - cardart.CARD_H // 2 for _, y, _ in self.goals), default=L.HAND.y)

    def in_back_row(self, g: int) -> bool:
        """Whether group g stands in the back row of a two-row hand (its lower half hidden
        by the front row)."""
        n = len(self.groups)
        return n > one_row_max() and g < (n + 1) // 2

    def _folded(self, g: int) -> bool:
        """Whether group g's foot lies below the screen's edge far enough to cut what lies
        lowest on its face (a folded two-row hand, even raised; the ends of a one-row fan
        dip a few px): its words under the picture and a Travel card's chip are left out
        as the back row's are."""
        return self._rest_rect(g).bottom - self.lift[g] > L.H + FOOT

    def _rest_rect(self, g: int) -> pygame.Rect:
        x, y, _ = self.slots[g]
        r = pygame.Rect(0, 0, cardart.CARD_W, cardart.CARD_H)
        r.center = (round(x), round(y))
        return r

    def fan_area(self) -> pygame.Rect | None:
        """Round the cards where they rest, the gaps between them included."""
        if not self.slots:
            return None
        rects = [self._rest_rect(g) for g in range(len(self.slots))]
        return rects[0].unionall(rects[1:]).inflate(16, 16)

    def card_rect(self, i: int) -> pygame.Rect:
        """Card i's group where it stands now (lifted, not turned): what a click hits."""
        g = self._group_of[i]
        x, y, _ = self.slots[g]
        r = pygame.Rect(0, 0, cardart.CARD_W, cardart.CARD_H)
        r.center = (round(x), round(y - self.lift[g]))
        return r

    def raised_rect(self, i: int) -> pygame.Rect:
        """Card i's group where it stands once selected and settled."""
        x, y, _ = self.goals[self._group_of[i]]
        r = pygame.Rect(0, 0, cardart.CARD_W, cardart.CARD_H)
        r.center = (round(x), round(y - SELECTED_LIFT))
        return r

    def draw_order(self) -> list[int]:
        """Group indices back to front: left to right, the back row first, then the hovered
        and the selected card on top."""
        up = [self._group_of[i] for i in (self.hover, self.selected) if self.key_of(i)]
        return [g for g in range(len(self.groups)) if g not in up] + list(dict.fromkeys(up))

    def at(self, pos) -> int | None:
        """The first card of the topmost group under pos."""
        for g in reversed(self.draw_order()):
            if self.card_rect(self.groups[g].start).collidepoint(pos):
                return self.groups[g].start
        return None

    def angle(self, g: int) -> int:
        """The whole-degree turn group g is drawn at: none while raised."""
        start = self.groups[g].start
        if start in (self.hover, self.selected) or self.marked_in(g):
            return 0
        return round(self.slots[g][2])

    def face_centre(self, g: int) -> tuple[float, float]:
        x, y, _ = self.slots[g]
        dx, dy = _turn(cardart.FACE_SHIFT, self.angle(g))
        return round(x) + dx, round(y - self.lift[g]) + dy

    def _corners(self, g: int, rect: pygame.Rect) -> list[tuple[float, float]]:
        """A rect given on the face (0, 0 its top-left) as drawn on the table."""
        cx, cy = self.face_centre(g)
        a = self.angle(g)
        pts = [rect.topleft, rect.topright, rect.bottomright, rect.bottomleft]
        half = (cardart.CARD_W / 2, cardart.CARD_H / 2)
        out = []
        for px, py in pts:
            dx, dy = _turn((px - half[0], py - half[1]), a)
            out.append((cx + dx, cy + dy))
        return out

    def _shown(self, g: int) -> int:
        """Copies drawn (those still flying in from the deck are not yet)."""
        group = self.groups[g]
        return max(0, group.count - self.hidden.get(group.key, 0))

    def _pile(self, g: int) -> int:
        return min(PILE_MAX, max(0, self._shown(g) - 1))

    def badge_rect(self, g: int) -> pygame.Rect | None:
        """The count's tag over the pile's top-right corner (None: a single card)."""
        shown = self._shown(g)
        if shown < 2:
            return None
        pile = PILE_STEP * self._pile(g)
        corner = self._corners(g, pygame.Rect(0, -pile, cardart.CARD_W + pile, 1))[1]
        r = pygame.Rect(0, 0, draw.text_width(_count(shown), BADGE_PX, True) + 16, BADGE_H)
        r.bottomright = (round(corner[0]) - 2, round(corner[1]) + 4)
        return r

    # -- time ------------------------------------------------------------------------------

    def update_pointer(self, mouse) -> None:
        """The gap a play left under the pointer starts closing once the pointer is off the
        fan (or HOLD_MAX after the play, wherever the pointer is)."""
        self.pointer = mouse
        if self.hold is not None and not self.hold.collidepoint(mouse):
            self.hold = None

    def update(self, dt: float, mouse) -> None:
        self.update_pointer(mouse)
        if self.closing:
            self.gap_t += dt
            if self.gap_t >= HOLD_MAX:
                self.hold = None
        if self.hold is None and self.closing:
            self._close_gap(dt)
        elif self.hold is None:
            k = min(1.0, dt * SLIDE_RATE)
            self.slots = [
                goal if _near(slot, goal) else tuple(s + (e - s) * k for s, e in zip(slot, goal, strict=True))
                for slot, goal in zip(self.slots, self.goals, strict=True)
            ]  # fmt: skip
        self.closing = self.closing and self.slots != self.goals
        self.hover = self.at(mouse) if self.drag is None else None
        for g in range(len(self.groups)):
            goal = self._lift_goal(g)
            self.lift[g] += (goal - self.lift[g]) * min(1.0, dt * 14)
            if abs(goal - self.lift[g]) < 0.5:
                self.lift[g] = goal

    def _close_gap(self, dt: float) -> None:
        """The cards slide into the gap, eased, all in place by CLOSE_TIME after it opened
        (the slide's first frame is the one that started it)."""
        if self._gap_from is None:
            self._gap_from = (max(0.0, self.gap_t - dt), list(self.slots))
        t0, start = self._gap_from
        k = out_cubic(min(1.0, (self.gap_t - t0) / max(1e-6, CLOSE_TIME - t0)))
        self.slots = [
            goal if k >= 1.0 else tuple(s + (e - s) * k for s, e in zip(slot, goal, strict=True))
            for slot, goal in zip(start, self.goals, strict=True)
        ]

    def _lift_goal(self, g: int) -> float:
        start = self.groups[g].start
        goal = SELECTED_LIFT if start == self.selected else HOVER_LIFT if start == self.hover else 0.0
        return max(goal, MARKED_LIFT) if self.marked_in(g) else goal

    def empty_slot(self) -> bool:
        """A slot of the fan shows no card: a gap not yet closed, or a card still flying in."""
        return self.closing or any(not self._shown(g) for g in range(len(self.groups)))

    def sliding(self) -> bool:
        return self.hold is None and self.slots != self.goals

    def moving(self) -> bool:
        """A card rising, settling, sliding into a gap, or dragged: the fan changes every
        frame."""
        if self.drag is not None or self.sliding():
            return True
        return any(self.lift[g] != self._lift_goal(g) for g in range(len(self.groups)))

    def settled_fan(self) -> pygame.Surface | None:
        """The whole fan as one picture while nothing in it moves (None while a card lifts,
        slides or is dragged): the table composes it into its static layer."""
        if self.drag is not None or self.sliding() or any(abs(x - round(x)) >= 0.3 for x in self.lift):
            return None
        key = (
            tuple(self.cards),  # the groups and their counts
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

    # -- drawing ---------------------------------------------------------------------------

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

    def _draw_cards(self, surface, offset=(0, 0)) -> None:
        ox, oy = offset
        drag = None if self.drag is None else self._group_of[self.drag]
        for g in self.draw_order():
            if g == drag or not self._shown(g):
                continue
            key = self.groups[g].key
            up = self.groups[g].start in (self.hover, self.selected) or self.marked_in(g)
            img = cardart.rotated(
                key,
                self.angle(g),
                lift=key in self.playable,
                dim=key not in self.playable,
                lower=(up or not self.in_back_row(g)) and not self._folded(g),
                foot=not self._folded(g),
            )
            x, y, _ = self.slots[g]
            centre = (round(x) + ox, round(y - self.lift[g]) + oy)
            for k in range(self._pile(g), 0, -1):  # the copies behind, up and to the right
                dx, dy = _turn((PILE_STEP * k, -PILE_STEP * k), self.angle(g))
                surface.blit(img, img.get_rect(center=(centre[0] + dx, centre[1] + dy)))
            surface.blit(img, img.get_rect(center=centre))
            face = pygame.Rect(0, 0, cardart.CARD_W, cardart.CARD_H)
            fx, fy = self.face_centre(g)
            face.center = (round(fx) + ox, round(fy) + oy)
            if self.marked_in(g):
                self._draw_mark(surface, face, g)
            elif self.groups[g].start == self.selected:
                pygame.draw.rect(surface, GOLD, face.inflate(6, 6), width=4, border_radius=14)
            badge = self.badge_rect(g)
            if badge is not None:
                self._draw_badge(surface, badge.move(ox, oy), self._shown(g))
        if drag is not None:
            img = cardart.rotated(self.groups[drag].key, 0, lift=True)
            surface.blit(img, img.get_rect(center=self.drag_pos))

    def _draw_badge(self, surface, r: pygame.Rect, n: int) -> None:
        pygame.draw.rect(surface, PANEL, r, border_radius=BADGE_H // 2)
        pygame.draw.rect(surface, GOLD, r, width=2, border_radius=BADGE_H // 2)
        img = draw.text(_count(n), BADGE_PX, (255, 255, 255), True)
        surface.blit(img, img.get_rect(center=r.center))

    def _draw_mark(self, surface, card: pygame.Rect, g: int) -> None:
        """A card marked to discard: a red frame and a "Discard" tag just under its name
        (in two rows the front row hides the back row's feet; above the card, the panel
        would cover the tag of the last card). Of a pile: how many copies are marked."""
        pygame.draw.rect(surface, BAD, card, width=5, border_radius=12)
        word = tr("action.discard")
        if self.groups[g].count > 1:
            word += " " + _count(self.marked_in(g))
        tag = draw.fit(word, 20, card.width - 16, (255, 255, 255), True)
        top = card.top + cardart.title_box(self.groups[g].key).bottom + 2
        band = pygame.Rect(card.x + 5, top, card.width - 10, 28)
        pygame.draw.rect(surface, BAD, band, border_radius=8)
        surface.blit(tag, tag.get_rect(center=band.center))

    def anchor(self, i: int | None = None) -> tuple[float, float]:
        """Where card i's group rests (the last group's place when i is None)."""
        if not self.slots:
            return L.HAND_CENTER
        g = len(self.slots) - 1 if i is None else self._group_of[min(i, len(self.cards) - 1)]
        x, y, _ = self.goals[g]
        return x, y


def row_step(back_keys: list[str], front_piles: bool = True) -> int:
    """How far the back row of a two-row hand stands above the front row: its titles show
    whole, and a front card's count badge (over its top corner) stays below them."""
    bottom = max((cardart.title_box(k).bottom for k in back_keys), default=0)
    return bottom + (BADGE_H + PILE_STEP * PILE_MAX if front_piles else 4)


def _count(n: int) -> str:
    return f"×{n}"  # as the plates count cards


def _near(a, b) -> bool:
    return all(abs(p - q) < 0.5 for p, q in zip(a, b, strict=True))
