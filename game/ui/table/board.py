"""The board: a ring of 16 deal spaces drawn procedurally, the tile stack, the die, the
piles and the pool in the middle. The felt, the ring and every space are drawn once into a
background layer that is rebuilt only when a tile is placed or the look changes.
"""

from __future__ import annotations

import random
from functools import lru_cache

import pygame

from game.rules.seat_view import SeatView

from ..drawing import cardart, draw
from ..drawing.theme import (
    CLAN_KEYS,
    FELT,
    FELT_DARK,
    GOLD,
    INK,
    PAPER,
    TEXT,
    TEXT_DIM,
    THEME,
    WOOD,
    WOOD_DARK,
    darken,
    lighten,
)
from ..i18n import list_of, tr, tr_count
from . import layout as L
from .sentences import clan_word  # 'S Sacks', as the log, the editor and the coach name it


@lru_cache(maxsize=2)
def felt(size=(L.W, L.H)) -> pygame.Surface:
    """Green baize with a soft vignette, made from a small noise tile scaled up (fast)."""
    rng = random.Random(7)
    sw, sh = 192, 108
    small = pygame.Surface((sw, sh))
    for y in range(sh):
        for x in range(sw):
            n = rng.randint(-7, 7)
            # a gentle light in the middle of the table
            dx, dy = (x - sw * 0.45) / sw, (y - sh * 0.45) / sh
            v = 1.0 - min(1.0, (dx * dx + dy * dy) * 1.6)
            small.set_at(
                (x, y),
                (
                    max(0, min(255, int(FELT_DARK[0] + (FELT[0] - FELT_DARK[0]) * v) + n)),
                    max(0, min(255, int(FELT_DARK[1] + (FELT[1] - FELT_DARK[1]) * v) + n)),
                    max(0, min(255, int(FELT_DARK[2] + (FELT[2] - FELT_DARK[2]) * v) + n)),
                ),
            )
    return pygame.transform.smoothscale(small, size).convert()


def space_rules_text(board: dict, index: int, price: int) -> str:
    """The tooltip of a space: what it needs and what it pays."""
    sp = board["spaces"][index]
    parts = []
    if sp["required"]:
        parts.append(
            tr("space.tip.required", clans=list_of(clan_word(k) for k in sp["required"]))
        )
    for g in sp["groups"]:
        parts.append(
            tr("space.tip.group", k=g["count"], clans=list_of(clan_word(k) for k in g["clans"]))
        )
    inv = len(sp["required"]) + sum(g["count"] for g in sp["groups"])
    head = tr("space.tip.title", n=index + 1)
    body = "\n".join("• " + p for p in parts)
    tail = tr(
        "space.tip.pays",
        investors=tr_count("rules.pic.investors", inv),
        dividends=tr_count("rules.pic.dividends", sp["dividends"]),
        price=tr("money.amount", n=price),
        total=tr("money.amount", n=sp["dividends"] * price),
    )
    return f"{head}\n{body}\n{tail}"


