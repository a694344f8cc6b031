"""The pictures of the Rules scene, drawn with the game's own art (board spaces, card faces,
clan chips, crowns, bills, tiles, dice): each topic's picture is one small function
`picture(width) -> Surface`, so a picture always matches what the table shows."""

from __future__ import annotations

import math
from collections.abc import Callable

import pygame

from game.rules.board import DEFAULT_BOARD

from ..i18n import tr, tr_count, tr_names
from ..table.board import draw_space, marker_token
from ..table.layout import CELL_H, CELL_W
from ..table.sentences import clan_word
from . import cardart, draw
from .theme import GOLD, INK, PAPER, TEXT, TEXT_DIM, darken, seat_colour

CAPTION_PX = 22
SEATS = ("Ann", "Bea", "Cy", "Dan", "Eve")  # sample players (names, not sentences)
PRICE = 2  # the price of tile 1 ($M per dividend) in the sample deal


def _canvas(w: int, h: int) -> pygame.Surface:
    return pygame.Surface((w, h), pygame.SRCALPHA)


def _seat_chip(seat: int, size: int) -> pygame.Surface:
    """A player as the table shows them: their seat colour and initial."""
    surf = _canvas(size, size)
    col = seat_colour(seat)
    pygame.draw.circle(surf, darken(col, 0.4), (size // 2, size // 2), size // 2)
    pygame.draw.circle(surf, col, (size // 2, size // 2 - 1), size // 2 - 3)
    letter = draw.text(SEATS[seat][0], max(20, size // 2), INK, True)
    surf.blit(letter, letter.get_rect(center=(size // 2, size // 2)))
    return surf


def _arrow(surf, start, end, colour=GOLD, width=4) -> None:
    pygame.draw.line(surf, colour, start, end, width)
    ang = math.atan2(end[1] - start[1], end[0] - start[0])
    head = [
        end,
        (end[0] - 16 * math.cos(ang - 0.45), end[1] - 16 * math.sin(ang - 0.45)),
        (end[0] - 16 * math.cos(ang + 0.45), end[1] - 16 * math.sin(ang + 0.45)),
    ]
    pygame.draw.polygon(surf, colour, head)


def _pill(surf, label: str, center, fill, ink=INK, w: int = 150) -> None:
    """A button-like label (a picture of one, not a widget)."""
    r = pygame.Rect(0, 0, w, 44)
    r.center = center
    pygame.draw.rect(surf, darken(fill, 0.4), r.move(0, 3), border_radius=12)
    pygame.draw.rect(surf, fill, r, border_radius=12)
    img = draw.fit(label, CAPTION_PX, w - 16, ink, True)
    surf.blit(img, img.get_rect(center=r.center))


def _caption(surf, s: str, rect: pygame.Rect, colour=TEXT_DIM, align="center") -> int:
    return draw.blit_wrapped(surf, s, rect, CAPTION_PX, colour, align=align)


# --------------------------------------------------------------------------- the pictures


def goal(width: int) -> pygame.Surface:
    """The richest player wins: a crown over a pile of bills."""
    surf = _canvas(width, 170)
    cx = width // 2
    for i in range(5):
        b = draw.bill(120, 56)
        surf.blit(b, b.get_rect(center=(cx - 150 + i * 8, 120 - i * 9)))
    c = draw.crown(84)
    surf.blit(c, c.get_rect(center=(cx - 134, 40)))
    _caption(
        surf, tr("rules.pic.goal.caption"), pygame.Rect(cx - 40, 64, width // 2, 100), TEXT, "left"
    )
    return surf


def space(width: int) -> pygame.Surface:
    """Spaces 1 and 7 of the real board, twice the table's size, their rows labelled."""
    scale = 1.5
    sw, sh = int(CELL_W * scale), int(CELL_H * scale)
    half = width // 2
    surf = _canvas(width, sh + 110)
    board = DEFAULT_BOARD.to_data()
    for col, index in enumerate((0, 6)):
        sp = board["spaces"][index]
        cell = _canvas(CELL_W + 4, CELL_H + 4)
        draw_space(cell, pygame.Rect(0, 0, CELL_W, CELL_H), sp, index)
        big = pygame.transform.smoothscale(
            cell, (int(cell.get_width() * scale), int(cell.get_height() * scale))
        )
        x0 = col * half + 20
        surf.blit(big, (x0, 10))
        rows = [tr("rules.pic.required")] if sp["required"] else []
        rows += [tr("rules.pic.group", k=g["count"]) for g in sp["groups"]]
        top, bottom = 32, CELL_H - 24
        slot = (bottom - top) / max(1, len(rows))
        lx = x0 + sw + 40
        room = half - sw - 70
        for n, label in enumerate(rows):
            cy = 10 + int((top + slot * (n + 0.5)) * scale)
            _arrow(surf, (lx - 4, cy), (x0 + sw - 6, cy), GOLD, 3)
            img = draw.fit(label, CAPTION_PX, room - 10, GOLD, True)
            surf.blit(img, img.get_rect(midleft=(lx + 4, cy)))
        investors = len(sp["required"]) + sum(g["count"] for g in sp["groups"])
        line = " · ".join(
            (
                tr("space.tip.title", n=index + 1),
                tr_count("rules.pic.investors", investors),
                tr_count("rules.pic.dividends", sp["dividends"]),
            )
        )
        _caption(surf, line, pygame.Rect(x0, sh + 30, half - 40, 80), TEXT, "left")
    return surf


SETUP_PLACARDS = ((0, 4), (2, 5), (1, 3))  # 3 players, 2 placards each (clan indices)


def setup(width: int) -> pygame.Surface:
    """Three players, each with two placards, five hidden cards and no money."""
    col = 300
    surf = _canvas(width, 220)
    x0 = (width - col * len(SETUP_PLACARDS)) // 2
    for seat, clans in enumerate(SETUP_PLACARDS):
        x = x0 + seat * col
        surf.blit(_seat_chip(seat, 56), (x, 10))
        name = draw.text(SEATS[seat], 24, TEXT, True)
        surf.blit(name, name.get_rect(midleft=(x + 66, 38)))
        for k, clan in enumerate(clans):
            surf.blit(draw.clan_chip(clan, 50), (x + k * 58, 80))
        for k in range(5):
            surf.blit(cardart.small_back(34, 48), (x + 126 + k * 16, 81))
        money = draw.text(tr("money.amount", n=0), 24, GOLD, True)
        surf.blit(money, money.get_rect(midleft=(x + 66, 62 + 100)))
        surf.blit(draw.coin(30), (x + 26, 147))
    _caption(surf, tr("rules.pic.setup.caption"), pygame.Rect(20, 185, width - 40, 40), TEXT)
    return surf


TURN_SPACES = (3, 4, 5, 6, 7)  # spaces 4-8; space 6 is covered
TURN_COVERED = 5
TURN_ROLL = 3


def turn(width: int) -> pygame.Surface:
    """Roll 3 from space 4: the marker hops over free spaces only (covered space 6 is
    skipped, not counted) and lands on space 8; there, deal or draw 3 cards."""
    gap, top = 6, 70
    surf = _canvas(width, top + CELL_H + 20)
    board = DEFAULT_BOARD.to_data()
    centres = {}
    for n, index in enumerate(TURN_SPACES):
        r = pygame.Rect(n * (CELL_W + gap), top, CELL_W, CELL_H)
        covered = index == TURN_COVERED
        draw_space(surf, r, board["spaces"][index], index, dim=covered)
        if covered:
            tile = draw.tile_face(1, board["tiles"][0]["price"], r.width - 36, r.height - 26)
            surf.blit(tile, tile.get_rect(center=r.center))
        centres[index] = r.center
    free = [i for i in TURN_SPACES if i != TURN_COVERED][: TURN_ROLL + 1]
    for hop, (a, b) in enumerate(zip(free, free[1:], strict=False), start=1):
        (x1, _), (x2, _) = centres[a], centres[b]
        arc = pygame.Rect(x1, top - 40, x2 - x1, 80)
        pygame.draw.arc(surf, GOLD, arc, 0.15, math.pi - 0.15, 4)
        _arrow(surf, (x2 - 3, top - 16), (x2, top + 4), GOLD, 4)
        pygame.draw.circle(surf, GOLD, (arc.centerx, top - 40), 17)
        num = draw.text(str(hop), 20, INK, True)
        surf.blit(num, num.get_rect(center=(arc.centerx, top - 40)))
    token = marker_token(40)
    cx, cy = centres[free[-1]]
    surf.blit(token, token.get_rect(center=(cx + CELL_W // 2 - 30, cy + CELL_H // 2 - 26)))
    x = len(TURN_SPACES) * (CELL_W + gap) + 20
    room = width - x
    die = draw.die_face(TURN_ROLL, 44)
    surf.blit(die, die.get_rect(midleft=(8, top - 36)))
    pill_w = room - 10
    _pill(surf, tr("phrase.lets_make_a_deal"), (x + pill_w // 2, top + 20), GOLD, w=pill_w)
    _pill(surf, tr_count("action.draw", 3), (x + pill_w // 2, top + 90), PAPER, w=pill_w)
    return surf


CARD_KEYS = ("clan_red", "travel_blue", "boss", "recruit", "stop")
CARD_LINES = dict(zip(CARD_KEYS, ("clan", "travel", "boss", "recruit", "stop"), strict=True))


def cards(width: int) -> pygame.Surface:
    """The five card types side by side, one line each."""
    col = width // len(CARD_KEYS)
    h = cardart.CARD_H
    surf = _canvas(width, h + 120)
    for i, key in enumerate(CARD_KEYS):
        img = cardart.face(key)
        cx = i * col + col // 2
        surf.blit(img, img.get_rect(midtop=(cx, 6)))
        _caption(
            surf,
            tr(f"rules.pic.card.{CARD_LINES[key]}"),
            pygame.Rect(i * col + 8, h + 18, col - 16, 100),
        )
    return surf


def _deal_step(n: int, w: int, h: int) -> pygame.Surface:
    """One panel of the deal strip: its caption on top, its picture below."""
    surf = draw.panel_surface(w, h, alpha=255, shadow=False).copy()
    step = DEAL_STEPS[n]
    _caption(surf, tr(f"rules.pic.step.{step}"), pygame.Rect(10, 10, w - 20, 80), GOLD)
    body = pygame.Rect(0, 92, w, h - 92)
    amount = tr("money.amount", n=3 * PRICE)
    if step == "open":
        c = draw.crown(40)
        surf.blit(c, c.get_rect(midright=(body.centerx - 4, body.y + 28)))
        surf.blit(_seat_chip(0, 52), (body.centerx + 4, body.y + 2))
        _caption(surf, tr("phrase.lets_make_a_deal"), pygame.Rect(8, body.y + 70, w - 16, 80), TEXT)
    elif step == "offer":
        surf.blit(_seat_chip(1, 52), (body.centerx - 70, body.y + 10))
        surf.blit(draw.clan_chip(3, 46), (body.centerx + 20, body.y + 13))
        img = draw.fit(tr("rules.pic.step.offer_amount", amount=amount), 24, w - 20, TEXT, True)
        surf.blit(img, img.get_rect(midtop=(body.centerx, body.y + 80)))
    elif step == "accept":
        surf.blit(_seat_chip(0, 52), (body.centerx - 70, body.y + 10))
        surf.blit(draw.clan_chip(3, 46), (body.centerx + 20, body.y + 13))
        _pill(
            surf,
            f"✓ {tr('action.accept')}",
            (body.centerx, body.y + 100),
            (120, 200, 130),
            w=w - 30,
        )
    elif step == "going":
        c = draw.crown(48)
        surf.blit(c, c.get_rect(midtop=(body.centerx, body.y + 2)))
        _caption(surf, tr("phrase.going_once"), pygame.Rect(8, body.y + 54, w - 16, 80), TEXT)
    else:
        for i in range(3):
            b = draw.bill(90, 42)
            surf.blit(b, b.get_rect(center=(body.centerx - 10 + i * 8, body.y + 34 - i * 7)))
        _caption(surf, tr("rules.pic.step.pays", amount=amount), pygame.Rect(8, body.y + 70, w - 16, 80), TEXT)
    return surf


DEAL_STEPS = ("open", "offer", "accept", "going", "closed")


def deal(width: int) -> pygame.Surface:
    """Let's make a deal -> offer -> accept -> going once -> closed, as a strip of panels."""
    gap = 34
    w = (width - gap * (len(DEAL_STEPS) - 1)) // len(DEAL_STEPS)
    h = 270
    surf = _canvas(width, h + 10)
    for n in range(len(DEAL_STEPS)):
        x = n * (w + gap)
        surf.blit(_deal_step(n, w, h), (x, 0))
        if n:
            _arrow(surf, (x - gap + 6, h // 2), (x - 4, h // 2), GOLD, 4)
    return surf


def floor(width: int) -> pygame.Surface:
    """The floor going round the seats: coloured seat chips in a circle with arrows."""
    h = 360
    surf = _canvas(width, h)
    cx, cy, radius = 230, h // 2 + 4, 120
    n = len(SEATS)
    points = []
    for i in range(n):
        a = -math.pi / 2 + 2 * math.pi * i / n
        points.append((cx + radius * math.cos(a), cy + radius * math.sin(a)))
    for i in range(n):
        (x1, y1), (x2, y2) = points[i], points[(i + 1) % n]
        dx, dy = x2 - x1, y2 - y1
        d = math.hypot(dx, dy)
        _arrow(
            surf,
            (x1 + dx * 36 / d, y1 + dy * 36 / d),
            (x2 - dx * 40 / d, y2 - dy * 40 / d),
            GOLD,
            4,
        )
    for i, (x, y) in enumerate(points):
        if i == 2:
            draw.draw_glow(surf, pygame.Rect(int(x) - 30, int(y) - 30, 60, 60), radius=30)
        chip = _seat_chip(i, 60)
        surf.blit(chip, chip.get_rect(center=(int(x), int(y))))
    c = draw.crown(40)
    surf.blit(c, c.get_rect(midbottom=(int(points[0][0]), int(points[0][1]) - 30)))
    x2, y2 = points[2]
    tag = draw.fit(f"{SEATS[2]}: {tr('rules.pic.floor.has')}", CAPTION_PX, 220, GOLD, True)
    surf.blit(tag, tag.get_rect(midtop=(int(x2), int(y2) + 34)))
    right = pygame.Rect(cx + radius + 120, 60, width - cx - radius - 140, 220)
    used = _caption(surf, tr("rules.pic.floor.caption"), right, TEXT, "left")
    img = draw.fit(tr("table.pass_floor"), CAPTION_PX, 260, INK, True)
    _pill(
        surf,
        tr("table.pass_floor"),
        (right.x + 150, right.y + used + 40),
        PAPER,
        w=max(220, img.get_width() + 30),
    )
    return surf


def _banner(width: int, head: str, sub: str, bar: float | None, stop: bool) -> pygame.Surface:
    """A reaction window's banner as the table shows it: who did what, whose call it is,
    Stop!/Pass (a Stop answers only a card play), and (real time) the countdown bar."""
    h = 116 if bar is None else 160
    surf = draw.panel_surface(width, h, alpha=255, edge=GOLD, shadow=False).copy()
    t = draw.fit(head, 26, width - 400, GOLD, True)
    surf.blit(t, (24, 14))
    s = draw.fit(sub, CAPTION_PX, width - 400, TEXT)
    surf.blit(s, (24, 64))
    if stop:
        _pill(surf, tr("card.stop"), (width - 290, 50), (230, 110, 100))
    _pill(surf, tr("action.pass"), (width - 110, 50), PAPER)
    if bar is not None:
        track = pygame.Rect(24, 126, width - 48, 16)
        pygame.draw.rect(surf, (50, 70, 60), track, border_radius=8)
        pygame.draw.rect(
            surf, GOLD, (track.x, track.y, int(track.width * bar), 16), border_radius=8
        )
        left = draw.text(tr("window.countdown", s=2), CAPTION_PX, TEXT, True)
        surf.blit(left, left.get_rect(bottomright=(track.right, track.y - 4)))
    return surf


def windows(width: int) -> pygame.Surface:
    """Two reaction windows in ask-around mode: a Travel, then "Going once"."""
    w = width - 40
    target = clan_word(1)  # 'S Sacks', as the table names it
    travel = tr("window.travel", name=SEATS[0], target=target)
    first = _banner(w, travel, _asking(SEATS[1], "window.your_call"), None, True)
    going = tr("window.going_once", name=SEATS[0])
    second = _banner(w, going, _asking(SEATS[2], "window.your_call_close"), None, False)
    surf = _canvas(width, first.get_height() + second.get_height() + 90)
    surf.blit(first, (20, 0))
    surf.blit(second, (20, first.get_height() + 20))
    _caption(
        surf,
        tr("rules.pic.window.caption"),
        pygame.Rect(20, first.get_height() + second.get_height() + 40, w, 50),
        TEXT,
    )
    return surf


def _asking(name: str, question: str) -> str:
    return f"{tr_names('window.asking', [name])} · {tr(question)}"


def realtime(width: int) -> pygame.Surface:
    """The real-time window: everyone at once, with a countdown bar."""
    w = width - 40
    going = tr("window.going_once", name=SEATS[0])
    banner = _banner(w, going, tr("window.your_call_close"), 0.6, False)
    surf = _canvas(width, banner.get_height() + 70)
    surf.blit(banner, (20, 0))
    _caption(
        surf,
        tr("rules.pic.realtime.caption"),
        pygame.Rect(20, banner.get_height() + 18, w, 50),
        TEXT,
    )
    return surf


def after(width: int) -> pygame.Surface:
    """A closed deal's space covered by the top tile, the marker moving on; a failed
    deal's space still open."""
    board = DEFAULT_BOARD.to_data()
    half = width // 2
    surf = _canvas(width, CELL_H + 120)
    top = 10
    closed = pygame.Rect(20, top, CELL_W, CELL_H)
    draw_space(surf, closed, board["spaces"][3], 3, dim=True)
    tile = draw.tile_face(1, board["tiles"][0]["price"], CELL_W - 36, CELL_H - 26)
    surf.blit(tile, tile.get_rect(center=closed.center))
    nxt = closed.move(CELL_W + 60, 0)
    draw_space(surf, nxt, board["spaces"][4], 4)
    _arrow(surf, (closed.right + 6, closed.centery), (nxt.x - 6, closed.centery), GOLD, 4)
    token = marker_token(40)
    surf.blit(token, token.get_rect(center=(nxt.right - 30, nxt.bottom - 26)))
    failed = pygame.Rect(half + 20, top, CELL_W, CELL_H)
    draw_space(surf, failed, board["spaces"][6], 6)
    room = pygame.Rect(20, top + CELL_H + 16, half - 40, 100)
    _caption(surf, tr("rules.pic.after.closed"), room, TEXT, "left")
    _caption(surf, tr("rules.pic.after.failed"), room.move(half, 0), TEXT, "left")
    return surf


END_TILES = (10, 11, 12, 13, 14)


def end(width: int) -> pygame.Surface:
    """Tiles 10-14, each over the die faces that end the game after it."""
    surf = _canvas(width, 250)
    tiles = DEFAULT_BOARD.to_data()["tiles"]
    col = 170
    x0 = (width - col * len(END_TILES)) // 2
    for i, number in enumerate(END_TILES):
        cx = x0 + i * col + col // 2
        tile = draw.tile_face(number, tiles[number - 1]["price"], 110, 80)
        surf.blit(tile, tile.get_rect(midtop=(cx, 4)))
        faces = tiles[number - 1]["end_faces"]
        size = 28
        for j, f in enumerate(faces):
            row, k = divmod(j, 3)
            die = draw.die_face(f, size)
            across = min(3, len(faces) - row * 3)
            fx = cx - (across * (size + 4) - 4) // 2 + k * (size + 4)
            surf.blit(die, (fx, 100 + row * (size + 6)))
    _caption(surf, tr("rules.pic.end.caption"), pygame.Rect(20, 180, width - 40, 60), TEXT)
    return surf


#: topic -> its picture (topics not listed are text only)
PICTURES: dict[str, Callable[[int], pygame.Surface]] = {
    "goal": goal,
    "setup": setup,
    "turn": turn,
    "space": space,
    "cards": cards,
    "deal": deal,
    "floor": floor,
    "windows": windows,
    "realtime": realtime,
    "after": after,
    "end": end,
}
