"""Player plates along the top: name, placards (with travel markers), hand size, money pile
(the figure only when visible), the Boss crown and a bot / connection badge. Each plate is
drawn once per change of what it shows (a signature), then blitted.
"""

from __future__ import annotations

import pygame

from game.rules.seat_view import PlayerView, SeatView

from ..drawing import draw
from ..drawing.theme import (
    BAD,
    GOLD,
    GOOD,
    TEXT,
    TEXT_DIM,
    THEME,
    WARN,
    darken,
    seat_colour,
)
from ..i18n import tr
from ..sessions.bot_styles import style_name
from . import layout as L

RING_WIDTH, RING_RADIUS = 4, 19  # the outline round whoever the table waits for
RING_SPEED = 0.9  # its brightness pulses 0.9 times a second
RING_STEPS = 22  # the table's pulses are looked at 22 times a ring's pulse (~20 a second)

class PlayerPlates:
    def __init__(self) -> None:
        self._cache: dict[int, tuple[tuple, pygame.Surface]] = {}
        self.rects: list[pygame.Rect] = []
        self.placard_rects: dict[int, pygame.Rect] = {}  # clan -> chip rect (travel targets)
        self.hidden_crown = False  # the crown is flying to its new owner
        self.hidden_placards: set[int] = set()  # placards flying to a new owner

    def layout(self, n: int) -> None:
        self.rects = L.player_rects(n)

    def anchor(self, seat: int) -> tuple[int, int]:
        r = self.rects[seat]
        return r.centerx, r.bottom - 30

    def crown_pos(self, seat: int) -> tuple[int, int]:
        r = self.rects[seat]
        return r.right - 44, r.y + 30

    def surfaces(self, v: SeatView, session) -> list[tuple[pygame.Surface, tuple[int, int]]]:
        """Each plate's cached surface and where it goes (the table composes them into its
        static layer); also records where each placard chip is (travel targets)."""
        neg = v.negotiation
        boss = neg.boss if neg else None
        travel = set(neg.travel) if neg else set()
        self.placard_rects = {}
        out = []
        for p in v.players:
            seat = p.seat
            r = self.rects[seat]
            info = session.seat_info(seat)
            sig = (
                p.name,
                p.placards,
                tuple(sorted(travel & set(p.placards))),
                p.hand_count,
                p.money_pile,
                p.money,
                boss == seat and not self.hidden_crown,
                seat == v.seat and seat in session.seats_local,
                info,
                tuple(sorted(self.hidden_placards & set(p.placards))),
                r.size,
                THEME.epoch,
            )
            hit = self._cache.get(seat)
            if hit is None or hit[0] != sig:
                hit = (
                    sig,
                    self._render(
                        p,
                        r,
                        info,
                        boss == seat and not self.hidden_crown,
                        travel,
                        seat == v.seat and seat in session.seats_local,  # "You"
                    ),
                )
                self._cache[seat] = hit
            out.append((hit[1], (r.x - 10, r.y - 10)))
            x = r.x + 14
            for c in p.placards:
                self.placard_rects[c] = pygame.Rect(x, r.y + 52, 44, 44)
                x += 50
        return out

    def draw_highlights(self, surface, t: float, highlights: dict[int, str]) -> None:
        """The pulsing ring round whoever the table waits for (turn, floor, asked): an
        outline, no alpha blit, so six of them cost next to nothing."""
        for colour, r in self.rings(t, highlights).values():
            pygame.draw.rect(surface, colour, r, width=RING_WIDTH, border_radius=RING_RADIUS)

    def rings(self, t: float, highlights: dict[int, str]) -> dict[int, tuple[tuple, pygame.Rect]]:
        """Each highlighted seat's ring at time t: its colour and rect."""
        k = draw.pulse(t, RING_SPEED)
        out = {}
        for seat, mark in highlights.items():
            if seat >= len(self.rects):
                continue
            col = {"turn": GOLD, "asked": (120, 200, 255), "floor": (140, 230, 160)}.get(mark, GOLD)
            bright = tuple(round(c * (0.55 + 0.45 * k)) for c in col)
            out[seat] = (bright, self.rects[seat].inflate(8, 8))
        return out

    def _render(
        self, p: PlayerView, r: pygame.Rect, info, is_boss: bool, travel: set[int], is_viewer: bool
    ):
        seat = p.seat
        col = seat_colour(seat)
        surf = draw.copy_of(draw.panel_surface(
            r.width, r.height, fill=(18, 40, 32), alpha=236, edge=darken(col, 0.1), radius=16
        ))  # fmt: skip
        ox, oy = 10, 10
        # colour band with the name
        band = pygame.Rect(ox + 2, oy + 2, r.width - 4, 42)
        pygame.draw.rect(
            surf, darken(col, 0.25), band, border_top_left_radius=15, border_top_right_radius=15
        )
        name_w = r.width - 120
        badge_x = ox + 12
        if info.kind == "bot":
            b = draw.bot_badge(30)
            surf.blit(b, (badge_x, oy + 7))
            badge_x += 36
            name_w -= 36
            if info.bot_kind and not is_boss:  # the bot's style, at the band's right end
                style = draw.fit(style_name(info.bot_kind), 18, 110, TEXT_DIM)
                room = name_w - style.get_width() - 12
                if draw.text_width(p.name, 28, True) <= room:  # never at the name's cost
                    surf.blit(style, style.get_rect(midright=(ox + r.width - 14, oy + 24)))
                    name_w -= style.get_width() + 12
        elif info.kind == "remote":  # a LAN player: connected (green) or dropped (red)
            dot = GOOD if info.connected else BAD
            pygame.draw.circle(surf, (0, 0, 0), (badge_x + 9, oy + 24), 8)
            pygame.draw.circle(surf, dot, (badge_x + 9, oy + 23), 7)
            badge_x += 24
            name_w -= 24
        name = draw.fit_name(p.name, 28, name_w, TEXT, True)
        surf.blit(name, name.get_rect(midleft=(badge_x, oy + 23)))
        if is_viewer:
            you = draw.fit(tr("player.you"), 18, 80, (20, 20, 20), True)
            tag = pygame.Rect(0, 0, you.get_width() + 14, 24)
            tag.midleft = (badge_x + name.get_width() + 10, oy + 23)
            if tag.right < r.width - 60:
                pygame.draw.rect(surf, (240, 240, 230), tag, border_radius=12)
                surf.blit(you, you.get_rect(center=tag.center))
        if is_boss:
            cr = draw.crown(46)
            surf.blit(cr, cr.get_rect(center=(ox + r.width - 40, oy + 20)))
        # placards
        x = ox + 14
        for c in p.placards:
            if c in self.hidden_placards:
                x += 50
                continue
            travelling = c in travel
            chip = draw.clan_chip(c, 44, "dim" if travelling else "solid")
            surf.blit(chip, (x, oy + 52))
            if travelling:
                sc = draw.suitcase(28)
                surf.blit(sc, (x + 22, oy + 40))
            x += 50
        if not p.placards:
            none = draw.text("—", 24, TEXT_DIM)
            surf.blit(none, (x, oy + 60))
        # money (right-aligned): the figure when it is visible, and the pile of notes
        right = ox + r.width - 12
        if p.money is not None:
            m = draw.fit(tr("money.amount", n=p.money), 24, 80, GOLD, True)
            mr = m.get_rect(midright=(right, oy + 86))
            surf.blit(m, mr)
            right = mr.left - 6
        mx = right - 40
        note = draw.bill(40, 7)
        pile = min(p.money_pile, 10)
        for i in range(pile):
            surf.blit(note, (mx, oy + 100 - i * 5))
        if pile == 0:
            pygame.draw.rect(surf, (60, 80, 70), (mx, oy + 100, 40, 7), width=1, border_radius=2)
        # hand size, between the placards and the money
        cnt = draw.text(f"×{p.hand_count}", 24, TEXT, True)
        group = 44 + cnt.get_width()
        hx = max(x + 6, min(ox + r.width // 2 - group // 2, mx - 10 - group))
        back = draw.card_back(30, 42)
        for i in range(min(3, max(1, p.hand_count))):
            surf.blit(back, (hx + i * 6, oy + 54 - i * 2))
        surf.blit(cnt, (hx + 44, oy + 60))
        # LAN: a dropped player's seat (grace period running, or a bot standing in)
        pill = None
        if info.phone and info.status == "connected":  # a hand held on a phone
            pill = (tr("player.phone"), (120, 200, 150))
        elif info.status == "away":
            pill = (tr("player.away", s=info.grace or 0), WARN)
        elif info.status == "standing_in":
            pill = (tr("player.standing_in"), (150, 200, 230))
        if pill is not None:
            img = draw.fit(pill[0], 17, max(40, mx - ox - 44), (20, 20, 20), True)
            box = pygame.Rect(ox + 12, oy + 103, img.get_width() + 16, 24)
            pygame.draw.rect(surf, pill[1], box, border_radius=12)
            surf.blit(img, img.get_rect(center=box.center))
        return surf
