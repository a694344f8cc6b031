"""Where everything sits on the 1920x1080 logical table, in one of two arrangements.

The standard layout is for screens that show the canvas at 0.7 or more (1366x768 and up).
On a small screen (a 1280x720 screen, a 1152x648 window: the canvas at 2/3 or less) the
table takes the compact layout (`use`): the smallest text there is 20 logical px (13.3
screen px at 1280x720, 12 in a 1152x648 window, `theme.min_text_px`), so the corners that
read the most small text are rearranged for it instead of the whole picture being shrunk:
the log folds into a narrow column of its latest lines at the right edge (the whole
history stays on L), which gives the hand 300 px more (ten groups in one row instead of
nine, further apart) and the coach's hint box its own place where the log's corner was.

Modules read the current layout as attributes of this module (`L.HAND`), never copied at
import, so switching it (`use`, from `App.fit_text` and the screenshot tool) moves the
whole table; switching bumps `THEME.epoch`, which redraws every cached picture.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from ..drawing.theme import COMPACT_SCALE, THEME

W, H = 1920, 1080
MARGIN = 16

PLAYERS = pygame.Rect(MARGIN, 10, W - 2 * MARGIN, 132)
BOARD = pygame.Rect(MARGIN, 154, 884, 684)
# the negotiation panel stops short of the bottom row so the log below it has room
RIGHT = pygame.Rect(916, 154, W - 916 - MARGIN, 658)

CELL_W, CELL_H, GAP = 172, 132, 6
CENTER = pygame.Rect(
    BOARD.x + CELL_W + GAP,
    BOARD.y + CELL_H + GAP,
    5 * CELL_W + 4 * GAP - 2 * (CELL_W + GAP),
    5 * CELL_H + 4 * GAP - 2 * (CELL_H + GAP),
)


@dataclass(frozen=True, eq=False)
class Arrangement:
    """The rects the two layouts differ in: the hand, the log and the hint box."""

    name: str
    hand: pygame.Rect
    log: pygame.Rect  # the log under the panel (its latest lines)
    hint: pygame.Rect  # where the coach's hint box stands (over the log, or beside it)
    card_gap: int  # the least room between two cards of the hand's one row


# the log reaches higher and a little lower than the hand: 12 lines of 18 px at 1920x1080
_LOG = pygame.Rect(1296, RIGHT.bottom + 8, W - 1296 - MARGIN, H - 4 - RIGHT.bottom - 8)
STANDARD = Arrangement("standard", pygame.Rect(MARGIN, 850, 1264, 222), _LOG, _LOG, 8)
# the log folded to a column of 336 px at the right edge; the hint box where the log's
# corner was, clear of a hand of up to seven groups (over the far end of a longer row);
# the row's cards keep more room between them (their titles at 20 px, tilted in the fan)
_FOLDED = pygame.Rect(W - MARGIN - 336, _LOG.y, 336, _LOG.height)
_HINT = pygame.Rect(1324, _LOG.y, W - MARGIN - 1324, _LOG.height)
COMPACT = Arrangement(
    "compact", pygame.Rect(MARGIN, 850, _FOLDED.x - 12 - MARGIN, 222), _FOLDED, _HINT, 24
)

ARRANGEMENT = STANDARD
HAND = STANDARD.hand
LOG = STANDARD.log
HINT = STANDARD.hint
# the full-height history opens over the board (the negotiation panel stays usable)
LOG_FULL = pygame.Rect(BOARD.x, BOARD.y, BOARD.width, LOG.bottom - BOARD.y)
HAND_CENTER = (HAND.centerx, HAND.y + 120)


def for_scale(scale: float) -> Arrangement:
    """The layout for a canvas shown at `scale` screen px per canvas px."""
    return COMPACT if scale < COMPACT_SCALE else STANDARD


def use(arrangement: Arrangement) -> bool:
    """Make `arrangement` the table's layout; True if that changed it (every cached
    drawing is then made again: `THEME.epoch`)."""
    global ARRANGEMENT, HAND, LOG, HINT, HAND_CENTER
    if arrangement is ARRANGEMENT:
        return False
    ARRANGEMENT = arrangement
    HAND, LOG, HINT = arrangement.hand, arrangement.log, arrangement.hint
    HAND_CENTER = (HAND.centerx, HAND.y + 120)
    THEME.epoch += 1
    return True


def compact() -> bool:
    return ARRANGEMENT is COMPACT


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
BOTTOM_ROW = range(8, 13)  # spaces 9 to 13, the row the hand stands under


def requirement_rect(space: pygame.Rect) -> pygame.Rect:
    """Where a space shows the clans it requires and its "k of" groups (board.draw_space),
    between its header (number, dividends) and its row of investor figures."""
    return pygame.Rect(space.x + 4, space.y + 32, space.width - 8, space.height - 56)


# the highest a hand card at rest may stand: clear of the bottom row's requirements
HAND_CEILING = requirement_rect(SPACES[BOTTOM_ROW[0]]).bottom + 4


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

# What the middle of the board shows, as areas (the coach keeps them in view): the tile
# stack with its slanted backs and its count below, the deal-value box, the die with the
# height it bounces from.
TILE_STACK_AREA = pygame.Rect(TILE_STACK[0] - 60, TILE_STACK[1] - 46, 146, 150)
DEAL_VALUE = pygame.Rect(CENTER.x + 158, CENTER.y + 18, 200, 150)
DIE_AREA = pygame.Rect(DIE[0] - 32, DIE[1] - 32 - 60, 64, 64 + 60)
