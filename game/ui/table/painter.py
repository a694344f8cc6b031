"""The table's picture, in layers: a cached base (felt, board, plates, panel, log, the
settled fan) composed into one opaque surface, then what changes with time or the pointer
(glows of placeable spaces and Travel targets, the marker, the die, the hand in motion,
the card's pop-up, the hint, the history, sprites and bubbles, the toast, the session's
notice), and the list of time-only changes the frame loop redraws (`pulses`).

It reads the table's parts (board, plates, panel, hand, log, director, hints, popup,
session) and draws them; it changes none of them.
"""

from __future__ import annotations

import pygame

from game.rules import PlaceMarker

from ..drawing import draw
from ..drawing.theme import GOLD, TEXT, WARN
from ..i18n import tr
from . import hand as hand_mod
from . import layout as L
from .hints import HINT_PULSE
from .panel import TARGET_PULSE
from .panels.window import countdown_area, countdown_look
from .players import RING_RADIUS, RING_WIDTH
from .pointer import space_at

OWN_TARGET = (240, 130, 90)  # the glow of a Travel target that is the viewer's own
PLACE_PULSE = draw.Pulse(100, 155)  # where the marker can go
NOTICE_PULSE = draw.Pulse(150, 90, 1.2)  # the edge of the session's notice
LOSS_W, LOSS_PAD, LOSS_PX = 860, 18, 24  # the notice of a loss, over the board's foot
PLACE_RADIUS, PLACE_SPREAD = 12, 8  # a placeable space's glow
TARGET_RADIUS, TARGET_SPREAD = 8, 8  # a Travel target's glow (panel.py draws a laid card's)


