"""Where everything sits on the 1920x1080 logical table."""

from __future__ import annotations

import pygame

W, H = 1920, 1080
MARGIN = 16

PLAYERS = pygame.Rect(MARGIN, 10, W - 2 * MARGIN, 132)
BOARD = pygame.Rect(MARGIN, 154, 884, 684)
# the negotiation panel stops short of the bottom row so the log below it has room
RIGHT = pygame.Rect(916, 154, W - 916 - MARGIN, 658)
HAND = pygame.Rect(MARGIN, 850, 1264, 222)
# the log reaches higher and a little lower than the hand: 12 lines of 18 px at 1920x1080
LOG = pygame.Rect(1296, RIGHT.bottom + 8, W - 1296 - MARGIN, H - 4 - RIGHT.bottom - 8)
# the full-height history opens over the board (the negotiation panel stays usable)
LOG_FULL = pygame.Rect(BOARD.x, BOARD.y, BOARD.width, LOG.bottom - BOARD.y)

CELL_W, CELL_H, GAP = 172, 132, 6
CENTER = pygame.Rect(
    BOARD.x + CELL_W + GAP,
    BOARD.y + CELL_H + GAP,
    5 * CELL_W + 4 * GAP - 2 * (CELL_W + GAP),
    5 * CELL_H + 4 * GAP - 2 * (CELL_H + GAP),
)


def _ring_cells() -> list[tuple[int, int]]:
    """(column, row) of spaces 0..15 clockwise from the top-left corner."""
    cells = [(c, 0) for c in range(5)]
    cells += [(4, r) for r in range(1, 4)]
    cells += [(c, 4) for c in range(4, -1, -1)]
    cells += [(0, r) for r in range(3, 0, -1)]
    return cells


RING = _ring_cells()


def space_rect(i: int) -> pygame.Rect:
    c, r = RING[i % 16]
    return pygame.Rect(BOARD.x + c * (CELL_W + GAP), BOARD.y + r * (CELL_H + GAP), CELL_W, CELL_H)


SPACES = [space_rect(i) for i in range(16)]


def player_rects(n: int) -> list[pygame.Rect]:
    gap = 12
    w = min(470, (PLAYERS.width - gap * (n - 1)) // n)
    total = w * n + gap * (n - 1)
    x0 = PLAYERS.x + (PLAYERS.width - total) // 2
    return [pygame.Rect(x0 + i * (w + gap), PLAYERS.y, w, PLAYERS.height) for i in range(n)]


# Points the animations fly between.
DECK = (CENTER.x + 330, CENTER.y + 300)
DISCARD = (CENTER.x + 440, CENTER.y + 300)
TILE_STACK = (CENTER.x + 80, CENTER.y + 95)
DIE = (CENTER.x + 450, CENTER.y + 110)
BANK = (CENTER.centerx, CENTER.centery)
# cards played into a deal land right of the laid cards, above the rows' header
NEGOTIATION_TABLE = (RIGHT.x + 700, RIGHT.y + 228)
HAND_CENTER = (HAND.centerx, HAND.y + 120)

# What the middle of the board shows, as areas (the coach keeps them in view): the tile
# stack with its slanted backs and its count below, the deal-value box, the die with the
# height it bounces from.
TILE_STACK_AREA = pygame.Rect(TILE_STACK[0] - 60, TILE_STACK[1] - 46, 146, 150)
DEAL_VALUE = pygame.Rect(CENTER.x + 158, CENTER.y + 18, 200, 150)
DIE_AREA = pygame.Rect(DIE[0] - 32, DIE[1] - 32 - 60, 64, 64 + 60)