class BoardRenderer:
    def __init__(self) -> None:
        self._layer: pygame.Surface | None = None
        self._layer_key = None
        self._center: pygame.Surface | None = None
        self._center_key = None
        self.hidden_tiles: set[int] = set()  # spaces whose tile is still flying there

    # -- the static layer ---------------------------------------------------------------

    def layer(self, v: SeatView) -> pygame.Surface:
        covered = tuple(sorted((k, t) for k, t in v.covered.items() if k not in self.hidden_tiles))
        key = (covered, v.board_id, THEME.epoch)
        if key != self._layer_key:
            self._layer = self._build(v, dict(covered))
            self._layer_key = key
        return self._layer

    def _build(self, v: SeatView, covered: dict[int, int]) -> pygame.Surface:
        surf = draw.copy_of(felt())
        frame = L.BOARD.inflate(20, 20)
        pygame.draw.rect(surf, (0, 0, 0), frame.move(4, 6), border_radius=26)
        pygame.draw.rect(surf, WOOD_DARK, frame, border_radius=26)
        pygame.draw.rect(surf, WOOD, frame.inflate(-6, -6), border_radius=23)
        for i in range(0, frame.height - 12, 7):  # wood grain
            y = frame.y + 6 + i
            pygame.draw.line(
                surf,
                lighten(WOOD, 0.06) if i % 14 else darken(WOOD, 0.05),
                (frame.x + 8, y),
                (frame.right - 8, y),
                1,
            )
        inner = L.CENTER.inflate(10, 10)
        pygame.draw.rect(surf, darken(FELT, 0.25), inner, border_radius=18)
        pygame.draw.rect(surf, FELT, inner.inflate(-6, -6), border_radius=16)
        board = v.board.to_data()  # what draw_space reads (cached by the board)
        tiles = board["tiles"]
        for i in range(16):
            r = L.SPACES[i]
            if i in covered:
                t = covered[i]
                draw_space(surf, r, board["spaces"][i], i, dim=True)
                self.lay_tile(surf, r, t, tiles[t - 1]["price"])
            else:
                draw_space(surf, r, board["spaces"][i], i)
        return surf

    def lay_tile(self, surf, space: pygame.Rect, tile: int, price: int) -> None:
        """Tile number `tile` laid on its space (drawn dim first): it hides its words."""
        img = draw.tile_face(tile, price, space.width - 36, space.height - 26)
        surf.blit(img, img.get_rect(center=space.center))

    # -- the middle of the board -------------------------------------------------------------

    def center(self, v: SeatView) -> pygame.Surface:
        neg = v.negotiation
        marker = v.marker
        sp = v.board.spaces[marker] if marker is not None else None
        key = (
            v.tiles,
            v.price,
            marker,
            neg.proceeds if neg else None,
            v.draw_pile,
            v.discard_top,
            sum(v.discard_pile),
            v.pool,
            v.deals_closed,
            v.deals_failed,
            THEME.epoch,
        )
        if key != self._center_key:
            self._center = self._build_center(v, sp, neg)
            self._center_key = key
        return self._center

    def _build_center(self, v: SeatView, sp, neg) -> pygame.Surface:
        area = L.CENTER
        surf = pygame.Surface(area.size, pygame.SRCALPHA)
        ox, oy = area.x, area.y
        # tile stack
        tiles = v.tiles
        tx, ty = L.TILE_STACK[0] - ox, L.TILE_STACK[1] - oy
        tw, th = 120, 92
        for i in range(min(len(tiles), 14) - 1, 0, -1):
            back = pygame.Rect(0, 0, tw, th)
            back.center = (tx + i * 2, ty + i * 2)
            pygame.draw.rect(surf, darken(PAPER, 0.35 + 0.01 * i), back, border_radius=10)
            pygame.draw.rect(surf, darken(PAPER, 0.55), back, width=1, border_radius=10)
        if tiles:
            top = tiles[0]
            img = draw.tile_face(top, v.board.tile(top).price, tw, th)
            surf.blit(img, img.get_rect(center=(tx, ty)))
        lab = draw.fit(tr_count("center.tiles_left", len(tiles)), 20, 170, TEXT_DIM)
        surf.blit(lab, lab.get_rect(midtop=(tx + 10, ty + th // 2 + 34)))
        # deal value of the marker's space (or of the open deal)
        box = L.DEAL_VALUE.move(-ox, -oy)
        pygame.draw.rect(surf, (8, 36, 26, 200), box, border_radius=14)
        pygame.draw.rect(surf, (90, 140, 110), box, width=2, border_radius=14)
        head = draw.fit(tr("term.deal_value"), 20, box.width - 16, TEXT_DIM)
        surf.blit(head, head.get_rect(midtop=(box.centerx, box.y + 10)))
        if neg is not None:
            total, div = neg.proceeds, neg.proceeds // max(1, neg.price)
            price = neg.price
        elif sp is not None:
            div, price = sp.dividends, v.price
            total = div * price
        else:
            div = price = total = None  # the marker is not placed yet
        if total is None:
            big = draw.text("—", 50, GOLD, True)
            surf.blit(big, big.get_rect(center=(box.centerx, box.y + 76)))
        else:
            sub = draw.fit(f"{div} × {tr('money.amount', n=price)}", 22, box.width - 16, TEXT)
            at = sub.get_rect(midbottom=(box.centerx, box.bottom - 10))
            sub_ink = at.y + sub.get_bounding_rect().y
            head_ink = box.y + 10 + head.get_bounding_rect().bottom
            # the sum as large as the room between the heading and the line under it allows
            # (a tall face at Large text on a TV would reach into the line)
            size = 50
            big = draw.fit(tr("money.amount", n=total), size, box.width - 16, GOLD, True)
            while size > 30 and big.get_bounding_rect().height > sub_ink - 3 - (head_ink + 2):
                size -= 2
                big = draw.fit(tr("money.amount", n=total), size, box.width - 16, GOLD, True)
            big_at = big.get_rect(center=(box.centerx, box.y + 76))
            ink = big.get_bounding_rect()  # between the heading's ink and the line under it
            big_at.y = max(head_ink + 2 - ink.y, min(big_at.y, sub_ink - 3 - ink.bottom))
            surf.blit(big, big_at)
            surf.blit(sub, at)
        # piles
        dx, dy = L.DECK[0] - ox, L.DECK[1] - oy
        back = draw.card_back(64, 90)
        for i in range(min(5, max(1, v.draw_pile // 12)) - 1, -1, -1):
            surf.blit(back, back.get_rect(center=(dx + i * 2, dy - i * 2)))
        # the piles' labels meet between the piles, each reaching outward (they are wider
        # than the piles are apart)
        mid = (L.DECK[0] + L.DISCARD[0]) // 2 - ox
        lab = draw.fit(tr("center.draw_pile", n=v.draw_pile), 18, 150, TEXT_DIM)
        ddx, ddy = L.DISCARD[0] - ox, L.DISCARD[1] - oy
        ndisc = sum(v.discard_pile)
        if v.discard_top is not None:
            img = cardart.face(v.discard_top.key, 64, 90)
            surf.blit(img, img.get_rect(center=(ddx, ddy)))
        else:
            slot = pygame.Rect(0, 0, 64, 90)
            slot.center = (ddx, ddy)
            pygame.draw.rect(surf, (255, 255, 255, 40), slot, width=2, border_radius=8)
        # (up to the board's edge: the display's floor at Large text makes the words wide)
        disc = draw.fit(tr("center.discard_pile", n=ndisc), 18, min(150, area.width - mid - 10), TEXT_DIM)
        deals = draw.fit(
            tr("center.deals", closed=v.deals_closed, failed=v.deals_failed),
            18,
            area.width - 220,
            TEXT_DIM,
        )
        # the piles' labels under the piles, the deals so far under them: where both lines
        # do not fit (Large text, Chinese faces) the labels rise, their ink still under the
        # cards (45 px below the piles' centre)
        inks = [lab.get_bounding_rect(), disc.get_bounding_rect()]
        low = max(i.bottom for i in inks)
        need = dy + 52 + low + 2 + deals.get_bounding_rect().height - (area.height - 1)
        lift = max(0, min(need, 52 - 47 + min(i.top for i in inks)))
        surf.blit(lab, lab.get_rect(topright=(mid - 6, dy + 52 - lift)))
        surf.blit(disc, disc.get_rect(topleft=(mid + 6, ddy + 52 - lift)))
        piles_ink = dy + 52 - lift + low  # "pile" reaches lowest at Large text
        # pool
        px, py = 30, 270
        lab = draw.fit(tr("term.pool"), 20, 170, TEXT_DIM)
        surf.blit(lab, (px, py))
        x = px
        for c in v.pool:
            surf.blit(draw.clan_chip(c, 40), (x, py + 30))
            x += 46
        if not v.pool:
            dash = draw.text("—", 24, TEXT_DIM)
            surf.blit(dash, (px, py + 34))
        # deals so far: along the bottom, under the piles (clear of the deal-value box)
        at = deals.get_rect(bottomright=(area.width - 14, area.height - 3))
        # Thai marks, and the draw pile's descenders at Large text, clear of the piles' words
        at.y = max(at.y, piles_ink + 2 - deals.get_bounding_rect().top)
        surf.blit(deals, at)
        return surf

    # -- pieces drawn every frame -----------------------------------------------------------

    def marker_pos(self, space: float) -> tuple[float, float]:
        """A point along the ring for a (fractional) space index: the marker glides. It
        stands in the space's header between the number and the dividends, half over the
        space's top edge, clear of the first row of required clans."""
        i = int(space) % 16
        f = space - int(space)
        a = L.SPACES[i]
        b = L.SPACES[(i + 1) % 16]
        ax, ay = a.x + 64, a.y + MARKER_DY
        bx, by = b.x + 64, b.y + MARKER_DY
        return ax + (bx - ax) * f, ay + (by - ay) * f


def draw_space(surf, r: pygame.Rect, sp: dict, index: int, dim: bool = False) -> None:
    """One board space (its number, dividends, required clans and "k of" groups) into r;
    the Rules scene draws real spaces with it."""
    pygame.draw.rect(surf, (0, 0, 0, 120), r.move(2, 3), border_radius=12)
    pygame.draw.rect(surf, darken(PAPER, 0.3), r, border_radius=12)
    pygame.draw.rect(
        surf, PAPER if not dim else darken(PAPER, 0.35), r.inflate(-4, -4), border_radius=11
    )
    # header: space number, dividends
    num = draw.text(str(index + 1), 20, (150, 130, 100), True)
    surf.blit(num, (r.x + 10, r.y + 5))
    c = draw.coin(22)
    div = draw.text(f"×{sp['dividends']}", 22, (110, 80, 20), True)
    surf.blit(div, div.get_rect(topright=(r.right - 10, r.y + 4)))
    surf.blit(
        c,
        c.get_rect(midright=(r.right - 14 - div.get_width(), r.y + 4 + div.get_height() // 2)),
    )
    rows: list[tuple[str, list[int], int]] = []
    if sp["required"]:
        rows.append(("req", [CLAN_KEYS.index(k) for k in sp["required"]], 0))
    for g in sp["groups"]:
        rows.append(("grp", [CLAN_KEYS.index(k) for k in g["clans"]], g["count"]))
    need = L.requirement_rect(r)
    top, bottom = need.top, need.bottom
    slot = (bottom - top) / max(1, len(rows))
    for n, (kind, clans, k) in enumerate(rows):
        cy = int(top + slot * (n + 0.5))
        if kind == "req":
            size = 34 if len(rows) < 3 else 28
            gap = 5
            total = len(clans) * size + (len(clans) - 1) * gap
            x = r.centerx - total // 2
            for cl in clans:
                surf.blit(draw.clan_chip(cl, size), (x, cy - size // 2))
                x += size + gap
        else:
            gap = 2
            label = draw.text(f"{k}×", 20, INK, True)
            room = r.width - 24 - label.get_width() - 6
            size = min(25, (room - (len(clans) - 1) * gap) // len(clans))
            total = label.get_width() + 6 + len(clans) * size + (len(clans) - 1) * gap
            x = r.centerx - total // 2
            box = pygame.Rect(x - 6, cy - size // 2 - 4, total + 12, size + 8)
            pygame.draw.rect(surf, (222, 212, 188), box, border_radius=8)
            pygame.draw.rect(surf, (180, 166, 136), box, width=1, border_radius=8)
            surf.blit(label, label.get_rect(midleft=(x, cy)))
            x += label.get_width() + 6
            for cl in clans:
                surf.blit(draw.clan_chip(cl, size), (x, cy - size // 2))
                x += size + gap
    inv = len(sp["required"]) + sum(g["count"] for g in sp["groups"])
    x = r.x + 10
    for _ in range(inv):
        _person(surf, x, r.bottom - 20, (120, 100, 70))
        x += 13
    if dim:
        veil = pygame.Surface(r.size, pygame.SRCALPHA)
        pygame.draw.rect(veil, (40, 30, 20, 120), veil.get_rect(), border_radius=12)
        surf.blit(veil, r.topleft)


def _person(surf, x: int, y: int, colour) -> None:
    pygame.draw.circle(surf, colour, (x + 5, y + 3), 4)
    pygame.draw.rect(surf, colour, (x, y + 7, 10, 9), border_radius=4)


MARKER_PX = 40  # the dollar marker's diameter on the board
MARKER_DY = 7  # its centre below a space's top edge (the chips' first row starts at 30)


@lru_cache(maxsize=4)
def marker_token(size: int = MARKER_PX) -> pygame.Surface:
    surf = pygame.Surface((size + 8, size + 10), pygame.SRCALPHA)
    c = size // 2 + 4
    pygame.draw.circle(surf, (0, 0, 0, 110), (c + 2, c + 5), size // 2)
    pygame.draw.circle(surf, (120, 84, 10), (c, c + 2), size // 2)
    pygame.draw.circle(surf, GOLD, (c, c), size // 2 - 1)
    pygame.draw.circle(surf, lighten(GOLD, 0.45), (c, c), size // 2 - 6, width=3)
    img = draw.fonts.render_text("$", "en", int(size * 0.64), (110, 70, 10), True)
    surf.blit(img, img.get_rect(center=(c, c)))
    return surf