class TablePainter:
    """Draws the table scene; `base_key` names the cached base layer now shown."""

    def __init__(self, table) -> None:
        self.table = table
        self.base_key = None
        self._base: pygame.Surface | None = None
        self._base_parts: list = []
        self._fan_in_base = False

    def highlights(self) -> dict[int, str]:
        """Whom the table waits for: the seats asked in a window, the floor, or the turn."""
        v = self.table.seen
        out = {}
        win, neg = v.window, v.negotiation
        if win is not None:
            for s in win.asked:
                out[s] = "asked"
        elif neg is not None:
            if neg.floor is not None:
                out[neg.floor] = "floor"
        elif not v.over:
            out[v.turn] = "turn"
        return out

    def pulses(self) -> list[tuple[object, pygame.Rect]]:
        """Where draw() paints something that changes with time alone, and how it looks now:
        the ring round whoever the table waits for, the glows of placeable spaces, Travel
        targets and the coach's hint (their glow levels), the notice's edge, countdowns."""
        tab = self.table
        t = tab.t
        # each rect just what its drawing paints: the strips of the ring's outline and of a
        # glow's rings (draw.band; their insides never change), so that the loop copies and
        # shows a third of the pixels, and no glow seems reached by the ring's colour, which
        # seldom repeats (patches.py)
        out = [
            (colour, strip)
            for colour, r in tab.plates.rings(t, self.highlights()).values()
            for strip in draw.band(r, RING_WIDTH, RING_RADIUS)
        ]
        level = PLACE_PULSE.level(t)
        out += [
            (level, strip)
            for a in tab.legal.fixed
            if isinstance(a, PlaceMarker)
            for strip in draw.glow_band(L.SPACES[a.space], PLACE_RADIUS, PLACE_SPREAD)
        ]
        level = TARGET_PULSE.level(t)
        for kind, ref in tab.popup.travel_targets():
            r = (tab.plates.placard_rects if kind == "placard" else tab.panel.card_rects).get(ref)
            if r is not None:
                out += [(level, strip) for strip in draw.glow_band(r, TARGET_RADIUS, TARGET_SPREAD)]
        if tab.hints.text() is not None:
            target = tab.hints.target_rect()
            if target is not None:
                out.append((HINT_PULSE.level(t), target.inflate(2 * 16 + 4, 2 * 16 + 4)))
        notice = self.notice_text()
        if notice:
            out.append((NOTICE_PULSE.alpha(t), self._notice_rect(notice).inflate(4, 4)))
        out += [(countdown_look(cd), countdown_area(cd.kind)) for cd in tab.session.countdowns()]
        return out

    def base_layer(self) -> pygame.Surface:
        """Everything that changes only with the view, composed into one opaque surface:
        felt, ring, spaces, the middle of the board, player plates, the panel, the log.
        Rebuilt when one of its (cached) parts is a new surface; a frame then starts with
        a single blit. Worked out once while the loop draws one picture (`Scene.memo`)."""
        tab = self.table
        memo = tab.memo
        if memo is not None and "base" in memo:
            return memo["base"]
        seen = tab.seen
        parts = [(tab.board.layer(seen), (0, 0)), (tab.board.center(seen), L.CENTER.topleft)]
        parts += tab.plates.surfaces(seen, tab.session)
        parts.append(tab.panel.static(seen, tab.addressed))
        parts.append(tab.log.surface(L.LOG))
        fan = tab.hand.settled_fan() if tab.session.viewer is not None else None
        self._fan_in_base = fan is not None
        if fan is not None:
            parts.append((fan, hand_mod.FAN_AREA.topleft))
        neg = seen.negotiation
        key = (tuple(id(p[0]) for p in parts), None if neg is None else neg.space)
        if key != self.base_key:
            base = draw.copy_of(parts[0][0])
            base.blit(parts[1][0], parts[1][1])
            if neg is not None:
                draw.draw_glow(
                    base, L.SPACES[neg.space], (120, 230, 140), radius=12, spread=10, alpha=200
                )
            for img, pos in parts[2:]:
                base.blit(img, pos)
            self._base = base
            self.base_key = key
            self._base_parts = parts  # keeps the parts alive, so their ids stay unique
        if memo is not None:
            memo["base"] = self._base
        return self._base

    def draw(self, surface) -> None:
        tab = self.table
        t = tab.t
        surface.blit(self.base_layer(), (0, 0))
        clip = surface.get_clip()
        alpha = PLACE_PULSE.alpha(t)
        for a in tab.legal.fixed:  # placeable spaces glow (a part redrawn: those reaching it)
            if isinstance(a, PlaceMarker) and L.SPACES[a.space].inflate(2 * PLACE_SPREAD, 2 * PLACE_SPREAD).colliderect(clip):
                draw.draw_glow(
                    surface,
                    L.SPACES[a.space],
                    GOLD,
                    radius=PLACE_RADIUS,
                    spread=PLACE_SPREAD,
                    alpha=alpha,
                )
        hover_space = space_at(tab.mouse)
        if hover_space is not None:
            pygame.draw.rect(
                surface, (255, 255, 255), L.SPACES[hover_space], width=2, border_radius=12
            )
        tab.director.draw_marker(surface, tab.board, tab.seen.marker)
        tab.director.draw_die(surface, tab.seen.last_roll)
        tab.plates.draw_highlights(surface, t, self.highlights())
        targets = tab.popup.travel_targets()
        own = {tg for tg in targets if tab.popup.own_target(tg)}
        for kind, ref in targets:
            if kind == "placard" and ref in tab.plates.placard_rects:
                draw.draw_glow(
                    surface,
                    tab.plates.placard_rects[ref],
                    OWN_TARGET if (kind, ref) in own else GOLD,
                    radius=TARGET_RADIUS,
                    spread=TARGET_SPREAD,
                    alpha=TARGET_PULSE.alpha(t),
                )
        tab.panel.draw_live(surface, tab.seen, tab.session, t, set(targets) - own)
        self._mark_own_targets(surface, own, t)
        if tab.session.viewer is not None:
            if not self._fan_in_base:
                tab.hand.draw(surface)
            if not tab.hand.cards:
                msg = draw.text(tr("table.empty_hand"), 24, (150, 170, 160))
                surface.blit(msg, msg.get_rect(center=L.HAND.center))
        else:
            tab._draw_public_hand_note(surface)  # the display's hook
        for b in tab.open_card_buttons():
            b.draw(surface, t)
        tab.hints.draw(surface, t)  # over the hand: a suggested card glows on top
        tab.log.draw_history(surface)
        for b in tab.log_buttons:
            b.draw(surface, t)
        tab.director.draw(surface)
        tab.director.draw_bubbles(surface, tab.seat_anchor, tab.plates.rects.__getitem__)
        if tab.toast is not None and tab.toast[2] == "loss":
            self._draw_loss(surface, tab.toast[0])
        elif tab.toast is not None:
            self._draw_toast(surface, tab.toast[0], tab.toast[2])
        if tab.host_away.buttons:
            tab.host_away.draw(surface, t)  # its title says what the notice would
        else:
            self._draw_notice(surface)

    def _draw_toast(self, surface, text: str, kind: str) -> None:
        """A short notice over the board, above the hand, on two lines where one is too
        wide: centred on the window it lay across the panel's phrase buttons."""
        room = L.BOARD.width - 60
        width = min(room, draw.text_width(text, 26, True))
        h = draw.wrapped_height(text, 26, width, True)
        r = pygame.Rect(0, 0, width, h).inflate(40, 20)
        r.center = (L.BOARD.centerx, L.HAND.y - 20 - r.height // 2)
        fill = (120, 40, 36) if kind == "error" else (30, 84, 64)
        draw.draw_panel(surface, r, fill=fill, alpha=240)
        draw.blit_wrapped(surface, text, r.inflate(-40, -20), 26, TEXT, True, align="center")

    def _draw_loss(self, surface, text: str) -> None:
        """Something of the viewer's was taken (losses.py): the sentences that say who did
        what and what it means, wrapped in a notice above the hand, in the warning colour."""
        width = LOSS_W - 2 * LOSS_PAD
        h = draw.wrapped_height(text, LOSS_PX, width, True)
        r = pygame.Rect(0, 0, LOSS_W, h + 2 * LOSS_PAD)
        r.midbottom = (L.BOARD.centerx, L.HAND.y - 16)
        draw.draw_panel(surface, r, fill=(96, 52, 20), edge=WARN, alpha=245)
        draw.blit_wrapped(surface, text, r.inflate(-2 * LOSS_PAD, -2 * LOSS_PAD), LOSS_PX,
                          TEXT, True, align="center")  # fmt: skip

    def _mark_own_targets(self, surface, own: set, t: float) -> None:
        """The viewer's own placards and laid cards among Travel targets: another glow and
        a "yours" tag (aiming there asks first)."""
        tab = self.table
        tag = draw.text(tr("table.travel_own_tag"), 16, OWN_TARGET, True)
        for kind, ref in own:
            r = (tab.plates.placard_rects if kind == "placard" else tab.panel.card_rects).get(ref)
            if r is None:
                continue
            if kind == "card":
                draw.draw_glow(
                    surface,
                    r,
                    OWN_TARGET,
                    radius=TARGET_RADIUS,
                    spread=TARGET_SPREAD,
                    alpha=TARGET_PULSE.alpha(t),
                )
            if kind == "card":  # the owner's name is under a laid card: the tag goes above
                surface.blit(tag, tag.get_rect(midbottom=(r.centerx, r.top - 2)))
            else:
                surface.blit(tag, tag.get_rect(midtop=(r.centerx, r.bottom + 2)))

    def notice_text(self) -> str | None:
        return self.table.session.notice()

    def _notice_rect(self, text: str) -> pygame.Rect:
        img = draw.fit(text, 30, L.CENTER.width - 60, TEXT, True)
        return img.get_rect(midtop=(L.CENTER.centerx, L.CENTER.y + 12)).inflate(56, 26)

    def _draw_notice(self, surface) -> None:
        """The session's line over the board (LAN: "Reconnecting…")."""
        text = self.notice_text()
        if not text:
            return
        img = draw.fit(text, 30, L.CENTER.width - 60, TEXT, True)
        r = self._notice_rect(text)
        glow = NOTICE_PULSE.alpha(self.table.t)
        draw.draw_panel(surface, r, fill=(120, 84, 20), alpha=240, radius=16)
        pygame.draw.rect(surface, (glow, glow, 120), r, width=3, border_radius=16)
        surface.blit(img, img.get_rect(center=r.center))
